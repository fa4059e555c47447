"""scf -> cf (mirrors MLIR's `convert-scf-to-cf`); cf then lowers to llvm.

xDSL's own patterns lower `scf.for`, `scf.if` and `scf.index_switch`; this
module adds `scf.while`, `scf.execute_region` and `scf.parallel` (as a nest
of sequential `scf.for` loops, reductions carried as iteration arguments).
"""

from __future__ import annotations

from xdsl.dialects import cf, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
)
from xdsl.rewriter import BlockInsertPoint, InsertPoint
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering, SwitchLowering
from xdsl.utils.exceptions import DiagnosticException

from xsparse.transforms.convert_to_llvm.common import lowering
from xsparse.transforms.convert_to_llvm.threads import per_chunk_ops
from xsparse.xdsl_adapter import IterativeRewriteWalker, walk_iteratively


def _split_after(op: Operation) -> tuple[Block, Block]:
    """Split `op`'s block before `op`; return (head, continuation with `op`'s results)."""
    head = op.parent_block()
    assert head is not None
    continuation = head.split_before(op)
    for result in op.results:
        result.replace_all_uses_with(
            continuation.insert_arg(result.type, len(continuation.args))
        )
    return head, continuation


class WhileLowering(RewritePattern):
    """`scf.while` -> before/after blocks joined by `cf.cond_br` and `cf.br`."""

    @lowering
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter) -> None:
        head, continuation = _split_after(op)
        before = op.before_region.block
        after = op.after_region.block
        condition = before.last_op
        yield_op = after.last_op
        assert isinstance(condition, scf.ConditionOp)
        assert isinstance(yield_op, scf.YieldOp)
        rewriter.inline_region(op.before_region, BlockInsertPoint.before(continuation))
        rewriter.inline_region(op.after_region, BlockInsertPoint.before(continuation))
        args = list(condition.args)
        rewriter.replace(
            condition,
            cf.ConditionalBranchOp(
                condition.condition, after, args, continuation, args
            ),
        )
        rewriter.replace(yield_op, cf.BranchOp(before, *yield_op.arguments))
        rewriter.insert(cf.BranchOp(before, *op.arguments), InsertPoint.at_end(head))
        rewriter.erase(op)


class ExecuteRegionLowering(RewritePattern):
    """`scf.execute_region` -> its blocks inlined, `scf.yield` -> branch to the continuation."""

    @lowering
    def match_and_rewrite(
        self, op: scf.ExecuteRegionOp, rewriter: PatternRewriter
    ) -> None:
        head, continuation = _split_after(op)
        entry = op.region.blocks[0]
        for block in op.region.blocks:
            terminator = block.last_op
            if isinstance(terminator, scf.YieldOp):
                rewriter.replace(
                    terminator, cf.BranchOp(continuation, *terminator.arguments)
                )
        rewriter.inline_region(op.region, BlockInsertPoint.before(continuation))
        rewriter.insert(cf.BranchOp(entry), InsertPoint.at_end(head))
        rewriter.erase(op)


class ParallelLowering(RewritePattern):
    """`scf.parallel` -> nested `scf.for`; `scf.reduce` regions inlined on iter_args."""

    @lowering
    def match_and_rewrite(self, op: scf.ParallelOp, rewriter: PatternRewriter) -> None:
        body = op.body.block
        reduce = body.last_op
        assert isinstance(reduce, scf.ReduceOp)
        chunk_start, chunk_end = per_chunk_ops(body)
        rewriter.insert(chunk_start)
        rewriter.insert(chunk_end, InsertPoint.after(op))
        results: list[SSAValue] = list(op.initVals)
        outer: scf.ForOp | None = None
        current_body: Block | None = None
        loops: list[scf.ForOp] = []
        for lb, ub, step in zip(op.lowerBound, op.upperBound, op.step, strict=True):
            loop_body = Block(arg_types=[lb.type] + [v.type for v in results])
            loop = scf.ForOp(lb, ub, step, results, loop_body)
            if current_body is None:
                outer = loop
                rewriter.insert(loop)
            else:
                rewriter.insert(loop, InsertPoint.at_end(current_body))
            loops.append(loop)
            results = list(loop_body.args[1:])
            current_body = loop_body
        assert outer is not None and current_body is not None
        ivs = [loop.body.block.args[0] for loop in loops]
        for iv, arg in zip(ivs, body.args, strict=True):
            arg.replace_all_uses_with(iv)
        reduce_operands = list(reduce.args)
        regions = list(reduce.reductions)
        for inner in list(body.ops)[:-1]:
            inner.detach()
            rewriter.insert(inner, InsertPoint.at_end(current_body))
        combined: list[SSAValue] = []
        for accumulator, operand, region in zip(
            results, reduce_operands, regions, strict=True
        ):
            block = region.block
            ret = block.last_op
            assert isinstance(ret, scf.ReduceReturnOp)
            block.args[0].replace_all_uses_with(accumulator)
            block.args[1].replace_all_uses_with(operand)
            combined.append(ret.result)
            for inner in list(block.ops):
                if inner is ret:
                    continue
                inner.detach()
                rewriter.insert(inner, InsertPoint.at_end(current_body))
        rewriter.erase(reduce)  # once its regions are emptied: erasing drops them
        rewriter.insert(scf.YieldOp(*combined), InsertPoint.at_end(current_body))
        for loop, parent in zip(loops[1:], loops[:-1], strict=True):
            rewriter.insert(
                scf.YieldOp(*loop.results), InsertPoint.at_end(parent.body.block)
            )
        rewriter.replace(op, [], list(outer.results))


def lower_scf_to_cf(module: ModuleOp) -> None:
    """Lower every scf op of `module` to cf branches (nested loops included).

    Walks backwards so that splitting a block before a loop moves only the ops
    up to the next (already lowered) loop: linear, not quadratic, in the
    number of loops of a block.
    """
    IterativeRewriteWalker(
        GreedyRewritePatternApplier(
            [ParallelLowering(), WhileLowering(), ExecuteRegionLowering()],
            dce_enabled=False,
        ),
        apply_recursively=False,
        walk_reverse=True,
    ).rewrite_module(module)
    IterativeRewriteWalker(
        GreedyRewritePatternApplier(
            [IfLowering(), ForLowering(), SwitchLowering()], dce_enabled=False
        ),
        apply_recursively=False,
        walk_reverse=True,
    ).rewrite_module(module)
    for op in walk_iteratively(module):
        if isinstance(op, scf.ForOp | scf.IfOp | scf.WhileOp | scf.ParallelOp):
            raise DiagnosticException(f"'{op.name}' was not lowered to cf")
