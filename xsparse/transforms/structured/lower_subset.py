"""`lower-subset`: gather, scatter and concat -> buffers, loops, copies and views.

Mirrors the RFC "Structured Codegen Beyond Rectangular Arrays" (seed 003),
sections "GatherOp and Friends" (lowering to loops is tiling by 1 on the
gathered dimensions: one loop per batch dimension of the indices, the slice
copied whole under it), "ConcatOp" and "Bufferization, Copy, View":

* tensor forms are bufferized: operands through `bufferization.to_buffer`, the
  result a fresh buffer seen through `bufferization.to_tensor` (a scatter whose
  destination has no other use writes it in place, as an `outs`);
* `gather copy` allocates its result and fills it in a loop nest; an
  `out_of_bounds(%pad)` tuple fills its slice with `%pad`;
* `gather view` into a `!jagged.buffer` allocates only the outer array and sets
  each inner buffer to a `memref.subview` of the input: no value moves; into a
  strided memref it is one `memref.reinterpret_cast` at the first index (the
  indices are one contiguous range);
* `scatter` is a loop nest of stores (`out_of_bounds(skip)` guards each slice);
* `concat` (unless `copy`) inverts the flow of SSA values when every operand is
  a fresh allocation used only by loads, stores and the concat: one destination
  is allocated and each operand becomes a `memref.subview` of it, so that the
  producers write the result in place; otherwise it copies.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, bufferization, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import Pure

from xsparse.dialects import jagged
from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.dialects.subset import (
    ConcatOp,
    GatherOp,
    ScatterOp,
    SubsetMode,
    memref_strides,
    slice_dims,
    strided_type,
)
from xsparse.dialects.type_guards import (
    is_memref_type,
    is_tensor_or_memref_type,
    is_tensor_type,
)
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.codegen_utils.op_emitter import INDEX, OpEmitter, OpT, to_tensor
from xsparse.transforms.errors import PassFailure
from xsparse.xdsl_adapter import IterativeRewriteWalker, walk_iteratively

DYNAMIC = DYNAMIC_INDEX


class NestEmitter(OpEmitter):
    """Inserts ops at a moving point: `loops` and `if_` move it into the bodies
    they build, so that a pattern writes a whole loop nest in order. Index
    constants are made once, before everything emitted at `start`, and shared
    by the emitters `at` other points (the shared `Emitter` has a fixed point
    and makes a constant where it is asked for)."""

    def __init__(self, point: InsertPoint):
        self.point = point
        self.start = point
        self._constants: dict[int, SSAValue] = {}
        self._first: list[Operation] = []  # the first op emitted at `start`

    def at(self, point: InsertPoint) -> NestEmitter:
        """An emitter at `point` sharing this one's constants."""
        other = NestEmitter(point)
        other.start = self.start
        other._constants = self._constants
        other._first = self._first
        return other

    def op(self, op: OpT) -> OpT:
        Rewriter.insert_op(op, self.point)
        if not self._first and self.point is self.start:
            self._first.append(op)
        return op

    def index(self, n: int) -> SSAValue:
        """An index constant, created once, before everything emitted at `start`."""
        found = self._constants.get(n)
        if found is None:
            constant = arith.ConstantOp(IntegerAttr(n, INDEX))
            point = InsertPoint.before(self._first[0]) if self._first else self.start
            Rewriter.insert_op(constant, point)
            self._first[:1] = [constant]
            found = self._constants[n] = constant.result
        return found

    @contextmanager
    def loops(
        self, bounds: Sequence[SSAValue]
    ) -> Generator[list[SSAValue], None, None]:
        """A nest of `scf.for` from 0 to each bound; the body goes inside."""
        outer = self.point
        zero = self.index(0) if bounds else None
        one = self.index(1) if bounds else None
        ivs: list[SSAValue] = []
        for bound in bounds:
            assert zero is not None and one is not None
            body = Block(arg_types=[INDEX])
            body.add_op(scf.YieldOp())
            self.op(scf.ForOp(zero, bound, one, [], Region(body)))
            ivs.append(body.args[0])
            self.point = InsertPoint.before(body.last_op)  # pyright: ignore[reportArgumentType]
        try:
            yield ivs
        finally:
            self.point = outer

    @contextmanager
    def if_(
        self, condition: SSAValue, with_else: bool = False
    ) -> Generator[Callable[[], None], None, None]:
        """`scf.if` without results; the body goes in `then`, `otherwise()` moves
        the insertion point to the `else` block."""
        outer = self.point
        then_block = Block([scf.YieldOp()])
        else_block = Block([scf.YieldOp()])
        self.op(
            scf.IfOp(
                condition,
                [],
                Region(then_block),
                Region(else_block) if with_else else None,
            )
        )
        self.point = InsertPoint.before(then_block.last_op)  # pyright: ignore[reportArgumentType]

        def otherwise() -> None:
            self.point = InsertPoint.before(else_block.last_op)  # pyright: ignore[reportArgumentType]

        try:
            yield otherwise
        finally:
            self.point = outer


