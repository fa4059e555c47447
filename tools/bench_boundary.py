"""What a call costs at the boundary, as a user makes it: SpMV (`y = A x`)
on scipy CSR matrices, beside scipy's `A @ x`, in one interleaved run.

Per size, wall-clock time per call (median over interleaved rounds; xsparse
on `--threads` threads, by default all the cores as users get them; scipy
and numpy/BLAS on one thread), as ratios to scipy's:

- `scipy`: `A @ x` on the scipy matrix (int32 indices);
- `xsparse(scipy)`: the kernel called on the scipy matrix itself, as a user
  would (the int32 variant of the kernel reads scipy's buffers; checked in
  native code on every call, before the kernel: y is the caller's);
- `scratch`: the same with `scratch_outputs=True` (the column indices'
  range checked by the kernel as it reads them, `fused_checks`);
- `einsum`: `xsparse.einsum("ij,j->i", A, x)` (a new y: checks in the kernel);
- `xsparse(tensor)`: the kernel on a pre-built `SparseTensor` (64-bit
  indices, checked on every call, before the kernel);
- `unchecked`: the kernel compiled without checks in it
  (`range_checks_in_kernel=False`), on the scipy matrix, `validate=False`;
- `checks before` / `in kernel`: `xsparse(scipy)` / `scratch` over `unchecked`,
  less one: what the checks cost.

Then the README's Poisson CG (a SpMV per iteration) with xsparse on the
scipy matrix against scipy's.

    python tools/bench_boundary.py             # 100x100, 400k/4M, 1M/10M
    python tools/bench_boundary.py --small     # 100x100 and 20k/200k
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
from examples.poisson_cg import SPMV, conjugate_gradient, laplacian_2d  # noqa: E402


def random_csr(n: int, nnz: int, seed: int) -> sp.csr_array:
    rng = np.random.default_rng(seed)
    rows, cols = rng.integers(0, n, nnz), rng.integers(0, n, nnz)
    a = sp.csr_array((rng.random(nnz), (rows, cols)), shape=(n, n))
    a.sum_duplicates()
    return a


def per_call(fn: Callable[[], Any], budget: float) -> float:
    """Seconds per call: as many calls as fit in `budget` seconds (at least 3)."""
    fn()
    start = time.perf_counter()
    calls = 0
    while calls < 3 or time.perf_counter() - start < budget:
        fn()
        calls += 1
    return (time.perf_counter() - start) / calls


def spmv_rows(n: int, nnz: int, rounds: int) -> None:
    kernel = xsparse.compile(SPMV, entry="spmv")
    bare = xsparse.compile(SPMV, entry="spmv", range_checks_in_kernel=False)
    a = random_csr(n, nnz, 0)
    tensor = xsparse.SparseTensor.from_scipy(
        a, kernel.signature.inputs.data[0].encoding
    )  # type: ignore[attr-defined]
    x = np.random.default_rng(1).random(n)
    y = np.zeros(n)
    np.testing.assert_allclose(kernel(a, x, np.zeros(n)), a @ x, rtol=1e-12)
    np.testing.assert_allclose(xsparse.einsum("ij,j->i", a, x), a @ x, rtol=1e-12)
    candidates: dict[str, Callable[[], Any]] = {
        "scipy": lambda: a @ x,
        "xsparse(scipy)": lambda: kernel(a, x, y),
        "scratch": lambda: kernel(a, x, y, scratch_outputs=True),
        "einsum": lambda: xsparse.einsum("ij,j->i", a, x),
        "xsparse(tensor)": lambda: kernel(tensor, x, y),
        "unchecked": lambda: bare(a, x, y, validate=False),
    }
    budget = 0.05 if n < 10_000 else 0.3
    times: dict[str, list[float]] = {name: [] for name in candidates}
    for _ in range(rounds):  # interleaved
        for name, fn in candidates.items():
            times[name].append(per_call(fn, budget))
    median = {name: statistics.median(t) for name, t in times.items()}
    base = median["scipy"]
    cells = [f"{n}x{n}, {a.nnz} nnz", f"scipy {base * 1e6:9.1f} us"]
    for name in ("xsparse(scipy)", "scratch", "einsum", "xsparse(tensor)", "unchecked"):
        cells.append(f"{name} {median[name] / base:5.2f}x")
    unchecked = median["unchecked"]
    before = median["xsparse(scipy)"] / unchecked - 1
    inside = median["scratch"] / unchecked - 1
    cells.append(f"checks before {before:5.1%}, in kernel {inside:5.1%}")
    print(" | ".join(cells), flush=True)


def poisson_cg(grid: int) -> None:
    kernel = xsparse.compile(SPMV, entry="spmv")
    a = laplacian_2d(grid)
    b = np.random.default_rng(0).standard_normal(a.shape[0])
    out = np.empty(a.shape[0])

    def matvec(v: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        out.fill(0.0)
        return kernel(a, v, out, scratch_outputs=True)  # (as the example does)

    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(3):  # interleaved
        start = time.perf_counter()
        x, iterations = conjugate_gradient(matvec, b)
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        x_ref, ref_iterations = conjugate_gradient(lambda v: a @ v, b)
        theirs.append(time.perf_counter() - start)
    assert iterations == ref_iterations and np.allclose(x, x_ref, atol=1e-8)
    ratio = min(ours) / min(theirs)
    print(
        f"Poisson CG {grid}x{grid} ({a.shape[0]} unknowns, {iterations} iterations): "
        f"xsparse on the scipy matrix {min(ours):.3f} s, scipy {min(theirs):.3f} s, "
        f"{ratio:.2f}x",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", action="store_true")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=xsparse.get_num_threads())
    args = parser.parse_args()
    xsparse.set_num_threads(args.threads)
    sizes = [(100, 500), (20_000, 200_000)]
    if not args.small:
        sizes = [(100, 500), (400_000, 4_000_000), (1_000_000, 10_000_000)]
    print(
        f"xsparse on {args.threads} thread(s), scipy on one; {args.rounds} interleaved "
        "rounds; ratios to scipy's time per call"
    )
    for n, nnz in sizes:
        spmv_rows(n, nnz, args.rounds)
    poisson_cg(100 if args.small else 300)


if __name__ == "__main__":
    main()
