"""`isinstance` checks for xDSL's generic shaped types, typed for pyright.

`isinstance(t, TensorType)` narrows `t` to `TensorType[Unknown]` (the class is
generic in its element type), which strict pyright then reports at every use.
These guards do exactly the `isinstance` check but narrow to
`TensorType[Attribute]` (resp. `MemRefType`, `VectorType`): the element type
parameter is covariant and bounded by `Attribute`, so that is the widest type
the value can have. Likewise `IntegerType` (generic in its width and
signedness) narrows to `IntegerType[int, Signedness]`.
"""

from __future__ import annotations

from typing_extensions import TypeIs
from xdsl.dialects.builtin import IntegerType, MemRefType, TensorType, VectorType
from xdsl.ir import Attribute


def is_tensor_type(t: object) -> TypeIs[TensorType[Attribute]]:
    """`isinstance(t, TensorType)`."""
    return isinstance(t, TensorType)


def is_memref_type(t: object) -> TypeIs[MemRefType[Attribute]]:
    """`isinstance(t, MemRefType)`."""
    return isinstance(t, MemRefType)


def is_vector_type(t: object) -> TypeIs[VectorType[Attribute]]:
    """`isinstance(t, VectorType)`."""
    return isinstance(t, VectorType)


def is_integer_type(t: object) -> TypeIs[IntegerType]:
    """`isinstance(t, IntegerType)`."""
    return isinstance(t, IntegerType)


def is_tensor_or_memref_type(
    t: object,
) -> TypeIs[TensorType[Attribute] | MemRefType[Attribute]]:
    """`isinstance(t, TensorType | MemRefType)`."""
    return isinstance(t, TensorType | MemRefType)
