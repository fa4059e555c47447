"""xDSL's `vector` as MLIR 22 has it: the ops xDSL 0.74 lacks, and
`vector.print` with MLIR's syntax, punctuation and strings
(https://mlir.llvm.org/docs/Dialects/Vector/)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import vector
from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    IndexType,
    MemRefType,
    StringAttr,
    VectorType,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xsparse.xdsl_adapter import dialect_with


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
class VectorScaleOp(IRDLOperation):
    """`vector.vscale`: the runtime multiple of scalable vector lengths (an index)."""

    name = "vector.vscale"

    res = result_def(IndexType())

    traits = traits_def(Pure())

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[IndexType()])


class PrintPunctuation(StrEnum):
    """What `vector.print` prints after its value (MLIR's `PrintPunctuation`)."""

    NO_PUNCTUATION = "no_punctuation"
    NEWLINE = "newline"
    COMMA = "comma"
    OPEN = "open"
    CLOSE = "close"


@irdl_attr_definition
class PrintPunctuationAttr(EnumAttribute[PrintPunctuation]):
    """`#vector.punctuation<newline>`."""

    name = "vector.punctuation"

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> PrintPunctuation:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(PrintPunctuation)


NEWLINE = PrintPunctuationAttr(PrintPunctuation.NEWLINE)


@irdl_op_definition
class PrintOp(IRDLOperation):
    """`vector.print [%v : T] [str "..." | punctuation <p>]` (MLIR 22's syntax;
    xDSL 0.74's has none): a value, then its punctuation (a newline unless
    told otherwise), or a string as it is."""

    name = "vector.print"

    source = opt_operand_def()
    punctuation = prop_def(PrintPunctuationAttr, default_value=NEWLINE)
    string = opt_prop_def(StringAttr, prop_name="stringLiteral")

    def __init__(
        self,
        source: SSAValue | None = None,
        punctuation: PrintPunctuation = PrintPunctuation.NEWLINE,
        string: str | None = None,
    ):
        super().__init__(
            operands=[[] if source is None else [source]],
            properties={
                "punctuation": PrintPunctuationAttr(punctuation),
                "stringLiteral": None if string is None else StringAttr(string),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> PrintOp:
        source: SSAValue | None = None
        operand = parser.parse_optional_unresolved_operand()
        if operand is not None:
            parser.parse_punctuation(":")
            source = parser.resolve_operand(operand, parser.parse_type())
        punctuation = PrintPunctuation.NEWLINE
        string: str | None = None
        while True:  # MLIR's oilist: each clause at most once, in any order
            if string is None and parser.parse_optional_keyword("str"):
                string = parser.parse_str_literal()
            elif punctuation is PrintPunctuation.NEWLINE and (
                parser.parse_optional_keyword("punctuation")
            ):
                punctuation = PrintPunctuationAttr.parse_parameter(parser)
            else:
                break
        op = cls(source, punctuation, string)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        if self.source is not None:
            printer.print_string(" ")
            printer.print_operand(self.source)
            printer.print_string(" : ")
            printer.print_attribute(self.source.type)
        if self.string is not None:
            printer.print_string(" str ")
            printer.print_string_literal(self.string.data)
        if self.punctuation != NEWLINE:
            printer.print_string(" punctuation ")
            self.punctuation.print_parameter(printer)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if self.string is not None and (
            self.source is not None or self.punctuation != NEWLINE
        ):
            raise VerifyException(
                "`source` or `punctuation` are not set when printing strings"
            )


OPS: tuple[type[Operation], ...] = (
    GatherOp,
    ScatterOp,
    StepOp,
    ConstantMaskOp,
    PrintOp,
    VectorScaleOp,
)

Vector: Dialect = dialect_with(vector.Vector, OPS, [PrintPunctuationAttr])
"""xDSL's `vector` with the ops above in place of its own."""
