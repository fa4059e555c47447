"""xDSL's `tensor` as MLIR 22 has it: `tensor.generate`
(https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorgenerate-tensorgenerateop),
which MLIR's sparse integration tests use to build dense operands."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, TensorType
from xdsl.ir import Attribute, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import RecursiveMemoryEffect, SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from xsparse.xdsl_adapter import dialect_with


@irdl_op_definition
class GenerateOp(IRDLOperation):
    """`tensor.generate`: a tensor whose element at each index is what the
    body (one index argument per dimension) yields there; one size operand
    per dynamic dimension."""

    name = "tensor.generate"

    dynamic_extents = var_operand_def(IndexType)
    body = region_def("single_block")
    result = result_def(TensorType)

    assembly_format = "$dynamic_extents $body attr-dict `:` type($result)"

    traits = traits_def(
        RecursiveMemoryEffect(), SingleBlockImplicitTerminator(tensor.YieldOp)
    )

    def __init__(
        self,
        result_type: TensorType[Attribute],
        dynamic_extents: Sequence[SSAValue],
        body: Region,
    ):
        super().__init__(
            operands=[dynamic_extents], result_types=[result_type], regions=[body]
        )

    def verify_(self) -> None:
        """MLIR's checks (`GenerateOp::verify`, `verifyRegions`)."""
        result_type = self.result.type
        assert isinstance(result_type, TensorType)
        shape = result_type.get_shape()
        expected = shape.count(DYNAMIC_INDEX)
        if expected != len(self.dynamic_extents):
            raise VerifyException(
                f"incorrect number of dynamic sizes, has "
                f"{len(self.dynamic_extents)}, expected {expected}"
            )
        block = self.body.block
        if len(block.args) != len(shape):
            raise VerifyException("must have one body argument per input dimension")
        if not all(isinstance(arg.type, IndexType) for arg in block.args):
            raise VerifyException("all body arguments must be index")
        last = block.last_op
        if not isinstance(last, tensor.YieldOp) or [v.type for v in last.operands] != [
            result_type.element_type
        ]:
            raise VerifyException(
                "body must be terminated with a `yield` operation of the tensor "
                "element type"
            )


OPS: tuple[type[Operation], ...] = (GenerateOp,)

Tensor: Dialect = dialect_with(tensor.Tensor, OPS)
"""xDSL's `tensor` with the op above added."""
