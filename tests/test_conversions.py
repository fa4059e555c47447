"""`sparse_tensor.convert` between sparse encodings, compiled with xsparse.compile
from a one-op function, on random data (fixed seeds) with empty rows and
columns, all-zero and 0-size tensors: every pair of the 2-D encodings (CSR,
CSC, COO, unordered COO, DCSR, DCSC, BSR 2x2), 32- and 64-bit positions and
coordinates, value-type changes, 3-D CSF <-> COO, duplicates and
`sparse_tensor.reorder_coo`. Results are checked against numpy and, for CSR,
CSC and COO results, their storage against scipy's canonical layout."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
from test_integration import mlir_runner, xsparse_run

import xsparse
from xsparse import SparseTensor

MAPS_2D = {
    "CSR": "(i, j) -> (i : dense, j : compressed)",
    "CSC": "(i, j) -> (j : dense, i : compressed)",
    "COO": "(i, j) -> (i : compressed(nonunique), j : singleton)",
    "UCOO": "(i, j) -> (i : compressed(nonunique, nonordered), j : singleton(nonordered))",
    "DCSR": "(i, j) -> (i : compressed, j : compressed)",
    "DCSC": "(i, j) -> (j : compressed, i : compressed)",
    "BSR": "(i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)",
}
MAPS_3D = {
    "CSF": "(i, j, k) -> (i : compressed, j : compressed, k : compressed)",
    "COO3": "(i, j, k) -> (i : compressed(nonunique), j : singleton(nonunique), k : singleton)",
    "DCC": "(i, j, k) -> (i : dense, j : compressed, k : compressed)",
    "KIJ": "(i, j, k) -> (k : compressed, i : compressed, j : compressed)",
}
MAPS_24 = {
    "2:4": "(i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4])"
}
MAPS_DUP = {
    # COO that may repeat a coordinate tuple (a nonunique last level), sorted
    # or not; the default COO promises distinct tuples.
    "DCOO": "(i, j) -> (i : compressed(nonunique), j : singleton(nonunique))",
    "UDCOO": "(i, j) -> (i : compressed(nonunique, nonordered), j : singleton(nonunique, nonordered))",
}
MAPS = {**MAPS_2D, **MAPS_3D, **MAPS_24, **MAPS_DUP}
DTYPES = {"f64": np.float64, "f32": np.float32, "i32": np.int32}


def encoding(name: str, width: int = 0) -> str:
    """The encoding text of a format, with `width`-bit positions and coordinates
    (0: index)."""
    widths = f", posWidth = {width}, crdWidth = {width}" if width else ""
    return f"#sparse_tensor.encoding<{{ map = {MAPS[name]}{widths} }}>"


@dataclass(frozen=True)
class Conversion:
    """A conversion from one format ("dense" for a dense tensor) to another,
    with position/coordinate widths (0: index) and element types."""

    src: str
    dst: str
    src_width: int = 0
    dst_width: int = 0
    src_t: str = "f64"
    dst_t: str = "f64"

    def kernel(self) -> Any:
        """`f(a) = sparse_tensor.convert a`, compiled once."""
        if self not in _compiled:
            rank = 3 if self.dst in MAPS_3D else 2
            shape = "x".join("?" * rank)
            dense = self.src == "dense"
            a = f"tensor<{shape}x{self.src_t}{'' if dense else ', #A'}>"
            b = f"tensor<{shape}x{self.dst_t}, #B>"
            alias = "" if dense else f"#A = {encoding(self.src, self.src_width)}"
            text = f"""
{alias}
#B = {encoding(self.dst, self.dst_width)}
func.func @f(%a: {a}) -> {b} {{
  %b = sparse_tensor.convert %a : {a} to {b}
  return %b : {b}
}}
"""
            _compiled[self] = xsparse.compile(text, entry="f")
        return _compiled[self]


_compiled: dict[Conversion, Any] = {}


def converter(src: str, dst: str) -> Any:
    return Conversion(src, dst).kernel()


def random_array(
    rng: np.random.Generator, shape: tuple[int, ...], density: float, dtype: Any
) -> np.ndarray[Any, Any]:
    """Random entries (integers for integer types), with an empty row and an
    empty column where the shape allows."""
    values = rng.standard_normal(shape) * 10
    dense = (values if np.dtype(dtype).kind == "f" else np.round(values)).astype(dtype)
    dense[rng.random(shape) >= density] = 0
    if len(shape) >= 2 and shape[0] > 2 and shape[1] > 3:
        dense[1] = 0
        dense[:, 2] = 0
    return dense


CASES = {
    "random": ((38, 30), 0.15),
    "dense_rows": ((6, 8), 0.9),
    "all_zero": ((38, 30), 0.0),
    "no_rows": ((0, 30), 0.15),
    "no_columns": ((38, 0), 0.15),
}


def check_storage(result: SparseTensor, source: SparseTensor, name: str) -> None:
    """The result's buffers equal scipy's canonical CSR/CSC (indptr, indices,
    data) or the row-major sorted COO of the source's stored entries."""
    coords, values = source.to_coo()
    rows, cols = coords[:, 0], coords[:, 1]
    ref = sp.coo_array((values, (rows, cols)), shape=source.shape)
    if name in ("CSR", "CSC"):
        m = ref.tocsr() if name == "CSR" else ref.tocsc()
        m.sum_duplicates()
        assert m.has_canonical_format
        pos, crd = result.positions[1], result.coordinates[1]
        assert pos is not None and crd is not None
        assert np.array_equal(pos.astype(np.int64), m.indptr)
        assert np.array_equal(crd.astype(np.int64), m.indices)
        assert np.array_equal(result.values, m.data.astype(result.dtype))
    elif name == "COO":
        order = np.lexsort((cols, rows))
        pos, r, c = result.positions[0], result.coordinates[0], result.coordinates[1]
        assert pos is not None and r is not None and c is not None
        assert list(pos.astype(np.int64)) == [0, values.shape[0]]
        assert np.array_equal(r.astype(np.int64), rows[order])
        assert np.array_equal(c.astype(np.int64), cols[order])
        assert np.array_equal(result.values, values[order].astype(result.dtype))