def memref_of(t: Attribute) -> MemRefType[Attribute]:
    assert is_tensor_type(t)
    return MemRefType(t.element_type, t.get_shape())


def buffer_of(tensor: SSAValue, e: NestEmitter) -> SSAValue:
    """The buffer behind a tensor (the memref of a `to_tensor`, else a `to_buffer`)."""
    owner = tensor.owner
    if isinstance(owner, bufferization.ToTensorOp):
        return owner.memref
    if isinstance(owner, Block):  # an argument: one buffer, at the block's start
        for use in tensor.uses:
            if (
                isinstance(use.operation, bufferization.ToBufferOp)
                and use.operation.parent_block() is owner
            ):
                return use.operation.results[0]
    to_buffer = bufferization.ToBufferOp.create(
        operands=[tensor], result_types=[memref_of(tensor.type)]
    )
    if isinstance(owner, Block):
        Rewriter.insert_op(to_buffer, InsertPoint.at_start(owner))
        return to_buffer.results[0]
    return e.value(to_buffer)


def _coordinate_values(
    e: NestEmitter, indices: SSAValue, batch: Sequence[SSAValue], count: int
) -> list[SSAValue]:
    """The coordinate tuple at `indices[batch..., :]`, as index values."""
    t = indices.type
    assert is_memref_type(t)
    values: list[SSAValue] = []
    for j in range(count):
        v = e.load(indices, [*batch, e.index(j)])
        if not isinstance(t.element_type, IndexType):  # signed: negatives are huge
            v = e.value(upstream_arith.IndexCastOp(v, INDEX))
        values.append(v)
    return values


def _in_bounds(
    e: NestEmitter, coords: Sequence[SSAValue], sizes: Sequence[SSAValue]
) -> SSAValue:
    """All coordinates within their sizes (one unsigned compare each: negative
    values are huge)."""
    result: SSAValue | None = None
    for c, size in zip(coords, sizes, strict=True):
        ok = e.cmp(c, "ult", size)
        result = ok if result is None else e.value(arith.AndIOp(result, ok))
    assert result is not None
    return result


def _report(e: NestEmitter, rewriter: PatternRewriter, message: str) -> None:
    """`xsparse_runtime_error(message)` at `e`'s point: bad run-time data (the
    kernel goes on, so the caller keeps every access in bounds)."""
    Emitter(rewriter, e.point).runtime_error(message)


def _size_text(buffer: SSAValue, d: int) -> str:
    size = _shaped(buffer).get_shape()[d]
    return "size" if size == DYNAMIC else str(size)


def _report_out_of_range(
    e: NestEmitter,
    rewriter: PatternRewriter,
    what: str,
    coords: Sequence[SSAValue],
    sizes: Sequence[SSAValue],
    buffer: SSAValue,
    dims: Sequence[int],
) -> None:
    """The error for an index tuple out of range: the first dimension it leaves."""
    for c, size, d in zip(coords, sizes, dims, strict=True):
        message = (
            f"{what}: index out of range [0, {_size_text(buffer, d)}) in dimension {d}"
        )
        if len(coords) == 1:
            _report(e, rewriter, message)
            return
        with e.if_(e.cmp(c, "uge", size)):
            _report(e, rewriter, message)


