"""What the sparse_tensor operations share: MLIR-style diagnostics for the
ODS type constraints, constant operands, and the attribute dictionary of
custom formats (MLIR merges properties and attributes, sorted by name)."""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import IntegerAttr, MemRefType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xsparse.dialects.sparse_tensor.encoding import SparseTensorEncodingAttr
from xsparse.dialects.sparse_tensor.types import SparseTensorType


def _constraint_error(
    kind: str, index: int, description: str, type: Attribute
) -> VerifyException:
    """MLIR's message for an operand or result that fails its ODS constraint."""
    return VerifyException(f"{kind} #{index} must be {description}, but got '{type}'")


def sparse_operand(op: Operation, index: int) -> SparseTensorType:
    """Operand `index` as `AnySparseTensor`, with MLIR's message otherwise."""
    type = op.operands[index].type
    stt = SparseTensorType.of(type)
    if stt is None or not stt.has_encoding:
        raise _constraint_error(
            "operand", index, "sparse tensor of any type values", type
        )
    return stt


def sparse_result(op: Operation, index: int) -> SparseTensorType:
    """Result `index` as `AnySparseTensor`, with MLIR's message otherwise."""
    type = op.results[index].type
    stt = SparseTensorType.of(type)
    if stt is None or not stt.has_encoding:
        raise _constraint_error(
            "result", index, "sparse tensor of any type values", type
        )
    return stt


def sparse_type(value: SSAValue) -> SparseTensorType:
    """The sparse tensor type of a value that the verifier already checked."""
    stt = SparseTensorType.of(value.type)
    assert stt is not None
    return stt


def encoding_of(type: Attribute) -> SparseTensorEncodingAttr | None:
    if isinstance(type, TensorType) and isinstance(
        type.encoding, SparseTensorEncodingAttr
    ):
        return type.encoding
    return None


def non0_ranked_memref(
    op: Operation, kind: str, index: int, type: Attribute
) -> MemRefType[Attribute]:
    """`AnyNon0RankedMemRef`, with MLIR's message otherwise."""
    if not isa(type, MemRefType[Attribute]) or not type.get_shape():
        raise _constraint_error(
            kind, index, "non-0-ranked.memref of any type values", type
        )
    return type


def constant_int(value: SSAValue) -> int | None:
    """The value of an `arith.constant` integer or index, if `value` is one."""
    owner = value.owner
    if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def print_attr_dict(
    printer: Printer, op: IRDLOperation, elided: Iterable[str] = ()
) -> None:
    """MLIR's `attr-dict` of an op with properties: both merged, sorted by name."""
    merged = op.attributes | op.properties
    printer.print_op_attributes(
        dict(sorted(merged.items())), reserved_attr_names=elided
    )


def parse_attr_dict(
    parser: Parser, properties: Iterable[str]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """Parse an optional `{...}` and split it into (properties, attributes)."""
    names = set(properties)
    attrs = parser.parse_optional_attr_dict()
    props = {k: v for k, v in attrs.items() if k in names}
    return props, {k: v for k, v in attrs.items() if k not in names}
