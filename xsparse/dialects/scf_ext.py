"""MLIR's custom syntax for `scf.parallel` and `scf.reduce`, which xDSL 0.74 lacks.

mlir-opt-22 prints parallel loops as
`scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x) -> f64 { ... scf.reduce(%v : f64) {...} }`
(MLIR's "scf.parallel" and "scf.reduce" documentation); `extend_scf()` installs
this parser and printer on xDSL's own op classes so that xsparse reads and
writes what MLIR does.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType
from xdsl.dialects.scf import ParallelOp, ReduceOp
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import SingleBlockImplicitTerminator, ensure_terminator


def _print_values(
    printer: Printer, values: tuple[SSAValue, ...] | list[SSAValue]
) -> None:
    printer.print_string("(")
    printer.print_list(values, printer.print_ssa_value)
    printer.print_string(")")


def _print_parallel(self: ParallelOp, printer: Printer) -> None:
    printer.print_string(" ")
    _print_values(printer, list(self.body.block.args))
    printer.print_string(" = ")
    _print_values(printer, list(self.lowerBound))
    printer.print_string(" to ")
    _print_values(printer, list(self.upperBound))
    printer.print_string(" step ")
    _print_values(printer, list(self.step))
    if self.initVals:
        printer.print_string(" init ")
        _print_values(printer, list(self.initVals))
        printer.print_string(" -> ")
        printer.print_list([v.type for v in self.initVals], printer.print_attribute)
    printer.print_string(" ")
    printer.print_region(self.body, print_entry_block_args=False)
    printer.print_op_attributes(self.attributes)


def _parse_parallel(cls: type[ParallelOp], parser: Parser) -> ParallelOp:
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
        types: list[Attribute] = [parser.parse_type()]
        while parser.parse_optional_punctuation(","):
            types.append(parser.parse_type())
        inits = parser.resolve_operands(unresolved, types, pos)
    body = parser.parse_region([iv.resolve(index) for iv in ivs])
    op = cls(lower, upper, steps, body, inits)
    op.attributes |= parser.parse_optional_attr_dict()
    for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
        ensure_terminator(op, trait)
    return op


def _print_reduce(self: ReduceOp, printer: Printer) -> None:
    if self.args:
        printer.print_string("(")
        printer.print_list(
            self.args,
            lambda v: (
                printer.print_ssa_value(v),
                printer.print_string(" : "),
                printer.print_attribute(v.type),
            ),
        )
        printer.print_string(")")
        for region in self.reductions:
            printer.print_string(" ")
            printer.print_region(region)
    printer.print_op_attributes(self.attributes)


def _parse_reduce(cls: type[ReduceOp], parser: Parser) -> ReduceOp:
    args: list[SSAValue] = []
    if parser.parse_optional_punctuation("("):
        while True:
            operand = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            args.append(parser.resolve_operand(operand, parser.parse_type()))
            if not parser.parse_optional_punctuation(","):
                break
        parser.parse_punctuation(")")
    regions: list[Region] = [parser.parse_region() for _ in args]
    op = cls(args, regions)
    op.attributes |= parser.parse_optional_attr_dict()
    return op


def extend_scf() -> None:
    """Give xDSL's `scf.parallel` and `scf.reduce` MLIR's custom syntax."""
    ParallelOp.print = _print_parallel
    ParallelOp.parse = classmethod(_parse_parallel)  # pyright: ignore[reportAttributeAccessIssue]
    ReduceOp.print = _print_reduce
    ReduceOp.parse = classmethod(_parse_reduce)  # pyright: ignore[reportAttributeAccessIssue]
