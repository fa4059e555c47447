"""`#sparse_tensor.encoding<{...}>`: MLIR 22's SparseTensorEncodingAttr.

Mirrors the MLIR documentation of `SparseTensorEncodingAttr` (seed 000) and
MLIR 22's parser, printer and verifier for it (SparseTensorDialect.cpp).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Attribute, Data
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_attr_definition

from xsparse.dialects.sparse_tensor.levels import LevelType


@dataclass(frozen=True)
class DimSlice:
    """`#sparse_tensor<slice(offset, size, stride)>`; None stands for `?`."""

    offset: int | None
    size: int | None
    stride: int | None


@dataclass(frozen=True)
class Encoding:
    """The contents of a sparse tensor encoding."""

    dim_to_lvl: AffineMap
    """Dimension coordinates (and symbols) to level coordinates."""
    lvl_to_dim: AffineMap
    """Level coordinates to dimension coordinates (given or inferred)."""
    lvl_types: tuple[LevelType, ...]
    pos_width: int = 0
    crd_width: int = 0
    explicit_val: Attribute | None = None
    implicit_val: Attribute | None = None
    dim_slices: tuple[DimSlice | None, ...] = ()
    """One entry per dimension when any dimension is sliced, else empty."""

    @property
    def dim_rank(self) -> int:
        return self.dim_to_lvl.num_dims

    @property
    def lvl_rank(self) -> int:
        return len(self.lvl_types)


@irdl_attr_definition
class SparseTensorEncodingAttr(Data[Encoding]):
    """`#sparse_tensor.encoding<{ map = ..., posWidth = ..., ... }>`."""

    name = "sparse_tensor.encoding"
