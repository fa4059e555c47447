"""`lower_to_llvm`: a memref-level module -> llvm dialect, with its signatures kept."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import AnyFloat, FunctionType, IntegerType, ModuleOp

from xsparse.backend.llvm_ir import module_to_llvm_ir
from xsparse.logs import COMPILE_LOGGER, log_time
from xsparse.transforms.convert_to_llvm import ConvertToLLVMPass


@dataclass
class LoweredModule:
    """A module in the llvm dialect plus the memref-level types of its public functions."""

    module: ModuleOp
    signatures: dict[str, FunctionType]
    _ir: dict[bool, str] = field(default_factory=dict[bool, str], repr=False)

    def llvm_ir(self, *, fast_math: bool = False) -> str:
        """The module as LLVM IR text (computed once per `fast_math`)."""
        text = self._ir.get(fast_math)
        if text is None:
            with log_time(COMPILE_LOGGER, "LLVM IR text printed"):
                text = module_to_llvm_ir(self.module, fast_math=fast_math)
            self._ir[fast_math] = text
        return text


def llvm_signatures(module: ModuleOp) -> dict[str, FunctionType]:
    """The types of the module's `llvm.func`s defined with external linkage
    and taking and returning only numbers (input already lowered, as
    `mlir-opt --sparsifier` or `xsparse-opt --sparsifier` print it: `@main`),
    as function types: no result for `void`. Pointers do not cross the
    Python boundary."""
    signatures: dict[str, FunctionType] = {}
    for op in module.ops:
        if not isinstance(op, llvm.FuncOp) or not op.body.blocks:
            continue
        if op.linkage.linkage.data not in ("external", ""):
            continue
        t = op.function_type
        outputs = [] if isinstance(t.output, llvm.LLVMVoidType) else [t.output]
        if not all(
            isinstance(a, IntegerType | AnyFloat) for a in (*t.inputs, *outputs)
        ):
            continue
        signatures[op.sym_name.data] = FunctionType.from_lists(list(t.inputs), outputs)
    return signatures


def lower_to_llvm(
    module: ModuleOp, *, in_place: bool = False, threads: bool = True
) -> LoweredModule:
    """Run `convert-to-llvm` on a clone of `module` (on `module` itself when
    `in_place`: its ops keep their source locations); remember public func types.
    `threads`: parallel loops run on xsparse's thread pool. A failed heap
    allocation is a MemoryError (`allocation_checks`)."""
    signatures = {
        op.sym_name.data: op.function_type
        for op in module.ops
        if isinstance(op, func.FuncOp)
        and op.body.blocks
        and (op.sym_visibility is None or op.sym_visibility.data == "public")
    }
    signatures.update(llvm_signatures(module))
    lowered = module if in_place else module.clone()
    with log_time(COMPILE_LOGGER, "convert-to-llvm"):
        ConvertToLLVMPass(threads=threads, allocation_checks=True).apply(
            Context(), lowered
        )
    return LoweredModule(lowered, signatures)
