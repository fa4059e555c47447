"""`define-runtime-error`: the lowered module reports bad run-time data itself.

Compiled code reports bad run-time data by calling `xsparse_runtime_error`
with the address of a message (`Emitter.runtime_error`); xsparse's runtime
defines it (the Python caller raises a ValueError; `xsparse-run` prints and
exits). A module run elsewhere, by `mlir-runner`, has no such symbol. This
pass gives the declaration a body of libc calls that does what MLIR's own
runtime does on bad data: flush stdout, print `error: <message>` on stderr
and exit with status 1. `--sparsifier` runs it last, so that its output runs
under `mlir-runner-22` as under `xsparse-run`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    i8,
    i32,
    i64,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from xsparse.transforms.convert_to_llvm.common import PTR, declare_function
from xsparse.transforms.runtime_symbols import RUNTIME_ERROR

PREFIX = "error: "
PREFIX_GLOBAL = "xsparse_runtime_error_prefix"
NEWLINE_GLOBAL = "xsparse_runtime_error_newline"
STDERR = 2

LIBC: dict[str, llvm.LLVMFunctionType] = {
    "fflush": llvm.LLVMFunctionType([PTR], i32),
    "strlen": llvm.LLVMFunctionType([PTR], i64),
    "write": llvm.LLVMFunctionType([i32, PTR, i64], i64),
    "exit": llvm.LLVMFunctionType([i32]),
}
"""The libc functions the body calls, with their LLVM types."""


def _text(name: str, text: str) -> llvm.GlobalOp:
    return llvm.GlobalOp(
        llvm.LLVMArrayType(len(text), i8),
        name,
        "internal",
        constant=True,
        value=StringAttr(text),
    )


def _body() -> Region:
    """`fflush(NULL); write(2, "error: ", 7); write(2, m, strlen(m));
    write(2, "\\n", 1); exit(1)`."""
    block = Block(arg_types=[i64])
    ops: list[Operation] = []

    def add(op: Operation) -> SSAValue:
        ops.append(op)
        return op.results[0]

    def constant(value: int, t: IntegerType = i32) -> SSAValue:
        return add(llvm.ConstantOp(IntegerAttr(value, t), t))

    null = add(llvm.ZeroOp(result_types=[PTR]))
    ops.append(llvm.CallOp("fflush", null, return_type=i32))
    stderr = constant(STDERR)
    message = add(llvm.IntToPtrOp(block.args[0]))
    length = add(llvm.CallOp("strlen", message, return_type=i64))
    for pointer, size in (
        (add(llvm.AddressOfOp(PREFIX_GLOBAL, PTR)), constant(len(PREFIX), i64)),
        (message, length),
        (add(llvm.AddressOfOp(NEWLINE_GLOBAL, PTR)), constant(1, i64)),
    ):
        ops.append(llvm.CallOp("write", stderr, pointer, size, return_type=i64))
    ops.append(llvm.CallOp("exit", constant(1)))
    ops.append(llvm.UnreachableOp())
    block.add_ops(ops)
    return Region(block)


@dataclass(frozen=True)
class DefineRuntimeErrorPass(ModulePass):
    """Gives a declared `xsparse_runtime_error` a body (see the module)."""

    name = "define-runtime-error"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        declaration = next(
            (
                f
                for f in op.ops
                if isinstance(f, llvm.FuncOp)
                and f.sym_name.data == RUNTIME_ERROR
                and not f.body.blocks
            ),
            None,
        )
        if declaration is None:
            return
        for name, function_type in LIBC.items():
            declare_function(declaration, name, function_type)
        module_end = InsertPoint.at_end(op.body.block)
        Rewriter.insert_op(_text(PREFIX_GLOBAL, PREFIX), module_end)
        Rewriter.insert_op(_text(NEWLINE_GLOBAL, "\n"), module_end)
        definition = llvm.FuncOp(
            RUNTIME_ERROR,
            declaration.function_type,
            linkage=llvm.LinkageAttr("internal"),
            body=_body(),
        )
        Rewriter.replace_op(declaration, definition)
