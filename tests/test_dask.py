"""`xsparse.dask`: einsum and compiled kernels on Dask arrays of sparse chunks
(the `dask` extra, also in `test`), computed by the threaded scheduler and by
a `distributed.LocalCluster` of two worker processes of one thread each, and
checked against scipy on the whole matrix. The matrix has uneven row chunks,
an empty one, a chunk of empty rows and empty rows among others."""

from __future__ import annotations

import logging
import operator
import pickle
import subprocess
import sys
from collections.abc import Callable, Iterator
from logging.handlers import BufferingHandler
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
import scipy.sparse as sp

pytest.importorskip("dask.array")
pytest.importorskip("distributed")

import dask.array as da  # noqa: E402
import dask.base  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

import xsparse  # noqa: E402
import xsparse.dask as xd  # noqa: E402
from xsparse.frontend import einsum_mlir  # noqa: E402

ROWS = (7, 0, 13, 20, 20)
"""Uneven row chunks, the second empty; the first holds only empty rows."""
COLUMNS = (20, 0, 25)
"""Column chunks of the same matrix, for indices summed over several chunks."""
EMPTY_ROWS = [0, 1, 2, 3, 4, 5, 6, 30, 31, 59]

Compute = Callable[[Any], Any]

SCALED_ROW_SUMS = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @scaled_row_sums(%a: tensor<?x?xf64, #CSR>, %s: f64, %y: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<?x?xf64, #CSR>) outs(%y : tensor<?xf64>) {
  ^bb0(%av: f64, %yv: f64):
    %m = arith.mulf %av, %s : f64
    %t = arith.addf %yv, %m : f64
    linalg.yield %t : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}
