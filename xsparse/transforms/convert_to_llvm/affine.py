"""affine -> arith + scf (mirrors MLIR's `lower-affine`), run before the llvm patterns.

xDSL's `lower-affine` patterns handle for/load/store/apply/yield; this adds
`affine.min` (each result expression evaluated, then folded with
`arith.minsi`, as MLIR does).
"""

from __future__ import annotations

from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
)
from xdsl.transforms.lower_affine import (
    LowerAffineApply,
    LowerAffineFor,
    LowerAffineLoad,
    LowerAffineStore,
    LowerAffineYield,
    affine_expr_ops,
)

from xsparse.transforms.convert_to_llvm.common import lowering
from xsparse.xdsl_adapter import IterativeRewriteWalker


class MinLowering(RewritePattern):
    """`affine.min` -> its result expressions combined with `arith.minsi`."""

    @lowering
    def match_and_rewrite(self, op: affine.MinOp, rewriter: PatternRewriter) -> None:
        affine_map = op.map.data
        operands = list(op.arguments)
        dims = operands[: affine_map.num_dims]
        symbols = operands[affine_map.num_dims :]
        ops: list[Operation] = []
        result: SSAValue | None = None
        for expr in affine_map.results:
            expr_ops, value = affine_expr_ops(expr, dims, symbols)
            ops += expr_ops
            if result is not None:
                smaller = arith.MinSIOp(result, value)
                ops.append(smaller)
                value = smaller.result
            result = value
        assert result is not None
        rewriter.replace(op, ops, [result])


def lower_affine(module: ModuleOp) -> None:
    """Lower the affine ops of `module` to arith, scf and memref."""
    IterativeRewriteWalker(
        GreedyRewritePatternApplier(
            [
                MinLowering(),
                LowerAffineApply(),
                LowerAffineLoad(),
                LowerAffineStore(),
                LowerAffineFor(),
                LowerAffineYield(),
            ],
            dce_enabled=False,
        ),
        apply_recursively=False,
    ).rewrite_module(module)
