"""Sparse tensors carried through `scf.if` / `scf.for` and returned from
functions, new sparse tensors measured before anything is inserted, and
`sparse_tensor.foreach` over stored entries (sparse-tensor-codegen), checked
against numpy over several formats with fixed seeds."""

from __future__ import annotations

import numpy as np
import pytest

import xsparse
from xsparse import SparseTensor

FORMATS = {
    "CSR": "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>",
    "CSC": "#sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>",
    "DCSR": "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>",
    "COO": "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>",
    "CSR32": "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>",
}

SHAPES = [((7, 5), 0.3), ((12, 9), 0.1), ((4, 6), 0.0), ((0, 3), 0.5)]

STEP = """
      %e = tensor.empty(%d0, %d1) : tensor<?x?xf64, #S>
      %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%t : tensor<?x?xf64, #S>) outs(%e : tensor<?x?xf64, #S>) {
        ^bb0(%x: f64, %o: f64):
          %y = OP %x, %k : f64
          linalg.yield %y : f64
      } -> tensor<?x?xf64, #S>
"""

BRANCHES = """
#S = FORMAT
#id = affine_map<(i, j) -> (i, j)>
func.func @choose(%a: tensor<?x?xf64, #S>, %c: i1, %k: f64) -> tensor<?x?xf64, #S> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #S>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf64, #S>
  %t = sparse_tensor.load %a : tensor<?x?xf64, #S>
  %r = scf.if %c -> (tensor<?x?xf64, #S>) {
    ADD
    scf.yield %g : tensor<?x?xf64, #S>
  } else {
    MUL
    scf.yield %g : tensor<?x?xf64, #S>
  }
  return %r : tensor<?x?xf64, #S>
}
"""

LOOP = """
#S = FORMAT
#id = affine_map<(i, j) -> (i, j)>
func.func @repeat(%a: tensor<?x?xf64, #S>, %n: index, %k: f64) -> tensor<?x?xf64, #S> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #S>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf64, #S>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %a) -> (tensor<?x?xf64, #S>) {
    MUL
    scf.yield %g : tensor<?x?xf64, #S>
  }
  return %r : tensor<?x?xf64, #S>
}
"""

EMPTY_DIMS = """
#S = FORMAT
func.func @dims(%m: index, %n: index) -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = tensor.empty(%m) : tensor<?x5xf64, #S>
  %d0 = tensor.dim %t, %c0 : tensor<?x5xf64, #S>
  %d1 = tensor.dim %t, %c1 : tensor<?x5xf64, #S>
  %u = tensor.empty(%n, %m) : tensor<?x?xf64, #S>
  %e1 = tensor.dim %u, %c1 : tensor<?x?xf64, #S>
  bufferization.dealloc_tensor %t : tensor<?x5xf64, #S>
  bufferization.dealloc_tensor %u : tensor<?x?xf64, #S>
  return %d0, %d1, %e1 : index, index, index
}
"""


def _kernel_text(template: str, fmt: str) -> str:
    return (
        template.replace("ADD", STEP.replace("OP", "arith.addf"))
        .replace("MUL", STEP.replace("OP", "arith.mulf"))
        .replace("FORMAT", FORMATS[fmt])
    )


def _random(rng: np.random.Generator, shape: tuple[int, int], density: float):
    dense = rng.uniform(1.0, 2.0, shape)
    return np.where(rng.uniform(size=shape) < density, dense, 0.0)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_sparse_result_of_scf_if_is_returned(fmt: str) -> None:
    kernel = xsparse.compile(_kernel_text(BRANCHES, fmt))
    rng = np.random.default_rng(39)
    for shape, density in SHAPES:
        a = _random(rng, shape, density)
        for cond in (True, False):
            result = kernel(SparseTensor.from_dense(a, FORMATS[fmt]), cond, 0.5)
            assert isinstance(result, SparseTensor) and result.shape == shape
            result.validate()
            # x + k is k where x is not stored: the sum is stored everywhere
            # (as MLIR's sparsifier computes it); x * k only where x is.
            expected = a + 0.5 if cond else a * 0.5
            np.testing.assert_allclose(result.to_dense(), expected)
            assert result.nse == (a.size if cond else np.count_nonzero(a))


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_sparse_result_of_scf_for_is_returned(fmt: str) -> None:
    kernel = xsparse.compile(_kernel_text(LOOP, fmt))
    rng = np.random.default_rng(40)
    for shape, density in SHAPES:
        a = _random(rng, shape, density)
        for n in (0, 1, 3):
            result = kernel(SparseTensor.from_dense(a, FORMATS[fmt]), n, 3.0)
            assert isinstance(result, SparseTensor) and result.shape == shape
            result.validate()
            np.testing.assert_allclose(result.to_dense(), a * 3.0**n)
            assert result.nse == np.count_nonzero(a)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_dims_of_new_empty_sparse_tensors(fmt: str) -> None:
    kernel = xsparse.compile(_kernel_text(EMPTY_DIMS, fmt))
    for m, n in ((3, 4), (0, 7), (11, 0)):
        assert tuple(int(x) for x in kernel(m, n)) == (m, 5, m)


