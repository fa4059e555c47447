"""arith -> llvm (mirrors MLIR's `convert-arith-to-llvm`, plus the expansions of
`arith-expand` for ceil/floor division and min/max through LLVM intrinsics).

The index type becomes i64; vectors are lowered element-wise by the llvm ops
themselves.

Integer division and remainder differ from MLIR in one respect: MLIR's arith
leaves division by zero and signed `INT_MIN / -1` undefined (LLVM's `sdiv`,
`udiv`, `srem`, `urem` are UB there, and x86's `div`/`idiv` trap with SIGFPE),
whereas here they are defined as numpy defines them: `x / 0 == x % 0 == 0`,
`INT_MIN / -1 == INT_MIN` (the quotient wraps) and `INT_MIN % -1 == 0`; for
the rounding divisions `floordivsi(x, 0) == ceildivsi(x, 0) == ceildivui(x, 0)
== 0`. Every other divisor keeps arith's semantics (`divsi` truncates,
`floordivsi` rounds toward -inf as numpy's `//`). The guard is two selects
before the division: where the divisor is 0 (or -1, when signed) the llvm op
divides `a * b` by 1, which gives numpy's quotient (0; `-a`, wrapping) and
remainder (0). The division is then defined for every operand, so LLVM's
optimizer may not remove the guard. A divisor that is a constant other than 0
(and -1, when signed) gets no guard: that code is MLIR's.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
    i1,
)
from xdsl.dialects.utils.fast_math import FastMathFlag
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.utils.exceptions import DiagnosticException

from xsparse.dialects.type_guards import is_integer_type, is_vector_type
from xsparse.dialects.upstream import llvm as upstream_llvm
from xsparse.dialects.upstream.arith import IndexCastUIOp
from xsparse.dialects.upstream.builtin import SparseElementsAttr
from xsparse.dialects.upstream.llvm import FPToSIOp, FPToUIOp, UIToFPOp
from xsparse.transforms.convert_to_llvm.common import (
    ToLLVMPattern,
    by_class,
    call_intrinsic,
    convert_type,
    lowered,
    lowering,
    lowering_of,
    mangle,
    replace_with,
)

_LLVMIntBinaryOp = (
    type[llvm.ArithmeticBinOperation]
    | type[llvm.ArithmeticBinOpOverflow]
    | type[llvm.ArithmeticBinOpExact]
    | type[llvm.ArithmeticBinOpDisjoint]
)
_INT_BINARY: dict[type[Operation], _LLVMIntBinaryOp] = {
    arith.AddiOp: llvm.AddOp,
    arith.SubiOp: llvm.SubOp,
    arith.MuliOp: llvm.MulOp,
    arith.AndIOp: llvm.AndOp,
    arith.OrIOp: llvm.OrOp,
    arith.XOrIOp: llvm.XOrOp,
    arith.ShLIOp: llvm.ShlOp,
    arith.ShRSIOp: llvm.AShrOp,
    arith.ShRUIOp: llvm.LShrOp,
}
_FLOAT_BINARY: dict[type[Operation], type[llvm.AbstractFloatArithOp]] = {
    arith.AddfOp: llvm.FAddOp,
    arith.SubfOp: llvm.FSubOp,
    arith.MulfOp: llvm.FMulOp,
    arith.DivfOp: llvm.FDivOp,
}
_MIN_MAX: dict[type[Operation], str] = {
    arith.MinSIOp: "llvm.smin",
    arith.MaxSIOp: "llvm.smax",
    arith.MinUIOp: "llvm.umin",
    arith.MaxUIOp: "llvm.umax",
    arith.MinimumfOp: "llvm.minimum",
    arith.MaximumfOp: "llvm.maximum",
    arith.MinnumfOp: "llvm.minnum",
    arith.MaxnumfOp: "llvm.maxnum",
}


class IntBinaryToLLVM(ToLLVMPattern):
    """Integer arithmetic, bitwise and shift ops -> the llvm op of the same name."""

    @lowering_of(*_INT_BINARY)
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, arith.SignlessIntegerBinaryOperation)
        new = _INT_BINARY[type(op)](
            lowered(op.lhs, rewriter), lowered(op.rhs, rewriter)
        )
        replace_with(op, [new], [new.res], rewriter, partial=self.partial)


def _integer_constant(value: int, t: Attribute) -> llvm.ConstantOp:
    """`value` in the lowered integer (vector) type `t` (a splat for vectors)."""
    if isinstance(t, VectorType):
        vector_t = cast("VectorType[IntegerType]", t)
        return llvm.ConstantOp(DenseIntOrFPElementsAttr.from_list(vector_t, [value]), t)
    return llvm.ConstantOp(IntegerAttr(value, cast(IntegerType, t)), t)


def _constant_values(value: SSAValue) -> list[int] | None:
    """The lanes of `value` if it is an integer (vector) constant, arith's or llvm's."""
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp | llvm.ConstantOp):
        return None
    attr = owner.value
    if isinstance(attr, IntegerAttr):
        return [attr.value.data]
    if isinstance(attr, DenseIntOrFPElementsAttr):
        element = attr.get_element_type()
        if isinstance(element, IndexType) or is_integer_type(element):
            return [int(v) for v in attr.get_values()]
    return None


def _divides_safely(divisor: SSAValue, signed: bool) -> bool:
    """Whether `divisor` is a constant that no dividend traps on: no lane 0,
    and, when signed, no lane -1 (`INT_MIN / -1` overflows)."""
    values = _constant_values(divisor)
    if values is None:
        return False
    modulus = 1 << _width(divisor.type)
    unsafe = {0, modulus - 1} if signed else {0}
    return all(v % modulus not in unsafe for v in values)


def _safe_operands(
    a: SSAValue, b: SSAValue, signed: bool, ops: list[Operation], *, quotient: bool
) -> tuple[SSAValue, SSAValue]:
    """(dividend, divisor) whose remainder, and with `quotient` division, are
    numpy's for `a` by `b` and defined for every value (the ops appended to
    `ops`).

    Where `b` is 0 (or -1, when `signed`) the divisor is 1, so the remainder
    is 0, and the dividend (with `quotient`) `a * b`, so the quotient is 0 for
    0 and the wrapped `-a` for -1 (`INT_MIN / -1 == INT_MIN`). (`a`, `b`)
    themselves when `b` is a constant that needs no guard."""
    if _divides_safely(b, signed):
        return a, b
    t = b.type
    one = _integer_constant(1, t)
    ops.append(one)
    if signed:
        # b + 1 <u 2: b is 0 or -1
        two = _integer_constant(2, t)
        shifted = llvm.AddOp(b, one.result)
        unsafe = llvm.ICmpOp(shifted.res, two.result, IntegerAttr(6, 64))  # ult
        ops += [two, shifted]
    else:
        zero = _integer_constant(0, t)
        unsafe = llvm.ICmpOp(b, zero.result, IntegerAttr(0, 64))  # eq
        ops.append(zero)
    ops.append(unsafe)
    dividend = a
    if quotient:
        product = llvm.MulOp(a, b)
        select = upstream_llvm.SelectOp(unsafe.res, product.res, a)
        ops += [product, select]
        dividend = select.res
    divisor = upstream_llvm.SelectOp(unsafe.res, one.result, b)
    ops.append(divisor)
    return dividend, divisor.res


_DIV_REM: dict[type[Operation], _LLVMIntBinaryOp] = {
    arith.DivSIOp: llvm.SDivOp,
    arith.DivUIOp: llvm.UDivOp,
    arith.RemSIOp: llvm.SRemOp,
    arith.RemUIOp: llvm.URemOp,
}


class DivRemToLLVM(ToLLVMPattern):
    """`divsi`, `divui`, `remsi`, `remui` -> `llvm.sdiv` etc. of safe operands
    (see the module's docstring); by a constant other than 0 (and -1, when
    signed) just the llvm op, as MLIR 22."""

    @lowering_of(*_DIV_REM)
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        signed = isinstance(op, arith.DivSIOp | arith.RemSIOp)
        ops: list[Operation] = []
        a, b = _safe_operands(
            lowered(op.operands[0], rewriter),
            lowered(op.operands[1], rewriter),
            signed,
            ops,
            quotient=isinstance(op, arith.DivSIOp | arith.DivUIOp),
        )
        new = _DIV_REM[type(op)](a, b)
        replace_with(op, [*ops, new], [new.res], rewriter, partial=self.partial)


class FloatBinaryToLLVM(ToLLVMPattern):
    """Floating-point arithmetic -> `llvm.fadd` etc."""

    @lowering_of(*_FLOAT_BINARY)
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, arith.FloatingPointLikeBinaryOperation)
        flags = [
            FastMathFlag(getattr(flag, "value", flag)) for flag in op.fastmath.data
        ]
        new = _FLOAT_BINARY[type(op)](
            lowered(op.lhs, rewriter),
            lowered(op.rhs, rewriter),
            llvm.FastMathAttr(flags) if flags else None,
        )
        replace_with(op, [new], [new.res], rewriter, partial=self.partial)


class MinMaxToLLVM(ToLLVMPattern):
    """Integer and float min/max -> `llvm.smin`/`llvm.maxnum`/... intrinsics."""

    @lowering_of(*_MIN_MAX)
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        lhs = lowered(op.operands[0], rewriter)
        rhs = lowered(op.operands[1], rewriter)
        t = lhs.type
        name = f"{_MIN_MAX[type(op)]}.{mangle(t)}"
        result = call_intrinsic(name, [lhs, rhs], t, rewriter)
        assert result is not None
        replace_with(op, [], [result], rewriter, partial=self.partial)


class NegfToLLVM(ToLLVMPattern):
    """`arith.negf` -> `llvm.fneg`."""

    @lowering
    def match_and_rewrite(self, op: arith.NegfOp, rewriter: PatternRewriter) -> None:
        new = llvm.FNegOp(lowered(op.operand, rewriter))
        replace_with(op, [new], [new.res], rewriter, partial=self.partial)


def _constant_attr(value: Attribute, t: Attribute) -> Attribute:
    if isinstance(value, IntegerAttr):
        assert is_integer_type(t)
        return IntegerAttr(value.value.data, t)
    if isinstance(value, FloatAttr):
        return cast(Attribute, value)
    if isinstance(value, SparseElementsAttr):
        value = value.to_dense()
    if isinstance(value, DenseIntOrFPElementsAttr) and is_vector_type(t):
        if value.get_element_type() != t.element_type:
            # an index, signed or unsigned vector constant: `t` is its
            # converted (signless) integer vector type
            int_vector = cast("VectorType[IntegerType]", t)
            return DenseIntOrFPElementsAttr.from_list(int_vector, value.get_values())
        return cast(Attribute, value)
    raise DiagnosticException(f"unsupported constant {value}")


class ConstantToLLVM(ToLLVMPattern):
    """`arith.constant` (scalars and dense vectors) -> `llvm.mlir.constant`."""

    @lowering
    def match_and_rewrite(
        self, op: arith.ConstantOp, rewriter: PatternRewriter
    ) -> None:
        t = convert_type(op.result.type)
        new = llvm.ConstantOp(_constant_attr(op.value, t), t)
        replace_with(op, [new], [new.result], rewriter, partial=self.partial)


def _comparison(
    kind: type[llvm.ICmpOp | llvm.FCmpOp],
    op: arith.CmpiOp | arith.CmpfOp,
    rewriter: PatternRewriter,
) -> Operation:
    """`kind` comparing the lowered operands of `op`: i1, or a vector of i1 of
    the operands' shape and scalable dims (xDSL's constructors drop the
    scalable flag, or the vector; xDSL's `arith.cmpi`/`cmpf` results are i1
    even for vector operands, so the operands decide)."""
    lhs = lowered(op.lhs, rewriter)
    t = lhs.type
    result = (
        VectorType(i1, t.get_shape(), t.scalable_dims)
        if isinstance(t, VectorType)
        else i1
    )
    return kind.create(
        operands=[lhs, lowered(op.rhs, rewriter)],
        result_types=[result],
        properties={"predicate": IntegerAttr(op.predicate.value.data, 64)},
    )


class CmpiToLLVM(ToLLVMPattern):
    """`arith.cmpi` -> `llvm.icmp` (same predicate numbering)."""

    @lowering
    def match_and_rewrite(self, op: arith.CmpiOp, rewriter: PatternRewriter) -> None:
        new = _comparison(llvm.ICmpOp, op, rewriter)
        replace_with(op, [new], [new.results[0]], rewriter, partial=self.partial)


class CmpfToLLVM(ToLLVMPattern):
    """`arith.cmpf` -> `llvm.fcmp` (same predicate numbering)."""

    @lowering
    def match_and_rewrite(self, op: arith.CmpfOp, rewriter: PatternRewriter) -> None:
        new = _comparison(llvm.FCmpOp, op, rewriter)
        replace_with(op, [new], [new.results[0]], rewriter, partial=self.partial)


class SelectToLLVM(ToLLVMPattern):
    """`arith.select` -> `llvm.select`."""

    @lowering
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter) -> None:
        new = upstream_llvm.SelectOp(
            lowered(op.cond, rewriter),
            lowered(op.lhs, rewriter),
            lowered(op.rhs, rewriter),
        )
        replace_with(op, [new], [new.res], rewriter, partial=self.partial)


def _width(t: Attribute) -> int:
    if is_vector_type(t):
        t = t.element_type
    if isinstance(t, IndexType):
        return 64
    if is_integer_type(t):
        return t.width.data
    assert isinstance(t, AnyFloat)
    return t.bitwidth


def _int_resize(value: SSAValue, to: Attribute, signed: bool) -> Operation | None:
    """trunc/sext/zext between integer (vector) types; None when widths agree."""
    src, dst = _width(value.type), _width(to)
    if src == dst:
        return None
    if src > dst:
        return upstream_llvm.TruncOp(value, to)
    return (
        upstream_llvm.SExtOp(value, to) if signed else upstream_llvm.ZExtOp(value, to)
    )


class IntCastToLLVM(ToLLVMPattern):
    """`arith.index_cast(ui)`, `extsi`, `extui`, `trunci` -> trunc/sext/zext or nothing."""

    @lowering_of(
        arith.IndexCastOp, IndexCastUIOp, arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp
    )
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        value = lowered(op.operands[0], rewriter)
        to = convert_type(op.results[0].type)
        signed = not isinstance(op, IndexCastUIOp | arith.ExtUIOp)
        new = _int_resize(value, to, signed)
        if new is None:
            replace_with(op, [], [value], rewriter, partial=self.partial)
        else:
            replace_with(op, [new], [new.results[0]], rewriter, partial=self.partial)


_CASTS: dict[type[Operation], type[llvm.GenericCastOp]] = {
    arith.SIToFPOp: llvm.SIToFPOp,
    arith.UIToFPOp: UIToFPOp,
    arith.FPToSIOp: FPToSIOp,
    arith.FPToUIOp: FPToUIOp,
    arith.ExtFOp: llvm.FPExtOp,
    arith.TruncFOp: llvm.FPTruncOp,
    arith.BitcastOp: llvm.BitcastOp,
}


class ValueCastToLLVM(ToLLVMPattern):
    """int <-> float conversions, `extf`, `truncf`, `bitcast` -> the llvm cast."""

    @lowering_of(*_CASTS)
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        value = lowered(op.operands[0], rewriter)
        to = convert_type(op.results[0].type)
        if isinstance(op, arith.BitcastOp) and value.type == to:
            replace_with(op, [], [value], rewriter, partial=self.partial)
            return
        cast = by_class(_CASTS, op)
        assert cast is not None
        new = cast(value, to)
        replace_with(op, [new], [new.result], rewriter, partial=self.partial)


class DivRoundingToLLVM(ToLLVMPattern):
    """`ceildivsi`, `ceildivui`, `floordivsi` -> div, rem and a select (as
    `arith-expand`), the div and rem guarded as `divsi`'s: 0 for a zero
    divisor, `INT_MIN` for `INT_MIN` by -1."""

    @lowering_of(arith.CeilDivSIOp, arith.CeilDivUIOp, arith.FloorDivSIOp)
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        a = lowered(op.operands[0], rewriter)
        b = lowered(op.operands[1], rewriter)
        t = a.type
        signed = not isinstance(op, arith.CeilDivUIOp)
        ops: list[Operation] = []
        dividend, divisor = _safe_operands(a, b, signed, ops, quotient=True)
        quotient = (llvm.SDivOp if signed else llvm.UDivOp)(dividend, divisor)
        remainder = (llvm.SRemOp if signed else llvm.URemOp)(dividend, divisor)
        ops += [quotient, remainder]
        zero = _integer_constant(0, t)
        one = _integer_constant(1, t)
        ops += [zero, one]
        inexact = llvm.ICmpOp(remainder.res, zero.result, IntegerAttr(1, 64))  # ne
        ops.append(inexact)
        adjust: SSAValue = inexact.res
        if signed:
            rem_negative = llvm.ICmpOp(remainder.res, zero.result, IntegerAttr(2, 64))
            div_negative = llvm.ICmpOp(b, zero.result, IntegerAttr(2, 64))
            same_sign = llvm.ICmpOp(
                rem_negative.res,
                div_negative.res,
                IntegerAttr(0 if isinstance(op, arith.CeilDivSIOp) else 1, 64),
            )
            both = llvm.AndOp(inexact.res, same_sign.res)
            ops += [rem_negative, div_negative, same_sign, both]
            adjust = both.res
        if isinstance(op, arith.FloorDivSIOp):
            step = llvm.SubOp(quotient.res, one.result)
        else:
            step = llvm.AddOp(quotient.res, one.result)
        select = upstream_llvm.SelectOp(adjust, step.res, quotient.res)
        ops += [step, select]
        replace_with(op, ops, [select.res], rewriter, partial=self.partial)


ARITH_PATTERNS: tuple[type[ToLLVMPattern], ...] = (
    IntBinaryToLLVM,
    DivRemToLLVM,
    FloatBinaryToLLVM,
    MinMaxToLLVM,
    NegfToLLVM,
    ConstantToLLVM,
    CmpiToLLVM,
    CmpfToLLVM,
    SelectToLLVM,
    IntCastToLLVM,
    ValueCastToLLVM,
    DivRoundingToLLVM,
)
