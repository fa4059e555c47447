"""sparse_tensor ops that expose a tensor's storage: level buffers, level and
slice sizes, storage specifiers and coordinate translation (SparseTensorOps.td,
"Sparse Tensor Operations", "Storage Specifier" and "Coordinate" sections)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StridedLayoutAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
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
from xdsl.traits import ConditionallySpeculatable, NoMemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException

from xsparse.dialects.sparse_tensor.encoding import SparseTensorEncodingAttr
from xsparse.dialects.sparse_tensor.levels import SingletonFormat
from xsparse.dialects.sparse_tensor.ops_common import (
    constant_int,
    non0_ranked_memref,
    sparse_operand,
    sparse_type,
)
from xsparse.dialects.sparse_tensor.types import (
    CrdTransDirection,
    CrdTransDirectionAttr,
    SparseTensorType,
    StorageSpecifierKind,
    StorageSpecifierKindAttr,
    StorageSpecifierType,
    parse_encoding_with_fallback,
)

LevelAttr = IntegerAttr[IndexType]


def level_attr(level: int) -> LevelAttr:
    return IntegerAttr(level, IndexType())


def in_bounds(index: int, rank: int) -> bool:
    """Whether a level or dimension `index` is below `rank`. MLIR reads both as
    unsigned (`Level`, `Dimension` are `uint64_t`): a negative one, which
    `IntegerAttr<IndexType>` and `arith.constant` hold, is out of bounds, not a
    Python index from the end."""
    return 0 <= index < rank


# ----------------------------------------------------------------------------
# Level buffers
# ----------------------------------------------------------------------------


class ToBufferOp(IRDLOperation):
    """Shared by the ops returning one of a sparse tensor's buffers: the result
    type is inferred from the encoding (MLIR's `inferSparseBufferType`)."""

    tensor = operand_def(TensorType)
    result = result_def(MemRefType)

    traits = traits_def(Pure())
    assembly_format = "$tensor attr-dict `:` type($tensor) `to` type($result)"
    irdl_options = (ParsePropInAttrDict(),)

    @classmethod
    def element_type(cls, stt: SparseTensorType) -> Attribute:
        raise NotImplementedError

    @classmethod
    def buffer_type(
        cls, stt: SparseTensorType, strided: bool = False
    ) -> MemRefType[Attribute]:
        """`memref<[batch sizes x] ? x T>`, with a dynamic stride for AoS COO."""
        shape = (*stt.batch_lvl_shape, DYNAMIC_INDEX)
        if strided:
            return MemRefType(
                cls.element_type(stt), shape, StridedLayoutAttr([None], None)
            )
        return MemRefType(cls.element_type(stt), shape)

    def inferred_type(self, stt: SparseTensorType) -> MemRefType[Attribute]:
        return self.buffer_type(stt)

    def verify_buffer(
        self, stt: SparseTensorType, result: MemRefType[Attribute]
    ) -> None:
        """The op's own checks, before the result type is compared to the inferred one."""

    def verify_(self) -> None:
        stt = sparse_operand(self, 0)
        result = non0_ranked_memref(self, "result", 0, self.result.type)
        self.verify_buffer(stt, result)
        inferred = self.inferred_type(stt)
        if inferred != result:
            raise VerifyException(
                f"inferred type(s) '{inferred}' are incompatible with return "
                f"type(s) of operation '{result}'",
            )


class ToLevelBufferOp(ToBufferOp):
    """Shared by `positions` and `coordinates`: a buffer of one level."""

    level = prop_def(LevelAttr)

    def __init__(self, tensor: SSAValue | Operation, level: int):
        tensor = SSAValue.get(tensor)
        stt = sparse_type(tensor)
        super().__init__(
            operands=[tensor],
            properties={"level": level_attr(level)},
            result_types=[self.buffer_type(stt, self.strided_at(stt, level))],
        )

    @classmethod
    def strided_at(cls, stt: SparseTensorType, level: int) -> bool:
        return False

    def inferred_type(self, stt: SparseTensorType) -> MemRefType[Attribute]:
        return self.buffer_type(stt, self.strided_at(stt, self.level.value.data))

    def verify_buffer(
        self, stt: SparseTensorType, result: MemRefType[Attribute]
    ) -> None:
        if not in_bounds(self.level.value.data, stt.lvl_rank):
            raise VerifyException("requested level is out of bounds")
        elem, expected = result.element_type, self.element_type(stt)
        if isinstance(expected, IntegerType):
            matches = isinstance(elem, IntegerType) and elem.width == expected.width
        else:
            matches = isinstance(elem, IndexType)
        if not matches:
            raise VerifyException(
                f"unexpected type for {self.name.removeprefix('sparse_tensor.')}"
            )


@irdl_op_definition
class ToPositionsOp(ToLevelBufferOp):
    """`sparse_tensor.positions` (SparseTensor_ToPositionsOp)."""

    name = "sparse_tensor.positions"

    @classmethod
    def element_type(cls, stt: SparseTensorType) -> Attribute:
        return stt.pos_type


@irdl_op_definition
class ToCoordinatesOp(ToLevelBufferOp):
    """`sparse_tensor.coordinates` (SparseTensor_ToCoordinatesOp)."""

    name = "sparse_tensor.coordinates"

    @classmethod
    def element_type(cls, stt: SparseTensorType) -> Attribute:
        return stt.crd_type

    @classmethod
    def strided_at(cls, stt: SparseTensorType, level: int) -> bool:
        return stt.aos_coo_start <= level


class ToWholeBufferOp(ToBufferOp):
    """Shared by `coordinates_buffer` and `values`: a buffer of the whole tensor."""

    def __init__(self, tensor: SSAValue | Operation):
        tensor = SSAValue.get(tensor)
        super().__init__(
            operands=[tensor], result_types=[self.buffer_type(sparse_type(tensor))]
        )


@irdl_op_definition
class ToCoordinatesBufferOp(ToWholeBufferOp):
    """`sparse_tensor.coordinates_buffer` (SparseTensor_ToCoordinatesBufferOp)."""

    name = "sparse_tensor.coordinates_buffer"

    @classmethod
    def element_type(cls, stt: SparseTensorType) -> Attribute:
        return stt.crd_type

    def verify_buffer(
        self, stt: SparseTensorType, result: MemRefType[Attribute]
    ) -> None:
        if stt.aos_coo_start >= stt.lvl_rank:
            raise VerifyException("expected sparse tensor with a COO region")


@irdl_op_definition
class ToValuesOp(ToWholeBufferOp):
    """`sparse_tensor.values` (SparseTensor_ToValuesOp)."""

    name = "sparse_tensor.values"

    @classmethod
    def element_type(cls, stt: SparseTensorType) -> Attribute:
        return stt.element_type

    def verify_buffer(
        self, stt: SparseTensorType, result: MemRefType[Attribute]
    ) -> None:
        if result.element_type != stt.element_type:
            raise VerifyException("unexpected mismatch in element types")


# ----------------------------------------------------------------------------
# Sizes
# ----------------------------------------------------------------------------


@irdl_op_definition
class LvlOp(IRDLOperation):
    """`sparse_tensor.lvl` (SparseTensor_LvlOp): the size of a level."""

    name = "sparse_tensor.lvl"

    source = operand_def(TensorType)
    index = operand_def(IndexType)
    result = result_def(IndexType)

    traits = traits_def(NoMemoryEffect(), ConditionallySpeculatable())
    assembly_format = "attr-dict $source `,` $index `:` type($source)"

    def __init__(self, source: SSAValue | Operation, index: SSAValue | Operation):
        super().__init__(operands=[source, index], result_types=[IndexType()])

    def verify_(self) -> None:
        stt = sparse_operand(self, 0)
        lvl = constant_int(self.index)
        if lvl is not None and not in_bounds(lvl, stt.lvl_rank):
            raise VerifyException(
                "Level index exceeds the rank of the input sparse tensor"
            )


@irdl_op_definition
class NumberOfEntriesOp(IRDLOperation):
    """`sparse_tensor.number_of_entries` (SparseTensor_NumberOfEntriesOp)."""

    name = "sparse_tensor.number_of_entries"

    tensor = operand_def(TensorType)
    result = result_def(IndexType)

    traits = traits_def(Pure())
    assembly_format = "$tensor attr-dict `:` type($tensor)"

    def __init__(self, tensor: SSAValue | Operation):
        super().__init__(operands=[tensor], result_types=[IndexType()])

    def verify_(self) -> None:
        sparse_operand(self, 0)


class SliceMetadataOp(IRDLOperation):
    """Shared by `slice.offset` and `slice.stride` of a sliced dimension."""

    slice = operand_def(TensorType)
    dim = prop_def(LevelAttr)
    result = result_def(IndexType)

    traits = traits_def(Pure())
    assembly_format = "$slice `at` $dim attr-dict `:` type($slice)"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, slice: SSAValue | Operation, dim: int):
        super().__init__(
            operands=[slice],
            properties={"dim": level_attr(dim)},
            result_types=[IndexType()],
        )

    def verify_(self) -> None:
        stt = SparseTensorType.of(self.slice.type)
        if stt is None or not stt.is_slice:
            raise VerifyException(
                "operand #0 must be sparse tensor slice of any type values, "
                f"but got '{self.slice.type}'",
            )
        if not in_bounds(self.dim.value.data, stt.dim_rank):
            raise VerifyException("requested dimension out of bound")


