"""`sparse_tensor.yield`, the terminator of the regions of the semiring ops,
`foreach`, `iterate` and `coiterate` (SparseTensorOps.td, SparseTensor_YieldOp).

The ops that it may end are marked with the `YieldsToParent` trait rather than
listed here, so that this module needs neither family of ops."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, traits_def, var_operand_def
from xdsl.traits import IsTerminator, OpTrait, Pure
from xdsl.utils.exceptions import VerifyException

YIELD_PARENTS = (
    "sparse_tensor.binary",
    "sparse_tensor.unary",
    "sparse_tensor.reduce",
    "sparse_tensor.select",
    "sparse_tensor.foreach",
    "sparse_tensor.iterate",
    "sparse_tensor.coiterate",
)
"""The ops that carry `YieldsToParent`, as the verifier's message names them."""


@dataclass(frozen=True)
class YieldsToParent(OpTrait):
    """The regions of this op end in `sparse_tensor.yield`."""


@dataclass(frozen=True)
class HasYieldingParent(OpTrait):
    """MLIR's `HasParent<...>` over the ops marked `YieldsToParent`."""

    def verify(self, op: Operation) -> None:
        parent = op.parent_op()
        if parent is None or parent.has_trait(YieldsToParent):
            return
        names = ", ".join(f"'{name}'" for name in YIELD_PARENTS)
        raise VerifyException(f"'{op.name}' expects parent op to be one of {names}")


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`sparse_tensor.yield` (SparseTensor_YieldOp)."""

    name = "sparse_tensor.yield"

    values = var_operand_def()

    traits = traits_def(Pure(), IsTerminator(), HasYieldingParent())
    assembly_format = "$values attr-dict `:` type($values)"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])


def ensure_yield(region: Region) -> None:
    """MLIR's `ensureTerminator`: an implicit `sparse_tensor.yield` where absent."""
    if not region.blocks:
        region.add_block(Block())
    if len(region.blocks) > 1:
        return  # the verifier refuses it
    block = region.block
    if block.last_op is None or not block.last_op.has_trait(IsTerminator):
        block.add_op(YieldOp())