@contextmanager
def _checked(
    e: NestEmitter,
    rewriter: PatternRewriter,
    what: str,
    coords: Sequence[SSAValue],
    sizes: Sequence[SSAValue],
    buffer: SSAValue,
    dims: Sequence[int],
) -> Generator[None, None, None]:
    """The body runs for an index tuple within `buffer`; any other tuple is a
    run-time error and touches nothing."""
    with e.if_(_in_bounds(e, coords, sizes), with_else=True) as otherwise:
        yield
        otherwise()
        _report_out_of_range(e, rewriter, what, coords, sizes, buffer, dims)


def _merge(
    rank: int,
    coordinates: Sequence[int],
    coords: Sequence[SSAValue],
    rest: Sequence[SSAValue],
) -> list[SSAValue]:
    """A full index of a rank-`rank` buffer: `coords` at `coordinates`, `rest` elsewhere."""
    at = dict(zip(coordinates, coords, strict=True))
    others = iter(rest)
    return [at[d] if d in at else next(others) for d in range(rank)]


def _shaped(value: SSAValue) -> MemRefType[Attribute]:
    t = value.type
    assert is_memref_type(t)
    return t


class BufferizeGather(RewritePattern):
    """Tensor `subset.gather` -> a buffer gather (copy) seen as a tensor."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GatherOp, rewriter: PatternRewriter) -> None:
        if not is_tensor_type(op.result.type):
            return
        e = NestEmitter(InsertPoint.before(op))
        gather = GatherOp(
            buffer_of(op.input, e),
            buffer_of(op.indices, e),
            memref_of(op.result.type),
            op.coordinate_dims(_rank(op.input)) if op.coordinates_attr else None,
            SubsetMode.COPY,
            op.padding,
        )
        rewriter.replace(op, [], [e.value(to_tensor(e.value(gather), owned=True))])


def _rank(value: SSAValue) -> int:
    t = value.type
    assert is_tensor_or_memref_type(t)
    return t.get_num_dims()


class BufferizeScatter(RewritePattern):
    """Tensor `subset.scatter` -> a buffer scatter into the destination's buffer
    (in place when the destination has no other use, else into a copy)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ScatterOp, rewriter: PatternRewriter) -> None:
        if op.result is None:
            return
        in_place = op.dest.uses.get_length() == 1
        e = NestEmitter(InsertPoint.before(op))
        dest = buffer_of(op.dest, e)
        if not in_place:
            copy = e.alloc(_shaped(dest), e.sizes(dest))
            _copy_into(e, dest, copy, dim=0, offset=None)
            dest = copy
        e.op(
            ScatterOp(
                buffer_of(op.source, e),
                dest,
                buffer_of(op.indices, e),
                op.coordinate_dims(_rank(dest)) if op.coordinates_attr else None,
                SubsetMode.COPY,
                op.skip_out_of_bounds is not None,
            )
        )
        rewriter.replace(op, [], [e.value(to_tensor(dest, owned=True))])


