"""func -> llvm, with MLIR's memref calling convention (mirrors `convert-func-to-llvm`).

Each memref argument is expanded into its descriptor fields (allocated ptr,
aligned ptr, offset, sizes..., strides...); results are returned as one
value, or as a struct of the converted results when there are several
(memref results as descriptor structs).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import DenseArrayBase, MemRefType, i64
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from xsparse.dialects.xdsl_ext import PoisonOp
from xsparse.transforms.convert_to_llvm.common import (
    PTR,
    Descriptor,
    convert_type,
    lowered,
    lowering,
    replace_with,
    restore,
)


def expanded_types(t: Attribute) -> list[Attribute]:
    """The llvm argument types that carry one source-level argument."""
    if isinstance(t, MemRefType):
        rank = t.get_num_dims()
        return [PTR, PTR, i64] + [i64] * (2 * rank)
    return [convert_type(t)]


def result_type(outputs: Sequence[Attribute]) -> Attribute:
    """The llvm return type of a function with these source-level results."""
    if not outputs:
        return llvm.LLVMVoidType()
    if len(outputs) == 1:
        return convert_type(outputs[0])
    return llvm.LLVMStructType.from_type_list([convert_type(t) for t in outputs])


def llvm_function_type(function_type: func.FunctionType) -> llvm.LLVMFunctionType:
    inputs = [e for t in function_type.inputs.data for e in expanded_types(t)]
    return llvm.LLVMFunctionType(inputs, result_type(function_type.outputs.data))


def expand_operand(value: SSAValue, rewriter: PatternRewriter) -> list[SSAValue]:
    """A call operand as the llvm values of the calling convention."""
    converted = lowered(value, rewriter)
    t = value.type
    if not isinstance(t, MemRefType):
        return [converted]
    d = Descriptor(converted, rewriter)
    rank = t.get_num_dims()
    return (
        [d.allocated(), d.aligned(), d.offset()]
        + [d.size(i) for i in range(rank)]
        + [d.stride(i) for i in range(rank)]
    )


class FuncToLLVM(RewritePattern):
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
                if isinstance(t, MemRefType):
                    rank = t.get_num_dims()
                    struct = Descriptor.build(
                        rewriter,
                        rank,
                        new_args[0],
                        new_args[1],
                        new_args[2],
                        new_args[3 : 3 + rank],
                        new_args[3 + rank :],
                    )
                    arg.replace_all_uses_with(restore(struct, t, rewriter))
                else:
                    arg.replace_all_uses_with(restore(new_args[0], t, rewriter))
                entry.erase_arg(arg)
            rewriter.insertion_point = saved
        new_func = llvm.FuncOp(
            op.sym_name.data,
            llvm_function_type(op.function_type),
            linkage=llvm.LinkageAttr(linkage),
            body=body,
        )
        rewriter.replace(op, new_func)


class ReturnToLLVM(RewritePattern):
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
        poison = PoisonOp(struct_type)
        rewriter.insert(poison)
        packed: SSAValue = poison.res
        for i, v in enumerate(values):
            insert = llvm.InsertValueOp(DenseArrayBase.from_list(i64, [i]), packed, v)
            rewriter.insert(insert)
            packed = insert.res
        rewriter.replace(op, llvm.ReturnOp(packed))


class CallToLLVM(RewritePattern):
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
            replace_with(op, [call], [call.returned] if outputs else [], rewriter)
            return
        rewriter.insert(call)
        assert call.returned is not None
        extracts = [
            llvm.ExtractValueOp(
                DenseArrayBase.from_list(i64, [i]), call.returned, convert_type(t)
            )
            for i, t in enumerate(outputs)
        ]
        replace_with(op, extracts, [e.res for e in extracts], rewriter)


FUNC_PATTERNS: tuple[RewritePattern, ...] = (FuncToLLVM(), ReturnToLLVM(), CallToLLVM())
