"""Types and attributes of MLIR 22's sparse_tensor dialect besides the encoding.

Mirrors SparseTensorTypes.td and SparseTensorAttrDefs.td: the storage
specifier, iteration space and iterator types, the enum attributes of the
operations, and `SparseTensorType`, a view of a ranked tensor type with its
(optional) encoding, as MLIR's `SparseTensorType` helper class.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import auto

from typing_extensions import Self
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntAttr,
    IntegerType,
    TensorType,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    TypeAttribute,
)
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa
from xdsl.utils.str_enum import StrEnum

from xsparse.dialects.sparse_tensor.encoding import Encoding, SparseTensorEncodingAttr
from xsparse.dialects.sparse_tensor.levels import (
    DENSE,
    BatchFormat,
    CompressedFormat,
    LevelType,
    LooseCompressedFormat,
    SingletonFormat,
)

# ----------------------------------------------------------------------------
# Enum attributes
# ----------------------------------------------------------------------------


class StorageSpecifierKind(StrEnum):
    LVL_SZ = auto()
    POS_MEM_SZ = auto()
    CRD_MEM_SZ = auto()
    VAL_MEM_SZ = auto()
    DIM_OFFSET = auto()
    DIM_STRIDE = auto()


class CrdTransDirection(StrEnum):
    DIM_TO_LVL = auto()
    LVL_TO_DIM = auto()


class SortAlgorithm(StrEnum):
    HYBRID_QUICK_SORT = auto()
    INSERTION_SORT_STABLE = auto()
    QUICK_SORT = auto()
    HEAP_SORT = auto()


@irdl_attr_definition
class StorageSpecifierKindAttr(
    EnumAttribute[StorageSpecifierKind], SpacedOpaqueSyntaxAttribute
):
    """`#sparse_tensor<kind lvl_sz>` (SparseTensorStorageSpecifierKindAttr)."""

    name = "sparse_tensor.kind"


@irdl_attr_definition
class CrdTransDirectionAttr(
    EnumAttribute[CrdTransDirection], SpacedOpaqueSyntaxAttribute
):
    """`#sparse_tensor<CrdTransDirection dim_to_lvl>` (SparseTensorCrdTransDirectionAttr)."""

    name = "sparse_tensor.CrdTransDirection"


@irdl_attr_definition
class SortAlgorithmAttr(EnumAttribute[SortAlgorithm], SpacedOpaqueSyntaxAttribute):
    """`#sparse_tensor<SparseTensorSortAlgorithm quick_sort>` (SparseTensorSortKindAttr)."""

    name = "sparse_tensor.SparseTensorSortAlgorithm"


# ----------------------------------------------------------------------------
# Types
# ----------------------------------------------------------------------------


def specifier_encoding(enc: SparseTensorEncodingAttr) -> SparseTensorEncodingAttr:
    """MLIR's normalization of a storage specifier's encoding: only what alters
    the memory layout stays (level formats, SoA, n:m, slices); maps become the
    identity, bit widths `index`, (non)unique/(non)ordered and values drop."""
    e = enc.data
    lvl_types = tuple(
        LevelType(lt.format, soa=lt.soa, n=lt.n, m=lt.m) for lt in e.lvl_types
    )
    identity = AffineMap.identity(len(lvl_types))
    return SparseTensorEncodingAttr(
        Encoding(identity, identity, lvl_types, dim_slices=e.dim_slices)
    )


@irdl_attr_definition
class StorageSpecifierType(ParametrizedAttribute, TypeAttribute):
    """`!sparse_tensor.storage_specifier<#enc>` (SparseTensor_StorageSpecifier)."""

    name = "sparse_tensor.storage_specifier"

    encoding: SparseTensorEncodingAttr

    def __init__(self, encoding: SparseTensorEncodingAttr):
        super().__init__(specifier_encoding(encoding))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            enc = parser.parse_attribute()
        if not isinstance(enc, SparseTensorEncodingAttr):
            parser.raise_error("expected a sparse tensor encoding")
        return (specifier_encoding(enc),)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.encoding)


def parse_encoding_with_fallback(parser: AttrParser) -> SparseTensorEncodingAttr:
    """An encoding as MLIR's `parseCustomAttributeWithFallback` reads it: a full
    attribute (or alias), or its body `<{...}>` alone, which is how MLIR prints
    it inside the iteration types and `crd_translate`."""
    pos = parser.pos
    enc = parser.parse_optional_attribute()
    if enc is None:
        enc = SparseTensorEncodingAttr(SparseTensorEncodingAttr.parse_parameter(parser))
    if not isinstance(enc, SparseTensorEncodingAttr):
        parser.raise_error("expected a sparse tensor encoding", pos)
    return enc


def parse_level_range(parser: AttrParser) -> tuple[int, int]:
    """`lo` or `lo to hi`: MLIR's `custom<LevelRange>`."""
    lo = parser.parse_integer(allow_boolean=False, allow_negative=False)
    hi = lo + 1
    if parser.parse_optional_keyword("to") is not None:
        hi = parser.parse_integer(allow_boolean=False, allow_negative=False)
    if hi <= lo:
        parser.raise_error("expect larger level upper bound than lower bound")
    return lo, hi


