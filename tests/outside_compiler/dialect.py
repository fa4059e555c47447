"""The outside compiler's `toy` dialect: one op, `toy.scale`, declared with IRDL."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import Float64Type, TensorType, f64
from xdsl.ir import Dialect
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    result_def,
)


@irdl_op_definition
class ScaleOp(IRDLOperation):
    """`%r = toy.scale %t, %s : tensor<?xf64>`: every element of `%t` times `%s`."""

    name = "toy.scale"

    T: ClassVar = VarConstraint("T", TensorType.constr(Float64Type))

    input = operand_def(T)
    factor = operand_def(f64)
    result = result_def(T)

    assembly_format = "$input `,` $factor attr-dict `:` type($input)"


Toy = Dialect("toy", [ScaleOp])
