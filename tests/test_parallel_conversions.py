"""`sparse_tensor.convert` on threads (`storage.parallel_conversion`):
transpositions (CSR <-> CSC) by per-block histograms and dense -> row-major
targets by rows give the sequential conversion's buffers bit for bit, at 1,
2 and 4 threads, on random matrices with empty rows, one huge row and
power-law rows, and on empty shapes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse
from xsparse.backend import threads


def _row_counts(rows: int, cols: int, kind: str, rng: np.random.Generator) -> Any:
    if kind == "uniform":
        return np.minimum(cols, rng.integers(0, 9, rows))
    if kind == "empty-rows":
        counts = np.where(rng.random(rows) < 0.7, 0, rng.integers(1, 12, rows))
        return np.minimum(cols, counts)
    if kind == "one-huge-row":
        counts = np.zeros(rows, np.int64)
        if rows:
            counts[rows // 3] = cols
        return counts
    return np.minimum(cols, (rng.pareto(1.2, rows) * 2).astype(np.int64))


def _csr(rows: int, cols: int, kind: str, dtype: str, seed: int) -> sp.csr_array:
    rng = np.random.default_rng(seed)
    counts = _row_counts(rows, cols, kind, rng)
    indptr = np.concatenate([[0], np.cumsum(counts)])
    indices = np.concatenate(
        [np.sort(rng.choice(cols, c, replace=False)) for c in counts] or [[]]
    ).astype(np.int32)
    data = (rng.standard_normal(indptr[-1]) * 100).astype(dtype)
    return sp.csr_array((data, indices, indptr.astype(np.int32)), shape=(rows, cols))


CSR = "map = (i, j) -> (i : dense, j : compressed)"
CSC = "map = (i, j) -> (j : dense, i : compressed)"


def _conversion(source: str, target: str, element: str) -> str:
    src = f"tensor<?x?x{element}, #SRC>"
    dst = f"tensor<?x?x{element}, #DST>"
    return (
        f"#SRC = #sparse_tensor.encoding<{{ {source} }}>\n"
        f"#DST = #sparse_tensor.encoding<{{ {target} }}>\n"
        f"func.func @convert(%a: {src}) -> {dst} {{\n"
        f"  %0 = sparse_tensor.convert %a : {src} to {dst}\n"
        f"  return %0 : {dst}\n}}\n"
    )


def _same_buffers(got: xsparse.SparseTensor, want: xsparse.SparseTensor) -> None:
    assert got.shape == want.shape
    for mine, theirs in zip(got.storage(), want.storage(), strict=True):
        if isinstance(theirs, np.ndarray):
            assert isinstance(mine, np.ndarray)
            assert mine.dtype == theirs.dtype
            assert np.array_equal(mine, theirs)
        else:
            assert mine == theirs


KINDS = ["uniform", "empty-rows", "one-huge-row", "power-law"]
SHAPES = [(400, 50), (300, 200), (50, 3000), (0, 5), (7, 0), (1, 1)]


@pytest.mark.filterwarnings("ignore:.*on every call")  # crdWidth = 16: narrowed
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(
    ("widths", "element"),
    [
        ("", "f64"),
        (", posWidth = 32, crdWidth = 32", "f32"),
        (", crdWidth = 16", "i32"),
    ],
)
@pytest.mark.parametrize("direction", ["csr-to-csc", "csc-to-csr"])
def test_transposition_on_threads_equals_the_sequential_conversion(
    every_loop_on_threads: None,
    kind: str,
    shape: tuple[int, int],
    widths: str,
    element: str,
    direction: str,
) -> None:
    source, target = (CSR, CSC) if direction == "csr-to-csc" else (CSC, CSR)
    text = _conversion(source + widths, target + widths, element)
    parallel = xsparse.compile(text)
    sequential = xsparse.compile(text, parallelization_strategy="none")
    dtype = {"f64": "float64", "f32": "float32", "i32": "int32"}[element]
    matrix = _csr(*shape, kind, dtype, seed=sum(shape) + len(kind))
    given = matrix if direction == "csr-to-csc" else sp.csc_array(matrix.T)
    want = sequential(given)
    expected = sp.csc_array(given) if direction == "csr-to-csc" else sp.csr_array(given)
    assert np.array_equal(want.toarray(), expected.toarray())
    for count in (1, 2, 4):
        threads.set_num_threads(count)
        _same_buffers(parallel(given), want)


ROW_MAJOR = [
    ("map = (i, j) -> (i : dense, j : compressed)", 2),
    ("map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 8", 2),
    ("map = (i, j, k) -> (i : dense, j : compressed(nonunique), k : singleton)", 3),
    ("map = (i, j, k) -> (i : dense, j : dense, k : compressed)", 3),
]


@pytest.mark.parametrize(("target", "rank"), ROW_MAJOR)
@pytest.mark.parametrize("density", [0.0, 0.05, 0.5, 1.0])
@pytest.mark.parametrize("shape", [(60, 70, 3), (0, 4, 2), (5, 0, 1), (1, 1, 1)])
@pytest.mark.parametrize("element", ["f64", "i32"])
def test_dense_to_row_major_on_threads_equals_the_sequential_conversion(
    every_loop_on_threads: None,
    target: str,
    rank: int,
    density: float,
    shape: tuple[int, int, int],
    element: str,
) -> None:
    dims = "?x" * rank
    src, dst = f"tensor<{dims}{element}>", f"tensor<{dims}{element}, #DST>"
    text = (
        f"#DST = #sparse_tensor.encoding<{{ {target} }}>\n"
        f"func.func @convert(%a: {src}) -> {dst} {{\n"
        f"  %0 = sparse_tensor.convert %a : {src} to {dst}\n"
        f"  return %0 : {dst}\n}}\n"
    )
    parallel = xsparse.compile(text)
    sequential = xsparse.compile(text, parallelization_strategy="none")
    rng = np.random.default_rng(len(target) + int(density * 100))
    dtype = "float64" if element == "f64" else "int32"
    dense = (rng.standard_normal(shape[:rank]) * 50).astype(dtype)
    dense[rng.random(shape[:rank]) >= density] = 0
    if shape[0] > 2:
        dense[1] = 0  # an empty row
    want = sequential(dense)
    assert np.array_equal(want.toarray(), dense)
    for count in (1, 2, 4):
        threads.set_num_threads(count)
        _same_buffers(parallel(dense), want)


@pytest.mark.filterwarnings("ignore:.*on every call")
@pytest.mark.parametrize("strategy", ["none", "any-storage-outer-loop"])
@pytest.mark.parametrize("source", ["csr", "dense"])
def test_a_result_its_positions_cannot_hold_is_an_error(
    every_loop_on_threads: None, strategy: str, source: str
) -> None:
    """posWidth = 8 holds 255 entries (unsigned, as MLIR reads it): 256 are a
    ValueError, sequential or on threads, not wrapped positions."""
    target = "map = (i, j) -> (j : dense, i : compressed), posWidth = 8"
    if source == "csr":
        text = _conversion(CSR, target, "f64")
    else:
        text = (
            f"#DST = #sparse_tensor.encoding<{{ {target} }}>\n"
            "func.func @convert(%a: tensor<?x?xf64>) -> tensor<?x?xf64, #DST> {\n"
            "  %0 = sparse_tensor.convert %a : tensor<?x?xf64> to tensor<?x?xf64, #DST>\n"
            "  return %0 : tensor<?x?xf64, #DST>\n}\n"
        )
    kernel = xsparse.compile(text, parallelization_strategy=strategy)
    for nnz, fits in ((255, True), (256, False)):
        entries = np.arange(nnz)
        matrix = sp.csr_array(
            (np.ones(nnz), (entries // 10, entries % 10)), shape=(30, 10)
        )
        given = matrix if source == "csr" else matrix.toarray()
        for count in (1, 2):
            threads.set_num_threads(count)
            if fits:
                assert np.array_equal(kernel(given).toarray(), matrix.toarray())
            else:
                with pytest.raises(ValueError, match="8-bit positions"):
                    kernel(given)