def run_pair(conv: Conversion, case: str, seed: int = 0) -> None:
    """Convert random data of the case; check values, types and storage."""
    src, dst = conv.src, conv.dst
    shape, density = CASES[case]
    if dst in MAPS_3D:
        shape = (7, 0, 5) if 0 in shape else (7, 6, 5)
    rng = np.random.default_rng(seed)
    array = random_array(rng, shape, density, DTYPES[conv.src_t])
    argument: Any
    if src == "dense":  # the reference: its nonzeros in any encoding
        source = SparseTensor.from_dense(
            array, encoding("CSR" if len(shape) == 2 else "CSF")
        )
        argument = array
    else:
        source = argument = SparseTensor.from_dense(
            array, encoding(src, conv.src_width)
        )
    result = conv.kernel()(argument)
    assert isinstance(result, SparseTensor)
    result.validate()
    assert result.shape == array.shape
    assert result.dtype == DTYPES[conv.dst_t]
    expected = source.to_dense().astype(DTYPES[conv.dst_t])
    np.testing.assert_array_equal(result.to_dense(), expected)
    assert result.nse >= np.count_nonzero(array)
    if dst in MAPS_2D:
        check_storage(result, source, dst)


PAIRS_2D = [(a, b) for a in MAPS_2D for b in MAPS_2D if a != b]


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("width", [0, 32], ids=["index", "i32"])
@pytest.mark.parametrize("src, dst", PAIRS_2D, ids=[f"{a}-{b}" for a, b in PAIRS_2D])
def test_every_2d_pair(src: str, dst: str, width: int, case: str) -> None:
    """Both sides with index (64-bit) or 32-bit positions and coordinates."""
    run_pair(Conversion(src, dst, width, width), case)


PAIRS_3D = [(a, b) for a in MAPS_3D for b in MAPS_3D if a != b]


@pytest.mark.parametrize("case", ["random", "all_zero", "no_rows"])
@pytest.mark.parametrize("src, dst", PAIRS_3D, ids=[f"{a}-{b}" for a, b in PAIRS_3D])
def test_3d(src: str, dst: str, case: str) -> None:
    run_pair(Conversion(src, dst), case, seed=3)


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("dst", [*MAPS_2D, "CSF", "COO3", "KIJ"])
def test_from_dense(dst: str, case: str) -> None:
    """A dense tensor computed at run time (a function argument) -> sparse."""
    run_pair(Conversion("dense", dst), case, seed=4)


