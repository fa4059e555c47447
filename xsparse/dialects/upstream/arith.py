"""xDSL's `arith` as MLIR 22 has it: `arith.index_castui`, casts element-wise
on vectors, `arith.select` with a vector condition, `arith.constant` of a
`sparse<...>` elements attribute, and `arith.cmpi`/`cmpf` whose predicate may
be quoted (https://mlir.llvm.org/docs/Dialects/ArithOps/)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TypeVar

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType, VectorType, i1
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    OpDef,
    ParamAttrConstraint,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure

from xsparse.dialects.upstream.builtin import SparseElementsAttr
from xsparse.dialects.upstream.elementwise import (
    condition_type,
    elementwise,
    shaped_condition,
    vector_condition,
    verify_shaped_condition,
)
from xsparse.xdsl_adapter import dialect_with, redefined_op

_INDEX_OR_INTEGER = base(IntegerType) | base(IndexType)


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """`arith.index_castui`: index <-> integer cast, zero-extending."""

    name = "arith.index_castui"

    input = operand_def(_INDEX_OR_INTEGER | VectorType.constr(_INDEX_OR_INTEGER))
    result = result_def(_INDEX_OR_INTEGER | VectorType.constr(_INDEX_OR_INTEGER))

    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    traits = traits_def(Pure())

    def __init__(self, value: SSAValue, result_type: Attribute):
        super().__init__(operands=[value], result_types=[result_type])


@redefined_op(vector_condition)
class SelectOp(arith.SelectOp):
    """`arith.select %c, %a, %b : T`, or with a vector or tensor condition
    `: vector<..xi1>, T` (MLIR's; xDSL 0.74 takes only `i1`)."""

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
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

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.cond, self.lhs, self.rhs], printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if self.cond.type != i1:
            printer.print_attribute(self.cond.type)
            printer.print_string(", ")
        printer.print_attribute(self.result.type)


def sparse_value(definition: OpDef) -> None:
    """The constant's value may be a `sparse<...>` attribute of its type."""
    old = definition.properties["value"]
    result_type = VarConstraint("T", AnyAttr())  # the result's, by name
    sparse = ParamAttrConstraint(
        SparseElementsAttr, (result_type, AnyAttr(), AnyAttr())
    )
    definition.properties["value"] = dataclasses.replace(
        old, constr=old.constr | sparse
    )


@redefined_op(sparse_value)
class ConstantOp(arith.ConstantOp):
    """`arith.constant`, whose value may also be MLIR's
    `sparse<indices, values> : type` (`upstream.builtin.SparseElementsAttr`)."""


def _parse_predicate(parser: Parser, op_name: str, predicates: Sequence[str]) -> str:
    """A comparison predicate as MLIR's enum parser reads it: a keyword or a
    string literal (`arith.cmpf "olt", ...`)."""
    pos = parser.pos
    quoted = parser.parse_optional_str_literal()
    if quoted is not None:
        if quoted not in predicates:
            parser.raise_error(
                f"custom op '{op_name}' invalid predicate attribute specification: "
                f'"{quoted}"',
                pos,
                parser.pos,
            )
        return quoted
    keyword = parser.parse_optional_identifier()
    if keyword not in predicates:
        parser.raise_error(
            f"custom op '{op_name}' expected string or keyword containing one of "
            f"the following enum values for attribute 'predicate' "
            f"[{', '.join(predicates)}]",
            pos,
            parser.pos,
        )
    return keyword


def _parse_comparison(
    parser: Parser, op_name: str, predicates: Sequence[str]
) -> tuple[str, UnresolvedOperand, UnresolvedOperand]:
    """`predicate, %lhs, %rhs` of a comparison."""
    predicate = _parse_predicate(parser, op_name, list(predicates))
    parser.parse_punctuation(",")
    lhs = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    return predicate, lhs, parser.parse_unresolved_operand()


ComparisonT = TypeVar("ComparisonT", bound=IRDLOperation)


def _shaped(op: ComparisonT) -> ComparisonT:
    """`op` with the result type `condition_type` of its operands' (xDSL's
    constructors give `i1`)."""
    shaped = type(op).create(
        operands=op.operands,
        result_types=[condition_type(op.operands[0].type)],
        properties=op.properties,
        attributes=op.attributes,
    )
    op.erase()
    return shaped


@redefined_op(shaped_condition)
class CmpiOp(arith.CmpiOp):
    """`arith.cmpi slt, %a, %b : T`, the predicate a keyword or a string; on
    vectors and tensors a vector or tensor of `i1` (MLIR's)."""

    def verify_(self) -> None:
        verify_shaped_condition(self)

    @classmethod
    def parse(cls, parser: Parser) -> CmpiOp:
        predicate, lhs, rhs = _parse_comparison(
            parser, cls.name, arith.CMPI_COMPARISON_OPERATIONS
        )
        parser.parse_punctuation(":")
        t = parser.parse_type()
        operands = parser.resolve_operands([lhs, rhs], [t, t], parser.pos)
        return _shaped(cls(*operands, predicate))


@redefined_op(shaped_condition)
class CmpfOp(arith.CmpfOp):
    """`arith.cmpf olt, %a, %b [fastmath<..>] : T`, the predicate a keyword or
    a string; on vectors and tensors a vector or tensor of `i1` (MLIR's)."""

    def verify_(self) -> None:
        verify_shaped_condition(self)

    @classmethod
    def parse(cls, parser: Parser) -> CmpfOp:
        predicate, lhs, rhs = _parse_comparison(
            parser, cls.name, arith.CMPF_COMPARISON_OPERATIONS
        )
        fastmath = arith.FastMathFlagsAttr("none")
        if parser.parse_optional_keyword("fastmath"):
            fastmath = arith.FastMathFlagsAttr(
                arith.FastMathFlagsAttr.parse_parameter(parser)
            )
        parser.parse_punctuation(":")
        t = parser.parse_type()
        operands = parser.resolve_operands([lhs, rhs], [t, t], parser.pos)
        return _shaped(cls(*operands, predicate, fastmath))


ExtFOp = elementwise(arith.ExtFOp)
TruncFOp = elementwise(arith.TruncFOp)
FPToSIOp = elementwise(arith.FPToSIOp)
FPToUIOp = elementwise(arith.FPToUIOp)
SIToFPOp = elementwise(arith.SIToFPOp)
UIToFPOp = elementwise(arith.UIToFPOp)
ExtSIOp = elementwise(arith.ExtSIOp)
ExtUIOp = elementwise(arith.ExtUIOp)
TruncIOp = elementwise(arith.TruncIOp)
IndexCastOp = elementwise(arith.IndexCastOp)
BitcastOp = elementwise(arith.BitcastOp)

OPS: tuple[type[Operation], ...] = (
    ConstantOp,
    IndexCastUIOp,
    SelectOp,
    CmpiOp,
    CmpfOp,
    ExtFOp,
    TruncFOp,
    FPToSIOp,
    FPToUIOp,
    SIToFPOp,
    UIToFPOp,
    ExtSIOp,
    ExtUIOp,
    TruncIOp,
    IndexCastOp,
    BitcastOp,
)

Arith: Dialect = dialect_with(arith.Arith, OPS)
"""xDSL's `arith` with the ops above in place of its own."""
