"""How a sparse tensor is stored: the level buffers that codegen and the runtime share.

A sparse tensor of encoding E is passed around (function arguments and results
after `sparse-tensor-codegen`, and the runtime's calling convention) as:
for each level l in order, its positions buffer (if the level format has one)
then its coordinates buffer (if it has one), then the values buffer, then the
size of every level (index). This mirrors the storage scheme of MLIR's
`sparse-tensor-codegen` (SparseTensorStorageLayout), with one coordinates
buffer per level (structure of arrays).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
)
from xdsl.ir import Attribute

from xsparse.dialects.sparse_tensor.encoding import Encoding, SparseTensorEncodingAttr

FieldKind = Literal["positions", "coordinates", "values", "level_size"]


@dataclass(frozen=True)
class StorageField:
    """One buffer (or size) of a sparse tensor's storage."""

    kind: FieldKind
    level: int
    """The level the field belongs to; -1 for the values."""
    type: Attribute


def overhead_type(width: int) -> Attribute:
    """The element type of a positions/coordinates buffer of bit width `width`
    (0: index; widths under 8, e.g. 2-bit 2:4 metadata, are stored in bytes)."""
    if width == 0:
        return IndexType()
    return IntegerType(max(width, 8))


def sparse_encoding(tensor_type: Attribute) -> Encoding | None:
    if isinstance(tensor_type, TensorType) and isinstance(
        tensor_type.encoding, SparseTensorEncodingAttr
    ):
        return tensor_type.encoding.data
    return None


def storage_fields(tensor_type: TensorType[Attribute]) -> list[StorageField]:
    """The storage of a sparse tensor type, in calling-convention order."""
    enc = sparse_encoding(tensor_type)
    assert enc is not None, "storage_fields expects a sparse tensor type"
    fields: list[StorageField] = []
    for level, lt in enumerate(enc.lvl_types):
        if lt.format.has_positions:
            fields.append(
                StorageField(
                    "positions",
                    level,
                    MemRefType(overhead_type(enc.pos_width), [DYNAMIC_INDEX]),
                )
            )
        if lt.format.has_coordinates:
            fields.append(
                StorageField(
                    "coordinates",
                    level,
                    MemRefType(overhead_type(enc.crd_width), [DYNAMIC_INDEX]),
                )
            )
    fields.append(
        StorageField(
            "values", -1, MemRefType(tensor_type.element_type, [DYNAMIC_INDEX])
        )
    )
    fields.extend(
        StorageField("level_size", level, IndexType()) for level in range(enc.lvl_rank)
    )
    return fields