def print_level_range(printer: Printer, lo: int, hi: int) -> None:
    printer.print_string(f"{lo}" if lo + 1 == hi else f"{lo} to {hi}")


class _LevelRangeType(ParametrizedAttribute, TypeAttribute):
    """Shared syntax `<#enc, lvls = lo [to hi]>` of iteration spaces and iterators."""

    encoding: SparseTensorEncodingAttr
    lo_lvl: IntAttr
    hi_lvl: IntAttr

    @classmethod
    def get(cls, encoding: SparseTensorEncodingAttr, lo: int, hi: int) -> Self:
        return cls.new((encoding, IntAttr(lo), IntAttr(hi)))

    @property
    def space_dim(self) -> int:
        return self.hi_lvl.data - self.lo_lvl.data

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            enc = parse_encoding_with_fallback(parser)
            parser.parse_punctuation(",")
            parser.parse_keyword("lvls")
            parser.parse_punctuation("=")
            lo, hi = parse_level_range(parser)
        return (enc, IntAttr(lo), IntAttr(hi))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.encoding.print_parameter(printer)
            printer.print_string(", lvls = ")
            print_level_range(printer, self.lo_lvl.data, self.hi_lvl.data)

    def verify(self) -> None:
        if self.hi_lvl.data <= self.lo_lvl.data:
            raise VerifyException("expect larger level upper bound than lower bound")


@irdl_attr_definition
class IterSpaceType(_LevelRangeType):
    """`!sparse_tensor.iter_space<#enc, lvls = lo [to hi]>` (SparseTensor_IterSpace)."""

    name = "sparse_tensor.iter_space"

    def iterator_type(self) -> IteratorType:
        return IteratorType.new((self.encoding, self.lo_lvl, self.hi_lvl))


@irdl_attr_definition
class IteratorType(_LevelRangeType):
    """`!sparse_tensor.iterator<#enc, lvls = lo [to hi]>` (SparseTensor_Iterator)."""

    name = "sparse_tensor.iterator"


SPARSE_TENSOR_ATTRS: tuple[type[Attribute], ...] = (
    StorageSpecifierKindAttr,
    CrdTransDirectionAttr,
    SortAlgorithmAttr,
    StorageSpecifierType,
    IterSpaceType,
    IteratorType,
)


# ----------------------------------------------------------------------------
# SparseTensorType: what the ops ask of a tensor type and its encoding
# ----------------------------------------------------------------------------


def _is_dim(expr: AffineExpr, pos: int | None = None) -> bool:
    return isinstance(expr, AffineDimExpr) and (pos is None or expr.position == pos)


def is_identity_map(m: AffineMap) -> bool:
    return (
        m.num_symbols == 0
        and m.num_dims == len(m.results)
        and all(_is_dim(r, i) for i, r in enumerate(m.results))
    )


def is_permutation_map(m: AffineMap) -> bool:
    positions = [r.position for r in m.results if isinstance(r, AffineDimExpr)]
    return (
        len(positions) == len(m.results) == m.num_dims
        and len(set(positions)) == m.num_dims
    )


def _lvl_size(expr: AffineExpr, dim_shape: Sequence[int]) -> int:
    """The level size of one dim-to-lvl result, as MLIR's `translateShape`:
    the largest coordinate plus one when static, `d mod c` bounded by c."""
    used = expr.used_dims()
    if all(dim_shape[d] != DYNAMIC_INDEX for d in used):
        maxima = [max(s - 1, 0) if s != DYNAMIC_INDEX else 0 for s in dim_shape]
        return expr.eval(maxima, []) + 1
    if (
        isinstance(expr, AffineBinaryOpExpr)
        and expr.kind == AffineBinaryOpKind.Mod
        and isinstance(expr.rhs, AffineConstantExpr)
    ):
        return expr.rhs.value
    return DYNAMIC_INDEX


