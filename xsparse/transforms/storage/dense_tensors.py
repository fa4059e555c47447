"""`tensor.generate`, `tensor.pad` and `tensor.insert` of dense tensors ->
buffers: a fresh one filled by a loop nest, or a copy written once.

Mirrors what MLIR 22's one-shot bufferization does with them
(Tensor/Transforms/BufferizableOpInterfaceImpl.cpp: an allocation, then
`linalg.map` (generate) or the padding's `linalg.map` and a copy of the
source into the interior (pad), lowered to loops): one `scf.for` per
dimension, the body inlined at the innermost one with its index arguments
replaced by the loops' variables, its `tensor.yield` a `memref.store`. A pad
of a sparse tensor is folded into the kernel that reads it (sparsification).
`tensor.insert` writes a copy of its destination's buffer (MLIR writes in
place where its analysis proves the old tensor dead).

A dense `tensor.collapse_shape`/`expand_shape` is `memref.collapse_shape`/
`expand_shape` of the source's buffer (a view, as in MLIR), copied first
where either side is released by `dealloc_tensor`. `scf.for`, `scf.while`
and `scf.if` carrying dense tensors carry their buffers (MLIR's
SCF/Transforms/BufferizableOpInterfaceImpl.cpp), each body reading them
through `bufferization.to_tensor`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import bufferization, memref, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.dialects.tensor import CollapseShapeOp, ExpandShapeOp, PadOp
from xdsl.dialects.tensor import InsertOp as TensorInsertOp
from xdsl.dialects.tensor import YieldOp as TensorYieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.dialects.upstream.bufferization import DeallocTensorOp
from xsparse.dialects.upstream.tensor import GenerateOp
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.storage.level_buffers import (
    as_tensor,
    buffer_of,
    copy_buffer,
    dense_buffer_type,
)
from xsparse.transforms.storage.reshape import Reshape


def fill_nest(
    e: Emitter,
    buffer: SSAValue,
    sizes: Sequence[SSAValue],
    value_at: Callable[[Emitter, list[SSAValue]], SSAValue],
) -> None:
    """Store `value_at(indices)` at every index of `buffer`, one `scf.for`
    per dimension."""

    def nest(inner: Emitter, indices: list[SSAValue]) -> None:
        if len(indices) < len(sizes):
            inner.for_each(
                inner.index(0),
                sizes[len(indices)],
                lambda b, i: nest(b, [*indices, i]),
            )
            return
        inner.store(value_at(inner, indices), buffer, indices)

    nest(e, [])


def inline_body(
    rewriter: PatternRewriter, body: Block, e: Emitter, indices: Sequence[SSAValue]
) -> SSAValue:
    """The value a `tensor.yield`-terminated body yields at `indices`: its
    ops moved to `e`'s point, the yield dropped."""
    yielded = body.last_op
    assert isinstance(yielded, TensorYieldOp)
    value = yielded.operands[0]
    rewriter.erase_op(yielded)
    rewriter.inline_block(body, e.at, indices)
    return value


