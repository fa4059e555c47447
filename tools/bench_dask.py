"""Benchmark `xsparse.dask`: SpMV and SpMM on a Dask array of scipy CSR row
chunks, on LocalClusters of 1 and 2 worker processes (one thread each,
`XSPARSE_NUM_THREADS=1`), beside scipy in this one process and beside Dask
with the same scipy chunks and no xsparse.

The matrix is `--rows` square with `--nnz-per-row` nonzeros in every row at
sorted random columns (10^6 x 10^6 with 10^8 nonzeros by default, int32
indices as scipy has them), cut into `--chunks` row chunks. Each cluster
generates its chunks on its workers, chunk k on worker k mod workers (about
1.2 GB over the workers by default), and this process builds the same matrix
for scipy, chunk by chunk; x (SpMV) and X (SpMM, `--columns` columns) are
scattered to every worker once, not shipped with each call (Dask's active
memory manager, which would drop those replicas, is off). Per call:

- scipy: `A @ x` in this process (single-threaded, as scipy is);
- xsparse.dask: `xsparse.dask.blockwise(spmv, "i", A, "ij", x, "j")` with
  `tools/bench.py`'s SpMV kernel (int32 indices), and
  `xsparse.dask.einsum("ij,jk->ik", A, X)` for SpMM;
- Dask without xsparse: `dask.array.blockwise` with scipy's `chunk @ x` per
  task (Dask's own `A @ x` and `dask.array.dot` refuse a 1-D x on scipy
  chunks, and `concatenate=True` would copy every chunk on every call).

A Dask call is timed on the wall clock from building its graph until its
result is persisted on the workers (where a distributed solver keeps it);
the rows "gathered" also bring the result back into this process. Every
result is compared with scipy's first. One cluster runs at a time (an idle
second cluster's scheduler, nanny and worker took the cores from the one
measured: 2 workers measured 0.46 s beside it, 0.24 s alone); each round
calls scipy and each Dask call once, after a warm-up round, and the table
gives the median round and the ratio to scipy in the same rounds.

The cluster of 2 also holds a second copy of the matrix with every chunk
on its first worker, and runs each call on that copy, restricted to that
worker, in the same rounds as on both: "vs 1 worker" is the ratio to it.
This VM's memory speed drifts from minute to minute (scipy alone took
0.48 s beside the cluster of 1 and 0.33 s beside the cluster of 2 in one
run), so a ratio between the two clusters' phases says little. The row
"xsparse kernel by Client.run, no graph" is SpMV's kernel run by each
worker on the chunks it holds, called directly (`Client.run`), without
Dask's task graph: its "vs 1 worker" is the scaling the machine itself
allows at that moment, the ceiling of the Dask calls'.

    python tools/bench_dask.py                         # 10^8 nonzeros (minutes, ~7 GiB)
    python tools/bench_dask.py --rows 100000 --nnz-per-row 20 --repeats 3   # seconds
"""

from __future__ import annotations

import os

