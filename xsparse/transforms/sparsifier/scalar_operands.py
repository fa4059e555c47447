"""Scalar inputs of `linalg.generic` (a named op's zero points, a scale) read
in its body as values from above.

MLIR 22's sparsifier reads a non-tensor input of a kernel as an invariant
(Merger::buildTensorExp: a block argument of a scalar operand is
`kInvariant`); xsparse's reads the values the body uses from above as
invariants, so the scalar operand is moved there: its block argument is
replaced by the value, the operand and its indexing map dropped. (A kernel
whose body reads its scalar operands this way is the same computation.)
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, ShapedType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Region
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)


class InlineScalarOperands(RewritePattern):
    """A `linalg.generic` with scalar inputs -> the same kernel reading them
    from above."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        scalars = [
            i for i, v in enumerate(op.inputs) if not isinstance(v.type, ShapedType)
        ]
        if not scalars:
            return
        body = Region()
        op.body.clone_into(body)
        block = body.block
        for i in reversed(scalars):
            arg = block.args[i]
            arg.replace_all_uses_with(op.inputs[i])
            block.erase_arg(arg)
        kept = [i for i in range(len(op.inputs)) if i not in scalars]
        maps = list(op.indexing_maps.data)
        kept_maps = [maps[i] for i in kept] + maps[len(op.inputs) :]
        generic = GenericOp(
            [op.inputs[i] for i in kept],
            op.outputs,
            body,
            ArrayAttr(kept_maps),
            op.iterator_types,
            op.result_types,
            op.doc,
            op.library_call,
        )
        generic.attributes.update(op.attributes)
        rewriter.replace_op(op, generic)
