"""Sparse concatenation and reshape by level buffers (`xsparse.transforms.storage.concat`,
`xsparse.transforms.storage.reshape`), run through the Python API.

Concatenations of random CSR, CSC, COO and DCSR matrices (fixed seeds; empty
rows, all-zero operands, operands without rows or columns, one to four
operands) along either dimension are compared with `scipy.sparse.vstack` /
`hstack`: the level buffers exactly where the format is canonical (CSR, CSC),
the dense contents and the storage order otherwise. Reshapes are compared
with numpy's `reshape`, and the ones that keep buffers are checked to share
them with their operand.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse
from xsparse import SparseTensor

ENCODINGS = {
    "csr": "(i, j) -> (i : dense, j : compressed)",
    "csc": "(i, j) -> (j : dense, i : compressed)",
    "coo": "(i, j) -> (i : compressed(nonunique), j : singleton)",
    "dcsr": "(i, j) -> (i : compressed, j : compressed)",
    "bsr": "(i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed,"
    " i mod 2 : dense, j mod 2 : dense)",
    "sv": "(i) -> (i : compressed)",
    "ddc": "(i, j, k) -> (i : dense, j : dense, k : compressed)",
    "coo3": "(i, j, k) -> (i : compressed(nonunique), j : singleton, k : singleton)",
    "csf": "(i, j, k) -> (i : compressed, j : compressed, k : compressed)",
    "dense": "",
}


def encoding(fmt: str) -> str:
    return f"#sparse_tensor.encoding<{{ map = {ENCODINGS[fmt]} }}>"


def tensor_type(fmt: str, shape: tuple[int | None, ...]) -> str:
    dims = "x".join("?" if s is None else str(s) for s in shape)
    enc = "" if fmt == "dense" else f", #{fmt.upper()}"
    return f"tensor<{dims}xf64{enc}>"


def aliases(*fmts: str) -> str:
    return "\n".join(
        f"#{f.upper()} = {encoding(f)}" for f in sorted(set(fmts)) if f != "dense"
    )


def subset_concat(fmts: list[str], dim: int, result: str, rank: int = 2) -> str:
    """`@concat`: `subset.concat` of dynamic-shape operands of these formats."""
    shape = (None,) * rank
    args = ", ".join(f"%a{i}: {tensor_type(f, shape)}" for i, f in enumerate(fmts))
    names = " and ".join(f"%a{i}" for i in range(len(fmts)))
    types = " and ".join(tensor_type(f, shape) for f in fmts)
    out = tensor_type(result, shape)
    return f"""{aliases(*fmts, result)}