@irdl_op_definition
class ToSliceOffsetOp(SliceMetadataOp):
    """`sparse_tensor.slice.offset` (SparseTensor_ToSliceOffsetOp)."""

    name = "sparse_tensor.slice.offset"


@irdl_op_definition
class ToSliceStrideOp(SliceMetadataOp):
    """`sparse_tensor.slice.stride` (SparseTensor_ToSliceStrideOp)."""

    name = "sparse_tensor.slice.stride"


# ----------------------------------------------------------------------------
# Storage specifiers
# ----------------------------------------------------------------------------


@irdl_op_definition
class StorageSpecifierInitOp(IRDLOperation):
    """`sparse_tensor.storage_specifier.init` (SparseTensor_StorageSpecifierInitOp)."""

    name = "sparse_tensor.storage_specifier.init"

    source = opt_operand_def(StorageSpecifierType)
    result = result_def(StorageSpecifierType)

    traits = traits_def(Pure())
    assembly_format = (
        "attr-dict (`with` $source^)? `:` (`from` type($source)^ `to`)? type($result)"
    )

    def __init__(self, result: StorageSpecifierType, source: SSAValue | None = None):
        super().__init__(operands=[source], result_types=[result])


class SpecifierFieldOp(IRDLOperation):
    """Shared by `storage_specifier.get` and `.set`: a field of a specifier."""

    specifier_kind = prop_def(StorageSpecifierKindAttr, prop_name="specifierKind")
    level = opt_prop_def(LevelAttr)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)

    def specifier_type(self) -> StorageSpecifierType:
        type = self.operands[0].type
        assert isinstance(type, StorageSpecifierType)
        return type

    def verify_(self) -> None:
        kind = self.specifier_kind.data
        lvl = None if self.level is None else self.level.value.data
        if kind == StorageSpecifierKind.VAL_MEM_SZ and lvl is not None:
            raise VerifyException(
                "redundant level argument for querying value memory size"
            )
        enc = self.specifier_type().encoding.data
        slice_kinds = (StorageSpecifierKind.DIM_OFFSET, StorageSpecifierKind.DIM_STRIDE)
        if kind in slice_kinds and not enc.dim_slices:
            raise VerifyException("requested slice data on non-slice tensor")
        if kind != StorageSpecifierKind.VAL_MEM_SZ:
            if lvl is None:
                raise VerifyException("missing level argument")
            if not in_bounds(lvl, enc.lvl_rank):
                raise VerifyException("requested level is out of bounds")
            if kind == StorageSpecifierKind.POS_MEM_SZ and isinstance(
                enc.lvl_types[lvl].format, SingletonFormat
            ):
                raise VerifyException(
                    "requested position memory size on a singleton level"
                )


