"""Parallel loops on threads: the same results as on one thread (bit for bit),
balanced chunks, reductions folded in a fixed order, failures of worker
threads raised in the caller, and the thread count as users set it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from test_backend_kernels import compile_mlir

import xsparse
from xsparse import SparseTensor
from xsparse.backend import threads

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from bench_threads import KERNELS  # noqa: E402

SPMV, SPMM, SDDMM = (KERNELS[name] for name in ("spmv", "spmm", "sddmm"))

SUM = """
func.func @sum(%v: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f64 {
    %x = memref.load %v[%i] : memref<?xf64>
    scf.reduce(%x : f64) {
    ^bb0(%a: f64, %b: f64):
      %s = arith.addf %a, %b : f64
      scf.reduce.return %s : f64
    }
  }
  return %r : f64
}
"""


def _matrix(rows: int, cols: int, kind: str, seed: int) -> sp.csr_array:
    rng = np.random.default_rng(seed)
    if kind == "uniform":
        counts = np.minimum(cols, rng.integers(0, 8, rows))
    elif kind == "empty-rows":
        counts = np.where(rng.random(rows) < 0.7, 0, rng.integers(1, 12, rows))
        counts = np.minimum(cols, counts)
    elif kind == "one-huge-row":
        counts = np.zeros(rows, np.int64)
        if rows:
            counts[rows // 2] = cols
    else:  # power law
        counts = np.minimum(cols, (rng.pareto(1.2, rows) * 2).astype(np.int64))
    indptr = np.concatenate([[0], np.cumsum(counts)])
    indices = np.concatenate(
        [np.sort(rng.choice(cols, c, replace=False)) for c in counts] or [[]]
    ).astype(np.int32)
    data = rng.standard_normal(indptr[-1])
    return sp.csr_array((data, indices, indptr), shape=(rows, cols))


KINDS = ["uniform", "empty-rows", "one-huge-row", "power-law"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("shape", [(300, 200), (0, 5), (1, 1), (7, 0)])
def test_spmv_on_threads_equals_one_thread(
    every_loop_on_threads: None, kind: str, shape: tuple[int, int]
) -> None:
    kernel = xsparse.compile(SPMV)
    a = _matrix(*shape, kind, seed=3)
    x = np.random.default_rng(4).standard_normal(shape[1])
    results = []
    for n in (1, 2, 4):
        threads.set_num_threads(n)
        results.append(kernel(a, x, np.zeros(shape[0])))
    np.testing.assert_allclose(results[0], a @ x, rtol=1e-12, atol=1e-12)
    for other in results[1:]:
        assert np.array_equal(other, results[0])  # each row is one thread's


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(3))
def test_spmv_checks_its_coordinates_by_blocks_of_rows_on_threads(
    every_loop_on_threads: None, kind: str, seed: int
) -> None:
    """SpMV checks the range of a block of rows' coordinates before running
    them (`fused_checks._guard_blocks`): a bad one in any block, on any
    thread, is a ValueError and y is as it was; rows of every length."""
    kernel = xsparse.compile(SPMV)
    rng = np.random.default_rng(seed)
    a = _matrix(5000, 300, kind, seed=seed)
    x = rng.standard_normal(300)
    y = rng.standard_normal(5000)
    encoding = kernel.signature.inputs.data[0].encoding  # type: ignore[attr-defined]
    good = SparseTensor.from_scipy(a, encoding)
    for n in (1, 2, 4):
        threads.set_num_threads(n)
        np.testing.assert_allclose(
            kernel(good, x, y.copy()), y + a @ x, rtol=1e-9, atol=1e-12
        )
        if not a.nnz:
            continue
        for where in rng.integers(0, a.nnz, 3):
            columns = np.array(good.coordinates[1])
            columns[where] = 300 + int(rng.integers(0, 2**20))
            bad = SparseTensor(
                encoding,
                good.shape,
                good.positions,
                [None, columns],
                good.values,
                validate=False,
            )
            before = y.copy()
            with pytest.raises(ValueError, match="argument 0 of .*out of range"):
                kernel(bad, x, y)
            np.testing.assert_array_equal(y, before)


@pytest.mark.parametrize("kind", ["uniform", "power-law", "one-huge-row"])
def test_spmm_and_sddmm_on_threads_equal_one_thread(
    every_loop_on_threads: None, kind: str
) -> None:
    spmm, sddmm = xsparse.compile(SPMM), xsparse.compile(SDDMM)
    a = _matrix(120, 90, kind, seed=5)
    rng = np.random.default_rng(6)
    b, left, right = (
        rng.standard_normal((90, 7)),
        rng.standard_normal((120, 5)),
        rng.standard_normal((5, 90)),
    )
    products, samples = [], []
    for n in (1, 2, 4):
        threads.set_num_threads(n)
        products.append(spmm(a, b, np.zeros((120, 7))))
        samples.append(sddmm(a, left, right, np.zeros((120, 90))))
    np.testing.assert_allclose(products[0], a @ b, rtol=1e-12, atol=1e-12)
    dense = a.toarray()
    np.testing.assert_allclose(
        samples[0], np.where(dense != 0, dense * (left @ right), 0), atol=1e-12
    )
    for other in products[1:]:
        assert np.array_equal(other, products[0])
    for other in samples[1:]:
        assert np.array_equal(other, samples[0])


SPGEMM = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#OUT = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : LEVEL) }>
#trait = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @spgemm(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #OUT> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR>
  %d1 = tensor.dim %b, %c1 : tensor<?x?xf64, #CSR>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf64, #OUT>
  %r = linalg.generic #trait ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64, #CSR>) outs(%init : tensor<?x?xf64, #OUT>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %o, %m : f64
    linalg.yield %s : f64
  } -> tensor<?x?xf64, #OUT>
  return %r : tensor<?x?xf64, #OUT>
}
"""


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("level", ["compressed", "compressed(nonordered)"])
@pytest.mark.parametrize("shape", [(150, 40, 90), (0, 3, 4), (5, 0, 6), (1, 1, 1)])
def test_spgemm_into_csr_on_threads_equals_the_sequential_kernel(
    every_loop_on_threads: None, kind: str, level: str, shape: tuple[int, int, int]
) -> None:
    """The row loop ending in `compress` runs as parallel count and fill
    phases (MLIR refuses to parallelize it): the same CSR bit for bit as the
    sequential kernel's, at every thread count."""
    source = SPGEMM.replace("LEVEL", level)
    parallel = xsparse.compile(source)
    sequential = xsparse.compile(source, parallelization_strategy="none")
    m, k, n = shape
    a, b = _matrix(m, k, kind, seed=7), _matrix(k, n, "uniform", seed=8)
    result = sequential(a, b)
    np.testing.assert_allclose(result.toarray(), (a @ b).toarray(), atol=1e-12)
    positions, coordinates, values = result.storage()[:3]
    rows = np.repeat(np.arange(m), np.diff(positions))
    reference = np.lexsort((coordinates, rows))
    for count in (1, 2, 4):
        threads.set_num_threads(count)
        got = parallel(a, b).storage()[:3]
        assert np.array_equal(got[0], positions)
        if level == "compressed":
            assert np.array_equal(got[1], coordinates)
            assert np.array_equal(got[2], values)
        else:  # the same entries, each row in its own order
            order = np.lexsort((got[1], rows))
            assert np.array_equal(got[1][order], coordinates[reference])
            assert np.array_equal(got[2][order], values[reference])


