"""Ops that xDSL 0.74's own `llvm` and `vector` dialects lack, added to them in one place.

`LLVM_EXTENSION_OPS` mirror ops of MLIR's LLVM dialect
(https://mlir.llvm.org/docs/Dialects/LLVM/) that the lowering to LLVM needs;
`VECTOR_EXTENSION_OPS` mirror ops of MLIR's vector dialect
(https://mlir.llvm.org/docs/Dialects/Vector/). `extend_xdsl_dialects()` appends
them (and `arith.index_castui`, `memref.realloc`, `memref.prefetch`, an `arith.select` that takes a
vector condition) to xDSL's dialect objects, so that any context that
loads those dialects afterwards (xsparse-opt, xdsl-opt with the xsparse
universe) parses and prints them. Importing `xsparse.dialects` calls it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from xdsl.dialects import arith, llvm, memref
from xdsl.dialects.arith import Arith
from xdsl.dialects.bufferization import Bufferization
from xdsl.dialects.builtin import (
    I32,
    I64,
    BoolAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    TensorType,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.dialects.llvm import LLVM, GenericCastOp
from xdsl.dialects.memref import MemRef
from xdsl.dialects.vector import Vector
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrConstraint,
    EqAttrConstraint,
    IRDLOperation,
    OperandDef,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException

from xsparse.dialects.type_guards import is_vector_type
from xsparse.xdsl_adapter import (
    extend_dialect,
    lex_string_literals_in_linear_time,
)


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


@irdl_op_definition
class GatherOp(IRDLOperation):
    """`vector.gather`: masked load of `base[indices...][index_vec[i]]` lanes."""

    name = "vector.gather"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    index_vec = operand_def(VectorType)
    mask = operand_def(VectorType)
    pass_thru = operand_def(VectorType)
    result = result_def(VectorType)

    assembly_format = (
        "$base `[` $indices `]` `[` $index_vec `]` `,` $mask `,` $pass_thru attr-dict"
        " `:` type($base) `,` type($index_vec) `,` type($mask) `,` type($pass_thru)"
        " `into` type($result)"
    )

    def __init__(
        self,
        base: SSAValue,
        indices: Sequence[SSAValue],
        index_vec: SSAValue,
        mask: SSAValue,
        pass_thru: SSAValue,
    ):
        super().__init__(
            operands=[base, indices, index_vec, mask, pass_thru],
            result_types=[pass_thru.type],
        )


@irdl_op_definition
class ScatterOp(IRDLOperation):
    """`vector.scatter`: masked store of lanes to `base[indices...][index_vec[i]]`."""

    name = "vector.scatter"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    index_vec = operand_def(VectorType)
    mask = operand_def(VectorType)
    value_to_store = operand_def(VectorType)

    assembly_format = (
        "$base `[` $indices `]` `[` $index_vec `]` `,` $mask `,` $value_to_store"
        " attr-dict `:` type($base) `,` type($index_vec) `,` type($mask) `,`"
        " type($value_to_store)"
    )

    def __init__(
        self,
        base: SSAValue,
        indices: Sequence[SSAValue],
        index_vec: SSAValue,
        mask: SSAValue,
        value: SSAValue,
    ):
        super().__init__(operands=[base, indices, index_vec, mask, value])


@irdl_op_definition
class StepOp(IRDLOperation):
    """`vector.step`: the vector `[0, 1, ..., n-1]` of index type."""

    name = "vector.step"

    result = result_def(VectorType)

    assembly_format = "attr-dict `:` type($result)"

    traits = traits_def(Pure())

    def __init__(self, result_type: VectorType):
        super().__init__(result_types=[result_type])


@irdl_op_definition
class ConstantMaskOp(IRDLOperation):
    """`vector.constant_mask`: an i1 vector whose first `mask_dim_sizes[0]` lanes are set."""

    name = "vector.constant_mask"

    mask_dim_sizes = prop_def(DenseArrayBase[I64])
    result = result_def(VectorType)

    assembly_format = "$mask_dim_sizes attr-dict `:` type($result)"

    traits = traits_def(Pure())

    def __init__(self, sizes: Sequence[int], result_type: VectorType):
        super().__init__(
            properties={"mask_dim_sizes": DenseArrayBase.from_list(i64, sizes)},
            result_types=[result_type],
        )


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """`arith.index_castui`: index <-> integer cast, zero-extending."""

    name = "arith.index_castui"

    input = operand_def(IntegerType | IndexType)
    result = result_def(IntegerType | IndexType)

    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    traits = traits_def(Pure())

    def __init__(self, value: SSAValue, result_type: Attribute):
        super().__init__(operands=[value], result_types=[result_type])


@irdl_op_definition
class ReallocOp(IRDLOperation):
    """`memref.realloc`: grow or shrink a 1-D memref, keeping its leading elements."""

    name = "memref.realloc"

    source = operand_def(MemRefType)
    dynamic_result_size = opt_operand_def(IndexType)
    alignment = opt_prop_def(IntegerAttr[I64])
    result = result_def(MemRefType)

    assembly_format = (
        "$source (`(` $dynamic_result_size^ `)`)? attr-dict `:` type($source)"
        " `to` type($result)"
    )

    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self, source: SSAValue, size: SSAValue | None, result_type: MemRefType
    ):
        super().__init__(operands=[source, size], result_types=[result_type])


@irdl_custom_directive
class _BoolKeyword(CustomDirective):
    """A `BoolAttr` property printed as one of two keywords (MLIR's
    `memref.prefetch` writes its flags so)."""

    flag: AttributeVariable
    TRUE_WORD: ClassVar[str]
    FALSE_WORD: ClassVar[str]
    MESSAGE: ClassVar[str]
    """The parse error for another word (MLIR's)."""

    def parse(self, parser: Parser, state: ParsingState) -> None:
        words = (self.FALSE_WORD, self.TRUE_WORD)
        word = parser.expect(
            lambda: (
                parser.parse_optional_keyword(words[0])
                or parser.parse_optional_keyword(words[1])
            ),
            self.MESSAGE,
        )
        self.flag.set(state, BoolAttr.from_bool(word == self.TRUE_WORD))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        flag = self.flag.get(op)
        assert isinstance(flag, IntegerAttr)
        printer.print_string(self.TRUE_WORD if flag.value.data else self.FALSE_WORD)


class ReadOrWrite(_BoolKeyword):
    """`read` or `write` (`isWrite`)."""

    TRUE_WORD, FALSE_WORD = "write", "read"
    MESSAGE = "rw specifier has to be 'read' or 'write'"


class DataOrInstr(_BoolKeyword):
    """`data` or `instr` (`isDataCache`)."""

    TRUE_WORD, FALSE_WORD = "data", "instr"
    MESSAGE = "cache type has to be 'data' or 'instr'"


@irdl_op_definition
class PrefetchOp(IRDLOperation):
    """`memref.prefetch %m[%i, %j], read, locality<3>, data : memref<?x?xf32>`:
    fetch the element's cache line ahead of its use (a hint, never a fault)."""

    name = "memref.prefetch"

    memref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    isWrite = prop_def(BoolAttr)
    localityHint = prop_def(IntegerAttr[I32])
    isDataCache = prop_def(BoolAttr)

    custom_directives = (ReadOrWrite, DataOrInstr)
    assembly_format = (
        "$memref `[` $indices `]` `,` custom<ReadOrWrite>($isWrite) `,`"
        " `locality` `<` $localityHint `>` `,` custom<DataOrInstr>($isDataCache)"
        " attr-dict `:` type($memref)"
    )

    def __init__(
        self,
        memref: SSAValue,
        indices: Sequence[SSAValue],
        *,
        write: bool = False,
        locality: int = 3,
        data: bool = True,
    ):
        super().__init__(
            operands=[memref, indices],
            properties={
                "isWrite": BoolAttr.from_bool(write),
                "localityHint": IntegerAttr(locality, i32),
                "isDataCache": BoolAttr.from_bool(data),
            },
        )

    def verify_(self) -> None:
        """MLIR's messages: the hint's constraint, then `too few indices`."""
        if not 0 <= self.localityHint.value.data <= 3:
            raise VerifyException(
                "attribute 'localityHint' failed to satisfy constraint: 32-bit "
                "signless integer attribute whose minimum value is 0 whose "
                "maximum value is 3"
            )
        t = self.memref.type
        assert isinstance(t, MemRefType)
        if len(self.indices) != t.get_num_dims():
            raise VerifyException("too few indices")


@irdl_op_definition
class VectorScaleOp(IRDLOperation):
    """`vector.vscale`: the runtime multiple of scalable vector lengths (an index)."""

    name = "vector.vscale"

    res = result_def(IndexType())

    traits = traits_def(Pure())

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[IndexType()])


