"""A parallel reduction over the rows of a compressed level that never uses
the row -> one parallel reduction over the row's entries.

`sum(A)` over CSR is a loop over rows i folding, in each, the entries
`positions[i] <= k < positions[i + 1]`. When nothing but those two loads
uses i, the rows only cut `[positions[lb], positions[ub])` into pieces (a
compressed level's segments follow one another: the argument checks make
sure of it), so one loop over that range folds the same entries without the
per-row loop overhead, and the threads split it evenly. Like the parallel
reduction itself (`lower-indexing`), this regroups the fold; the result is
the same on every run.
"""

from __future__ import annotations

from xdsl.dialects import arith, memref, scf
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.sparse_tensor.ops_common import constant_int
from xsparse.dialects.upstream import scf as upstream_scf
from xsparse.dialects.upstream.arith import IndexCastUIOp

_CASTS = (IndexCastUIOp, arith.IndexCastOp)


def _row_bounds(
    ops: list[Operation], row: SSAValue
) -> tuple[memref.LoadOp, memref.LoadOp, list[Operation], list[Operation]] | None:
    """The loads of `positions[row]` and `positions[row + 1]` among `ops`, with
    the casts applied to each."""
    loads = [o for o in ops if isinstance(o, memref.LoadOp)]
    if len(loads) != 2 or loads[0].memref is not loads[1].memref:
        return None
    first, second = loads
    following = second.indices[0].owner
    if first.indices[0] is not row or not (
        isinstance(following, arith.AddiOp)
        and following.lhs is row
        and constant_int(following.rhs) == 1
    ):
        return None
    return first, second, _casts_of(first, ops), _casts_of(second, ops)


def _casts_of(load: memref.LoadOp, ops: list[Operation]) -> list[Operation]:
    chain: list[Operation] = []
    value: SSAValue = load.res
    while True:
        users = [o for o in ops if isinstance(o, _CASTS) and o.operands[0] is value]
        if len(users) != 1:
            return chain
        chain.append(users[0])
        value = users[0].results[0]


class CollapseRowReduction(RewritePattern):
    """`scf.parallel` over rows with one reduction, whose body is the row's
    bounds and an `scf.for` over them folding from a constant -> `scf.parallel`
    over the entries."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ParallelOp, rewriter: PatternRewriter) -> None:
        if len(op.lowerBound) != 1 or len(op.initVals) != 1:
            return
        if constant_int(op.step[0]) != 1:
            return
        body = op.body.block
        reduce = body.last_op
        assert isinstance(reduce, scf.ReduceOp)
        row = body.args[0]
        ops = list(body.ops)[:-1]
        loops = [o for o in ops if isinstance(o, scf.ForOp)]
        bounds = _row_bounds(ops, row)
        if len(loops) != 1 or bounds is None:
            return
        (loop,) = loops
        first, second, first_casts, second_casts = bounds
        lo = (first_casts[-1].results[0]) if first_casts else first.res
        hi = (second_casts[-1].results[0]) if second_casts else second.res
        if (
            loop.lb is not lo
            or loop.ub is not hi
            or constant_int(loop.step) != 1
            or len(loop.iter_args) != 1
            or not isinstance(loop.iter_args[0].owner, arith.ConstantOp)
            or reduce.args[0] is not loop.results[0]
        ):
            return
        following = second.indices[0].owner
        helpers = {first, second, following, *first_casts, *second_casts, loop}
        constants = [o for o in ops if isinstance(o, arith.ConstantOp)]
        if any(o not in helpers and o not in constants for o in ops):
            return
        inner_uses = {v for o in loop.body.walk() for v in o.operands}
        if inner_uses & {row, lo, hi, first.res, second.res}:
            return
        before, flat = self._flat(op, loop, reduce, bounds, constants)
        rewriter.insert(before, InsertPoint.before(op))
        rewriter.replace(op, [flat])

    @staticmethod
    def _flat(
        op: scf.ParallelOp,
        loop: scf.ForOp,
        reduce: scf.ReduceOp,
        bounds: tuple[memref.LoadOp, memref.LoadOp, list[Operation], list[Operation]],
        constants: list[arith.ConstantOp],
    ) -> tuple[list[Operation], scf.ParallelOp]:
        """The ops computing the range of entries, and the loop over it."""
        first, second, first_casts, second_casts = bounds
        start = memref.LoadOp.get(first.memref, [op.lowerBound[0]])
        end = memref.LoadOp.get(second.memref, [op.upperBound[0]])
        before: list[Operation] = [start, end]
        value_start, value_end = start.res, end.res
        for cast in first_casts:
            clone = cast.clone({first.res: value_start})
            before.append(clone)
            value_start = clone.results[0]
        for cast in second_casts:
            clone = cast.clone({second.res: value_end})
            before.append(clone)
            value_end = clone.results[0]
        entries = Block(arg_types=[loop.body.block.args[0].type])
        mapper: dict[SSAValue, SSAValue] = {loop.body.block.args[0]: entries.args[0]}
        for constant in constants:
            entries.add_op(constant.clone(mapper))
        mapper[loop.body.block.args[1]] = mapper[loop.iter_args[0]]
        yielded = loop.body.block.last_op
        assert isinstance(yielded, scf.YieldOp)
        for inner in list(loop.body.block.ops)[:-1]:
            entries.add_op(inner.clone(mapper))
        part = mapper.get(yielded.arguments[0], yielded.arguments[0])
        regions = [r.clone() for r in reduce.reductions]
        entries.add_op(scf.ReduceOp([part], regions))
        step = op.step[0]
        flat = upstream_scf.ParallelOp(
            [value_start], [value_end], [step], Region(entries), list(op.initVals)
        )
        flat.attributes.update(op.attributes)
        return before, flat
