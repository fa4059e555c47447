"""`sparse_tensor.foreach` lowered to loops over the tensor's entries.

Mirrors MLIR 22's `ForeachRewriter` (SparseTensor/Transforms/
SparseTensorRewriting.cpp): over a sparse tensor, a loop nest visits the
stored entries in storage order (every stored entry, duplicates of a
non-unique level and entries of a loose_compressed level's intervals
included, the holes between intervals not), each with its dimension
coordinates (the encoding's lvl-to-dim map of its level coordinates) and
value; over a dense tensor, every element in row-major order, but over a
`sparse<...>` constant only its listed elements, unrolled in row-major order
(MLIR's `genForeachOnSparseConstant`). The body is inlined once per loop
nest, carrying the loop values through it.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.dialects.tensor import DimOp as TensorDimOp
from xdsl.dialects.tensor import ExtractOp as TensorExtractOp
from xdsl.ir import Block, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.sparse_tensor.ops_semiring import ForeachOp
from xsparse.dialects.sparse_tensor.ops_storage import ToValuesOp
from xsparse.dialects.sparse_tensor.ops_yield import YieldOp
from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.dialects.sparse_tensor.types import SparseTensorType
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.dialects.upstream.builtin import SparseElementsAttr
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.codegen_utils.stored_entries import walk_stored
from xsparse.transforms.errors import PassFailure
from xsparse.transforms.storage.level_buffers import sparse_constant_of


def _inline_body(
    e: Emitter, block: Block, args: Sequence[SSAValue], rewriter: PatternRewriter
) -> list[SSAValue]:
    """`block` inlined at `e`'s point with `args`; the values its
    `sparse_tensor.yield` gave (the yield itself erased)."""
    terminator = block.last_op
    assert isinstance(terminator, YieldOp)
    rewriter.inline_block(block, e.at, args)
    yielded = list(terminator.values)
    rewriter.erase_op(terminator)
    return yielded


def _constant_walk(
    e: Emitter, op: ForeachOp, attr: SparseElementsAttr, rewriter: PatternRewriter
) -> list[SSAValue]:
    t = op.tensor.type
    assert is_tensor_type(t)
    coords, values = attr.entries()
    entries = list(zip(coords.tolist(), values, strict=True))
    if op.order is not None:
        # The elements sorted by their coordinates permuted by `order`.
        order = [
            r.position for r in op.order.data.results if isinstance(r, AffineDimExpr)
        ]
        if len(order) != len(op.order.data.results):
            raise PassFailure(op, "needs an 'order' that permutes the dimensions")
        entries.sort(key=lambda entry: [entry[0][d] for d in order])
    carried = list(op.init_args)
    for coord, value in entries:
        args = [e.index(c) for c in coord] + [e.constant(value, t.element_type)]
        block = op.region.clone().block
        carried = _inline_body(e, block, [*args, *carried], rewriter)
    return carried


def _dense_walk(e: Emitter, op: ForeachOp, rewriter: PatternRewriter) -> list[SSAValue]:
    t = op.tensor.type
    assert is_tensor_type(t)
    sizes = [
        e.value(TensorDimOp(op.tensor, e.index(d)))
        if n == DYNAMIC_INDEX
        else e.index(n)
        for d, n in enumerate(t.get_shape())
    ]

    def nest(
        b: Emitter, coords: list[SSAValue], carried: list[SSAValue]
    ) -> list[SSAValue]:
        if len(coords) == len(sizes):
            value = b.value(TensorExtractOp(op.tensor, coords, t.element_type))
            return _inline_body(
                b, op.region.block, [*coords, value, *carried], rewriter
            )
        return b.loop(
            b.index(0),
            sizes[len(coords)],
            carried,
            lambda c, i, args: nest(c, [*coords, i], args),
        )

    return nest(e, [], list(op.init_args))


def _sparse_walk(
    e: Emitter, op: ForeachOp, stt: SparseTensorType, rewriter: PatternRewriter
) -> list[SSAValue]:
    enc = sparse_encoding(op.tensor.type)
    assert enc is not None
    values = e.value(ToValuesOp(op.tensor))

    def body(
        b: Emitter, lvl: list[SSAValue], p: SSAValue, carried: list[SSAValue]
    ) -> list[SSAValue]:
        dims = [b.affine(x, lvl) for x in enc.lvl_to_dim.results]
        value = b.load(values, [p])
        return _inline_body(b, op.region.block, [*dims, value, *carried], rewriter)

    return walk_stored(e, op.tensor, stt, list(op.init_args), body)


class LowerForeach(RewritePattern):
    """`sparse_tensor.foreach` -> loops over the stored entries of a sparse
    tensor, or over every element of a dense one, with the body inlined. As
    in MLIR, an `order` sorts only the elements of a sparse constant; tensors
    are visited in storage order."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ForeachOp, rewriter: PatternRewriter) -> None:
        e = Emitter(rewriter, InsertPoint.before(op))
        stt = SparseTensorType.of(op.tensor.type)
        if stt is not None and sparse_encoding(op.tensor.type) is not None:
            results = _sparse_walk(e, op, stt, rewriter)
        elif (attr := sparse_constant_of(op.tensor)) is not None:
            results = _constant_walk(e, op, attr, rewriter)
        else:
            results = _dense_walk(e, op, rewriter)
        rewriter.replace(op, [], results)
