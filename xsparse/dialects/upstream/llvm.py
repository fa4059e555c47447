"""xDSL's `llvm` as MLIR 22 has it: the conversions and ops xDSL 0.74 lacks,
and casts, `llvm.select` and `llvm.getelementptr` on vectors
(https://mlir.llvm.org/docs/Dialects/LLVM/)."""

from __future__ import annotations

from typing import Any, ClassVar

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerType, VectorType
from xdsl.dialects.llvm import GenericCastOp
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrConstraint,
    IRDLOperation,
    OpDef,
    VarConstraint,
    VarOperandDef,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect

from xsparse.dialects.type_guards import is_vector_type
from xsparse.dialects.upstream.elementwise import elementwise, vector_condition
from xsparse.xdsl_adapter import dialect_with, redefined_op


@irdl_op_definition
class UIToFPOp(GenericCastOp):
    """`llvm.uitofp`: unsigned integer to floating point."""

    name = "llvm.uitofp"


@irdl_op_definition
class FPToSIOp(GenericCastOp):
    """`llvm.fptosi`: floating point to signed integer."""

    name = "llvm.fptosi"


@irdl_op_definition
class FPToUIOp(GenericCastOp):
    """`llvm.fptoui`: floating point to unsigned integer."""

    name = "llvm.fptoui"


@irdl_op_definition
class PoisonOp(IRDLOperation):
    """`llvm.mlir.poison`: a poison value of any LLVM type."""

    name = "llvm.mlir.poison"

    res = result_def()

    assembly_format = "attr-dict `:` type($res)"

    traits = traits_def(NoMemoryEffect())

    def __init__(self, result_type: Attribute):
        super().__init__(result_types=[result_type])


@irdl_op_definition
class ExtractElementOp(IRDLOperation):
    """`llvm.extractelement`: one element of a 1-D vector at a dynamic position."""

    name = "llvm.extractelement"

    T: ClassVar = VarConstraint("T", AnyAttr())

    vector = operand_def(VectorType.constr(T))
    position = operand_def(IntegerType)
    res = result_def(T)

    traits = traits_def(NoMemoryEffect())

    assembly_format = (
        "$vector `[` $position `:` type($position) `]` attr-dict `:` type($vector)"
    )

    def __init__(self, vector: SSAValue | Operation, position: SSAValue | Operation):
        vector_type = SSAValue.get(vector).type
        assert is_vector_type(vector_type)
        super().__init__(
            operands=[vector, position], result_types=[vector_type.element_type]
        )


@redefined_op(vector_condition)
class SelectOp(llvm.SelectOp):
    """`llvm.select` with a vector condition, as LLVM's `select` takes."""


def _vector_indices(definition: OpDef) -> None:
    """The indices may be vectors, giving a vector of pointers (LLVM's vector
    GEP, to which `vector.gather`/`scatter` lower)."""
    for defs in (definition.operands, definition.results):
        for i, (name, old) in enumerate(defs):
            if name not in ("ssa_indices", "result"):
                continue
            # xDSL does not type this nesting: RangeOf(scalar) for the variadic
            # indices, RangeLength(RangeOf(scalar)) for the result.
            constr: Any = old.constr
            scalar: AttrConstraint = (
                constr.constr
                if isinstance(old, VarOperandDef)
                else (constr.constraint.constr)
            )
            new: Any = type(old)(scalar | VectorType.constr(scalar))
            defs[i] = (name, new)


@redefined_op(_vector_indices)
class GEPOp(llvm.GEPOp):
    """`llvm.getelementptr` whose indices may be vectors (LLVM's vector GEP)."""

    def verify_(self) -> None:
        if not is_vector_type(self.result.type):
            llvm.GEPOp.verify_(self)


ZExtOp = elementwise(llvm.ZExtOp)
SExtOp = elementwise(llvm.SExtOp)
TruncOp = elementwise(llvm.TruncOp)
SIToFPOp = elementwise(llvm.SIToFPOp)
FPExtOp = elementwise(llvm.FPExtOp)
FPTruncOp = elementwise(llvm.FPTruncOp)
BitcastOp = elementwise(llvm.BitcastOp)

OPS: tuple[type[Operation], ...] = (
    UIToFPOp,
    FPToSIOp,
    FPToUIOp,
    PoisonOp,
    ExtractElementOp,
    SelectOp,
    GEPOp,
    ZExtOp,
    SExtOp,
    TruncOp,
    SIToFPOp,
    FPExtOp,
    FPTruncOp,
    BitcastOp,
)

LLVM: Dialect = dialect_with(llvm.LLVM, OPS)
"""xDSL's `llvm` with the ops above in place of its own."""
