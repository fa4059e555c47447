"""xDSL's `builtin` with MLIR's `sparse<indices, values> : type` elements
attribute (https://mlir.llvm.org/docs/Dialects/Builtin/#sparseelementsattr),
which xDSL 0.74 lacks.

`SparseElementsAttr` mirrors MLIR 22's `SparseElementsAttr`: its indices are
an i64 `dense` of shape `[N, rank]` (or `[N]` for a vector, as written), its
values a 1-d `dense` of N elements; every other element is zero. Parsing
(`Parser::parseSparseElementsAttr`), the verifier's messages and the printed
form (splats collapsed, values of more than 100 elements in hex, `sparse<>`
when there are no indices) are MLIR's. Where an index repeats, the first
entry's value is the element's, as MLIR's `getValues` reads it.
"""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyDenseElement,
    AnyFloat,
    Builtin,
    BuiltinAttribute,
    ComplexType,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    RankedStructure,
    ShapedType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Dialect, TypedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException

from xsparse.xdsl_adapter import (
    KeywordAttribute,
    Position,
    dialect_with,
    resume_from,
    tensor_literal_shape,
)

HEX_THRESHOLD = 100
"""MLIR prints the values of an elements attribute of more elements than this
as a hex string."""
UINT64 = (1 << 64) - 1
MAX_DENSE_ELEMENTS = 1 << 24
"""The most elements `to_dense` expands to (as `diagnostics.MAX_DENSE_ELEMENTS`
bounds dense literals): a `sparse<...>` constant of a larger shape is used by
its entries only."""

Values = list[int] | list[float] | list[tuple[int, int]] | list[tuple[float, float]]