"""
"""A kernel with a scalar argument: `s * A.sum(axis=1)`."""


def random_matrix(seed: int) -> Any:
    """60 x 45 with about 15% nonzeros and the rows `EMPTY_ROWS` empty."""
    rng = np.random.default_rng(seed)
    matrix: Any = sp.random_array((60, 45), density=0.15, format="csr", rng=rng)
    keep = np.ones(60)
    keep[EMPTY_ROWS] = 0.0
    masked: Any = sp.csr_array(sp.diags_array(keep) @ matrix)
    masked.eliminate_zeros()
    assert (np.diff(masked.indptr)[EMPTY_ROWS] == 0).all()
    return masked


@pytest.fixture(scope="module")
def matrix() -> Any:
    return random_matrix(20)


def chunked(m: Any, columns: tuple[int, ...] | None = None) -> da.Array:
    """`m` (a scipy matrix) as a Dask array of scipy chunks."""
    chunks: Any = (ROWS, columns or (m.shape[1],))
    return cast(da.Array, da.from_array(m, chunks=chunks, asarray=False))


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    """Two worker processes of one thread each."""
    cluster = LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        silence_logs=logging.ERROR,
        dashboard_address=":0",
        preload=["xsparse.dask"],
    )
    client = Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def on_workers(client: Client, function: Callable[..., Any], *args: Any) -> list[Any]:
    """What `function(*args)` returns on each worker."""
    return list(cast(dict[str, Any], client.run(function, *args)).values())


@pytest.fixture(params=["threads", "distributed"])
def compute(request: pytest.FixtureRequest) -> Compute:
    """Computes a Dask collection with the threaded scheduler, or on the
    LocalCluster."""
    if request.param == "threads":
        return lambda collection: collection.compute(scheduler="threads")
    client: Client = request.getfixturevalue("client")
    return lambda collection: collection.compute(scheduler=client)


def test_spmv_on_row_chunks(matrix: Any, compute: Compute) -> None:
    x = np.linspace(-1.0, 2.0, 45)
    a = chunked(matrix)
    y = xd.einsum("ij,j->i", a, x)
    assert y.chunks == (ROWS,)
    np.testing.assert_allclose(compute(y), matrix @ x, rtol=1e-13)
    kernel = xsparse.compile(einsum_mlir("ij,j->i", matrix, x), "kernel")
    y = xd.blockwise(kernel, "i", a, "ij", da.from_array(x), "j")
    assert y.chunks == (ROWS,)
    np.testing.assert_allclose(compute(y), matrix @ x, rtol=1e-13)


def test_spmm_on_row_chunks(matrix: Any, compute: Compute) -> None:
    x = np.random.default_rng(1).standard_normal((45, 16))
    y = xd.einsum("ij,jk->ik", chunked(matrix), x)
    assert y.chunks == (ROWS, (16,))
    np.testing.assert_allclose(compute(y), matrix @ x, rtol=1e-13)


def test_chunked_summed_index_is_a_tree_reduction(
    matrix: Any, compute: Compute
) -> None:
    x = np.random.default_rng(2).standard_normal(45)
    a = chunked(matrix, COLUMNS)
    xs = cast(da.Array, da.from_array(x, chunks=cast(Any, (COLUMNS,))))
    y = xd.einsum("ij,j->i", a, xs, split_every=2)
    stages = {name.rsplit("-", 1)[0] for name in cast(dict[str, Any], y.dask.layers)}
    assert {"xsparse-einsum-sum-partial", "xsparse-einsum-sum-aggregate"} <= stages
    np.testing.assert_allclose(compute(y), matrix @ x, rtol=1e-12)
    kernel = xsparse.compile(einsum_mlir("ij,j->i", matrix, x), "kernel")
    y = xd.blockwise(kernel, "i", a, "ij", xs, "j", split_every=2)
    np.testing.assert_allclose(compute(y), matrix @ x, rtol=1e-12)


@pytest.mark.parametrize(
    ("subscripts", "reduce"),
    [
        ("ij->i", operator.methodcaller("sum", axis=1)),
        ("ij->j", operator.methodcaller("sum", axis=0)),
        ("ij->", operator.methodcaller("sum")),
    ],
)
def test_reductions(
    matrix: Any,
    compute: Compute,
    subscripts: str,
    reduce: Callable[[Any], Any],
) -> None:
    result = compute(xd.einsum(subscripts, chunked(matrix, COLUMNS)))
    np.testing.assert_allclose(result, reduce(matrix), rtol=1e-12)


def test_elementwise_results_stay_sparse_chunks(matrix: Any, compute: Compute) -> None:
    other = random_matrix(21)
    product: Any = xd.einsum(
        "ij,ij->ij", chunked(matrix, COLUMNS), chunked(other, COLUMNS)
    )
    assert isinstance(product._meta, sp.csr_array)
    block = compute(product.blocks[3, 2])
    assert isinstance(block, sp.csr_array)
    whole = compute(product)
    assert isinstance(whole, sp.csr_array)
    np.testing.assert_allclose(cast(Any, whole).toarray(), (matrix * other).toarray())
    transposed = compute(xd.einsum("ij->ji", chunked(matrix, COLUMNS)))
    assert sp.issparse(transposed)
    np.testing.assert_allclose(transposed.toarray(), matrix.T.toarray())


def test_pydata_chunks(matrix: Any, compute: Compute) -> None:
    sparse: Any = pytest.importorskip("sparse")
    # Chunks made from scipy's (slicing a pydata array compiles numba code).
    meta = sparse.COO.from_numpy(np.zeros((0, 0)))
    a = cast(
        da.Array,
        chunked(matrix, COLUMNS).map_blocks(sparse.COO.from_scipy_sparse, meta=meta),
    )
    x = np.linspace(0.0, 1.0, 45)
    y = xd.einsum("ij,j->i", a, x)
    np.testing.assert_allclose(compute(y), matrix @ x, rtol=1e-12)
    squared = compute(xd.einsum("ij,ij->ij", a, a))
    assert isinstance(squared, sparse.COO)
    np.testing.assert_allclose(squared.todense(), (matrix * matrix).toarray())
    kernel = xsparse.compile(einsum_mlir("ij,j->i", matrix, x), "kernel")
    y = xd.blockwise(kernel, "i", a, "ij", x, "j")
    np.testing.assert_allclose(compute(y), matrix @ x, rtol=1e-12)


def test_sparse_tensor_chunks(matrix: Any, compute: Compute) -> None:
    tensors = cast(
        da.Array,
        chunked(matrix).map_blocks(xsparse.SparseTensor.from_scipy, dtype=matrix.dtype),
    )
    x = np.linspace(-3.0, 3.0, 45)
    np.testing.assert_allclose(
        compute(xd.einsum("ij,j->i", tensors, x)), matrix @ x, rtol=1e-13
    )
    squared = compute(xd.einsum("ij,ij->ij", tensors, tensors))
    assert isinstance(squared, xsparse.SparseTensor)
    np.testing.assert_allclose(squared.toarray(), (matrix * matrix).toarray())
    # A kernel returning a sparse result, not writing an output in place.
    kernel = xsparse.compile(einsum_mlir("ij,ij->ij", matrix, matrix), "kernel")
    assert kernel.written == ()
    squared = compute(xd.blockwise(kernel, "ij", tensors, "ij", tensors, "ij"))
    assert isinstance(squared, xsparse.SparseTensor)
    np.testing.assert_allclose(squared.toarray(), (matrix * matrix).toarray())


def test_kernel_with_a_scalar_argument(matrix: Any, compute: Compute) -> None:
    kernel = xsparse.compile(SCALED_ROW_SUMS)
    y = xd.blockwise(kernel, "i", chunked(matrix), "ij", 2.5, None)
    np.testing.assert_allclose(compute(y), 2.5 * matrix.sum(axis=1), rtol=1e-13)


def _compile_records(reset: bool) -> int:
    """On a worker: how many records the `xsparse.compile` logger gave since
    the last reset (a handler installed on first use)."""
    logger = logging.getLogger("xsparse.compile")
    handler = next(
        (h for h in logger.handlers if isinstance(h, BufferingHandler)), None
    )
    if handler is None:
        handler = BufferingHandler(1 << 20)
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
    count = len(handler.buffer)
    if reset:
        handler.buffer.clear()
    return count


def _unpickles_once(pickled: bytes) -> bool:
    """On a worker: unpickling a kernel twice gives one compiled kernel."""
    return pickle.loads(pickled) is pickle.loads(pickled)


def test_kernels_compile_once_per_worker(client: Client) -> None:
    matrix = random_matrix(22)
    a = cast(da.Array, da.from_array(matrix, chunks=cast(Any, (6, 45)), asarray=False))
    kernel = xsparse.compile(einsum_mlir("ij,j->i", matrix, np.ones(45)), "kernel")
    assert pickle.loads(pickle.dumps(kernel)) is kernel
    assert all(on_workers(client, _unpickles_once, pickle.dumps(kernel)))

    def both(x: np.ndarray[Any, Any]) -> list[Any]:
        return [xd.einsum("ij,j->i", a, x), xd.blockwise(kernel, "i", a, "ij", x, "j")]

    dask.base.compute(*both(np.ones(45)), scheduler=client)  # compiles, once
    on_workers(client, _compile_records, True)
    x = np.arange(45.0)
    results = cast(tuple[Any, ...], dask.base.compute(*both(x), scheduler=client))
    for y in results:
        np.testing.assert_allclose(y, matrix @ x, rtol=1e-13)
    assert on_workers(client, _compile_records, True) == [0, 0]


def test_xsparse_imports_dask_only_in_xsparse_dask() -> None:
    check = (
        "import sys, xsparse; xsparse.einsum; xsparse.compile; "
        "assert 'dask' not in sys.modules, 'import xsparse loaded dask'; "
        "import xsparse.dask; assert 'dask.array' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", check], check=True)


class _Strange:
    """An array-like that xsparse does not take as a chunk."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.shape = shape
        self.ndim = len(shape)
        self.dtype = np.dtype(np.float64)

    def __getitem__(self, key: Any) -> _Strange:
        return _Strange((0,) * self.ndim)

    @staticmethod
    def like(block: np.ndarray[Any, Any]) -> _Strange:
        return _Strange(block.shape)