def _field_props(kind: StorageSpecifierKind, level: int | None) -> dict[str, Attribute]:
    props: dict[str, Attribute] = {"specifierKind": StorageSpecifierKindAttr(kind)}
    if level is not None:
        props["level"] = level_attr(level)
    return props


@irdl_op_definition
class GetStorageSpecifierOp(SpecifierFieldOp):
    """`sparse_tensor.storage_specifier.get` (SparseTensor_GetStorageSpecifierOp)."""

    name = "sparse_tensor.storage_specifier.get"

    specifier = operand_def(StorageSpecifierType)
    result = result_def(IndexType)

    assembly_format = (
        "$specifier ` ` $specifierKind (`at` $level^)? attr-dict `:` type($specifier)"
    )

    def __init__(
        self,
        specifier: SSAValue | Operation,
        kind: StorageSpecifierKind,
        level: int | None = None,
    ):
        super().__init__(
            operands=[specifier],
            properties=_field_props(kind, level),
            result_types=[IndexType()],
        )


@irdl_op_definition
class SetStorageSpecifierOp(SpecifierFieldOp):
    """`sparse_tensor.storage_specifier.set` (SparseTensor_SetStorageSpecifierOp)."""

    name = "sparse_tensor.storage_specifier.set"

    T: ClassVar = VarConstraint("T", base(StorageSpecifierType))
    specifier = operand_def(T)
    value = operand_def(IndexType)
    result = result_def(T)

    assembly_format = (
        "$specifier ` ` $specifierKind (`at` $level^)? `with` $value attr-dict `:` "
        "type($result)"
    )

    def __init__(
        self,
        specifier: SSAValue | Operation,
        kind: StorageSpecifierKind,
        level: int | None,
        value: SSAValue | Operation,
    ):
        specifier = SSAValue.get(specifier)
        super().__init__(
            operands=[specifier, value],
            properties=_field_props(kind, level),
            result_types=[specifier.type],
        )