def _parse_select(cls: type[arith.SelectOp], parser: Parser) -> arith.SelectOp:
    """`arith.select %c, %a, %b : T` or, with a vector condition, `: vector<..xi1>, T`."""
    cond = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    lhs = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    rhs = parser.parse_unresolved_operand()
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    first = parser.parse_type()
    cond_type: Attribute = i1
    result_type = first
    if parser.parse_optional_punctuation(",") is not None:
        cond_type, result_type = first, parser.parse_type()
    op = cls(
        parser.resolve_operand(cond, cond_type),
        parser.resolve_operand(lhs, result_type),
        parser.resolve_operand(rhs, result_type),
    )
    op.attributes.update(attrs)
    return op


def _print_select(op: arith.SelectOp, printer: Printer) -> None:
    printer.print_string(" ")
    printer.print_list([op.cond, op.lhs, op.rhs], printer.print_ssa_value)
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    if is_vector_type(op.cond.type):
        printer.print_attribute(op.cond.type)
        printer.print_string(", ")
    printer.print_attribute(op.result.type)


def _parse_memref_cast(cls: type[memref.CastOp], parser: Parser) -> memref.CastOp:
    """`memref.cast %m attr-dict : T to U` (MLIR's syntax; xDSL 0.74 has none)."""
    source = parser.parse_unresolved_operand()
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    source_type = parser.parse_type()
    parser.parse_keyword("to")
    dest_type = parser.parse_type()
    op = cls.build(
        operands=[parser.resolve_operand(source, source_type)],
        result_types=[dest_type],
    )
    op.attributes.update(attrs)
    return op


