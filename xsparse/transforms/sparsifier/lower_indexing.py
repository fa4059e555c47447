"""`lower-indexing`: set loops of the `indexing` dialect -> scf loops.

The RFC (seed 003, "Control-Flow To Iterate Over More Powerful Tensor and
Buffer Types") asks for set loops that a later pass maps onto MLIR's
while / for / if co-iteration or onto a dense expansion of one side. This pass
is that later pass; its loops have the shapes MLIR 22's sparsifier emits
(`--sparsification`, LoopEmitter), and carry `{"Emitted from" = "linalg.generic"}`
so that `sparse-vectorization` applies to them.

`indexing.foreach` over a set expression is lowered by its *drivers*: the
stored leaves present in some case, and the range leaves present in a case
without any stored leaf (those ranges produce coordinates of their own).
Other leaves are *located* at each coordinate: a range by a bounds check, a
stored leaf that no case needs present by advancing its cursor while it is
behind (a difference a - b iterates a and locates b).

- One driver: `scf.for` over its positions (a range: over its coordinates);
  a stored driver loads its coordinate only when something uses it.
- Several drivers: the merge lattice of MLIR's sparsifier. For each subset of
  the drivers that some case can occur in, largest first, an `scf.while` whose
  cursors all stay below their bounds; its coordinate is the minimum of the
  current coordinates (a range driver's cursor is its coordinate), a leaf is
  present when its coordinate equals that minimum, one `scf.if` chain runs the
  case of the presence pattern, and each cursor advances when present. A
  subset of one driver is a trailing `scf.for` from its cursor (the remainder
  of a union). An intersection has a single lattice point; a union of k
  drivers has all 2^k - 1.

Co-iterating (several drivers, or located stored leaves) needs ordered, unique
stored leaves. With `strategy=dense-expansion`, a loop over `intersect` or
`union` of two stored leaves instead scatters the positions of the right leaf
into a dense workspace (`memref.alloc`, sized by one more than its largest
coordinate) and iterates the left leaf, locating each coordinate in the
workspace (a union then iterates the right leaf's unmatched positions). It
applies when the cases do not depend on the visiting order (it visits the left
leaf's order, then the right leaf's unmatched elements), the right leaf is
unique, and its coordinate range is small enough to allocate; the left leaf may
be nonordered or nonunique. Put the smaller set on the right.

`indexing.linearize` / `indexing.delinearize` become arith.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    i1,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import DiagnosticException

from xsparse.dialects.indexing import (
    DelinearizeOp,
    IntersectOp,
    IterateOp,
    LeafOp,
    LinearizeOp,
    RangeOp,
    SegmentEndOp,
    SetAlgebraOp,
    StoredOp,
    UnionOp,
    YieldOp,
)
from xsparse.dialects.upstream import scf as upstream_scf
from xsparse.transforms.codegen_utils.op_emitter import INDEX, BuilderEmitter
from xsparse.transforms.errors import PassFailure
from xsparse.transforms.sparsifier.collapse_rows import CollapseRowReduction
from xsparse.transforms.sparsifier.reduction_folds import Fold, fold_of
from xsparse.xdsl_adapter import IterativeRewriteWalker

EMITTED_FROM = "Emitted from"
"""The attribute MLIR's sparsifier puts on its loops (a name with a space)."""

Presence = SSAValue | bool
"""Whether a leaf holds the current coordinate: an i1 value, or known."""


def _mark(loop: Operation) -> None:
    loop.attributes[EMITTED_FROM] = StringAttr("linalg.generic")


