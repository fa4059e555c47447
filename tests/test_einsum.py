"""`xsparse.einsum` against `numpy.einsum` on the dense equivalents: every
expression kind (SpMV, SpMM, SDDMM, elementwise, SpGEMM, transposes,
diagonals, full reductions, 3-tensor contractions, scalars, outer products)
on scipy arrays and matrices of every format and `SparseTensor`s of several
encodings; result types, `format=`, `out=`, dtypes, the cache, the MLIR it
returns, and errors in the user's terms. Kernels are shared between tests
where the signatures allow it (each new one compiles for seconds)."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse
from xsparse import SparseTensor
from xsparse.frontend import api, einsum_mlir

ENCODINGS = {
    "CSR": "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>",
    "CSC": "#sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>",
    "DCSR": "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>",
    "COO": "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>",
}
CSF = "#sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>"
COO3 = (
    "#sparse_tensor.encoding<{ map = (i, j, k) -> "
    "(i : compressed(nonunique), j : singleton(nonunique), k : singleton) }>"
)


def dense(value: Any) -> Any:
    """Any operand or result as a numpy array."""
    if sp.issparse(value):
        return value.toarray()
    if isinstance(value, SparseTensor):
        return value.to_dense()
    return np.asarray(value)


def random_dense(
    rng: np.random.Generator, shape: tuple[int, ...], density: float
) -> Any:
    values = rng.standard_normal(shape)
    return values * (rng.random(shape) < density)


def check(subscripts: str, *operands: Any, **options: Any) -> Any:
    """einsum's result, checked against numpy's on the dense operands."""
    result = xsparse.einsum(subscripts, *operands, **options)
    expected = np.einsum(subscripts, *(dense(o) for o in operands))
    np.testing.assert_allclose(dense(result), expected, rtol=1e-5, atol=1e-12)
    return result


def with_int64_indices(matrix: Any) -> Any:
    matrix = matrix.copy()
    matrix.indices = matrix.indices.astype(np.int64)
    matrix.indptr = matrix.indptr.astype(np.int64)
    return matrix


# -- SpMV on every scipy format --------------------------------------------


def bsr_array(values: Any) -> Any:
    return sp.bsr_array(values, blocksize=(2, 2))


def bsr_matrix(values: Any) -> Any:
    return sp.bsr_matrix(values, blocksize=(2, 2))


def csr_int64_indices(values: Any) -> Any:
    return with_int64_indices(sp.csr_array(values))


@pytest.mark.parametrize(
    "make",
    [
        sp.csr_array,
        sp.csr_matrix,
        sp.csc_array,
        sp.csc_matrix,
        sp.coo_array,
        sp.coo_matrix,
        bsr_array,
        bsr_matrix,
        sp.dia_array,
        sp.dia_matrix,
        sp.lil_array,
        sp.dok_array,
        csr_int64_indices,
    ],
    ids=[
        "csr_array",
        "csr_matrix",
        "csc_array",
        "csc_matrix",
        "coo_array",
        "coo_matrix",
        "bsr_array",
        "bsr_matrix",
        "dia_array",
        "dia_matrix",
        "lil_array",
        "dok_array",
        "csr_int64_indices",
    ],
)
def test_spmv_every_scipy_format(make: Any) -> None:
    rng = np.random.default_rng(1)
    a = random_dense(rng, (8, 6), 0.3)
    a[2] = 0  # an empty row
    x = rng.standard_normal(6)
    y = check("ij,j->i", make(a), x)
    assert type(y) is np.ndarray and y.shape == (8,)
    check("ij,j", make(a), x)  # implicit output: the same kernel


def test_spmv_sizes_without_recompiling() -> None:
    """One kernel serves every shape: empty rows, an all-zero matrix, zero
    sizes, larger matrices."""
    rng = np.random.default_rng(2)
    check("ij,j->i", sp.csr_array(random_dense(rng, (5, 7), 0.4)), rng.random(7))
    before = api.plans_built
    for shape, density in [
        ((40, 30), 0.1),
        ((6, 4), 0.0),
        ((0, 5), 0.5),
        ((5, 0), 0.5),
    ]:
        a = sp.csr_array(random_dense(rng, shape, density))
        y = check("ij,j->i", a, rng.random(shape[1]))
        assert y.shape == (shape[0],)
    assert api.plans_built == before


def test_coo_duplicates_are_summed() -> None:
    rows, cols = np.array([0, 0, 2, 1, 0]), np.array([1, 1, 0, 2, 1])
    a = sp.coo_array((np.array([1.0, 2.0, 3.0, 4.0, 5.0]), (rows, cols)), shape=(3, 3))
    y = check("ij,j->i", a, np.array([1.0, 10.0, 100.0]))
    np.testing.assert_allclose(y, [80.0, 400.0, 3.0])


# -- every expression kind --------------------------------------------------


def test_spmm_and_sddmm() -> None:
    rng = np.random.default_rng(3)
    a = sp.csr_array(random_dense(rng, (9, 7), 0.3))
    b = rng.standard_normal((7, 4))
    assert type(check("ij,jk->ik", a, b)) is np.ndarray
    u, v = rng.standard_normal((9, 3)), rng.standard_normal((7, 3))
    sampled = check("ij,ik,jk->ij", a, u, v)
    assert type(sampled) is sp.csr_array  # scipy: a.multiply(u @ v.T)


def test_elementwise_products_are_sparse() -> None:
    rng = np.random.default_rng(4)
    a = random_dense(rng, (7, 6), 0.4)
    b = random_dense(rng, (7, 6), 0.4)
    assert type(check("ij,ij->ij", sp.csr_array(a), sp.csr_array(b))) is sp.csr_array
    assert type(check("ij,ij->ij", sp.csr_matrix(a), sp.csr_matrix(b))) is sp.csr_matrix
    assert type(check("ij,ij->ij", sp.csr_array(a), b)) is sp.csr_array
    # CSR times CSC: the kernel converts one of them to the other's order.
    assert type(check("ij,ij->ij", sp.csr_array(a), sp.csc_array(b))) is sp.csr_array


@pytest.mark.parametrize(
    "shapes", [((8, 5), (5, 6)), ((0, 3), (3, 4)), ((4, 6), (6, 0))]
)
def test_spgemm_is_sparse(shapes: tuple[tuple[int, int], tuple[int, int]]) -> None:
    rng = np.random.default_rng(5)
    a = sp.csr_array(random_dense(rng, shapes[0], 0.3))
    b = sp.csr_array(random_dense(rng, shapes[1], 0.3))
    c = check("ik,kj->ij", a, b)
    assert type(c) is sp.csr_array and c.shape == (shapes[0][0], shapes[1][1])


def test_transpose_diagonal_trace_and_reductions() -> None:
    rng = np.random.default_rng(6)
    a = sp.csr_array(random_dense(rng, (6, 6), 0.4))
    b = sp.csr_array(random_dense(rng, (6, 6), 0.4))
    assert type(check("ij->ji", a)) is sp.csc_array  # as scipy's a.T
    assert type(check("ii->i", a)) is np.ndarray
    trace = check("ii", a)
    assert np.ndim(trace) == 0 and not isinstance(trace, np.ndarray)
    assert np.ndim(check("ij->", a)) == 0
    assert np.ndim(check("ij,ij", a, b)) == 0
    assert type(check("ij->i", a)) is np.ndarray
    check("ij,ji->ij", a, b)  # b read transposed: converted in the kernel
    with pytest.raises(ValueError, match="index i has size 6 .* but 5"):
        xsparse.einsum("ii->i", sp.csr_array(np.ones((6, 5))))


def test_dense_operands_scalars_and_outer_products() -> None:
    rng = np.random.default_rng(7)
    x, z = rng.standard_normal(5), rng.standard_normal(3)
    assert check("i,j->ij", x, z).shape == (5, 3)
    a = sp.csr_array(random_dense(rng, (5, 3), 0.4))
    assert type(check(",ij->ij", np.array(2.5), a)) is sp.csr_array
    check(",ij->ij", 3.0, a)  # a Python number is a 0-d operand
    check("ij,i->ij", a, x)  # scaled rows: sparse
    m = rng.standard_normal((4, 4))
    check("ii->i", m)
    check("ij,jk", m, m.tolist())


# -- SparseTensor operands ---------------------------------------------------


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_sparse_tensor_operands(name: str) -> None:
    rng = np.random.default_rng(8)
    a = SparseTensor.from_dense(random_dense(rng, (7, 5), 0.35), ENCODINGS[name])
    b = SparseTensor.from_dense(random_dense(rng, (7, 5), 0.35), ENCODINGS[name])
    if name == "CSR":  # the kernel of a scipy CSR matrix with int64 indices
        assert type(check("ij,j->i", a, rng.standard_normal(5))) is np.ndarray
    product = check("ij,ij->ij", a, b)
    assert isinstance(product, SparseTensor)
    assert product.encoding == a.encoding  # the operands' format


def test_three_tensor_contractions() -> None:
    rng = np.random.default_rng(9)
    values = random_dense(rng, (4, 5, 6), 0.2)
    csf = SparseTensor.from_dense(values, CSF)
    coo = SparseTensor.from_dense(values, COO3)
    v, m = rng.standard_normal(6), rng.standard_normal((5, 6))
    assert type(check("ijk,k->ij", csf, v)) is np.ndarray
    check("ijk,jk->i", coo, m)
    assert isinstance(check("ijk,ijk->ijk", csf, csf), SparseTensor)


# -- results: format=, out=, dtypes --------------------------------------------


def test_format_asks_for_another_result() -> None:
    rng = np.random.default_rng(10)
    a = sp.csr_array(random_dense(rng, (6, 5), 0.4))
    b = sp.csr_array(random_dense(rng, (6, 5), 0.4))
    assert type(check("ij,ij->ij", a, b, format="csc")) is sp.csc_array
    assert type(check("ij,ij->ij", a, b, format="coo")) is sp.coo_array
    assert type(check("ij,ij->ij", a, b, format="dense")) is np.ndarray
    dcsr = check("ij,ij->ij", a, b, format=ENCODINGS["DCSR"])
    assert isinstance(dcsr, SparseTensor)
    assert (
        dcsr.encoding == SparseTensor.from_dense(np.eye(2), ENCODINGS["DCSR"]).encoding
    )
    m = sp.csr_matrix(a)
    assert (
        type(check("ij,jk->ik", m, rng.random((5, 3)), format="csr")) is sp.csr_matrix
    )
    with pytest.raises(ValueError, match="2-D result"):
        xsparse.einsum("ij,j->i", a, rng.random(5), format="csr")
    with pytest.raises(ValueError, match="neither"):
        xsparse.einsum("ij,j->i", a, rng.random(5), format="bogus")


def test_out_is_zeroed_written_and_returned() -> None:
    rng = np.random.default_rng(11)
    a: Any = sp.csr_array(random_dense(rng, (6, 5), 0.4))
    x = rng.standard_normal(5)
    out = np.full(6, 99.0)
    assert xsparse.einsum("ij,j->i", a, x, out=out) is out
    np.testing.assert_allclose(out, a @ x)
    out.fill(-1.0)
    xsparse.einsum("ij,j->i", a, x, out=out)  # old contents ignored again
    np.testing.assert_allclose(out, a @ x)
    square: Any = sp.csr_array(random_dense(rng, (5, 5), 0.4))
    v = rng.standard_normal(5)
    expected = square @ v
    assert xsparse.einsum("ij,j->i", square, v, out=v) is v  # out is an operand
    np.testing.assert_allclose(v, expected)
    with pytest.raises(ValueError, match="out has shape"):
        xsparse.einsum("ij,j->i", a, x, out=np.zeros(5))
    with pytest.raises(TypeError, match="into out of dtype int64"):
        xsparse.einsum("ij,j->i", a, x, out=np.zeros(6, np.int64))
    with pytest.raises(ValueError, match="dense result"):
        xsparse.einsum("ij,j->i", a, x, out=np.zeros(6), format="csr")


def test_dtypes_follow_numpy() -> None:
    rng = np.random.default_rng(12)
    d = random_dense(rng, (6, 5), 0.4)
    a32 = sp.csr_array(d.astype(np.float32))
    y = check("ij,j->i", a32, rng.standard_normal(5))  # f32 values, f64 vector
    assert y.dtype == np.float64
    ints = sp.csr_array((d * 10).astype(np.int64))
    y = check("ij,j->i", ints, np.arange(5, dtype=np.int32))
    assert y.dtype == np.int64
    with pytest.raises(TypeError, match="operand 0 has dtype complex128"):
        xsparse.einsum("ij,j->i", sp.csr_array(d.astype(complex)), np.ones(5))
    with pytest.raises(TypeError, match="operand 1 has dtype bool"):
        xsparse.einsum("ij,j->i", a32, np.ones(5, bool))


# -- the cache and the MLIR -----------------------------------------------------


def test_a_repeated_call_hits_the_cache() -> None:
    rng = np.random.default_rng(13)
    a = sp.csr_array(random_dense(rng, (6, 5), 0.4))
    x = rng.standard_normal(5)
    xsparse.einsum("ij,j->i", a, x)
    xsparse.einsum("ij,j->i", sp.csr_matrix(a), x)  # a plan of its own (its family)
    before = api.plans_built
    for _ in range(3):
        xsparse.einsum("ij,j->i", sp.csr_array(random_dense(rng, (9, 5), 0.3)), x)
        xsparse.einsum("ij,j->i", sp.csr_matrix(random_dense(rng, (4, 5), 0.3)), x)
    assert api.plans_built == before
    xsparse.einsum("ij,j->i", a, x, fast_math=False)
    assert api.plans_built == before + 1  # compile options are part of the key


def test_returned_mlir_parses_in_xsparse_opt(tmp_path: Path) -> None:
    rng = np.random.default_rng(14)
    a: Any = sp.csr_array(random_dense(rng, (6, 5), 0.4))
    texts = [
        einsum_mlir("ij,j->i", a, np.ones(5)),
        einsum_mlir("ik,kj->ij", a, sp.csc_array(a.T)),
        einsum_mlir("ii", sp.csr_array(np.eye(3))),
        einsum_mlir("ij,ij->ij", a, sp.csc_array(a), format=ENCODINGS["DCSR"]),
    ]
    assert "linalg.generic" in texts[0] and "sparse_tensor.convert" in texts[3]
    source = tmp_path / "einsum.mlir"
    source.write_text("\n// -----\n".join(texts))
    tool = Path(sys.executable).parent / "xsparse-opt"
    done = subprocess.run(
        [str(tool), str(source), "--split-input-file", "-p", "sparsifier"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("llvm.func @kernel") == len(texts)


# -- errors in the user's terms, before anything compiles ------------------------


@pytest.mark.parametrize(
    ("subscripts", "shapes", "error", "message"),
    [
        ("ij,j->", [(3, 4), (4,)], None, None),
        ("ij,j->i", [(3, 4)], ValueError, "name 2 operand.*got 1"),
        (
            "ij,j->i",
            [(3, 4), (5,)],
            ValueError,
            r"index j has size 4 in operand 0 \(dimension 1\) but 5 in operand 1",
        ),
        ("ijk,j->i", [(3, 4), (4,)], ValueError, "operand 0 has 2 dimension"),
        (
            "ij,j->k",
            [(3, 4), (4,)],
            ValueError,
            "output index 'k' appears in no operand",
        ),
        ("ij,j->ii", [(3, 4), (4,)], ValueError, "output index 'i' appears 2 times"),
        ("...j,j->i", [(3, 4), (4,)], ValueError, "ellipsis"),
        ("i1,j->i", [(3, 4), (4,)], ValueError, "'1' is not an index letter"),
        ("ij->j->i", [(3, 4)], ValueError, "'->' must appear at most once"),
    ],
)
def test_errors_name_the_expression_and_operand(
    subscripts: str, shapes: list[tuple[int, ...]], error: Any, message: str | None
) -> None:
    operands = [sp.csr_array(np.ones(shapes[0]))] + [np.ones(s) for s in shapes[1:]]
    before = api.plans_built
    if error is None:
        einsum_mlir(subscripts, *operands)  # the valid baseline
        return
    with pytest.raises(error, match=message) as raised:
        xsparse.einsum(subscripts, *operands)
    assert f"einsum {subscripts!r}" in str(raised.value)
    assert api.plans_built == before


def test_unsupported_objects_are_type_errors() -> None:
    with pytest.raises(TypeError, match="operand 1: cannot take a dict"):
        xsparse.einsum("i,i", np.ones(3), {"a": 1})
    with pytest.raises(TypeError, match="subscripts must be a str"):
        xsparse.einsum(["i"], np.ones(3))  # type: ignore[arg-type]


def test_a_size_mismatch_on_a_cached_kernel_names_the_operands() -> None:
    a = sp.csr_array(np.eye(4))
    xsparse.einsum("ij,j->i", a, np.ones(4))
    with pytest.raises(ValueError, match="index j has size 4 .* but 3 in operand 1"):
        xsparse.einsum("ij,j->i", a, np.ones(3))


# Defects found by the generated calls (tests/test_generated_einsum.py).

DCSR = "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>"
DCSC = "#sparse_tensor.encoding<{ map = (i, j) -> (j : compressed, i : compressed) }>"
SPARSE_VECTOR = "#sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>"


def test_outer_product_of_a_matrix_and_a_vector_is_a_3d_sparse_tensor() -> None:
    """Generated seed 3: a sparse result of rank 3 was given CSR's two level
    types for three levels (an internal ValueError from zip)."""
    rng = np.random.default_rng(3)
    a = np.where(rng.random((3, 4)) < 0.5, 1.0 + rng.random((3, 4)), 0.0)
    x = np.where(rng.random(5) < 0.5, 2.0, 0.0)
    result = xsparse.einsum(
        "lk,i->ikl",
        SparseTensor.from_dense(a, DCSR),
        SparseTensor.from_dense(x, SPARSE_VECTOR),
    )
    assert isinstance(result, SparseTensor)
    np.testing.assert_array_equal(result.to_dense(), np.einsum("lk,i->ikl", a, x))


def test_bsr_with_one_by_one_blocks_is_read_as_csr() -> None:
    """Generated seeds 23 and 47: scipy gives a BSR matrix 1 x 1 blocks,
    whose block encoding (`d0 floordiv 1 ...`) does not parse."""
    a = np.array([[0.0, 2.0, 0.0], [1.0, 0.0, 3.0]])
    bsr = sp.bsr_array(a, blocksize=(1, 1))
    np.testing.assert_array_equal(xsparse.einsum("ij->i", bsr), a.sum(axis=1))


def test_sparse_result_whose_loops_cannot_insert_in_order() -> None:
    """Generated seed 28: the operands' level orders put the summed index
    outside the result's (`jk,ji,i->kj` on DCSR and DCSC): the sparsifier
    refuses to insert into a sparse result in that order. The result is
    computed dense and converted."""
    rng = np.random.default_rng(28)
    a, b = (np.where(rng.random((4, 4)) < 0.5, 1.0, 0.0) for _ in "ab")
    x = rng.random(4)
    result = xsparse.einsum(
        "jk,ji,i->kj",
        SparseTensor.from_dense(a, DCSR),
        SparseTensor.from_dense(b, DCSC),
        x,
    )
    assert isinstance(result, SparseTensor)
    np.testing.assert_allclose(result.to_dense(), np.einsum("jk,ji,i->kj", a, b, x))


def _unsorted_with_duplicates() -> Any:
    """Row 0 holds columns 2, 0, 2 (unsorted, 2 repeated): not canonical, as
    scipy's own products leave their results."""
    return sp.csr_array(
        (np.array([1.0, 2.0, 3.0, 4.0]), np.array([2, 0, 2, 1]), np.array([0, 3, 4])),
        shape=(2, 3),
    )