class BufferizeConcat(RewritePattern):
    """Tensor `subset.concat` -> a buffer concat seen as a tensor. A concat with
    a sparse operand or result stays: `sparse-tensor-codegen` builds it by
    level buffers (`xsparse.transforms.storage.concat`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConcatOp, rewriter: PatternRewriter) -> None:
        if not is_tensor_type(op.result.type):
            return
        if any(sparse_encoding(v.type) for v in (*op.inputs, op.result)):
            return
        e = NestEmitter(InsertPoint.before(op))
        concat = ConcatOp(
            [buffer_of(v, e) for v in op.inputs],
            op.dim,
            memref_of(op.result.type),
            op.semantics,
        )
        rewriter.replace(op, [], [e.value(to_tensor(e.value(concat), owned=True))])


class GatherCopyToLoops(RewritePattern):
    """Buffer `gather copy` -> a fresh buffer and, per index tuple (tiling by 1 on
    the gathered dimensions), a copy of its slice."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GatherOp, rewriter: PatternRewriter) -> None:
        res = op.result.type
        if not is_memref_type(res) or op.semantics == SubsetMode.VIEW:
            return
        if not isinstance(res.layout, NoneAttr):
            raise PassFailure(op, "a gather copy allocates an identity-layout result")
        e = NestEmitter(InsertPoint.before(op))
        src, idx = op.input, op.indices
        rank = _rank(src)
        coordinates = op.coordinate_dims(rank)
        kept = slice_dims(rank, coordinates)
        batch_sizes = e.sizes(idx, range(_rank(idx) - 1))
        slice_sizes = e.sizes(src, kept)
        limits = e.sizes(src, coordinates)
        out = e.alloc(res, batch_sizes + slice_sizes)
        with e.loops(batch_sizes) as batch:
            coords = _coordinate_values(e, idx, batch, len(coordinates))

            def copy_slice() -> None:
                with e.loops(slice_sizes) as rest:
                    v = e.load(src, _merge(rank, coordinates, coords, rest))
                    e.store(v, out, [*batch, *rest])

            if not coordinates:
                copy_slice()
            elif op.padding is None:
                with _checked(
                    e, rewriter, "subset.gather", coords, limits, src, coordinates
                ):
                    copy_slice()
            else:
                in_bounds = _in_bounds(e, coords, limits)
                with e.if_(in_bounds, with_else=True) as otherwise:
                    copy_slice()
                    otherwise()
                    with e.loops(slice_sizes) as rest:
                        e.store(op.padding, out, [*batch, *rest])
        rewriter.replace(op, [], [out])


def _slice_type(src: SSAValue, kept: Sequence[int]) -> MemRefType[Attribute]:
    t = _shaped(src)
    strides = memref_strides(t)
    assert strides is not None
    shape = t.get_shape()
    return strided_type(
        t.element_type, [shape[d] for d in kept], [strides[d] for d in kept]
    )


class GatherViewToJagged(RewritePattern):
    """Buffer `gather view` into a `!jagged.buffer` -> the outer array, each inner
    buffer a `memref.subview` of the input (descriptors move, values do not)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GatherOp, rewriter: PatternRewriter) -> None:
        res = op.result.type
        if not isinstance(res, jagged.JaggedBufferType):
            return
        e = NestEmitter(InsertPoint.before(op))
        src, idx = op.input, op.indices
        rank = _rank(src)
        coordinates = op.coordinate_dims(rank)
        kept = slice_dims(rank, coordinates)
        batch_sizes = e.sizes(idx, range(_rank(idx) - 1))
        dynamic_outer = [
            s for s, d in zip(batch_sizes, res.get_shape(), strict=True) if d == DYNAMIC
        ]
        out = e.value(jagged.AllocOp(dynamic_outer, res))
        shape = _shaped(src).get_shape()
        slice_type = _slice_type(src, kept)
        limits = e.sizes(src, coordinates)
        with e.loops(batch_sizes) as batch:
            coords = _coordinate_values(e, idx, batch, len(coordinates))
            if coordinates:  # out of range: an error, and a view at 0
                in_bounds = _in_bounds(e, coords, limits)
                with e.if_(in_bounds, with_else=True) as otherwise:
                    otherwise()
                    _report_out_of_range(
                        e, rewriter, "subset.gather", coords, limits, src, coordinates
                    )
                coords = [e.select(in_bounds, c, e.index(0)) for c in coords]
            at = dict(zip(coordinates, coords, strict=True))
            dyn_offsets = [at[d] for d in range(rank) if d in at]
            dyn_sizes = [e.size(src, d) for d in kept if shape[d] == DYNAMIC]
            view = memref.SubviewOp(
                src,
                dyn_offsets,
                dyn_sizes,
                [],
                [DYNAMIC if d in at else 0 for d in range(rank)],
                [1 if d in at else shape[d] for d in range(rank)],
                [1] * rank,
                slice_type,
            )
            e.op(jagged.SetOp(e.value(view), out, batch))
        rewriter.replace(op, [], [out])


class GatherViewToStrided(RewritePattern):
    """Buffer `gather view` into a strided memref -> one `memref.reinterpret_cast`
    at the first index (the indices are a contiguous range, as the RFC notes)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GatherOp, rewriter: PatternRewriter) -> None:
        res = op.result.type
        if not is_memref_type(res) or op.semantics != SubsetMode.VIEW:
            return
        src_type = _shaped(op.input)
        if not isinstance(src_type.layout, NoneAttr):
            raise PassFailure(op, "a range view needs an identity-layout input")
        e = NestEmitter(InsertPoint.before(op))
        rank = src_type.get_num_dims()
        (c,) = op.coordinate_dims(rank)
        kept = slice_dims(rank, [c])
        shape = src_type.get_shape()
        static_strides = memref_strides(src_type)
        assert static_strides is not None
        sizes = e.sizes(op.input)
        strides: list[SSAValue] = [e.index(1)] * rank
        for d in reversed(range(rank - 1)):
            strides[d] = e.mul(strides[d + 1], sizes[d + 1])
        count = e.size(op.indices, 0)
        first = _first_index(e, op.indices, count)
        # The range [first, first + count) must lie in the input; otherwise a
        # run-time error and an empty view at 0.
        bad = e.value(
            arith.OrIOp(
                e.cmp(first, "ugt", sizes[c]),
                e.cmp(count, "ugt", e.sub(sizes[c], first)),
            )
        )
        with e.if_(bad):
            _report(
                e,
                rewriter,
                "subset.gather: index range out of range "
                f"[0, {_size_text(op.input, c)}) in dimension {c}",
            )
        first = e.select(bad, e.index(0), first)
        count = e.select(bad, e.index(0), count)
        offset = e.mul(first, strides[c])
        result_sizes = [DYNAMIC] + [shape[d] for d in kept]
        result_strides = [static_strides[d] for d in [c, *kept]]
        cast = memref.ReinterpretCastOp(
            op.input,
            [offset],
            [count] + [sizes[d] for d in kept if shape[d] == DYNAMIC],
            [strides[d] for d in [c, *kept] if static_strides[d] == DYNAMIC],
            [DYNAMIC],
            result_sizes,
            result_strides,
            res,
        )
        rewriter.replace(op, [], [e.value(cast)])


