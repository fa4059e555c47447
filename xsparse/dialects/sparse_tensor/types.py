"""Types and attributes of MLIR 22's sparse_tensor dialect besides the encoding."""

from xdsl.ir import Attribute

SPARSE_TENSOR_ATTRS: tuple[type[Attribute], ...] = ()
