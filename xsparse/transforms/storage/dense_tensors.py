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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import bufferization
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.dialects.tensor import InsertOp as TensorInsertOp
from xdsl.dialects.tensor import PadOp
from xdsl.dialects.tensor import YieldOp as TensorYieldOp
from xdsl.ir import Block, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.dialects.upstream.tensor import GenerateOp
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.storage.level_buffers import (
    as_tensor,
    buffer_of,
    copy_buffer,
    dense_buffer_type,
)


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
