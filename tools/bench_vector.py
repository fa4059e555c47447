#!/usr/bin/env python3
"""Vectorized vs scalar xsparse kernels, and scipy, on moderate random data.

`python tools/bench_vector.py [--reps N] [--quick] [--index32]` compiles SpMV (CSR),
a sparse-dense dot product, the sum of a CSR matrix and an elementwise
sparse-times-dense product with `xsparse.compile(..., vl=N)` for N in 1
(scalar), 4, 8 and 16, checks every result against scipy's, and prints the best
time of each (milliseconds) with the speed-up over the scalar kernel. The
whole run takes well under two minutes.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

import xsparse
from xsparse import SparseTensor
from xsparse.backend.kernel import as_sparse_tensor
from xsparse.dialects.sparse_tensor.storage import sparse_encoding

ROOT = Path(__file__).resolve().parent.parent
SV = "#sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>"

DOT = """
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#dot = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>,
        affine_map<(i) -> ()>], iterator_types = ["reduction"]}
func.func @kernel(%a: tensor<?xf64, #SV>, %b: tensor<?xf64>, %x: tensor<f64>) -> tensor<f64> {
  %0 = linalg.generic #dot ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64>) outs(%x : tensor<f64>) {
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %m = arith.mulf %av, %bv : f64
    %s = arith.addf %xv, %m : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  return %0 : tensor<f64>
}
"""

ELEMENTWISE = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#mul = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
        affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64>, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.generic #mul ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64>) outs(%c : tensor<?x?xf64>) {
  ^bb0(%av: f64, %bv: f64, %cv: f64):
    %m = arith.mulf %av, %bv : f64
    %s = arith.addf %cv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}
"""


@dataclass
class Case:
    """One benchmark: a kernel, its arguments and scipy's answer."""

    name: str
    source: str
    args: Callable[[], list[Any]]
    """Fresh arguments for one call (outputs reset)."""
    scipy: Callable[[], Any]
    check: Callable[[Any], Any]
    """The comparable result of a kernel call."""


def cases(rng: np.random.Generator, scale: float) -> list[Case]:
    n = int(20000 * scale)
    per_row = 40
    a = sp.random_array(
        (n, n), density=per_row / n, format="csr", random_state=rng
    ).tocsr()
    a.sort_indices()
    x = rng.random(n)
    y = np.zeros(n)
    m = int(4_000_000 * scale)
    v = sp.random_array((m,), density=0.25, format="coo", random_state=rng)
    v_dense = np.zeros(m)
    v_dense[v.coords[0]] = v.data
    vt = SparseTensor.from_dense(v_dense, SV)
    w = rng.random(m)
    vs = sp.csr_array(v_dense.reshape(1, -1))
    e = sp.random_array((n // 10, n // 10), density=0.1, format="csr", random_state=rng)
    e = e.tocsr()
    e.sort_indices()
    b = rng.random(e.shape)
    c = np.zeros(e.shape)
    return [
        Case(
            f"SpMV CSR {n}x{n}, {a.nnz} nnz",
            (ROOT / "tests/kernels/spmv_csr.mlir").read_text(),
            lambda: [a, x, _zero(y)],
            lambda: a @ x,
            lambda r: r,
        ),
        Case(
            f"dot sparse({v.nnz} nnz)·dense({m})",
            DOT,
            lambda: [vt, w, np.zeros(())],
            lambda: vs @ w,
            lambda r: r,
        ),
        Case(
            f"sum CSR {n}x{n}, {a.nnz} nnz",
            (ROOT / "tests/kernels/sum_all.mlir").read_text(),
            lambda: [a, np.zeros(())],
            lambda: a.sum(),
            lambda r: r,
        ),
        Case(
            f"C+=A∘B CSR {e.shape[0]}², {e.nnz} nnz, dense",
            ELEMENTWISE,
            lambda: [e, b, _zero(c)],
            lambda: e.multiply(b),
            lambda r: r,
        ),
    ]


def _zero(y: np.ndarray) -> np.ndarray:
    y[:] = 0
    return y


def native_call(kernel: Any, args: list[Any]) -> Callable[[], Any]:
    """The kernel on arguments converted once, unchecked (`validate=False`).

    (A call on scipy inputs checks the buffers in native code on every call;
    that is not the generated code measured here.)
    """
    prepared = [
        as_sparse_tensor(arg, t, f"argument {position}")
        if sparse_encoding(t) is not None
        else arg
        for position, (arg, t) in enumerate(
            zip(args, kernel.signature.inputs.data, strict=True)
        )
    ]
    return lambda: kernel(*prepared, validate=False)


def best_time(call: Callable[[], Any], reps: int) -> float:
    """The best of `reps` timed calls, in milliseconds (after a warm-up call)."""
    call()
    best = float("inf")
    for _ in range(reps):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--quick", action="store_true", help="a quarter of the sizes")
    parser.add_argument(
        "--index32", action="store_true", help="also enable-simd-index32"
    )
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    vls = [1, 4, 8, 16]
    rows = []
    for case in cases(rng, 0.25 if args.quick else 1.0):
        expected = case.scipy()
        expected = expected.toarray() if sp.issparse(expected) else expected
        times = []
        for vl in vls:
            kernel = xsparse.compile(
                case.source, vl=vl, enable_simd_index32=args.index32
            )
            result = case.check(kernel(*case.args()))
            np.testing.assert_allclose(
                np.asarray(result), np.asarray(expected), rtol=1e-9, atol=1e-9
            )
            times.append(best_time(native_call(kernel, case.args()), args.reps))
        scipy_ms = best_time(case.scipy, args.reps)
        rows.append((case.name, times, scipy_ms))
    header = f"{'kernel':44} {'scipy':>8} {'scalar':>8} " + " ".join(
        f"{'vl=' + str(v):>14}" for v in vls[1:]
    )
    print(header)
    print("-" * len(header))
    for name, times, scipy_ms in rows:
        cells = " ".join(f"{t:8.3f} ({times[0] / t:4.2f}x)" for t in times[1:])
        print(f"{name:44} {scipy_ms:8.3f} {times[0]:8.3f} {cells}")
    print("\nms, best of", args.reps, "calls; (Nx) = speed-up over scalar xsparse")
    print(
        "native calls on pre-marshalled arguments. What the vector code is lowered to:\n"
        "  sparse-vector-peel: unmasked vector main loop + scalar epilogue (MLIR's\n"
        "    shape masks every iteration and runs a masked step per row);\n"
        "  unmasked gathers/scatters as scalar accesses (x86 vgather/vscatter are\n"
        "    microcoded and slower still under the Gather Data Sampling mitigation);\n"
        "  the final vector.reduction of a vector loop as a shuffle tree (an ordered\n"
        "    llvm.vector.reduce.fadd chains vl dependent adds per row)."
    )


if __name__ == "__main__":
    main()