class _Emitter:
    """Builds the scf code of one rewritten loop: its ops through the shared
    `BuilderEmitter` at the end of each block being built (`at_end`), its
    constants once, before the loop (`const`; of index or i1 type)."""

    def __init__(self, anchor: Operation, rewriter: PatternRewriter):
        self.rewriter = rewriter
        self.outer = BuilderEmitter(Builder(InsertPoint.before(anchor)))
        self._constants: dict[tuple[int, Attribute], SSAValue] = {}

    def const(self, value: int, type: IndexType | IntegerType = INDEX) -> SSAValue:
        key = (value, type)
        if key not in self._constants:
            self._constants[key] = self.outer.constant(value, type)
        return self._constants[key]

    @staticmethod
    def at_end(block: Block) -> BuilderEmitter:
        return BuilderEmitter(Builder(InsertPoint.at_end(block)))

    # conditions ---------------------------------------------------------------

    def test(
        self, b: BuilderEmitter, presence: Presence, want: bool
    ) -> SSAValue | bool:
        """`presence == want`, folded when the presence is known."""
        if isinstance(presence, bool):
            return presence == want
        if want:
            return presence
        return b.value(arith.XOrIOp(presence, self.const(1, i1)))

    # coordinates ----------------------------------------------------------------

    def segment_end(
        self, b: BuilderEmitter, crd_buf: SSAValue, pos: SSAValue, hi: SSAValue
    ) -> SSAValue:
        """The end of the run of equal coordinates starting at `pos` (< hi): a
        scan, as MLIR 22 emits for COO levels."""
        before = Block(arg_types=[INDEX])
        bb = self.at_end(before)
        q = before.args[0]
        inside = bb.cmp(q, "ult", hi)
        then = Block()
        tb = self.at_end(then)
        first = tb.index_load(crd_buf, [pos])
        same = tb.cmp(first, "eq", tb.index_load(crd_buf, [q]))
        tb.op(scf.YieldOp(same))
        other = Block([scf.YieldOp(self.const(0, i1))])
        cond = bb.op(scf.IfOp(inside, [i1], [then], [other])).results[0]
        bb.op(scf.ConditionOp(cond, q))
        after = Block(arg_types=[INDEX])
        after.add_op(scf.YieldOp(self.at_end(after).add(after.args[0], self.const(1))))
        start = b.add(pos, self.const(1))
        return b.op(scf.WhileOp([start], [INDEX], [before], [after])).results[0]

    def advance(self, b: BuilderEmitter, leaf: LeafOp, cursor: SSAValue) -> SSAValue:
        """The next position of a leaf: the next run for a segmented set."""
        if isinstance(leaf, StoredOp) and leaf.is_segmented:
            return self.segment_end(b, leaf.coordinates, cursor, leaf.hi)
        return b.add(cursor, self.const(1))

    def guarded_crd(self, b: BuilderEmitter, leaf: StoredOp, pos: SSAValue) -> SSAValue:
        """crd[pos] when pos < hi, else the largest index (never behind, never equal)."""
        inside = b.cmp(pos, "ult", leaf.hi)
        then = Block()
        then.add_op(scf.YieldOp(self.at_end(then).index_load(leaf.coordinates, [pos])))
        other = Block([scf.YieldOp(self.const(-1))])
        return b.op(scf.IfOp(inside, [INDEX], [then], [other])).results[0]

    def locate_stored(
        self, b: BuilderEmitter, leaf: StoredOp, cursor: SSAValue, crd: SSAValue
    ) -> tuple[SSAValue, SSAValue]:
        """Advance `cursor` while its coordinate is behind `crd`: (cursor, present)."""
        before = Block(arg_types=[INDEX])
        bb = self.at_end(before)
        behind = bb.cmp(self.guarded_crd(bb, leaf, before.args[0]), "ult", crd)
        bb.op(scf.ConditionOp(behind, before.args[0]))
        after = Block(arg_types=[INDEX])
        after.add_op(scf.YieldOp(self.at_end(after).add(after.args[0], self.const(1))))
        moved = b.op(scf.WhileOp([cursor], [INDEX], [before], [after])).results[0]
        present = b.cmp(self.guarded_crd(b, leaf, moved), "eq", crd)
        return moved, present

    def locate_range(self, b: BuilderEmitter, leaf: RangeOp, crd: SSAValue) -> SSAValue:
        """lo <= crd < hi."""
        above = b.cmp(leaf.lo, "ule", crd)
        return b.all_of([above, b.cmp(crd, "ult", leaf.hi)])

    # cases ----------------------------------------------------------------------

    def inline_case(
        self, b: BuilderEmitter, block: Block, args: Sequence[SSAValue]
    ) -> list[SSAValue]:
        """A copy of the case `block` at `b` with `args`; returns what it yields."""
        region = block.parent_region()
        assert region is not None
        body = region.clone().block
        term = body.last_op
        assert isinstance(term, YieldOp)
        values = [
            args[v.index] if isinstance(v, BlockArgument) and v.block is body else v
            for v in term.values
        ]
        self.rewriter.erase(term)
        for arg, value in zip(body.args, args, strict=True):
            # Name values after the arguments that use them, not unused ones.
            if arg.uses and value.name_hint is None:
                value.name_hint = arg.name_hint
        self.rewriter.inline_block(body, b.builder.insertion_point, args)
        return values

    def dispatch(
        self,
        b: BuilderEmitter,
        cases: Sequence[tuple[Sequence[int], Block]],
        presence: dict[int, Presence],
        args_of: Callable[[Sequence[int]], list[SSAValue]],
        iters: Sequence[SSAValue],
        handled: frozenset[frozenset[int]] = frozenset(),
    ) -> list[SSAValue]:
        """One scf.if chain running the case whose pattern matches `presence`.

        `cases` are tried in order; leaves missing from `presence` are absent.
        `args_of(pattern)` gives the coordinate and positions of a case. A case
        whose strict supersets were all tested before it (`handled`) only tests
        that its leaves are present, as MLIR's chains do.
        """
        types = [v.type for v in iters]
        for k, (pattern, block) in enumerate(cases):
            if any(leaf not in presence for leaf in pattern):
                continue
            unknown = [i for i, p in presence.items() if not isinstance(p, bool)]
            extra = [i for i in unknown if i not in pattern]
            supersets = (
                frozenset(pattern).union(more)
                for n in range(1, len(extra) + 1)
                for more in combinations(extra, n)
            )
            exact = any(s not in handled for s in supersets)
            tests = [
                self.test(b, p, leaf in pattern)
                for leaf, p in presence.items()
                if exact or leaf in pattern
            ]
            if False in tests:
                continue
            conds = [t for t in tests if not isinstance(t, bool)]
            if not conds:
                return self.inline_case(b, block, [*args_of(pattern), *iters])
            cond = b.all_of(conds)
            then = Block()
            tb = self.at_end(then)
            tb.op(
                scf.YieldOp(*self.inline_case(tb, block, [*args_of(pattern), *iters]))
            )
            other = Block()
            ob = self.at_end(other)
            rest = self.dispatch(
                ob,
                cases[k + 1 :],
                presence,
                args_of,
                iters,
                handled | {frozenset(pattern)},
            )
            ob.op(scf.YieldOp(*rest))
            else_region = (
                [other] if types or other.first_op is not other.last_op else None
            )
            return list(b.op(scf.IfOp(cond, types, [then], else_region)).results)
        return list(iters)