def _print_memref_cast(op: memref.CastOp, printer: Printer) -> None:
    printer.print_string(" ")
    printer.print_ssa_value(op.source)
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(op.source.type)
    printer.print_string(" to ")
    printer.print_attribute(op.dest.type)


def _memref_cast_syntax() -> None:
    """MLIR's custom syntax for `memref.cast` (to and from unranked memrefs in
    `printMemref*` programs); the op class stays xDSL's."""
    memref.CastOp.parse = classmethod(_parse_memref_cast)  # pyright: ignore[reportAttributeAccessIssue]
    memref.CastOp.print = _print_memref_cast  # pyright: ignore[reportAttributeAccessIssue]


_CASTS: tuple[type[IRDLOperation], ...] = (
    arith.ExtFOp,
    arith.TruncFOp,
    arith.FPToSIOp,
    arith.FPToUIOp,
    arith.SIToFPOp,
    arith.UIToFPOp,
    arith.ExtSIOp,
    arith.ExtUIOp,
    arith.TruncIOp,
    arith.IndexCastOp,
    arith.BitcastOp,
    IndexCastUIOp,
    llvm.ZExtOp,
    llvm.SExtOp,
    llvm.TruncOp,
    llvm.SIToFPOp,
    llvm.FPExtOp,
    llvm.FPTruncOp,
    llvm.BitcastOp,
    UIToFPOp,
    FPToSIOp,
    FPToUIOp,
)


def _allow_vector_casts() -> None:
    """Let the casts of `_CASTS` take and give 1-D vectors of their scalar types.

    MLIR's arith casts and LLVM's conversions are element-wise on vectors;
    xDSL 0.74's cast ops accept scalars only. The op classes stay xDSL's.
    """
    for op_type in _CASTS:
        definition = op_type.get_irdl_definition()
        for defs in (definition.operands, definition.results):
            name, old = defs[0]
            # xDSL does not type this nesting: RangeLength(RangeOf(scalar)).
            nested: Any = old.constr
            scalar: AttrConstraint = nested.constraint.constr
            if "VectorType" in repr(scalar):
                continue  # already element-wise
            new: Any = type(old)(scalar | VectorType.constr(scalar))
            defs[0] = (name, new)
        op_type.verify_ = _elementwise_verify(op_type.verify_)  # pyright: ignore[reportAttributeAccessIssue]


