"""Multi-core kernels as users call them: scipy matrices in, default options
(`xsparse.compile` parallelizes the outermost safe loop), 1, 2 and all the
cores' threads (`xsparse.set_num_threads`), beside scipy (one thread) and
MLIR 22's kernel on LLVM's OpenMP runtime at the same thread counts (where
`mlir-opt-22` and libomp-22-dev are installed; `tools/bench_mlir.py`) and
torch's sparse CSR kernels (where torch is installed; `torch.set_num_threads`
at each count), in one interleaved run.

Per kernel and row distribution: wall-clock time per call (median over
interleaved rounds) of scipy, and of xsparse at each thread count as a ratio
to scipy's, then the speedup of each thread count over one thread. Every
result is checked against scipy first. numpy's BLAS is pinned to one thread.

- `spmv`: `y = A x` (validation in native code on every call included);
- `spmm`: `C = A B`, B dense with 8 columns;
- `sum`: the sum of A's values (a parallel reduction folded in chunk order;
  scipy's `A.sum()`);
- `sddmm`: `O = S * (L R)` sampled on S's entries, L, R dense with 16 columns;
- `spgemm`: `C = A A` into a new CSR matrix, as users call it on scipy
  matrices: `xsparse.einsum("ij,jk->ik", A, A)`, whose result is built as
  scipy's `A @ A` is (32-bit indices, each row in the order its entries were
  found); count and fill phases in parallel;
- `spgemm_sorted`: the same product by a kernel whose CSR output has sorted
  rows (MLIR's `#CSR`; each row sorted after it is computed);
- `add`: `C = A + B` into a new CSR matrix with 32-bit indices, as scipy's
  `A + B` makes it (count and fill phases in parallel);
- `tocsc`: `sparse_tensor.convert` of A (CSR) to CSC with 32-bit indices,
  scipy's `A.tocsc()` (per-block histograms in parallel).
MLIR 22 keeps the row loops of sparse outputs and its conversions
sequential under every strategy: its column and torch's are left out for
SpGEMM, add and tocsc.

Rows are `uniform` (nonzeros spread evenly) or `power-law` (Pareto row
lengths: a few very long rows), which the runtime balances by stored entries.

    python tools/bench_threads.py            # SpMV, sum, add, tocsc 400k/4M; SpMM 100k/1M; SDDMM 20k/400k; SpGEMM 20k/200k
    python tools/bench_threads.py --small    # sizes / 20
    python tools/bench_threads.py --threads 1,2,4,8,16   # a scaling curve on a larger machine
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import functools  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import warnings  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_mlir  # noqa: E402

import xsparse  # noqa: E402
from tools.bench_boundary import per_call  # noqa: E402
from xsparse import SparseTensor  # noqa: E402
from xsparse.dialects.sparse_tensor.encoding import parse_encoding  # noqa: E402

CSR = "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>"

KERNELS = {
    "spmv": CSR
    + """
func.func @spmv(%A: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%A, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %m = arith.mulf %a, %b : f64
    %s = arith.addf %c, %m : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}
""",
    "spmm": CSR
    + """
func.func @spmm(%A: tensor<?x?xf64, #CSR>, %B: tensor<?x?xf64>, %C: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.matmul ins(%A, %B : tensor<?x?xf64, #CSR>, tensor<?x?xf64>)
                     outs(%C : tensor<?x?xf64>) -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}
""",
    "sum": CSR
    + """
func.func @sum(%A: tensor<?x?xf64, #CSR>, %s: tensor<f64>) -> tensor<f64> {
  %0 = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>],
      iterator_types = ["reduction", "reduction"]}
      ins(%A : tensor<?x?xf64, #CSR>) outs(%s : tensor<f64>) {
  ^bb0(%a: f64, %c: f64):
    %r = arith.addf %c, %a : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  return %0 : tensor<f64>
}
""",
    "sddmm": CSR
    + """
