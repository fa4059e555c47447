"""The `subset` dialect: gather, scatter and concat on tensors and buffers.

Mirrors the RFC "Structured Codegen Beyond Rectangular Arrays" (seed 003),
sections "GatherOp and Friends", "ConcatOp" and "Bufferization, Copy, View and
The Need for More Expressive Types".

`subset.gather %input[%indices] coordinates = [c0, ...]` takes, for every
coordinate tuple in `%indices` (its trailing dimension holds one tuple, one
entry per coordinate dimension), the full slice of `%input` at those
coordinates. The result shape is the batch shape of `%indices` (all but its
trailing dimension) followed by the dimensions of `%input` that `coordinates`
does not name. Without `coordinates`, every dimension is a coordinate (COO
tuples, 0-D slices). `subset.scatter` is its symmetric insertion and
`subset.concat` a limited gather along one dimension.

Every op has a tensor form (value semantics) and a buffer form (memrefs). The
buffer forms carry an optional `copy(...)` / `view(...)` semantics: `copy`
materializes the subset in a fresh contiguous buffer; `view` aliases the
operand, and its result is either a `!jagged.buffer` (one inner buffer per
slice, each with its own base) or, for a gather, a strided memref (then the
indices must be one contiguous range, as the RFC notes). On tensors the
attribute is a hint for bufferization, which may turn a view into a copy.
A gather may name an `out_of_bounds(%pad)` value, read for coordinates outside
the input (the RFC discussion's gather on a padded tensor); a scatter may
`out_of_bounds(skip)` updates whose coordinates fall outside the destination.

The RFC spelling of a jagged buffer type, `memref<? x memref<4xf32>>`, is
accepted as a result type and read as `!jagged.buffer<?xmemref<4xf32>>`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import auto
from typing import TypeVar, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xsparse.dialects.jagged import (
    JaggedBufferType,
    memref_strides,
    parse_type_or_rfc_spelling,
    shapes_compatible,
)
from xsparse.dialects.type_guards import (
    is_memref_type,
    is_tensor_or_memref_type,
    is_tensor_type,
)

DYNAMIC = DYNAMIC_INDEX
ShapedType = TensorType[Attribute] | MemRefType[Attribute]
_T = TypeVar("_T")


class SubsetMode(StrEnum):
    """The semantics of a subset op: `copy` materializes, `view` aliases."""

    COPY = auto()
    VIEW = auto()


@irdl_attr_definition
class SubsetModeAttr(EnumAttribute[SubsetMode], SpacedOpaqueSyntaxAttribute):
    """`#subset<mode copy>`; the ops spell it as the `copy(...)`/`view(...)` wrapper."""

    name = "subset.mode"


def _shape_str(shape: Sequence[int]) -> str:
    return "x".join("?" if d == DYNAMIC else str(d) for d in shape) or "scalar"


def slice_dims(rank: int, coordinates: Sequence[int]) -> list[int]:
    """The input dimensions a gather takes whole (those `coordinates` does not name)."""
    return [d for d in range(rank) if d not in coordinates]


def gather_shape(
    input_shape: Sequence[int], indices_shape: Sequence[int], coordinates: Sequence[int]
) -> list[int]:
    """Batch shape of the indices followed by the slice shape of the input."""
    return list(indices_shape[:-1]) + [
        input_shape[d] for d in slice_dims(len(input_shape), coordinates)
    ]


def strided_type(
    element: Attribute, shape: Sequence[int], strides: Sequence[int]
) -> MemRefType[Attribute]:
    """`memref<shape x element, strided<strides, offset: ?>>`."""
    return MemRefType(
        element,
        shape,
        StridedLayoutAttr([None if s == DYNAMIC else s for s in strides], None),
    )


def _is_index_like(t: Attribute) -> bool:
    return isinstance(t, IndexType | IntegerType)


def _parse_keyword_call(
    parser: Parser, keyword: str, body: Callable[[], _T]
) -> _T | None:
    """`keyword(body)` if `keyword` comes next, else None."""
    if not parser.parse_optional_keyword(keyword):
        return None
    parser.parse_punctuation("(")
    inner = body()
    parser.parse_punctuation(")")
    return inner


def _parse_in_mode(
    parser: Parser, body: Callable[[], _T]
) -> tuple[SubsetMode | None, _T]:
    """`body` or `copy(body)` / `view(body)`."""
    for mode in SubsetMode:
        inner = _parse_keyword_call(parser, str(mode), body)
        if inner is not None:
            return mode, inner
    return None, body()


def _parse_indexed(parser: Parser, parse: Callable[[], _T]) -> tuple[_T, _T]:
    """`a[b]`, for operands and for types."""
    a = parse()
    parser.parse_punctuation("[")
    b = parse()
    parser.parse_punctuation("]")
    return a, b


def _print_indexed(
    printer: Printer, print_one: Callable[[_T], object], a: _T, b: _T
) -> None:
    print_one(a)
    with printer.in_square_brackets():
        print_one(b)


def _parse_and_list(parser: Parser, parse: Callable[[], _T]) -> list[_T]:
    """`a and b and ...`, for operands and for types."""
    items = [parse()]
    while parser.parse_optional_keyword("and"):
        items.append(parse())
    return items


def _parse_attr_dict_and_colon(parser: Parser) -> dict[str, Attribute]:
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    return attrs


def _parse_coordinates(parser: Parser) -> list[int] | None:
    if not parser.parse_optional_keyword("coordinates"):
        return None
    parser.parse_punctuation("=")
    return parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, parser.parse_integer
    )


def _values(attr: DenseArrayBase) -> tuple[int, ...] | tuple[float, ...]:
    """`attr.get_values()`: its overloads need the element type statically."""
    typed = cast(DenseArrayBase[IntegerType] | DenseArrayBase[AnyFloat], attr)
    return typed.get_values()


class ModeOp(IRDLOperation):
    """The optional `copy`/`view` semantics the three ops share, and its syntax.

    The ops' `parse`/`print` stay hand-written: xDSL's declarative format binds
    an operand once (so no `copy(...)`-or-bare alternative around operands), cannot
    infer the `out_of_bounds` operand's type from the input's element type, and
    cannot read the RFC jagged type spelling or `and`-separated lists.
    """

    mode = opt_prop_def(SubsetModeAttr)

    @property
    def semantics(self) -> SubsetMode | None:
        return self.mode.data if self.mode is not None else None

    def _print_in_mode(self, printer: Printer, body: Callable[[], object]) -> None:
        """`body` or `copy(body)` / `view(body)`."""
        if self.mode is None:
            body()
            return
        printer.print_string(str(self.mode.data))
        with printer.in_parens():
            body()

    def _print_attr_dict_and_colon(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")


class SubsetOp(ModeOp):
    """Shared parts of gather and scatter: coordinates, index operand."""

    coordinates_attr = opt_prop_def(DenseArrayBase, prop_name="coordinates")

    def coordinate_dims(self, input_rank: int) -> list[int]:
        """The coordinates named, or every dimension (COO) when none are."""
        if self.coordinates_attr is None:
            return list(range(input_rank))
        return [int(c) for c in _values(self.coordinates_attr)]

    def _print_coordinates(self, printer: Printer) -> None:
        if self.coordinates_attr is not None:
            printer.print_string(" coordinates = [")
            printer.print_list(
                _values(self.coordinates_attr),
                lambda c: printer.print_string(str(c)),
            )
            printer.print_string("]")

    def _verify_indexing(
        self, full: ShapedType, indices: ShapedType, what: str
    ) -> list[int]:
        """Checks the coordinates and the index operand; returns the coordinates."""
        rank = full.get_num_dims()
        coordinates = self.coordinate_dims(rank)
        if self.coordinates_attr is not None:
            if not coordinates:
                raise VerifyException("coordinates must name at least one dimension")
            for c in coordinates:
                if not 0 <= c < rank:
                    raise VerifyException(
                        f"coordinate {c} is out of range for the rank-{rank} {what}"
                    )
            if any(b <= a for a, b in zip(coordinates, coordinates[1:], strict=False)):
                raise VerifyException("coordinates must be strictly increasing")
        if not _is_index_like(indices.element_type):
            raise VerifyException(
                f"indices must hold index or integer values, got {indices.element_type}"
            )
        ishape = indices.get_shape()
        if not ishape:
            raise VerifyException(
                "indices must have a trailing dimension holding the coordinate tuples"
            )
        if ishape[-1] != len(coordinates):
            raise VerifyException(
                f"the trailing dimension of the indices ({_shape_str(ishape[-1:])}) must "
                f"equal the number of coordinates ({len(coordinates)})"
            )
        if is_tensor_type(full) != is_tensor_type(indices):
            raise VerifyException(
                "indices must be a tensor for the tensor form and a memref for the buffer form"
            )
        return coordinates


@irdl_op_definition
class GatherOp(SubsetOp):
    """`subset.gather` (RFC: GatherOp and Friends; Bufferization, Copy, View).

    `%r = subset.gather view(%input[%indices]) coordinates = [1] :
    memref<4x4xf32>[memref<?x1xindex>] -> !jagged.buffer<?xmemref<4xf32>>`
    """

    name = "subset.gather"

    input = operand_def(TensorType | MemRefType)
    indices = operand_def(TensorType | MemRefType)
    padding = opt_operand_def()
    result = result_def()

    def __init__(
        self,
        input: SSAValue | Operation,
        indices: SSAValue | Operation,
        result_type: Attribute,
        coordinates: Sequence[int] | None = None,
        mode: SubsetMode | None = None,
        padding: SSAValue | Operation | None = None,
    ):
        props: dict[str, Attribute] = {}
        if coordinates is not None:
            props["coordinates"] = DenseArrayBase.from_list(i64, coordinates)
        if mode is not None:
            props["mode"] = SubsetModeAttr(mode)
        super().__init__(
            operands=[input, indices, [padding] if padding is not None else []],
            result_types=[result_type],
            properties=props,
        )

    def verify_(self) -> None:
        src = self.input.type
        idx = self.indices.type
        assert is_tensor_or_memref_type(src)
        assert is_tensor_or_memref_type(idx)
        coordinates = self._verify_indexing(src, idx, "input")
        res = self.result.type
        expected = gather_shape(src.get_shape(), idx.get_shape(), coordinates)
        if self.padding is not None:
            if self.padding.type != src.element_type:
                raise VerifyException(
                    f"out_of_bounds value must have the element type {src.element_type}, "
                    f"got {self.padding.type}"
                )
            if self.semantics == SubsetMode.VIEW:
                raise VerifyException(
                    "a view cannot read an out_of_bounds value; use copy"
                )
        if is_tensor_type(src):
            if not is_tensor_type(res):
                raise VerifyException("the tensor form must return a tensor")
            self._check_result(res.get_shape(), res.element_type, expected, src)
            return
        if isinstance(res, JaggedBufferType):
            if self.semantics == SubsetMode.COPY:
                raise VerifyException(
                    "a gather into a jagged buffer has view semantics; use view"
                )
            inner = res.inner
            self._check_result(
                list(res.get_shape()) + list(inner.get_shape()),
                inner.element_type,
                expected,
                src,
            )
            if len(res.get_shape()) != idx.get_num_dims() - 1:
                raise VerifyException(
                    f"the jagged buffer's outer shape must be the indices' batch shape "
                    f"{_shape_str(idx.get_shape()[:-1])}"
                )
            self._check_inner_layout(src, coordinates, inner)
            return
        if not is_memref_type(res):
            raise VerifyException(
                "the buffer form must return a memref or a !jagged.buffer"
            )
        self._check_result(res.get_shape(), res.element_type, expected, src)
        if self.semantics == SubsetMode.VIEW:
            self._check_range_view(src, idx, coordinates, res)

    def _check_result(
        self,
        shape: Sequence[int],
        element: Attribute,
        expected: Sequence[int],
        src: ShapedType,
    ) -> None:
        if element != src.element_type:
            raise VerifyException(
                f"result element type {element} must match the input's {src.element_type}"
            )
        if not shapes_compatible(shape, expected):
            raise VerifyException(
                f"result shape {_shape_str(shape)} must be the indices' batch shape "
                f"followed by the input's slice shape: {_shape_str(expected)}"
            )

    def _check_inner_layout(
        self,
        src: MemRefType[Attribute],
        coordinates: Sequence[int],
        inner: MemRefType[Attribute],
    ) -> None:
        """An inner buffer type with an explicit layout must be the slice's."""
        if isinstance(inner.layout, NoneAttr):
            return
        strides = memref_strides(src)
        declared = memref_strides(inner)
        if strides is None or declared is None:
            raise VerifyException("the input and inner buffer must be strided")
        expected = [strides[d] for d in slice_dims(src.get_num_dims(), coordinates)]
        if not shapes_compatible(declared, expected):
            raise VerifyException(
                f"inner buffer strides [{', '.join(map(str, declared))}] do not match "
                f"the input's slice strides [{', '.join(map(str, expected))}]"
            )

    def _check_range_view(
        self,
        src: MemRefType[Attribute],
        idx: TensorType[Attribute] | MemRefType[Attribute],
        coordinates: Sequence[int],
        res: MemRefType[Attribute],
    ) -> None:
        """A view as a strided memref: one coordinate, one batch dimension, a range."""
        if len(coordinates) != 1 or idx.get_num_dims() != 2:
            raise VerifyException(
                "a view into a strided memref needs one coordinate and one batch "
                "dimension (the indices must be one contiguous range); "
                "view into a !jagged.buffer otherwise"
            )
        strides = memref_strides(src)
        if strides is None:
            raise VerifyException("the input of a view must be strided")
        (c,) = coordinates
        expected = [strides[c]] + [
            strides[d] for d in slice_dims(src.get_num_dims(), coordinates)
        ]
        declared = memref_strides(res)
        offset_dynamic = isinstance(res.layout, StridedLayoutAttr) and isinstance(
            res.layout.offset, NoneAttr
        )
        if (
            declared is None
            or not offset_dynamic
            or not shapes_compatible(declared, expected)
        ):
            want = strided_type(res.element_type, res.get_shape(), expected)
            raise VerifyException(
                f"a view of a contiguous range of the input has type {want}, got {res}"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        self._print_in_mode(
            printer,
            lambda: _print_indexed(
                printer, printer.print_ssa_value, self.input, self.indices
            ),
        )
        self._print_coordinates(printer)
        if self.padding is not None:
            printer.print_string(" out_of_bounds")
            with printer.in_parens():
                printer.print_ssa_value(self.padding)
        self._print_attr_dict_and_colon(printer)
        _print_indexed(
            printer, printer.print_attribute, self.input.type, self.indices.type
        )
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> GatherOp:
        operand = parser.parse_unresolved_operand
        mode, (src, idx) = _parse_in_mode(
            parser, lambda: _parse_indexed(parser, operand)
        )
        coordinates = _parse_coordinates(parser)
        pad = _parse_keyword_call(parser, "out_of_bounds", operand)
        attrs = _parse_attr_dict_and_colon(parser)
        src_type, idx_type = _parse_indexed(parser, parser.parse_type)
        parser.parse_punctuation("->")
        res_type = parse_type_or_rfc_spelling(parser)
        padding = None
        if pad is not None:
            element = (
                src_type.element_type
                if is_tensor_or_memref_type(src_type)
                else src_type
            )
            padding = parser.resolve_operand(pad, element)
        op = cls(
            parser.resolve_operand(src, src_type),
            parser.resolve_operand(idx, idx_type),
            res_type,
            coordinates,
            mode,
            padding,
        )
        op.attributes.update(attrs)
        return op


@irdl_op_definition
class ScatterOp(SubsetOp):
    """`subset.scatter` (RFC: GatherOp and Friends, the symmetric insert).

    `%r = subset.scatter %src into %dest[%indices] coordinates = [0] :
    tensor<5x64xf32> into tensor<42x64xf32>[tensor<5x1xindex>] -> tensor<42x64xf32>`;
    the buffer form writes `%dest` in place and has no result.
    """

    name = "subset.scatter"

    source = operand_def(TensorType | MemRefType)
    dest = operand_def(TensorType | MemRefType)
    indices = operand_def(TensorType | MemRefType)
    skip_out_of_bounds = opt_prop_def(UnitAttr)
    result = opt_result_def(TensorType)

    def __init__(
        self,
        source: SSAValue | Operation,
        dest: SSAValue | Operation,
        indices: SSAValue | Operation,
        coordinates: Sequence[int] | None = None,
        mode: SubsetMode | None = None,
        skip_out_of_bounds: bool = False,
    ):
        props: dict[str, Attribute] = {}
        if coordinates is not None:
            props["coordinates"] = DenseArrayBase.from_list(i64, coordinates)
        if mode is not None:
            props["mode"] = SubsetModeAttr(mode)
        if skip_out_of_bounds:
            props["skip_out_of_bounds"] = UnitAttr()
        dest_type = SSAValue.get(dest).type
        super().__init__(
            operands=[source, dest, indices],
            result_types=[[dest_type] if is_tensor_type(dest_type) else []],
            properties=props,
        )

    def verify_(self) -> None:
        src = self.source.type
        dst = self.dest.type
        idx = self.indices.type
        assert is_tensor_or_memref_type(src)
        assert is_tensor_or_memref_type(dst)
        assert is_tensor_or_memref_type(idx)
        coordinates = self._verify_indexing(dst, idx, "destination")
        if self.semantics == SubsetMode.VIEW:
            raise VerifyException(
                "a scatter copies its source; build the source in place with a "
                "gather view of the destination instead"
            )
        if is_tensor_type(src) != is_tensor_type(dst):
            raise VerifyException(
                "source and destination must both be tensors or memrefs"
            )
        if is_tensor_type(dst):
            if self.result is None or self.result.type != dst:
                raise VerifyException("the tensor form returns the destination's type")
        elif self.result is not None:
            raise VerifyException("the buffer form writes in place and has no result")
        if src.element_type != dst.element_type:
            raise VerifyException(
                f"source element type {src.element_type} must match the "
                f"destination's {dst.element_type}"
            )
        expected = gather_shape(dst.get_shape(), idx.get_shape(), coordinates)
        if not shapes_compatible(src.get_shape(), expected):
            raise VerifyException(
                f"source shape {_shape_str(src.get_shape())} must be the indices' batch "
                f"shape followed by the destination's slice shape: {_shape_str(expected)}"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        self._print_in_mode(printer, lambda: printer.print_ssa_value(self.source))
        printer.print_string(" into ")
        _print_indexed(printer, printer.print_ssa_value, self.dest, self.indices)
        self._print_coordinates(printer)
        if self.skip_out_of_bounds is not None:
            printer.print_string(" out_of_bounds(skip)")
        self._print_attr_dict_and_colon(printer)
        printer.print_attribute(self.source.type)
        printer.print_string(" into ")
        _print_indexed(
            printer, printer.print_attribute, self.dest.type, self.indices.type
        )
        if self.result is not None:
            printer.print_string(" -> ")
            printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> ScatterOp:
        mode, src = _parse_in_mode(parser, parser.parse_unresolved_operand)
        parser.parse_keyword("into")
        dst, idx = _parse_indexed(parser, parser.parse_unresolved_operand)
        coordinates = _parse_coordinates(parser)
        skip = _parse_keyword_call(
            parser, "out_of_bounds", lambda: parser.parse_keyword("skip")
        )
        attrs = _parse_attr_dict_and_colon(parser)
        src_type = parser.parse_type()
        parser.parse_keyword("into")
        dst_type, idx_type = _parse_indexed(parser, parser.parse_type)
        if parser.parse_optional_punctuation("->"):
            res_type = parser.parse_type()
            if res_type != dst_type:
                parser.raise_error(
                    f"scatter result type {res_type} must be the destination's {dst_type}"
                )
        op = cls(
            parser.resolve_operand(src, src_type),
            parser.resolve_operand(dst, dst_type),
            parser.resolve_operand(idx, idx_type),
            coordinates,
            mode,
            skip is not None,
        )
        op.attributes.update(attrs)
        return op


def concat_shape(shapes: Sequence[Sequence[int]], dim: int) -> list[int]:
    """The shape of a concatenation along `dim` (dynamic if any part is)."""
    result = list(shapes[0])
    total = 0
    for s in shapes:
        if s[dim] == DYNAMIC or total == DYNAMIC:
            total = DYNAMIC
        else:
            total += s[dim]
    result[dim] = total
    for d in range(len(result)):
        if d != dim:
            static = [s[d] for s in shapes if s[d] != DYNAMIC]
            result[d] = static[0] if static else DYNAMIC
    return result


@irdl_op_definition
class ConcatOp(ModeOp):
    """`subset.concat` (RFC: ConcatOp).

    `%out = subset.concat %t1 and %t2 along dimension = 1 :
    tensor<3x4x?xf32> and tensor<3x5x?xf32> into tensor<3x9x?xf32>`
    """

    name = "subset.concat"

    inputs = var_operand_def(TensorType | MemRefType)
    dimension = prop_def(IntegerAttr[IntegerType])
    result = result_def(TensorType | MemRefType)

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        dimension: int,
        result_type: Attribute,
        mode: SubsetMode | None = None,
    ):
        props: dict[str, Attribute] = {"dimension": IntegerAttr(dimension, i64)}
        if mode is not None:
            props["mode"] = SubsetModeAttr(mode)
        super().__init__(
            operands=[inputs], result_types=[[result_type]], properties=props
        )

    @property
    def dim(self) -> int:
        return self.dimension.value.data

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException("expected at least one operand")
        types = [v.type for v in self.inputs]
        res = self.result.type
        assert is_tensor_or_memref_type(res)
        tensor_form = is_tensor_type(res)
        rank = res.get_num_dims()
        dim = self.dim
        if not 0 <= dim < rank:
            raise VerifyException(f"dimension {dim} is out of range for rank {rank}")
        shapes: list[Sequence[int]] = []
        for i, t in enumerate(types):
            assert is_tensor_or_memref_type(t)
            if is_tensor_type(t) != tensor_form:
                raise VerifyException(
                    "operands and result must all be tensors or all be memrefs"
                )
            if t.get_num_dims() != rank:
                raise VerifyException(
                    f"operand {i} has rank {t.get_num_dims()}, expected {rank}"
                )
            if t.element_type != res.element_type:
                raise VerifyException(
                    f"operand {i} has element type {t.element_type}, expected {res.element_type}"
                )
            shapes.append(t.get_shape())
        for d in range(rank):
            if d == dim:
                continue
            static = {s[d] for s in shapes if s[d] != DYNAMIC}
            if len(static) > 1:
                raise VerifyException(
                    f"operands differ in dimension {d}, which is not concatenated"
                )
        expected = concat_shape(shapes, dim)
        if not shapes_compatible(res.get_shape(), expected):
            raise VerifyException(
                f"result shape {_shape_str(res.get_shape())} must be {_shape_str(expected)}"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        self._print_in_mode(
            printer,
            lambda: printer.print_list(
                self.inputs, printer.print_ssa_value, delimiter=" and "
            ),
        )
        printer.print_string(f" along dimension = {self.dim}")
        self._print_attr_dict_and_colon(printer)
        printer.print_list(
            [v.type for v in self.inputs], printer.print_attribute, delimiter=" and "
        )
        printer.print_string(" into ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> ConcatOp:
        mode, operands = _parse_in_mode(
            parser, lambda: _parse_and_list(parser, parser.parse_unresolved_operand)
        )
        parser.parse_keyword("along")
        parser.parse_keyword("dimension")
        parser.parse_punctuation("=")
        dim = parser.parse_integer()
        attrs = _parse_attr_dict_and_colon(parser)
        types = _parse_and_list(parser, parser.parse_type)
        parser.parse_keyword("into")
        res_type = parser.parse_type()
        if len(types) != len(operands):
            parser.raise_error(
                f"expected {len(operands)} operand types, got {len(types)}"
            )
        op = cls(
            [
                parser.resolve_operand(o, t)
                for o, t in zip(operands, types, strict=True)
            ],
            dim,
            res_type,
            mode,
        )
        op.attributes.update(attrs)
        return op


Subset = Dialect("subset", [GatherOp, ScatterOp, ConcatOp], [SubsetModeAttr])