func.func @concat({args}) -> {out} {{
  %r = subset.concat {names} along dimension = {dim} : {types} into {out}
  return %r : {out}
}}
"""


def random_matrix(
    rng: np.random.Generator, shape: tuple[int, int], density: float
) -> sp.csr_array:
    """Random entries in (1, 2) (never an explicit zero); about a third of the
    rows are empty."""
    rows, cols = shape
    m = sp.random_array(shape, density=density, rng=rng, format="lil")
    for r in range(rows):
        if rng.random() < 0.33:
            m[r, :] = 0
    out = sp.csr_array(m)
    out.data += 1.0
    return out


def operands(
    rng: np.random.Generator, count: int, dim: int, other: int = 7
) -> list[sp.csr_array]:
    """`count` random matrices stacked along `dim`: one is all zeros and one
    (when there are three or more) has no rows (dim 0) or columns (dim 1)."""
    mats: list[sp.csr_array] = []
    for i in range(count):
        n = 0 if i == 1 and count >= 3 else int(rng.integers(1, 9))
        shape = (n, other) if dim == 0 else (other, n)
        density = 0.0 if i == count - 1 and count >= 2 else 0.4
        mats.append(random_matrix(rng, shape, density))
    return mats


def as_tensor(m: sp.csr_array, fmt: str) -> Any:
    if fmt == "dense":
        return m.toarray()
    return SparseTensor.from_scipy(m, encoding(fmt))


def stacked(mats: list[sp.csr_array], dim: int) -> sp.csr_array:
    return sp.csr_array((sp.vstack if dim == 0 else sp.hstack)(mats, format="csr"))


def check_storage(result: SparseTensor, want: sp.csr_array, fmt: str) -> None:
    """The level buffers of `result` against scipy's canonical ones (CSR, CSC),
    or its contents and storage order (COO, DCSR)."""
    assert result.shape == want.shape
    dense = want.toarray()
    np.testing.assert_array_equal(result.to_dense(), dense)
    if fmt in ("csr", "csc"):
        canonical = sp.csr_array(want) if fmt == "csr" else sp.csc_array(want)
        canonical.sort_indices()
        assert result.positions[1] is not None
        assert result.coordinates[1] is not None
        np.testing.assert_array_equal(result.positions[1], canonical.indptr)
        np.testing.assert_array_equal(result.coordinates[1], canonical.indices)
        np.testing.assert_array_equal(result.values, canonical.data)
        return
    coo = sp.coo_array(want)
    order = np.lexsort((coo.col, coo.row))
    rows, cols, vals = coo.row[order], coo.col[order], coo.data[order]
    crd0 = result.coordinates[0]
    assert crd0 is not None
    if fmt == "coo":
        np.testing.assert_array_equal(result.positions[0], [0, len(vals)])
        np.testing.assert_array_equal(crd0, rows)
    else:  # dcsr: the rows with entries, each once
        np.testing.assert_array_equal(crd0, np.unique(rows))
        counts = np.bincount(np.searchsorted(np.unique(rows), rows))
        pos1 = np.concatenate([[0], np.cumsum(counts)]) if len(rows) else [0]
        np.testing.assert_array_equal(result.positions[1], pos1)
    np.testing.assert_array_equal(result.coordinates[1], cols)
    np.testing.assert_array_equal(result.values, vals)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dcsr"])
@pytest.mark.parametrize("dim", [0, 1])
def test_concat_matches_scipy(fmt: str, dim: int) -> None:
    """Three operands (one all-zero, one without rows or columns) and two, of
    random sizes, in the result's format."""
    rng = np.random.default_rng(10 * dim + len(fmt))
    for count in (3, 2):
        kernel = xsparse.compile(subset_concat([fmt] * count, dim, fmt))
        for _ in range(3):
            mats = operands(rng, count, dim)
            result = kernel(*(as_tensor(m, fmt) for m in mats))
            check_storage(result, stacked(mats, dim), fmt)


@pytest.mark.parametrize("fmt", ["csr", "coo", "dcsr"])
@pytest.mark.parametrize("dim", [0, 1])
def test_concat_of_mismatched_sizes_raises(fmt: str, dim: int) -> None:
    """Dynamic sizes that differ outside the concatenated dimension: a
    ValueError once the kernel returns, never a tensor with coordinates out of
    its range (or a crash)."""
    kernel = xsparse.compile(subset_concat([fmt] * 2, dim, fmt))
    rng = np.random.default_rng(20 + dim)
    a = sp.random_array((5, 4), density=0.5, format="csr", rng=rng)
    b = sp.random_array(
        (900, 3) if dim else (3, 900), density=0.1, format="csr", rng=rng
    )
    with pytest.raises(ValueError, match="sizes differ"):
        kernel(as_tensor(a, fmt), as_tensor(b, fmt))


@pytest.mark.parametrize("count", [1, 4, 6])
def test_concat_csr_operand_counts(count: int) -> None:
    rng = np.random.default_rng(count)
    for dim in (0, 1):
        kernel = xsparse.compile(subset_concat(["csr"] * count, dim, "csr"))
        mats = operands(rng, count, dim)
        result = kernel(*(as_tensor(m, "csr") for m in mats))
        check_storage(result, stacked(mats, dim), "csr")