@dataclass
class _Plan:
    """How one `indexing.foreach` is lowered by merging."""

    leaves: list[LeafOp]
    cases: list[tuple[tuple[int, ...], Block]]
    drivers: list[int]
    located_stored: list[int]
    located_ranges: list[int]

    @staticmethod
    def of(op: IterateOp) -> _Plan:
        leaves = op.leaves()
        cases = [(op.case_leaves(i), op.case_block(i)) for i in range(len(op.regions))]
        # Most present leaves first, as MLIR orders its lattice points.
        cases.sort(key=lambda case: -len(case[0]))
        stored = {i for i, leaf in enumerate(leaves) if isinstance(leaf, StoredOp)}
        present = {i for pattern, _ in cases for i in pattern}
        range_drivers = {
            i for pattern, _ in cases if not stored & set(pattern) for i in pattern
        }
        drivers = sorted((stored & present) | range_drivers)
        ranges = set(range(len(leaves))) - stored
        return _Plan(
            leaves,
            cases,
            drivers,
            sorted(stored - present),
            sorted(ranges - range_drivers),
        )

    def lattice(self) -> list[tuple[int, ...]]:
        """Subsets of the drivers that some case can occur in, largest first."""
        points: list[tuple[int, ...]] = []
        for size in range(len(self.drivers), 0, -1):
            for point in combinations(self.drivers, size):
                if any(set(p) & set(self.drivers) <= set(point) for p, _ in self.cases):
                    points.append(point)
        return points

    def check_mergeable(self, op: IterateOp) -> None:
        if len(self.drivers) == 1 and not self.located_stored:
            return
        for i in [*self.drivers, *self.located_stored]:
            leaf = self.leaves[i]
            if isinstance(leaf, StoredOp) and not (
                leaf.is_ordered and (leaf.is_unique or leaf.is_segmented)
            ):
                raise PassFailure(
                    op,
                    f"leaf {i} is nonordered or nonunique and cannot be "
                    "co-iterated; use lower-indexing{strategy=dense-expansion}",
                )


