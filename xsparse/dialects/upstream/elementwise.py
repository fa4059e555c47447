"""Casts that are element-wise on vectors, as MLIR's arith casts and LLVM's
conversions are (xDSL 0.74's accept scalars only), and selects with one
condition per lane."""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import VectorType, i1
from xdsl.irdl import AttrConstraint, EqAttrConstraint, IRDLOperation, OpDef, OperandDef
from xdsl.utils.exceptions import VerifyException

from xsparse.dialects.type_guards import is_vector_type
from xsparse.xdsl_adapter import OpT, redefined_op


def _widen_first(definition: OpDef) -> None:
    """Let the first operand and result also be vectors of their scalar types."""
    for defs in (definition.operands, definition.results):
        name, old = defs[0]
        # xDSL does not type this nesting: RangeLength(RangeOf(scalar)).
        nested: Any = old.constr
        scalar: AttrConstraint = nested.constraint.constr
        if "VectorType" in repr(scalar):
            continue  # already element-wise
        new: Any = type(old)(scalar | VectorType.constr(scalar))
        defs[0] = (name, new)


ELEMENTWISE: dict[type[IRDLOperation], type[IRDLOperation]] = {}
"""Each of xDSL's cast classes -> its element-wise subclass (`elementwise`):
what an op of the former becomes on vectors."""


def elementwise(cast: type[OpT]) -> type[OpT]:
    """A subclass of the cast op class `cast` taking and giving vectors of its
    scalar types of one shape; on scalars verified as `cast` is."""

    def verify_(op: IRDLOperation) -> None:
        source, result = op.operands[0].type, op.results[0].type
        if not is_vector_type(source) and not is_vector_type(result):
            cast.verify_(op)
        elif not (
            is_vector_type(source)
            and is_vector_type(result)
            and source.get_shape() == result.get_shape()
        ):
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
    """A select's condition (its first operand) may be a vector of `i1`."""
    name, _ = definition.operands[0]
    definition.operands[0] = (
        name,
        OperandDef(EqAttrConstraint(i1) | VectorType.constr(i1)),
    )