WIDTHS = [
    ("CSR", "CSC", 64, 32),
    ("CSR", "CSC", 32, 32),
    ("CSC", "CSR", 32, 64),
    ("COO", "CSR", 32, 0),
    ("CSR", "COO", 0, 32),
    ("CSR", "DCSC", 32, 64),
    ("DCSR", "BSR", 32, 32),
    ("BSR", "CSR", 32, 0),
    ("CSR", "CSR", 0, 32),
    ("COO", "COO", 32, 64),
    ("BSR", "BSR", 0, 32),
    ("CSF", "COO3", 32, 0),
]


@pytest.mark.parametrize("case", ["random", "all_zero", "no_rows"])
@pytest.mark.parametrize(
    "src, dst, src_width, dst_width",
    WIDTHS,
    ids=[f"{a}{w}-{b}{v}" for a, b, w, v in WIDTHS],
)
def test_widths(src: str, dst: str, src_width: int, dst_width: int, case: str) -> None:
    run_pair(Conversion(src, dst, src_width, dst_width), case, seed=1)


VALUE_TYPES = [
    ("CSR", "CSC", "f64", "f32"),
    ("COO", "CSR", "i32", "f64"),
    ("CSR", "CSR", "f64", "f32"),
    ("DCSR", "DCSR", "i32", "f64"),
    ("CSC", "COO", "f32", "f64"),
]


@pytest.mark.parametrize(
    "src, dst, src_t, dst_t",
    VALUE_TYPES,
    ids=[f"{a}{s}-{b}{t}" for a, b, s, t in VALUE_TYPES],
)
def test_value_types(src: str, dst: str, src_t: str, dst_t: str) -> None:
    run_pair(Conversion(src, dst, src_t=src_t, dst_t=dst_t), "random", seed=2)


@pytest.mark.parametrize("dst", ["CSR", "CSC", "COO", "DCSR", "BSR"])
def test_from_2_4(dst: str) -> None:
    """A 2:4 tensor (its padding zeros stay stored, as MLIR keeps them)."""
    rng = np.random.default_rng(6)
    array = np.zeros((6, 8))
    for i in range(6):
        for block in range(2):
            keep = rng.choice(4, size=rng.integers(0, 3), replace=False)
            array[i, block * 4 + keep] = rng.standard_normal(keep.shape[0])
    source = SparseTensor.from_dense(array, encoding("2:4"))
    result = converter("2:4", dst)(source)
    np.testing.assert_array_equal(result.to_dense(), array)
    check_storage(result, source, dst)
    if dst != "BSR":
        assert result.nse == source.nse == 24