class _MergeLowering:
    """Emits the lattice loops of one `indexing.foreach` (see the module doc)."""

    def __init__(self, op: IterateOp, rewriter: PatternRewriter):
        self.op = op
        self.plan = _Plan.of(op)
        self.plan.check_mergeable(op)
        self.e = _Emitter(op, rewriter)
        self.types = [a.type for a in op.iter_args]

    def run(self) -> list[SSAValue]:
        cursors: dict[int, SSAValue] = {
            i: self.plan.leaves[i].lo
            for i in [*self.plan.drivers, *self.plan.located_stored]
        }
        iters: list[SSAValue] = list(self.op.iter_args)
        for point in self.plan.lattice():
            if len(point) == 1:
                iters = self.emit_for(point[0], cursors, iters)
            else:
                iters = self.emit_while(point, cursors, iters)
        return iters

    def locate(
        self, b: BuilderEmitter, crd: SSAValue, cursors: Sequence[SSAValue]
    ) -> tuple[list[SSAValue], dict[int, Presence]]:
        """Presence of the located leaves at `crd`, and the moved stored cursors."""
        moved: list[SSAValue] = []
        presence: dict[int, Presence] = {}
        for i, cursor in zip(self.plan.located_stored, cursors, strict=True):
            leaf = self.plan.leaves[i]
            assert isinstance(leaf, StoredOp)
            cursor, presence[i] = self.e.locate_stored(b, leaf, cursor, crd)
            moved.append(cursor)
        for i in self.plan.located_ranges:
            leaf = self.plan.leaves[i]
            assert isinstance(leaf, RangeOp)
            presence[i] = self.e.locate_range(b, leaf, crd)
        return moved, presence

    def case_args(
        self, crd: SSAValue, positions: dict[int, SSAValue]
    ) -> Callable[[Sequence[int]], list[SSAValue]]:
        return lambda pattern: [crd, *(positions.get(i, crd) for i in pattern)]

    def emit_for(
        self, driver: int, cursors: dict[int, SSAValue], iters: list[SSAValue]
    ) -> list[SSAValue]:
        """`scf.for` over the remaining positions of one driver."""
        leaf = self.plan.leaves[driver]
        if isinstance(leaf, StoredOp) and leaf.is_segmented:
            return self.emit_segmented(leaf, driver, cursors, iters)
        located = self.plan.located_stored
        carried = [cursors[i] for i in located] + iters
        body = Block(arg_types=[INDEX, *(v.type for v in carried)])
        pos, *rest = body.args
        loc_cursors, body_iters = rest[: len(located)], rest[len(located) :]
        b = self.e.at_end(body)
        crd = pos
        if isinstance(leaf, StoredOp):
            needs_crd = bool(located or self.plan.located_ranges) or any(
                block.args[0].uses for _, block in self.plan.cases
            )
            if needs_crd:
                crd = b.index_load(leaf.coordinates, [pos])
        moved, presence = self.locate(b, crd, loc_cursors)
        presence[driver] = True
        new_iters = self.e.dispatch(
            b,
            self.plan.cases,
            presence,
            self.case_args(crd, {driver: pos}),
            body_iters,
        )
        b.op(scf.YieldOp(*moved, *new_iters))
        loop = self.e.outer.op(
            scf.ForOp(cursors[driver], leaf.hi, self.e.const(1), carried, body)
        )
        _mark(loop)
        results: list[SSAValue] = list(loop.results)
        for i, value in zip(located, results[: len(located)], strict=True):
            cursors[i] = value
        return results[len(located) :]

    def emit_segmented(
        self,
        leaf: StoredOp,
        driver: int,
        cursors: dict[int, SSAValue],
        iters: list[SSAValue],
    ) -> list[SSAValue]:
        """`scf.while` over the runs of a segmented driver, carrying each run's
        end (MLIR 22's loop over a COO level): the body's `segment_end` of the
        run is that carried value."""
        e = self.e
        located = self.plan.located_stored
        first_end = e.segment_end(e.outer, leaf.coordinates, cursors[driver], leaf.hi)
        carried = [cursors[driver], first_end] + [cursors[i] for i in located] + iters
        types = [v.type for v in carried]
        before = Block(arg_types=types)
        bb = e.at_end(before)
        bb.op(scf.ConditionOp(bb.cmp(before.args[0], "ult", leaf.hi), *before.args))
        after = Block(arg_types=types)
        b = e.at_end(after)
        pos, end, *rest = after.args
        loc_cursors, body_iters = rest[: len(located)], rest[len(located) :]
        crd = b.index_load(leaf.coordinates, [pos])
        moved, presence = self.locate(b, crd, loc_cursors)
        presence[driver] = True
        new_iters = e.dispatch(
            b, self.plan.cases, presence, self.case_args(crd, {driver: pos}), body_iters
        )
        next_end = e.segment_end(b, leaf.coordinates, end, leaf.hi)
        b.op(scf.YieldOp(end, next_end, *moved, *new_iters))
        for op in list(after.walk()):
            if isinstance(op, SegmentEndOp) and (op.coordinates, op.pos, op.hi) == (
                leaf.coordinates,
                pos,
                leaf.hi,
            ):
                op.result.replace_all_uses_with(end)
                op.detach()
                op.erase()
        loop = e.outer.op(scf.WhileOp(carried, types, [before], [after]))
        _mark(loop)
        results: list[SSAValue] = list(loop.results)
        for i, value in zip(located, results[2 : 2 + len(located)], strict=True):
            cursors[i] = value
        return results[2 + len(located) :]

    def emit_while(
        self, point: Sequence[int], cursors: dict[int, SSAValue], iters: list[SSAValue]
    ) -> list[SSAValue]:
        """`scf.while` co-iterating the drivers of one lattice point."""
        e = self.e
        order = [*point, *self.plan.located_stored]
        carried = [cursors[i] for i in order] + iters
        types = [v.type for v in carried]
        n = len(point)

        before = Block(arg_types=types)
        bb = e.at_end(before)
        inside = [
            bb.cmp(arg, "ult", self.plan.leaves[i].hi)
            for i, arg in zip(point, before.args[:n], strict=True)
        ]
        bb.op(scf.ConditionOp(bb.all_of(inside), *before.args))

        after = Block(arg_types=types)
        b = e.at_end(after)
        args = list(after.args)
        crds: list[SSAValue] = []
        for i, arg in zip(point, args[:n], strict=True):
            leaf = self.plan.leaves[i]
            crds.append(
                b.index_load(leaf.coordinates, [arg])
                if isinstance(leaf, StoredOp)
                else arg
            )
        crd = crds[0]
        for other in crds[1:]:
            crd = b.select(b.cmp(other, "ult", crd), other, crd)
        presence: dict[int, Presence] = {
            i: b.cmp(c, "eq", crd) for i, c in zip(point, crds, strict=True)
        }
        moved, located = self.locate(b, crd, args[n : len(order)])
        presence |= located
        positions: dict[int, SSAValue] = dict(zip(point, args[:n], strict=True))
        new_iters = e.dispatch(
            b,
            self.plan.cases,
            presence,
            self.case_args(crd, positions),
            args[len(order) :],
        )
        advanced: list[SSAValue] = []
        for i, arg in zip(point, args[:n], strict=True):
            present = presence[i]
            assert isinstance(present, SSAValue)
            advanced.append(
                b.select(present, e.advance(b, self.plan.leaves[i], arg), arg)
            )
        b.op(scf.YieldOp(*advanced, *moved, *new_iters))

        loop = e.outer.op(scf.WhileOp(carried, types, [before], [after]))
        _mark(loop)
        results: list[SSAValue] = list(loop.results)
        for i, value in zip(order, results[: len(order)], strict=True):
            cursors[i] = value
        return results[len(order) :]