def test_a_matrix_that_is_not_canonical_is_read_as_it_is() -> None:
    """A CSR matrix with unsorted and repeated indices reaches an SpMV kernel
    without a copy (`compressed(nonunique, nonordered)`: duplicates summed,
    as scipy's `A @ x`); no ConversionWarning, and scipy's arrays unchanged."""
    a = _unsorted_with_duplicates()
    indices = a.indices.copy()
    x = np.array([1.0, 10.0, 100.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(xsparse.einsum("ij,j->i", a, x), a @ x)
    np.testing.assert_array_equal(a.indices, indices)
    assert "nonordered" in einsum_mlir("ij,j->i", a, x)


def test_a_matrix_that_is_not_canonical_is_made_canonical_to_co_iterate() -> None:
    a = _unsorted_with_duplicates()
    b = sp.csr_array(np.arange(6.0).reshape(2, 3))
    result = xsparse.einsum("ij,ij->ij", a, b)
    np.testing.assert_array_equal(result.toarray(), a.multiply(b).toarray())
    np.testing.assert_array_equal(a.indices, [2, 0, 2, 1])  # the caller's copy stays


def test_block_sparse_tensors_multiply_through_csr() -> None:
    """Two BSR `SparseTensor`s (block levels the sparsifier cannot co-iterate
    with other block maps) are read as CSR, as scipy BSR matrices are."""
    rng = np.random.default_rng(12)
    a = cast(Any, sp.csr_array(random_dense(rng, (6, 4), 0.5))).tobsr((2, 2))
    b = cast(Any, sp.csr_array(random_dense(rng, (4, 6), 0.5))).tobsr((2, 2))
    result = xsparse.einsum(
        "ij,jk->ik", SparseTensor.from_scipy(a), SparseTensor.from_scipy(b)
    )
    np.testing.assert_allclose(result.to_dense(), (a @ b).toarray())


def test_a_matrix_that_is_not_canonical_in_a_union_with_a_dense_operand() -> None:
    """Fuzz seed 80000524: `A(i,k) - B(i,k) * C` with A an unsorted scipy
    matrix (the only sparse operand, a dense result) and B dense: the union
    with B co-iterates A's level in order, which the sparsifier refused for
    the unordered level. The kernel is built again on a canonical copy."""
    a = _unsorted_with_duplicates()
    b = np.arange(6.0).reshape(2, 3)
    result = xsparse.evaluate("y(i,k) = A(i,k) - B(i,k) * C", A=a, B=b, C=np.array(2.0))
    np.testing.assert_array_equal(result, a.toarray() - 2.0 * b)


def test_the_mlir_einsum_builds_is_what_mlir_22_sparsifies() -> None:
    """The kernels einsum/evaluate build go through `mlir-opt-22 --sparsifier`
    as they are (MLIR 22 reads xsparse's IR and sparsifies the same kernel)."""
    import os

    from xsparse.frontend import evaluate_mlir
    from xsparse.testing.kernels import mlir_available

    if not mlir_available():
        if os.environ.get("XSPARSE_REQUIRE_MLIR"):
            pytest.fail("XSPARSE_REQUIRE_MLIR is set but mlir-opt-22 is missing")
        pytest.skip("MLIR 22's mlir-opt-22 is not installed")
    rng = np.random.default_rng(22)
    a = sp.csr_array(random_dense(rng, (6, 5), 0.4))
    b = sp.csr_array(random_dense(rng, (5, 4), 0.4))
    texts = [
        einsum_mlir("ij,j->i", a, np.ones(5)),
        einsum_mlir("ik,kj->ij", a, b),
        einsum_mlir("ij,ij->ij", a, a),
        einsum_mlir("ij->", a),
        evaluate_mlir("C(i,j) = A(i,j) + B(i,j)", A=a, B=a),
    ]
    for text in texts:
        run = subprocess.run(
            ["mlir-opt-22", "--sparsifier", "-"],
            input=text,
            capture_output=True,
            text=True,
        )
        assert run.returncode == 0, f"{text}\n{run.stderr}"
        assert "llvm.func @kernel" in run.stdout


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_sparse_results_keep_scipys_32_bit_indices(fmt: str) -> None:
    """Operands with int32 indices give a result with int32 indices, as
    scipy's own product does: the kernel's 32-bit buffers are shared as
    int32 views, not widened to int64 copies."""
    a = sp.random_array((40, 30), density=0.2, format=fmt, dtype=np.float64, rng=0)
    b = sp.random_array((30, 20), density=0.2, format=fmt, dtype=np.float64, rng=1)
    for m in (a, b):
        m.indices, m.indptr = m.indices.astype(np.int32), m.indptr.astype(np.int32)
    for result in (
        xsparse.einsum("ij,jk->ik", a, b, format=fmt),
        xsparse.einsum("ij,ij->ij", a, a, format=fmt),
    ):
        assert result.format == fmt
        assert result.indices.dtype == np.int32 and result.indptr.dtype == np.int32
    product = xsparse.einsum("ij,jk->ik", a, b, format=fmt)
    np.testing.assert_allclose(product.toarray(), (a @ b).toarray())