ELEMENTWISE = """
#A = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#OUT = #sparse_tensor.encoding<{ map = (i, j) -> OUTMAP }>
#trait = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @elementwise(%a: tensor<?x?xf64, #A>, %b: tensor<?x?xf64, #A>) -> tensor<?x?xf64, #OUT> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #A>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf64, #A>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf64, #OUT>
  %r = linalg.generic #trait ins(%a, %b : tensor<?x?xf64, #A>, tensor<?x?xf64, #A>) outs(%init : tensor<?x?xf64, #OUT>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = arith.OP %x, %y : f64
    linalg.yield %s : f64
  } -> tensor<?x?xf64, #OUT>
  return %r : tensor<?x?xf64, #OUT>
}
"""


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("op", ["addf", "mulf", "subf"])
@pytest.mark.parametrize(
    "output",
    ["(i : dense, j : compressed)", "(i : dense, j : compressed), posWidth = 32"],
)
@pytest.mark.parametrize("shape", [(150, 90), (0, 4), (4, 0), (1, 1)])
def test_elementwise_into_csr_on_threads_equals_the_sequential_kernel(
    every_loop_on_threads: None,
    kind: str,
    op: str,
    output: str,
    shape: tuple[int, int],
) -> None:
    """Sparse add and elementwise products insert in order: their row loop
    runs as parallel count and fill phases over the merge loops (MLIR keeps
    it sequential), the same CSR bit for bit as the sequential kernel's."""
    source = ELEMENTWISE.replace("OUTMAP", output).replace("OP", op)
    parallel = xsparse.compile(source)
    sequential = xsparse.compile(source, parallelization_strategy="none")
    a, b = _matrix(*shape, kind, seed=11), _matrix(*shape, "empty-rows", seed=12)
    dense = {"addf": a + b, "mulf": a * b, "subf": a - b}[op].toarray()
    result = sequential(a, b)
    np.testing.assert_allclose(result.toarray(), dense, atol=1e-12)
    expected = result.storage()[:3]
    for count in (1, 2, 4):
        threads.set_num_threads(count)
        got = parallel(a, b).storage()[:3]
        for mine, theirs in zip(got, expected, strict=True):
            assert np.array_equal(mine, theirs)


