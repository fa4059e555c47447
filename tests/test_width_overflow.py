"""Positions and coordinates that do not fit a result's `posWidth` /
`crdWidth` are a ValueError naming the width, on every path that writes them
(insertion, expand/compress, row loops on threads, conversions, the Python
builders), sequential and on threads; never wrapped or truncated values."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse
from xsparse import SparseTensor
from xsparse.backend import threads
from xsparse.testing.kernel_cases import output_width_fit, random_case
from xsparse.testing.kernel_reference import expected_output
from xsparse.testing.kernels import arguments, check
from xsparse.testing.outcome import Verdict

CSR = "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>"
SV = "#sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>"
STRATEGIES = ["none", "any-storage-outer-loop"]


def narrow(widths: str, fmt: str = "(i : dense, j : compressed)") -> str:
    return f"#sparse_tensor.encoding<{{ map = (i, j) -> {fmt}, {widths} }}>"


@pytest.fixture(autouse=True)
def on_the_pool(every_loop_on_threads: None) -> None:
    """Grain 0 (conftest): at two threads every parallel loop of two or more
    iterations runs on the pool; the thread count is restored after."""


def on_threads(kernel: Any, *args: Any) -> list[Any]:
    """The kernel's result at one and two threads (the same each time)."""
    results = []
    for count in (1, 2):
        threads.set_num_threads(count)
        results.append(kernel(*args))
    return results


def refused(kernel: Any, *args: Any, match: str) -> None:
    """The kernel refuses `args` with a ValueError matching `match`, at one
    and two threads."""
    for count in (1, 2):
        threads.set_num_threads(count)
        with pytest.raises(ValueError, match=match):
            kernel(*args)


POSITIONS_8 = "more entries than its 8-bit positions hold"
COORDINATES_8 = "a coordinate that its 8-bit coordinates cannot hold"

OUTER = """
#SV = SV_ENC
#O = OUT_ENC
#trait = {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @outer(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>) -> tensor<?x?xf64, #O> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %a, %c0 : tensor<?xf64, #SV>
  %d1 = tensor.dim %b, %c0 : tensor<?xf64, #SV>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf64, #O>
  %r = linalg.generic #trait ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%init : tensor<?x?xf64, #O>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %m = arith.mulf %x, %y : f64
    linalg.yield %m : f64
  } -> tensor<?x?xf64, #O>
  return %r : tensor<?x?xf64, #O>
}
"""


def vector(n: int, where: list[int]) -> SparseTensor:
    return SparseTensor.from_coo(
        np.array(where)[:, None], np.ones(len(where)), (n,), SV
    )


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize(
    "fmt",
    [
        "(i : dense, j : compressed)",
        "(i : compressed, j : compressed)",
        "(i : compressed(nonunique), j : singleton)",
    ],
)
def test_outer_product_into_narrow_positions(strategy: str, fmt: str) -> None:
    """The issue's case: 20 x 20 = 400 entries into `posWidth = 8` wrapped
    (..., 240, 4, 24, ...); 15 x 15 = 225 fit (unsigned, as MLIR reads them)."""
    text = OUTER.replace("SV_ENC", SV).replace("OUT_ENC", narrow("posWidth = 8", fmt))
    kernel = xsparse.compile(text, parallelization_strategy=strategy)
    fits = vector(15, list(range(15)))
    for result in on_threads(kernel, fits, fits):
        np.testing.assert_array_equal(result.toarray(), np.ones((15, 15)))
    full = vector(20, list(range(20)))
    refused(kernel, full, full, match=POSITIONS_8)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize(
    "fmt",
    [
        "(i : dense, j : compressed)",
        "(i : compressed, j : compressed)",
        "(i : compressed(nonunique), j : singleton)",
    ],
)
def test_outer_product_into_narrow_coordinates(strategy: str, fmt: str) -> None:
    """Column 290 under `crdWidth = 8` was stored as 34; 255 is the largest
    that fits. Row 290 is stored only where the row level has coordinates."""
    text = OUTER.replace("SV_ENC", SV).replace("OUT_ENC", narrow("crdWidth = 8", fmt))
    kernel = xsparse.compile(text, parallelization_strategy=strategy)
    for result in on_threads(kernel, vector(2, [1]), vector(300, [255])):
        np.testing.assert_array_equal(result.to_coo()[0], [[1, 255]])
    refused(kernel, vector(2, [1]), vector(300, [290]), match=COORDINATES_8)
    if fmt.startswith("(i : dense"):
        for result in on_threads(kernel, vector(300, [290]), vector(2, [1])):
            np.testing.assert_array_equal(result.to_coo()[0], [[290, 1]])
    else:
        refused(kernel, vector(300, [290]), vector(2, [1]), match=COORDINATES_8)


