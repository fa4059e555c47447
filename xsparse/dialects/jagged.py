"""The `jagged` dialect: N-D buffers of buffers, each with its own size and base.

Mirrors the RFC "Structured Codegen Beyond Rectangular Arrays" (seed 003),
section "First-Class Jagged Buffer": `!jagged.buffer<4x?xmemref<?xf32>>` is the
RFC's `memref<4x? x memref<?xf32>>`, an N-D array (the *outer* shape) of
*inner* buffers of the inner memref's element type and rank. Each inner buffer
has its own base pointer, offset, sizes and strides, so a jagged buffer is
strictly more expressive than a strided memref: it is what an in-place
(`view`) gather bufferizes into, and it views CSR-style positions + values
(`jagged.from_positions`) or ELL/ITPACK blocks (`jagged.from_ell`) without
moving a value.

The inner memref type fixes the element type, the rank and the static sizes
every inner buffer has. Its layout is a promise: with the identity layout,
each inner buffer may have any strided layout, and `jagged.get` returns it as
`memref<..., strided<[?, ...], offset: ?>>`; with an explicit strided layout,
every inner buffer has that layout and `jagged.get` returns exactly the inner
type.

At run time (see `xsparse.transforms.structured.lower_jagged`) a jagged buffer is a memref
descriptor over an array of inner memref descriptors; `jagged.set` and views
copy descriptors (pointers), never values. `lower-jagged` folds a jagged
buffer whose inner buffers are equally spaced blocks of static size (ELL) back
into the plain strided memref it came from.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    ArrayAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
    i64,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    ParamAttrConstraint,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    param_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import ParseError, VerifyException

from xsparse.dialects.sparse_tensor.storage import overhead_type
from xsparse.dialects.sparse_tensor.types import SparseTensorType
from xsparse.dialects.type_guards import is_memref_type, is_tensor_type

DYNAMIC = DYNAMIC_INDEX


def _dims(shape: Sequence[int]) -> str:
    return "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in shape)


@irdl_attr_definition
class JaggedBufferType(ParametrizedAttribute, TypeAttribute):
    """`!jagged.buffer<?xmemref<4xf32>>` (RFC: First-Class Jagged Buffer)."""

    name = "jagged.buffer"

    shape: ArrayAttr[IntAttr] = param_def()
    inner: MemRefType[Attribute] = param_def()

    def __init__(self, shape: Sequence[int], inner: MemRefType[Attribute]):
        super().__init__(ArrayAttr(IntAttr(d) for d in shape), inner)

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    def get_num_dims(self) -> int:
        return len(self.shape.data)

    @property
    def element_type(self) -> Attribute:
        return self.inner.element_type

    def inner_view_type(self) -> MemRefType[Attribute]:
        """The type `jagged.get` returns: the inner type, with a fully dynamic
        strided layout when the inner type promises none."""
        if not isinstance(self.inner.layout, NoneAttr):
            return self.inner
        rank = self.inner.get_num_dims()
        return MemRefType(
            self.inner.element_type,
            self.inner.get_shape(),
            StridedLayoutAttr([None] * rank, None),
        )

    def verify(self) -> None:
        if not self.shape.data:
            raise VerifyException("a jagged buffer has at least one outer dimension")
        if any(d.data < 0 and d.data != DYNAMIC for d in self.shape.data):
            raise VerifyException("outer sizes must be non-negative or ?")
        if not isinstance(self.inner.layout, NoneAttr | StridedLayoutAttr):
            raise VerifyException("inner buffers must have a strided layout")
        if is_memref_type(self.inner.element_type):
            raise VerifyException(
                "nest jagged buffers by their outer shape, not by memref"
            )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            shape, inner = parser.parse_ranked_shape()
        if not shape:
            parser.raise_error("expected an outer shape before the inner memref type")
        if not is_memref_type(inner):
            parser.raise_error(f"expected an inner memref type, got {inner}")
        return (ArrayAttr(IntAttr(d) for d in shape), inner)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(_dims(self.get_shape()))
            printer.print_attribute(self.inner)


def from_rfc_spelling(t: Attribute) -> Attribute:
    """The RFC's `memref<? x memref<4xf32>>` read as `!jagged.buffer<?xmemref<4xf32>>`."""
    if (
        is_memref_type(t)
        and is_memref_type(t.element_type)
        and isinstance(t.layout, NoneAttr)
        and t.get_num_dims() > 0
    ):
        return JaggedBufferType(t.get_shape(), t.element_type)
    return t


