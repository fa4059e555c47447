"""`pre-sparsification-rewrite`: rewrites before sparsification (MLIR's
`populatePreSparsificationRewriting`, SparseTensorRewriting.cpp).

- `FoldZeroYield` (MLIR's `FoldInvariantYield`): a kernel into a new, empty
  sparse tensor that yields zero everywhere computes nothing: it is its
  empty output. (The sparsifier would otherwise store an explicit zero at
  every point of its iteration space.)
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, bufferization, linalg
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, ModuleOp
from xdsl.dialects.tensor import EmptyOp as TensorEmptyOp
from xdsl.ir import BlockArgument, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.xdsl_adapter import IterativeRewriteWalker


def is_new_empty_tensor(value: SSAValue) -> bool:
    """A tensor just created and without contents (MLIR's `isMaterializing`)."""
    owner = value.owner
    if isinstance(owner, bufferization.AllocTensorOp):
        return owner.copy is None
    return isinstance(owner, TensorEmptyOp)


def yields_zero(op: linalg.GenericOp) -> bool:
    """The body yields a constant zero, or the output's own (zero) element
    (MLIR's `isZeroYield`)."""
    (value,) = op.body.block.last_op.operands  # pyright: ignore[reportOptionalMemberAccess]
    if isinstance(value, BlockArgument):
        return value.block is op.body.block and value.index == len(op.inputs)
    constant = value.owner
    if not isinstance(constant, arith.ConstantOp):
        return False
    attr = constant.value
    return isinstance(attr, IntegerAttr | FloatAttr) and attr.value.data == 0


class FoldZeroYield(RewritePattern):
    """A `linalg.generic` with one result, a new empty sparse output used only
    by it, and a body yielding zero -> that empty output."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: linalg.GenericOp, rewriter: PatternRewriter
    ) -> None:
        if len(op.res) != 1 or len(op.outputs) != 1:
            return
        init = op.outputs[0]
        if sparse_encoding(init.type) is None or not is_new_empty_tensor(init):
            return
        if not init.has_one_use() or not yields_zero(op):
            return
        rewriter.replace_op(op, [], [init])


@dataclass(frozen=True)
class PreSparsificationRewritePass(ModulePass):
    """MLIR's `pre-sparsification-rewrite` (the rewrites above)."""

    name = "pre-sparsification-rewrite"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        IterativeRewriteWalker(FoldZeroYield()).rewrite_module(op)
