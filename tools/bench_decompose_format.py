"""Composable formats (`xsparse.composable`, seed 002) beside xsparse's CSR
kernel and scipy, at 1 and 2 threads, in one interleaved run.

Matrices: power-law rows (1M x 1M, 10M entries by default; `--small`:
100k x 100k, 1M entries) and two block-structured ones (8 blocks of 8 x 8
per block row, 90% full, plus 10 scattered entries per row: 15% of the
entries), the blocks at random block columns or, "banded blocks", within
64 block columns of the diagonal (as in FEM matrices: rows of B shared by
nearby block rows stay in cache); each decomposed with the rule
`choose_rule` picks (BSR for the block-structured ones). Per product: the
decomposed kernel's time per call (median over interleaved rounds, wall
clock) and how many times longer the others take (> 1: decomposed faster),
with the range over the rounds (each round's ratio, the kernels in another
order each round); the decomposed product writes an output allocated as
`d @ b` allocates its own (aligned: C's rows are streamed), the CSR kernels
add into zeroed ones (`C += A @ B`, as xsparse's CSR kernel computes it);
then the preprocessing
time (plan + compiled data movement) beside one call. scipy runs on one
thread; MLIR 22 (its `--sparsifier` on the same CSR kernel, OpenMP threads:
`tools/bench_mlir.py`) where `mlir-opt-22` and libomp are installed.

    python tools/bench_decompose_format.py --small --rounds 3
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import functools  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import xsparse  # noqa: E402
from tools import bench_mlir  # noqa: E402
from tools.bench_boundary import per_call  # noqa: E402
from xsparse import composable  # noqa: E402
from xsparse.frontend.generic import matrix_product_source  # noqa: E402

THREADED = ("decomposed", "xsparse CSR", "MLIR 22")


def power_law(rows: int, nnz: int, seed: int = 0) -> Any:
    """Zipf row lengths scaled to about `nnz` entries, uniform columns
    (duplicates within a row summed)."""
    rng = np.random.default_rng(seed)
    lengths = rng.zipf(2.0, rows).astype(np.float64)
    lengths = np.minimum(np.maximum(np.round(lengths * nnz / lengths.sum()), 0), rows)
    # (int32 indices, as scipy makes them below 2**31 entries: int64 ones
    # would be narrowed for xsparse's 32-bit CSR kernel on every call)
    row_of = np.repeat(np.arange(rows, dtype=np.int32), lengths.astype(np.int64))
    columns = rng.integers(0, rows, row_of.size, dtype=np.int32)
    a = sp.csr_array(
        (rng.standard_normal(row_of.size), (row_of, columns)), shape=(rows, rows)
    )
    a.sum_duplicates()
    return a


def blocky(rows: int, block: int, seed: int = 1, band: int | None = None) -> Any:
    """8 blocks per block row, 90% full, at random block columns (`band`:
    within `band` block columns of the diagonal, as in a FEM matrix), plus
    scattered entries (density 1e-4: 10 per row)."""
    rng = np.random.default_rng(seed)
    nblocks = rows // block
    if band is None:
        pattern = sp.random_array((nblocks, nblocks), density=8 / nblocks, rng=rng)
    else:
        block_rows = np.repeat(np.arange(nblocks, dtype=np.int32), 8)
        near = block_rows + rng.integers(-band, band + 1, block_rows.size, np.int32)
        block_columns = np.clip(near, 0, nblocks - 1)
        ones = np.ones(block_rows.size)
        pattern = sp.csr_array(
            (ones, (block_rows, block_columns)), shape=(nblocks, nblocks)
        )
        pattern.data[:] = 1.0  # blocks drawn twice: one block
    a = sp.csr_array(sp.kron(pattern, np.ones((block, block)), format="csr"))
    keep = rng.random(a.nnz) < 0.9
    a.data = np.where(keep, rng.standard_normal(a.nnz), 0.0)
    a.eliminate_zeros()
    scattered = sp.random_array((rows, rows), density=1e-4, rng=rng, format="csr")
    return sp.csr_array(a + scattered)


def csr_source(matrix: bool) -> str:
    """xsparse's CSR kernel `C += A @ B` (the caller zeroes C), the baseline."""
    name = "spmm" if matrix else "spmv"
    return matrix_product_source(composable.CSR32, "f64", matrix, name)


def csr_kernel(matrix: bool) -> xsparse.Kernel:
    return xsparse.compile(csr_source(matrix))


def mlir_kernel(matrix: bool, a: Any) -> Callable[[Any, Any], Any] | None:
    """MLIR 22's CSR kernel (OpenMP threads): `call(b, out)`; None without
    MLIR 22's tools and libomp."""
    if openmp() is None:
        return None
    source = csr_source(matrix)
    name = "spmm" if matrix else "spmv"
    kernel = bench_mlir.build(source, name, [a.shape, None, None], openmp=True)
    encoding = csr_kernel(matrix).signature.inputs.data[0].encoding  # type: ignore[attr-defined]
    tensor = xsparse.SparseTensor.from_scipy(a, encoding)
    return lambda b, out: kernel(tensor, b, out)


@functools.cache
def openmp() -> Any:
    """LLVM's OpenMP runtime for MLIR 22's kernels; None without it or MLIR."""
    return bench_mlir.openmp_runtime() if bench_mlir.mlir_available() else None