def random_2_4(rng: np.random.Generator, rows: int, cols: int) -> np.ndarray[Any, Any]:
    """At most 2 nonzeros in each block of 4 along a row; every count 0, 1, 2
    occurs, and a whole row stays empty."""
    array = np.zeros((rows, cols))
    for i in range(rows):
        if i == 1:
            continue
        for block in range(cols // 4):
            keep = rng.choice(4, size=rng.integers(0, 3), replace=False)
            array[i, block * 4 + keep] = rng.standard_normal(keep.shape[0])
    return array


@pytest.mark.parametrize("src", ["dense", "CSR", "CSC", "COO", "DCSR", "BSR"])
def test_to_2_4(src: str) -> None:
    """Into 2:4: each block keeps its nonzeros, padded with explicit zeros at
    its smallest free coordinates: the storage `SparseTensor.from_dense` (and
    a compile-time constant) has."""
    rng = np.random.default_rng(8)
    for rows, cols in [(6, 8), (4, 16), (0, 8), (2, 0)]:  # BSR: even rows
        array = random_2_4(rng, rows, cols)
        want = SparseTensor.from_dense(array, encoding("2:4"))
        source: Any = (
            array if src == "dense" else SparseTensor.from_dense(array, encoding(src))
        )
        result = converter(src, "2:4")(source)
        result.validate()
        np.testing.assert_array_equal(result.to_dense(), array)
        for got, expected in zip(result.storage(), want.storage(), strict=True):
            np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("src", ["dense", "CSR"])
def test_to_2_4_rejects_a_full_block(src: str) -> None:
    """Three nonzeros in a block of 4: a ValueError once the kernel returns
    (the kernel itself stays within its buffers)."""
    array = np.zeros((4, 8))
    array[2, 4:7] = [1.0, 2.0, 3.0]
    source: Any = array if src == "dense" else sp.csr_array(array)
    with pytest.raises(
        ValueError, match=r"structured\[2, 4\] level: a block of 4 holds more than 2"
    ):
        converter(src, "2:4")(source)
    array[2, 5] = 0.0  # the same kernel still works on valid data
    np.testing.assert_array_equal(
        converter(src, "2:4")(
            source if src == "dense" else sp.csr_array(array)
        ).to_dense(),
        array,
    )


def test_from_scipy_is_canonical() -> None:
    """CSR -> CSC of scipy data: the very buffers of scipy's `tocsc`."""
    rng = np.random.default_rng(7)
    m = sp.random_array((300, 200), density=0.02, rng=rng, format="csr")
    result = converter("CSR", "CSC")(m)
    ref = m.tocsc()
    assert np.array_equal(result.positions[1], ref.indptr)
    assert np.array_equal(result.coordinates[1], ref.indices)
    assert np.array_equal(result.values, ref.data)
    back = converter("CSC", "CSR")(result)
    assert np.array_equal(back.positions[1], m.indptr)
    assert np.array_equal(back.coordinates[1], m.indices)


def coo_with_duplicates(name: str) -> SparseTensor:
    """A 3 x 3 COO that may repeat coordinates (DCOO, unsorted: UDCOO) with
    (0, 1) twice and (1, 2) twice."""
    rows = np.array([0, 0, 1, 1, 1, 2])
    cols = np.array([1, 1, 0, 2, 2, 2])
    values = np.array([1.0, 2.0, 3.0, 4.0, 6.0, 5.0])
    if name == "UDCOO":
        order = np.array([5, 1, 3, 0, 4, 2])
        rows, cols, values = rows[order], cols[order], values[order]
    return SparseTensor(
        encoding(name), (3, 3), [np.array([0, 6]), None], [rows, cols], values
    )


@pytest.mark.parametrize("src", ["DCOO", "UDCOO"])
@pytest.mark.parametrize("dst", ["CSR", "CSC", "DCSR", "COO", "BSR"])
def test_duplicates_are_summed(src: str, dst: str) -> None:
    """Into a format that stores each coordinate once (its last level unique,
    the default COO included), duplicates are summed (as scipy and
    SparseTensor.from_coo do)."""
    result = converter(src, dst)(coo_with_duplicates(src))
    expected = np.array([[0.0, 3.0, 0.0], [3.0, 0.0, 10.0], [0.0, 0.0, 5.0]])
    np.testing.assert_array_equal(result.to_dense()[:3, :3], expected)
    if dst != "BSR":
        assert result.nse == 4


DUPLICATES_SORTED = [(0, 1), (0, 1), (1, 0), (1, 2), (1, 2), (2, 2)]
"""The coordinates of `coo_with_duplicates`, sorted."""


def test_duplicates_are_kept_in_coo() -> None:
    """Into a COO that may repeat coordinates they stay, sorted stably."""
    result = converter("UDCOO", "DCOO")(coo_with_duplicates("UDCOO"))
    assert result.nse == 6
    r, c = result.coordinates[0], result.coordinates[1]
    assert r is not None and c is not None
    assert list(zip(r.tolist(), c.tolist(), strict=True)) == DUPLICATES_SORTED
    assert result.values.tolist() == [2.0, 1.0, 3.0, 4.0, 6.0, 5.0]


def shuffled_coo() -> tuple[np.ndarray[Any, Any], SparseTensor]:
    """A random array and its nonzeros as an unordered COO, shuffled."""
    rng = np.random.default_rng(5)
    array = random_array(rng, (20, 16), 0.3, np.float64)
    rows, cols = np.nonzero(array)
    order = rng.permutation(rows.shape[0])
    rows, cols = rows[order], cols[order]
    source = SparseTensor(
        encoding("UCOO"),
        array.shape,
        [np.array([0, rows.shape[0]]), None],
        [rows, cols],
        array[rows, cols],
    )
    return array, source


def test_unordered_coo_is_sorted() -> None:
    array, source = shuffled_coo()
    for dst in ("CSR", "CSC", "COO", "DCSR"):
        result = converter("UCOO", dst)(source)
        np.testing.assert_array_equal(result.to_dense(), array)
        check_storage(result, source, dst)


def test_reorder_coo() -> None:
    """`sparse_tensor.reorder_coo` sorts an unordered COO."""
    text = f"""
#U = {encoding("UCOO")}
#O = {encoding("COO")}
func.func @f(%a: tensor<?x?xf64, #U>) -> tensor<?x?xf64, #O> {{
  %b = sparse_tensor.reorder_coo quick_sort %a : tensor<?x?xf64, #U> to tensor<?x?xf64, #O>
  return %b : tensor<?x?xf64, #O>
}}
"""
    array, source = shuffled_coo()
    result = xsparse.compile(text, entry="f")(source)
    np.testing.assert_array_equal(result.to_dense(), array)
    check_storage(result, source, "COO")


SORT_PROGRAM = """
module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c0_i32 = arith.constant 0 : i32
    %c0_i64 = arith.constant 0 : i64
    %f0 = arith.constant 0.0 : f64
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %xy_init = arith.constant dense<[1, 2, 90,  0, 3, 91,  1, 1, 92,  0, 1, 93,
                                     2, 2, 94,  1, 2, 95,  0, 0, 96]> : tensor<21xi64>
    %y_init = arith.constant dense<[10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0]> : tensor<7xf64>
    %keys_init = arith.constant dense<[5, 3, 9, 1, 7, 2, 8, 6]> : tensor<8xi32>
    %xy_c = bufferization.to_buffer %xy_init : tensor<21xi64> to memref<21xi64>
    %y_c = bufferization.to_buffer %y_init : tensor<7xf64> to memref<7xf64>
    %keys_c = bufferization.to_buffer %keys_init : tensor<8xi32> to memref<8xi32>
    %xy = memref.alloc() : memref<21xi64>
    %y = memref.alloc() : memref<7xf64>
    %keys = memref.alloc() : memref<8xi32>
    "memref.copy"(%xy_c, %xy) : (memref<21xi64>, memref<21xi64>) -> ()
    "memref.copy"(%y_c, %y) : (memref<7xf64>, memref<7xf64>) -> ()
    "memref.copy"(%keys_c, %keys) : (memref<8xi32>, memref<8xi32>) -> ()
    sparse_tensor.sort insertion_sort_stable %c7, %xy jointly %y {perm_map = affine_map<(i, j) -> (j, i)>, ny = 1 : index} : memref<21xi64> jointly memref<7xf64>
    sparse_tensor.sort hybrid_quick_sort %c5, %keys {perm_map = affine_map<(i) -> (i)>} : memref<8xi32>
    %v = vector.transfer_read %xy[%c0], %c0_i64 : memref<21xi64>, vector<21xi64>
    vector.print %v : vector<21xi64>
    %w = vector.transfer_read %y[%c0], %f0 : memref<7xf64>, vector<7xf64>
    vector.print %w : vector<7xf64>
    %k = vector.transfer_read %keys[%c0], %c0_i32 : memref<8xi32>, vector<8xi32>
    vector.print %k : vector<8xi32>
    memref.dealloc %xy : memref<21xi64>
    memref.dealloc %y : memref<7xf64>
    memref.dealloc %keys : memref<8xi32>
    return
  }
}
"""

SORTED = """( 0, 0, 96, 0, 1, 93, 1, 1, 92, 1, 2, 90, 1, 2, 95, 2, 2, 94, 0, 3, 91 )
( 70, 40, 30, 10, 60, 50, 20 )
( 1, 3, 5, 7, 9, 2, 8, 6 )
"""


def test_sort_buffers(tmp_path: Path) -> None:
    """`sparse_tensor.sort`: tuples of two keys compared column first (the
    permutation map), with a y value inside each tuple (ny = 1) and a buffer
    sorted jointly; equal keys keep their order; only the first n sorted.
    Prints what MLIR 22 prints (checked when its tools are installed; its
    runtime library does not sort buffers, hence direct codegen)."""
    program = tmp_path / "sort.mlir"
    program.write_text(SORT_PROGRAM)
    assert xsparse_run(program) == SORTED
    if shutil.which("mlir-opt-22") and shutil.which("mlir-runner-22"):
        direct = "--sparsifier=enable-runtime-library=false"
        assert mlir_runner(program, direct) == SORTED