def _first_index(e: NestEmitter, indices: SSAValue, count: SSAValue) -> SSAValue:
    """`indices[0, 0]` as an index, 0 when there are no indices (never read then)."""
    then_block, else_block = Block(), Block()
    inner = e.at(InsertPoint.at_end(then_block))
    (value,) = _coordinate_values(inner, indices, [e.index(0)], 1)
    then_block.add_op(scf.YieldOp(value))
    else_block.add_op(scf.YieldOp(e.index(0)))
    nonempty = e.cmp(count, "ne", e.index(0))
    return e.value(scf.IfOp(nonempty, [INDEX], Region(then_block), Region(else_block)))


class ScatterToLoops(RewritePattern):
    """Buffer `subset.scatter` -> per index tuple, the source slice stored at it."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ScatterOp, rewriter: PatternRewriter) -> None:
        if op.result is not None:
            return
        e = NestEmitter(InsertPoint.before(op))
        dst, idx = op.dest, op.indices
        rank = _rank(dst)
        coordinates = op.coordinate_dims(rank)
        kept = slice_dims(rank, coordinates)
        batch_sizes = e.sizes(idx, range(_rank(idx) - 1))
        slice_sizes = e.sizes(dst, kept)
        limits = e.sizes(dst, coordinates)
        with e.loops(batch_sizes) as batch:
            coords = _coordinate_values(e, idx, batch, len(coordinates))

            def store_slice() -> None:
                with e.loops(slice_sizes) as rest:
                    v = e.load(op.source, [*batch, *rest])
                    e.store(v, dst, _merge(rank, coordinates, coords, rest))

            if not coordinates:
                store_slice()
            elif op.skip_out_of_bounds is None:
                with _checked(
                    e, rewriter, "subset.scatter", coords, limits, dst, coordinates
                ):
                    store_slice()
            else:
                with e.if_(_in_bounds(e, coords, limits)):
                    store_slice()
        rewriter.erase(op)


def _copy_into(
    e: NestEmitter,
    source: SSAValue,
    target: SSAValue,
    dim: int,
    offset: SSAValue | None,
    extents: Sequence[SSAValue] | None = None,
) -> None:
    """`target[i + offset along dim] = source[i]` over all of `source` (or the
    first `extents` of it)."""
    if extents is None:
        extents = e.sizes(source)
    with e.loops(extents) as ivs:
        v = e.load(source, ivs)
        at = list(ivs)
        if offset is not None:
            at[dim] = e.add(at[dim], offset)
        e.store(v, target, at)


def _concat_sizes(e: NestEmitter, op: ConcatOp) -> list[SSAValue]:
    """Every size of a concat's result (the concatenated one summed)."""
    res = _shaped(op.result)
    sizes: list[SSAValue] = []
    for d, static in enumerate(res.get_shape()):
        if static != DYNAMIC:
            sizes.append(e.index(static))
        elif d == op.dim:
            parts = [e.size(v, d) for v in op.inputs]
            total = parts[0]
            for p in parts[1:]:
                total = e.add(total, p)
            sizes.append(total)
        else:
            sizes.append(e.size(op.inputs[0], d))
    return sizes


