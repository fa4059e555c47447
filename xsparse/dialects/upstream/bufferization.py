"""xDSL's `bufferization` as MLIR 22 has it: `bufferization.dealloc_tensor`
(https://mlir.llvm.org/docs/Dialects/BufferizationOps/)."""

from __future__ import annotations

from xdsl.dialects import bufferization
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Dialect, Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def

from xsparse.xdsl_adapter import dialect_with


@irdl_op_definition
class DeallocTensorOp(IRDLOperation):
    """`bufferization.dealloc_tensor`: release the buffers behind a tensor."""

    name = "bufferization.dealloc_tensor"

    tensor = operand_def(TensorType)

    assembly_format = "$tensor attr-dict `:` type($tensor)"

    def __init__(self, tensor: SSAValue):
        super().__init__(operands=[tensor])


OPS: tuple[type[Operation], ...] = (DeallocTensorOp,)

Bufferization: Dialect = dialect_with(bufferization.Bufferization, OPS)
"""xDSL's `bufferization` with the op above added."""
