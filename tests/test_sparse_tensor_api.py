"""`SparseTensor` as an array (shape, dtype, nnz, format, T, toarray,
`np.asarray`, `to_scipy`, `@ + - *`, repr) and `Kernel`'s repr and doc,
against numpy and scipy on random data with fixed seeds; then a smoke run of
`tools/bench_einsum.py`.

The operators compile kernels through the front end: the tests share a few
signatures (float64 CSR mostly) to stay fast.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse
from xsparse import SparseTensor
from xsparse.backend.sparse_storage import format_name, parse_encoding

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools import bench_einsum  # noqa: E402


def encoding(body: str, dims: str = "d0, d1", widths: str = "") -> str:
    return f"#sparse_tensor.encoding<{{ map = ({dims}) -> ({body}){widths} }}>"


CSR = encoding("d0 : dense, d1 : compressed")
CSC = encoding("d1 : dense, d0 : compressed")
COO = encoding("d0 : compressed(nonunique), d1 : singleton")
DCSR = encoding("d0 : compressed, d1 : compressed")
DCSC = encoding("d1 : compressed, d0 : compressed")
BSR = encoding(
    "d0 floordiv 2 : dense, d1 floordiv 2 : compressed, d0 mod 2 : dense, "
    "d1 mod 2 : dense"
)
CSR32 = encoding("d0 : dense, d1 : compressed", widths=", posWidth = 32, crdWidth = 32")
CSR16 = encoding("d0 : dense, d1 : compressed", widths=", posWidth = 16, crdWidth = 16")
DENSE2 = encoding("d0 : dense, d1 : dense")
LOOSE = encoding("d0 : dense, d1 : loose_compressed")
COO3 = encoding(
    "d0 : compressed(nonunique), d1 : singleton(nonunique), d2 : singleton",
    "d0, d1, d2",
)
CSF3 = encoding("d0 : compressed, d1 : compressed, d2 : compressed", "d0, d1, d2")
VECTOR = encoding("d0 : compressed", "d0")

FORMATS_2D = {
    "csr": CSR,
    "csc": CSC,
    "coo": COO,
    "dcsr": DCSR,
    "dcsc": DCSC,
    "bsr": BSR,
}
"""Every 2-D encoding with a usual name."""

SCIPY_TYPES: dict[str, Any] = {
    "csr": sp.csr_array,
    "csc": sp.csc_array,
    "coo": sp.coo_array,
    "dcsr": sp.csr_array,
    "dcsc": sp.csc_array,
    "bsr": sp.bsr_array,
}
"""What `to_scipy` returns for each."""


def random_dense(
    shape: tuple[int, ...], seed: int, dtype: Any = np.float64, density: float = 0.3
) -> np.ndarray[Any, Any]:
    """Random entries (small integers for integer dtypes), about `density` nonzero."""
    rng = np.random.default_rng(seed)
    values = (
        rng.integers(1, 10, shape)
        if np.dtype(dtype).kind == "i"
        else rng.random(shape) + 0.5
    )
    return np.where(rng.random(shape) < density, values, 0).astype(dtype)


def tensor(
    shape: tuple[int, ...], enc: str, seed: int = 0, dtype: Any = np.float64
) -> tuple[SparseTensor, np.ndarray[Any, Any]]:
    dense = random_dense(shape, seed, dtype)
    return SparseTensor.from_dense(dense, enc), dense


def close(got: Any, want: Any) -> None:
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12)


# -- properties -----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(FORMATS_2D))
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_properties_2d(name: str, dtype: Any) -> None:
    t, dense = tensor((6, 8), FORMATS_2D[name], seed=1, dtype=dtype)
    assert t.shape == (6, 8) and t.ndim == 2
    assert t.dtype == np.dtype(dtype)
    csr: Any = sp.csr_array(dense)
    blocks = csr.tobsr((2, 2)).data.size  # BSR stores whole blocks
    assert t.nnz == t.nse == (blocks if name == "bsr" else np.count_nonzero(dense))
    assert t.format == name
    np.testing.assert_array_equal(t.toarray(), dense)
    np.testing.assert_array_equal(np.asarray(t), dense)
    assert np.asarray(t, dtype=np.float32).dtype == np.float32
    assert repr(t) == f"<SparseTensor 6x8 {np.dtype(dtype)} {name}, nnz={t.nnz}>"


def test_properties_3d() -> None:
    for enc, name in ((COO3, "coo"), (CSF3, "csf")):
        t, dense = tensor((3, 4, 5), enc, seed=2, dtype=np.float32)
        assert (t.shape, t.ndim, t.dtype) == ((3, 4, 5), 3, np.float32)
        assert t.nnz == np.count_nonzero(dense)
        assert t.format == name
        np.testing.assert_array_equal(t.toarray(), dense)
        assert repr(t) == f"<SparseTensor 3x4x5 float32 {name}, nnz={t.nnz}>"
        transposed = t.T
        assert transposed.shape == (5, 4, 3)
        np.testing.assert_array_equal(transposed.toarray(), dense.transpose())
        assert np.shares_memory(transposed.values, t.values)


def test_format_names_and_repr_of_other_encodings() -> None:
    assert format_name(parse_encoding(CSR32)) == "csr"
    assert format_name(parse_encoding(DENSE2)) == "dense"
    assert format_name(parse_encoding(VECTOR)) == "sparse_vector"
    t, _ = tensor((4, 5), LOOSE, seed=3)
    assert t.format == str(xsparse_encoding_attr(LOOSE))
    assert repr(t).startswith("<SparseTensor 4x5 float64 #sparse_tensor.encoding<{")
    wide, _ = tensor((4, 5), CSR32)
    assert repr(wide) == (
        f"<SparseTensor 4x5 float64 csr, nnz={wide.nnz}, pos_width=32, crd_width=32>"
    )


def xsparse_encoding_attr(text: str) -> Any:
    from xsparse.dialects.sparse_tensor.encoding import SparseTensorEncodingAttr

    return SparseTensorEncodingAttr(parse_encoding(text))


@pytest.mark.parametrize("shape", [(0, 5), (5, 0), (0, 0), (3, 4)])
@pytest.mark.parametrize("name", ["csr", "csc", "coo", "dcsr", "dcsc"])
def test_empty_tensors(shape: tuple[int, int], name: str) -> None:
    t = SparseTensor.from_dense(np.zeros(shape), FORMATS_2D[name])
    assert t.nnz == 0 and t.shape == shape and t.ndim == 2
    np.testing.assert_array_equal(t.toarray(), np.zeros(shape))
    np.testing.assert_array_equal(t.T.toarray(), np.zeros(shape[::-1]))
    matrix = t.to_scipy()
    assert matrix.shape == shape and matrix.nnz == 0
    assert repr(t) == f"<SparseTensor {shape[0]}x{shape[1]} float64 {name}, nnz=0>"


def test_array_protocol() -> None:
    t, dense = tensor((5, 4), CSR, seed=4)
    np.testing.assert_array_equal(np.array(t), dense)
    with pytest.raises(ValueError, match="copy"):
        np.asarray(t, copy=False)
    with pytest.raises(TypeError):
        np.add(t, 1.0)  # numpy's ufuncs defer to the operators


# -- T and to_scipy ----------------------------------------------------------------


def test_transpose_of_csr_is_csc_sharing_buffers() -> None:
    t, dense = tensor((5, 7), CSR, seed=5)
    transposed = t.T
    assert transposed.format == "csc" and transposed.shape == (7, 5)
    assert np.shares_memory(transposed.values, t.values)
    assert np.shares_memory(transposed.positions[1], t.positions[1])
    assert np.shares_memory(transposed.coordinates[1], t.coordinates[1])
    np.testing.assert_array_equal(transposed.toarray(), dense.T)
    assert t.T.encoding is transposed.encoding  # one object per encoding
    assert t.T.T.format == "csr" and t.transpose().format == "csc"
    csc = transposed.to_scipy()
    assert type(csc) is SCIPY_TYPES["csc"]
    assert np.shares_memory(csc.data, t.values)
    np.testing.assert_array_equal(csc.toarray(), dense.T)


@pytest.mark.parametrize("name", ["dcsr", "dcsc", "coo", "bsr"])
def test_transpose_of_other_formats(name: str) -> None:
    t, dense = tensor((6, 4), FORMATS_2D[name], seed=6)
    transposed = t.T
    assert transposed.shape == (4, 6)
    np.testing.assert_array_equal(transposed.toarray(), dense.T)
    np.testing.assert_array_equal(transposed.to_scipy().toarray(), dense.T)
    swapped = {"dcsr": "dcsc", "dcsc": "dcsr"}
    if name in swapped:
        assert transposed.format == swapped[name]


@pytest.mark.parametrize("name", sorted(FORMATS_2D))
def test_to_scipy_round_trip(name: str) -> None:
    t, dense = tensor((8, 6), FORMATS_2D[name], seed=7)
    matrix = t.to_scipy()
    assert type(matrix) is SCIPY_TYPES[name]
    np.testing.assert_array_equal(matrix.toarray(), dense)
    assert np.shares_memory(matrix.data, t.values)  # values never copied
    back = SparseTensor.from_scipy(matrix, FORMATS_2D[name])
    np.testing.assert_array_equal(back.toarray(), dense)
    if name in ("csr", "csc", "bsr"):
        assert np.shares_memory(matrix.indptr, t.positions[1])
    if name != "coo":
        assert np.shares_memory(matrix.indices, t.coordinates[1])
    else:
        assert np.shares_memory(matrix.coords[0], t.coordinates[0])
        assert matrix.has_canonical_format


def test_to_scipy_index_widths() -> None:
    narrow, dense = tensor((6, 5), CSR32, seed=8)
    matrix = narrow.to_scipy()
    assert matrix.indices.dtype == np.int32
    assert np.shares_memory(matrix.indices, narrow.coordinates[1])
    assert np.shares_memory(matrix.indptr, narrow.positions[1])
    np.testing.assert_array_equal(matrix.toarray(), dense)
    tiny, dense = tensor((6, 5), CSR16, seed=8)
    assert tiny.to_scipy().indices.dtype == np.int32  # converted
    np.testing.assert_array_equal(tiny.to_scipy().toarray(), dense)
    other, dense = tensor((4, 3), DENSE2, seed=9)
    assert isinstance(other.to_scipy(), sp.coo_array)
    np.testing.assert_array_equal(other.to_scipy().toarray(), dense)


# -- operators ----------------------------------------------------------------------


def test_matmul_with_dense() -> None:
    t, a = tensor((7, 5), CSR, seed=10)
    rng = np.random.default_rng(10)
    x, b, w, c = rng.random(5), rng.random((5, 3)), rng.random(7), rng.random((2, 7))
    y = t @ x
    assert type(y) is np.ndarray
    close(y, a @ x)
    close(t @ b, a @ b)
    close(w @ t, w @ a)
    close(c @ t, c @ a)
    close(t @ list(x), a @ x)
    close(t.T @ w, a.T @ w)  # CSC


def test_matmul_of_vectors_and_other_encodings() -> None:
    v, dense_v = tensor((9,), VECTOR, seed=11)
    x = np.random.default_rng(11).random(9)
    dot = v @ x
    assert np.ndim(dot) == 0
    close(dot, dense_v @ x)
    for enc in (COO, DCSR):
        t, a = tensor((7, 9), enc, seed=12)
        close(t @ x, a @ x)


@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_matmul_dtypes(dtype: Any) -> None:
    t, a = tensor((6, 4), CSR, seed=13, dtype=dtype)
    x = random_dense((4,), 14, dtype, density=1.0)
    y = t @ x
    assert y.dtype == np.dtype(dtype)
    np.testing.assert_allclose(y, a @ x, rtol=1e-6)


def test_matmul_sparse_sparse() -> None:
    t, a = tensor((6, 5), CSR, seed=15)
    u, b = tensor((5, 4), CSR, seed=16)
    product = t @ u
    assert isinstance(product, SparseTensor) and product.shape == (6, 4)
    close(product.toarray(), a @ b)
    with_scipy = t @ sp.csr_array(b)
    assert isinstance(with_scipy, SparseTensor)
    close(with_scipy.toarray(), a @ b)


def test_elementwise_sparse_sparse() -> None:
    t, a = tensor((6, 5), CSR, seed=17)
    u, b = tensor((6, 5), CSR, seed=18)
    for got, want in ((t + u, a + b), (t - u, a - b), (t * u, a * b)):
        assert isinstance(got, SparseTensor) and got.format == "csr"
        close(got.toarray(), want)
    with_scipy = t + sp.csr_array(b)  # a SparseTensor on the left: ours
    assert isinstance(with_scipy, SparseTensor)
    close(with_scipy.toarray(), a + b)
    scipy_b: Any = sp.csr_array(b)
    scipy_left = scipy_b + t  # scipy defers: the left operand's family
    assert sp.issparse(scipy_left)
    close(scipy_left.toarray(), a + b)


def test_elementwise_other_encodings() -> None:
    t, a = tensor((5, 4), COO, seed=19)
    close((t + t).toarray(), 2 * a)
    d, b = tensor((5, 4), DCSR, seed=20)
    close((d * d).toarray(), b * b)


def test_elementwise_with_dense() -> None:
    t, a = tensor((6, 5), CSR, seed=21)
    d = np.random.default_rng(21).random((6, 5))
    added = t + d
    assert type(added) is np.ndarray  # as scipy: sparse + dense is dense
    close(added, a + d)
    close(d + t, d + a)
    close(d - t, d - a)
    close(t - d, a - d)
    product = t * d
    assert isinstance(product, SparseTensor)  # as scipy: sparse * dense is sparse
    close(product.toarray(), a * d)
    close((cast(Any, d) * t).toarray(), d * a)
    row = d[0]
    close((t * row).toarray(), a * row)  # broadcast


def test_scalars() -> None:
    t, a = tensor((5, 6), CSR, seed=22, dtype=np.float32)
    for got, want in ((t * 2.0, a * 2.0), (2.0 * t, 2.0 * a), (t / 4, a / 4), (-t, -a)):
        assert isinstance(got, SparseTensor) and got.dtype == np.float32
        assert np.shares_memory(got.positions[1], t.positions[1])  # shared indices
        np.testing.assert_array_equal(got.toarray(), want)
    assert (t * np.float64(2.0)).dtype == np.float64  # numpy's rules
    assert isinstance(np.float32(3) * t, SparseTensor)  # numpy scalars defer
    with pytest.raises(ValueError, match="one per stored entry"):
        t.with_values(np.ones(t.nnz + 1))
    np.testing.assert_array_equal((t + 0).toarray(), a)
    np.testing.assert_array_equal((0 - t).toarray(), -a)
    with pytest.raises(NotImplementedError, match="nonzero scalar"):
        _ = t + 1.0
    with pytest.raises(NotImplementedError, match="nonzero scalar"):
        _ = 1.0 - t


def test_shape_errors() -> None:
    t, _ = tensor((6, 5), CSR, seed=23)
    u, _ = tensor((5, 6), CSR, seed=24)
    with pytest.raises(ValueError, match=r"matmul: dimension mismatch: 6x5 @ 4"):
        _ = t @ np.ones(4)
    with pytest.raises(ValueError, match="dimension mismatch"):
        _ = np.ones((2, 4)) @ t
    with pytest.raises(ValueError, match="dimension mismatch"):
        _ = t @ t
    with pytest.raises(ValueError, match="scalar operands"):
        _ = t @ 2.0
    with pytest.raises(ValueError, match="1-D and 2-D"):
        _ = t @ np.ones((5, 2, 2))
    with pytest.raises(ValueError, match="inconsistent shapes: 6x5 and 5x6"):
        _ = t + u
    with pytest.raises(ValueError, match="inconsistent shapes"):
        _ = t * sp.csr_array(np.ones((5, 6)))
    with pytest.raises(ValueError, match="could not be broadcast"):
        _ = t + np.ones((6, 4))
    with pytest.raises(TypeError):
        _ = t + "a"


# -- Kernel --------------------------------------------------------------------------


def test_kernel_repr_and_doc() -> None:
    kernel = xsparse.compile(
        (Path(__file__).parent / "kernels" / "spmv_csr.mlir").read_text()
    )
    assert repr(kernel) == (
        f"<Kernel {kernel.name}(arg0: tensor<?x?xf64, #CSR>, arg1: tensor<?xf64>, "
        "arg2: tensor<?xf64> [written in place]) -> tensor<?xf64>>"
    )
    doc = kernel.describe()
    assert kernel.__doc__ == doc
    assert "arg2: tensor<?xf64>: a numpy array, written in place" in doc
    assert "arg0: tensor<?x?xf64, #CSR>: a SparseTensor or scipy.sparse matrix" in doc
    assert "Returns tensor<?xf64>: a numpy array." in doc
    assert "#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense" in doc
    assert (type(kernel).__doc__ or "").startswith("A compiled entry function")


# -- tools/bench_einsum.py ----------------------------------------------------------


def test_bench_einsum_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    rows = bench_einsum.main(["--size", "tiny", "--rounds", "1"])
    table = capsys.readouterr().out
    assert "thread(s)" in table
    operations = {r.operation for r in rows}
    assert operations == set(bench_einsum.OPERATIONS)
    for op in bench_einsum.OPERATIONS:
        libraries = {r.library for r in rows if r.operation == op}
        assert "xsparse.evaluate" in libraries
        assert ("numpy" if op == "ttv" else "scipy") in libraries
    assert all(r.first > 0 and r.repeated > 0 for r in rows)


def test_pickle_carries_each_buffer_once() -> None:
    import pickle

    a = sp.random_array((300, 200), density=0.05, format="csr", random_state=0)
    tensor = SparseTensor.from_scipy(a)
    before = len(pickle.dumps(tensor))
    tensor.storage_tuple()  # (what a kernel call keeps on the tensor)
    assert len(pickle.dumps(tensor)) == before
    again = pickle.loads(pickle.dumps(tensor))
    assert again.format == tensor.format and again.shape == tensor.shape
    np.testing.assert_array_equal(again.to_dense(), a.toarray())
    assert [type(b) for b in again.storage_tuple()] == [
        type(b) for b in tensor.storage_tuple()
    ]