class BufferizeGenerate(RewritePattern):
    """`tensor.generate` of a dense tensor -> a fresh buffer that a loop nest
    over its dimensions fills with what the body yields at each index."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenerateOp, rewriter: PatternRewriter) -> None:
        t = op.result.type
        if not is_tensor_type(t) or sparse_encoding(t) is not None:
            return
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        dynamic = iter(op.dynamic_extents)
        sizes = [
            next(dynamic) if n == DYNAMIC_INDEX else e.index(n) for n in t.get_shape()
        ]
        buffer = e.alloc(dense_buffer_type(t), sizes)
        body = op.body.block
        fill_nest(e, buffer, sizes, lambda b, i: inline_body(rewriter, body, b, i))
        rewriter.replace_op(op, [], [as_tensor(buffer, t, rewriter, at)])


class BufferizePad(RewritePattern):
    """`tensor.pad` of a dense tensor -> a fresh buffer that a loop nest fills
    with the source's element inside it, the body's value in the padding."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PadOp, rewriter: PatternRewriter) -> None:
        t = op.result.type
        source_type = op.source.type
        if not is_tensor_type(t) or not is_tensor_type(source_type):
            return
        if sparse_encoding(t) is not None or sparse_encoding(source_type) is not None:
            return
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        source = buffer_of(op.source, rewriter, at)
        dynamic = {"low": iter(op.low), "high": iter(op.high)}

        def amounts(side: str, static: Sequence[int]) -> list[SSAValue]:
            return [
                next(dynamic[side]) if n == DYNAMIC_INDEX else e.index(n)
                for n in static
            ]

        low = amounts("low", op.static_low.get_values())
        high = amounts("high", op.static_high.get_values())
        inner_sizes = [e.dim(source, d) for d in range(len(low))]
        sizes = [
            e.index(n) if n != DYNAMIC_INDEX else e.add(e.add(s, lo), hi)
            for n, s, lo, hi in zip(t.get_shape(), inner_sizes, low, high, strict=True)
        ]
        buffer = e.alloc(dense_buffer_type(t), sizes)
        body = op.region.block

        def value_at(b: Emitter, indices: list[SSAValue]) -> SSAValue:
            shifted = [b.sub(i, lo) for i, lo in zip(indices, low, strict=True)]
            inside = b.all_of(
                [b.cmp(i, "ult", s) for i, s in zip(shifted, inner_sizes, strict=True)]
            )
            return b.branch(
                inside,
                lambda c: [c.load(source, shifted)],
                lambda c: [inline_body(rewriter, body, c, indices)],
            )[0]

        fill_nest(e, buffer, sizes, value_at)
        rewriter.replace_op(op, [], [as_tensor(buffer, t, rewriter, at)])


class BufferizeDenseInsert(RewritePattern):
    """`tensor.insert` into a dense tensor -> a copy of its buffer with the
    element stored (the tensor inserted into stays as it was)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TensorInsertOp, rewriter: PatternRewriter) -> None:
        t = op.dest.type
        if not is_tensor_type(t) or sparse_encoding(t) is not None:
            return
        if not isinstance(op.dest.owner, bufferization.ToTensorOp):
            return
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        buffer = copy_buffer(e, buffer_of(op.dest, rewriter, at))
        e.store(op.scalar, buffer, op.indices)
        rewriter.replace_op(op, [], [as_tensor(buffer, op.result.type, rewriter, at)])


def is_dense_tensor(t: Attribute) -> bool:
    """A ranked tensor type without a sparse encoding."""
    return is_tensor_type(t) and sparse_encoding(t) is None


class BufferizeDenseReshape(RewritePattern):
    """`tensor.collapse_shape`/`expand_shape` of a dense tensor into a dense
    one -> the same on its buffer: a view, or a view of a copy where the
    source or the result is released by `dealloc_tensor`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: CollapseShapeOp | ExpandShapeOp, rewriter: PatternRewriter
    ) -> None:
        t = op.result.type
        if not is_dense_tensor(t) or not is_dense_tensor(op.src.type):
            return
        if not isinstance(op.src.owner, bufferization.ToTensorOp):
            return
        assert is_tensor_type(t)
        reshape = Reshape.start(op, rewriter)
        source = buffer_of(op.src, rewriter, reshape.at)
        released = any(
            isinstance(use.operation, DeallocTensorOp)
            for v in (op.src, op.result)
            for use in v.uses
        )
        if released:
            source = copy_buffer(reshape.e, source)
        if isinstance(op, CollapseShapeOp):
            new: Operation = memref.CollapseShapeOp(
                operands=[source],
                result_types=[dense_buffer_type(t)],
                properties={"reassociation": op.reassociation},
            )
        else:
            dynamic = [
                s
                for s, n in zip(reshape.sizes, t.get_shape(), strict=True)
                if n == DYNAMIC_INDEX
            ]
            new = memref.ExpandShapeOp(
                operands=[source, dynamic],
                result_types=[dense_buffer_type(t)],
                properties={
                    "reassociation": op.reassociation,
                    "static_output_shape": op.static_output_shape,
                },
            )
        buffer = reshape.e.value(new)
        rewriter.replace_op(op, [], [as_tensor(buffer, t, rewriter, reshape.at)])