def _unknown_dims(op: ConcatOp) -> list[int]:
    """The dimensions in which the operands' sizes may disagree with the result's
    at run time (a dynamic size on either side; static ones are verified)."""
    res = _shaped(op.result).get_shape()
    shapes = [_shaped(v).get_shape() for v in op.inputs]
    unknown: list[int] = []
    for d in range(len(res)):
        if d == op.dim:
            if res[d] != DYNAMIC and any(sh[d] == DYNAMIC for sh in shapes):
                unknown.append(d)
        elif any(sh[d] == DYNAMIC for sh in shapes) and (
            res[d] != DYNAMIC or len(shapes) > 1
        ):
            unknown.append(d)
    return unknown


def _fits(op: ConcatOp, v: SSAValue, d: int) -> bool:
    """Operand `v` has the result's size in dimension `d` (not the concatenated
    one) by construction: both static, or the result's size is read from `v`."""
    res = _shaped(op.result).get_shape()[d]
    own = _shaped(v).get_shape()[d]
    if d == op.dim:
        return False
    return (res != DYNAMIC and own != DYNAMIC) or (res == DYNAMIC and v is op.inputs[0])


def _check_concat_sizes(
    e: NestEmitter, rewriter: PatternRewriter, op: ConcatOp, sizes: Sequence[SSAValue]
) -> None:
    """A run-time error where an operand's size outside the concatenated
    dimension differs from the result's, or where the sizes along it do not add
    up to a static result size."""
    for d in _unknown_dims(op):
        if d == op.dim:
            parts = [e.size(v, d) for v in op.inputs]
            total = parts[0]
            for p in parts[1:]:
                total = e.add(total, p)
            bad = e.cmp(total, "ne", sizes[d])
            message = (
                f"subset.concat: the operands' sizes in dimension {d} do not add "
                f"up to the result's size {_size_text(op.result, d)}"
            )
        else:
            flags = [
                e.cmp(e.size(v, d), "ne", sizes[d])
                for v in op.inputs
                if not _fits(op, v, d)
            ]
            if not flags:
                continue
            bad = flags[0]
            for f in flags[1:]:
                bad = e.value(arith.OrIOp(bad, f))
            message = (
                f"subset.concat: the operands' sizes differ in dimension {d} "
                f"(only dimension {op.dim} is concatenated)"
            )
        with e.if_(bad):
            _report(e, rewriter, message)


