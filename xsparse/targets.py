"""Output targets of `xsparse-opt -t NAME` that xDSL lacks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target


@dataclass(frozen=True)
class LLVMIRTarget(Target):
    """Prints a module of llvm dialect ops as LLVM IR text (xsparse's printer).

    Named `llvm-ir`: xDSL registers `llvm` (its llvmlite-builder converter) and
    the xDSL multiverse refuses a second target of the same name.
    """

    name = "llvm-ir"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from xsparse.backend.llvm_ir import module_to_llvm_ir

        output.write(module_to_llvm_ir(module))


@dataclass(frozen=True)
class LLVMTarget(LLVMIRTarget):
    """`xsparse-opt -t llvm`: the same printer under the name DESIGN.md gives it.

    Only xsparse-opt installs it (replacing xDSL's `llvm` there); the universe
    entry point keeps `llvm-ir` so that plain xdsl-opt still loads.
    """

    name = "llvm"


def get_llvm_ir_target() -> type[Target]:
    return LLVMIRTarget


def get_llvm_target() -> type[Target]:
    return LLVMTarget


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    return {"llvm-ir": get_llvm_ir_target}