SPGEMM = """
#CSR = CSR_ENC
#O = OUT_ENC
#trait = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @spgemm(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #O> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR>
  %d1 = tensor.dim %b, %c1 : tensor<?x?xf64, #CSR>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf64, #O>
  %r = linalg.generic #trait ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64, #CSR>) outs(%init : tensor<?x?xf64, #O>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %o, %m : f64
    linalg.yield %s : f64
  } -> tensor<?x?xf64, #O>
  return %r : tensor<?x?xf64, #O>
}
"""

ADD = """
#CSR = CSR_ENC
#O = OUT_ENC
#trait = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @add(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #O> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf64, #CSR>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf64, #O>
  %r = linalg.generic #trait ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64, #CSR>) outs(%init : tensor<?x?xf64, #O>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = arith.addf %x, %y : f64
    linalg.yield %s : f64
  } -> tensor<?x?xf64, #O>
  return %r : tensor<?x?xf64, #O>
}
"""


def csr(matrix: Any) -> SparseTensor:
    return SparseTensor.from_scipy(sp.csr_array(matrix), CSR)


def kernel_into(text: str, out: str, strategy: str) -> Any:
    source = text.replace("CSR_ENC", CSR).replace("OUT_ENC", out)
    return xsparse.compile(source, parallelization_strategy=strategy)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_spgemm_into_narrow_positions(strategy: str) -> None:
    """Expand/compress (sequential) and its count / fill phases on threads:
    one row of 300 entries (its count wrapped to 44 before the prefix sum,
    and the fill wrote 300 entries into room for 44), 17 rows of 17 entries
    (the total wraps), 15 x 15 fit."""
    kernel = kernel_into(SPGEMM, narrow("posWidth = 8"), strategy)
    column, row = csr(np.ones((15, 1))), csr(np.ones((1, 15)))
    for result in on_threads(kernel, column, row):
        np.testing.assert_array_equal(result.toarray(), np.ones((15, 15)))
    refused(kernel, csr(np.ones((1, 1))), csr(np.ones((1, 300))), match=POSITIONS_8)
    refused(kernel, csr(np.ones((17, 1))), csr(np.ones((1, 17))), match=POSITIONS_8)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_spgemm_into_narrow_coordinates(strategy: str) -> None:
    kernel = kernel_into(SPGEMM, narrow("crdWidth = 8"), strategy)
    one = csr(np.ones((1, 1)))
    for result in on_threads(kernel, one, csr(np.eye(1, 300, 255))):
        np.testing.assert_array_equal(result.to_coo()[0], [[0, 255]])
    refused(kernel, one, csr(np.eye(1, 300, 290)), match=COORDINATES_8)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_sparse_add_into_narrow_widths(strategy: str) -> None:
    """Insertion in order (sequential) and its count / fill phases on
    threads: a row of 256 entries, 16 rows of 16, a column of 290."""
    positions = kernel_into(ADD, narrow("posWidth = 8"), strategy)
    a = sp.random_array((16, 16), density=0.5, rng=1, format="csr")
    b = sp.random_array((16, 16), density=0.5, rng=2, format="csr")
    for result in on_threads(positions, csr(a), csr(b)):
        np.testing.assert_allclose(result.toarray(), (a + b).toarray())
    full = csr(np.ones((16, 16)))
    refused(positions, full, full, match=POSITIONS_8)
    wide = csr(np.ones((1, 256)))
    refused(positions, wide, wide, match=POSITIONS_8)
    coordinates = kernel_into(ADD, narrow("crdWidth = 8"), strategy)
    last = csr(np.eye(1, 300, 255))
    for result in on_threads(coordinates, last, last):
        np.testing.assert_array_equal(result.to_coo()[0], [[0, 255]])
    far = csr(np.eye(1, 300, 290))
    refused(coordinates, far, far, match=COORDINATES_8)


