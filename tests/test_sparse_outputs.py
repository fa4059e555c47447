"""Kernels whose output is a new sparse tensor (insertion, expand/compress),
checked against scipy/numpy on random data with fixed seeds."""

from __future__ import annotations

import resource
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse
from xsparse import SparseTensor

ENCODINGS = {
    "CSR": "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>",
    "CSC": "#sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>",
    "DCSR": "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>",
    "COO": "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>",
    "CSR32": "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>",
}

SHAPES = [((9, 7), 0.3), ((40, 30), 0.1), ((0, 4), 0.5), ((6, 6), 0.0), ((5, 0), 0.5)]

ELEMENTWISE = """
#A = ENC_A
#B = ENC_B
#O = ENC_O
#trait = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @f(%a: tensor<?x?xT, #A>, %b: tensor<?x?xT, #B>) -> tensor<?x?xT, #O> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xT, #A>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xT, #A>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xT, #O>
  %r = linalg.generic #trait ins(%a, %b : tensor<?x?xT, #A>, tensor<?x?xT, #B>) outs(%init : tensor<?x?xT, #O>) {
  ^bb0(%x: T, %y: T, %o: T):
    %s = OP %x, %y : T
    linalg.yield %s : T
  } -> tensor<?x?xT, #O>
  return %r : tensor<?x?xT, #O>
}
"""

SPGEMM = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#trait = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @spgemm(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSR> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR>
  %d1 = tensor.dim %b, %c1 : tensor<?x?xf64, #CSR>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf64, #CSR>
  %r = linalg.generic #trait ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64, #CSR>) outs(%init : tensor<?x?xf64, #CSR>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %o, %m : f64
    linalg.yield %s : f64
  } -> tensor<?x?xf64, #CSR>
  return %r : tensor<?x?xf64, #CSR>
}
"""

SDDMM = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#trait = {indexing_maps = [affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @sddmm(%s: tensor<?x?xf64, #CSR>, %a: tensor<?x?xf64>, %b: tensor<?x?xf64>) -> tensor<?x?xf64, #CSR> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %s, %c0 : tensor<?x?xf64, #CSR>
  %d1 = tensor.dim %s, %c1 : tensor<?x?xf64, #CSR>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf64, #CSR>
  %r = linalg.generic #trait ins(%s, %a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64>, tensor<?x?xf64>) outs(%init : tensor<?x?xf64, #CSR>) {
  ^bb0(%x: f64, %y: f64, %z: f64, %o: f64):
    %m = arith.mulf %y, %z : f64
    %m2 = arith.mulf %x, %m : f64
    %t = arith.addf %o, %m2 : f64
    linalg.yield %t : f64
  } -> tensor<?x?xf64, #CSR>
  return %r : tensor<?x?xf64, #CSR>
}
"""

SCALE = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#trait = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @scale(%a: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSR> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf64, #CSR>
  %init = bufferization.alloc_tensor(%d0, %d1) : tensor<?x?xf64, #CSR>
  %r = linalg.generic #trait ins(%a : tensor<?x?xf64, #CSR>) outs(%init : tensor<?x?xf64, #CSR>) {
  ^bb0(%x: f64, %o: f64):
    %m = arith.mulf %x, %two : f64
    linalg.yield %m : f64
  } -> tensor<?x?xf64, #CSR>
  return %r : tensor<?x?xf64, #CSR>
}
"""

ROW_SUMS = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#trait = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @row_sums(%a: tensor<?x?xf64, #CSR>) -> tensor<?xf64, #SV> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR>
  %init = tensor.empty(%d0) : tensor<?xf64, #SV>
  %r = linalg.generic #trait ins(%a : tensor<?x?xf64, #CSR>) outs(%init : tensor<?xf64, #SV>) {
  ^bb0(%x: f64, %o: f64):
    %m = arith.addf %o, %x : f64
    linalg.yield %m : f64
  } -> tensor<?xf64, #SV>
  return %r : tensor<?xf64, #SV>
}
"""

CSF_ADD = """
#CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>
#trait = {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
func.func @add3(%a: tensor<?x?x?xf32, #CSF>, %b: tensor<?x?x?xf32, #CSF>) -> tensor<?x?x?xf32, #CSF> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?x?xf32, #CSF>
  %d1 = tensor.dim %a, %c1 : tensor<?x?x?xf32, #CSF>
  %d2 = tensor.dim %a, %c2 : tensor<?x?x?xf32, #CSF>
  %init = tensor.empty(%d0, %d1, %d2) : tensor<?x?x?xf32, #CSF>
  %r = linalg.generic #trait ins(%a, %b : tensor<?x?x?xf32, #CSF>, tensor<?x?x?xf32, #CSF>) outs(%init : tensor<?x?x?xf32, #CSF>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.addf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<?x?x?xf32, #CSF>
  return %r : tensor<?x?x?xf32, #CSF>
}
"""


