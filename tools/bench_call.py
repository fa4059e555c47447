"""Per-call overhead of compiled kernels, step by step.

Measures, in microseconds per call (best of several `timeit` repeats):

- the building blocks of argument conversion (numpy attribute access, ctypes
  buffers, struct packing), to show where the time of a call goes;
- `NativeFunction` with 3 memref arguments and an empty body;
- the native SpMV of `tests/kernels/spmv_csr.mlir` (5 memrefs + 2 index
  arguments, a memref result), called directly with the level buffers;
- the `Kernel` of that file called with a 4x4 CSR `SparseTensor` and numpy
  vectors (all checks included), and with a scipy CSR array (converted per call).

The "before" column was measured on this tool's first machine at commit
621f0c5 (per-call `ndarray.ctypes.data`, `create_string_buffer`, new storage
views and encoding comparisons on every call); compare it with "now" only
on the same machine.

    python tools/bench_call.py [--json]
"""

from __future__ import annotations

import ctypes
import json
import struct
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from xdsl.parser import Parser

import xsparse
from xsparse.backend import jit, lower_to_llvm
from xsparse.dialect_registry import make_context

ROOT = Path(__file__).resolve().parent.parent

EMPTY = """
func.func @empty(%a: memref<?xf64>, %b: memref<?x?xf32>, %c: memref<?xindex>) {
  return
}
"""


BEFORE: dict[str, float] = {
    "ndarray.ctypes.data": 1.6,
    "ndarray.__array_interface__['data'][0]": 1.7,
    "ctypes.create_string_buffer(96)": 0.3,
    "Struct.pack_into, 12 slots": 0.3,
    "NativeFunction, 3 memrefs (empty body)": 16.0,
    "NativeFunction, SpMV (5 memrefs + 2 index, memref result)": 40.8,
    "SparseTensor.storage()": 1.9,
    "Kernel, SpMV, 4x4 CSR SparseTensor": 60.3,
    "Kernel, SpMV, 4x4 scipy csr_array (converted per call)": 183.0,
}
"""us/call at commit 621f0c5 (see the module docstring)."""


def best_us(f: Callable[[], object], number: int = 20000, repeat: int = 7) -> float:
    """Best time of one call of `f`, in microseconds."""
    f()
    return min(timeit.repeat(f, number=number, repeat=repeat)) / number * 1e6


def compile_memref_module(text: str) -> jit.JITModule:
    ctx = make_context()
    return jit.compile(lower_to_llvm(Parser(ctx, text).parse_module()))


def measure() -> dict[str, float]:
    rows: dict[str, float] = {}
    a = np.zeros(4)
    b = np.zeros((2, 3), np.float32)
    c = np.zeros(4, np.int64)

    # Building blocks.
    rows["ndarray.ctypes.data"] = best_us(lambda: a.ctypes.data)
    rows["ndarray.__array_interface__['data'][0]"] = best_us(
        lambda: a.__array_interface__["data"][0]
    )
    rows["ctypes.create_string_buffer(96)"] = best_us(
        lambda: ctypes.create_string_buffer(96)
    )
    packer = struct.Struct("<" + "q" * 12)
    buffer = ctypes.create_string_buffer(packer.size)
    values = tuple(range(12))
    rows["Struct.pack_into, 12 slots"] = best_us(
        lambda: packer.pack_into(buffer, 0, *values)
    )

    # NativeFunction, 3 memref arguments, empty body.
    empty = compile_memref_module(EMPTY).function("empty")
    rows["NativeFunction, 3 memrefs (empty body)"] = best_us(lambda: empty(a, b, c))

    # The SpMV kernel of tests/kernels/spmv_csr.mlir.
    kernel = xsparse.compile((ROOT / "tests/kernels/spmv_csr.mlir").read_text())
    dense = np.array(
        [[1.0, 0, 0, 2], [0, 0, 3, 0], [0, 4, 0, 0], [5, 0, 0, 6]], np.float64
    )
    matrix = sp.csr_array(dense)
    tensor = xsparse.SparseTensor.from_scipy(matrix)
    x = np.arange(4, dtype=np.float64)
    y = np.zeros(4)
    storage = tensor.storage()
    native = kernel._native  # noqa: SLF001 (the NativeFunction behind the Kernel)
    rows["NativeFunction, SpMV (5 memrefs + 2 index, memref result)"] = best_us(
        lambda: native(*storage, x, y)
    )
    rows["SparseTensor.storage()"] = best_us(tensor.storage)
    rows["Kernel, SpMV, 4x4 CSR SparseTensor"] = best_us(lambda: kernel(tensor, x, y))
    rows["Kernel, SpMV, 4x4 scipy csr_array (converted per call)"] = best_us(
        lambda: kernel(matrix, x, y), number=2000
    )
    np.testing.assert_allclose(kernel(tensor, x, np.zeros(4)), dense @ x)
    return rows


def main() -> None:
    rows = measure()
    if "--json" in sys.argv:
        print(json.dumps(rows, indent=1))
        return
    width = max(map(len, rows))
    print(f"{'us per call':<{width}}   before      now")
    for name, us in rows.items():
        before = BEFORE.get(name)
        was = f"{before:9.1f}" if before is not None else " " * 9
        print(f"{name:<{width}}  {was}  {us:7.2f}")


if __name__ == "__main__":
    main()
