"""The error a pass raises for input it cannot compile, located at an op."""

from dataclasses import dataclass

from xdsl.ir import Operation
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter
from xdsl.utils.exceptions import DiagnosticException

from xsparse.dialects.sparse_tensor.encoding import Encoding


class PassFailure(DiagnosticException):
    """A pass rejected `op`; xsparse-opt prints the message at the op's location."""

    def __init__(self, op: Operation, message: str) -> None:
        super().__init__(f"'{op.name}' op {message}")
        self.op = op


@dataclass(eq=False, repr=False)
class LocatingApplier(GreedyRewritePatternApplier):
    """xDSL's applier, whose patterns' refusals without an op (a helper's
    ValueError or DiagnosticException) become PassFailures at the op being
    rewritten."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        try:
            super().match_and_rewrite(op, rewriter)
        except PassFailure:
            raise
        except (ValueError, DiagnosticException) as e:
            if getattr(e, "op", None) is not None:
                raise
            raise PassFailure(op, str(e).split("\n", 1)[0]) from None


def check_dimension(op: Operation, dim: int, rank: int) -> None:
    """`tensor.dim` / `memref.dim` at a constant index past the rank is valid IR
    (MLIR reads a size out of bounds at run time) but never meant: refused."""
    if not 0 <= dim < rank:
        raise PassFailure(op, f"dimension index {dim} is out of range for rank {rank}")


def check_insertable(op: Operation, enc: Encoding) -> None:
    """`op` starts or fills a tensor of encoding `enc` by insertion: refused
    when a level's format cannot be built that way."""
    for lt in enc.lvl_types:
        if not lt.format.insertable:
            raise PassFailure(
                op, f"insertion into a level of format {lt} is not supported"
            )