@pytest.mark.parametrize("dim", [0, 1])
def test_sparse_tensor_concatenate_csr_like_vstack(dim: int) -> None:
    """`sparse_tensor.concatenate` (static shapes, 32-bit overheads: scipy's own
    int32 buffers go in without a copy) gives exactly scipy's CSR."""
    rng = np.random.default_rng(7 + dim)
    shapes = [(40, 30), (25, 30), (1, 30)] if dim == 0 else [(30, 40), (30, 25)]
    mats = [random_matrix(rng, s, 0.2) for s in shapes]
    want = stacked(mats, dim)
    enc = (
        "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed),"
        " posWidth = 32, crdWidth = 32 }>"
    )
    types = [f"tensor<{r}x{c}xf64, #CSR>" for r, c in shapes]
    out = f"tensor<{want.shape[0]}x{want.shape[1]}xf64, #CSR>"
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
    names = ", ".join(f"%a{i}" for i in range(len(types)))
    source = f"""#CSR = {enc}
func.func @concat({args}) -> {out} {{
  %r = sparse_tensor.concatenate {names} {{dimension = {dim} : index}}
    : {", ".join(types)} to {out}
  return %r : {out}
}}
"""
    result = xsparse.compile(source)(*mats)
    assert isinstance(result, SparseTensor)
    np.testing.assert_array_equal(result.positions[1], want.indptr)
    np.testing.assert_array_equal(result.coordinates[1], want.indices)
    np.testing.assert_array_equal(result.values, want.data)
    np.testing.assert_array_equal(result.to_scipy().toarray(), want.toarray())


@pytest.mark.parametrize(
    ("fmts", "result"),
    [
        (["csr", "csc", "coo"], "csr"),  # operands converted to the result's
        (["dcsr", "csr"], "coo"),
        (["csr", "dense"], "csc"),  # a dense operand converted
        (["csr", "coo"], "bsr"),  # a result built from a dense buffer
        (["csc", "dcsr"], "dense"),  # a dense result
    ],
)
@pytest.mark.parametrize("dim", [0, 1])
def test_concat_mixed_formats(fmts: list[str], result: str, dim: int) -> None:
    rng = np.random.default_rng(3)
    kernel = xsparse.compile(subset_concat(fmts, dim, result))
    for _ in range(2):
        # BSR blocks are 2 x 2: even sizes.
        sizes = [2 * int(rng.integers(1, 4)) for _ in fmts]
        mats = [random_matrix(rng, (n, 6) if dim == 0 else (6, n), 0.4) for n in sizes]
        got = kernel(*(as_tensor(m, f) for m, f in zip(mats, fmts, strict=True)))
        want = stacked(mats, dim).toarray()
        dense = got if isinstance(got, np.ndarray) else got.to_dense()
        np.testing.assert_array_equal(dense, want)


@pytest.mark.parametrize("fmt", ["csf", "coo3", "ddc"])
@pytest.mark.parametrize("dim", [0, 1, 2])
def test_concat_3d(fmt: str, dim: int) -> None:
    """3-D tensors along each dimension (by levels where the format allows,
    else through a dense buffer), against numpy.concatenate."""
    rng = np.random.default_rng(dim)
    kernel = xsparse.compile(subset_concat([fmt] * 3, dim, fmt, rank=3))
    arrays = []
    for i in range(3):
        shape = [3, 4, 5]
        shape[dim] = 0 if i == 1 else int(rng.integers(1, 5))
        a = rng.random(shape) * (rng.random(shape) < 0.3)
        arrays.append(a)
    tensors = [SparseTensor.from_dense(a, encoding(fmt)) for a in arrays]
    got = kernel(*tensors)
    np.testing.assert_array_equal(got.to_dense(), np.concatenate(arrays, axis=dim))


def reshape_source(
    src: str,
    src_shape: tuple[int, ...],
    dst: str,
    dst_shape: tuple[int, ...],
    groups: list[list[int]],
) -> str:
    """`@reshape`: collapse_shape (to a lower rank) or expand_shape."""
    g = "[" + ", ".join("[" + ", ".join(map(str, x)) + "]" for x in groups) + "]"
    a, r = tensor_type(src, src_shape), tensor_type(dst, dst_shape)
    if len(dst_shape) < len(src_shape):
        body = f"%r = tensor.collapse_shape %a {g} : {a} into {r}"
    else:
        out = ", ".join(map(str, dst_shape))
        body = f"%r = tensor.expand_shape %a {g} output_shape [{out}] : {a} into {r}"
    return f"""{aliases(src, dst)}
func.func @reshape(%a: {a}) -> {r} {{
  {body}
  return %r : {r}
}}
"""


