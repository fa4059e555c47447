"""`bufferize-tile-loops`: tensor loops over slices, as `fuse-through-gather` makes them, to buffers.

The RFC "Structured Codegen Beyond Rectangular Arrays" (seed 003), section
"Fusing through Gather", tiles an elementwise consumer by 1 on the gathered
dimension: an `scf.for` carries the result tensor in `iter_args`, each
iteration reads tiles with `tensor.extract_slice`, computes one with a
`linalg.generic` and writes it back with `tensor.insert_slice`. MLIR runs
one-shot bufferization on that form; xsparse lowers it directly to buffers,
in place (the `sparsifier` runs it first):

* a loop whose tensor `iter_args` are only sliced and written back by slices
  (or handed to an inner such loop) carries no tensor any more: each one lives
  in one buffer, its `init`'s when the loop is that value's only user (an
  `outs`), else a copy of it (`BufferizeSliceLoop`);
* a `tensor.insert_slice` into such a buffer becomes a loop nest that stores
  each element of the inserted tile at its place; the element is computed
  where the tile comes from: through `tensor.extract_slice` (an offset and a
  stride into the sliced tensor), an elementwise `linalg.generic` (its body,
  on the elements of its operands) or a load from the tensor's buffer
  (`InsertSliceInPlace`). The tile is never materialized.

Named linalg ops on tensors (the RFC example's `linalg.matmul`) are generalized so
that `dense-linalg-to-loops` lowers them (`sparsification.GeneralizeNamedOp`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, bufferization, memref, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp, YieldOp
from xdsl.ir import OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter

from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.transforms.codegen_utils.op_emitter import to_tensor
from xsparse.transforms.convert_to_llvm.memref import kept_dimensions
from xsparse.transforms.sparsifier.sparsification import GeneralizeNamedOp
from xsparse.transforms.structured.lower_subset import NestEmitter, buffer_of, memref_of
from xsparse.xdsl_adapter import IterativeRewriteWalker, walk_iteratively

INDEX = IndexType()
AnySlice = tensor.ExtractSliceOp | tensor.InsertSliceOp


def _mixed(
    static: Sequence[int], dynamic: Sequence[SSAValue], e: NestEmitter
) -> list[SSAValue]:
    """Offsets, sizes or strides of a slice op as index values."""
    rest = iter(dynamic)
    return [next(rest) if s == DYNAMIC_INDEX else e.index(s) for s in static]


def _slice_place(
    op: AnySlice, e: NestEmitter, index: Sequence[SSAValue], rank: int
) -> list[SSAValue]:
    """The place in the sliced tensor of element `index` of the slice (whose
    rank is `rank`): offset + index * stride on kept dimensions, the offset on
    dropped ones."""
    static_offsets = op.static_offsets.get_values()
    static_strides = op.static_strides.get_values()
    offsets = _mixed(static_offsets, op.offsets, e)
    strides = _mixed(static_strides, op.strides, e)
    place = list(offsets)
    for i, d in zip(
        index, kept_dimensions(op.static_sizes.get_values(), rank), strict=True
    ):
        if _is_zero(i):
            continue
        step = i if static_strides[d] == 1 else e.mul(i, strides[d])
        place[d] = step if static_offsets[d] == 0 else e.add(offsets[d], step)
    return place


def _is_zero(value: SSAValue) -> bool:
    owner = value.owner
    return (
        isinstance(owner, arith.ConstantOp)
        and isinstance(owner.value, IntegerAttr)
        and owner.value.value.data == 0
    )


def _elementwise(op: GenericOp) -> bool:
    """All loops parallel, one tensor result, every map a projection."""
    return (
        len(op.res) == 1
        and len(op.outputs) == 1
        and all(it.data == IteratorType.PARALLEL for it in op.iterator_types)
        and all(
            all(isinstance(r, AffineDimExpr) for r in m.data.results)
            and m.data.num_symbols == 0
            for m in op.indexing_maps
        )
    )


def element(value: SSAValue, index: Sequence[SSAValue], e: NestEmitter) -> SSAValue:
    """The element of a dense tensor `value` at `index`, computed from where the
    value comes from (no tile is materialized)."""
    owner = value.owner
    if isinstance(owner, tensor.ExtractSliceOp):
        rank = len(index)
        return element(owner.source, _slice_place(owner, e, index, rank), e)
    if isinstance(owner, GenericOp) and _elementwise(owner):
        return _generic_element(owner, index, e)
    return e.load(buffer_of(value, e), index)


def _generic_element(
    op: GenericOp, index: Sequence[SSAValue], e: NestEmitter
) -> SSAValue:
    """An elementwise generic's result at `index`: its body on its operands'
    elements there."""
    mapping: dict[SSAValue, SSAValue] = {}
    operands = [*op.inputs, *op.outputs]
    for arg, operand, m in zip(
        op.body.block.args, operands, op.indexing_maps, strict=True
    ):
        if not is_tensor_type(operand.type):
            mapping[arg] = operand
            continue
        at = [index[r.position] for r in m.data.results if isinstance(r, AffineDimExpr)]
        mapping[arg] = element(operand, at, e)
    for body_op in op.body.block.ops:
        if isinstance(body_op, YieldOp):
            return mapping[body_op.operands[0]]
        if isinstance(body_op, IndexOp):
            mapping[body_op.result] = index[body_op.dim.value.data]
            continue
        clone = body_op.clone(value_mapper=mapping)
        e.op(clone)
        for old, new in zip(body_op.results, clone.results, strict=True):
            mapping[old] = new
    raise AssertionError("linalg.generic without linalg.yield")


def _in_place_on(value: SSAValue, carried: SSAValue) -> bool:
    """`value` is `carried` updated by slices written in place: insert_slices
    into it, or the result of an inner slice loop started from it."""
    while True:
        if value is carried:
            return True
        owner = value.owner
        if isinstance(owner, tensor.InsertSliceOp):
            value = owner.dest
        elif isinstance(owner, scf.ForOp) and _slice_loop(owner):
            value = owner.iter_args[cast(OpResult, value).index]
        else:
            return False


def _sliced_only(arg: SSAValue) -> bool:
    """A carried tensor used only as a slice's source or target, for its sizes,
    or as the start of an inner loop."""
    return all(
        isinstance(use.operation, tensor.ExtractSliceOp | tensor.DimOp)
        or (isinstance(use.operation, tensor.InsertSliceOp) and use.index == 1)
        or (isinstance(use.operation, scf.ForOp) and use.index >= 3)
        or isinstance(use.operation, scf.YieldOp)
        for use in arg.uses
    )


def _slice_loop(op: scf.ForOp) -> bool:
    """Every `iter_arg` of `op` is a dense tensor only sliced and yielded
    updated in place."""
    body = op.body.block
    yielded = body.last_op
    carried = body.args[1:]
    return (
        bool(carried)
        and isinstance(yielded, scf.YieldOp)
        and all(
            is_tensor_type(a.type) and sparse_encoding(a.type) is None for a in carried
        )
        and all(
            _sliced_only(a) and _in_place_on(y, a)
            for a, y in zip(carried, yielded.operands, strict=True)
        )
    )


def _own_buffer(init: SSAValue, loop: scf.ForOp, e: NestEmitter) -> SSAValue:
    """The buffer a loop starting from `init` updates: `init`'s own when the
    loop is its only reader, else a copy."""
    buffer = buffer_of(init, e)
    if all(
        use.operation is loop or isinstance(use.operation, bufferization.ToBufferOp)
        for use in init.uses
    ):
        return buffer
    t = memref_of(init.type)
    fresh = e.alloc(t, e.sizes(buffer))
    e.op(memref.CopyOp(buffer, fresh))
    return fresh


def bufferize_slice_loop(op: scf.ForOp, rewriter: PatternRewriter) -> None:
    """`op` (a `_slice_loop`) over buffers, with the slices written into them
    and the inner slice loops so converted too (at once: once the loop yields
    nothing they would be dead)."""
    body = op.body.block
    e = NestEmitter(InsertPoint.before(op))
    buffers = [_own_buffer(init, op, e) for init in op.iter_args]
    inside = NestEmitter(InsertPoint.at_start(body))
    for arg, buffer in zip(body.args[1:], buffers, strict=True):
        arg.replace_all_uses_with(inside.value(to_tensor(buffer, arg.type)))
        body.erase_arg(arg)
    for inner in list(body.ops):
        if isinstance(inner, tensor.InsertSliceOp) and isinstance(
            inner.dest.owner, bufferization.ToTensorOp
        ):
            store_slice(inner, rewriter)
        elif isinstance(inner, scf.ForOp) and _slice_loop(inner):
            bufferize_slice_loop(inner, rewriter)
    assert body.last_op is not None
    rewriter.replace(body.last_op, scf.YieldOp())
    loop = scf.ForOp(op.lb, op.ub, op.step, [], op.detach_region(op.body))
    rewriter.insert(loop, InsertPoint.before(op))
    after = NestEmitter(InsertPoint.after(loop))
    views = [
        after.value(to_tensor(b, r.type))
        for b, r in zip(buffers, op.results, strict=True)
    ]
    rewriter.replace(op, [], views)


def store_slice(op: tensor.InsertSliceOp, rewriter: PatternRewriter) -> None:
    """`op`, whose destination is a buffer's view, as a loop nest storing each
    element of the inserted tile into the buffer."""
    view = op.dest.owner
    assert isinstance(view, bufferization.ToTensorOp)
    tile_type = op.source.type
    assert isinstance(tile_type, TensorType)
    rank = tile_type.get_num_dims()
    e = NestEmitter(InsertPoint.before(op))
    sizes = _mixed(op.static_sizes.get_values(), op.sizes, e)
    kept = kept_dimensions(op.static_sizes.get_values(), rank)
    static_sizes = op.static_sizes.get_values()
    looped = [k for k, d in enumerate(kept) if static_sizes[d] != 1]
    with e.loops([sizes[kept[k]] for k in looped]) as ivs:
        at = dict(zip(looped, ivs, strict=True))
        index = [at.get(k, e.index(0)) for k in range(rank)]
        value = element(op.source, index, e)
        place = _slice_place(op, e, index, rank)
        e.store(value, view.memref, place)
    rewriter.replace(op, [], [op.dest])


class BufferizeSliceLoop(RewritePattern):
    """An `scf.for` whose tensor `iter_args` are dense and only sliced, and
    which yields each updated in place -> the same loop without results over
    one buffer per carried tensor (its start's buffer when the loop is its
    only user, else a copy); each `tensor.insert_slice` into one becomes a
    loop nest storing the tile's elements, computed where the tile comes from."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        if _slice_loop(op):
            bufferize_slice_loop(op, rewriter)


