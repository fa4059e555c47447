"""cf -> llvm (mirrors MLIR's `convert-cf-to-llvm`).

Branch targets get their arguments converted (index -> i64, memref ->
descriptor) the first time a branch to them is lowered. `cf.switch` becomes
a chain of compares, `cf.assert` a branch to a block calling `abort`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import cf, llvm
from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import Block
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from xsparse.transforms.convert_to_llvm.common import (
    ToLLVMPattern,
    convert_block_arguments,
    declare_function,
    lowered,
    lowered_all,
    lowering,
)


def _target(block: Block, rewriter: PatternRewriter, *, partial: bool) -> Block:
    saved = rewriter.insertion_point
    convert_block_arguments(block, rewriter, partial=partial)
    rewriter.insertion_point = saved
    return block


class BranchToLLVM(ToLLVMPattern):
    """`cf.br` -> `llvm.br`."""

    @lowering
    def match_and_rewrite(self, op: cf.BranchOp, rewriter: PatternRewriter) -> None:
        args = lowered_all(list(op.arguments), rewriter)
        rewriter.replace(
            op, llvm.BrOp(_target(op.successor, rewriter, partial=self.partial), *args)
        )


class CondBranchToLLVM(ToLLVMPattern):
    """`cf.cond_br` -> `llvm.cond_br`."""

    @lowering
    def match_and_rewrite(
        self, op: cf.ConditionalBranchOp, rewriter: PatternRewriter
    ) -> None:
        new = llvm.CondBrOp(
            lowered(op.cond, rewriter),
            _target(op.then_block, rewriter, partial=self.partial),
            lowered_all(list(op.then_arguments), rewriter),
            _target(op.else_block, rewriter, partial=self.partial),
            lowered_all(list(op.else_arguments), rewriter),
        )
        rewriter.replace(op, new)


class SwitchToLLVM(ToLLVMPattern):
    """`cf.switch` -> a chain of `llvm.icmp eq` + `llvm.cond_br`, one per case."""

    @lowering
    def match_and_rewrite(self, op: cf.SwitchOp, rewriter: PatternRewriter) -> None:
        flag = lowered(op.flag, rewriter)
        case_values: Sequence[int] = (
            [] if op.case_values is None else op.case_values.get_values()
        )
        cases = list(zip(case_values, op.case_blocks, op.case_operand, strict=True))
        default = (op.default_block, list(op.default_operands))
        block = op.parent_block()
        assert block is not None
        test_block = block
        insertion = InsertPoint.before(op)
        flag_type = cast(IntegerType, flag.type)  # cf.switch's flag is an integer
        for i, (value, target, operands) in enumerate(cases):
            constant = llvm.ConstantOp(IntegerAttr(int(value), flag_type), flag.type)
            compare = llvm.ICmpOp(flag, constant.result, IntegerAttr(0, 64))
            last = i == len(cases) - 1
            if last:
                else_block, else_args = default
            else:
                else_block = Block()
                else_args = []
                assert test_block.parent is not None
                test_block.parent.insert_block_after(else_block, test_block)
            rewriter.insert([constant, compare], insertion)
            rewriter.insertion_point = insertion
            branch = llvm.CondBrOp(
                compare.res,
                _target(target, rewriter, partial=self.partial),
                lowered_all(list(operands), rewriter),
                _target(else_block, rewriter, partial=self.partial)
                if last
                else else_block,
                lowered_all(else_args, rewriter),
            )
            rewriter.insert(branch, insertion)
            test_block = else_block
            insertion = InsertPoint.at_end(else_block)
        if not cases:
            rewriter.insert(
                llvm.BrOp(
                    _target(default[0], rewriter, partial=self.partial),
                    *lowered_all(default[1], rewriter),
                ),
                insertion,
            )
        rewriter.erase(op)


class AssertToLLVM(ToLLVMPattern):
    """`cf.assert` -> branch to a block that calls `abort` when the condition fails."""

    @lowering
    def match_and_rewrite(self, op: cf.AssertOp, rewriter: PatternRewriter) -> None:
        block = op.parent_block()
        assert block is not None and block.parent is not None
        declare_function(op, "abort", llvm.LLVMFunctionType([]))
        condition = lowered(op.arg, rewriter)
        continuation = block.split_before(op)
        failure = Block()
        block.parent.insert_block_after(failure, block)
        rewriter.insert(
            [llvm.CallOp("abort"), llvm.UnreachableOp()], InsertPoint.at_end(failure)
        )
        rewriter.insert(
            llvm.CondBrOp(condition, continuation, [], failure, []),
            InsertPoint.at_end(block),
        )
        rewriter.erase(op)


CF_PATTERNS: tuple[type[ToLLVMPattern], ...] = (
    BranchToLLVM,
    CondBranchToLLVM,
    SwitchToLLVM,
    AssertToLLVM,
)