def test_bad_operands_are_refused_clearly(matrix: Any) -> None:
    x = np.ones(45)
    with pytest.raises(TypeError, match=r"operand 0 is a csr_array; pass a dask"):
        xd.einsum("ij,j->i", matrix, x)
    zeros = cast(da.Array, da.zeros((60, 45), chunks=30))
    strange = cast(da.Array, zeros.map_blocks(_Strange.like, meta=_Strange((0, 0))))
    with pytest.raises(TypeError, match=r"operand 0 has chunks of type _Strange"):
        xd.einsum("ij,j->i", strange, x)
    with pytest.raises(ValueError, match=r"index 'j' has size 45 .* but 44"):
        xd.einsum("ij,j->i", chunked(matrix), np.ones(44))
    with pytest.raises(ValueError, match=r"operand 1 has 2 dimension\(s\)"):
        xd.einsum("ij,j->i", chunked(matrix), np.ones((45, 1)))
    with pytest.raises(ValueError, match=r"index 'j' is chunked .*rechunk"):
        xd.einsum(
            "ij,j->i", chunked(matrix, COLUMNS), da.from_array(x, chunks=cast(Any, 15))
        )
    listed = cast(da.Array, zeros[:, 0].map_blocks(list, meta=np.empty(0)))
    with pytest.raises(TypeError, match=r"a chunk of operand 0 is a list"):
        xd.einsum("i,i->i", listed, np.ones(60)).compute(scheduler="threads")