@irdl_attr_definition
class SparseElementsAttr(TypedAttribute, BuiltinAttribute, KeywordAttribute):
    """MLIR's `sparse<[[i, j], ...], [v, ...]> : type`: the listed elements of
    a shaped constant, zero elsewhere."""

    name = "builtin.sparse"

    type: ShapedType
    indices: DenseIntOrFPElementsAttr
    values: DenseIntOrFPElementsAttr

    def verify(self) -> None:
        """MLIR's `SparseElementsAttr::verify`, with its messages."""
        shape = list(self.type.get_shape())
        indices_shape = list(self.indices.get_shape())
        values_shape = list(self.values.get_shape())
        if len(values_shape) != 1:
            raise VerifyException("expected 1-d tensor for sparse element values")
        rank = len(shape)
        if len(indices_shape) == 2:
            fits = indices_shape[1] == rank
        else:
            fits = len(indices_shape) == 1 and rank == 1
        if not fits or indices_shape[0] != values_shape[0]:
            raise VerifyException(
                f"expected shape ([{_joined(shape)}]); inferred shape of indices "
                f"literal ([{_joined(indices_shape)}]); inferred shape of values "
                f"literal ([{_joined(values_shape)}])"
            )
        rows = self._index_rows()
        for n, row in enumerate(rows):
            if any(not 0 <= c < d for c, d in zip(row, shape, strict=True)):
                index = _joined([c & UINT64 for c in row])
                raise VerifyException(
                    f"sparse index #{n} is not contained within the value "
                    f"shape, with index=[{index}], and type='{self.type}'"
                )
            if _is_splat(self.indices):
                break  # one index, as MLIR checks a splat

    def _index_rows(self) -> list[list[int]]:
        """The indices as written, one row per entry."""
        flat = cast(list[int], list(self.indices.get_values()))
        rank = len(self.type.get_shape())
        if rank == 0:
            return [[] for _ in range(len(self.values))]
        return [flat[i : i + rank] for i in range(0, len(flat), rank)]

    def coordinates(self) -> NDArray[np.int64]:
        """The coordinates of the entries, shape `[N, rank]`, in the order written."""
        rank = len(self.type.get_shape())
        rows = len(self.values)
        flat = np.array(self.indices.get_values(), dtype=np.int64)
        return flat.reshape(rows, rank)

    def entries(self) -> tuple[NDArray[np.int64], list[Any]]:
        """The coordinates and values of the elements, each index once (its
        first entry's value, as MLIR's `getValues` reads it), in row-major
        order of the coordinates (of any shape: no flat positions)."""
        coords = self.coordinates()
        values = list(self.values.get_values())
        if not len(coords):
            return coords, values
        if coords.shape[1] == 0:
            return coords[:1], values[:1]
        _, first = np.unique(coords, axis=0, return_index=True)
        return coords[first], [values[i] for i in first.tolist()]

    def dense_size(self) -> int:
        """The number of elements of the constant's type."""
        return math.prod(self.type.get_shape())

    def dense_values(self) -> Values:
        """Every element in row-major order (zero where no index is listed);
        at most MAX_DENSE_ELEMENTS of them."""
        count = self.dense_size()
        if count > MAX_DENSE_ELEMENTS:
            raise ValueError(f"sparse<...> of {count} elements expanded densely")
        element = self.type.get_element_type()
        scalar = element.element_type if isinstance(element, ComplexType) else element
        zero: Any = 0.0 if isinstance(scalar, AnyFloat) else 0
        if isinstance(element, ComplexType):
            zero = (zero, zero)
        data: list[Any] = [zero] * count
        coords, values = self.entries()
        shape = self.type.get_shape()
        flat = (
            np.ravel_multi_index(tuple(coords.T), shape) if shape else [0] * len(coords)
        )
        for at, value in zip(np.asarray(flat).tolist(), values, strict=True):
            data[at] = value
        return cast(Values, data)

    def to_dense(self) -> DenseIntOrFPElementsAttr:
        """The same constant as a `dense<...>` attribute."""
        shaped = cast(RankedStructure[AnyDenseElement], self.type)
        return DenseIntOrFPElementsAttr.from_list(shaped, self.dense_values())  # pyright: ignore[reportCallIssue, reportArgumentType]

    def print_without_type(self, printer: Printer) -> None:
        printer.print_string("sparse<")
        if len(self.indices):
            _print_elements(printer, self.indices, allow_hex=False)
            printer.print_string(", ")
            _print_elements(printer, self.values, allow_hex=True)
        printer.print_string(">")

    def print_builtin(self, printer: Printer) -> None:
        self.print_without_type(printer)
        printer.print_string(" : ")
        printer.print_attribute(self.type)

    @classmethod
    def parse_after_keyword(
        cls, parser: AttrParser, start: Position
    ) -> SparseElementsAttr:
        """MLIR's `Parser::parseSparseElementsAttr`: `sparse<>` or
        `sparse<indices, values>`, then `: type`; errors of the attribute as
        a whole are reported at `start` (the keyword), as MLIR does."""
        parser.parse_punctuation("<", " after 'sparse'")
        if parser.parse_optional_punctuation(">") is not None:
            shaped = _literal_type(parser, start)
            rank = len(shaped.get_shape())
            return cls._checked(
                parser,
                start,
                shaped,
                DenseIntOrFPElementsAttr.from_list(TensorType(i64, [0, rank]), []),
                _empty(shaped.get_element_type()),
            )
        indices_at = _skip_space(parser)
        indices_shape = tensor_literal_shape(parser)
        indices_end = parser.pos
        parser.parse_punctuation(",")
        values_at = _skip_space(parser)
        hex_values = parser.parse_optional_str_literal() is not None
        values_shape = [] if hex_values else tensor_literal_shape(parser)
        values_end = parser.pos
        parser.parse_punctuation(">")
        shaped = _literal_type(parser, start)
        after = parser.pos
        if not indices_shape:
            indices_shape = [1, len(shaped.get_shape())]
        if not values_shape:
            values_shape = [indices_shape[0]]
        indices = _reparse(
            parser, indices_at, indices_end, TensorType(i64, indices_shape)
        )
        element = cast(AnyDenseElement, shaped.get_element_type())
        values = _reparse(
            parser, values_at, values_end, TensorType(element, values_shape)
        )
        resume_from(parser, after)
        return cls._checked(parser, start, shaped, indices, values)

    @classmethod
    def _checked(
        cls,
        parser: AttrParser,
        start: Position,
        shaped: ShapedType,
        indices: DenseIntOrFPElementsAttr,
        values: DenseIntOrFPElementsAttr,
    ) -> SparseElementsAttr:
        try:
            return cls(shaped, indices, values)
        except VerifyException as e:
            parser.raise_error(str(e), start, start + len("sparse"))


