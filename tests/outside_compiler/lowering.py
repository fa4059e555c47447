"""The outside compiler's `lower-toy` pass: `toy.scale` to a `linalg.generic` on tensors."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, IndexType, ModuleOp, f64
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from .dialect import ScaleOp


class LowerScale(RewritePattern):
    """`toy.scale %t, %s` -> `linalg.generic` writing `t[i] * s` into a `tensor.empty`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ScaleOp, rewriter: PatternRewriter) -> None:
        zero = arith.ConstantOp.from_int_and_width(0, IndexType())
        size = tensor.DimOp(op.input, zero)
        empty = tensor.EmptyOp([size.result], op.input.type)
        body = Block(arg_types=[f64, f64])
        product = arith.MulfOp(body.args[0], op.factor)
        body.add_ops([product, YieldOp(product)])
        identity = AffineMapAttr(AffineMap.identity(1))
        generic = GenericOp(
            [op.input],
            [empty.tensor],
            Region(body),
            [identity, identity],
            [IteratorTypeAttr.parallel()],
            [op.input.type],
        )
        rewriter.replace(op, [zero, size, empty, generic])


@dataclass(frozen=True)
class LowerToyPass(ModulePass):
    """Lowers every `toy` op to upstream dialects."""

    name = "lower-toy"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([LowerScale()])
        ).rewrite_module(op)
