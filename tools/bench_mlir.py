"""Build MLIR 22's own compiled kernel for an xsparse kernel source.

The kernel's `func.func` is kept as is (made private) and called from a
generated wrapper `@xs_bench_wrap` that takes only dense tensors: for each
sparse argument its level buffers (positions / coordinates per level, as
`sparse_tensor.assemble` wants them, then the values), for each dense argument
the tensor itself. The wrapper assembles the sparse tensor zero-copy (MLIR 22's
`assemble` needs a static shape, so the wrapper is built per shape and the
tensor is `tensor.cast` back to the kernel's dynamic type), calls the kernel and
returns its results. A sparse result (of a conversion, or built by insertion
into a `tensor.empty` output: sparse add, SpGEMM with expand/compress) comes
back as its level buffers (positions / coordinates per level, then the values:
MLIR's `--sparse-assembler=direct-out=true` on the wrapper), views cut to the
used sizes, which numpy owns and frees like xsparse's own results. Then:

    mlir-opt-22 --sparse-assembler=direct-out=true --sparsifier="enable-runtime-library=false"
    mlir-translate-22 --mlir-to-llvmir

and the LLVM IR goes through `xsparse.backend.jit.compile` (llvmlite, O3 for the
host, like xsparse's own kernels), so that a comparison measures the generated
code, not the backend. The kernel is marked `noinline` in the LLVM IR so that
the wrapper's static sizes are not propagated into it: it runs the same
dynamic-shape code as xsparse's kernel.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FunctionType,
    MemRefType,
    TensorType,
)
from xdsl.ir import Attribute

from xsparse.backend import jit
from xsparse.backend.abi import NativeFunction
from xsparse.backend.kernel import entry_function
from xsparse.backend.sparse_storage import SparseTensor
from xsparse.diagnostics import parse_module
from xsparse.dialect_registry import make_context
from xsparse.dialects.sparse_tensor.storage import sparse_encoding, storage_fields

WRAPPER = "xs_bench_wrap"
MLIR_OPT = "mlir-opt-22"
MLIR_TRANSLATE = "mlir-translate-22"
SPARSIFIER = "--sparsifier=enable-runtime-library=false"
ASSEMBLER = "--sparse-assembler=direct-out=true"


def mlir_available() -> bool:
    """Whether MLIR 22's tools are on PATH."""
    return (
        shutil.which(MLIR_OPT) is not None and shutil.which(MLIR_TRANSLATE) is not None
    )


def _type_text(t: Attribute) -> str:
    return str(t)


def _buffer_tensor(memref: Attribute) -> str:
    """`tensor<?xT>` for a level buffer whose storage type is `memref<?xT>`."""
    assert isinstance(memref, MemRefType)
    return f"tensor<?x{memref.element_type}>"


def _static(t: TensorType[Attribute], shape: Sequence[int]) -> str:
    """The text of `t` with its dynamic sizes replaced by `shape`."""
    text = _type_text(t)
    dims = "x".join(str(s) for s in shape)
    head, rest = text.split("<", 1)
    body = rest[:-1]
    # Drop the leading dimension list ("?x?x" or "4x?x").
    parts = body.split("x")
    rank = t.get_num_dims()
    element_and_encoding = "x".join(parts[rank:])
    prefix = f"{dims}x" if rank else ""
    return f"{head}<{prefix}{element_and_encoding}>"


def _memref_of(t: Attribute) -> Attribute:
    """The memref type a dense tensor type bufferizes to at the function boundary."""
    assert isinstance(t, TensorType)
    return MemRefType(t.element_type, t.get_shape())


def _result_memrefs(t: Attribute) -> list[Attribute]:
    """What a result of type `t` is at the wrapper's boundary: a dense tensor's
    memref, or a sparse tensor's level buffers and values (direct-out)."""
    assert isinstance(t, TensorType)
    if sparse_encoding(t) is None:
        return [_memref_of(t)]
    return [
        MemRefType(f.type.element_type, [DYNAMIC_INDEX])
        for f in storage_fields(t)
        if isinstance(f.type, MemRefType)
    ]