def test_spgemm_reports_a_result_its_positions_cannot_hold() -> None:
    """Positions of 8 bits hold at most 255 entries (unsigned, as MLIR reads
    them): a larger product is an error before anything is written past
    them, at every thread count."""
    source = SPGEMM.replace("LEVEL", "compressed").replace(
        "(i : dense, j : compressed) }>",
        "(i : dense, j : compressed), posWidth = 8 }>",
    )
    kernel = xsparse.compile(source)
    small = _matrix(10, 10, "uniform", seed=9)
    column, row = sp.csr_array(np.ones((17, 1))), sp.csr_array(np.ones((1, 17)))
    for count in (1, 2):
        threads.set_num_threads(count)
        np.testing.assert_allclose(
            kernel(small, small).toarray(), (small @ small).toarray(), atol=1e-12
        )
        with pytest.raises(ValueError, match="more entries than its 8-bit positions"):
            kernel(column, row)  # 289 entries


@pytest.mark.parametrize("n", [0, 1, 2, 3, 1000, 100_003])
def test_reduction_is_the_same_bits_on_every_run(
    every_loop_on_threads: None, n: int
) -> None:
    total = compile_mlir(SUM).function("sum")
    v = np.random.default_rng(7).standard_normal(n) * 1e6
    for count in (1, 2, 4):
        threads.set_num_threads(count)
        first = total(v, n)
        assert all(total(v, n) == first for _ in range(20))
        assert first == pytest.approx(float(np.sum(v)), rel=1e-9, abs=1e-6)


def test_chunks_are_balanced_by_stored_entries() -> None:
    positions = np.concatenate([[0], np.cumsum([1000] + [1] * 999)])
    bounds = threads.chunk_bounds(0, 1000, 4, positions)
    assert bounds[0] == 0 and bounds[-1] == 1000
    assert bounds == sorted(set(bounds))
    assert bounds[1] == 1  # the heavy first row is a chunk of its own
    even = threads.chunk_bounds(10, 20, 4, None)
    assert even == [10, 12, 15, 17, 20]
    assert threads.chunk_bounds(0, 3, 8, None) == [0, 1, 2, 3]  # none empty