PARALLEL = "parallel"
"""Unit attribute the sparsifier puts on a foreach whose iterations are
independent (its `parallelization-strategy`)."""


class LowerParallelForeach(RewritePattern):
    """A `parallel` single-set `indexing.foreach` -> `scf.parallel` over its
    positions (MLIR's parallelized sparse loops); one iter_arg that the case
    folds with an associative, commutative op (`reduction_folds`) becomes the
    loop's `scf.reduce`, each iteration starting from the op's identity."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IterateOp, rewriter: PatternRewriter) -> None:
        leaves = op.leaves()
        if (
            PARALLEL not in op.attributes
            or len(leaves) != 1
            or len(op.iter_args) > 1
            or len(op.regions) != 1
        ):
            return
        case = op.case_block(0)
        fold = None
        if op.iter_args:
            yielded = case.last_op
            assert isinstance(yielded, YieldOp)
            fold = fold_of(case, case.args[-1], yielded.values[0])
            if fold is None:
                return  # not a reduction of a known kind: lowered sequentially
        leaf = leaves[0]
        e = _Emitter(op, rewriter)
        body = Block(arg_types=[INDEX])
        b = e.at_end(body)
        pos = body.args[0]
        crd = pos
        if isinstance(leaf, StoredOp) and case.args[0].uses:
            crd = b.index_load(leaf.coordinates, [pos])
        if fold is None:
            e.inline_case(b, case, [crd, pos])
            b.op(scf.ReduceOp())
        else:
            identity = b.op(fold.identity(op.iter_args[0].type)).results[0]
            (part,) = e.inline_case(b, case, [crd, pos, identity])
            b.op(scf.ReduceOp([part], [self._combining(fold, part.type)]))
        loop = e.outer.op(
            upstream_scf.ParallelOp(
                [leaf.lo], [leaf.hi], [e.const(1)], Region(body), op.iter_args
            )
        )
        _mark(loop)
        rewriter.replace(op, [], list(loop.results))

    @staticmethod
    def _combining(fold: Fold, t: Attribute) -> Region:
        pair = Block(arg_types=[t, t])
        combined = fold.combine(pair.args[0], pair.args[1])
        pair.add_ops([combined, scf.ReduceReturnOp(combined.results[0])])
        return Region(pair)


class LowerForeachByMerge(RewritePattern):
    """`indexing.foreach` -> scf.for / scf.while + scf.if (two-way / k-way merge)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IterateOp, rewriter: PatternRewriter) -> None:
        results = _MergeLowering(op, rewriter).run()
        rewriter.replace(op, [], results)