_RFC_SPELLING = re.compile(r"memref\s*<[\s\d?x]*memref\s*<")


def parse_type_or_rfc_spelling(parser: AttrParser) -> Attribute:
    """A type, where the RFC's `memref<? x memref<4xf32>>` (spaces allowed) reads
    as `!jagged.buffer<?xmemref<4xf32>>`."""
    if not _RFC_SPELLING.match(parser.lexer.input.content, parser.pos):
        return from_rfc_spelling(parser.parse_type())
    parser.parse_keyword("memref")
    with parser.in_angle_brackets():
        shape = parser.parse_dimension_list()
        with contextlib.suppress(ParseError):  # `? x memref`: the `x` is taken
            parser.parse_shape_delimiter()
        inner = parser.parse_type()
    assert is_memref_type(inner)
    if not shape:
        parser.raise_error("expected an outer shape before the inner memref type")
    return JaggedBufferType(shape, inner)


def _buffer_type(value: SSAValue) -> JaggedBufferType:
    t = value.type
    assert isinstance(t, JaggedBufferType)
    return t


def _check_outer_indices(buffer: SSAValue, indices: Sequence[SSAValue]) -> None:
    rank = _buffer_type(buffer).get_num_dims()
    if len(indices) != rank:
        raise VerifyException(f"expected {rank} outer indices, got {len(indices)}")


def memref_strides(t: MemRefType[Attribute]) -> list[int] | None:
    """Static-or-dynamic (DYNAMIC) strides of an identity or strided layout."""
    layout = t.layout
    if isinstance(layout, NoneAttr):
        shape = t.get_shape()
        strides = [0] * len(shape)
        running = 1
        for i in reversed(range(len(shape))):
            strides[i] = running
            if running != DYNAMIC:
                running = DYNAMIC if shape[i] == DYNAMIC else running * shape[i]
        return strides
    if isinstance(layout, StridedLayoutAttr):
        return [s.data if isinstance(s, IntAttr) else DYNAMIC for s in layout.strides]
    return None


def shapes_compatible(a: Sequence[int], b: Sequence[int]) -> bool:
    return len(a) == len(b) and all(
        x == y or DYNAMIC in (x, y) for x, y in zip(a, b, strict=True)
    )


@irdl_op_definition
class AllocOp(IRDLOperation):
    """`jagged.alloc` (RFC: First-Class Jagged Buffer): the outer array of a jagged buffer.

    `%j = jagged.alloc(%n) : !jagged.buffer<?xmemref<?xf32>>` allocates the
    outer array; its inner buffers are set with `jagged.set` (pointer copies).
    """

    name = "jagged.alloc"

    dynamic_sizes = var_operand_def(IndexType)
    result = result_def(JaggedBufferType)

    assembly_format = "`(` $dynamic_sizes `)` attr-dict `:` type($result)"

    def __init__(
        self, dynamic_sizes: Sequence[SSAValue | Operation], t: JaggedBufferType
    ):
        super().__init__(operands=[dynamic_sizes], result_types=[t])

    def verify_(self) -> None:
        t = _buffer_type(self.result)
        dynamic = sum(1 for d in t.get_shape() if d == DYNAMIC)
        if len(self.dynamic_sizes) != dynamic:
            raise VerifyException(
                f"expected {dynamic} dynamic outer sizes, got {len(self.dynamic_sizes)}"
            )


@irdl_op_definition
class DeallocOp(IRDLOperation):
    """`jagged.dealloc` (RFC: First-Class Jagged Buffer): frees the outer array only."""

    name = "jagged.dealloc"

    buffer = operand_def(JaggedBufferType)

    assembly_format = "$buffer attr-dict `:` type($buffer)"

    def __init__(self, buffer: SSAValue | Operation):
        super().__init__(operands=[buffer])