@dataclass(frozen=True)
class SparseTensorType:
    """A ranked tensor type seen through its encoding (MLIR's `SparseTensorType`).

    A tensor without encoding behaves as all-dense with identity maps."""

    type: TensorType[Attribute]

    @staticmethod
    def of(type: Attribute) -> SparseTensorType | None:
        return SparseTensorType(type) if isa(type, TensorType[Attribute]) else None

    @property
    def encoding(self) -> SparseTensorEncodingAttr | None:
        enc = self.type.encoding
        return enc if isinstance(enc, SparseTensorEncodingAttr) else None

    @property
    def has_encoding(self) -> bool:
        return self.encoding is not None

    @property
    def element_type(self) -> Attribute:
        return self.type.element_type

    @property
    def dim_shape(self) -> tuple[int, ...]:
        return self.type.get_shape()

    @property
    def dim_rank(self) -> int:
        return len(self.dim_shape)

    @property
    def has_static_dim_shape(self) -> bool:
        return DYNAMIC_INDEX not in self.dim_shape

    @property
    def lvl_types(self) -> tuple[LevelType, ...]:
        enc = self.encoding
        if enc is None:
            return tuple(LevelType(DENSE) for _ in self.dim_shape)
        return enc.data.lvl_types

    @property
    def lvl_rank(self) -> int:
        return len(self.lvl_types)

    @property
    def dim_to_lvl(self) -> AffineMap:
        enc = self.encoding
        return AffineMap.identity(self.dim_rank) if enc is None else enc.data.dim_to_lvl

    @property
    def is_identity(self) -> bool:
        return is_identity_map(self.dim_to_lvl)

    @property
    def is_permutation(self) -> bool:
        return is_permutation_map(self.dim_to_lvl)

    @property
    def lvl_shape(self) -> tuple[int, ...]:
        if self.is_identity:
            return self.dim_shape
        return tuple(_lvl_size(r, self.dim_shape) for r in self.dim_to_lvl.results)

    @property
    def pos_width(self) -> int:
        enc = self.encoding
        return 0 if enc is None else enc.data.pos_width

    @property
    def crd_width(self) -> int:
        enc = self.encoding
        return 0 if enc is None else enc.data.crd_width

    @property
    def pos_type(self) -> Attribute:
        return IntegerType(self.pos_width) if self.pos_width else IndexType()

    @property
    def crd_type(self) -> Attribute:
        return IntegerType(self.crd_width) if self.crd_width else IndexType()

    @property
    def is_slice(self) -> bool:
        enc = self.encoding
        return enc is not None and bool(enc.data.dim_slices)

    @property
    def batch_lvl_rank(self) -> int:
        rank = 0
        for i, lt in enumerate(self.lvl_types):
            if isinstance(lt.format, BatchFormat):
                rank = i + 1
        return rank

    @property
    def batch_lvl_shape(self) -> tuple[int, ...]:
        return self.lvl_shape[: self.batch_lvl_rank]

    def coo_segments(self) -> list[tuple[int, int, bool]]:
        """(start, end, is_soa) of every run of a (loose) compressed level
        followed by singletons."""
        lts = self.lvl_types
        segments: list[tuple[int, int, bool]] = []
        if len(lts) <= 1:
            return segments
        lvl = 0
        while lvl < len(lts):
            if isinstance(lts[lvl].format, CompressedFormat | LooseCompressedFormat):
                end = lvl + 1
                while end < len(lts) and isinstance(lts[end].format, SingletonFormat):
                    end += 1
                if end - lvl > 1:
                    segments.append((lvl, end, lts[lvl + 1].soa))
                lvl = end
            else:
                lvl += 1
        return segments

    @property
    def aos_coo_start(self) -> int:
        """The first level of the trailing array-of-structs COO region (or lvl_rank)."""
        segments = self.coo_segments()
        if segments and not segments[0][2]:
            return segments[0][0]
        return self.lvl_rank

    def is_coo_type(self, start: int = 0, unique: bool = True) -> bool:
        if not self.has_encoding or start >= self.lvl_rank:
            return False
        lts = self.lvl_types
        if not isinstance(lts[start].format, CompressedFormat | LooseCompressedFormat):
            return False
        if not all(isinstance(lt.format, SingletonFormat) for lt in lts[start + 1 :]):
            return False
        return not unique or lts[-1].is_unique

    def has_same_dim_to_lvl(self, other: SparseTensorType) -> bool:
        return self.dim_to_lvl == other.dim_to_lvl

    def storage_fields(self) -> list[tuple[str, int]]:
        """The level buffers in storage order (MLIR's `StorageLayout`), as
        ("pos" | "crd", level); an AoS COO region owns one coordinates buffer."""
        fields: list[tuple[str, int]] = []
        segments = self.coo_segments()
        lvl = 0
        while lvl < self.lvl_rank:
            fmt = self.lvl_types[lvl].format
            if fmt.has_positions:
                fields.append(("pos", lvl))
            if fmt.has_coordinates:
                fields.append(("crd", lvl))
            if segments and segments[0][0] == lvl:
                _, end, soa = segments.pop(0)
                lvl = lvl + 1 if soa else end
            else:
                lvl += 1
        return fields