# One thread for numpy's BLAS and for xsparse's loops, here and in the
# workers, which inherit it: set before xsparse loads, which reads
# XSPARSE_NUM_THREADS once (a LocalCluster's `env=` comes too late, as a
# spawned worker imports this script, and xsparse with it, first).
for _var in (
    "XSPARSE_NUM_THREADS",
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import logging  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Iterator, Sequence  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, cast  # noqa: E402

import dask.array as da  # noqa: E402
import dask.config  # noqa: E402
import dask.core  # noqa: E402
import dask.graph_manipulation  # noqa: E402
import distributed  # noqa: E402
import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench  # noqa: E402

import xsparse  # noqa: E402
import xsparse.dask  # noqa: E402


def generate_chunk(
    index: int, rows: int, columns: int, per_row: int, seed: int
) -> sp.csr_array:
    """Row chunk `index` of the matrix: `per_row` nonzeros in each row, at
    columns that are each the previous one plus a random gap (so sorted and
    distinct), standard normal values, int32 indices."""
    rng = np.random.default_rng([seed, index])
    gaps = rng.integers(1, columns // per_row + 1, (rows, per_row), dtype=np.int32)
    indices = np.cumsum(gaps, axis=1, dtype=np.int32).ravel() - 1
    indptr = np.arange(0, rows * per_row + 1, per_row, dtype=np.int32)
    data = rng.standard_normal(rows * per_row)
    return sp.csr_array((data, indices, indptr), shape=(rows, columns))


@dataclass(frozen=True)
class Problem:
    """The matrix's sizes and how it is cut into row chunks."""

    rows: int
    per_row: int
    chunks: int
    seed: int

    def chunk_rows(self) -> list[int]:
        """The rows of each chunk (as even as possible)."""
        base, extra = divmod(self.rows, self.chunks)
        return [base + (k < extra) for k in range(self.chunks)]

    def chunk(self, index: int) -> sp.csr_array:
        rows = self.chunk_rows()[index]
        return generate_chunk(index, rows, self.rows, self.per_row, self.seed)

    def whole(self) -> sp.csr_array:
        """The matrix in one scipy CSR, built chunk by chunk."""
        nnz = self.rows * self.per_row
        indptr = np.arange(0, nnz + 1, self.per_row, dtype=np.int32)
        indices = np.empty(nnz, np.int32)
        data = np.empty(nnz)
        start = 0
        for k in range(self.chunks):
            chunk = self.chunk(k)
            indices[start : start + chunk.nnz] = chunk.indices
            data[start : start + chunk.nnz] = chunk.data
            start += chunk.nnz
        return sp.csr_array((data, indices, indptr), shape=(self.rows, self.rows))


def scipy_chunk_product(a: list[Any], x: list[Any]) -> Any:
    """A task of the Dask baseline: scipy's `chunk @ x` (Dask hands each
    operand in a list of one, its summed index being in one chunk)."""
    return a[0] @ x[0]


def chunk_keys(array: da.Array) -> list[Any]:
    """The keys of `array`'s chunks, in order."""
    return list(
        cast("Iterator[Any]", dask.core.flatten(cast(Any, array).__dask_keys__()))
    )


def kernel_on_held_chunks(
    kernel: Any, chunk_keys: Sequence[Any], x_key: Any, dask_worker: Any
) -> float:
    """SpMV `kernel` on the chunks among `chunk_keys` that this worker holds,
    one after the other as its tasks run them, but called directly (by
    `Client.run`): the seconds it took."""
    x = dask_worker.data[x_key]
    start = time.perf_counter()
    for key in chunk_keys:
        if key in dask_worker.data:
            chunk = dask_worker.data[key]
            kernel(chunk, x, np.zeros(chunk.shape[0]), scratch_outputs=True)
    return time.perf_counter() - start


class Cluster:
    """A LocalCluster of `workers` processes holding the matrix's chunks
    (generated there) and x and X (scattered to every worker)."""

    def __init__(
        self,
        workers: int,
        problem: Problem,
        x: np.ndarray[Any, Any],
        xs: np.ndarray[Any, Any],
    ) -> None:
        self.workers = workers
        # Without the active memory manager, whose default policy drops the
        # replicas of x that the scatter put on every worker.
        with dask.config.set(
            {"distributed.scheduler.active-memory-manager.start": False}
        ):
            self.cluster = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                silence_logs=logging.ERROR,
                dashboard_address=":0",
                preload=["xsparse.dask"],  # Dask sizes scipy arrays' chunks right
            )
        self.client = Client(self.cluster, set_as_default=False)
        self.addresses = sorted(
            cast(dict[str, Any], self.client.scheduler_info()["workers"])
        )
        self.a = self.matrix(problem, self.addresses)
        self.a_on_first = (
            self.matrix(problem, self.addresses[:1]) if workers > 1 else self.a
        )
        """The same matrix with every chunk on the first worker: its tasks run
        there (Dask runs a task where its 150 MB chunk is, and its work
        stealing does not move a task whose input costs more to send than
        the task takes), so a call on it is one worker's, in the same rounds
        as the calls on both."""
        self.x_future, self.x = self.scattered(x)
        """x on every worker, under the future's key, and as a Dask array."""
        _, self.xs = self.scattered(xs)

    def matrix(self, problem: Problem, addresses: Sequence[str]) -> da.Array:
        """The matrix as a Dask array of row chunks, generated and kept on
        the workers: chunk k on `addresses[k % len(addresses)]`."""
        blocks: list[Any] = []
        for k, rows in enumerate(problem.chunk_rows()):
            future = self.client.submit(
                problem.chunk, k, workers=[addresses[k % len(addresses)]], pure=False
            )
            meta = sp.csr_array((0, 0))
            blocks.append(
                da.from_delayed(future, (rows, problem.rows), np.float64, meta=meta)
            )
        return self.persist(cast(da.Array, da.concatenate(blocks, axis=0)))

    def persist(
        self, array: da.Array, workers: Sequence[str] | None = None
    ) -> da.Array:
        """`array` computed and kept on the workers (on `workers` only, if
        given), so that later graphs start from its chunks."""
        persisted = cast(
            da.Array,
            self.client.persist(array, workers=workers, allow_other_workers=False),
        )
        self.wait(persisted)
        return persisted

    def scattered(self, array: np.ndarray[Any, Any]) -> tuple[Any, da.Array]:
        """`array` on every worker: the future of the scatter, and the Dask
        array of one chunk made of it."""
        future = cast(Any, self.client.scatter(array, broadcast=True))
        return future, self.persist(da.from_delayed(future, array.shape, array.dtype))

    def wait(self, collection: Any) -> None:
        """Until the futures of `collection` are done (not gathered)."""
        futures = cast(list[Any], distributed.futures_of(collection))
        with self.client.as_current():
            distributed.wait(futures)

    def fresh(self, make: Make, a: da.Array) -> da.Array:
        """The graph `make` builds on `a`, with keys of its own (`clone`): the
        same graph again would find the last call's result, or its keys still
        being released."""
        omit = (self.a, self.a_on_first, self.x, self.xs)
        graph = make(a, self.x, self.xs)
        return cast(da.Array, dask.graph_manipulation.clone(graph, omit=omit))

    def persisted(
        self, make: Make, a: da.Array, workers: Sequence[str]
    ) -> Callable[[], Any]:
        """A call on `workers` (those holding `a`): build the graph, persist
        its result on them, wait."""
        return lambda: self.persist(self.fresh(make, a), workers)

    def gathered(
        self, make: Make, a: da.Array, workers: Sequence[str]
    ) -> Callable[[], Any]:
        """A call on `workers`: build the graph and bring its result into
        this process."""

        def call() -> Any:
            future = cast(
                "distributed.Future[Any]",
                self.client.compute(
                    self.fresh(make, a), workers=workers, allow_other_workers=False
                ),
            )
            return future.result()

        return call

    def held_chunks(
        self, kernel: Any, a: da.Array, workers: Sequence[str]
    ) -> Callable[[], Any]:
        """A call without Dask's task graph: SpMV `kernel` run by each of
        `workers` on the chunks of `a` it holds (`Client.run`), all at once;
        the scaling over workers that the machine itself allows."""
        keys = chunk_keys(a)
        x_key = self.x_future.key

        def call() -> Any:
            return cast(
                Any,
                self.client.run(
                    kernel_on_held_chunks, kernel, keys, x_key, workers=list(workers)
                ),
            )

        return call

    def holders(self, make: Make, a: da.Array, workers: Sequence[str]) -> set[str]:
        """The workers that hold the result of `make` on `a`, persisted."""
        result = self.persist(self.fresh(make, a), workers)
        futures = cast(list[Any], distributed.futures_of(result))
        who_has = cast(dict[Any, Any], self.client.who_has(futures))
        return {w for holders in who_has.values() for w in holders}

    def close(self) -> None:
        self.client.close()
        self.cluster.close()


def dask_product(a: da.Array, x: da.Array, x_ind: str) -> da.Array:
    """Dask without xsparse: `a @ x` with scipy's `chunk @ x` in each task."""
    out_ind = "i" + x_ind[1:]
    return cast(
        da.Array,
        da.blockwise(
            scipy_chunk_product,
            out_ind,
            a,
            "ij",
            x,
            x_ind,
            concatenate=False,
            dtype=np.float64,
            meta=np.empty((0,) * len(out_ind)),
        ),
    )


Make = Callable[[da.Array, da.Array, da.Array], da.Array]
"""A call's graph from (A, x, X)."""


def dask_spmv(a: da.Array, x: da.Array, xs: da.Array) -> da.Array:
    return dask_product(a, x, "j")


def dask_spmm(a: da.Array, x: da.Array, xs: da.Array) -> da.Array:
    return dask_product(a, xs, "jk")


def xsparse_spmm(a: da.Array, x: da.Array, xs: da.Array) -> da.Array:
    return xsparse.dask.einsum("ij,jk->ik", a, xs)


def check(name: str, got: Any, want: np.ndarray[Any, Any]) -> str:
    """'equal' or the largest relative difference; raises if it is large."""
    got = np.asarray(got)
    if np.array_equal(got, want):
        return "equal"
    error = float(np.max(np.abs(got - want)) / np.max(np.abs(want)))
    if error > 1e-12:
        raise AssertionError(f"{name}: relative error {error:.2e} against scipy")
    return f"max relative difference {error:.1e}"


SCIPY = "scipy, one process"
NO_GRAPH = "xsparse kernel by Client.run, no graph"


@dataclass(frozen=True)
class Row:
    """One call's median in one cluster's rounds."""

    name: str
    cluster: int
    """The workers in the cluster that ran it."""
    workers: int
    """The workers holding the matrix, so running the call."""
    seconds: float
    scipy_seconds: float
    """scipy's median in the same rounds."""


def table(title: str, rows: Sequence[Row]) -> None:
    """Per row: the time, the speed-up over scipy in the same rounds (scipy's
    time / this one) and, for 2 workers, over the same call on 1 worker of
    the same cluster, in the same rounds."""
    print(f"\n{title}")
    one_worker = {
        (r.name, r.cluster): r.seconds for r in rows if r.workers == 1 and r.cluster > 1
    }
    print(f"  {'':56} {'seconds':>8} {'vs scipy':>9} {'vs 1 worker':>12}")
    for r in rows:
        scipy = r.name == SCIPY
        base = one_worker.get((r.name, r.cluster)) if r.workers == 2 else None
        versus = f"{base / r.seconds:11.2f}x" if base else ""
        if r.cluster == 1:
            where = "1 worker alone"
        elif r.workers == 1:
            where = f"1 of {r.cluster} workers"
        else:
            where = f"{r.workers} workers"
        label = f"{r.name}, beside {where}" if scipy else f"{r.name}, {where}"
        print(
            f"  {label:56} {r.seconds:8.3f} {r.scipy_seconds / r.seconds:8.2f}x {versus:>12}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--nnz-per-row", type=int, default=100)
    parser.add_argument("--chunks", type=int, default=8)
    parser.add_argument("--columns", type=int, default=16, help="SpMM's columns")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--products", nargs="+", choices=("SpMV", "SpMM"), default=["SpMV", "SpMM"]
    )
    args = parser.parse_args()
    problem = Problem(args.rows, args.nnz_per_row, args.chunks, args.seed)
    rng = np.random.default_rng(args.seed)
    x = rng.standard_normal(problem.rows)
    xs = rng.standard_normal((problem.rows, args.columns))
    print(
        f"{problem.rows} x {problem.rows}, {problem.rows * problem.per_row} "
        f"nonzeros in {problem.chunks} row chunks; SpMM with {args.columns} "
        f"columns; {os.cpu_count()} cores"
    )
    whole: Any = problem.whole()
    spmv = xsparse.compile(bench.source("spmv", 32), "kernel")

    def xsparse_spmv(a: da.Array, x: da.Array, xs: da.Array) -> da.Array:
        return xsparse.dask.blockwise(spmv, "i", a, "ij", x, "j")

    products = [
        ("SpMV", whole @ x, xsparse_spmv, dask_spmv, lambda: whole @ x),
        ("SpMM", whole @ xs, xsparse_spmm, dask_spmm, lambda: whole @ xs),
    ]
    products = [p for p in products if p[0] in args.products]
    rows: dict[str, list[Row]] = {p[0]: [] for p in products}
    # One cluster at a time: an idle cluster's scheduler, nanny and worker
    # share the cores with the one measured. The cluster of 2 also runs
    # every call on 1 of its workers, in the same rounds: the machine's
    # speed drifts between phases (scipy alone 0.48 s beside the cluster of
    # 1, 0.33 s beside the cluster of 2, in one run).
    for cluster in (1, 2):
        start = time.perf_counter()
        c = Cluster(cluster, problem, x, xs)
        print(
            f"a cluster of {cluster} worker(s): chunks generated in "
            f"{time.perf_counter() - start:.1f} s"
        )
        spreads = [(c.addresses[:1], c.a_on_first)]
        if cluster > 1:
            spreads.append((c.addresses, c.a))
        try:
            for name, want, xsparse_make, dask_make, scipy_call in products:
                for label, make in (
                    ("Dask + scipy", dask_make),
                    ("xsparse.dask", xsparse_make),
                ):
                    for workers, a in spreads:
                        verdict = check(label, c.gathered(make, a, workers)(), want)
                        held = c.holders(make, a, workers)
                        if held != set(workers):
                            raise AssertionError(
                                f"{name} {label} on {len(workers)} worker(s) ran on {len(held)}"
                            )
                        print(
                            f"  {name} {label}, {len(workers)} worker(s): {verdict} to scipy's"
                        )
                calls: list[tuple[str, int, Callable[[], Any]]] = []
                for workers, a in spreads:
                    calls += [
                        (
                            "Dask + scipy chunks",
                            len(workers),
                            c.persisted(dask_make, a, workers),
                        ),
                        (
                            "xsparse.dask",
                            len(workers),
                            c.persisted(xsparse_make, a, workers),
                        ),
                    ]
                if name == "SpMV":
                    calls += [
                        (NO_GRAPH, len(workers), c.held_chunks(spmv, a, workers))
                        for workers, a in spreads
                    ]
                calls.append(
                    (
                        "xsparse.dask, gathered",
                        cluster,
                        c.gathered(xsparse_make, c.a, c.addresses),
                    )
                )
                seconds = bench.interleaved_medians(
                    [scipy_call, *(call for _, _, call in calls)], args.repeats, "wall"
                )
                rows[name].append(Row(SCIPY, cluster, cluster, seconds[0], seconds[0]))
                rows[name] += [
                    Row(label, cluster, workers, s, seconds[0])
                    for (label, workers, _), s in zip(calls, seconds[1:], strict=True)
                ]
        finally:
            c.close()
    for name in rows:
        table(
            f"{name}: median of {args.repeats} interleaved rounds (scipy in the "
            "same rounds as each cluster's calls)",
            sorted(rows[name], key=lambda r: (r.cluster, r.name != SCIPY, r.workers)),
        )


if __name__ == "__main__":
    main()
