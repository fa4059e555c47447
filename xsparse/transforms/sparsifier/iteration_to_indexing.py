"""`sparse-iteration-to-indexing`: MLIR 22's sparse iteration ops -> indexing set loops.

MLIR 22 expresses sparse loops with `sparse_tensor.extract_iteration_space`,
`sparse_tensor.iterate` and `sparse_tensor.coiterate` (SparseTensorOps.td) and
lowers them with `--lower-sparse-iteration-to-scf`. This pass maps them onto
the `indexing` dialect instead, so that `lower-indexing` (or a later
transformation) decides how to co-iterate:

- a one-level iteration space of a level is a leaf: `indexing.range` over the
  level size for a dense level, `indexing.stored` over the coordinates of the
  parent's segment for compressed (positions[p] to positions[p+1]) and
  singleton (p to p+1) levels;
- `sparse_tensor.iterate` is a one-case `indexing.foreach`;
  `sparse_tensor.coiterate` an `indexing.foreach` over the union of its spaces
  with the same cases (a case names exactly the spaces present at the
  coordinate, in both dialects);
- an iterator becomes its position (for a dense level under a parent at
  position p: p * size + coordinate); `sparse_tensor.extract_value` a load from
  the values buffer at that position.

While the rewrite is under way, `builtin.unrealized_conversion_cast` bridges
sets to iteration spaces and positions to iterators; none remain at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    IndexType,
    IntegerType,
    ModuleOp,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects import indexing
from xsparse.dialects.sparse_tensor.levels import LevelAccess
from xsparse.dialects.sparse_tensor.ops_common import sparse_type
from xsparse.dialects.sparse_tensor.ops_iteration import (
    CoIterateOp,
    ExtractIterSpaceOp,
    ExtractValOp,
)
from xsparse.dialects.sparse_tensor.ops_iteration import (
    IterateOp as SparseIterateOp,
)
from xsparse.dialects.sparse_tensor.ops_storage import (
    LvlOp,
    ToCoordinatesOp,
    ToPositionsOp,
    ToValuesOp,
)
from xsparse.dialects.sparse_tensor.ops_yield import YieldOp as SparseYieldOp
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.transforms.codegen_utils.op_emitter import (
    BuilderEmitter,
    constant_index,
)
from xsparse.transforms.errors import PassFailure
from xsparse.xdsl_adapter import IterativeRewriteWalker

INDEX = IndexType()


@dataclass
class _DenseSpaces:
    """Parent position and size of the dense levels' ranges (None at the root)."""

    offsets: dict[SSAValue, tuple[SSAValue, SSAValue]] = field(
        default_factory=dict[SSAValue, tuple[SSAValue, SSAValue]]
    )


def _cast_source(value: SSAValue, type_: type) -> SSAValue | None:
    """The value a `unrealized_conversion_cast` made `value` from, if of `type_`."""
    op = value.owner
    if isinstance(op, UnrealizedConversionCastOp) and len(op.inputs) == 1:
        source = op.inputs[0]
        if isinstance(source.type, type_):
            return source
    return None


def _cast(b: Builder, value: SSAValue, type_: object) -> SSAValue:
    op = UnrealizedConversionCastOp.get([value], [type_])  # pyright: ignore[reportArgumentType]
    return b.insert(op).results[0]


def _index(b: Builder, value: SSAValue) -> SSAValue:
    if isinstance(value.type, IntegerType):
        if value.type.bitwidth < 64:
            value = b.insert(upstream_arith.ExtUIOp(value, IntegerType(64))).result
        value = b.insert(upstream_arith.IndexCastOp(value, INDEX)).result
    return value


def _no_size() -> SSAValue:
    raise AssertionError("the size of a level that is not dense")


@dataclass
class SpaceToSet(RewritePattern):
    """`extract_iteration_space` of one level -> an indexing leaf (range / stored)."""

    dense: _DenseSpaces

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: ExtractIterSpaceOp, rewriter: PatternRewriter
    ) -> None:
        lo_lvl, hi_lvl = op.lo_lvl.value.data, op.hi_lvl.value.data
        if hi_lvl != lo_lvl + 1:
            raise PassFailure(op, "only one-level iteration spaces are supported")
        parent: SSAValue | None = None
        if op.parent_iter is not None:
            parent = _cast_source(op.parent_iter, IndexType)
            if parent is None:
                return  # the parent loop is not converted yet
        b = Builder(InsertPoint.before(op))
        lt = sparse_type(op.tensor).lvl_types[lo_lvl]

        def const(value: int) -> SSAValue:
            return constant_index(b, value)

        positions: list[SSAValue] = []

        def position(k: SSAValue) -> SSAValue:
            if not positions:
                positions.append(b.insert(ToPositionsOp(op.tensor, lo_lvl)).results[0])
            return _index(b, b.insert(memref.LoadOp.get(positions[0], [k])).res)

        leaf: Operation
        fmt = lt.format
        if fmt.is_dense:
            size = b.insert(LvlOp(op.tensor, const(lo_lvl))).result
            leaf = b.insert(indexing.RangeOp(const(0), size))
            if parent is not None:
                self.dense.offsets[leaf.results[0]] = (parent, size)
        elif fmt.is_compact and (fmt.has_positions or fmt.is_branchless):
            # compressed and singleton levels (loose_compressed and structured
            # ones are not supported here yet)
            crd = b.insert(ToCoordinatesOp(op.tensor, lo_lvl)).results[0]
            access = LevelAccess(BuilderEmitter(b, fold=True), _no_size, position)
            lo, hi = fmt.segment(lt, access, const(0) if parent is None else parent)
            leaf = b.insert(
                indexing.StoredOp(
                    crd, lo, hi, ordered=lt.is_ordered, unique=lt.is_unique
                )
            )
        else:
            raise PassFailure(op, f"level type {lt} is not supported")
        space = _cast(b, leaf.results[0], op.extracted_space.type)
        rewriter.replace(op, [], [space])