class LowerForeachByDenseExpansion(RewritePattern):
    """`indexing.foreach` over intersect/union of two stored leaves -> a dense workspace."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IterateOp, rewriter: PatternRewriter) -> None:
        root = op.set.owner
        if not isinstance(root, IntersectOp | UnionOp):
            return
        left, right = root.lhs.owner, root.rhs.owner
        if not isinstance(left, StoredOp) or not isinstance(right, StoredOp):
            return
        if not right.is_unique:
            return
        e = _Emitter(op, rewriter)
        cases = {
            pattern: block
            for pattern, block in (
                (op.case_leaves(i), op.case_block(i)) for i in range(len(op.regions))
            )
        }
        ws, size = self.scatter(e, right)
        iters = self.iterate_left(
            e, op, left, ws, size, cases, isinstance(root, UnionOp)
        )
        if (1,) in cases:
            iters = self.iterate_unmatched(e, op, right, ws, cases[(1,)], iters)
        e.outer.op(memref.DeallocOp.get(ws))
        rewriter.replace(op, [], iters)

    @staticmethod
    def scatter(e: _Emitter, leaf: StoredOp) -> tuple[SSAValue, SSAValue]:
        """ws[crd[p]] = p + 1 for the positions of `leaf`, 0 elsewhere; (ws, size)."""
        body = Block(arg_types=[INDEX, INDEX])
        b = e.at_end(body)
        crd1 = b.add(b.index_load(leaf.coordinates, [body.args[0]]), e.const(1))
        b.op(scf.YieldOp(b.value(arith.MaxUIOp(body.args[1], crd1))))
        size = e.outer.op(
            scf.ForOp(leaf.lo, leaf.hi, e.const(1), [e.const(0)], body)
        ).results[0]
        ws_type = MemRefType(INDEX, [DYNAMIC_INDEX])
        ws = e.outer.alloc(ws_type, [size])
        clear = Block(arg_types=[INDEX])
        clear.add_ops(
            [memref.StoreOp.get(e.const(0), ws, [clear.args[0]]), scf.YieldOp()]
        )
        e.outer.op(scf.ForOp(e.const(0), size, e.const(1), [], clear))
        fill = Block(arg_types=[INDEX])
        b = e.at_end(fill)
        pos = fill.args[0]
        b.op(
            memref.StoreOp.get(
                b.add(pos, e.const(1)), ws, [b.index_load(leaf.coordinates, [pos])]
            )
        )
        b.op(scf.YieldOp())
        e.outer.op(scf.ForOp(leaf.lo, leaf.hi, e.const(1), [], fill))
        return ws, size

    @staticmethod
    def iterate_left(
        e: _Emitter,
        op: IterateOp,
        leaf: StoredOp,
        ws: SSAValue,
        size: SSAValue,
        cases: dict[tuple[int, ...], Block],
        union: bool,
    ) -> list[SSAValue]:
        """Iterate the left leaf, finding each coordinate in the workspace."""
        types = [a.type for a in op.iter_args]
        body = Block(arg_types=[INDEX, *types])
        pos, *iters = body.args
        b = e.at_end(body)
        crd = b.index_load(leaf.coordinates, [pos])
        then = Block()
        tb = e.at_end(then)
        tb.op(scf.YieldOp(tb.load(ws, [crd])))
        found = b.op(
            scf.IfOp(
                b.cmp(crd, "ult", size),
                [INDEX],
                [then],
                [Block([scf.YieldOp(e.const(0))])],
            )
        ).results[0]
        present = b.cmp(found, "ne", e.const(0))
        if union and (1,) in cases:
            # Clear matched entries: what remains are the right-only positions.
            mark = Block()
            mark.add_ops([memref.StoreOp.get(e.const(0), ws, [crd]), scf.YieldOp()])
            b.op(scf.IfOp(present, [], [mark]))
        right_pos = b.sub(found, e.const(1))
        new_iters = e.dispatch(
            b,
            sorted(cases.items(), key=lambda case: -len(case[0])),
            {0: True, 1: present},
            lambda pattern: [crd, pos, right_pos][: 1 + len(pattern)],
            iters,
        )
        b.op(scf.YieldOp(*new_iters))
        loop = e.outer.op(
            scf.ForOp(leaf.lo, leaf.hi, e.const(1), list(op.iter_args), body)
        )
        _mark(loop)
        return list(loop.results)

    @staticmethod
    def iterate_unmatched(
        e: _Emitter,
        op: IterateOp,
        leaf: StoredOp,
        ws: SSAValue,
        case: Block,
        iters: list[SSAValue],
    ) -> list[SSAValue]:
        """Iterate the right leaf's positions that the left leaf did not match."""
        body = Block(arg_types=[INDEX, *(v.type for v in iters)])
        pos, *body_iters = body.args
        b = e.at_end(body)
        crd = b.index_load(leaf.coordinates, [pos])
        left = b.load(ws, [crd])
        new_iters = e.dispatch(
            b,
            [((1,), case)],
            {1: b.cmp(left, "ne", e.const(0))},
            lambda _: [crd, pos],
            body_iters,
        )
        b.op(scf.YieldOp(*new_iters))
        loop = e.outer.op(scf.ForOp(leaf.lo, leaf.hi, e.const(1), iters, body))
        _mark(loop)
        return list(loop.results)


