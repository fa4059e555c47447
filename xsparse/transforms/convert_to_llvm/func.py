"""func -> llvm, with MLIR's memref calling convention (mirrors `convert-func-to-llvm`).

Each memref argument is expanded into its descriptor fields (allocated ptr,
aligned ptr, offset, sizes..., strides...), an unranked memref into its rank
and descriptor pointer; results are returned as one value, or as a struct of
the converted results when there are several (memref results as descriptor
structs).

An external declaration with `llvm.emit_c_interface` (as MLIR's runner
utilities, e.g. `printMemrefF64`) gets a body, as in MLIR: it stores each
memref argument's descriptor on the stack and calls `_mlir_ciface_<name>`
with pointers to them (a struct result comes back through a pointer passed
first).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FunctionType,
    MemRefType,
    UnitAttr,
    UnrankedMemRefType,
    i64,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from xsparse.dialects.upstream.llvm import PoisonOp
from xsparse.transforms.convert_to_llvm.common import (
    NO_INLINE,
    PTR,
    UNRANKED_DESCRIPTOR,
    Descriptor,
    ToLLVMPattern,
    const,
    convert_type,
    declare_function,
    lowered,
    lowering,
    replace_with,
    restore,
)


def expanded_types(t: Attribute) -> list[Attribute]:
    """The llvm argument types that carry one source-level argument."""
    if isinstance(t, MemRefType):
        rank = t.get_num_dims()
        return [PTR, PTR, i64, *([i64] * (2 * rank))]
    if isinstance(t, UnrankedMemRefType):
        return [i64, PTR]
    return [convert_type(t)]


def result_type(outputs: Sequence[Attribute]) -> Attribute:
    """The llvm return type of a function with these source-level results."""
    if not outputs:
        return llvm.LLVMVoidType()
    if len(outputs) == 1:
        return convert_type(outputs[0])
    return llvm.LLVMStructType.from_type_list([convert_type(t) for t in outputs])


def llvm_function_type(function_type: FunctionType) -> llvm.LLVMFunctionType:
    inputs = [e for t in function_type.inputs.data for e in expanded_types(t)]
    return llvm.LLVMFunctionType(inputs, result_type(function_type.outputs.data))


def expand_operand(value: SSAValue, rewriter: PatternRewriter) -> list[SSAValue]:
    """A call operand as the llvm values of the calling convention."""
    converted = lowered(value, rewriter)
    t = value.type
    if isinstance(t, UnrankedMemRefType):
        return [
            _extract(converted, 0, i64, rewriter),
            _extract(converted, 1, PTR, rewriter),
        ]
    if not isinstance(t, MemRefType):
        return [converted]
    d = Descriptor(converted, rewriter)
    rank = t.get_num_dims()
    return (
        [d.allocated(), d.aligned(), d.offset()]
        + [d.size(i) for i in range(rank)]
        + [d.stride(i) for i in range(rank)]
    )


def _extract(
    value: SSAValue, position: int, t: Attribute, rewriter: PatternRewriter
) -> SSAValue:
    op = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [position]), value, t)
    rewriter.insert(op)
    return op.res


def _insert_fields(
    struct_type: Attribute, fields: Sequence[SSAValue], rewriter: PatternRewriter
) -> SSAValue:
    poison = PoisonOp(struct_type)
    rewriter.insert(poison)
    value: SSAValue = poison.res
    for i, field in enumerate(fields):
        op = llvm.InsertValueOp(DenseArrayBase.from_list(i64, [i]), value, field)
        rewriter.insert(op)
        value = op.res
    return value


def _assemble(
    t: Attribute, args: Sequence[SSAValue], rewriter: PatternRewriter
) -> SSAValue:
    """The converted value of a source-level argument from its expanded llvm arguments."""
    if isinstance(t, MemRefType):
        rank = t.get_num_dims()
        return Descriptor.build(
            rewriter,
            rank,
            args[0],
            args[1],
            args[2],
            args[3 : 3 + rank],
            args[3 + rank :],
        )
    if isinstance(t, UnrankedMemRefType):
        return _insert_fields(UNRANKED_DESCRIPTOR, args, rewriter)
    return args[0]


def _stack_slot(t: Attribute, rewriter: PatternRewriter) -> SSAValue:
    slot = llvm.AllocaOp(const(1, rewriter), t, alignment=8)
    rewriter.insert(slot)
    return slot.res


def _c_interface_body(
    op: func.FuncOp, function_type: llvm.LLVMFunctionType, rewriter: PatternRewriter
) -> Region:
    """The body MLIR gives a declaration with `llvm.emit_c_interface`: memref
    arguments passed to `_mlir_ciface_<name>` by pointer to a stack copy."""
    inputs = op.function_type.inputs.data
    outputs = op.function_type.outputs.data
    block = Block(arg_types=function_type.inputs.data)
    saved = rewriter.insertion_point
    rewriter.insertion_point = InsertPoint.at_end(block)
    args: list[SSAValue] = []
    position = 0
    for t in inputs:
        count = len(expanded_types(t))
        value = _assemble(t, block.args[position : position + count], rewriter)
        position += count
        if isinstance(t, MemRefType | UnrankedMemRefType):
            slot = _stack_slot(convert_type(cast(Attribute, t)), rewriter)
            rewriter.insert(llvm.StoreOp(value, slot))
            value = slot
        args.append(value)
    ret = result_type(outputs)
    by_pointer = isinstance(ret, llvm.LLVMStructType)
    result_slot = _stack_slot(ret, rewriter) if by_pointer else None
    callee_inputs = [a.type for a in args]
    if result_slot is not None:
        args.insert(0, result_slot)
        callee_inputs.insert(0, PTR)
    returns_value = not by_pointer and not isinstance(ret, llvm.LLVMVoidType)
    callee = "_mlir_ciface_" + op.sym_name.data
    declare_function(
        op,
        callee,
        llvm.LLVMFunctionType(callee_inputs, ret if returns_value else None),
    )
    call = llvm.CallOp(callee, *args, return_type=ret if returns_value else None)
    rewriter.insert(call)
    if result_slot is not None:
        load = llvm.LoadOp(result_slot, ret)
        rewriter.insert(load)
        rewriter.insert(llvm.ReturnOp(load.dereferenced_value))
    elif returns_value:
        assert call.returned is not None
        rewriter.insert(llvm.ReturnOp(call.returned))
    else:
        rewriter.insert(llvm.ReturnOp())
    rewriter.insertion_point = saved
    return Region(block)


class FuncToLLVM(ToLLVMPattern):
    """`func.func` -> `llvm.func`, memref arguments expanded into descriptor fields."""

    @lowering
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter) -> None:
        is_declaration = not op.body.blocks
        private = op.sym_visibility is not None and op.sym_visibility.data == "private"
        linkage = "internal" if private and not is_declaration else "external"
        body = Region()
        if not is_declaration:
            body = rewriter.move_region_contents_to_new_regions(op.body)
            entry = body.blocks[0]
            saved = rewriter.insertion_point
            rewriter.insertion_point = InsertPoint.at_start(entry)
            for arg in tuple(entry.args):
                t = arg.type
                new_args = [
                    entry.insert_arg(e, arg.index + k)
                    for k, e in enumerate(expanded_types(t))
                ]
                value = _assemble(t, new_args, rewriter)
                arg.replace_all_uses_with(
                    restore(value, t, rewriter, partial=self.partial)
                )
                entry.erase_arg(arg)
            rewriter.insertion_point = saved
        function_type = llvm_function_type(op.function_type)
        if is_declaration and isinstance(
            op.attributes.get("llvm.emit_c_interface"), UnitAttr
        ):
            body = _c_interface_body(op, function_type, rewriter)
            linkage = "internal" if private else linkage
        new_func = llvm.FuncOp(
            op.sym_name.data,
            function_type,
            linkage=llvm.LinkageAttr(linkage),
            body=body,
        )
        if NO_INLINE in op.attributes:
            new_func.attributes[NO_INLINE] = UnitAttr()
        rewriter.replace(op, new_func)


class ReturnToLLVM(ToLLVMPattern):
    """`func.return` -> `llvm.return` (several values packed into a struct)."""

    @lowering
    def match_and_rewrite(self, op: func.ReturnOp, rewriter: PatternRewriter) -> None:
        values = [lowered(v, rewriter) for v in op.arguments]
        if not values:
            rewriter.replace(op, llvm.ReturnOp())
            return
        if len(values) == 1:
            rewriter.replace(op, llvm.ReturnOp(values[0]))
            return
        struct_type = llvm.LLVMStructType.from_type_list([v.type for v in values])
        packed = _insert_fields(struct_type, values, rewriter)
        rewriter.replace(op, llvm.ReturnOp(packed))


class CallToLLVM(ToLLVMPattern):
    """`func.call` -> `llvm.call` with memref operands expanded, results unpacked."""

    @lowering
    def match_and_rewrite(self, op: func.CallOp, rewriter: PatternRewriter) -> None:
        args = [e for v in op.arguments for e in expand_operand(v, rewriter)]
        outputs = [r.type for r in op.results]
        ret = result_type(outputs)
        call = llvm.CallOp(
            op.callee,
            *args,
            return_type=None if isinstance(ret, llvm.LLVMVoidType) else ret,
        )
        if len(outputs) <= 1:
            # one output: the call returns it
            returned = [cast(SSAValue, call.returned)] if outputs else []
            replace_with(op, [call], returned, rewriter, partial=self.partial)
            return
        rewriter.insert(call)
        assert call.returned is not None
        extracts = [
            llvm.ExtractValueOp(
                DenseArrayBase.from_list(i64, [i]), call.returned, convert_type(t)
            )
            for i, t in enumerate(outputs)
        ]
        replace_with(
            op, extracts, [e.res for e in extracts], rewriter, partial=self.partial
        )


FUNC_PATTERNS: tuple[type[ToLLVMPattern], ...] = (FuncToLLVM, ReturnToLLVM, CallToLLVM)