RESHAPES = [
    # (source, shape, result, shape, groups, what the result keeps)
    ("csr", (6, 4), "sv", (24,), [[0, 1]], "values"),
    ("coo", (6, 4), "sv", (24,), [[0, 1]], "values"),
    ("dcsr", (6, 4), "sv", (24,), [[0, 1]], "values"),
    ("sv", (24,), "coo", (3, 8), [[0, 1]], "values"),
    ("coo", (6, 4), "coo3", (2, 3, 4), [[0, 1], [2]], "values"),
    ("coo3", (2, 3, 4), "coo", (2, 12), [[0], [1, 2]], "values"),
    ("csr", (6, 4), "ddc", (2, 3, 4), [[0, 1], [2]], "all"),
    ("ddc", (2, 3, 4), "csr", (6, 4), [[0, 1], [2]], "all"),
    ("sv", (24,), "csr", (6, 4), [[0, 1]], "nothing"),
    ("sv", (24,), "dcsr", (8, 3), [[0, 1]], "nothing"),
    ("csf", (2, 3, 4), "csr", (2, 12), [[0], [1, 2]], "nothing"),
    ("csr", (2, 12), "csf", (2, 3, 4), [[0], [1, 2]], "nothing"),
    ("csc", (6, 4), "sv", (24,), [[0, 1]], "nothing"),
    ("sv", (24,), "csc", (3, 8), [[0, 1]], "nothing"),
    ("bsr", (4, 6), "sv", (24,), [[0, 1]], "nothing"),
    ("csr", (6, 4), "dense", (24,), [[0, 1]], "nothing"),
    ("dense", (6, 4), "sv", (24,), [[0, 1]], "nothing"),
]


@pytest.mark.parametrize(
    ("src", "src_shape", "dst", "dst_shape", "groups", "keeps"),
    RESHAPES,
    ids=[f"{r[0]}{list(r[1])}-{r[2]}{list(r[3])}" for r in RESHAPES],
)
def test_reshape_matches_numpy(
    src: str,
    src_shape: tuple[int, ...],
    dst: str,
    dst_shape: tuple[int, ...],
    groups: list[list[int]],
    keeps: str,
) -> None:
    kernel = xsparse.compile(reshape_source(src, src_shape, dst, dst_shape, groups))
    rng = np.random.default_rng(len(src_shape) + len(dst_shape))
    for density in (0.3, 0.0, 1.0):
        dense = (rng.random(src_shape) + 1) * (rng.random(src_shape) < density)
        arg = dense if src == "dense" else SparseTensor.from_dense(dense, encoding(src))
        got = kernel(arg)
        result = got if isinstance(got, np.ndarray) else got.to_dense()
        np.testing.assert_array_equal(result, dense.reshape(dst_shape))
        if keeps == "nothing" or not dense.any():
            continue  # (empty buffers share no memory)
        assert isinstance(got, SparseTensor) and isinstance(arg, SparseTensor)
        assert np.shares_memory(got.values, arg.values)
        if keeps == "all":
            buffers = [b for b in (*got.positions, *got.coordinates) if b is not None]
            assert all(
                any(np.shares_memory(b, a) for a in (*arg.positions, *arg.coordinates))
                for b in buffers
            )


def test_csr_collapsed_into_a_vector_keeps_order() -> None:
    """CSR (R x C) collapsed into a sparse vector: the coordinates are
    row * C + col, in the CSR's storage order, the values the CSR's own."""
    m = random_matrix(np.random.default_rng(5), (50, 30), 0.1)
    kernel = xsparse.compile(reshape_source("csr", (50, 30), "sv", (1500,), [[0, 1]]))
    a = SparseTensor.from_scipy(m, encoding("csr"))
    v = kernel(a)
    rows = np.repeat(np.arange(50), np.diff(m.indptr))
    np.testing.assert_array_equal(v.coordinates[0], rows * 30 + m.indices)
    np.testing.assert_array_equal(v.positions[0], [0, m.nnz])
    assert v.values is a.values or np.shares_memory(v.values, a.values)


