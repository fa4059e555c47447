"""arith -> llvm (mirrors MLIR's `convert-arith-to-llvm`, plus the expansions of
`arith-expand` for ceil/floor division and min/max through LLVM intrinsics).

The index type becomes i64; vectors are lowered element-wise by the llvm ops
themselves.
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
from xsparse.dialects.xdsl_ext import FPToSIOp, FPToUIOp, IndexCastUIOp, UIToFPOp
from xsparse.transforms.convert_to_llvm.common import (
    ToLLVMPattern,
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
    arith.DivSIOp: llvm.SDivOp,
    arith.DivUIOp: llvm.UDivOp,
    arith.RemSIOp: llvm.SRemOp,
    arith.RemUIOp: llvm.URemOp,
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
    if isinstance(value, DenseIntOrFPElementsAttr) and is_vector_type(t):
        if isinstance(value.get_element_type(), IndexType):
            # an index vector constant: `t` is its converted integer vector type
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
        new = llvm.SelectOp(
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
        return llvm.TruncOp(value, to)
    return llvm.SExtOp(value, to) if signed else llvm.ZExtOp(value, to)


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
        new = _CASTS[type(op)](value, to)
        replace_with(op, [new], [new.result], rewriter, partial=self.partial)


class DivRoundingToLLVM(ToLLVMPattern):
    """`ceildivsi`, `ceildivui`, `floordivsi` -> div, rem and a select (as `arith-expand`)."""

    @lowering_of(arith.CeilDivSIOp, arith.CeilDivUIOp, arith.FloorDivSIOp)
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        a = lowered(op.operands[0], rewriter)
        b = lowered(op.operands[1], rewriter)
        t = a.type
        unsigned = isinstance(op, arith.CeilDivUIOp)
        quotient = (llvm.UDivOp if unsigned else llvm.SDivOp)(a, b)
        remainder = (llvm.URemOp if unsigned else llvm.SRemOp)(a, b)
        # lowered integer operands (index is i64 by now)
        int_t = cast(IntegerType, t)
        zero = llvm.ConstantOp(IntegerAttr(0, int_t), t)
        one = llvm.ConstantOp(IntegerAttr(1, int_t), t)
        ops: list[Operation] = [quotient, remainder, zero, one]
        inexact = llvm.ICmpOp(remainder.res, zero.result, IntegerAttr(1, 64))  # ne
        ops.append(inexact)
        adjust: SSAValue = inexact.res
        if not unsigned:
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
        select = llvm.SelectOp(adjust, step.res, quotient.res)
        ops += [step, select]
        replace_with(op, ops, [select.res], rewriter, partial=self.partial)


ARITH_PATTERNS: tuple[type[ToLLVMPattern], ...] = (
    IntBinaryToLLVM,
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