def set_threads(n: int) -> None:
    xsparse.set_num_threads(n)
    if openmp() is not None:
        openmp().omp_set_num_threads(n)


def products(
    d: composable.Decomposed,
    kernel: xsparse.Kernel,
    mlir: Callable[[Any, Any], Any] | None,
    a: Any,
    b: Any,
    out: Any,
) -> dict[str, Callable[[], Any]]:
    """A @ b by each kernel (the compiled ones into outputs of their own,
    zeroed first: `Decomposed.matmul` zeroes its own)."""
    other, theirs = np.zeros_like(out), np.zeros_like(out)

    def csr() -> Any:
        other[...] = 0
        return kernel(a, b, other)

    def mlir_call() -> Any:
        assert mlir is not None
        theirs[...] = 0
        return mlir(b, theirs)

    calls = {
        "decomposed": lambda: d.matmul(b, out=out),
        "xsparse CSR": csr,
        "scipy": lambda: a @ b,
    }
    if mlir is not None:
        calls["MLIR 22"] = mlir_call
    return calls


def ratios(theirs: list[float], ours: list[float]) -> str:
    """Median time over ours, then the range of the rounds' ratios."""
    each = [t / o for t, o in zip(theirs, ours, strict=True)]
    median = statistics.median(theirs) / statistics.median(ours)
    return f"{median:5.2f}x ({min(each):.2f}-{max(each):.2f})"


def compare(
    name: str,
    a: Any,
    rule: composable.Rule | None,
    columns: list[int],
    counts: list[int],
    rounds: int,
    with_mlir: bool,
) -> None:
    start = time.perf_counter()
    d = composable.decompose(a, rule)
    first = time.perf_counter() - start
    start = time.perf_counter()
    d = composable.decompose(a, rule)
    prep = time.perf_counter() - start
    print(f"{name}: {a.shape[0]} x {a.shape[1]}, nnz={a.nnz}")
    print("  " + d.describe().replace("\n", "\n  "))
    rng = np.random.default_rng(2)
    for n_columns in columns:
        shape = (a.shape[1],) if n_columns == 0 else (a.shape[1], n_columns)
        b = rng.standard_normal(shape)
        # as `d @ b` allocates it: aligned, so that C's rows are streamed
        out = composable.aligned_empty((a.shape[0], *shape[1:]), np.dtype(np.float64))
        kernel = csr_kernel(n_columns > 0)
        mlir = mlir_kernel(n_columns > 0, a) if with_mlir else None
        calls = products(d, kernel, mlir, a, b, out)
        expected = a @ b
        for n in counts:
            set_threads(n)
            for label, call in calls.items():
                np.testing.assert_allclose(
                    call(), expected, rtol=1e-9, atol=1e-9, err_msg=label
                )
        times: dict[str, list[float]] = {}
        threaded = [t for t in THREADED if t in calls]
        for r in range(rounds):
            times.setdefault("scipy", []).append(per_call(calls["scipy"], 0.2))
            for n in counts:
                set_threads(n)
                # each round in another order: none always runs first
                turn = r % len(threaded)
                for label in threaded[turn:] + threaded[:turn]:
                    times.setdefault(f"{label} {n}", []).append(
                        per_call(calls[label], 0.2)
                    )
        what = "SpMV" if n_columns == 0 else f"SpMM {n_columns:3} columns"
        for n in counts:
            ours = times[f"decomposed {n}"]
            cells = [
                f"  {what} {n} thr | decomposed {statistics.median(ours) * 1e3:8.2f} ms"
            ]
            for label in (t for t in THREADED[1:] if t in calls):
                cells.append(f"{label} {ratios(times[f'{label} {n}'], ours)}")
            cells.append(f"scipy (1 thr) {ratios(times['scipy'], ours)}")
            print(" | ".join(cells), flush=True)
    print(
        f"  preprocessing {prep * 1e3:.1f} ms (first, with compiling: {first:.1f} s)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--small", action="store_true")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-mlir", action="store_true", help="no MLIR 22 column")
    parser.add_argument(
        "--matrices",
        default="power-law,block-structured,banded-blocks",
        help="which to run",
    )
    args = parser.parse_args()
    counts = [int(n) for n in args.threads.split(",")]
    matrices = args.matrices.split(",")
    with_mlir = not args.no_mlir
    print(
        f"threads {counts}; {args.rounds} interleaved rounds; wall clock; "
        f"MLIR 22: {'yes' if with_mlir and openmp() is not None else 'no'}"
    )
    if "power-law" in matrices:
        rows, nnz = (100_000, 1_000_000) if args.small else (1_000_000, 10_000_000)
        a = power_law(rows, nnz)
        compare("power-law", a, None, [0, 64, 128], counts, args.rounds, with_mlir)
    block_rows = 20_000 if args.small else 100_000
    if "block-structured" in matrices:
        a = blocky(block_rows, 8)
        compare(
            "block-structured", a, None, [0, 64, 128], counts, args.rounds, with_mlir
        )
    if "banded-blocks" in matrices:
        a = blocky(block_rows, 8, band=64)
        compare("banded blocks", a, None, [0, 64, 128], counts, args.rounds, with_mlir)


if __name__ == "__main__":
    main()