@irdl_op_definition
class FromPositionsOp(IRDLOperation):
    """`jagged.from_positions` (RFC: sparse storage as one entity): a CSR view.

    `%j = jagged.from_positions %pos, %values : memref<?xindex>, memref<?xf64>
    -> !jagged.buffer<?xmemref<?xf64>>`: inner buffer i is
    values[pos[i] : pos[i+1]]; no value moves.
    """

    name = "jagged.from_positions"

    positions = operand_def(MemRefType)
    values = operand_def(MemRefType)
    result = result_def(JaggedBufferType)

    traits = traits_def(Pure())
    assembly_format = (
        "$positions `,` $values attr-dict `:` type($positions) `,` type($values)"
        " `->` type($result)"
    )

    def __init__(
        self,
        positions: SSAValue | Operation,
        values: SSAValue | Operation,
        t: JaggedBufferType,
    ):
        super().__init__(operands=[positions, values], result_types=[t])

    def verify_(self) -> None:
        pos = self.positions.type
        val = self.values.type
        t = _buffer_type(self.result)
        assert is_memref_type(pos) and is_memref_type(val)
        if pos.get_num_dims() != 1 or not isinstance(
            pos.element_type, IndexType | IntegerType
        ):
            raise VerifyException("positions must be a 1-D memref of index or integers")
        if val.get_num_dims() != 1:
            raise VerifyException("values must be a 1-D memref")
        if t.get_num_dims() != 1 or t.inner.get_num_dims() != 1:
            raise VerifyException("a CSR view is a 1-D jagged buffer of 1-D buffers")
        if t.element_type != val.element_type:
            raise VerifyException(
                f"inner element type {t.element_type} must be the values' {val.element_type}"
            )
        (n,) = pos.get_shape()
        (rows,) = t.get_shape()
        if n != DYNAMIC and rows != DYNAMIC and rows != n - 1:
            raise VerifyException(
                f"{n} positions delimit {n - 1} inner buffers, not {rows}"
            )
        val_strides = memref_strides(val)
        if not isinstance(t.inner.layout, NoneAttr) and (
            val_strides is None
            or not shapes_compatible(memref_strides(t.inner) or [], val_strides)
        ):
            raise VerifyException("inner buffer layout must be the values' stride")


@irdl_op_definition
class ToSparseOp(IRDLOperation):
    """`jagged.to_sparse` (RFC: sparse storage as one entity): jagged rows of
    (coordinate, value) pairs as a `(dense, compressed)` sparse tensor.

    `%t = jagged.to_sparse (%m, %n) %pos, %crd, %values : memref<?xindex>,
    memref<?xindex>, memref<?xf64> to tensor<?x?xf64, #CSR>`: row i of the
    level order holds coordinates `crd[pos[i] : pos[i+1]]` with their values,
    as `jagged.from_positions` views them; `(%m, %n)` are the tensor's
    dimension sizes. The tensor takes the buffers over as they are (each
    exactly as long as what it holds, positions nondecreasing, each row's
    coordinates distinct, in range, and increasing unless the level is
    `nonordered`: not checked). The sparsifier builds
    it for the rows it fills in parallel; unlike `sparse_tensor.assemble`, the
    shape may be dynamic.
    """

    name = "jagged.to_sparse"

    sizes = var_operand_def(IndexType)
    positions = operand_def(MemRefType)
    coordinates = operand_def(MemRefType)
    values = operand_def(MemRefType)
    result = result_def(TensorType)

    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "`(` $sizes `)` $positions `,` $coordinates `,` $values attr-dict `:` "
        "type($positions) `,` type($coordinates) `,` type($values) `to` type($result)"
    )

    def __init__(
        self,
        sizes: Sequence[SSAValue | Operation],
        positions: SSAValue | Operation,
        coordinates: SSAValue | Operation,
        values: SSAValue | Operation,
        t: TensorType[Attribute],
    ):
        super().__init__(
            operands=[sizes, positions, coordinates, values], result_types=[t]
        )

    def verify_(self) -> None:
        t = self.result.type
        assert is_tensor_type(t)
        stt = SparseTensorType(t)
        if [str(lt) for lt in stt.lvl_types] not in (
            ["dense", "compressed"],
            ["dense", "compressed(nonordered)"],
        ):
            raise VerifyException("the result's levels must be (dense, compressed)")
        if not stt.is_permutation:
            raise VerifyException("the result's dimension-to-level map must permute")
        if len(self.sizes) != stt.dim_rank:
            raise VerifyException(
                f"{len(self.sizes)} sizes for a tensor of rank {stt.dim_rank}"
            )
        for what, buffer, element in (
            ("positions", self.positions, overhead_type(stt.pos_width)),
            ("coordinates", self.coordinates, overhead_type(stt.crd_width)),
            ("values", self.values, stt.element_type),
        ):
            bt = buffer.type
            if not (
                is_memref_type(bt)
                and bt.get_num_dims() == 1
                and bt.element_type == element
            ):
                raise VerifyException(f"{what} must be a 1-D memref of {element}")