@pytest.mark.parametrize("seed", range(6))
def test_chunks_of_a_stepped_loop_start_at_its_iterations(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rows = int(rng.integers(1, 3000))
    lengths = rng.zipf(1.5, rows) % 5000
    positions = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    lo = int(rng.integers(0, rows))
    step = int(rng.choice([1, 3, 64, 1000, 5000]))
    for weights in (positions, None):
        bounds = threads.chunk_bounds(lo, rows, 8, weights, step)
        assert bounds[0] == lo and bounds[-1] == rows
        assert bounds == sorted(set(bounds))  # none empty
        assert all((b - lo) % step == 0 for b in bounds[:-1])
        assert len(bounds) - 1 <= max(1, -(-(rows - lo) // step))


def test_a_failed_check_on_a_worker_thread_raises_in_the_caller(
    every_loop_on_threads: None,
) -> None:
    kernel = xsparse.compile(SPMV)
    a = _matrix(500, 400, "uniform", seed=8)
    t = xsparse.SparseTensor.from_scipy(a)
    good = t.coordinates[1]
    assert good is not None
    bad = good.copy()
    bad[-1] = 400  # out of range, in the last chunk of the checker's loop
    t.coordinates[1] = bad
    threads.set_num_threads(4)
    with pytest.raises(ValueError, match="coordinate is out of range"):
        kernel(t, np.ones(400), np.zeros(500))
    t.coordinates[1] = good
    y = kernel(t, np.ones(400), np.zeros(500))
    np.testing.assert_allclose(y, a @ np.ones(400))


def test_calls_from_several_threads_share_the_pool(every_loop_on_threads: None) -> None:
    from concurrent.futures import ThreadPoolExecutor

    kernel = xsparse.compile(SPMV)
    threads.set_num_threads(3)
    matrices = [_matrix(200, 150, KINDS[k % 4], seed=k) for k in range(8)]
    x = np.ones(150)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda a: kernel(a, x, np.zeros(200)), matrices))
    for a, y in zip(matrices, results, strict=True):
        np.testing.assert_allclose(y, a @ x, rtol=1e-12, atol=1e-12)


def test_the_thread_count_as_users_set_it() -> None:
    saved = xsparse.get_num_threads()
    try:
        xsparse.set_num_threads(3)
        assert xsparse.get_num_threads() == 3
        xsparse.set_num_threads(np.int64(2))  # any integer, as numpy takes
        assert xsparse.get_num_threads() == 2
        for wrong in (0, -1, np.int32(-3)):
            with pytest.raises(ValueError, match="positive int"):
                xsparse.set_num_threads(wrong)
        for wrong in (1.5, 2.0, True, "3", None):
            with pytest.raises(TypeError, match="must be an int"):
                xsparse.set_num_threads(wrong)  # type: ignore[arg-type]
        assert xsparse.get_num_threads() == 2
        with pytest.warns(RuntimeWarning, match="per core"):
            xsparse.set_num_threads(threads.max_threads() + 1)
        assert xsparse.get_num_threads() == threads.max_threads()
    finally:
        xsparse.set_num_threads(saved)
    script = "import xsparse; print(xsparse.get_num_threads())"
    for value, expected in (
        ("5", "5"),
        ("", str(len(os.sched_getaffinity(0)))),
        ("100000", str(threads.max_threads())),  # capped, with a warning
    ):
        env = {**os.environ, "XSPARSE_NUM_THREADS": value}
        done = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True
        )
        assert done.stdout.strip() == expected, done.stderr


def test_strategy_none_keeps_the_kernel_sequential() -> None:
    parallel = xsparse.compile(SPMV)
    sequential = xsparse.compile(SPMV, parallelization_strategy="none")
    assert parallel is not sequential
    a = _matrix(50, 40, "uniform", seed=9)
    x = np.ones(40)
    assert np.array_equal(parallel(a, x, np.zeros(50)), sequential(a, x, np.zeros(50)))


def test_threadpoolctl_limits_xsparse_like_blas() -> None:
    threadpoolctl = pytest.importorskip("threadpoolctl")  # in the test extra
    saved = xsparse.get_num_threads()
    try:
        xsparse.set_num_threads(3)
        info = [
            i for i in threadpoolctl.threadpool_info() if i["user_api"] == "xsparse"
        ]
        assert len(info) == 1 and info[0]["num_threads"] == 3
        with threadpoolctl.threadpool_limits(limits=1):
            assert xsparse.get_num_threads() == 1
        assert xsparse.get_num_threads() == 3
        with threadpoolctl.threadpool_limits(limits=2, user_api="xsparse"):
            assert xsparse.get_num_threads() == 2
    finally:
        xsparse.set_num_threads(saved)


