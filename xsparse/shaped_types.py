"""Checks MLIR's type parser makes on `tensor<...>` and `memref<...>` types
that xDSL 0.74's does not: the element type (MLIR's
`TensorType::isValidElementType`, `BaseMemRefType::isValidElementType`:
`tensor<?xnone>` is "invalid tensor element type"), and MLIR's
`VerifiableTensorEncoding` interface, through which an encoding (the
`#sparse_tensor.encoding`) checks itself against the tensor's shape and
element type as the type is parsed.

`check_parsed(parser, type, start)` makes them; xsparse's parser
(`diagnostics.LocatingParser`) calls it on each such type as soon as it is
parsed. Outside `xsparse.dialects` so that checking loads no dialect.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    AnyFloat,
    Builtin,
    ComplexType,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
)
from xdsl.ir import Attribute
from xdsl.parser import AttrParser
from xdsl.utils.exceptions import VerifyException

from xsparse.xdsl_adapter import Position


class VerifiableTensorEncoding(ABC):
    """MLIR's `VerifiableTensorEncoding` interface: an encoding attribute that
    checks itself against the shape and element type of the tensor it types."""

    @abstractmethod
    def verify_encoding(self, shape: Sequence[int], element_type: Attribute) -> None:
        """Raise VerifyException with MLIR's message when the encoding does not
        fit a tensor of this shape and element type."""


_BUILTIN_TYPES = frozenset(Builtin.attributes)


def valid_tensor_element(t: Attribute) -> bool:
    """MLIR's `TensorType::isValidElementType`: numbers, vectors, or a type
    of another dialect than builtin."""
    return (
        isinstance(t, IntegerType | IndexType | ComplexType | VectorType | AnyFloat)
        or type(t) not in _BUILTIN_TYPES
    )


def valid_memref_element(t: Attribute) -> bool:
    """MLIR's `BaseMemRefType::isValidElementType`: numbers, vectors,
    memrefs, or a type of another dialect (its `MemRefElementTypeInterface`
    is not known here)."""
    return valid_tensor_element(t) or isinstance(t, MemRefType | UnrankedMemRefType)


def check_parsed(parser: AttrParser, parsed: Attribute, start: Position) -> None:
    """Check a just-parsed tensor or memref type as MLIR's type parser does."""
    if isinstance(parsed, TensorType | UnrankedTensorType):
        element = cast(TensorType[Attribute], parsed).element_type
        if not valid_tensor_element(element):
            parser.raise_error("invalid tensor element type", start, start + 1)
    if isinstance(parsed, MemRefType | UnrankedMemRefType):
        element = cast(MemRefType[Attribute], parsed).element_type
        if not valid_memref_element(element):
            parser.raise_error("invalid memref element type", start, start + 1)
    if isinstance(parsed, TensorType):
        tensor = cast(TensorType[Attribute], parsed)
        encoding = tensor.encoding
        if isinstance(encoding, VerifiableTensorEncoding):
            try:
                encoding.verify_encoding(tensor.get_shape(), tensor.element_type)
            except VerifyException as e:
                # MLIR reports at the token after the encoding: the `>`.
                parser.raise_error(str(e), parser.pos, parser.pos + 1)