FOREACH = """
#S = FORMAT
func.func @weigh(%a: tensor<?x?xf64, #S>) -> (index, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %z = arith.constant 0.0 : f64
  %n, %s = sparse_tensor.foreach in %a init(%c0, %z)
      : tensor<?x?xf64, #S>, index, f64 -> index, f64 do {
    ^bb0(%i: index, %j: index, %v: f64, %k: index, %acc: f64):
      %row = arith.muli %i, %c100 : index
      %key = arith.addi %row, %j : index
      %w = arith.index_cast %key : index to i64
      %wf = arith.sitofp %w : i64 to f64
      %t = arith.mulf %v, %wf : f64
      %a1 = arith.addf %acc, %t : f64
      %k1 = arith.addi %k, %c1 : index
      sparse_tensor.yield %k1, %a1 : index, f64
  }
  return %n, %s : index, f64
}
"""


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_foreach_visits_every_stored_entry(fmt: str) -> None:
    """The count and the coordinate-weighted sum of the stored entries."""
    kernel = xsparse.compile(_kernel_text(FOREACH, fmt))
    rng = np.random.default_rng(41)
    for shape, density in SHAPES:
        a = _random(rng, shape, density)
        count, total = kernel(SparseTensor.from_dense(a, FORMATS[fmt]))
        i, j = np.indices(shape)
        assert int(count) == np.count_nonzero(a)
        np.testing.assert_allclose(float(total), float(np.sum(a * (100 * i + j))))


RESHAPE = """
#S = FORMAT
#T = TARGET
func.func @reshape(%a: tensor<6x4xf64, #S>) -> tensor<RESULTxf64, #T> {
  %shape = arith.constant dense<[SHAPE]> : tensor<RANKxi64>
  %r = tensor.reshape %a(%shape) : (tensor<6x4xf64, #S>, tensor<RANKxi64>) -> tensor<RESULTxf64, #T>
  return %r : tensor<RESULTxf64, #T>
}
"""

TARGETS = {
    "CSR": ((3, 8), FORMATS["CSR"]),
    "CSC": ((8, 3), FORMATS["CSC"]),
    "vector": ((24,), "#sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>"),
    "CSF": (
        (2, 3, 4),
        "#sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>",
    ),
}


@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_tensor_reshape_matches_numpy(fmt: str, target: str) -> None:
    shape, encoding = TARGETS[target]
    text = (
        RESHAPE.replace("FORMAT", FORMATS[fmt])
        .replace("TARGET", encoding)
        .replace("RESULT", "x".join(map(str, shape)))
        .replace("SHAPE", ", ".join(map(str, shape)))
        .replace("RANK", str(len(shape)))
    )
    kernel = xsparse.compile(text)
    rng = np.random.default_rng(42)
    for density in (0.3, 0.0, 1.0):
        a = _random(rng, (6, 4), density)
        result = kernel(SparseTensor.from_dense(a, FORMATS[fmt]))
        assert isinstance(result, SparseTensor) and result.shape == shape
        result.validate()
        np.testing.assert_array_equal(result.to_dense(), a.reshape(shape))
        assert result.nse == np.count_nonzero(a)


SLICE = """
#S = FORMAT
#SL = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(?, ?, ?)>, j : #sparse_tensor<slice(?, ?, ?)>) -> LEVELS }>
#T = FORMAT
#id = affine_map<(i, j) -> (i, j)>
func.func @slice(%a: tensor<9x8xf64, #S>, %o0: index, %o1: index, %n0: index, %n1: index, %s0: index, %s1: index) -> tensor<?x?xf64, #T> {
  %v = tensor.extract_slice %a[%o0, %o1][%n0, %n1][%s0, %s1] : tensor<9x8xf64, #S> to tensor<?x?xf64, #SL>
  %e = tensor.empty(%n0, %n1) : tensor<?x?xf64, #T>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v : tensor<?x?xf64, #SL>) outs(%e : tensor<?x?xf64, #T>) {
    ^bb0(%x: f64, %o: f64):
      %y = arith.negf %x : f64
      linalg.yield %y : f64
  } -> tensor<?x?xf64, #T>
  return %r : tensor<?x?xf64, #T>
}
"""


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_sparse_slice_matches_numpy(fmt: str) -> None:
    """A kernel reads a strided slice of a sparse tensor (dimSlices)."""
    levels = FORMATS[fmt].split("->", 1)[1].split("}>")[0]
    text = SLICE.replace("LEVELS", levels).replace("FORMAT", FORMATS[fmt])
    kernel = xsparse.compile(text)
    rng = np.random.default_rng(43)
    a = _random(rng, (9, 8), 0.4)
    for offsets, sizes, strides in (
        ((0, 0), (9, 8), (1, 1)),
        ((1, 2), (4, 3), (2, 2)),
        ((8, 7), (1, 1), (1, 1)),
        ((2, 0), (3, 0), (3, 1)),
    ):
        args = [*offsets, *sizes, *strides]
        result = kernel(SparseTensor.from_dense(a, FORMATS[fmt]), *args)
        view = a[
            offsets[0] : offsets[0] + sizes[0] * strides[0] : strides[0],
            offsets[1] : offsets[1] + sizes[1] * strides[1] : strides[1],
        ]
        assert result.shape == sizes
        result.validate()
        np.testing.assert_array_equal(result.to_dense(), -view)
