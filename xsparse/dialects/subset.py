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

from collections.abc import Sequence
from typing import cast

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
    StringAttr,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

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
MODES = ("copy", "view")
ShapedType = TensorType[Attribute] | MemRefType[Attribute]


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


def _parse_mode(parser: Parser) -> str | None:
    for mode in MODES:
        if parser.parse_optional_keyword(mode):
            return mode
    return None


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


class SubsetOp(IRDLOperation):
    """Shared parts of gather and scatter: coordinates, semantics, index operand."""

    coordinates_attr = opt_prop_def(DenseArrayBase, prop_name="coordinates")
    mode = opt_prop_def(StringAttr)

    def coordinate_dims(self, input_rank: int) -> list[int]:
        """The coordinates named, or every dimension (COO) when none are."""
        if self.coordinates_attr is None:
            return list(range(input_rank))
        return [int(c) for c in _values(self.coordinates_attr)]

    @property
    def mode_name(self) -> str | None:
        return self.mode.data if self.mode is not None else None

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
        if self.mode is not None and self.mode.data not in MODES:
            raise VerifyException(
                f"semantics must be 'copy' or 'view', got '{self.mode.data}'"
            )
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
        mode: str | None = None,
        padding: SSAValue | Operation | None = None,
    ):
        props: dict[str, Attribute] = {}
        if coordinates is not None:
            props["coordinates"] = DenseArrayBase.from_list(i64, coordinates)
        if mode is not None:
            props["mode"] = StringAttr(mode)
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
            if self.mode_name == "view":
                raise VerifyException(
                    "a view cannot read an out_of_bounds value; use copy"
                )
        if is_tensor_type(src):
            if not is_tensor_type(res):
                raise VerifyException("the tensor form must return a tensor")
            self._check_result(res.get_shape(), res.element_type, expected, src)
            return
        if isinstance(res, JaggedBufferType):
            if self.mode_name == "copy":
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
        if self.mode_name == "view":
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
        mode = self.mode_name
        if mode is not None:
            printer.print_string(f"{mode}(")
        printer.print_ssa_value(self.input)
        printer.print_string("[")
        printer.print_ssa_value(self.indices)
        printer.print_string("]")
        if mode is not None:
            printer.print_string(")")
        self._print_coordinates(printer)
        if self.padding is not None:
            printer.print_string(" out_of_bounds(")
            printer.print_ssa_value(self.padding)
            printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        printer.print_string("[")
        printer.print_attribute(self.indices.type)
        printer.print_string("] -> ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> GatherOp:
        mode = _parse_mode(parser)
        if mode is not None:
            parser.parse_punctuation("(")
        src = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        idx = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        if mode is not None:
            parser.parse_punctuation(")")
        coordinates = _parse_coordinates(parser)
        pad: UnresolvedOperand | None = None
        if parser.parse_optional_keyword("out_of_bounds"):
            parser.parse_punctuation("(")
            pad = parser.parse_unresolved_operand()
            parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("[")
        idx_type = parser.parse_type()
        parser.parse_punctuation("]")
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
        mode: str | None = None,
        skip_out_of_bounds: bool = False,
    ):
        props: dict[str, Attribute] = {}
        if coordinates is not None:
            props["coordinates"] = DenseArrayBase.from_list(i64, coordinates)
        if mode is not None:
            props["mode"] = StringAttr(mode)
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
        if self.mode_name == "view":
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
        mode = self.mode_name
        if mode is not None:
            printer.print_string(f"{mode}(")
        printer.print_ssa_value(self.source)
        if mode is not None:
            printer.print_string(")")
        printer.print_string(" into ")
        printer.print_ssa_value(self.dest)
        printer.print_string("[")
        printer.print_ssa_value(self.indices)
        printer.print_string("]")
        self._print_coordinates(printer)
        if self.skip_out_of_bounds is not None:
            printer.print_string(" out_of_bounds(skip)")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" into ")
        printer.print_attribute(self.dest.type)
        printer.print_string("[")
        printer.print_attribute(self.indices.type)
        printer.print_string("]")
        if self.result is not None:
            printer.print_string(" -> ")
            printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> ScatterOp:
        mode = _parse_mode(parser)
        if mode is not None:
            parser.parse_punctuation("(")
        src = parser.parse_unresolved_operand()
        if mode is not None:
            parser.parse_punctuation(")")
        parser.parse_keyword("into")
        dst = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        idx = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        coordinates = _parse_coordinates(parser)
        skip = False
        if parser.parse_optional_keyword("out_of_bounds"):
            parser.parse_punctuation("(")
            parser.parse_keyword("skip")
            parser.parse_punctuation(")")
            skip = True
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_keyword("into")
        dst_type = parser.parse_type()
        parser.parse_punctuation("[")
        idx_type = parser.parse_type()
        parser.parse_punctuation("]")
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
            skip,
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
class ConcatOp(IRDLOperation):
    """`subset.concat` (RFC: ConcatOp).

    `%out = subset.concat %t1 and %t2 along dimension = 1 :
    tensor<3x4x?xf32> and tensor<3x5x?xf32> into tensor<3x9x?xf32>`
    """

    name = "subset.concat"

    inputs = var_operand_def(TensorType | MemRefType)
    dimension = prop_def(IntegerAttr[IntegerType])
    mode = opt_prop_def(StringAttr)
    result = result_def(TensorType | MemRefType)

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        dimension: int,
        result_type: Attribute,
        mode: str | None = None,
    ):
        props: dict[str, Attribute] = {"dimension": IntegerAttr(dimension, i64)}
        if mode is not None:
            props["mode"] = StringAttr(mode)
        super().__init__(
            operands=[inputs], result_types=[[result_type]], properties=props
        )

    @property
    def dim(self) -> int:
        return self.dimension.value.data

    @property
    def mode_name(self) -> str | None:
        return self.mode.data if self.mode is not None else None

    def verify_(self) -> None:
        if self.mode is not None and self.mode.data not in MODES:
            raise VerifyException(
                f"semantics must be 'copy' or 'view', got '{self.mode.data}'"
            )
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
        mode = self.mode_name
        if mode is not None:
            printer.print_string(f"{mode}(")
        printer.print_list(self.inputs, printer.print_ssa_value, delimiter=" and ")
        if mode is not None:
            printer.print_string(")")
        printer.print_string(f" along dimension = {self.dim}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list(
            [v.type for v in self.inputs], printer.print_attribute, delimiter=" and "
        )
        printer.print_string(" into ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> ConcatOp:
        mode = _parse_mode(parser)
        if mode is not None:
            parser.parse_punctuation("(")
        operands = [parser.parse_unresolved_operand()]
        while parser.parse_optional_keyword("and"):
            operands.append(parser.parse_unresolved_operand())
        if mode is not None:
            parser.parse_punctuation(")")
        parser.parse_keyword("along")
        parser.parse_keyword("dimension")
        parser.parse_punctuation("=")
        dim = parser.parse_integer()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = [parser.parse_type()]
        while parser.parse_optional_keyword("and"):
            types.append(parser.parse_type())
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


Subset = Dialect("subset", [GatherOp, ScatterOp, ConcatOp], [])