def _allow_vector_geps() -> None:
    """Let `llvm.getelementptr` take vector indices and give a vector of pointers.

    (LLVM's vector GEP, used by the lowering of `vector.gather`/`scatter`.)
    """
    from xdsl.irdl import VarOperandDef

    definition = llvm.GEPOp.get_irdl_definition()
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
            if "VectorType" in repr(scalar):
                continue
            new: Any = type(old)(scalar | VectorType.constr(scalar))
            defs[i] = (name, new)


def _elementwise_verify(
    scalar_verify: Callable[[IRDLOperation], None],
) -> Callable[[IRDLOperation], None]:
    """Verify a cast on vectors by its constraints only; on scalars as before."""

    def verify_(op: IRDLOperation) -> None:
        if is_vector_type(op.operands[0].type):
            type(op).get_irdl_definition().verify(op)
        else:
            scalar_verify(op)

    return verify_


def _allow_vector_conditions() -> None:
    """Let `arith.select` and `llvm.select` take a vector of `i1` as condition.

    MLIR's `arith.select` and LLVM's `select` do; xDSL 0.74's accept only `i1`.
    The op classes stay xDSL's (so `isinstance` checks elsewhere hold); only the
    condition's constraint and `arith.select`'s custom syntax change.
    """
    condition = OperandDef(EqAttrConstraint(i1) | VectorType.constr(i1))
    for op_type in (arith.SelectOp, llvm.SelectOp):
        operands = op_type.get_irdl_definition().operands
        operands[0] = (operands[0][0], condition)
    arith.SelectOp.parse = classmethod(_parse_select)  # pyright: ignore[reportAttributeAccessIssue]
    arith.SelectOp.print = _print_select  # pyright: ignore[reportAttributeAccessIssue]


LLVM_EXTENSION_OPS: tuple[type[Operation], ...] = (
    UIToFPOp,
    FPToSIOp,
    FPToUIOp,
    PoisonOp,
    ExtractElementOp,
)


@irdl_op_definition
class PrintOp(IRDLOperation):
    """`vector.print %v : type` (replaces xDSL's, which has no custom syntax)."""

    name = "vector.print"

    source = operand_def()

    assembly_format = "$source attr-dict `:` type($source)"

    def __init__(self, source: SSAValue):
        super().__init__(operands=[source])


@irdl_op_definition
class DeallocTensorOp(IRDLOperation):
    """`bufferization.dealloc_tensor`: release the buffers behind a tensor."""

    name = "bufferization.dealloc_tensor"

    tensor = operand_def(TensorType)

    assembly_format = "$tensor attr-dict `:` type($tensor)"

    def __init__(self, tensor: SSAValue):
        super().__init__(operands=[tensor])


ARITH_EXTENSION_OPS: tuple[type[Operation], ...] = (IndexCastUIOp,)
BUFFERIZATION_EXTENSION_OPS: tuple[type[Operation], ...] = (DeallocTensorOp,)
MEMREF_EXTENSION_OPS: tuple[type[Operation], ...] = (ReallocOp, PrefetchOp)
VECTOR_EXTENSION_OPS: tuple[type[Operation], ...] = (
    GatherOp,
    ScatterOp,
    StepOp,
    ConstantMaskOp,
    PrintOp,
    VectorScaleOp,
)


def extend_xdsl_dialects() -> None:
    """Append the ops above to xDSL's dialects of the same name (idempotent)."""
    lex_string_literals_in_linear_time()
    extend_dialect(Arith, ARITH_EXTENSION_OPS)
    extend_dialect(Bufferization, BUFFERIZATION_EXTENSION_OPS)
    extend_dialect(MemRef, MEMREF_EXTENSION_OPS)
    extend_dialect(LLVM, LLVM_EXTENSION_OPS)
    extend_dialect(Vector, VECTOR_EXTENSION_OPS)
    _allow_vector_conditions()
    _allow_vector_casts()
    _allow_vector_geps()
    _memref_cast_syntax()
