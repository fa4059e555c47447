"""2:4 SpMM (`xsparse.two_four`, the `sparse-decompose-tensors` kernel)
beside xsparse's CSR kernel on the same matrix, scipy's CSR product and
numpy's dense matmul on A's dense form, at 1 and 2 threads, in one
interleaved run.

A is N x N (4096 by default) with exactly half its entries kept (a random
normal matrix pruned to 2:4), B is dense N x 64 and N x 256. Per B: the
wall-clock time per call of the 2:4 kernel (median over interleaved rounds)
at each thread count, and how many times longer each other kernel takes
(> 1: 2:4 is faster). xsparse's kernels run on `xsparse.set_num_threads(n)`
threads, numpy's BLAS on n threads as well (threadpoolctl), scipy on one
(its sparse products have no threads). Every result is checked against
numpy first. Then the bytes each storage of A takes. "cores busy" is the
process's CPU time over the wall-clock time of the 2:4 calls: on a machine
that other work shares, below n shows that the n threads did not all run.

    python tools/bench_two_four.py                 # f64, 5 rounds
    python tools/bench_two_four.py --rounds 3 --dtype f32 --size 2048
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
from threadpoolctl import threadpool_limits  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import xsparse  # noqa: E402
from tools.bench_boundary import per_call  # noqa: E402
from xsparse import two_four  # noqa: E402

CSR_SPMM = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm(%A: tensor<?x?xT, #CSR>, %B: tensor<?x?xT>, %C: tensor<?x?xT>) -> tensor<?x?xT> {
  %0 = linalg.matmul ins(%A, %B : tensor<?x?xT, #CSR>, tensor<?x?xT>)
                     outs(%C : tensor<?x?xT>) -> tensor<?x?xT>
  return %0 : tensor<?x?xT>
}
"""

DTYPES = {"f32": np.float32, "f64": np.float64}


def footprints(dense: Any, a: two_four.TwoFour, csr: sp.csr_array) -> list[str]:
    """Bytes of each storage of A, in MiB."""
    wide = a.to_sparse_tensor()
    packed = a.to_sparse_tensor(two_four.NV_24_PACKED)
    crd, packed_crd = wide.coordinates[2], packed.coordinates[2]
    assert crd is not None and packed_crd is not None
    csr_buffers: list[Any] = [csr.data, csr.indices, csr.indptr]
    sizes: dict[str, int] = {
        "dense": dense.nbytes,
        "CSR (scipy and xsparse: values, int32 indices, indptr)": sum(
            int(buffer.nbytes) for buffer in csr_buffers
        ),
        "2:4 SparseTensor, crdWidth = 8 (values, 1-byte coordinates)": (
            wide.values.nbytes + crd.nbytes
        ),
        "2:4 SparseTensor, crdWidth = 2 (values, 4 coordinates a byte)": (
            packed.values.nbytes + packed_crd.nbytes
        ),
        "2:4 decomposed (values, 16-bit metadata words)": a.nbytes,
    }
    return [f"  {name:62} {size / 2**20:8.2f} MiB" for name, size in sizes.items()]


def products(
    a: two_four.TwoFour, csr_kernel: xsparse.Kernel, csr: Any, dense: Any, b: Any
) -> dict[str, Callable[[], Any]]:
    """A @ b by each kernel (the compiled ones into a zeroed output)."""
    out = np.zeros((dense.shape[0], b.shape[1]), dense.dtype)
    return {
        "2:4": lambda: two_four.matmul(a, b, out=out),
        "xsparse CSR": lambda: csr_kernel(csr, b, np.zeros_like(out)),
        "numpy dense": lambda: dense @ b,
        "scipy CSR": lambda: csr @ b,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--size", type=int, default=4096)
    parser.add_argument("--columns", default="64,256")
    parser.add_argument("--dtype", choices=DTYPES, default="f64")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    dtype = DTYPES[args.dtype]
    counts = [int(n) for n in args.threads.split(",")]
    rng = np.random.default_rng(0)
    dense = two_four.prune(rng.standard_normal((args.size, args.size)).astype(dtype))
    assert np.count_nonzero(dense) == dense.size // 2
    a = two_four.TwoFour.from_dense(dense)
    csr = sp.csr_array(dense)
    csr_kernel = xsparse.compile(CSR_SPMM.replace("xT", f"x{args.dtype}"))
    print(
        f"A {args.size} x {args.size} {args.dtype}, half its entries kept; "
        f"{args.rounds} interleaved rounds; median time per call of 2:4 and "
        "each other kernel's time as a multiple of it (> 1: 2:4 faster); "
        "xsparse and numpy's BLAS on n threads, scipy on one"
    )
    for columns in (int(c) for c in args.columns.split(",")):
        b = rng.standard_normal((args.size, columns)).astype(dtype)
        expected = dense.astype(np.float64) @ b.astype(np.float64)
        tolerance = 1e-3 if dtype == np.float32 else 1e-9
        calls = products(a, csr_kernel, csr, dense, b)
        for n in counts:
            xsparse.set_num_threads(n)
            for name, call in calls.items():
                np.testing.assert_allclose(
                    call(), expected, rtol=tolerance, atol=tolerance, err_msg=name
                )
        times: dict[str, list[float]] = {}
        busy: dict[int, list[float]] = {n: [] for n in counts}
        for _ in range(args.rounds):
            times.setdefault("scipy CSR", []).append(per_call(calls["scipy CSR"], 0.2))
            for n in counts:
                xsparse.set_num_threads(n)
                with threadpool_limits(n, "blas"):
                    for name, call in calls.items():
                        if name == "scipy CSR":
                            continue
                        cpu = time.process_time()
                        wall = time.perf_counter()
                        times.setdefault(f"{name} {n}", []).append(per_call(call, 0.2))
                        if name == "2:4":
                            cpu = time.process_time() - cpu
                            busy[n].append(cpu / (time.perf_counter() - wall))
        median = {name: statistics.median(t) for name, t in times.items()}
        for n in counts:
            ours = median[f"2:4 {n}"]
            cells = [
                f"B {args.size} x {columns:<4} {n} thr",
                f"2:4 {ours * 1e3:8.2f} ms",
            ]
            cells += [
                f"{name} {median[f'{name} {n}'] / ours:5.2f}x"
                for name in calls
                if name not in ("2:4", "scipy CSR")
            ]
            cells.append(f"scipy CSR (1 thr) {median['scipy CSR'] / ours:5.2f}x")
            cells.append(f"2:4 cores busy {statistics.median(busy[n]):4.2f}")
            print(" | ".join(cells), flush=True)
        if len(counts) > 1:
            first, last = counts[0], counts[-1]
            speedup = median[f"2:4 {first}"] / median[f"2:4 {last}"]
            print(f"  2:4 speedup {last}/{first} threads: {speedup:4.2f}")
    print("Memory of A:")
    print("\n".join(footprints(dense, a, csr)))


if __name__ == "__main__":
    main()
