"""Sparse concatenation of CSR matrices: xsparse against scipy and MLIR 22.

Four R x C CSR matrices with `nnz` entries each are stacked along rows
(`sparse_tensor.concatenate ... {dimension = 0}` against
`scipy.sparse.vstack(..., format="csr")`), two along columns (`dimension = 1`
against `scipy.sparse.hstack(..., format="csr")`). Rows `i32` use
`posWidth = 32, crdWidth = 32` encodings (zero-copy views of scipy's int32
buffers, like scipy's own result); rows `i64` use `index` overheads (int64
copies of the inputs, made once before timing; the result has twice scipy's
index bytes).

MLIR 22's kernel is the same `func.func`, called from a wrapper that
`sparse_tensor.assemble`s the operands from the same buffers and returns the
result's positions, coordinates and values (`mlir-opt-22
--sparsifier="enable-runtime-library=false"`, `mlir-translate-22`, then
`xsparse.backend.jit.compile` with O3 for the host, as `tools/bench_mlir.py`
does for the other kernels). Every result is checked against scipy's buffers
before timing.

Times are medians of interleaved rounds (one call of every contender per
round), CPU time of the calling thread by default (`--clock wall` for the
wall clock): the machine is shared. Each call allocates and fills its result,
so page faults (kernel time of the thread) are part of every contender's cost.

    python tools/bench_concat.py [--rows 250000 --cols 1000000 --nnz 2500000]
                                 [--repeat 5] [--widths 32,64] [--no-mlir]
                                 [--clock thread|wall]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    f64,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench  # noqa: E402
import bench_mlir  # noqa: E402

import xsparse  # noqa: E402
from xsparse.backend import jit  # noqa: E402
from xsparse.backend.sparse_storage import SparseTensor  # noqa: E402


def encoding(width: int) -> str:
    widths = f", posWidth = {width}, crdWidth = {width}" if width == 32 else ""
    return (
        "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed)"
        f"{widths} }}>"
    )


def tensor_type(shape: tuple[int, int]) -> str:
    return f"tensor<{shape[0]}x{shape[1]}xf64, #CSR>"


def concat_source(shapes: Sequence[tuple[int, int]], dim: int, width: int) -> str:
    """`@concat`: the operands of these shapes concatenated along `dim`."""
    rows = sum(s[0] for s in shapes) if dim == 0 else shapes[0][0]
    cols = sum(s[1] for s in shapes) if dim == 1 else shapes[0][1]
    args = ", ".join(f"%a{i}: {tensor_type(s)}" for i, s in enumerate(shapes))
    names = ", ".join(f"%a{i}" for i in range(len(shapes)))
    types = ", ".join(tensor_type(s) for s in shapes)
    result = tensor_type((rows, cols))
    return f"""#CSR = {encoding(width)}
func.func @concat({args}) -> {result} {{
  %r = sparse_tensor.concatenate {names} {{dimension = {dim} : index}}
    : {types} to {result}
  return %r : {result}
}}
"""


def mlir_wrapper(shapes: Sequence[tuple[int, int]], dim: int, width: int) -> str:
    """`@concat` made private and `@wrap`, which assembles each operand from its
    positions, coordinates and values and returns the result's buffers and
    number of entries."""
    kernel = concat_source(shapes, dim, width).replace(
        "func.func @concat", "func.func private @concat"
    )
    over = f"i{width}" if width == 32 else "index"
    buf = f"tensor<?x{over}>"
    params: list[str] = []
    body: list[str] = []
    for i, s in enumerate(shapes):
        params += [f"%p{i}: {buf}", f"%c{i}: {buf}", f"%v{i}: tensor<?xf64>"]
        body.append(
            f"  %a{i} = sparse_tensor.assemble (%p{i}, %c{i}), %v{i} : "
            f"({buf}, {buf}), tensor<?xf64> to {tensor_type(s)}"
        )
    rows = sum(s[0] for s in shapes) if dim == 0 else shapes[0][0]
    cols = sum(s[1] for s in shapes) if dim == 1 else shapes[0][1]
    result = tensor_type((rows, cols))
    names = ", ".join(f"%a{i}" for i in range(len(shapes)))
    types = ", ".join(tensor_type(s) for s in shapes)
    mem = f"memref<?x{over}>"
    body += [
        f"  %r = func.call @concat({names}) : ({types}) -> {result}",
        f"  %pos = sparse_tensor.positions %r {{level = 1 : index}} : {result} to {mem}",
        f"  %crd = sparse_tensor.coordinates %r {{level = 1 : index}} : {result} to {mem}",
        f"  %val = sparse_tensor.values %r : {result} to memref<?xf64>",
        f"  %n = sparse_tensor.number_of_entries %r : {result}",
        f"  return %pos, %crd, %val, %n : {mem}, {mem}, memref<?xf64>, index",
    ]
    return (
        kernel
        + f"func.func @wrap({', '.join(params)}) -> ({mem}, {mem}, memref<?xf64>, index) {{\n"
        + "\n".join(body)
        + "\n}\n"
    )


def mlir_kernel(
    shapes: Sequence[tuple[int, int]], dim: int, width: int
) -> Callable[..., Any]:
    """MLIR 22's compiled `@wrap`."""
    text = mlir_wrapper(shapes, dim, width)
    lowered, _ = bench_mlir._run([bench_mlir.MLIR_OPT, bench_mlir.SPARSIFIER], text)
    llvm_ir, _ = bench_mlir._run(
        [bench_mlir.MLIR_TRANSLATE, "--mlir-to-llvmir"], lowered
    )
    over = IntegerType(width) if width == 32 else IndexType()
    buf = MemRefType(over, [DYNAMIC_INDEX])
    values = MemRefType(f64, [DYNAMIC_INDEX])
    signature = FunctionType.from_lists(
        [buf, buf, values] * len(shapes), [buf, buf, values, IndexType()]
    )
    module = jit.compile(llvm_ir, signatures={"wrap": signature})
    return module.function("wrap")