def test_bad_kernel_calls_are_refused_clearly(matrix: Any) -> None:
    kernel = xsparse.compile(einsum_mlir("ij,j->i", matrix, np.ones(45)), "kernel")
    a, x = chunked(matrix), np.ones(45)
    with pytest.raises(TypeError, match=r"takes 2 pair\(s\) .*argument 2, its output"):
        xd.blockwise(kernel, "i", a, "ij")
    with pytest.raises(ValueError, match=r"operand 1: tensor<\?xf64> takes a string"):
        xd.blockwise(kernel, "i", a, "ij", x, "jk")
    with pytest.raises(ValueError, match=r"output index 'k' indexes no operand"):
        xd.blockwise(kernel, "k", a, "ij", x, "j")
    with pytest.raises(ValueError, match=r"a scalar \(f64\) takes index None"):
        xd.blockwise(xsparse.compile(SCALED_ROW_SUMS), "i", a, "ij", 2.0, "i")
    with pytest.raises(TypeError, match=r"takes a Kernel"):
        xd.blockwise(print, "i", a, "ij", x, "j")  # pyright: ignore[reportArgumentType]


def test_bench_dask_smoke() -> None:
    """`tools/bench_dask.py` on a tiny matrix: every call's result is checked
    against scipy's and its chunks' results are held by the workers it was
    restricted to (1 of 2 or both) before anything is timed."""
    bench = Path(__file__).resolve().parent.parent / "tools" / "bench_dask.py"
    args = ["--rows", "4000", "--nnz-per-row", "5", "--repeats", "1"]
    done = subprocess.run(
        [sys.executable, str(bench), *args], capture_output=True, text=True, check=True
    )
    for product in ("SpMV", "SpMM"):
        for label in ("Dask + scipy", "xsparse.dask"):
            for workers in (1, 2):
                line = f"{product} {label}, {workers} worker(s): "
                assert done.stdout.count(line) == (2 if workers == 1 else 1)
    assert "xsparse.dask, 2 workers" in done.stdout
    assert "xsparse kernel by Client.run, no graph, 2 workers" in done.stdout
