"""Call kernels that return sparse results a million times and watch the
process's resident memory: issue 5 asks for "no leak over a million calls".

Each kernel is warmed up, then called `--calls` times (results dropped at
once, converted to scipy for one in every `--keep` calls so that the views'
ownership path is exercised too); the resident set size is sampled every
10% of the calls. A growth above `--limit-mib` after the first sample fails
(exit status 1). The kernels: CSR + CSR into CSR (insertion), SpGEMM into CSR
(expand/compress), CSR -> CSC (conversion), dense -> COO, and a 2:4 result.

    python tools/check_leaks.py                  # 1M calls each (minutes)
    python tools/check_leaks.py --calls 100000   # quicker
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from test_sparse_outputs import SPGEMM, elementwise  # noqa: E402

CSR = "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>"
CSC = "#sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>"
COO = "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>"
NV_24 = (
    "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, "
    "j mod 4 : structured[2, 4]) }>"
)


def convert(src: str, dst: str) -> str:
    a = "tensor<?x?xf64>" if src == "dense" else f"tensor<?x?xf64, {src}>"
    b = f"tensor<?x?xf64, {dst}>"
    return f"""
func.func @f(%a: {a}) -> {b} {{
  %b = sparse_tensor.convert %a : {a} to {b}
  return %b : {b}
}}
"""


def resident_mib() -> float:
    """The resident set size of this process (Linux /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def check(
    name: str, call: Callable[[], Any], calls: int, keep: int, limit: float
) -> bool:
    for _ in range(1000):
        call()
    samples: list[float] = []
    start = time.perf_counter()
    step = max(calls // 10, 1)
    for i in range(calls):
        result = call()
        if i % keep == 0 and hasattr(result, "to_scipy"):
            result.to_scipy()
        if i % step == 0:
            samples.append(resident_mib())
    samples.append(resident_mib())
    growth = samples[-1] - samples[0]
    ok = growth <= limit
    print(
        f"{name:<22} {calls:>9} calls {time.perf_counter() - start:7.1f} s  "
        f"RSS {samples[0]:7.1f} -> {samples[-1]:7.1f} MiB "
        f"(max {max(samples):7.1f})  {'ok' if ok else 'LEAK'}"
    )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=1_000_000)
    parser.add_argument("--keep", type=int, default=100)
    parser.add_argument("--limit-mib", type=float, default=8.0)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    a = sp.random_array((40, 30), density=0.1, format="csr", rng=rng)
    b = sp.random_array((40, 30), density=0.1, format="csr", rng=rng)
    c = sp.random_array((30, 40), density=0.1, format="csr", rng=rng)
    dense = a.toarray()
    dense_24 = np.zeros((40, 32))
    dense_24[:, ::4] = rng.random((40, 8))
    add = xsparse.compile(elementwise("CSR", "CSR", "CSR", "arith.addf"))
    spgemm = xsparse.compile(SPGEMM)
    to_csc = xsparse.compile(convert(CSR, CSC))
    to_coo = xsparse.compile(convert("dense", COO))
    to_24 = xsparse.compile(convert("dense", NV_24))
    cases: list[tuple[str, Callable[[], Any]]] = [
        ("CSR + CSR -> CSR", lambda: add(a, b)),
        ("SpGEMM CSR -> CSR", lambda: spgemm(a, c)),
        ("CSR -> CSC", lambda: to_csc(a)),
        ("dense -> COO", lambda: to_coo(dense)),
        ("dense -> 2:4", lambda: to_24(dense_24)),
    ]
    ok = True
    for name, call in cases:
        ok &= check(name, call, args.calls, args.keep, args.limit_mib)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
