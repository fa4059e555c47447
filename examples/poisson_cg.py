"""Solve a 2-D Poisson problem by conjugate gradients, with xsparse's SpMV.

The matrix is the 5-point finite-difference Laplacian on an n x n grid, built
with scipy.sparse; the sparse matrix-vector product inside CG is an MLIR
`linalg.generic` on a CSR tensor, compiled by xsparse to native code. The
result is checked against scipy's own SpMV-based CG run.

    python examples/poisson_cg.py [n]
"""

from __future__ import annotations

import os
import sys
import time

# CG's vector operations (dot products of 90k entries) gain nothing from
# OpenBLAS's threads, and those threads spin after each one, taking the cores
# that xsparse's SpMV runs on (2.5x slower CG on 2 cores). One BLAS thread,
# unless the environment says otherwise; set before numpy loads OpenBLAS.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402

import xsparse  # noqa: E402

SPMV = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#spmv = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>],
  iterator_types = ["parallel", "reduction"]
}
func.func @spmv(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #spmv ins(%a, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}
"""


def laplacian_2d(n: int) -> sp.csr_array:
    one_d = sp.diags_array([-np.ones(n - 1), 2 * np.ones(n), -np.ones(n - 1)], offsets=[-1, 0, 1])
    eye = sp.eye_array(n)
    return sp.csr_array(sp.kron(one_d, eye) + sp.kron(eye, one_d))


def conjugate_gradient(matvec, b: np.ndarray, tol: float = 1e-10, max_iter: int = 10_000) -> tuple[np.ndarray, int]:
    x = np.zeros_like(b)
    r = b.copy()
    p = r.copy()
    rr = r @ r
    for iteration in range(1, max_iter + 1):
        ap = matvec(p)
        alpha = rr / (p @ ap)
        x += alpha * p
        r -= alpha * ap
        rr_new = r @ r
        if np.sqrt(rr_new) < tol * np.linalg.norm(b):
            return x, iteration
        p = r + (rr_new / rr) * p
        rr = rr_new
    return x, max_iter


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    a = laplacian_2d(n)
    b = np.random.default_rng(0).standard_normal(a.shape[0])
    print(f"2-D Poisson, {n}x{n} grid: {a.shape[0]} unknowns, {a.nnz} nonzeros (CSR)")

    start = time.perf_counter()
    spmv = xsparse.compile(SPMV, entry="spmv")
    spmv(a, b, np.zeros_like(b))  # the first call on int32 indices compiles their variant
    print(f"compiled @spmv in {time.perf_counter() - start:.3f} s")

    out = np.empty(a.shape[0])

    def xsparse_matvec(v: np.ndarray) -> np.ndarray:
        out.fill(0.0)  # the kernel accumulates into its output: y += A @ v
        # scipy's int32 CSR arrays are read in place (a 32-bit variant of the
        # kernel, compiled once); CG uses the product before the next call.
        # `out` holds nothing to keep: the kernel may check A's column
        # indices as it reads them instead of in a pass before it.
        return spmv(a, v, out, scratch_outputs=True)

    start = time.perf_counter()
    x, iterations = conjugate_gradient(xsparse_matvec, b)
    ours = time.perf_counter() - start
    start = time.perf_counter()
    x_ref, ref_iterations = conjugate_gradient(lambda v: a @ v, b)
    theirs = time.perf_counter() - start

    residual = np.linalg.norm(a @ x - b) / np.linalg.norm(b)
    print(f"CG with xsparse SpMV: {iterations} iterations, {ours:.3f} s, relative residual {residual:.2e}")
    print(f"CG with scipy SpMV:   {ref_iterations} iterations, {theirs:.3f} s")
    assert iterations == ref_iterations and np.allclose(x, x_ref, atol=1e-8), "results differ from scipy"
    print("solution matches scipy: OK")


if __name__ == "__main__":
    main()