class LowerSegmentEnd(RewritePattern):
    """`indexing.segment_end` outside a segmented loop -> a scan of the run."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SegmentEndOp, rewriter: PatternRewriter) -> None:
        owner = op.pos.owner
        if isinstance(owner, Block) and isinstance(owner.parent_op(), IterateOp):
            return  # the run of a loop position: its loop carries the end
        e = _Emitter(op, rewriter)
        end = e.segment_end(e.outer, op.coordinates, op.pos, op.hi)
        rewriter.replace(op, [], [end])


class LowerLinearize(RewritePattern):
    """`indexing.linearize` -> ((i0 * n1 + i1) * n2 + ...) with arith.muli/addi."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: LinearizeOp, rewriter: PatternRewriter) -> None:
        ops: list[Operation] = []
        value = op.indices[0]
        for index, size in zip(op.indices[1:], op.basis[1:], strict=True):
            mul = arith.MuliOp(value, size)
            add = arith.AddiOp(mul, index)
            ops += [mul, add]
            value = add.result
        rewriter.replace(op, ops, [value])


class LowerDelinearize(RewritePattern):
    """`indexing.delinearize` -> arith.remui/divui by the basis, innermost first."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DelinearizeOp, rewriter: PatternRewriter) -> None:
        ops: list[Operation] = []
        results: list[SSAValue] = []
        value = op.linear
        for size in reversed(op.basis[1:]):
            rem = arith.RemUIOp(value, size)
            div = arith.DivUIOp(value, size)
            ops += [rem, div]
            results.append(rem.result)
            value = div.result
        results.append(value)
        rewriter.replace(op, ops, results[::-1])


class EraseUnusedSet(RewritePattern):
    """Erase set-building ops whose sets no loop iterates any more."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, RangeOp | StoredOp | SetAlgebraOp) and not op.result.uses:
            rewriter.erase(op)


@dataclass(frozen=True)
class LowerIndexingPass(ModulePass):
    """Lowers the indexing dialect to scf/arith/memref (see the module doc)."""

    name = "lower-indexing"

    strategy: str = "merge"
    """`merge` (co-iteration loops) or `dense-expansion` (see the module doc)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.strategy not in ("merge", "dense-expansion"):
            raise DiagnosticException(
                f"lower-indexing: unknown strategy '{self.strategy}' "
                "(expected merge or dense-expansion)"
            )
        patterns: list[RewritePattern] = [LowerLinearize(), LowerDelinearize()]
        if self.strategy == "dense-expansion":
            patterns.append(LowerForeachByDenseExpansion())
        patterns += [
            LowerParallelForeach(),
            LowerForeachByMerge(),
            LowerSegmentEnd(),
            EraseUnusedSet(),
        ]
        IterativeRewriteWalker(
            GreedyRewritePatternApplier(patterns), walk_regions_first=True
        ).rewrite_module(op)
        IterativeRewriteWalker(
            CollapseRowReduction(), apply_recursively=False
        ).rewrite_module(op)
