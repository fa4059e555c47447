"""xDSL's `scf` with MLIR 22's custom syntax for `scf.parallel`, which xDSL 0.74
prints in the generic form (https://mlir.llvm.org/docs/Dialects/SCFDialect/):
`scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x) -> f64 { ... }`.
xDSL's `scf.reduce` already reads and prints MLIR's syntax."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import SingleBlockImplicitTerminator, ensure_terminator

from xsparse.xdsl_adapter import dialect_with, redefined_op


def _print_values(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_string("(")
    printer.print_list(values, printer.print_ssa_value)
    printer.print_string(")")


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
            types: list[Attribute]
            if parser.parse_optional_punctuation("("):
                types = [parser.parse_type()]
                while parser.parse_optional_punctuation(","):
                    types.append(parser.parse_type())
                parser.parse_punctuation(")")
            else:
                types = [parser.parse_type()]
            inits = parser.resolve_operands(unresolved, types, pos)
        body = parser.parse_region([iv.resolve(index) for iv in ivs])
        op = cls(lower, upper, steps, body, inits)
        op.attributes |= parser.parse_optional_attr_dict()
        for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
            ensure_terminator(op, trait)
        return op

    def verify_(self) -> None:
        scf.ParallelOp.verify_(self)


OPS: tuple[type[Operation], ...] = (ParallelOp,)

Scf: Dialect = dialect_with(scf.Scf, OPS)
"""xDSL's `scf` with the op above in place of its own."""
