"""A kernel whose CSR/CSC argument leaves the index widths at `index` runs,
for an int32 scipy matrix, a variant compiled for 32-bit positions and
coordinates, which reads scipy's index arrays without copying them
(xsparse/backend/width_variants.py)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse
from xsparse.backend.width_variants import narrowed_source
from xsparse.dialect_registry import make_context

KERNELS = Path(__file__).parent / "kernels"
SPMV = (KERNELS / "spmv_csr.mlir").read_text()


def test_the_csr_argument_is_narrowable() -> None:
    kernel = xsparse.compile(SPMV)
    assert kernel.narrowable == ((0, "csr"),)


def test_the_narrowed_source_has_32_bit_indices_for_that_argument() -> None:
    text = narrowed_source(make_context(), SPMV, "kernel", [0])
    assert "posWidth = 32, crdWidth = 32" in text
    variant = xsparse.compile(text)
    assert variant.narrowable == ()


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("seed", range(3))
def test_int32_and_int64_scipy_matrices_give_scipys_answer(
    index_dtype: type[np.integer], seed: int
) -> None:
    kernel = xsparse.compile(SPMV)
    a = sp.random_array((40, 30), density=0.2, format="csr", random_state=seed)
    a.indptr = a.indptr.astype(index_dtype)
    a.indices = a.indices.astype(index_dtype)
    x = np.random.default_rng(seed).random(30)
    np.testing.assert_allclose(kernel(a, x, np.zeros(40)), a @ x)


def test_a_bad_int32_matrix_is_refused_by_the_variant() -> None:
    kernel = xsparse.compile(SPMV)
    a = sp.random_array((10, 12), density=0.4, format="csr", random_state=4)
    assert a.indices.dtype == np.int32 and a.has_canonical_format
    a.indices[0] = -1  # read as unsigned 32-bit: out of range
    with pytest.raises(ValueError, match="argument 0 of kernel\\(\\): .*out of range"):
        kernel(a, np.ones(12), np.zeros(10))


def test_an_argument_whose_encoding_a_result_has_stays_wide() -> None:
    source = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#scale = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
          iterator_types = ["parallel", "parallel"]}
func.func @double(%a: tensor<?x?xf64, #CSR>, %d0: index, %d1: index) -> tensor<?x?xf64, #CSR> {
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf64, #CSR>
  %0 = linalg.generic #scale ins(%a : tensor<?x?xf64, #CSR>) outs(%e : tensor<?x?xf64, #CSR>) {
  ^bb0(%v: f64, %o: f64):
    %t = arith.addf %v, %v : f64
    linalg.yield %t : f64
  } -> tensor<?x?xf64, #CSR>
  return %0 : tensor<?x?xf64, #CSR>
}
"""
    kernel = xsparse.compile(source)
    assert kernel.narrowable == ()
    a = sp.random_array((8, 9), density=0.3, format="csr", random_state=5)
    result = kernel(a, 8, 9)
    np.testing.assert_allclose(result.to_dense(), 2 * a.toarray())


def test_a_wider_scipy_matrix_than_the_kernel_warns_that_it_is_narrowed() -> None:
    """A kernel declaring 32-bit indices gets int64 scipy index arrays: they
    are copied on every call, which the call says (and `strict` refuses);
    int32 ones are read as they are, silently."""
    kernel = xsparse.compile(narrowed_source(make_context(), SPMV, "kernel", [0]))
    a = sp.random_array((40, 30), density=0.2, format="csr", random_state=4)
    x = np.random.default_rng(4).random(30)
    wide = sp.csr_array(
        (a.data, a.indices.astype(np.int64), a.indptr.astype(np.int64)), shape=a.shape
    )
    with pytest.warns(xsparse.ConversionWarning, match="converted .* on every call"):
        np.testing.assert_allclose(kernel(wide, x, np.zeros(40)), a @ x)
    with pytest.raises(TypeError, match="strict=True"):
        kernel(wide, x, np.zeros(40), strict=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", xsparse.ConversionWarning)
        np.testing.assert_allclose(kernel(a, x, np.zeros(40)), a @ x)
