"""MLIR 22's sparse_tensor.iterate / coiterate, written by hand, run through
xsparse.compile (via the indexing dialect), including coiterate with iter_args,
which mlir-opt-22 --sparsifier fails to legalize."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse
from xsparse import SparseTensor

SV = "#sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>"

DOT = """
#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
func.func @dot(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>, %init: f64) -> f64 {
  %sa = sparse_tensor.extract_iteration_space %a lvls = 0 : tensor<?xf64, #SV> -> !sparse_tensor.iter_space<#SV, lvls = 0>
  %sb = sparse_tensor.extract_iteration_space %b lvls = 0 : tensor<?xf64, #SV> -> !sparse_tensor.iter_space<#SV, lvls = 0>
  %r = sparse_tensor.coiterate (%sa, %sb) at(%i) iter_args(%acc = %init)
     : (!sparse_tensor.iter_space<#SV, lvls = 0>, !sparse_tensor.iter_space<#SV, lvls = 0>) -> f64
  case %ia, %ib {
    %x = sparse_tensor.extract_value %a at %ia : tensor<?xf64, #SV>, !sparse_tensor.iterator<#SV, lvls = 0>
    %y = sparse_tensor.extract_value %b at %ib : tensor<?xf64, #SV>, !sparse_tensor.iterator<#SV, lvls = 0>
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %acc, %m : f64
    sparse_tensor.yield %s : f64
  }
  func.return %r : f64
}
"""

CSR_SUM = """
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @csr_sum(%a: tensor<?x?xf64, #CSR>, %init: f64) -> f64 {
  %rows = sparse_tensor.extract_iteration_space %a lvls = 0 : tensor<?x?xf64, #CSR> -> !sparse_tensor.iter_space<#CSR, lvls = 0>
  %r = sparse_tensor.iterate %it in %rows iter_args(%acc = %init) : !sparse_tensor.iter_space<#CSR, lvls = 0> -> f64 {
    %cols = sparse_tensor.extract_iteration_space %a at %it lvls = 1 : tensor<?x?xf64, #CSR>, !sparse_tensor.iterator<#CSR, lvls = 0> -> !sparse_tensor.iter_space<#CSR, lvls = 1>
    %s = sparse_tensor.iterate %jt in %cols iter_args(%acc2 = %acc) : !sparse_tensor.iter_space<#CSR, lvls = 1> -> f64 {
      %v = sparse_tensor.extract_value %a at %jt : tensor<?x?xf64, #CSR>, !sparse_tensor.iterator<#CSR, lvls = 1>
      %t = arith.addf %acc2, %v : f64
      sparse_tensor.yield %t : f64
    }
    sparse_tensor.yield %s : f64
  }
  func.return %r : f64
}
"""


@pytest.mark.parametrize("overlap", ["some", "none", "empty"])
def test_coiterate_with_iter_args(overlap: str) -> None:
    rng = np.random.default_rng(20)
    n = 0 if overlap == "empty" else 300
    a = np.where(rng.random(n) < 0.3, rng.standard_normal(n), 0.0)
    b = np.where(rng.random(n) < 0.3, rng.standard_normal(n), 0.0)
    if overlap == "none":
        b[a != 0] = 0
    kernel = xsparse.compile(DOT)
    result = kernel(
        SparseTensor.from_dense(a, SV), SparseTensor.from_dense(b, SV), 0.25
    )
    assert result == pytest.approx(0.25 + a @ b)


def test_nested_iterate() -> None:
    m = sp.random_array((40, 30), density=0.1, format="csr", random_state=3)
    assert xsparse.compile(CSR_SUM)(m, 1.0) == pytest.approx(1.0 + m.sum())