def buffer_types(types: Sequence[Attribute]) -> list[Attribute]:
    """`types` with each dense tensor type replaced by its buffer's type."""
    return [
        dense_buffer_type(t) if is_tensor_type(t) and is_dense_tensor(t) else t
        for t in types
    ]


def buffers_of(
    values: Sequence[SSAValue], rewriter: PatternRewriter, at: InsertPoint
) -> list[SSAValue]:
    """`values` with each dense tensor replaced by its buffer."""
    return [
        buffer_of(v, rewriter, at) if is_dense_tensor(v.type) else v for v in values
    ]


def as_tensors(
    values: Sequence[SSAValue],
    types: Sequence[Attribute],
    rewriter: PatternRewriter,
    at: InsertPoint,
) -> list[SSAValue]:
    """The inverse of `buffers_of`: each buffer that stands for a dense tensor
    of `types` read back as that tensor."""
    return [
        as_tensor(v, t, rewriter, at) if is_dense_tensor(t) else v
        for v, t in zip(values, types, strict=True)
    ]


def bufferized_block(block: Block, rewriter: PatternRewriter, skip: int = 0) -> Block:
    """A block whose dense tensor arguments are buffers, with `block`'s ops
    moved in and its terminator's dense tensor operands (after the first
    `skip`) replaced by their buffers."""
    old_types = [a.type for a in block.args]
    new = Block(arg_types=buffer_types(old_types))
    args = as_tensors(new.args, old_types, rewriter, InsertPoint.at_end(new))
    rewriter.inline_block(block, InsertPoint.at_end(new), args)
    terminator = new.last_op
    assert terminator is not None
    operands = list(terminator.operands)
    at = InsertPoint.before(terminator)
    terminator.operands = [*operands[:skip], *buffers_of(operands[skip:], rewriter, at)]
    return new


def carries_dense(op: Operation) -> bool:
    """`op` takes or yields a dense tensor."""
    return any(is_dense_tensor(t) for t in (*op.operand_types, *op.result_types))


def replace_carrying(op: Operation, new: Operation, rewriter: PatternRewriter) -> None:
    """Insert `new` (the bufferized form of `op`) and replace `op` by its
    results, read back as tensors where `op` yielded dense ones."""
    new.attributes.update(op.attributes)
    rewriter.insert(new, InsertPoint.before(op))
    results = as_tensors(new.results, op.result_types, rewriter, InsertPoint.after(new))
    rewriter.replace_op(op, [], results)


class BufferizeDenseFor(RewritePattern):
    """`scf.for` carrying dense tensors -> carrying their buffers."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        if not carries_dense(op):
            return
        inits = buffers_of(op.iter_args, rewriter, InsertPoint.before(op))
        body = bufferized_block(op.body.block, rewriter)
        replace_carrying(
            op, scf.ForOp(op.lb, op.ub, op.step, inits, Region(body)), rewriter
        )


class BufferizeDenseWhile(RewritePattern):
    """`scf.while` carrying dense tensors -> carrying their buffers."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter) -> None:
        if not carries_dense(op):
            return
        inits = buffers_of(op.arguments, rewriter, InsertPoint.before(op))
        before = bufferized_block(op.before_region.block, rewriter, skip=1)
        after = bufferized_block(op.after_region.block, rewriter)
        new = scf.WhileOp(
            inits, buffer_types(op.result_types), Region(before), Region(after)
        )
        replace_carrying(op, new, rewriter)


class BufferizeDenseIf(RewritePattern):
    """`scf.if` yielding dense tensors -> yielding their buffers."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter) -> None:
        if not carries_dense(op) or not op.false_region.blocks:
            return
        then = bufferized_block(op.true_region.block, rewriter)
        other = bufferized_block(op.false_region.block, rewriter)
        new = scf.IfOp(
            op.cond, buffer_types(op.result_types), Region(then), Region(other)
        )
        replace_carrying(op, new, rewriter)


DENSE_CARRYING_PATTERNS: tuple[RewritePattern, ...] = (
    BufferizeDenseFor(),
    BufferizeDenseWhile(),
    BufferizeDenseIf(),
)
"""The patterns `sparse-tensor-codegen` runs for scf ops carrying dense tensors."""