func.func @sddmm(%S: tensor<?x?xf64, #CSR>, %L: tensor<?x?xf64>, %R: tensor<?x?xf64>, %O: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.generic {
      indexing_maps = [affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (i, k)>,
                       affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%S, %L, %R : tensor<?x?xf64, #CSR>, tensor<?x?xf64>, tensor<?x?xf64>)
      outs(%O : tensor<?x?xf64>) {
  ^bb0(%s: f64, %a: f64, %b: f64, %o: f64):
    %m = arith.mulf %a, %b : f64
    %p = arith.mulf %s, %m : f64
    %r = arith.addf %o, %p : f64
    linalg.yield %r : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}
""",
    "add": CSR.replace("compressed) }>", "compressed), posWidth = 32, crdWidth = 32 }>")
    + """
func.func @add(%A: tensor<?x?xf64, #CSR>, %B: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSR> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %A, %c0 : tensor<?x?xf64, #CSR>
  %n = tensor.dim %A, %c1 : tensor<?x?xf64, #CSR>
  %C = tensor.empty(%m, %n) : tensor<?x?xf64, #CSR>
  %0 = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%A, %B : tensor<?x?xf64, #CSR>, tensor<?x?xf64, #CSR>)
      outs(%C : tensor<?x?xf64, #CSR>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %s = arith.addf %a, %b : f64
    linalg.yield %s : f64
  } -> tensor<?x?xf64, #CSR>
  return %0 : tensor<?x?xf64, #CSR>
}
""",
    "tocsc": """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed), posWidth = 32, crdWidth = 32 }>
