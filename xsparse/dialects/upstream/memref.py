"""xDSL's `memref` as MLIR 22 has it: `memref.realloc` and `memref.prefetch`,
and `memref.cast` with MLIR's syntax (https://mlir.llvm.org/docs/Dialects/MemRef/)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    I32,
    I64,
    BoolAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    i32,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
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
from xdsl.utils.exceptions import VerifyException

from xsparse.xdsl_adapter import dialect_with, redefined_op


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


@redefined_op()
class CastOp(memref.CastOp):
    """`memref.cast %m attr-dict : T to U` (MLIR's syntax; xDSL 0.74 prints
    the generic form), to and from unranked memrefs in `printMemref*` programs."""

    def __init__(self, source: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[source], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> CastOp:
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

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.source)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" to ")
        printer.print_attribute(self.dest.type)

    def verify_(self) -> None:
        memref.CastOp.verify_(self)


OPS: tuple[type[Operation], ...] = (ReallocOp, PrefetchOp, CastOp)

MemRef: Dialect = dialect_with(memref.MemRef, OPS)
"""xDSL's `memref` with the ops above in place of its own."""