def _is_splat(attr: DenseIntOrFPElementsAttr) -> bool:
    """Whether `attr` has elements, all equal (as MLIR stores a splat)."""
    values = list(attr.get_values())
    return bool(values) and values.count(values[0]) == len(values)


def _joined(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def _empty(element: Attribute) -> DenseIntOrFPElementsAttr:
    shaped = cast(RankedStructure[AnyDenseElement], TensorType(element, [0]))
    return DenseIntOrFPElementsAttr.from_list(shaped, [])  # pyright: ignore[reportCallIssue, reportArgumentType]


def _skip_space(parser: AttrParser) -> Position:
    """Where the next token starts (the parser's position may be before the
    white space in front of it)."""
    text = parser.lexer.input.content
    at = parser.pos
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def _literal_type(parser: AttrParser, start: Position) -> ShapedType:
    """MLIR's `parseElementsLiteralType`: `: type`, a statically shaped one."""
    parser.parse_punctuation(":")
    parsed = parser.parse_type()
    if not isinstance(parsed, ShapedType):
        parser.raise_error("elements literal must be a shaped type", start, start + 6)
    if any(d == DYNAMIC_INDEX for d in parsed.get_shape()):
        message = "elements literal type must have static shape"
        parser.raise_error(message, start, start + 6)
    element = cast(Attribute, parsed.get_element_type())  # pyright: ignore[reportUnknownMemberType]
    if not isinstance(element, IntegerType | IndexType | AnyFloat | ComplexType):
        message = f"unsupported element type of an elements literal: {element}"
        parser.raise_error(message, start, start + 6)
    return parsed


def _reparse(
    parser: AttrParser, at: Position, end: Position, t: TensorType[Attribute]
) -> DenseIntOrFPElementsAttr:
    """The literal at `at`..`end` of the input as a dense attribute of type
    `t`, read by a parser of `parser`'s class (its checks of values, hex
    floats and ranges) over the same text with `<...>` around the literal, so
    that its errors point into the input."""
    text = parser.lexer.input.content
    framed = f"{text[: at - 1]}<{text[at:end]}>"
    reader = type(parser)(parser.ctx, framed, parser.lexer.input.name)  # pyright: ignore[reportCallIssue]
    resume_from(reader, at - 1)
    shaped = cast(RankedStructure[AnyDenseElement], t)
    try:
        return reader.parse_dense_int_or_fp_elements_attr(shaped)
    except ParseError as e:
        parser.raise_error(e.msg, e.span.start, e.span.end)


def _print_elements(
    printer: Printer, attr: DenseIntOrFPElementsAttr, allow_hex: bool
) -> None:
    """A dense attribute's elements as MLIR prints them inside `sparse<>`:
    one element for a splat, a hex string for many (if `allow_hex`), else
    nested lists."""
    values = list(attr.get_values())
    element = attr.get_element_type()
    if _is_splat(attr):
        _print_element(printer, values[0], element)
    elif allow_hex and len(values) > HEX_THRESHOLD:
        printer.print_string(f'"0x{attr.data.data.hex().upper()}"')
    else:
        _print_nested(printer, values, list(attr.get_shape()), element)


def _print_nested(
    printer: Printer, values: list[Any], shape: list[int], element: Attribute
) -> None:
    printer.print_string("[")
    if len(shape) > 1:
        step = len(values) // shape[0] if shape[0] else 0
        rows = [values[i : i + step] for i in range(0, len(values), step or 1)]
        printer.print_list(
            rows, lambda row: _print_nested(printer, row, shape[1:], element)
        )
    else:
        printer.print_list(values, lambda v: _print_element(printer, v, element))
    printer.print_string("]")


def _print_element(printer: Printer, value: Any, element: Attribute) -> None:
    if isinstance(element, ComplexType):
        printer.print_complex(value, cast(ComplexType[Any], element))
    elif isinstance(element, AnyFloat):
        printer.print_float(value, element)
    else:
        printer.print_int(value, cast(IntegerType | IndexType, element))


Builtin: Dialect = dialect_with(Builtin, [], [SparseElementsAttr])
"""xDSL's `builtin` with MLIR's `sparse<...>` attribute."""
