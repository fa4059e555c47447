"""xDSL's `scf` with MLIR 22's custom syntax for `scf.parallel`, which xDSL 0.74
prints in the generic form (https://mlir.llvm.org/docs/Dialects/SCFDialect/):
`scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x) -> f64 { ... }`,
and `scf.for`/`scf.if` whose one result type may be written without
parentheses (`iter_args(%a = %x) -> f64 {`, `scf.if %c -> f64 {`), as MLIR's
parser accepts. xDSL's `scf.reduce` already reads and prints MLIR's syntax."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType, i1
from xdsl.dialects.utils import parse_assignment
from xdsl.ir import Attribute, Dialect, Operation, Region, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import SingleBlockImplicitTerminator, ensure_terminator

from xsparse.xdsl_adapter import dialect_with, redefined_op


def _print_values(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_string("(")
    printer.print_list(values, printer.print_ssa_value)
    printer.print_string(")")


def parse_result_types(parser: Parser) -> list[Attribute]:
    """The types after `->`: `(T, U)`, `()`, or one type without parentheses
    (MLIR's `parseOptionalArrowTypeList`)."""
    if parser.parse_optional_punctuation("(") is None:
        return [parser.parse_type()]
    if parser.parse_optional_punctuation(")") is not None:
        return []
    types = [parser.parse_type()]
    while parser.parse_optional_punctuation(","):
        types.append(parser.parse_type())
    parser.parse_punctuation(")")
    return types


@redefined_op()
class ForOp(scf.ForOp):
    """`scf.for` as xDSL reads and prints it, with MLIR's `-> T` for one
    result."""

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        indvar = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        bounds = [parser.parse_unresolved_operand()]
        parser.parse_keyword("to")
        bounds.append(parser.parse_unresolved_operand())
        parser.parse_keyword("step")
        bounds.append(parser.parse_unresolved_operand())
        pos = parser.pos
        assignments: list[tuple[Parser.UnresolvedArgument, UnresolvedOperand]] = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_args"):
            assignments = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, lambda: parse_assignment(parser)
            )
            parser.parse_punctuation("->")
            types = parse_result_types(parser)
        inits = parser.resolve_operands([a[1] for a in assignments], types, pos)
        iter_args = [a[0].resolve(t) for a, t in zip(assignments, types, strict=True)]
        indvar_type = (
            parser.parse_type()
            if parser.parse_optional_punctuation(":")
            else IndexType()
        )
        lb, ub, step = (parser.resolve_operand(b, indvar_type) for b in bounds)
        body = parser.parse_region((indvar.resolve(indvar_type), *iter_args))
        op = cls(lb, ub, step, inits, body)
        op.attributes |= parser.parse_optional_attr_dict()
        if not iter_args:
            for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
                ensure_terminator(op, trait)
        return op


@redefined_op()
class IfOp(scf.IfOp):
    """`scf.if` as xDSL reads and prints it, with MLIR's `-> T` for one
    result."""

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        condition = parser.parse_operand(i1)
        types = (
            parse_result_types(parser)
            if parser.parse_optional_punctuation("->")
            else []
        )
        then_region = cls.parse_region_with_yield(parser)
        else_region = (
            cls.parse_region_with_yield(parser)
            if parser.parse_optional_keyword("else")
            else Region()
        )
        attrs = parser.parse_optional_attr_dict()
        return cls(condition, types, then_region, else_region, attrs)


@redefined_op()
class ParallelOp(scf.ParallelOp):
    """`scf.parallel` in MLIR's custom syntax."""

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_values(printer, self.body.block.args)
        printer.print_string(" = ")
        _print_values(printer, self.lowerBound)
        printer.print_string(" to ")
        _print_values(printer, self.upperBound)
        printer.print_string(" step ")
        _print_values(printer, self.step)
        if self.initVals:
            printer.print_string(" init ")
            _print_values(printer, self.initVals)
            printer.print_string(" -> ")
            types = [v.type for v in self.initVals]
            if len(types) > 1:
                printer.print_string("(")
            printer.print_list(types, printer.print_attribute)
            if len(types) > 1:
                printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> ParallelOp:
        ivs = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        parser.parse_punctuation("=")

        def operands() -> list[UnresolvedOperand]:
            return parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_unresolved_operand
            )

        index = IndexType()
        lower = [parser.resolve_operand(o, index) for o in operands()]
        parser.parse_keyword("to")
        upper = [parser.resolve_operand(o, index) for o in operands()]
        parser.parse_keyword("step")
        steps = [parser.resolve_operand(o, index) for o in operands()]
        inits: Sequence[SSAValue] = []
        if parser.parse_optional_keyword("init"):
            pos = parser.pos
            unresolved = operands()
            parser.parse_punctuation("->")
            types = parse_result_types(parser)
            inits = parser.resolve_operands(unresolved, types, pos)
        body = parser.parse_region([iv.resolve(index) for iv in ivs])
        op = cls(lower, upper, steps, body, inits)
        op.attributes |= parser.parse_optional_attr_dict()
        for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
            ensure_terminator(op, trait)
        return op

    def verify_(self) -> None:
        scf.ParallelOp.verify_(self)


OPS: tuple[type[Operation], ...] = (ForOp, IfOp, ParallelOp)

Scf: Dialect = dialect_with(scf.Scf, OPS)
"""xDSL's `scf` with the ops above in place of its own."""
