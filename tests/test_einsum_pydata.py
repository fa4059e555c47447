"""`xsparse.einsum` / `evaluate` on pydata/sparse arrays (an optional
dependency, in the `test` and `pydata` extras): taken in as COO
`SparseTensor`s, sparse results returned as `sparse.COO`."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import xsparse

sparse: Any = pytest.importorskip("sparse")


def test_spmv_and_reductions_on_a_pydata_matrix() -> None:
    a = sparse.random((40, 30), density=0.2, random_state=0)
    x = np.arange(30.0)
    dense = a.todense()
    np.testing.assert_allclose(xsparse.einsum("ij,j->i", a, x), dense @ x)
    np.testing.assert_allclose(xsparse.einsum("ij->j", a), dense.sum(axis=0))
    np.testing.assert_allclose(
        xsparse.evaluate("y(i) = A(i,j) * x(j)", A=a, x=x), dense @ x
    )


def test_sparse_results_come_back_as_pydata_arrays() -> None:
    a = sparse.random((12, 9), density=0.3, random_state=1)
    b = sparse.random((9, 7), density=0.3, random_state=2)
    product = xsparse.einsum("ik,kj->ij", a, b)
    assert isinstance(product, sparse.COO)
    np.testing.assert_allclose(product.todense(), a.todense() @ b.todense())
    squared = xsparse.einsum("ij,ij->ij", a, a)
    assert isinstance(squared, sparse.COO)
    np.testing.assert_allclose(squared.todense(), a.todense() ** 2)


def test_other_pydata_formats_and_ranks() -> None:
    t = sparse.random((5, 6, 7), density=0.3, random_state=3)
    np.testing.assert_allclose(
        xsparse.einsum("ijk,k->ij", t, np.ones(7)), t.todense().sum(axis=-1)
    )
    g = sparse.random((8, 6), density=0.4, random_state=4).asformat("gcxs")
    np.testing.assert_allclose(xsparse.einsum("ij->i", g), g.todense().sum(axis=1))
    v = sparse.random((30,), density=0.3, random_state=5)
    assert np.isclose(
        xsparse.einsum("i,i", v, np.arange(30.0)), v.todense() @ np.arange(30.0)
    )
    empty = sparse.COO.from_numpy(np.zeros((3, 4)))
    np.testing.assert_array_equal(
        xsparse.einsum("ij,j->i", empty, np.ones(4)), np.zeros(3)
    )
