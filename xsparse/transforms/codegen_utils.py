"""Emission helpers shared by the passes (as MLIR's SparseTensor/Transforms/
Utils/CodegenUtils.h): index arithmetic on an `xdsl.builder.Builder`, and the
ops that several lowerings build alike (`to_tensor`).

`BuilderArithmetic` is the IR side of the level formats' `Arithmetic`
(`dialects.sparse_tensor.levels`): a format computes where its positions are
once, and this class turns that computation into `arith` ops.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, bufferization
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, SSAValue

from xsparse.dialects.sparse_tensor.ops_common import constant_int

INDEX = IndexType()


def constant_index(builder: Builder, value: int) -> SSAValue:
    """`arith.constant value : index` (MLIR's `constantIndex`)."""
    return builder.insert(arith.ConstantOp.from_int_and_width(value, INDEX)).result


def to_tensor(
    buffer: SSAValue, tensor_type: Attribute | None = None, *, owned: bool = False
) -> bufferization.ToTensorOp:
    """`bufferization.to_tensor` of `buffer`, as `tensor_type` (inferred from
    the buffer when not given); `owned`: `restrict writable`, for a buffer the
    tensor alone reads and writes. The caller inserts it."""
    if tensor_type is None:
        return bufferization.ToTensorOp(buffer, restrict=owned, writable=owned)
    return bufferization.ToTensorOp.create(
        operands=[buffer], result_types=[tensor_type]
    )


@dataclass
class BuilderArithmetic:
    """Index `+` and `*` as ops at `builder`. With `fold`, adding zero and
    multiplying by one emit nothing. `constant` makes index constants (a pass
    may hoist and share them)."""

    builder: Builder
    constant: Callable[[int], SSAValue] | None = None
    fold: bool = False

    def index(self, n: int) -> SSAValue:
        if self.constant is not None:
            return self.constant(n)
        return constant_index(self.builder, n)

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        if self.fold and constant_int(a) == 0:
            return b
        if self.fold and constant_int(b) == 0:
            return a
        return self.builder.insert(arith.AddiOp(a, b)).result

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        if self.fold and constant_int(a) == 1:
            return b
        if self.fold and constant_int(b) == 1:
            return a
        return self.builder.insert(arith.MuliOp(a, b)).result