def convert(source: str, target: str, dense_source: bool = False) -> str:
    """`sparse_tensor.convert` from `source` (or a dense matrix) to `target`."""
    src = "tensor<?x?xf64>" if dense_source else "tensor<?x?xf64, #SRC>"
    dst = "tensor<?x?xf64, #DST>"
    return (
        (f"#SRC = {source}\n" if source else "") + f"#DST = {target}\n"
        f"func.func @convert(%a: {src}) -> {dst} {{\n"
        f"  %0 = sparse_tensor.convert %a : {src} to {dst}\n"
        f"  return %0 : {dst}\n}}\n"
    )


COO = "(i : compressed(nonunique), j : singleton)"
DCSR = "(i : compressed, j : compressed)"
CSC = "(j : dense, i : compressed)"
TARGETS = [
    "(i : dense, j : compressed)",  # CSR -> CSR: the buffers cast
    CSC,
    DCSR,
    COO,
    "(i : compressed(nonunique), j : singleton(nonordered))",
]


def narrow_target(fmt: str, widths: str) -> str:
    dims = "(i, j)"
    return f"#sparse_tensor.encoding<{{ map = {dims} -> {fmt}, {widths} }}>"


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("fmt", TARGETS)
def test_sparse_conversion_into_narrow_positions(strategy: str, fmt: str) -> None:
    """CSR -> CSR(posWidth = 8) wrapped (..., 238, 255, 16, 33, ...); every
    target format, sequential and on threads: 255 entries fit, 256 do not,
    nor one row (column) of 300."""
    text = convert(CSR, narrow_target(fmt, "posWidth = 8"))
    kernel = xsparse.compile(text, parallelization_strategy=strategy)
    entries = np.arange(255)
    fits = sp.csr_array((np.ones(255), (entries // 10, entries % 10)), shape=(30, 10))
    for result in on_threads(kernel, csr(fits)):
        np.testing.assert_array_equal(result.toarray(), fits.toarray())
    refused(kernel, csr(np.ones((16, 16))), match=POSITIONS_8)
    refused(kernel, csr(np.ones((1, 300))), match=POSITIONS_8)
    refused(kernel, csr(np.ones((300, 1))), match=POSITIONS_8)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("fmt", TARGETS)
def test_sparse_conversion_into_narrow_coordinates(strategy: str, fmt: str) -> None:
    text = convert(CSR, narrow_target(fmt, "crdWidth = 8"))
    kernel = xsparse.compile(text, parallelization_strategy=strategy)
    corner = sp.csr_array(([1.0, 2.0], ([0, 255], [255, 0])), shape=(300, 300))
    for result in on_threads(kernel, csr(corner)):
        np.testing.assert_array_equal(result.toarray(), corner.toarray())
    row_stored, column_stored = fmt != TARGETS[0], fmt != CSC
    for at, stored in (((0, 290), column_stored), ((290, 0), row_stored)):
        far = sp.csr_array(([1.0], ([at[0]], [at[1]])), shape=(300, 300))
        if stored:
            refused(kernel, csr(far), match=COORDINATES_8)
        else:  # a dense level keeps no coordinates
            for result in on_threads(kernel, csr(far)):
                np.testing.assert_array_equal(result.toarray(), far.toarray())


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("fmt", TARGETS)
def test_dense_conversion_into_narrow_widths(strategy: str, fmt: str) -> None:
    """Dense -> sparse: on threads, each row's count wrapped before the prefix
    sum (a row of 300 nonzeros counted 44) and the fill dropped the rest."""
    positions = convert("", narrow_target(fmt, "posWidth = 8"), dense_source=True)
    kernel = xsparse.compile(positions, parallelization_strategy=strategy)
    fits = np.ones((15, 17))
    for result in on_threads(kernel, fits):
        np.testing.assert_array_equal(result.toarray(), fits)
    refused(kernel, np.ones((1, 300)), match=POSITIONS_8)
    refused(kernel, np.ones((300, 1)), match=POSITIONS_8)
    refused(kernel, np.ones((16, 16)), match=POSITIONS_8)
    coordinates = convert("", narrow_target(fmt, "crdWidth = 8"), dense_source=True)
    kernel = xsparse.compile(coordinates, parallelization_strategy=strategy)
    far = np.zeros((300, 300))
    far[290, 290] = 1.0
    refused(kernel, far, match=COORDINATES_8)


@pytest.mark.parametrize("fmt", [DCSR, "(i : dense, j : compressed)"])
def test_coo_with_duplicates_into_narrow_positions(fmt: str) -> None:
    """Entries that may repeat are merged before the levels are built: the
    merged count is the one checked (300 duplicates of one entry fit)."""
    repeats = "(i : compressed(nonunique), j : singleton(nonunique))"
    source = f"#sparse_tensor.encoding<{{ map = (i, j) -> {repeats} }}>"
    kernel = xsparse.compile(convert(source, narrow_target(fmt, "posWidth = 8")))
    rows = np.zeros(300, np.int64)
    same = SparseTensor(
        source, (2, 2), [np.array([0, 300]), None], [rows, rows], np.ones(300)
    )
    for result in on_threads(kernel, same):
        np.testing.assert_array_equal(result.toarray(), [[300.0, 0.0], [0.0, 0.0]])
    many = np.arange(300)
    spread = SparseTensor(
        source, (1, 300), [np.array([0, 300]), None], [0 * many, many], np.ones(300)
    )
    refused(kernel, spread, match=POSITIONS_8)


CONCAT_FORMATS = [TARGETS[0], CSC, DCSR, COO]


def concat(fmt: str, widths: str, dim: int) -> Any:
    """`subset.concat` of two matrices in a narrow-width encoding."""
    t = "tensor<?x?xf64, #N>"
    text = f"""#N = {narrow_target(fmt, widths)}
func.func @concat(%a: {t}, %b: {t}) -> {t} {{
  %r = subset.concat %a and %b along dimension = {dim} : {t} and {t} into {t}
  return %r : {t}
}}
"""
    return xsparse.compile(text)


def in_format(matrix: Any, fmt: str, widths: str) -> SparseTensor:
    coo = sp.coo_array(matrix)
    coords = np.stack([coo.row, coo.col], axis=1)
    return SparseTensor.from_coo(
        coords, coo.data, coo.shape, narrow_target(fmt, widths)
    )


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("fmt", CONCAT_FORMATS)
def test_concat_into_narrow_positions(fmt: str, dim: int) -> None:
    """Two operands of 150 entries each fit `posWidth = 8`; their 300 do not."""
    kernel = concat(fmt, "posWidth = 8", dim)
    small = in_format(np.ones((10, 10)), fmt, "posWidth = 8")
    for result in on_threads(kernel, small, small):
        np.testing.assert_array_equal(
            result.toarray(), np.ones((20, 10)[:: 1 - 2 * dim])
        )
    half = in_format(np.ones((10, 15)), fmt, "posWidth = 8")
    refused(kernel, half, half, match=POSITIONS_8)


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("fmt", CONCAT_FORMATS)
def test_concat_into_narrow_coordinates(fmt: str, dim: int) -> None:
    """Operands of 200 along the concatenated dimension: the second one's
    coordinates shifted past 255 do not fit `crdWidth = 8` where the result
    stores that dimension's coordinates."""
    kernel = concat(fmt, "crdWidth = 8", dim)
    shape = (200, 2) if dim == 0 else (2, 200)
    first = np.zeros(shape)
    first[(0, 0)] = 1.0
    a = in_format(first, fmt, "crdWidth = 8")
    expected = np.concatenate([first, first], axis=dim)
    for result in on_threads(kernel, a, a):  # coordinates 0 and 200
        np.testing.assert_array_equal(result.toarray(), expected)
    last = np.zeros(shape)
    last[(199, 1) if dim == 0 else (1, 199)] = 1.0
    b = in_format(last, fmt, "crdWidth = 8")
    stored = {0: fmt != TARGETS[0], 1: fmt != CSC}[dim]
    if stored:
        refused(kernel, b, b, match=COORDINATES_8)
    else:
        for result in on_threads(kernel, b, b):
            np.testing.assert_array_equal(
                result.toarray(), np.concatenate([last, last], axis=dim)
            )


def collapse(widths: str, target: str = "(i : compressed)") -> Any:
    """A 20 x 20 CSR matrix collapsed into a 400-vector of narrow widths
    (the row-major source keeps its values; coordinates are computed) and the
    same into a COO of shape 400 x 1 (the general path, through entries)."""
    sv = f"#sparse_tensor.encoding<{{ map = (i) -> {target}, {widths} }}>"
    text = f"""#CSR = {CSR}
#SV = {sv}
func.func @collapse(%a: tensor<20x20xf64, #CSR>) -> tensor<400xf64, #SV> {{
  %r = tensor.collapse_shape %a [[0, 1]] : tensor<20x20xf64, #CSR> into tensor<400xf64, #SV>
  return %r : tensor<400xf64, #SV>
}}
"""
    return xsparse.compile(text)


@pytest.mark.parametrize("target", ["(i : compressed)", "(i : dense)"])
def test_reshape_into_narrow_widths(target: str) -> None:
    at = np.zeros((20, 20))
    at[12, 15] = 1.0  # 255
    coordinates = collapse("crdWidth = 8", target)
    for result in on_threads(coordinates, csr(at)):
        np.testing.assert_array_equal(result.toarray(), at.reshape(400))
    past = np.zeros((20, 20))
    past[12, 16] = 1.0  # 256
    if target == "(i : compressed)":
        refused(coordinates, csr(past), match=COORDINATES_8)
    positions = collapse("posWidth = 8", target)
    fits = np.ones((20, 20)) * (np.arange(400).reshape(20, 20) < 255)
    for result in on_threads(positions, csr(fits)):
        np.testing.assert_array_equal(result.toarray(), fits.reshape(400))
    if target == "(i : compressed)":
        refused(positions, csr(np.ones((20, 20))), match=POSITIONS_8)


def test_coordinate_past_32_bits() -> None:
    """2^32 + 7 under `crdWidth = 32` was stored as 7."""
    text = OUTER.replace("SV_ENC", SV).replace("OUT_ENC", narrow("crdWidth = 32"))
    kernel = xsparse.compile(text)
    big = 2**32 + 8
    last = 2**32 - 1
    for result in on_threads(kernel, vector(1, [0]), vector(big, [last])):
        np.testing.assert_array_equal(result.to_coo()[0], [[0, last]])
    refused(
        kernel,
        vector(1, [0]),
        vector(big, [big - 1]),
        match="a coordinate that its 32-bit coordinates cannot hold",
    )


READ = """
#ENC = ENCODING
func.func private @getTensorFilename(index) -> (!llvm.ptr)
func.func @read() -> tensor<?x?xf64, #ENC> {
  %c0 = arith.constant 0 : index
  %f = call @getTensorFilename(%c0) : (index) -> (!llvm.ptr)
  %t = sparse_tensor.new %f : !llvm.ptr to tensor<?x?xf64, #ENC>
  return %t : tensor<?x?xf64, #ENC>
}
"""

FILE_FORMATS = [TARGETS[0], COO, DCSR, CSC]


@pytest.mark.parametrize("fmt", FILE_FORMATS)
def test_files_read_into_narrow_widths(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    """`read_mtx` / `read_tns` and `sparse_tensor.new` into `posWidth = 8` /
    `crdWidth = 8`: a file that does not fit is a ValueError naming the
    width, one that does is read as it is."""
    crowded = tmp_path / "crowded.mtx"
    xsparse.write_mtx(crowded, sp.coo_array(np.ones((1, 300))))
    far = tmp_path / "far.mtx"
    xsparse.write_mtx(far, sp.coo_array(([1.0], ([290], [290])), shape=(300, 300)))
    near = tmp_path / "near.mtx"
    xsparse.write_mtx(near, sp.coo_array(([1.0], ([255], [255])), shape=(300, 300)))
    tns = tmp_path / "far.tns"
    xsparse.write_tns(tns, sp.coo_array(([1.0], ([290], [290])), shape=(300, 300)))
    for path, widths, fits in (
        (crowded, "posWidth = 8", False),
        (far, "crdWidth = 8", False),
        (near, "crdWidth = 8", True),
    ):
        enc = narrow_target(fmt, widths)
        kernel = xsparse.compile(READ.replace("ENCODING", enc))
        monkeypatch.setenv("TENSOR0", str(path))
        expected = xsparse.read_mtx(path).toarray()
        if fits:
            np.testing.assert_array_equal(
                xsparse.read_mtx(path, enc).toarray(), expected
            )
            np.testing.assert_array_equal(kernel().toarray(), expected)
            continue
        with pytest.raises(ValueError, match="does not fit in 8 bits"):
            xsparse.read_mtx(path, enc)
        with pytest.raises(ValueError, match="does not fit in 8 bits"):
            kernel()
    with pytest.raises(ValueError, match="does not fit in 8 bits"):
        xsparse.read_tns(tns, narrow_target(fmt, "crdWidth = 8"))


@pytest.mark.parametrize("fmt", FILE_FORMATS)
def test_python_builders_refuse_narrow_widths(fmt: str) -> None:
    """`from_coo`, `from_dense`, `from_scipy` (CSR / CSC buffers cast, other
    formats through COO)."""
    crowded = np.ones((16, 16))
    far = np.zeros((300, 300))
    far[290, 290] = 1.0
    for dense, widths in ((crowded, "posWidth = 8"), (far, "crdWidth = 8")):
        enc = narrow_target(fmt, widths)
        with pytest.raises(ValueError, match="does not fit in 8 bits"):
            SparseTensor.from_dense(dense, enc)
        for kind in (sp.csr_array, sp.csc_array, sp.coo_array):
            with pytest.raises(ValueError, match="does not fit in 8 bits"):
                SparseTensor.from_scipy(kind(dense), enc)
        coo = sp.coo_array(dense)
        coords = np.stack([coo.row, coo.col], axis=1)
        with pytest.raises(ValueError, match="does not fit in 8 bits"):
            SparseTensor.from_coo(coords, coo.data, dense.shape, enc)


# -- shapes are integers ----------------------------------------------------------


class Size:
    """An integer that is not an int: numpy's rules take it (`__index__`)."""

    def __index__(self) -> int:
        return 4


BAD_SHAPES = [
    ((4.5, 4), "dimension 0 is 4.5 \\(float\\), not an integer"),
    ((4, 4.0), "dimension 1 is 4.0 \\(float\\), not an integer"),
    ((np.float64(4), 4), "dimension 0 is .*4.0.*not an integer"),
    ((True, 4), "dimension 0 is True \\(bool\\), not an integer"),
    (("4", 4), "dimension 0 is '4' \\(str\\), not an integer"),
    ((-1, 4), "dimension 0 is negative \\(-1\\)"),
    ((4, np.int64(-3)), "dimension 1 is negative \\(-3\\)"),
    (None, "dimension 0 is None \\(NoneType\\), not an integer"),
    (np.array([4.0, 4.0]), "dimension 0 is 4.0 \\(float\\), not an integer"),
]
MATRIX_FORMATS = [TARGETS[0], CSC, DCSR, COO, "(i : dense, j : dense)"]


@pytest.mark.parametrize("fmt", MATRIX_FORMATS)
@pytest.mark.parametrize(("shape", "message"), BAD_SHAPES)
def test_shapes_that_are_not_sizes_are_refused(
    fmt: str, shape: Any, message: str
) -> None:
    """`from_coo(..., shape=(4.5, 4))` truncated the shape for some encodings
    and failed with numpy's casting message for others: every constructor
    that takes a shape refuses it with the same ValueError."""
    enc = f"#sparse_tensor.encoding<{{ map = (i, j) -> {fmt} }}>"
    with pytest.raises(ValueError, match=message):
        SparseTensor.from_coo([[0, 1], [2, 3]], [1.0, 2.0], shape, enc)
    good = SparseTensor.from_coo([[0, 1], [2, 3]], [1.0, 2.0], (4, 4), enc)
    with pytest.raises(ValueError, match=message):
        SparseTensor(enc, shape, good.positions, good.coordinates, good.values)


@pytest.mark.parametrize("fmt", MATRIX_FORMATS)
def test_integer_shapes_of_any_kind(fmt: str) -> None:
    """numpy integers and objects with `__index__` are sizes, as in numpy;
    the shape is kept as Python ints."""
    enc = f"#sparse_tensor.encoding<{{ map = (i, j) -> {fmt} }}>"
    expected = np.zeros((4, 4))
    expected[0, 1], expected[2, 3] = 1.0, 2.0
    for shape in ((np.int64(4), np.int32(4)), (Size(), 4), np.array([4, 4])):
        t = SparseTensor.from_coo([[0, 1], [2, 3]], [1.0, 2.0], shape, enc)
        assert t.shape == (4, 4) and all(type(s) is int for s in t.shape)
        np.testing.assert_array_equal(t.toarray(), expected)
        same = SparseTensor(enc, shape, t.positions, t.coordinates, t.values)
        assert same.shape == (4, 4)


def test_vector_shape_of_one_size() -> None:
    """A size alone is the shape of a vector, as numpy reads it."""
    t = SparseTensor.from_coo([[3]], [1.0], np.int64(5), SV)
    assert t.shape == (5,)
    np.testing.assert_array_equal(t.toarray(), [0, 0, 0, 1, 0])
    with pytest.raises(ValueError, match="dimension 0 is 5.0"):
        SparseTensor.from_coo([[3]], [1.0], 5.0, SV)


def test_coordinates_that_are_not_integers_are_refused() -> None:
    """Float coordinates were truncated (1.5 read as 1)."""
    with pytest.raises(ValueError, match="coordinates must be integers, not float64"):
        SparseTensor.from_coo([[1.5, 0]], [1.0], (4, 4), CSR)
    t = SparseTensor.from_coo(np.array([[1, 0]], np.uint8), [1.0], (4, 4), CSR)
    assert t.to_coo()[0].tolist() == [[1, 0]]


def test_file_shapes_are_integers(tmp_path: Any) -> None:
    """`read_tns(shape=...)` of a plain FROSTT file."""
    path = tmp_path / "plain.tns"
    path.write_text("1 2 3.0\n")
    np.testing.assert_array_equal(
        xsparse.read_tns(path, shape=(np.int64(2), 3)).toarray(),
        [[0, 3.0, 0], [0, 0, 0]],
    )
    with pytest.raises(ValueError, match="dimension 1 is 3.5"):
        xsparse.read_tns(path, shape=(2, 3.5))
    with pytest.raises(ValueError, match="dimension 0 is negative"):
        xsparse.read_tns(path, shape=(-2, 3))


# -- the kernel generator draws narrow results -------------------------------------


def test_generated_cases_draw_narrow_results() -> None:
    """Among the seeds `test_generated_kernels` runs, some results get
    widths that cannot hold them, others widths that may not."""
    fits = [output_width_fit(random_case(seed), None) for seed in range(900)]
    assert fits.count("may overflow") >= 10


@pytest.mark.parametrize(
    ("seed", "fit"),
    [(209, "overflows"), (774, "may overflow"), (459, "may overflow")],
)
def test_generated_result_its_widths_cannot_hold(seed: int, fit: str) -> None:
    """Seed 209 (a COO result of 7 x 21 x 6 in `posWidth = 8` with more than
    255 nonzeros), 774 and 459 (summed in the kernel, on 4 threads): the
    width ValueError, which the checker takes as the right answer; the same
    case with 64-bit widths computes numpy's result."""
    case = random_case(seed)
    assert case.out_format is not None and case.out_format.pos_width == 8
    expected = None if case.then_sum else expected_output(case, arguments(case)[1])
    assert output_width_fit(case, expected) == fit
    outcome = check(case)
    assert outcome.verdict is Verdict.OK
    assert "refused: the result has more entries than its 8-bit positions hold" in (
        outcome.detail
    )
    wide = replace(case, out_format=replace(case.out_format, pos_width=0, crd_width=0))
    assert output_width_fit(wide, expected) == "fits"
    outcome = check(wide)
    assert outcome.verdict is Verdict.OK and "refused" not in outcome.detail


def test_generated_result_that_must_be_refused_is_wrong_when_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A result classified as overflowing that the kernel returns anyway is
    WRONG (seed 209 with 64-bit widths, taken for one that overflows)."""
    import xsparse.testing.kernels as kernels

    case = random_case(209)
    assert case.out_format is not None
    wide = replace(case, out_format=replace(case.out_format, pos_width=0, crd_width=0))
    monkeypatch.setattr(kernels, "output_width_fit", lambda *_: "overflows")
    outcome = check(wide)
    assert outcome.verdict is Verdict.WRONG
    assert "does not fit its widths, but no ValueError was raised" in outcome.detail


@pytest.mark.parametrize(
    ("widths", "shape", "message"),
    [
        ("posWidth = 8", (20, 20), POSITIONS_8),
        ("crdWidth = 8", (2, 300), COORDINATES_8),
    ],
)
def test_constants_into_narrow_widths(
    widths: str, shape: tuple[int, int], message: str
) -> None:
    """A dense constant converted at compile time: a located error (it was
    xDSL's "Integer value 260 is out of range for type i8")."""
    t = f"tensor<{shape[0]}x{shape[1]}xf64"
    text = f"""#N = {narrow(widths)}
func.func @c() -> {t}, #N> {{
  %d = arith.constant dense<1.0> : {t}>
  %s = sparse_tensor.convert %d : {t}> to {t}, #N>
  return %s : {t}, #N>
}}"""
    with pytest.raises(xsparse.XSparseError, match=f"<source>:4:3: error: .*{message}"):
        xsparse.compile(text)
    small = (15, 17) if shape[0] == 20 else (2, 256)
    fits = text.replace(f"{shape[0]}x{shape[1]}", f"{small[0]}x{small[1]}")
    np.testing.assert_array_equal(xsparse.compile(fits)().toarray(), np.ones(small))
