"""xDSL's `llvm` as MLIR 22 has it: the conversions and ops xDSL 0.74 lacks,
and casts, `llvm.select` and `llvm.getelementptr` on vectors
(https://mlir.llvm.org/docs/Dialects/LLVM/)."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    I1,
    I32,
    ArrayAttr,
    IntegerAttr,
    IntegerType,
    UnitAttr,
    VectorType,
)
from xdsl.dialects.llvm import GEP_USE_SSA_VAL, GenericCastOp, LLVMPointerType
from xdsl.dialects.utils import print_dynamic_index_list
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrConstraint,
    IRDLOperation,
    OpDef,
    ParsePropInAttrDict,
    VarConstraint,
    VarOperandDef,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

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


def _struct_value(definition: OpDef) -> None:
    """`llvm.mlir.constant`'s value may be an array of numbers: a struct
    constant (mlir-opt's complex numbers, `[re, im] : !llvm.struct<(f64, f64)>`)."""
    value = definition.properties["value"]
    definition.properties["value"] = dataclasses.replace(
        value, constr=value.constr | base(ArrayAttr)
    )


@redefined_op(_struct_value)
class ConstantOp(llvm.ConstantOp):
    """`llvm.mlir.constant` of a struct too, as MLIR's LLVM dialect takes it."""


@irdl_op_definition
class MemcpyOp(IRDLOperation):
    """`llvm.intr.memcpy`: copy `len` bytes from `src` to `dst`, which do not
    overlap (MLIR's `LLVM_MemcpyOp`; `mlir-opt --sparsifier` emits it for
    `memref.copy` of contiguous buffers)."""

    name = "llvm.intr.memcpy"

    dst = operand_def(LLVMPointerType)
    src = operand_def(LLVMPointerType)
    len = operand_def(IntegerType)
    isVolatile = prop_def(IntegerAttr[I1])

    def __init__(self, dst: SSAValue, src: SSAValue, length: SSAValue):
        super().__init__(
            operands=[dst, src, length],
            properties={"isVolatile": IntegerAttr(0, 1)},
        )


class IntegerIntrinsicOp(IRDLOperation):
    """An LLVM intrinsic from an integer (or vector of them) to one of the
    same type, with an `i1` flag: the ops below (MLIR prints them in the
    generic form)."""

    T: ClassVar = VarConstraint("T", AnyAttr())

    in_ = operand_def(T)
    res = result_def(T)

    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class Atan2Op(IRDLOperation):
    """`llvm.intr.atan2 (%y, %x)`: MLIR 22 lowers `math.atan2` (complex
    numbers' log, sqrt and angle) to it; xDSL 0.74 lacks it."""

    name = "llvm.intr.atan2"

    T: ClassVar = VarConstraint("T", AnyAttr())

    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(llvm.FastMathAttr, default_value=llvm.FastMathAttr(None))

    assembly_format = (
        "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    )

    irdl_options = (ParsePropInAttrDict(),)

    traits = traits_def(NoMemoryEffect())

    def flag(self) -> IntegerAttr:
        """The op's `i1` flag (what it names differs per intrinsic)."""
        raise NotImplementedError


@irdl_op_definition
class CountLeadingZerosOp(IntegerIntrinsicOp):
    """`llvm.intr.ctlz`: the number of leading zero bits (MLIR's
    `LLVM_CountLeadingZerosOp`; `mlir-opt --sparsifier` emits it for the
    sort's depth limit)."""

    name = "llvm.intr.ctlz"

    is_zero_poison = prop_def(IntegerAttr[I1])

    def flag(self) -> IntegerAttr:
        return self.is_zero_poison


@irdl_op_definition
class AbsOp(IntegerIntrinsicOp):
    """`llvm.intr.abs`: an integer's absolute value, poison at INT_MIN when
    `is_int_min_poison` (MLIR's `LLVM_AbsOp`; `mlir-opt --sparsifier` emits
    it for `math.absi`)."""

    name = "llvm.intr.abs"

    is_int_min_poison = prop_def(IntegerAttr[I1])

    def flag(self) -> IntegerAttr:
        return self.is_int_min_poison


class VectorReduceOp(IRDLOperation):
    """`llvm.intr.vector.reduce.<kind>`: a vector's lanes combined into one
    scalar (MLIR's `LLVM_VectorReductionI` / `F` ops without a start value,
    printed in the generic form; `mlir-opt --sparsifier="vl=N"` emits them
    for vectorized reductions)."""

    in_ = operand_def(VectorType)
    res = result_def()
    fastmathFlags = opt_prop_def(llvm.FastMathAttr)

    traits = traits_def(NoMemoryEffect())


def vector_reduce(kind: str) -> type[VectorReduceOp]:
    """The reduction op of `kind` (LLVM's `llvm.vector.reduce.<kind>`)."""
    return irdl_op_definition(
        type(
            f"VectorReduce{kind.capitalize()}Op",
            (VectorReduceOp,),
            {"name": f"llvm.intr.vector.reduce.{kind}"},
        )
    )


VECTOR_REDUCTIONS = tuple(
    vector_reduce(kind)
    for kind in (
        "add",
        "mul",
        "and",
        "or",
        "xor",
        "smax",
        "smin",
        "umax",
        "umin",
        "fmax",
        "fmin",
        "fmaximum",
        "fminimum",
    )
)


@irdl_op_definition
class MaskedLoadOp(IRDLOperation):
    """`llvm.intr.masked.load %ptr, %mask, %pass_thru {alignment = 8 : i32} :
    (!llvm.ptr, vector<8xi1>, vector<8xf64>) -> vector<8xf64>`: the lanes of
    `mask` loaded, the others from `pass_thru` (MLIR's `LLVM_MaskedLoadOp`)."""

    name = "llvm.intr.masked.load"

    data = operand_def(LLVMPointerType)
    mask = operand_def(VectorType)
    pass_thru = var_operand_def(VectorType)
    res = result_def(VectorType)
    alignment = prop_def(IntegerAttr[I32])
    nontemporal = opt_prop_def(UnitAttr)

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = (
        "$data `,` $mask (`,` $pass_thru^)? attr-dict `:` "
        "functional-type(operands, results)"
    )


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


GEP_FLAGS = {"inbounds": 3, "nusw": 2, "nuw": 4}
"""MLIR's `GEPNoWrapFlags` words (`inbounds` implies `nusw`)."""


@redefined_op(_vector_indices)
class GEPOp(llvm.GEPOp):
    """`llvm.getelementptr` whose indices may be vectors (LLVM's vector GEP),
    with MLIR 22's no-wrap flags (`inbounds|nuw`, `nusw`, `nuw`) read and
    printed; xDSL 0.74 reads `inbounds` only. The flags beyond `inbounds`
    are kept on the op; the LLVM IR xsparse emits keeps `inbounds`."""

    @classmethod
    def parse(cls, parser: Parser) -> GEPOp:
        flags = 0
        while word := next(
            (w for w in GEP_FLAGS if parser.parse_optional_keyword(w) is not None),
            None,
        ):
            flags |= GEP_FLAGS[word]
            if parser.parse_optional_punctuation("|") is None:
                break
        op = super().parse(parser)
        op.properties["noWrapFlags"] = IntegerAttr(flags, 32)
        if flags & GEP_FLAGS["inbounds"] == GEP_FLAGS["inbounds"]:
            op.properties["inbounds"] = UnitAttr()
        return op

    def print(self, printer: Printer) -> None:
        flags = self.noWrapFlags.value.data
        if self.inbounds is not None:
            flags |= GEP_FLAGS["inbounds"]
        words = []
        if flags & GEP_FLAGS["inbounds"] == GEP_FLAGS["inbounds"]:
            words.append("inbounds")
        elif flags & GEP_FLAGS["nusw"]:
            words.append("nusw")
        if flags & GEP_FLAGS["nuw"]:
            words.append("nuw")
        if words:
            printer.print_string(" " + "|".join(words))
        printer.print_string(" ")
        printer.print_ssa_value(self.ptr)
        print_dynamic_index_list(
            printer,
            GEP_USE_SSA_VAL,
            self.ssa_indices,
            self.rawConstantIndices.iter_values(),
        )
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type(
            [self.ptr.type, *(v.type for v in self.ssa_indices)],
            [self.result.type],
        )
        printer.print_string(", ")
        printer.print_attribute(self.elem_type)

    def verify_(self) -> None:
        if not is_vector_type(self.result.type):
            llvm.GEPOp.verify_(self)


@irdl_op_definition
class MaskedStoreOp(IRDLOperation):
    """`llvm.intr.masked.store %value, %ptr, %mask {alignment = 8 : i32} :
    vector<8xf64>, vector<8xi1> into !llvm.ptr`: the lanes of `mask` stored
    (MLIR's `LLVM_MaskedStoreOp`)."""

    name = "llvm.intr.masked.store"

    value = operand_def(VectorType)
    data = operand_def(LLVMPointerType)
    mask = operand_def(VectorType)
    alignment = prop_def(IntegerAttr[I32])

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = (
        "$value `,` $data `,` $mask attr-dict `:` type($value) `,` type($mask) "
        "`into` type($data)"
    )


def check_pointer_lanes(ptrs: Attribute, value: Attribute, operand: int) -> None:
    """A gather's or scatter's pointers: one per lane of its value, as MLIR
    derives their type from the value's (`LLVM_VectorOf(LLVM_AnyPointer)`
    matched with the value's shape), and its message."""
    assert isinstance(ptrs, VectorType) and isinstance(value, VectorType)
    expected = VectorType(ptrs.element_type, value.get_shape())
    if ptrs != expected:
        raise VerifyException(f"expected operand #{operand} type to be '{expected}'")


@irdl_op_definition
class MaskedGatherOp(IRDLOperation):
    """`llvm.intr.masked.gather %ptrs, %mask, %pass_thru {alignment = 8 : i32} :
    (vector<8x!llvm.ptr>, vector<8xi1>, vector<8xf64>) -> vector<8xf64>`: each
    lane of `mask` loaded from its own pointer (MLIR's `LLVM_masked_gather`)."""

    name = "llvm.intr.masked.gather"

    ptrs = operand_def(VectorType)
    mask = operand_def(VectorType)
    pass_thru = var_operand_def(VectorType)
    res = result_def(VectorType)
    alignment = prop_def(IntegerAttr[I32])

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = (
        "$ptrs `,` $mask (`,` $pass_thru^)? attr-dict `:` "
        "functional-type(operands, results)"
    )

    def verify_(self) -> None:
        check_pointer_lanes(self.ptrs.type, self.res.type, 1)


@irdl_op_definition
class MaskedScatterOp(IRDLOperation):
    """`llvm.intr.masked.scatter %value, %ptrs, %mask {alignment = 8 : i32} :
    vector<8xf64>, vector<8xi1> into vector<8x!llvm.ptr>`: each lane of `mask`
    stored to its own pointer (MLIR's `LLVM_masked_scatter`)."""

    name = "llvm.intr.masked.scatter"

    value = operand_def(VectorType)
    ptrs = operand_def(VectorType)
    mask = operand_def(VectorType)
    alignment = prop_def(IntegerAttr[I32])

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = (
        "$value `,` $ptrs `,` $mask attr-dict `:` type($value) `,` type($mask) "
        "`into` type($ptrs)"
    )

    def verify_(self) -> None:
        check_pointer_lanes(self.ptrs.type, self.value.type, 2)


ZExtOp = elementwise(llvm.ZExtOp)
SExtOp = elementwise(llvm.SExtOp)
TruncOp = elementwise(llvm.TruncOp)
SIToFPOp = elementwise(llvm.SIToFPOp)
FPExtOp = elementwise(llvm.FPExtOp)
FPTruncOp = elementwise(llvm.FPTruncOp)
BitcastOp = elementwise(llvm.BitcastOp)

OPS: tuple[type[Operation], ...] = (
    Atan2Op,
    ConstantOp,
    UIToFPOp,
    FPToSIOp,
    FPToUIOp,
    PoisonOp,
    ExtractElementOp,
    MemcpyOp,
    CountLeadingZerosOp,
    AbsOp,
    *VECTOR_REDUCTIONS,
    MaskedLoadOp,
    MaskedStoreOp,
    MaskedGatherOp,
    MaskedScatterOp,
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
