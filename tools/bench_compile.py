"""Compile-time and call-overhead benchmark of the native backend.

Measures: convert-to-llvm on a generated module of about 2,000 ops; LLVM IR
printing; jit.compile of CSR SpMV cold (empty disk cache), from the disk cache
(new memory cache) and from the memory cache; the per-call overhead of a
function with 3 memref arguments and an empty body.

    python tools/bench_compile.py
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from xsparse.backend import jit, lower_to_llvm
from xsparse.dialect_registry import make_context

SPMV = (
    Path(__file__).parents[1] / "tests" / "kernels" / "memref" / "spmv.mlir"
).read_text()

EMPTY = """
func.func @empty(%a: memref<?xf64>, %b: memref<?x?xf32>, %c: memref<?xindex>) {
  return
}
"""


def big_module(blocks: int) -> str:
    """`blocks` copies of a 20-op loop body over memrefs, in one function."""
    body: list[str] = []
    for k in range(blocks):
        body.append(
            f"""
  %s{k} = scf.for %i{k} = %c0 to %n step %c1 iter_args(%acc{k} = %zero) -> (f64) {{
    %p{k} = memref.load %pos[%i{k}] : memref<?xindex>
    %q{k} = arith.addi %p{k}, %c1 : index
    %v{k} = memref.load %val[%q{k}] : memref<?xf64>
    %w{k} = arith.mulf %v{k}, %v{k} : f64
    %t{k} = arith.index_cast %p{k} : index to i64
    %f{k} = arith.sitofp %t{k} : i64 to f64
    %g{k} = arith.addf %w{k}, %f{k} : f64
    %b{k} = arith.cmpf olt, %g{k}, %acc{k} : f64
    %h{k} = arith.select %b{k}, %g{k}, %acc{k} : f64
    %m{k} = arith.maximumf %h{k}, %w{k} : f64
    memref.store %m{k}, %out[%i{k}] : memref<?xf64>
    %r{k} = arith.addf %acc{k}, %m{k} : f64
    scf.yield %r{k} : f64
  }}"""
        )
    return (
        "func.func @big(%pos: memref<?xindex>, %val: memref<?xf64>, %out: memref<?xf64>) -> f64 {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %zero = arith.constant 0.0 : f64\n"
        "  %n = memref.dim %out, %c0 : memref<?xf64>\n"
        + "".join(body)
        + f"\n  return %s{blocks - 1} : f64\n}}\n"
    )


def parse(text: str) -> ModuleOp:
    ctx = make_context()
    return Parser(ctx, text).parse_module()


def best(f: Callable[[], object], repeat: int = 5) -> float:
    times: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    module = parse(big_module(140))
    n_ops = sum(1 for _ in module.walk())
    lowering = best(lambda: lower_to_llvm(module))
    lowered = lower_to_llvm(module)
    n_llvm = sum(1 for _ in lowered.module.walk())
    printing = best(lambda: lowered._ir.clear() or lowered.llvm_ir(), repeat=3)
    print(
        f"convert-to-llvm: {n_ops} ops -> {n_llvm} llvm ops in {lowering * 1e3:.1f} ms"
    )
    print(f"LLVM IR printing: {printing * 1e3:.1f} ms")

    spmv = lower_to_llvm(parse(SPMV))
    with tempfile.TemporaryDirectory() as cache:
        import os

        os.environ["XSPARSE_CACHE_DIR"] = cache
        start = time.perf_counter()
        jit.compile(spmv)
        cold = time.perf_counter() - start
        jit.clear_memory_cache()
        start = time.perf_counter()
        jit.compile(spmv)
        disk = time.perf_counter() - start
        start = time.perf_counter()
        jit.compile(spmv)
        memory = time.perf_counter() - start
    print(
        f"jit.compile SpMV: cold {cold * 1e3:.1f} ms, disk cache {disk * 1e3:.2f} ms, "
        f"memory cache {memory * 1e6:.1f} us"
    )

    f = jit.compile(lower_to_llvm(parse(EMPTY))).function("empty")
    a = np.zeros(10)
    b = np.zeros((3, 4), np.float32)
    c = np.zeros(5, np.int64)
    calls = 100_000
    start = time.perf_counter()
    for _ in range(calls):
        f(a, b, c)
    per_call = (time.perf_counter() - start) / calls
    print(f"call overhead, 3 memref args: {per_call * 1e6:.2f} us")


if __name__ == "__main__":
    main()
