"""Composable formats (`xsparse.composable`, seed 002) beside xsparse's CSR
kernel and scipy, at 1 and 2 threads, in one interleaved run.

Matrices: power-law rows (1M x 1M, 10M entries by default; `--small`:
100k x 100k, 1M entries) decomposed with the rule `choose_rule` picks, and a
block-structured one (8 x 8 blocks 90% full, plus 1% scattered entries)
decomposed with the rule `choose_rule` picks (BSR). Per product: the decomposed kernel's time per call (median
over interleaved rounds) and how many times longer the others take (> 1:
decomposed faster); then the preprocessing time (plan + compiled data
movement) beside one call. scipy runs on one thread.

    python tools/bench_decompose_format.py --small --rounds 3
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
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
from tools.bench_boundary import per_call  # noqa: E402
from xsparse import composable  # noqa: E402


def power_law(rows: int, nnz: int, seed: int = 0) -> Any:
    """Zipf row lengths scaled to about `nnz` entries, uniform columns
    (duplicates within a row summed)."""
    rng = np.random.default_rng(seed)
    lengths = rng.zipf(2.0, rows).astype(np.float64)
    lengths = np.minimum(np.maximum(np.round(lengths * nnz / lengths.sum()), 0), rows)
    row_of = np.repeat(np.arange(rows), lengths.astype(np.int64))
    columns = rng.integers(0, rows, row_of.size)
    a = sp.csr_array(
        (rng.standard_normal(row_of.size), (row_of, columns)), shape=(rows, rows)
    )
    a.sum_duplicates()
    return a


def blocky(rows: int, block: int, seed: int = 1) -> Any:
    rng = np.random.default_rng(seed)
    nblocks = rows // block
    pattern = sp.random_array((nblocks, nblocks), density=8 / nblocks, rng=rng)
    a = sp.csr_array(sp.kron(pattern, np.ones((block, block)), format="csr"))
    keep = rng.random(a.nnz) < 0.9
    a.data = np.where(keep, rng.standard_normal(a.nnz), 0.0)
    a.eliminate_zeros()
    scattered = sp.random_array((rows, rows), density=1e-4, rng=rng, format="csr")
    return sp.csr_array(a + scattered)


def csr_kernel(matrix: bool) -> xsparse.Kernel:
    return xsparse.compile(composable.product_source("f64", matrix))


def products(
    d: composable.Decomposed, kernel: xsparse.Kernel, a: Any, b: Any, out: Any
) -> dict[str, Callable[[], Any]]:
    """A @ b by each kernel (the compiled ones into the same output, zeroed
    first: `Decomposed.matmul` zeroes it itself)."""
    other = np.zeros_like(out)

    def csr() -> Any:
        other[...] = 0
        return kernel(a, b, other)

    return {
        "decomposed": lambda: d.matmul(b, out=out),
        "xsparse CSR": csr,
        "scipy": lambda: a @ b,
    }


def compare(
    name: str,
    a: Any,
    rule: composable.Rule | None,
    columns: list[int],
    counts: list[int],
    rounds: int,
) -> None:
    start = time.perf_counter()
    d = composable.decompose(a, rule)
    first = time.perf_counter() - start
    start = time.perf_counter()
    d = composable.decompose(a, d.rule)
    prep = time.perf_counter() - start
    print(f"{name}: {a.shape[0]} x {a.shape[1]}, nnz={a.nnz}")
    print("  " + d.describe().replace("\n", "\n  "))
    rng = np.random.default_rng(2)
    for n_columns in columns:
        shape = (a.shape[1],) if n_columns == 0 else (a.shape[1], n_columns)
        b = rng.standard_normal(shape)
        out = np.zeros((a.shape[0], *shape[1:]))
        kernel = csr_kernel(n_columns > 0)
        calls = products(d, kernel, a, b, out)
        expected = a @ b
        for n in counts:
            xsparse.set_num_threads(n)
            for label, call in calls.items():
                np.testing.assert_allclose(
                    call(), expected, rtol=1e-9, atol=1e-9, err_msg=label
                )
        times: dict[str, list[float]] = {}
        for _ in range(rounds):
            times.setdefault("scipy", []).append(per_call(calls["scipy"], 0.2))
            for n in counts:
                xsparse.set_num_threads(n)
                for label in ("decomposed", "xsparse CSR"):
                    times.setdefault(f"{label} {n}", []).append(
                        per_call(calls[label], 0.2)
                    )
        median = {k: statistics.median(v) for k, v in times.items()}
        what = "SpMV" if n_columns == 0 else f"SpMM {n_columns:3} columns"
        for n in counts:
            ours = median[f"decomposed {n}"]
            print(
                f"  {what} {n} thr | decomposed {ours * 1e3:8.2f} ms | "
                f"xsparse CSR {median[f'xsparse CSR {n}'] / ours:5.2f}x | "
                f"scipy (1 thr) {median['scipy'] / ours:5.2f}x",
                flush=True,
            )
    print(
        f"  preprocessing {prep * 1e3:.1f} ms (first, with compiling: {first:.1f} s)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--small", action="store_true")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    counts = [int(n) for n in args.threads.split(",")]
    rows, nnz = (100_000, 1_000_000) if args.small else (1_000_000, 10_000_000)
    compare("power-law", power_law(rows, nnz), None, [0, 64, 128], counts, args.rounds)
    block_rows = 20_000 if args.small else 100_000
    compare(
        "block-structured",
        blocky(block_rows, 8),
        None,
        [0, 64],
        counts,
        args.rounds,
    )


if __name__ == "__main__":
    main()