class ConcatToCopies(RewritePattern):
    """Buffer `subset.concat` -> a fresh buffer and one copy loop nest per operand
    (sizes checked at run time where they are dynamic; each copy stays within
    its operand and the result)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConcatOp, rewriter: PatternRewriter) -> None:
        if not is_memref_type(op.result.type):
            return
        e = NestEmitter(InsertPoint.before(op))
        sizes = _concat_sizes(e, op)
        out = e.alloc(_shaped(op.result), sizes)
        unknown = _unknown_dims(op)
        if unknown:
            _check_concat_sizes(e, rewriter, op, sizes)
        offset: SSAValue | None = None
        for v in op.inputs:
            extents = e.sizes(v)
            for d in unknown:  # never past the result
                if _fits(op, v, d):
                    continue
                room = sizes[d]
                if d == op.dim and offset is not None:
                    room = e.sub(room, e.value(arith.MinUIOp(offset, room)))
                extents[d] = e.value(arith.MinUIOp(extents[d], room))
            _copy_into(e, v, out, op.dim, offset, extents)
            size = e.size(v, op.dim)
            offset = size if offset is None else e.add(offset, size)
        rewriter.replace(op, [], [out])


_IN_PLACE_USERS = (memref.LoadOp, memref.StoreOp, memref.DimOp, memref.DeallocOp)


def _dominates(value: SSAValue, point: Operation) -> bool:
    """`value` is defined before `point` in its block or in an enclosing block."""
    here: Operation | None = point
    while here is not None:
        block = here.parent_block()
        if block is None:
            return False
        if value.owner is block:
            return True
        owner = value.owner
        if isinstance(owner, Operation) and owner.parent_block() is block:
            return block.get_operation_index(owner) < block.get_operation_index(here)
        here = block.parent_op()
    return False


def _available(value: SSAValue, point: Operation) -> SSAValue | None:
    """`value` usable at `point`: itself, or a clone of its pure, region-free
    definition (and of the definitions it needs) inserted before `point`."""
    if _dominates(value, point):
        return value
    owner = value.owner
    movable = isinstance(owner, memref.DimOp) or (
        isinstance(owner, Operation) and not owner.regions and owner.has_trait(Pure)
    )
    if not movable:
        return None
    assert isinstance(owner, Operation)
    operands = [_available(o, point) for o in owner.operands]
    if any(o is None for o in operands):
        return None
    clone = owner.clone()
    for i, o in enumerate(operands):
        assert o is not None
        clone.operands[i] = o
    Rewriter.insert_op(clone, InsertPoint.before(point))
    return clone.results[value.index]  # pyright: ignore[reportUnknownVariableType, reportAttributeAccessIssue]


def _built_in_place(value: SSAValue, concat: ConcatOp) -> memref.AllocOp | None:
    """The allocation behind a concat operand that may become a subview of the
    concat's result: a fresh identity buffer, in the concat's block, used only
    by loads, stores, dims, deallocs and this one concat operand."""
    alloc = value.owner
    if (
        not isinstance(alloc, memref.AllocOp)
        or alloc.parent_block() is not concat.parent_block()
    ):
        return None
    concat_uses = 0
    for use in value.uses:
        if use.operation is concat:
            concat_uses += 1
        elif not isinstance(use.operation, _IN_PLACE_USERS) or (
            isinstance(use.operation, memref.StoreOp) and use.index == 0
        ):
            return None
    return alloc if concat_uses == 1 else None


class ConcatInPlace(RewritePattern):
    """Buffer `subset.concat` whose operands are fresh buffers -> one destination
    buffer, each operand a subview of it (RFC: inverting the flow of SSA values)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConcatOp, rewriter: PatternRewriter) -> None:
        if not is_memref_type(op.result.type) or op.semantics == SubsetMode.COPY:
            return
        allocs = [_built_in_place(v, op) for v in op.inputs]
        if any(a is None for a in allocs) or len({id(a) for a in allocs}) != len(
            allocs
        ):
            return
        if not _sizes_agree(op, [a for a in allocs if a is not None]):
            return  # the copies check them at run time
        block = op.parent_block()
        assert block is not None
        first = min(allocs, key=lambda a: block.get_operation_index(a))  # pyright: ignore[reportArgumentType]
        assert first is not None
        e = NestEmitter(InsertPoint.before(first))
        sizes = _sizes_before(first, op, e)
        if sizes is None:
            return
        dest = e.alloc(_shaped(op.result), sizes)
        rank = _rank(dest)
        offset: SSAValue = e.index(0)
        for v, alloc in zip(op.inputs, allocs, strict=True):
            assert alloc is not None
            size = _available(_size_of_alloc(alloc, op.dim, e), first)
            assert size is not None
            t = _shaped(v)
            shape = t.get_shape()
            view_type = strided_type(
                t.element_type, shape, memref_strides(_shaped(dest)) or []
            )
            dyn_sizes = [_available(s, first) for s in alloc.dynamic_sizes]
            view = memref.SubviewOp(
                dest,
                [offset],
                [s for s in dyn_sizes if s is not None],
                [],
                [DYNAMIC if d == op.dim else 0 for d in range(rank)],
                list(shape),
                [1] * rank,
                view_type,
            )
            e.op(view)
            for use in list(v.uses):
                if isinstance(use.operation, memref.DeallocOp):
                    rewriter.erase(use.operation)
            v.replace_all_uses_with(view.result)
            offset = e.add(offset, size)
        for alloc in allocs:
            assert alloc is not None
            rewriter.erase(alloc)
        rewriter.replace(op, [], [dest])