func.func @tocsc(%A: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSC> {
  %0 = sparse_tensor.convert %A : tensor<?x?xf64, #CSR> to tensor<?x?xf64, #CSC>
  return %0 : tensor<?x?xf64, #CSC>
}
""",
    "spgemm_sorted": CSR
    + """
func.func @spgemm(%A: tensor<?x?xf64, #CSR>, %B: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSR> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %A, %c0 : tensor<?x?xf64, #CSR>
  %n = tensor.dim %B, %c1 : tensor<?x?xf64, #CSR>
  %C = tensor.empty(%m, %n) : tensor<?x?xf64, #CSR>
  %0 = linalg.matmul ins(%A, %B : tensor<?x?xf64, #CSR>, tensor<?x?xf64, #CSR>)
                     outs(%C : tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSR>
  return %0 : tensor<?x?xf64, #CSR>
}
""",
}


def random_csr(n: int, nnz: int, dist: str, seed: int) -> sp.csr_array:
    """n x n with about `nnz` entries, int32 indices as scipy makes them
    (`random_array`, `mmread`, products: int64 only past 2**31 entries)."""
    rng = np.random.default_rng(seed)
    if dist == "uniform":
        rows = rng.integers(0, n, nnz)
    else:  # power law: row i drawn with weight ~ 1 / (i + 1)
        weights = 1.0 / np.arange(1, n + 1)
        rows = rng.permutation(n)[
            np.minimum(n - 1, rng.choice(n, nnz, p=weights / weights.sum()))
        ]
    cols = rng.integers(0, n, nnz)
    coordinates = (rows.astype(np.int32), cols.astype(np.int32))
    a = sp.csr_array((rng.random(nnz), coordinates), shape=(n, n))
    a.sum_duplicates()
    return a


Call = Callable[[bool], Any]
"""A kernel's call; given True, into a fresh zeroed output (the kernels add
to their output), else into the same one every time."""


@dataclass
class Case:
    """One kernel on one matrix: scipy's call, xsparse's, scipy's result, and
    the arguments as MLIR's kernel takes them (the sparse one first)."""

    theirs: Callable[[], Any]
    ours: Call
    expected: Any
    arguments: list[Any]
    """The kernel's arguments; the last one is the output (zeroed for `fresh`)."""


BENCHMARKS = [*KERNELS, "spgemm"]
"""What `--kernels` chooses from: each kernel above, and SpGEMM through
`xsparse.einsum`."""


def cases(kernel: str, scale: int, dist: str) -> Case:
    compiled = xsparse.compile(KERNELS.get(kernel, KERNELS["spgemm_sorted"]))
    rng = np.random.default_rng(1)

    def call(args: list[Any]) -> Call:
        return lambda fresh: compiled(
            *args[:-1], np.zeros_like(args[-1]) if fresh else args[-1]
        )

    if kernel in ("spmv", "sum"):
        a = random_csr(400_000 // scale, 4_000_000 // scale, dist, 0)
        if kernel == "sum":
            args = [a, np.zeros(())]
            return Case(lambda: a.sum(), call(args), a.sum(), args)
        args = [a, rng.random(a.shape[1]), np.zeros(a.shape[0])]
        return Case(lambda: a @ args[1], call(args), a @ args[1], args)
    if kernel == "tocsc":
        a = random_csr(400_000 // scale, 4_000_000 // scale, dist, 0)
        return Case(a.tocsc, lambda _: compiled(a), a.tocsc(), [a, None])
    if kernel == "add":
        a = random_csr(400_000 // scale, 4_000_000 // scale, dist, 0)
        b = random_csr(400_000 // scale, 4_000_000 // scale, dist, 1)
        return Case(lambda: a + b, lambda _: compiled(a, b), a + b, [a, b, None])
    if kernel.startswith("spgemm"):
        a = random_csr(20_000 // scale, 200_000 // scale, dist, 0)
        product = a @ a
        if kernel == "spgemm":
            ours: Call = lambda _: xsparse.einsum("ij,jk->ik", a, a)  # noqa: E731
        else:
            ours = lambda _: compiled(a, a)  # noqa: E731
        return Case(lambda: a @ a, ours, product, [a, a, None])
    if kernel == "spmm":
        a = random_csr(100_000 // scale, 1_000_000 // scale, dist, 0)
        args = [a, rng.random((a.shape[1], 8)), np.zeros((a.shape[0], 8))]
        return Case(lambda: a @ args[1], call(args), a @ args[1], args)
    s = random_csr(20_000 // scale, 400_000 // scale, dist, 0)
    left, right = rng.random((s.shape[0], 16)), rng.random((16, s.shape[1]))
    rows, cols = s.nonzero()

    def sampled() -> Any:
        values = np.einsum("ik,ik->i", left[rows], right[:, cols].T)
        return sp.csr_array((s.data * values, (rows, cols)), shape=s.shape)

    args = [s, left, right, np.zeros(s.shape)]
    return Case(sampled, call(args), sampled().toarray(), args)


def mlir_call(kernel: str, case: Case) -> Call | None:
    """MLIR 22's kernel on LLVM's OpenMP runtime (32-bit positions and
    coordinates, reading scipy's buffers), where MLIR's tools and libomp
    are installed; None elsewhere."""
    if not bench_mlir.mlir_available() or bench_mlir.openmp_runtime() is None:
        return None
    if kernel.startswith("spgemm") or kernel in ("add", "tocsc"):
        return None
    source = KERNELS[kernel].replace(
        "compressed) }>", "compressed), posWidth = 32, crdWidth = 32 }>"
    )
    a = case.arguments[0]
    shapes = [a.shape] + [None] * (len(case.arguments) - 1)
    try:
        built = bench_mlir.build(source, kernel, shapes, openmp=True)
    except RuntimeError as error:  # MLIR 22 crashes on parallel reductions (sum)
        crash = "crashes" if "Stack dump" in str(error) else "fails"
        print(f"  ({kernel}: mlir-opt-22 {crash} on this kernel with OpenMP)")
        return None
    tensor = SparseTensor.from_scipy(
        a, parse_encoding(source.split(" = ", 1)[1].split("\n")[0])
    )
    rest = case.arguments[1:]
    return lambda fresh: built(
        tensor, *rest[:-1], np.zeros_like(rest[-1]) if fresh else rest[-1]
    )


def torch_call(
    kernel: str, case: Case
) -> tuple[Callable[[], Any], Callable[[Any], Any]] | None:
    """torch's sparse CSR kernel on the same data (torch's own threads, set
    per thread count) and how to read its result as numpy, where torch is
    installed; None elsewhere."""
    try:
        import torch
    except ImportError:
        return None
    if kernel.startswith("spgemm") or kernel in ("add", "tocsc"):  # sparse results
        return None
    a = case.arguments[0]
    with warnings.catch_warnings():  # ("CSR support is in beta state")
        warnings.simplefilter("ignore", UserWarning)
        matrix = torch.sparse_csr_tensor(
            torch.from_numpy(a.indptr.astype(np.int64)),
            torch.from_numpy(a.indices.astype(np.int64)),
            torch.from_numpy(a.data),
            size=a.shape,
            check_invariants=False,
        )
    dense = [torch.from_numpy(np.ascontiguousarray(x)) for x in case.arguments[1:-1]]
    if kernel in ("spmv", "spmm"):
        return (lambda: matrix @ dense[0]), lambda result: result.numpy()
    if kernel == "sum":
        return (lambda: matrix.values().sum()), lambda result: float(result)
    if kernel == "sddmm":  # (L R) at S's entries, times S's values
        left, right = dense
        values = matrix.values()

        def sddmm() -> Any:
            products = torch.sparse.sampled_addmm(matrix, left, right, beta=0.0)
            return products.values() * values

        def as_dense(result: Any) -> Any:
            return sp.csr_array(
                (result.numpy(), a.indices, a.indptr), a.shape
            ).toarray()

        return sddmm, as_dense
    return None


def check(got: Any, expected: Any) -> None:
    """`got` (an array, or a SparseTensor or scipy matrix for sparse results)
    is `expected`."""
    if isinstance(got, SparseTensor):
        got = got.to_scipy()
    if sp.issparse(got):
        difference = abs(got - expected)
        largest = abs(expected).max() if expected.nnz else 1.0
        assert (difference.max() if difference.nnz else 0.0) <= 1e-9 * largest
        return
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", action="store_true")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--kernels", default=",".join(BENCHMARKS))
    parser.add_argument(
        "--no-mlir",
        dest="mlir",
        action="store_false",
        help="leave out MLIR 22 + OpenMP (on by default where installed)",
    )
    parser.add_argument(
        "--threads",
        help="comma-separated thread counts (default: 1, 2 and the cores)",
    )
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0))
    counts = (
        sorted({int(n) for n in args.threads.split(",")})
        if args.threads
        else sorted({1, 2, cores})
    )
    scale = 20 if args.small else 1
    print(
        f"{cores} cores; thread counts {counts}; scipy on one thread; "
        f"{args.rounds} interleaved rounds; wall clock; ratios to scipy's time"
    )
    omp = bench_mlir.openmp_runtime() if bench_mlir.mlir_available() else None
    for kernel in args.kernels.split(","):
        for dist in ("uniform", "power-law"):
            case = cases(kernel, scale, dist)
            mlir = mlir_call(kernel, case) if args.mlir else None
            torch_kernel = torch_call(kernel, case)
            peer = None
            if torch_kernel is not None:
                import torch

                peer, as_numpy = torch_kernel
                got = as_numpy(peer())
                np.testing.assert_allclose(got, case.expected, rtol=1e-9, atol=1e-9)
            for n in counts:
                xsparse.set_num_threads(n)
                check(case.ours(True), case.expected)
                if mlir is not None:
                    omp.omp_set_num_threads(n)
                    got = mlir(True)
                    np.testing.assert_allclose(got, case.expected, rtol=1e-9, atol=1e-9)
            names = ["scipy"] + [str(n) for n in counts]
            names += [f"mlir{n}" for n in counts] if mlir is not None else []
            names += [f"torch{n}" for n in counts] if peer is not None else []
            times: dict[str, list[float]] = {name: [] for name in names}
            for _ in range(args.rounds):
                times["scipy"].append(per_call(case.theirs, 0.3))
                for n in counts:
                    xsparse.set_num_threads(n)
                    times[str(n)].append(
                        per_call(functools.partial(case.ours, False), 0.3)
                    )
                    if mlir is not None:
                        omp.omp_set_num_threads(n)
                        times[f"mlir{n}"].append(
                            per_call(functools.partial(mlir, False), 0.3)
                        )
                    if peer is not None:
                        torch.set_num_threads(n)
                        times[f"torch{n}"].append(per_call(peer, 0.3))
            median = {name: statistics.median(t) for name, t in times.items()}
            base = median["scipy"]
            cells = [f"{kernel:5} {dist:9}", f"scipy {base * 1e3:8.2f} ms"]
            cells += [f"{n} thr {median[str(n)] / base:5.2f}x" for n in counts]
            if mlir is not None:
                cells += [
                    f"mlir+omp {n} {median[f'mlir{n}'] / base:5.2f}x" for n in counts
                ]
            if peer is not None:
                cells += [
                    f"torch {n} {median[f'torch{n}'] / base:5.2f}x" for n in counts
                ]
            cells += [
                f"speedup {n}/1 {median['1'] / median[str(n)]:4.2f}"
                for n in counts
                if n > 1
            ]
            print(" | ".join(cells), flush=True)
    xsparse.set_num_threads(cores)


if __name__ == "__main__":
    main()
