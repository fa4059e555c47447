"""View against copy bufferization of `subset.gather` (RFC: Bufferization, Copy, View).

Each kernel gathers K rows (or columns) of an N x D float64 matrix and sums
every gathered element: `gather copy` materializes the K slices in a fresh
buffer and the sum reads that buffer; `gather view` builds a jagged buffer of
K descriptors into the input (pointer copies only) and the sum reads through
it. A third pair of kernels only builds the subset and reads one element, to
isolate the cost of bufferization itself. Numbers are best-of-R wall times of
one kernel call (milliseconds), compiled with xsparse.compile at O3.

    python tools/bench_subset.py [--repeat 20]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

import xsparse

TEMPLATE = """
func.func @k(%m: memref<?x?xf64>, %idx: memref<?x1xindex>, %out: memref<1xf64>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %g = subset.gather {mode}(%m[%idx]) coordinates = [{coord}] :
    memref<?x?xf64>[memref<?x1xindex>] -> {result}
  %n = memref.dim %idx, %c0 : memref<?x1xindex>
  %w = memref.dim %m, %c{other} : memref<?x?xf64>
  {body}
  {free}
  return
}}
"""

SUM = """
  %s = scf.for %b = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {{
    %t = scf.for %k = %c0 to %w step %c1 iter_args(%a = %acc) -> (f64) {{
      %x = {load}
      %y = arith.addf %a, %x : f64
      scf.yield %y : f64
    }}
    scf.yield %t : f64
  }}
  memref.store %s, %out[%c0] : memref<1xf64>
"""

TOUCH = """
  %x = {load0}
  memref.store %x, %out[%c0] : memref<1xf64>
"""


def kernel(mode: str, coord: int, work: str) -> str:
    other = 1 - coord
    if mode == "copy":
        result = "memref<?x?xf64>"
        load = "memref.load %g[%b, %k] : memref<?x?xf64>"
        load0 = "memref.load %g[%c0, %c0] : memref<?x?xf64>"
        free = "memref.dealloc %g : memref<?x?xf64>"
    else:
        result = "!jagged.buffer<?xmemref<?xf64>>"
        load = "jagged.load %g[%b][%k] : !jagged.buffer<?xmemref<?xf64>>"
        load0 = "jagged.load %g[%c0][%c0] : !jagged.buffer<?xmemref<?xf64>>"
        free = "jagged.dealloc %g : !jagged.buffer<?xmemref<?xf64>>"
    body = SUM.format(load=load) if work == "sum" else TOUCH.format(load0=load0)
    return TEMPLATE.format(
        mode=mode, coord=coord, result=result, other=other, body=body, free=free
    )


def best(f: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(
        f"{'slices':8} {'N x D':>12} {'K':>6} {'work':>6} {'copy ms':>9} {'view ms':>9} {'copy/view':>9}"
    )
    for coord, name in ((0, "rows"), (1, "columns")):
        for n, d, k in ((4096, 64, 1024), (4096, 1024, 1024), (1024, 4096, 512)):
            shape = (n, d) if coord == 0 else (d, n)
            m = rng.random(shape)
            idx = rng.integers(0, n, (k, 1))
            for work in ("touch", "sum"):
                results = {}
                times = {}
                for mode in ("copy", "view"):
                    f = xsparse.compile(kernel(mode, coord, work))
                    out = np.zeros(1)
                    times[mode] = best(
                        lambda f=f, m=m, idx=idx, out=out: f(m, idx, out), args.repeat
                    )
                    results[mode] = out[0]
                assert np.isclose(results["copy"], results["view"]), results
                ratio = times["copy"] / times["view"]
                print(
                    f"{name:8} {f'{shape[0]}x{shape[1]}':>12} {k:>6} {work:>6} "
                    f"{times['copy']:9.3f} {times['view']:9.3f} {ratio:9.1f}"
                )


if __name__ == "__main__":
    main()