def _same(a: int | SSAValue, b: int | SSAValue) -> bool:
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    return a is b


def _sizes_agree(op: ConcatOp, allocs: Sequence[memref.AllocOp]) -> bool:
    """The operands' allocations have the same size (static, or one SSA value)
    outside the concatenated dimension, and a static result size along it is
    their static sum: the subviews of the destination then hold them."""

    def size(a: memref.AllocOp, d: int) -> int | SSAValue:
        shape = _shaped(a.memref).get_shape()
        if shape[d] != DYNAMIC:
            return shape[d]
        return a.dynamic_sizes[sum(1 for s in shape[:d] if s == DYNAMIC)]

    res = _shaped(op.result).get_shape()
    for d in range(len(res)):
        sizes = [size(a, d) for a in allocs]
        if d == op.dim:
            if res[d] != DYNAMIC and any(not isinstance(s, int) for s in sizes):
                return False
        elif any(not _same(s, sizes[0]) for s in sizes) or (
            res[d] != DYNAMIC and not _same(sizes[0], res[d])
        ):
            return False
    return True


def _size_of_alloc(alloc: memref.AllocOp, d: int, e: NestEmitter) -> SSAValue:
    t = _shaped(alloc.memref)
    shape = t.get_shape()
    if shape[d] != DYNAMIC:
        return e.index(shape[d])
    position = sum(1 for s in shape[:d] if s == DYNAMIC)
    return alloc.dynamic_sizes[position]


def _sizes_before(
    first: Operation, op: ConcatOp, e: NestEmitter
) -> list[SSAValue] | None:
    """The concat result's sizes, computed before `first` from the operands' allocs."""
    allocs = [v.owner for v in op.inputs]
    res = _shaped(op.result)
    sizes: list[SSAValue] = []
    for d, static in enumerate(res.get_shape()):
        if static != DYNAMIC:
            sizes.append(e.index(static))
            continue
        parts = allocs if d == op.dim else allocs[:1]
        values = [
            _available(_size_of_alloc(a, d, e), first)  # pyright: ignore[reportArgumentType]
            for a in parts
        ]
        if any(v is None for v in values):
            return None
        total = values[0]
        assert total is not None
        for v in values[1:]:
            assert v is not None
            total = e.add(total, v)
        sizes.append(total)
    return sizes


def _erase_dead_casts(module: ModuleOp) -> None:
    """Drop the `to_tensor` / `to_buffer` ops bufferization left without users."""
    kinds = (bufferization.ToTensorOp, bufferization.ToBufferOp)
    for op in reversed(list(walk_iteratively(module))):
        if isinstance(op, kinds) and not op.results[0].uses:
            Rewriter.erase_op(op)


@dataclass(frozen=True)
class LowerSubsetPass(ModulePass):
    """Lower the subset dialect to buffers, loops, copies and jagged views."""

    name = "lower-subset"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for patterns in (
            [BufferizeGather(), BufferizeScatter(), BufferizeConcat()],
            [
                GatherCopyToLoops(),
                GatherViewToJagged(),
                GatherViewToStrided(),
                ScatterToLoops(),
            ],
            [ConcatInPlace(), ConcatToCopies()],
        ):
            IterativeRewriteWalker(
                GreedyRewritePatternApplier(list(patterns)), apply_recursively=False
            ).rewrite_module(op)
            _erase_dead_casts(op)