def _convert_case(
    rewriter: PatternRewriter,
    dense: _DenseSpaces,
    leaves: Sequence[SSAValue],
    old: Block,
    new: Block,
    present: Sequence[int],
    num_crds: int,
    iterator_types: Sequence[object],
) -> None:
    """Move the body of a sparse_tensor case into an indexing.foreach case.

    Old block args: (iter_args, used coordinates, iterators of present spaces);
    new ones: (coordinate, positions of present leaves, iter_args).
    """
    crd = new.args[0]
    positions = new.args[1 : 1 + len(present)]
    iter_args = new.args[1 + len(present) :]
    b = Builder(InsertPoint.at_end(new))
    iterators: list[SSAValue] = []
    for leaf, pos, type_ in zip(present, positions, iterator_types, strict=True):
        position: SSAValue = pos
        if leaves[leaf] in dense.offsets:
            parent, size = dense.offsets[leaves[leaf]]
            base = b.insert(arith.MuliOp(parent, size)).result
            position = b.insert(arith.AddiOp(base, crd)).result
        iterators.append(_cast(b, position, type_))
    args = [*iter_args, *([crd] * num_crds), *iterators]
    assert len(args) == len(old.args)
    term = old.last_op
    assert isinstance(term, SparseYieldOp)
    rewriter.replace(term, indexing.YieldOp(*term.values))
    rewriter.inline_block(old, InsertPoint.at_end(new), args)


def _sets(spaces: Sequence[SSAValue]) -> list[SSAValue] | None:
    sets = [_cast_source(s, indexing.SetType) for s in spaces]
    if any(s is None for s in sets):
        return None
    return [s for s in sets if s is not None]


@dataclass
class IterateToForeach(RewritePattern):
    """`sparse_tensor.iterate` -> a one-case `indexing.foreach`."""

    dense: _DenseSpaces

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SparseIterateOp, rewriter: PatternRewriter) -> None:
        sets = _sets([op.iter_space])
        if sets is None:
            return
        loop = indexing.IterateOp(sets[0], list(op.init_args), [[0]])
        rewriter.insert(loop, InsertPoint.before(op))
        _convert_case(
            rewriter,
            self.dense,
            sets,
            op.region.block,
            loop.case_block(0),
            [0],
            op.num_crds,
            [op.iterator.type],
        )
        rewriter.replace(op, [], list(loop.results))


@dataclass
class CoIterateToForeach(RewritePattern):
    """`sparse_tensor.coiterate` -> `indexing.foreach` over the union of its spaces."""

    dense: _DenseSpaces

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CoIterateOp, rewriter: PatternRewriter) -> None:
        sets = _sets(list(op.iter_spaces))
        if sets is None:
            return
        union = sets[0]
        for other in sets[1:]:
            union_op = indexing.UnionOp(union, other)
            rewriter.insert(union_op, InsertPoint.before(op))
            union = union_op.result
        cases = [
            [i for i in range(len(sets)) if case.value.data >> i & 1]
            for case in op.cases.data
        ]
        loop = indexing.IterateOp(union, list(op.init_args), cases)
        rewriter.insert(loop, InsertPoint.before(op))
        num_crds = bin(op.crd_mask).count("1")
        for r, present in enumerate(cases):
            _convert_case(
                rewriter,
                self.dense,
                sets,
                op.case_regions[r].block,
                loop.case_block(r),
                present,
                num_crds,
                [it.type for it in op.region_iterators(r)],
            )
        rewriter.replace(op, [], list(loop.results))


class ExtractValueToLoad(RewritePattern):
    """`sparse_tensor.extract_value %t at %it` -> a load of the values at its position."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ExtractValOp, rewriter: PatternRewriter) -> None:
        position = _cast_source(op.iterator, IndexType)
        if position is None:
            return
        values = ToValuesOp(op.tensor)
        load = memref.LoadOp.get(values, [position])
        rewriter.replace(op, [values, load], [load.res])


class EraseDeadCast(RewritePattern):
    """Erase the bridging casts once nothing uses them."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: UnrealizedConversionCastOp, rewriter: PatternRewriter
    ) -> None:
        if not any(r.uses for r in op.results):
            rewriter.erase(op)


@dataclass(frozen=True)
class SparseIterationToIndexingPass(ModulePass):
    """Converts sparse_tensor iteration ops to indexing set loops (see the module doc)."""

    name = "sparse-iteration-to-indexing"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        dense = _DenseSpaces()
        IterativeRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    SpaceToSet(dense),
                    IterateToForeach(dense),
                    CoIterateToForeach(dense),
                    ExtractValueToLoad(),
                    EraseDeadCast(),
                ]
            )
        ).rewrite_module(op)
