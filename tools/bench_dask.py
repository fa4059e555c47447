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
measured: 2 workers measured 0.46 s beside it, 0.24 s alone): each round
calls scipy and each Dask call once, after a warm-up round; the table gives
the median round, the ratio to scipy measured beside the same cluster, and
for 2 workers the ratio to the same call on 1 worker.

    python tools/bench_dask.py                         # 10^8 nonzeros (minutes, ~5 GiB)
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
from collections.abc import Callable, Sequence  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, cast  # noqa: E402

import dask.array as da  # noqa: E402
import dask.config  # noqa: E402
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
        addresses = sorted(
            cast(dict[str, Any], self.client.scheduler_info()["workers"])
        )
        blocks: list[Any] = []
        for k, rows in enumerate(problem.chunk_rows()):
            future = self.client.submit(
                problem.chunk, k, workers=[addresses[k % workers]]
            )
            meta = sp.csr_array((0, 0))
            blocks.append(
                da.from_delayed(future, (rows, problem.rows), np.float64, meta=meta)
            )
        self.a = self.persist(cast(da.Array, da.concatenate(blocks, axis=0)))
        self.x = self.scattered(x)
        self.xs = self.scattered(xs)

    def persist(self, array: da.Array) -> da.Array:
        """`array` computed and kept on the workers, so that later graphs
        start from its chunks."""
        persisted = cast(da.Array, self.client.persist(array))
        self.wait(persisted)
        return persisted

    def scattered(self, array: np.ndarray[Any, Any]) -> da.Array:
        """`array` on every worker, as a Dask array of one chunk."""
        future = cast(Any, self.client.scatter(array, broadcast=True))
        return self.persist(da.from_delayed(future, array.shape, array.dtype))

    def wait(self, collection: Any) -> None:
        """Until the futures of `collection` are done (not gathered)."""
        futures = cast(list[Any], distributed.futures_of(collection))
        with self.client.as_current():
            distributed.wait(futures)

    def fresh(self, make: Callable[[Cluster], da.Array]) -> da.Array:
        """The graph `make` builds, with keys of its own (`clone`): the same
        graph again would find the last call's result, or its keys still
        being released."""
        omit = (self.a, self.x, self.xs)
        return cast(da.Array, dask.graph_manipulation.clone(make(self), omit=omit))

    def persisted(self, make: Callable[[Cluster], da.Array]) -> Callable[[], Any]:
        """A call: build the graph, persist its result on the workers, wait."""
        return lambda: self.persist(self.fresh(make))

    def gathered(self, make: Callable[[Cluster], da.Array]) -> Callable[[], Any]:
        """A call: build the graph and bring its result into this process."""
        return lambda: cast(Any, self.fresh(make).compute(scheduler=self.client))

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


def dask_spmv(c: Cluster) -> da.Array:
    return dask_product(c.a, c.x, "j")


def dask_spmm(c: Cluster) -> da.Array:
    return dask_product(c.a, c.xs, "jk")


def xsparse_spmm(c: Cluster) -> da.Array:
    return xsparse.dask.einsum("ij,jk->ik", c.a, c.xs)


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


def table(title: str, rows: Sequence[tuple[str, int, float, float]]) -> None:
    """Per row (what ran, its workers, its median, the median of scipy in the
    same phase): the time, the speed-up over scipy (scipy's time / this one)
    and, for 2 workers, over the same call on 1 worker."""
    print(f"\n{title}")
    one_worker = {name: s for name, workers, s, _ in rows if workers == 1}
    print(f"  {'':44} {'seconds':>8} {'vs scipy':>9} {'vs 1 worker':>12}")
    for name, workers, s, scipy_time in rows:
        scipy = name == SCIPY
        base = one_worker.get(name) if workers == 2 and not scipy else None
        versus = f"{base / s:11.2f}x" if base else ""
        cluster = f"{workers} worker{'s' if workers > 1 else ''}"
        label = f"{name}, beside {cluster}" if scipy else f"{name}, {cluster}"
        print(f"  {label:44} {s:8.3f} {scipy_time / s:8.2f}x {versus:>12}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--nnz-per-row", type=int, default=100)
    parser.add_argument("--chunks", type=int, default=8)
    parser.add_argument("--columns", type=int, default=16, help="SpMM's columns")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
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

    def xsparse_spmv(c: Cluster) -> da.Array:
        return xsparse.dask.blockwise(spmv, "i", c.a, "ij", c.x, "j")

    products = [
        ("SpMV", whole @ x, xsparse_spmv, dask_spmv, lambda: whole @ x),
        ("SpMM", whole @ xs, xsparse_spmm, dask_spmm, lambda: whole @ xs),
    ]
    rows: dict[str, list[tuple[str, int, float, float]]] = {p[0]: [] for p in products}
    # One cluster at a time: an idle cluster's scheduler, nanny and worker
    # share the cores with the one measured.
    for workers in (1, 2):
        start = time.perf_counter()
        c = Cluster(workers, problem, x, xs)
        print(
            f"{workers} worker(s): chunks generated in {time.perf_counter() - start:.1f} s"
        )
        try:
            for name, want, xsparse_make, dask_make, scipy_call in products:
                for label, make in (
                    ("Dask + scipy", dask_make),
                    ("xsparse.dask", xsparse_make),
                ):
                    verdict = check(label, c.gathered(make)(), want)
                    print(f"  {name} {label}: {verdict} to scipy's")
                calls = [
                    ("Dask + scipy chunks", c.persisted(dask_make)),
                    ("xsparse.dask", c.persisted(xsparse_make)),
                    ("xsparse.dask, gathered", c.gathered(xsparse_make)),
                ]
                seconds = bench.interleaved_medians(
                    [scipy_call, *(call for _, call in calls)], args.repeats, "wall"
                )
                rows[name].append((SCIPY, workers, seconds[0], seconds[0]))
                rows[name] += [
                    (label, workers, s, seconds[0])
                    for (label, _), s in zip(calls, seconds[1:], strict=True)
                ]
        finally:
            c.close()
    for name, _, _, _, _ in products:
        table(
            f"{name}: median of {args.repeats} interleaved rounds (scipy beside "
            "each cluster)",
            sorted(rows[name], key=lambda r: (r[0] != SCIPY, r[1])),
        )


if __name__ == "__main__":
    main()