def elementwise(a: str, b: str, out: str, op: str, dtype: str = "f64") -> str:
    return (
        ELEMENTWISE.replace("ENC_A", ENCODINGS[a])
        .replace("ENC_B", ENCODINGS[b])
        .replace("ENC_O", ENCODINGS[out])
        .replace("OP", op)
        .replace("xT", "x" + dtype)
        .replace(": T", ": " + dtype)
    )


def random_matrix(
    rng: np.random.Generator, shape: tuple[int, int], density: float
) -> sp.csr_array:
    """A random CSR matrix whose second row and last column are empty."""
    m = sp.random_array(shape, density=density, format="lil", rng=rng)
    if shape[0] > 2:
        m[1, :] = 0
    if shape[1] > 2:
        m[:, shape[1] - 1] = 0
    return sp.csr_array(m)


def assert_canonical_csr(result: Any, expected: sp.csr_array) -> None:
    """The result's CSR storage equals scipy's canonical one (sorted, no
    duplicates), values included."""
    got = result.to_scipy()
    want = sp.csr_array(expected)
    want.sum_duplicates()
    want.sort_indices()
    np.testing.assert_array_equal(got.indptr, want.indptr)
    np.testing.assert_array_equal(got.indices, want.indices)
    np.testing.assert_allclose(got.data, want.data)


@pytest.mark.parametrize("encoding", ["CSR", "CSC", "DCSR", "COO", "CSR32"])
@pytest.mark.parametrize(
    ("op", "reference"), [("arith.addf", np.add), ("arith.mulf", np.multiply)]
)
def test_elementwise_into_sparse(encoding: str, op: str, reference: Any) -> None:
    kernel = xsparse.compile(elementwise(encoding, encoding, encoding, op))
    rng = np.random.default_rng(51)
    for shape, density in SHAPES:
        a, b = random_matrix(rng, shape, density), random_matrix(rng, shape, density)
        ta = SparseTensor.from_dense(a.toarray(), ENCODINGS[encoding])
        tb = SparseTensor.from_dense(b.toarray(), ENCODINGS[encoding])
        result = kernel(ta, tb)
        assert isinstance(result, SparseTensor) and result.shape == shape
        result.validate()
        np.testing.assert_allclose(
            result.to_dense(), reference(a.toarray(), b.toarray())
        )
        # Stored: the union (add) or intersection (mul) of the operands' entries.
        union = abs(a) + abs(b)
        stored = union if op == "arith.addf" else abs(a).multiply(abs(b))
        assert result.nse == stored.count_nonzero()


@pytest.mark.parametrize("encoding", ["CSR", "COO"])
def test_size_hint_extremes(encoding: str) -> None:
    """The hint (inputs' entries, capped by the linear size, at least 1) is
    exact for full inputs, capped when the sum passes the size, 1 for empty
    inputs; the result keeps only what it used."""
    add = xsparse.compile(elementwise(encoding, encoding, encoding, "arith.addf"))
    mul = xsparse.compile(elementwise(encoding, encoding, encoding, "arith.mulf"))
    rng = np.random.default_rng(57)
    full = rng.random((6, 5)) + 1.0
    empty = np.zeros((6, 5))
    for x, y in [(full, full), (full, empty), (empty, empty), (empty, full)]:
        tx = SparseTensor.from_dense(x, ENCODINGS[encoding])
        ty = SparseTensor.from_dense(y, ENCODINGS[encoding])
        for kernel, want in [(add, x + y), (mul, x * y)]:
            result = kernel(tx, ty)
            result.validate()
            np.testing.assert_allclose(result.to_dense(), want)
            assert result.nse == np.count_nonzero(want)
            assert len(result.values) == result.nse


BSR = (
    "#sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, "
    "j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>"
)
BSR_ELEMENTWISE = """
#BSR = ENC
#trait = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @f(%a: tensor<?x?xf64, #BSR>, %b: tensor<?x?xf64, #BSR>) -> tensor<?x?xf64, #BSR> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf64, #BSR>
  %n = tensor.dim %a, %c1 : tensor<?x?xf64, #BSR>
  %init = tensor.empty(%m, %n) : tensor<?x?xf64, #BSR>
  %r = linalg.generic #trait ins(%a, %b : tensor<?x?xf64, #BSR>, tensor<?x?xf64, #BSR>) outs(%init : tensor<?x?xf64, #BSR>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = OP %x, %y : f64
    linalg.yield %s : f64
  } -> tensor<?x?xf64, #BSR>
  return %r : tensor<?x?xf64, #BSR>
}
"""