@dataclass
class MLIRKernel:
    """MLIR 22's compiled kernel: call it with the same arguments as the xsparse kernel."""

    native: NativeFunction
    sparse_args: list[bool]
    mlir_source: str
    llvm_ir: str
    opt_seconds: float
    translate_seconds: float
    jit_seconds: float

    def buffers(self, args: Sequence[Any]) -> list[Any]:
        """The wrapper's arguments: level buffers of sparse tensors, dense arrays as is."""
        flat: list[Any] = []
        for arg, sparse in zip(args, self.sparse_args, strict=True):
            if sparse:
                assert isinstance(arg, SparseTensor)
                flat.extend(
                    _signed(b)
                    for b in (*_interleave(arg.positions, arg.coordinates), arg.values)
                    if b is not None
                )
            else:
                flat.append(arg)
        return flat

    def __call__(self, *args: Any) -> Any:
        return self.native(*self.buffers(args))


def _signed(array: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """An unsigned level buffer viewed as the signed integers MLIR's memref<?xiN> holds."""
    if array.dtype.kind == "u":
        return array.view(np.dtype(f"i{array.dtype.itemsize}"))
    return array


def _interleave(
    positions: Sequence[Any | None], coordinates: Sequence[Any | None]
) -> list[Any | None]:
    out: list[Any | None] = []
    for p, c in zip(positions, coordinates, strict=True):
        out += [p, c]
    return out


def wrapper_source(
    source: str, entry: str, shapes: Sequence[Sequence[int] | None]
) -> tuple[str, FunctionType, list[bool]]:
    """The kernel made private plus `@xs_bench_wrap`, its memref-level signature,
    and which arguments are sparse. `shapes[i]` is the shape of sparse argument i
    (None for dense ones)."""
    module = parse_module(make_context(), source, "<bench>")
    function: func.FuncOp = entry_function(module, entry, source)
    inputs = list(function.function_type.inputs.data)
    outputs = list(function.function_type.outputs.data)
    params: list[str] = []
    param_types: list[Attribute] = []
    body: list[str] = []
    call_args: list[str] = []
    sparse_args: list[bool] = []
    for i, t in enumerate(inputs):
        assert isinstance(t, TensorType)
        if sparse_encoding(t) is None:
            params.append(f"%d{i}: {_type_text(t)}")
            param_types.append(_memref_of(t))
            call_args.append(f"%d{i}")
            sparse_args.append(False)
            continue
        sparse_args.append(True)
        shape = shapes[i]
        assert shape is not None, f"argument {i} is sparse: give its shape"
        names: list[str] = []
        tensor_types: list[str] = []
        for k, field in enumerate(storage_fields(t)):
            if field.kind == "level_size":
                continue
            name = f"%b{i}_{k}"
            params.append(f"{name}: {_buffer_tensor(field.type)}")
            assert isinstance(field.type, MemRefType)
            param_types.append(MemRefType(field.type.element_type, [DYNAMIC_INDEX]))
            names.append(name)
            tensor_types.append(_buffer_tensor(field.type))
        levels, values = names[:-1], names[-1]
        static = _static(t, shape)
        body.append(
            f"  %s{i} = sparse_tensor.assemble ({', '.join(levels)}), {values} : "
            f"({', '.join(tensor_types[:-1])}), {tensor_types[-1]} to {static}"
        )
        body.append(f"  %a{i} = tensor.cast %s{i} : {static} to {_type_text(t)}")
        call_args.append(f"%a{i}")
    results = ", ".join(_type_text(t) for t in outputs)
    result_names = ", ".join(f"%r#{k}" for k in range(len(outputs)))
    in_types = ", ".join(_type_text(t) for t in inputs)
    body.append(
        f"  %r:{len(outputs)} = func.call @{entry}({', '.join(call_args)}) : "
        f"({in_types}) -> ({results})"
    )
    body.append(f"  func.return {result_names} : {results}")
    private = re.sub(
        rf"func\.func\s+@{entry}\b", f"func.func private @{entry}", source, count=1
    )
    wrapper = (
        f"func.func @{WRAPPER}({', '.join(params)}) -> ({results}) {{\n"
        + "\n".join(body)
        + "\n}\n"
    )
    signature = FunctionType.from_lists(
        param_types, [m for t in outputs for m in _result_memrefs(t)]
    )
    return private + "\n" + wrapper, signature, sparse_args


OPENMP_FIRST_STEP = (
    "--sparsification-and-bufferization=parallelization-strategy=any-storage-outer-loop",
    "--sparse-storage-specifier-to-llvm",
)
OPENMP_RUNTIME = "/usr/lib/llvm-22/lib/libomp.so"
"""LLVM's OpenMP runtime (Debian's libomp-22-dev), for MLIR's OpenMP kernels."""


def openmp_runtime() -> Any:
    """LLVM's OpenMP runtime loaded for the JIT (its `__kmpc_*` symbols), as a
    ctypes library (`omp_set_num_threads`); None where it is not installed."""
    import ctypes
    import os

    import llvmlite.binding as llvm

    if not os.path.exists(OPENMP_RUNTIME):
        return None
    llvm.load_library_permanently(OPENMP_RUNTIME)
    return ctypes.CDLL(OPENMP_RUNTIME)


def _run(cmd: list[str], text: str) -> tuple[str, float]:
    start = time.perf_counter()
    done = subprocess.run(cmd, input=text, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stderr}")
    return done.stdout, seconds


def no_inline(llvm_ir: str, name: str) -> str:
    """Mark `define ... @name(` noinline (keeps the kernel's shapes dynamic at O3)."""
    pattern = re.compile(
        rf"^(define [^\n]*@{re.escape(name)}\([^\n]*\))([^\n]*)\{{", re.M
    )
    match = pattern.search(llvm_ir)
    if match is None:
        raise ValueError(f"no definition of @{name} in the LLVM IR")
    return (
        llvm_ir[: match.start()]
        + f"{match.group(1)} noinline{match.group(2)}{{"
        + llvm_ir[match.end() :]
    )


def build(
    source: str,
    entry: str,
    shapes: Sequence[Sequence[int] | None],
    *,
    opt_level: int = 3,
    openmp: bool = False,
) -> MLIRKernel:
    """MLIR 22's kernel for `source` (sparse arguments of the given shapes),
    JIT-compiled. `openmp`: parallel loops on LLVM's OpenMP runtime
    (`openmp_runtime()`, loaded into the process). MLIR 22's `--sparsifier`
    has lost its `enable-openmp` option, so the pipeline is run in two steps:
    sparsification and bufferization with `parallelization-strategy=
    any-storage-outer-loop`, then `--convert-scf-to-openmp` and the rest of
    the sparsifier."""
    text, signature, sparse_args = wrapper_source(source, entry, shapes)
    if openmp:
        openmp_runtime()
        parallel, first_seconds = _run([MLIR_OPT, ASSEMBLER, *OPENMP_FIRST_STEP], text)
        lowered, opt_seconds = _run(
            [MLIR_OPT, "--convert-scf-to-openmp", SPARSIFIER], parallel
        )
        opt_seconds += first_seconds
    else:
        lowered, opt_seconds = _run([MLIR_OPT, ASSEMBLER, SPARSIFIER], text)
    llvm_ir, translate_seconds = _run([MLIR_TRANSLATE, "--mlir-to-llvmir"], lowered)
    llvm_ir = no_inline(llvm_ir, entry)
    start = time.perf_counter()
    module = jit.compile(llvm_ir, opt_level=opt_level, signatures={WRAPPER: signature})
    native = module.function(WRAPPER)
    jit_seconds = time.perf_counter() - start
    return MLIRKernel(
        native, sparse_args, text, llvm_ir, opt_seconds, translate_seconds, jit_seconds
    )