@irdl_op_definition
class FromEllOp(IRDLOperation):
    """`jagged.from_ell` (RFC: ELL / ITPACK as a jagged buffer): blocks of static size.

    `%j = jagged.from_ell %values : memref<?x4xf32> -> !jagged.buffer<?xmemref<4xf32>>`
    sees the leading dimensions of `%values` as the outer shape and the others as
    every inner buffer; an ITPACK (column-major) block is a strided `%values`.
    """

    name = "jagged.from_ell"

    values = operand_def(MemRefType)
    result = result_def(JaggedBufferType)

    traits = traits_def(Pure())
    assembly_format = "$values attr-dict `:` type($values) `->` type($result)"

    def __init__(self, values: SSAValue | Operation, t: JaggedBufferType):
        super().__init__(operands=[values], result_types=[t])

    def verify_(self) -> None:
        val = self.values.type
        t = _buffer_type(self.result)
        assert is_memref_type(val)
        inner = t.inner.get_shape()
        if any(d == DYNAMIC for d in inner):
            raise VerifyException("ELL inner buffers have a static size")
        if t.element_type != val.element_type:
            raise VerifyException(
                f"inner element type {t.element_type} must be the values' {val.element_type}"
            )
        if not shapes_compatible(val.get_shape(), list(t.get_shape()) + list(inner)):
            raise VerifyException(
                f"values of shape {_dims(val.get_shape())[:-1]} do not split into "
                f"{_dims(t.get_shape())[:-1]} blocks of {_dims(inner)[:-1]}"
            )
        strides = memref_strides(val)
        if strides is None:
            raise VerifyException("values must be strided")
        if not isinstance(t.inner.layout, NoneAttr) and not shapes_compatible(
            memref_strides(t.inner) or [], strides[t.get_num_dims() :]
        ):
            raise VerifyException(
                "inner buffer layout must be the values' inner strides"
            )


@irdl_op_definition
class GetOp(IRDLOperation):
    """`jagged.get` (RFC: First-Class Jagged Buffer): the i-th inner buffer as a memref."""

    name = "jagged.get"

    buffer = operand_def(JaggedBufferType)
    indices = var_operand_def(IndexType)
    result = result_def(MemRefType)

    traits = traits_def(Pure())
    assembly_format = (
        "$buffer `[` $indices `]` attr-dict `:` type($buffer) `->` type($result)"
    )

    def __init__(self, buffer: SSAValue | Operation, indices: Sequence[SSAValue]):
        t = SSAValue.get(buffer).type
        assert isinstance(t, JaggedBufferType)
        super().__init__(operands=[buffer, indices], result_types=[t.inner_view_type()])

    def verify_(self) -> None:
        _check_outer_indices(self.buffer, self.indices)
        expected = _buffer_type(self.buffer).inner_view_type()
        if self.result.type != expected:
            raise VerifyException(
                f"result type must be {expected}, got {self.result.type}"
            )


@irdl_op_definition
class SetOp(IRDLOperation):
    """`jagged.set` (RFC: pointer copies are in place): makes a memref the i-th inner buffer."""

    name = "jagged.set"

    value = operand_def(MemRefType)
    buffer = operand_def(JaggedBufferType)
    indices = var_operand_def(IndexType)

    assembly_format = "$value `,` $buffer `[` $indices `]` attr-dict `:` type($value) `into` type($buffer)"

    def __init__(
        self,
        value: SSAValue | Operation,
        buffer: SSAValue | Operation,
        indices: Sequence[SSAValue],
    ):
        super().__init__(operands=[value, buffer, indices])

    def verify_(self) -> None:
        _check_outer_indices(self.buffer, self.indices)
        t = _buffer_type(self.buffer)
        v = self.value.type
        assert is_memref_type(v)
        if v.element_type != t.element_type:
            raise VerifyException(
                f"element type {v.element_type} must be the inner buffers' {t.element_type}"
            )
        if not shapes_compatible(v.get_shape(), t.inner.get_shape()):
            raise VerifyException(
                f"shape {_dims(v.get_shape())[:-1] or 'scalar'} does not fit inner "
                f"buffers of shape {_dims(t.inner.get_shape())[:-1] or 'scalar'}"
            )
        strides = memref_strides(v)
        if strides is None:
            raise VerifyException("an inner buffer must have a strided layout")
        if not isinstance(t.inner.layout, NoneAttr) and not shapes_compatible(
            strides, memref_strides(t.inner) or []
        ):
            raise VerifyException(
                f"{v} breaks the inner buffers' promised layout {t.inner.layout}"
            )


