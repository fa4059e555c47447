"""The scalar and buffer ops that every lowering builds alike (MLIR's
SparseTensor/Transforms/Utils/CodegenUtils.h: `constantIndex`, `genIndexLoad`,
...), on any insertion point.

`OpEmitter` holds them; a subclass says where an op goes (`op`) and may say
how index constants are made (`index`: e.g. hoisted before a loop and shared).
`BuilderEmitter` is the one over an `xdsl.builder.Builder`; it is also the IR
side of the level formats' `Arithmetic` (`dialects.sparse_tensor.levels`): a
format computes where its positions are once, and this class turns that
computation into `arith` ops.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from xdsl.builder import Builder
from xdsl.dialects import arith, bufferization, complex, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ComplexType,
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)

from xsparse.dialects.sparse_tensor.ops_common import constant_int
from xsparse.dialects.type_guards import is_integer_type, is_memref_type
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.dialects.upstream.arith import IndexCastUIOp

INDEX = IndexType()

OpT = TypeVar("OpT", bound=Operation)


def constant_index(builder: Builder, value: int) -> SSAValue:
    """`arith.constant value : index` (MLIR's `constantIndex`)."""
    return BuilderEmitter(builder).index(value)


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


_AFFINE_OPS: dict[AffineBinaryOpKind, type[arith.SignlessIntegerBinaryOperation]] = {
    AffineBinaryOpKind.Add: arith.AddiOp,
    AffineBinaryOpKind.Mul: arith.MuliOp,
    AffineBinaryOpKind.FloorDiv: arith.DivUIOp,
    AffineBinaryOpKind.Mod: arith.RemUIOp,
    AffineBinaryOpKind.CeilDiv: arith.CeilDivUIOp,
}
"""An affine expression of non-negative index values, as unsigned arith."""


class OpEmitter(ABC):
    """Inserts ops somewhere (`op`), with the index arithmetic, comparisons,
    casts and buffer accesses that the lowerings share."""

    @abstractmethod
    def op(self, op: OpT) -> OpT:
        """Insert `op` at this emitter's point; returns it."""

    def value(self, op: Operation) -> SSAValue:
        """Insert `op`; its (first) result."""
        return self.op(op).results[0]

    # -- scalars ------------------------------------------------------------

    def index(self, n: int) -> SSAValue:
        """An index constant (MLIR's `constantIndex`)."""
        return self.value(arith.ConstantOp.from_int_and_width(n, INDEX))

    def constant(self, n: int | float, t: Attribute) -> SSAValue:
        """A scalar constant of an integer, index or float type, or the complex
        number `n + 0i` (`complex.constant`)."""
        if isinstance(t, AnyFloat):
            return self.value(arith.ConstantOp(FloatAttr(float(n), t)))
        if isinstance(t, ComplexType) and isinstance(t.element_type, AnyFloat):
            parts = (float(n), 0.0)
            return self.value(complex.ConstantOp.from_floats(parts, t.element_type))
        if not (is_integer_type(t) or isinstance(t, IndexType)):
            # e.g. complex<i32>: codegen has no constants (nor arithmetic) of
            # it; the pattern emitting this becomes a located refusal.
            raise ValueError(f"element type {t} is not supported (no constants of it)")
        return self.value(arith.ConstantOp(IntegerAttr(int(n), t)))

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(arith.AddiOp(a, b))

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(arith.SubiOp(a, b))

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(arith.MuliOp(a, b))

    def total(self, values: Sequence[SSAValue]) -> SSAValue:
        """The sum of one or more index values."""
        result = values[0]
        for v in values[1:]:
            result = self.add(result, v)
        return result

    def cmp(self, a: SSAValue, predicate: str, b: SSAValue) -> SSAValue:
        """`arith.cmpi predicate, a, b`."""
        return self.value(arith.CmpiOp(a, b, predicate))

    def select(self, cond: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        """`a` where `cond` holds, else `b`."""
        return self.value(upstream_arith.SelectOp(cond, a, b))

    def all_of(self, conds: Sequence[SSAValue]) -> SSAValue:
        """The conjunction of one or more i1 values, left to right."""
        result = conds[0]
        for cond in conds[1:]:
            result = self.value(arith.AndIOp(result, cond))
        return result

    def any_of(self, conds: Sequence[SSAValue]) -> SSAValue:
        """The disjunction of one or more i1 values, left to right."""
        result = conds[0]
        for cond in conds[1:]:
            result = self.value(arith.OrIOp(result, cond))
        return result

    def to_index(self, v: SSAValue) -> SSAValue:
        """An unsigned positions/coordinates value as an index."""
        if isinstance(v.type, IndexType):
            return v
        return self.value(IndexCastUIOp(v, INDEX))

    def from_index(self, v: SSAValue, t: Attribute) -> SSAValue:
        """An index as an unsigned value of type `t`."""
        if isinstance(t, IndexType):
            return v
        return self.value(IndexCastUIOp(v, t))

    def index_load(self, buffer: SSAValue, indices: Sequence[SSAValue]) -> SSAValue:
        """An unsigned integer element as an index, zero-extended to 64 bits
        first (MLIR's `genIndexLoad`)."""
        v = self.load(buffer, indices)
        if is_integer_type(v.type):
            if v.type.width.data < 64:
                v = self.value(upstream_arith.ExtUIOp(v, i64))
            v = self.value(upstream_arith.IndexCastOp(v, INDEX))
        return v

    def affine(self, expr: AffineExpr, dims: Sequence[SSAValue]) -> SSAValue:
        """`expr` of non-negative index values `dims`."""
        if isinstance(expr, AffineDimExpr):
            return dims[expr.position]
        if isinstance(expr, AffineConstantExpr):
            return self.index(expr.value)
        assert isinstance(expr, AffineBinaryOpExpr)
        lhs, rhs = self.affine(expr.lhs, dims), self.affine(expr.rhs, dims)
        return self.value(_AFFINE_OPS[expr.kind](lhs, rhs))

    # -- buffers ------------------------------------------------------------

    def load(self, buffer: SSAValue, indices: Sequence[SSAValue]) -> SSAValue:
        return self.value(memref.LoadOp.get(buffer, indices))

    def store(self, v: SSAValue, buffer: SSAValue, indices: Sequence[SSAValue]) -> None:
        self.op(memref.StoreOp.get(v, buffer, indices))

    def dim(self, buffer: SSAValue, d: int = 0) -> SSAValue:
        """`memref.dim` of `buffer` (even where the size is static)."""
        return self.value(memref.DimOp(buffer, self.index(d)))

    def size(self, buffer: SSAValue, d: int) -> SSAValue:
        """Dimension `d` of a memref: a constant where static."""
        t = buffer.type
        assert is_memref_type(t)
        static = t.get_shape()[d]
        return self.index(static) if static != DYNAMIC_INDEX else self.dim(buffer, d)

    def sizes(
        self, buffer: SSAValue, dims: Iterable[int] | None = None
    ) -> list[SSAValue]:
        """The sizes of dimensions `dims` of a memref (all of them by default;
        constants where static)."""
        t = buffer.type
        assert is_memref_type(t)
        which = range(t.get_num_dims()) if dims is None else dims
        return [self.size(buffer, d) for d in which]

    def alloc(self, t: MemRefType[Attribute], sizes: Sequence[SSAValue]) -> SSAValue:
        """A buffer of type `t`; `sizes` gives every dimension (static ones
        ignored), or nothing when `t` is static."""
        dynamic = [
            s for s, n in zip(sizes, t.get_shape(), strict=False) if n == DYNAMIC_INDEX
        ]
        return self.value(memref.AllocOp(dynamic, [], t))


@dataclass
class BuilderEmitter(OpEmitter):
    """Ops at `builder`'s insertion point. `index_constant` makes index
    constants (a pass may hoist and share them). With `fold`, adding zero and
    multiplying by one emit nothing."""

    builder: Builder
    index_constant: Callable[[int], SSAValue] | None = None
    fold: bool = False

    def op(self, op: OpT) -> OpT:
        return self.builder.insert(op)

    def index(self, n: int) -> SSAValue:
        if self.index_constant is not None:
            return self.index_constant(n)
        return super().index(n)

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        if self.fold and constant_int(a) == 0:
            return b
        if self.fold and constant_int(b) == 0:
            return a
        return super().add(a, b)

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        if self.fold and constant_int(a) == 1:
            return b
        if self.fold and constant_int(b) == 1:
            return a
        return super().mul(a, b)