def stored_blocks(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Which 2x2 blocks of `a` hold a nonzero."""
    rows, cols = a.shape
    return np.abs(a).reshape(rows // 2, 2, cols // 2, 2).sum(axis=(1, 3)) > 0


@pytest.mark.parametrize(
    ("op", "reference"), [("arith.addf", np.add), ("arith.mulf", np.multiply)]
)
def test_bsr_elementwise_into_bsr(op: str, reference: Any) -> None:
    """BSR op BSR into BSR (as MLIR 22 compiles it): the blocks are the union
    (add) or intersection (mul) of the operands' blocks, stored whole."""
    kernel = xsparse.compile(BSR_ELEMENTWISE.replace("ENC", BSR).replace("OP", op))
    rng = np.random.default_rng(61)
    for shape, density in [
        ((8, 10), 0.15),
        ((20, 12), 0.05),
        ((0, 4), 0.5),
        ((6, 6), 0.0),
    ]:
        x = (rng.random(shape) < density) * rng.random(shape)
        y = (rng.random(shape) < density) * rng.random(shape)
        tx, ty = SparseTensor.from_dense(x, BSR), SparseTensor.from_dense(y, BSR)
        result = kernel(tx, ty)
        result.validate()
        np.testing.assert_allclose(result.to_dense(), reference(x, y))
        bx, by = stored_blocks(x), stored_blocks(y)
        both = bx | by if op == "arith.addf" else bx & by
        assert result.nse == 4 * np.count_nonzero(both)


def test_csr_plus_csr_matches_scipy_storage() -> None:
    kernel = xsparse.compile(elementwise("CSR", "CSR", "CSR", "arith.addf"))
    rng = np.random.default_rng(52)
    for shape, density in SHAPES:
        a, b = random_matrix(rng, shape, density), random_matrix(rng, shape, density)
        result = kernel(a, b)
        assert_canonical_csr(result, a + b)


@pytest.mark.parametrize(
    ("dtype", "numpy_type"), [("f32", np.float32), ("i32", np.int32), ("i64", np.int64)]
)
def test_sparse_add_dtypes(dtype: str, numpy_type: Any) -> None:
    op = "arith.addf" if dtype.startswith("f") else "arith.addi"
    kernel = xsparse.compile(elementwise("CSR", "CSR", "CSR", op, dtype))
    rng = np.random.default_rng(53)
    a = (random_matrix(rng, (12, 9), 0.3) * 10).astype(numpy_type)
    b = (random_matrix(rng, (12, 9), 0.3) * 10).astype(numpy_type)
    result = kernel(a, b)
    assert result.dtype == numpy_type
    np.testing.assert_array_equal(result.to_dense(), a.toarray() + b.toarray())


def test_csr_times_dcsr_into_dcsr() -> None:
    kernel = xsparse.compile(elementwise("CSR", "DCSR", "DCSR", "arith.mulf"))
    rng = np.random.default_rng(54)
    for shape, density in SHAPES:
        a, b = random_matrix(rng, shape, density), random_matrix(rng, shape, density)
        result = kernel(a, SparseTensor.from_dense(b.toarray(), ENCODINGS["DCSR"]))
        result.validate()
        np.testing.assert_allclose(result.to_dense(), a.toarray() * b.toarray())
        assert result.nse == a.multiply(b).nnz


@pytest.mark.parametrize("encoding", ["CSR", "CSR32"])
def test_spgemm_csr_into_csr(encoding: str) -> None:
    """Also the size hint counting the products (32-bit positions: the
    zero-extending casts of its pass over A)."""
    source = SPGEMM.replace(ENCODINGS["CSR"], ENCODINGS[encoding], 1)
    kernel = xsparse.compile(source)
    rng = np.random.default_rng(55)
    for (m, n, p), density in [
        ((9, 7, 8), 0.3),
        ((60, 50, 70), 0.05),
        ((0, 4, 3), 0.5),
        ((6, 6, 6), 0.0),
        ((3, 0, 4), 0.5),
        ((30, 30, 30), 0.4),
    ]:
        a = random_matrix(rng, (m, n), density)
        b = random_matrix(rng, (n, p), density)
        if encoding == "CSR32":
            a = SparseTensor.from_scipy(a, ENCODINGS[encoding])
            b = SparseTensor.from_scipy(b, ENCODINGS[encoding])
        result = kernel(a, b)
        assert result.shape == (m, p)
        assert_canonical_csr(
            result, a.to_scipy() @ b.to_scipy() if encoding == "CSR32" else a @ b
        )


def test_sddmm_into_csr() -> None:
    kernel = xsparse.compile(SDDMM)
    rng = np.random.default_rng(56)
    s = random_matrix(rng, (20, 30), 0.2)
    a, b = rng.random((20, 8)), rng.random((8, 30))
    result = kernel(s, a, b)
    # Every stored entry of s gives one (sampled) entry.
    assert_canonical_csr(result, sp.csr_array(s.multiply(a @ b)))
    assert result.nse == s.nnz


def test_scale_into_new_csr() -> None:
    kernel = xsparse.compile(SCALE)
    s = random_matrix(np.random.default_rng(57), (25, 15), 0.2)
    result = kernel(s)
    assert_canonical_csr(result, 2 * s)
    assert not np.shares_memory(result.values, s.data)


def test_row_sums_into_sparse_vector() -> None:
    kernel = xsparse.compile(ROW_SUMS)
    s = random_matrix(np.random.default_rng(58), (25, 15), 0.2)
    result = kernel(s)
    assert result.shape == (25,)
    np.testing.assert_allclose(result.to_dense(), s.toarray().sum(axis=1))


def test_csf_add_into_csf() -> None:
    kernel = xsparse.compile(CSF_ADD)
    rng = np.random.default_rng(59)
    for shape in [(4, 5, 6), (0, 2, 3), (3, 3, 3)]:
        x = ((rng.random(shape) < 0.15) * rng.random(shape)).astype(np.float32)
        y = ((rng.random(shape) < 0.15) * rng.random(shape)).astype(np.float32)
        csf = "#sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>"
        result = kernel(
            SparseTensor.from_dense(x, csf), SparseTensor.from_dense(y, csf)
        )
        result.validate()
        np.testing.assert_allclose(result.to_dense(), x + y)
        assert result.nse == np.count_nonzero(x + y)


def test_results_own_their_buffers_without_leaking() -> None:
    """Each call's result owns fresh buffers, freed when the last view dies."""
    kernel = xsparse.compile(elementwise("CSR", "CSR", "CSR", "arith.addf"))
    rng = np.random.default_rng(60)
    a, b = random_matrix(rng, (200, 200), 0.05), random_matrix(rng, (200, 200), 0.05)
    first = kernel(a, b).to_scipy()
    second = kernel(a, b).to_scipy()
    assert not np.shares_memory(first.data, second.data)
    del second
    for _ in range(2000):
        kernel(a, b)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(20000):
        kernel(a, b)
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    # 20,000 results of ~4,000 entries (~64 KiB each) would be > 1 GiB if leaked.
    assert grown_kib < 64 * 1024
    np.testing.assert_allclose(first.toarray(), (a + b).toarray())


@pytest.mark.parametrize(
    "options",
    [
        {"vl": 8},
        {"parallelization_strategy": "any-storage-any-loop"},
        {"parallelization_strategy": "dense-outer-loop"},
    ],
)
def test_sparse_outputs_under_pipeline_options(options: dict[str, Any]) -> None:
    """Loops carrying an inserted tensor stay sequential and scalar."""
    rng = np.random.default_rng(61)
    a, b = random_matrix(rng, (30, 30), 0.2), random_matrix(rng, (30, 30), 0.2)
    add = xsparse.compile(elementwise("CSR", "CSR", "CSR", "arith.addf"), **options)
    assert_canonical_csr(add(a, b), a + b)
    assert_canonical_csr(xsparse.compile(SPGEMM, **options)(a, b), a @ b)


def test_named_matmul_on_sparse_operands() -> None:
    """A named `linalg.matmul` with a CSR operand (generalized first, as
    MLIR's sparsifier does), into a dense result, against scipy."""
    kernel = xsparse.compile(
        f"""
#CSR = {ENCODINGS["CSR"]}
func.func @spmm(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64>, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {{
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64>) outs(%c : tensor<?x?xf64>) -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}}
"""
    )
    rng = np.random.default_rng(62)
    a = random_matrix(rng, (30, 20), 0.1)
    b = rng.random((20, 7))
    np.testing.assert_allclose(kernel(a, b, np.zeros((30, 7))), a @ b)
