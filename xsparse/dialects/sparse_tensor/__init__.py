"""MLIR 22's sparse_tensor dialect: encodings, types and operations."""

from xdsl.ir import Dialect

from xsparse.dialects.sparse_tensor.encoding import (
    DimSlice,
    Encoding,
    SparseTensorDimSliceAttr,
    SparseTensorEncodingAttr,
)
from xsparse.dialects.sparse_tensor.levels import LEVEL_FORMATS, LevelFormat, LevelType
from xsparse.dialects.sparse_tensor.ops import SPARSE_TENSOR_OPS
from xsparse.dialects.sparse_tensor.types import SPARSE_TENSOR_ATTRS

SparseTensor = Dialect(
    "sparse_tensor",
    list(SPARSE_TENSOR_OPS),
    [SparseTensorEncodingAttr, SparseTensorDimSliceAttr, *SPARSE_TENSOR_ATTRS],
)

__all__ = [
    "LEVEL_FORMATS",
    "DimSlice",
    "Encoding",
    "LevelFormat",
    "LevelType",
    "SparseTensor",
    "SparseTensorDimSliceAttr",
    "SparseTensorEncodingAttr",
]