def operand(matrix: sp.csr_array, width: int) -> SparseTensor:
    """The matrix as level buffers (zero-copy for width 32)."""
    if width == 32:
        pos: Any = matrix.indptr.view(np.uint32)
        crd: Any = matrix.indices.view(np.uint32)
    else:
        pos, crd = matrix.indptr.astype(np.int64), matrix.indices.astype(np.int64)
    return SparseTensor(
        encoding(width), matrix.shape, [None, pos], [None, crd], matrix.data
    )


def signed(a: Any) -> Any:
    return a.view(np.dtype(f"i{a.dtype.itemsize}")) if a.dtype.kind == "u" else a


def same_storage(got: Sequence[Any], want: sp.csr_array) -> bool:
    pos, crd, val = got
    return (
        np.array_equal(pos.astype(np.int64), want.indptr)
        and np.array_equal(crd.astype(np.int64), want.indices)
        and np.array_equal(val, want.data)
    )


@dataclass
class Row:
    case: str
    width: int
    scipy_ms: float
    xsparse_ms: float
    mlir_ms: float | None


def run_case(
    name: str,
    mats: list[sp.csr_array],
    dim: int,
    width: int,
    repeat: int,
    with_mlir: bool,
    clock: str,
) -> Row:
    stack = sp.vstack if dim == 0 else sp.hstack

    def scipy_call() -> Any:
        return stack(mats, format="csr")

    want = scipy_call()
    want.sort_indices()
    shapes = [(int(m.shape[0]), int(m.shape[1])) for m in mats]
    kernel = xsparse.compile(concat_source(shapes, dim, width))
    args = [operand(m, width) for m in mats]
    result = kernel(*args)
    got = (result.positions[1], result.coordinates[1], result.values)
    assert same_storage(got, want), f"{name} i{width}: xsparse differs from scipy"
    del result

    def xsparse_call() -> Any:
        return kernel(*args)

    calls: list[Callable[[], Any]] = [scipy_call, xsparse_call]
    if with_mlir:
        native = mlir_kernel(shapes, dim, width)
        flat = [
            signed(b)
            for t in args
            for b in (t.positions[1], t.coordinates[1], t.values)
        ]
        rows = int(want.shape[0])
        pos, crd, val, n = native(*flat)
        assert same_storage((pos[: rows + 1], crd[:n], val[:n]), want), (
            f"{name} i{width}: MLIR differs from scipy"
        )
        del pos, crd, val

        def mlir_call() -> Any:
            return native(*flat)

        calls.append(mlir_call)
    times = bench.interleaved_medians(calls, repeat, clock)
    return Row(
        name,
        width,
        times[0] * 1e3,
        times[1] * 1e3,
        times[2] * 1e3 if with_mlir else None,
    )


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--rows", type=int, default=250_000)
    parser.add_argument("--cols", type=int, default=1_000_000)
    parser.add_argument("--nnz", type=int, default=2_500_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--widths", default="32,64")
    parser.add_argument("--no-mlir", action="store_true")
    parser.add_argument("--clock", choices=("thread", "wall"), default="thread")
    args = parser.parse_args(argv)
    with_mlir = not args.no_mlir and bench_mlir.mlir_available()
    rng = np.random.default_rng(0)
    mats = [
        bench.random_csr(rng, args.rows, args.cols, args.nnz, "uniform")
        for _ in range(4)
    ]
    print(
        f"{args.rows} x {args.cols}, {args.nnz} nnz per operand; "
        f"median {args.clock} ms; ratios: time / xsparse time"
    )
    print(
        f"{'case':24} {'width':>5} {'scipy':>9} {'xsparse':>9} {'MLIR':>9}"
        f" {'scipy/xs':>9} {'MLIR/xs':>9}"
    )
    rows: list[Row] = []
    for width in (int(w) for w in args.widths.split(",")):
        for name, operands, dim in (
            ("vstack 4 (dim 0)", mats, 0),
            ("hstack 2 (dim 1)", mats[:2], 1),
        ):
            r = run_case(name, operands, dim, width, args.repeat, with_mlir, args.clock)
            rows.append(r)
            mlir = "-" if r.mlir_ms is None else f"{r.mlir_ms:9.1f}"
            mlir_ratio = (
                "-" if r.mlir_ms is None else f"{r.mlir_ms / r.xsparse_ms:9.2f}"
            )
            print(
                f"{r.case:24} {'i' + str(r.width):>5} {r.scipy_ms:9.1f} "
                f"{r.xsparse_ms:9.1f} {mlir:>9} {r.scipy_ms / r.xsparse_ms:9.2f} "
                f"{mlir_ratio:>9}",
                flush=True,
            )
    return rows


if __name__ == "__main__":
    main()