SHARED_RESULTS = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
func.func @k(%a: tensor<3x4xf64, #CSR>, %b: tensor<3x4xf64, #CSR>)
    -> (tensor<6x4xf64, #CSR>, tensor<24xf64, #SV>) {
  %c = sparse_tensor.concatenate %a, %b {dimension = 0 : index}
    : tensor<3x4xf64, #CSR>, tensor<3x4xf64, #CSR> to tensor<6x4xf64, #CSR>
  %r = tensor.collapse_shape %c [[0, 1]] : tensor<6x4xf64, #CSR> into tensor<24xf64, #SV>
  return %c, %r : tensor<6x4xf64, #CSR>, tensor<24xf64, #SV>
}
"""


def test_results_sharing_a_buffer() -> None:
    """A result and a view of it share the values buffer the kernel allocated:
    it is freed once, when the last of them goes."""
    kernel = xsparse.compile(SHARED_RESULTS)
    a = sp.csr_array(np.array([[0.0, 1.0, 0.0, 2.0], [0, 0, 0, 0], [3, 0, 0, 0]]))
    for _ in range(3):
        c, r = kernel(a, a)
        assert np.shares_memory(c.values, r.values)
        del c
        gc.collect()
        np.testing.assert_array_equal(
            r.to_dense(), np.concatenate([a.toarray(), a.toarray()]).reshape(24)
        )
        del r
        gc.collect()


def test_bench_concat_smoke() -> None:
    """`tools/bench_concat.py` on tiny matrices: every contender's result is
    checked against scipy's buffers before anything is timed."""
    tools = Path(__file__).resolve().parent.parent / "tools"
    sys.path.insert(0, str(tools))
    try:
        import bench_concat  # pyright: ignore[reportMissingImports]
    finally:
        sys.path.remove(str(tools))
    rows = bench_concat.main(
        ["--rows", "50", "--cols", "80", "--nnz", "300", "--repeat", "1"]
    )
    assert [(r.case, r.width) for r in rows] == [
        ("vstack 4 (dim 0)", 32),
        ("hstack 2 (dim 1)", 32),
        ("vstack 4 (dim 0)", 64),
        ("hstack 2 (dim 1)", 64),
    ]


BUILT_HERE = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @stack(%x: tensor<?x5xf64>, %y: tensor<?x5xf64>, %z: tensor<?x5xf64>)
    -> (tensor<?x5xf64, #CSR>, tensor<?x5xf64, #CSR>) {
  %a = sparse_tensor.convert %x : tensor<?x5xf64> to tensor<?x5xf64, #CSR>
  %b = sparse_tensor.convert %y : tensor<?x5xf64> to tensor<?x5xf64, #CSR>
  %c = sparse_tensor.convert %z : tensor<?x5xf64> to tensor<?x5xf64, #CSR>
  // %a, built here and used only by the first concatenation, becomes its result
  %r = subset.concat %a and %b along dimension = 0
    : tensor<?x5xf64, #CSR> and tensor<?x5xf64, #CSR> into tensor<?x5xf64, #CSR>
  // %c is also returned: the second concatenation copies it
  %s = subset.concat %c and %r along dimension = 0
    : tensor<?x5xf64, #CSR> and tensor<?x5xf64, #CSR> into tensor<?x5xf64, #CSR>
  return %s, %c : tensor<?x5xf64, #CSR>, tensor<?x5xf64, #CSR>
}
"""


def test_concat_of_values_built_here_in_place() -> None:
    """Operands built in the function: the first one's buffers become the
    result's (grown), unless it is used elsewhere; results like scipy's vstack."""
    kernel = xsparse.compile(BUILT_HERE)
    rng = np.random.default_rng(5)
    for rows in [(0, 3, 2), (4, 1, 6), (7, 7, 7)]:
        x, y, z = (
            np.where(rng.random((n, 5)) < 0.4, rng.random((n, 5)), 0.0) for n in rows
        )
        s, c = kernel(x, y, z)
        want = sp.vstack([sp.csr_array(m) for m in (z, x, y)], format="csr")
        np.testing.assert_array_equal(s.positions[1], want.indptr)
        np.testing.assert_array_equal(s.coordinates[1], want.indices)
        np.testing.assert_array_equal(s.values, want.data)
        np.testing.assert_array_equal(c.to_dense(), z)
        assert not np.shares_memory(s.values, c.values)
