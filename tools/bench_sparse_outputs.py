"""Sparse results built by insertion against scipy: sparse vector add (10M
long, 1M nonzeros each, the issue's workload), CSR + CSR into CSR and SpGEMM
CSR x CSR into CSR (100k x 100k, density 1e-4). Medians of wall time, ms.

MLIR 22's side of these kernels is not in this script yet (see ROADMAP.md:
tools/bench.py's MLIR wrapper returns sparse results for conversions only).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

import xsparse
from xsparse import SparseTensor

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from test_sparse_outputs import SPGEMM, elementwise  # noqa: E402

SV = "#sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>"
VECTOR_ADD = f"""
#SV = {SV}
#trait = {{indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}}
func.func @add(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>) -> tensor<?xf64, #SV> {{
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf64, #SV>
  %init = tensor.empty(%n) : tensor<?xf64, #SV>
  %r = linalg.generic #trait ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%init : tensor<?xf64, #SV>) {{
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = arith.addf %x, %y : f64
    linalg.yield %s : f64
  }} -> tensor<?xf64, #SV>
  return %r : tensor<?xf64, #SV>
}}
"""


def median_ms(fn: Callable[[], Any], repeats: int) -> float:
    times: list[float] = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1e3 * float(np.median(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    n, nnz = int(10_000_000 * args.scale), int(1_000_000 * args.scale)
    ia = np.sort(rng.choice(n, nnz, replace=False))
    ib = np.sort(rng.choice(n, nnz, replace=False))
    va, vb = rng.random(nnz), rng.random(nnz)
    a = SparseTensor.from_coo(ia[:, None], va, (n,), SV)
    b = SparseTensor.from_coo(ib[:, None], vb, (n,), SV)
    sa = sp.csr_array((va, ia, [0, nnz]), shape=(1, n))
    sb = sp.csr_array((vb, ib, [0, nnz]), shape=(1, n))
    vector_add = xsparse.compile(VECTOR_ADD)
    size = int(100_000 * args.scale)
    m1 = sp.random_array((size, size), density=1e-4, format="csr", rng=rng)
    m2 = sp.random_array((size, size), density=1e-4, format="csr", rng=rng)
    t1, t2 = SparseTensor.from_scipy(m1), SparseTensor.from_scipy(m2)
    csr_add = xsparse.compile(elementwise("CSR", "CSR", "CSR", "arith.addf"))
    spgemm = xsparse.compile(SPGEMM)
    np.testing.assert_allclose(vector_add(a, b).to_dense(), (sa + sb).toarray()[0])
    cases: list[tuple[str, Callable[[], Any], Callable[[], Any]]] = [
        ("sparse vector add", lambda: vector_add(a, b), lambda: sa + sb),
        ("CSR + CSR -> CSR", lambda: csr_add(t1, t2), lambda: m1 + m2),
        ("SpGEMM CSR -> CSR", lambda: spgemm(t1, t2), lambda: m1 @ m2),
    ]
    print(f"{'kernel':<20} {'xsparse ms':>11} {'scipy ms':>9} {'xs/scipy':>9}")
    for name, ours, theirs in cases:
        x, s = median_ms(ours, args.repeats), median_ms(theirs, args.repeats)
        print(f"{name:<20} {x:>11.1f} {s:>9.1f} {x / s:>9.2f}")


if __name__ == "__main__":
    main()