# ----------------------------------------------------------------------------
# Coordinates
# ----------------------------------------------------------------------------


@irdl_custom_directive
class EncodingWithFallback(CustomDirective):
    """An encoding, printed as its body `<{...}>` alone; parsed as that body, a
    full attribute or an alias (MLIR's `parseCustomAttributeWithFallback`)."""

    encoding: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.encoding.set(state, parse_encoding_with_fallback(parser))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        encoding = self.encoding.get(op)
        assert isinstance(encoding, SparseTensorEncodingAttr)
        state.print_whitespace(printer)
        encoding.print_parameter(printer)


@irdl_op_definition
class CrdTranslateOp(IRDLOperation):
    """`sparse_tensor.crd_translate` (SparseTensor_CrdTranslateOp)."""

    name = "sparse_tensor.crd_translate"

    in_crds = var_operand_def(IndexType)
    direction = prop_def(CrdTransDirectionAttr)
    encoder = prop_def(SparseTensorEncodingAttr)
    out_crds = var_result_def(IndexType)

    traits = traits_def(Pure())

    custom_directives = (EncodingWithFallback,)
    assembly_format = (
        "` ` $direction `[` $in_crds `]` `as` custom<EncodingWithFallback>($encoder)"
        " attr-dict `:` type($out_crds)"
    )

    def __init__(
        self,
        in_crds: list[SSAValue] | list[Operation],
        direction: CrdTransDirection,
        encoder: SparseTensorEncodingAttr,
    ):
        enc = encoder.data
        n = enc.lvl_rank if direction == CrdTransDirection.DIM_TO_LVL else enc.dim_rank
        super().__init__(
            operands=[in_crds],
            properties={
                "direction": CrdTransDirectionAttr(direction),
                "encoder": encoder,
            },
            result_types=[[IndexType()] * n],
        )

    def verify_(self) -> None:
        enc = self.encoder.data
        in_rank, out_rank = enc.lvl_rank, enc.dim_rank
        if self.direction.data == CrdTransDirection.DIM_TO_LVL:
            in_rank, out_rank = out_rank, in_rank
        if in_rank != len(self.in_crds) or out_rank != len(self.out_crds):
            raise VerifyException("Coordinate rank mismatch with encoding")


STORAGE_OPS: tuple[type[IRDLOperation], ...] = (
    ToPositionsOp,
    ToCoordinatesOp,
    ToCoordinatesBufferOp,
    ToValuesOp,
    LvlOp,
    NumberOfEntriesOp,
    ToSliceOffsetOp,
    ToSliceStrideOp,
    StorageSpecifierInitOp,
    GetStorageSpecifierOp,
    SetStorageSpecifierOp,
    CrdTranslateOp,
)
