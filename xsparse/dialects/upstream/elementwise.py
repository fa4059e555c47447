"""Casts that are element-wise on vectors (and, for arith's, ranked tensors),
as MLIR's arith casts and LLVM's conversions are (xDSL 0.74's accept scalars
only), and selects with one condition per lane or element."""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import TensorType, VectorType, i1
from xdsl.ir import Attribute
from xdsl.irdl import (
    AttrConstraint,
    EqAttrConstraint,
    IRDLOperation,
    OpDef,
    OperandDef,
    ResultDef,
)
from xdsl.utils.exceptions import VerifyException

from xsparse.dialects.type_guards import is_tensor_type, is_vector_type
from xsparse.xdsl_adapter import OpT, redefined_op


def _widen_first(definition: OpDef) -> None:
    """Let the first operand and result also be vectors and ranked tensors of
    their scalar types."""
    for defs in (definition.operands, definition.results):
        name, old = defs[0]
        # xDSL does not type this nesting: RangeLength(RangeOf(scalar)).
        nested: Any = old.constr
        scalar: AttrConstraint = nested.constraint.constr
        if "VectorType" in repr(scalar):
            continue  # already element-wise
        new: Any = type(old)(
            scalar | VectorType.constr(scalar) | TensorType.constr(scalar)
        )
        defs[0] = (name, new)


def _shape(t: object) -> tuple[str, tuple[int, ...]] | None:
    """The kind and shape of a vector or ranked tensor type; None for a scalar."""
    if is_vector_type(t):
        return "vector", t.get_shape()
    if is_tensor_type(t):
        return "tensor", t.get_shape()
    return None


ELEMENTWISE: dict[type[IRDLOperation], type[IRDLOperation]] = {}
"""Each of xDSL's cast classes -> its element-wise subclass (`elementwise`):
what an op of the former becomes on vectors."""


def elementwise(cast: type[OpT]) -> type[OpT]:
    """A subclass of the cast op class `cast` taking and giving vectors or
    ranked tensors of its scalar types of one shape; on scalars verified as
    `cast` is."""

    def verify_(op: IRDLOperation) -> None:
        source = _shape(op.operands[0].type)
        result = _shape(op.results[0].type)
        if source is None and result is None:
            cast.verify_(op)
        elif source != result:
            raise VerifyException(
                "requires the same shape for all operands and results"
            )

    namespace = {
        "__doc__": f"`{cast.name}`, element-wise on vectors (MLIR's).",
        "verify_": verify_,
    }
    lanewise = redefined_op(_widen_first)(type(cast.__name__, (cast,), namespace))
    ELEMENTWISE[cast] = lanewise
    return lanewise


def vector_condition(definition: OpDef) -> None:
    """A select's condition (its first operand) may be a vector or a ranked
    tensor of `i1`."""
    name, _ = definition.operands[0]
    definition.operands[0] = (
        name,
        OperandDef(
            EqAttrConstraint(i1) | VectorType.constr(i1) | TensorType.constr(i1)
        ),
    )


def shaped_condition(definition: OpDef) -> None:
    """A comparison's result (its only one) may be a vector or a ranked tensor
    of `i1`, of its operands' shape (`verify_shaped_condition`)."""
    name, _ = definition.results[0]
    definition.results[0] = (
        name,
        ResultDef(EqAttrConstraint(i1) | VectorType.constr(i1) | TensorType.constr(i1)),
    )


def condition_type(operand_type: Attribute) -> Attribute:
    """The type of a comparison of two values of `operand_type`: `i1`, or
    `i1` of its vector or tensor shape."""
    if is_vector_type(operand_type):
        return VectorType(i1, operand_type.get_shape(), operand_type.scalable_dims)
    if is_tensor_type(operand_type):
        return TensorType(i1, operand_type.get_shape(), operand_type.encoding)
    return i1


def verify_shaped_condition(op: IRDLOperation) -> None:
    """A comparison's result has its operands' shape (MLIR's)."""
    if _shape(op.operands[0].type) != _shape(op.results[0].type):
        raise VerifyException("requires the same shape for all operands and results")