class InsertSliceInPlace(RewritePattern):
    """`tensor.insert_slice %tile into %t` with `%t` a view of a buffer -> a loop
    nest storing each element of `%tile` (computed where it comes from) at its
    place in the buffer; the result is the same view."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tensor.InsertSliceOp, rewriter: PatternRewriter
    ) -> None:
        if isinstance(op.dest.owner, bufferization.ToTensorOp):
            store_slice(op, rewriter)


def _erase_dead_tiles(module: ModuleOp) -> None:
    """Drop the slices, elementwise generics and tensor views nothing reads any more."""
    kinds = (tensor.ExtractSliceOp, GenericOp, bufferization.ToTensorOp)
    for op in reversed(list(walk_iteratively(module))):
        if isinstance(op, kinds) and op.results and not any(r.uses for r in op.results):
            if isinstance(op, GenericOp) and not _elementwise(op):
                continue
            Rewriter.erase_op(op)


@dataclass(frozen=True)
class BufferizeTileLoopsPass(ModulePass):
    """Tensor loops over slices (and dense matmuls feeding them) -> buffers."""

    name = "bufferize-tile-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        IterativeRewriteWalker(
            GreedyRewritePatternApplier(
                [GeneralizeNamedOp(), BufferizeSliceLoop(), InsertSliceInPlace()]
            ),
            apply_recursively=True,
        ).rewrite_module(op)
        _erase_dead_tiles(op)