def test_a_forked_child_runs_parallel_loops(every_loop_on_threads: None) -> None:
    """The child of a fork has none of the pool's threads: it starts its own."""
    kernel = xsparse.compile(SPMV)
    a = _matrix(300, 200, "uniform", seed=10)
    x = np.ones(200)
    threads.set_num_threads(2)
    expected = kernel(a, x, np.zeros(300))  # the parent's pool is started
    pid = os.fork()
    if pid == 0:  # the child: exit 0 when right, killed by the parent if stuck
        ok = np.array_equal(kernel(a, x, np.zeros(300)), expected)
        os._exit(0 if ok else 1)
    end = time.monotonic() + 60
    while not (done := os.waitpid(pid, os.WNOHANG))[0] and time.monotonic() < end:
        time.sleep(0.01)
    if not done[0]:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert done[0] and os.waitstatus_to_exitcode(done[1]) == 0, done


@pytest.mark.parametrize("kind", ["uniform", "power-law", "empty-rows"])
def test_sum_kernel_is_deterministic_on_threads(
    every_loop_on_threads: None, kind: str
) -> None:
    total = xsparse.compile(KERNELS["sum"])
    a = _matrix(2000, 300, kind, seed=11)
    for count in (1, 2, 4):
        threads.set_num_threads(count)
        first = float(total(a, np.zeros(())))
        assert all(float(total(a, np.zeros(()))) == first for _ in range(10))
        assert first == pytest.approx(float(a.sum()), rel=1e-12, abs=1e-9)
    integers = xsparse.compile(
        KERNELS["sum"].replace("f64", "i64").replace("arith.addf", "arith.addi")
    )
    b = sp.csr_array(
        (np.arange(a.nnz, dtype=np.int64) - a.nnz // 2, a.indices, a.indptr),
        shape=a.shape,
    )
    for count in (1, 2, 4):
        threads.set_num_threads(count)
        assert int(integers(b, np.zeros((), np.int64))) == int(b.sum())


BLOCK_SUMS = """
func.func @block_sums(%pos: memref<?xindex>, %v: memref<?xf64>, %out: memref<?xf64>,
                      %n: index, %step: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  scf.parallel (%b) = (%c0) to (%n) step (%step) {
    %after = arith.addi %b, %step : index
    %end = arith.minsi %after, %n : index
    %first = memref.load %pos[%b] : memref<?xindex>
    %last = memref.load %pos[%end] : memref<?xindex>
    scf.for %i = %b to %end step %c1 {
      %next = arith.addi %i, %c1 : index
      %lo = memref.load %pos[%i] : memref<?xindex>
      %hi = memref.load %pos[%next] : memref<?xindex>
      %s = scf.for %p = %lo to %hi step %c1 iter_args(%acc = %zero) -> (f64) {
        %x = memref.load %v[%p] : memref<?xf64>
        %t = arith.addf %acc, %x : f64
        scf.yield %t : f64
      }
      memref.store %s, %out[%i] : memref<?xf64>
    }
    scf.reduce
  }
  return
}
"""


@pytest.mark.parametrize("step", [1, 7, 64, 5000])
@pytest.mark.parametrize("kind", KINDS)
def test_a_loop_over_blocks_of_rows_runs_on_threads(
    every_loop_on_threads: None, kind: str, step: int
) -> None:
    """A parallel loop with a (run-time) step: chunks start at its
    iterations, so every row is summed once."""
    block_sums = compile_mlir(BLOCK_SUMS).function("block_sums")
    a = _matrix(3000, 500, kind, 5)
    expected = np.add.reduceat(np.append(a.data, 0.0), a.indptr[:-1])
    expected[np.diff(a.indptr) == 0] = 0.0
    for count in (1, 2, 4):
        threads.set_num_threads(count)
        out = np.full(a.shape[0], np.nan)
        block_sums(a.indptr.astype(np.int64), a.data, out, a.shape[0], step)
        np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-12)