@irdl_op_definition
class DimOp(IRDLOperation):
    """`jagged.dim` (RFC: First-Class Jagged Buffer): an outer size."""

    name = "jagged.dim"

    buffer = operand_def(JaggedBufferType)
    dimension = prop_def(IntegerAttr[I64])
    result = result_def(IndexType())

    traits = traits_def(Pure())

    assembly_format = "$buffer `,` $dimension attr-dict `:` type($buffer)"

    def __init__(self, buffer: SSAValue | Operation, dimension: int):
        super().__init__(
            operands=[buffer],
            properties={"dimension": IntegerAttr(dimension, i64)},
            result_types=[IndexType()],
        )

    def verify_(self) -> None:
        rank = _buffer_type(self.buffer).get_num_dims()
        if not 0 <= self.dimension.value.data < rank:
            raise VerifyException(
                f"dimension {self.dimension.value.data} is out of range for outer rank {rank}"
            )


@irdl_op_definition
class SizeOp(IRDLOperation):
    """`jagged.size` (RFC: each inner buffer has its own size): an inner buffer's size."""

    name = "jagged.size"

    buffer = operand_def(JaggedBufferType)
    indices = var_operand_def(IndexType())
    dimension = prop_def(IntegerAttr[I64])
    result = result_def(IndexType())

    traits = traits_def(Pure())

    assembly_format = (
        "$buffer `[` $indices `]` `,` $dimension attr-dict `:` type($buffer)"
    )

    def __init__(
        self, buffer: SSAValue | Operation, indices: Sequence[SSAValue], dimension: int
    ):
        super().__init__(
            operands=[buffer, indices],
            properties={"dimension": IntegerAttr(dimension, i64)},
            result_types=[IndexType()],
        )

    def verify_(self) -> None:
        _check_outer_indices(self.buffer, self.indices)
        rank = _buffer_type(self.buffer).inner.get_num_dims()
        if not 0 <= self.dimension.value.data < rank:
            raise VerifyException(
                f"dimension {self.dimension.value.data} is out of range for inner rank {rank}"
            )


_ELEMENT = VarConstraint("T", AnyAttr())


class _AccessOp(IRDLOperation):
    """Shared operands of load and store: `%j[outer indices][inner indices]`."""

    buffer = operand_def(
        ParamAttrConstraint.get(JaggedBufferType, None, MemRefType.constr(_ELEMENT))
    )
    outer = var_operand_def(IndexType())
    inner = var_operand_def(IndexType())

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def _verify_access(self) -> None:
        _check_outer_indices(self.buffer, self.outer)
        rank = _buffer_type(self.buffer).inner.get_num_dims()
        if len(self.inner) != rank:
            raise VerifyException(
                f"expected {rank} inner indices, got {len(self.inner)}"
            )


@irdl_op_definition
class LoadOp(_AccessOp):
    """`jagged.load` (RFC: First-Class Jagged Buffer): `%v = jagged.load %j[%i][%k] : type`."""

    name = "jagged.load"

    result = result_def(_ELEMENT)

    assembly_format = (
        "$buffer `[` $outer `]` `` `[` $inner `]` attr-dict `:` type($buffer)"
    )

    def __init__(
        self,
        buffer: SSAValue | Operation,
        outer: Sequence[SSAValue],
        inner: Sequence[SSAValue],
    ):
        t = SSAValue.get(buffer).type
        assert isinstance(t, JaggedBufferType)
        super().__init__(operands=[buffer, outer, inner], result_types=[t.element_type])

    def verify_(self) -> None:
        self._verify_access()


@irdl_op_definition
class StoreOp(_AccessOp):
    """`jagged.store` (RFC: First-Class Jagged Buffer): `jagged.store %v, %j[%i][%k] : type`."""

    name = "jagged.store"

    value = operand_def(_ELEMENT)

    assembly_format = "$value `,` $buffer `[` $outer `]` `` `[` $inner `]` attr-dict `:` type($buffer)"

    def __init__(
        self,
        value: SSAValue | Operation,
        buffer: SSAValue | Operation,
        outer: Sequence[SSAValue],
        inner: Sequence[SSAValue],
    ):
        super().__init__(operands=[value, buffer, outer, inner])

    def verify_(self) -> None:
        self._verify_access()


Jagged = Dialect(
    "jagged",
    [
        AllocOp,
        DeallocOp,
        FromPositionsOp,
        FromEllOp,
        ToSparseOp,
        GetOp,
        SetOp,
        DimOp,
        SizeOp,
        LoadOp,
        StoreOp,
    ],
    [JaggedBufferType],
)
