"""math -> llvm intrinsics, or libm calls where LLVM has no intrinsic
(mirrors MLIR's `convert-math-to-llvm` + `convert-math-to-libm`; as the
latter's `VecOpToScalarOp`, a libm op on a fixed-length 1-D vector calls libm
once per lane)."""

from __future__ import annotations

from xdsl.dialects import llvm, math
from xdsl.dialects.builtin import Float32Type, IntegerAttr, VectorType, i1
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xsparse.dialects.upstream.llvm import ExtractElementOp, PoisonOp
from xsparse.transforms.convert_to_llvm.common import (
    ToLLVMPattern,
    call_intrinsic,
    const,
    convert_type,
    declare_function,
    lowered,
    lowering_of,
    mangle,
    replace_with,
)
from xsparse.transforms.errors import PassFailure

_INTRINSICS: dict[type[Operation], str] = {
    math.SqrtOp: "llvm.sqrt",
    math.AbsFOp: "llvm.fabs",
    math.CeilOp: "llvm.ceil",
    math.FloorOp: "llvm.floor",
    math.ExpOp: "llvm.exp",
    math.Exp2Op: "llvm.exp2",
    math.LogOp: "llvm.log",
    math.Log2Op: "llvm.log2",
    math.Log10Op: "llvm.log10",
    math.SinOp: "llvm.sin",
    math.CosOp: "llvm.cos",
    math.TanOp: "llvm.tan",
    math.PowFOp: "llvm.pow",
    math.FmaOp: "llvm.fma",
    math.CopySignOp: "llvm.copysign",
    math.RoundOp: "llvm.round",
    math.RoundEvenOp: "llvm.roundeven",
    math.TruncOp: "llvm.trunc",
    math.CtPopOp: "llvm.ctpop",
}
_WITH_FLAG: dict[type[Operation], str] = {
    math.CountLeadingZerosOp: "llvm.ctlz",
    math.CountTrailingZerosOp: "llvm.cttz",
    math.AbsIOp: "llvm.abs",
}
_LIBM: dict[type[Operation], str] = {
    math.TanhOp: "tanh",
    math.SinhOp: "sinh",
    math.CoshOp: "cosh",
    math.AtanOp: "atan",
    math.AsinOp: "asin",
    math.AcosOp: "acos",
    math.Atan2Op: "atan2",
    math.ErfOp: "erf",
    math.CbrtOp: "cbrt",
    math.ExpM1Op: "expm1",
    math.Log1pOp: "log1p",
}


class MathToIntrinsic(ToLLVMPattern):
    """Math ops with an LLVM intrinsic -> `llvm.call_intrinsic`."""

    @lowering_of(*_INTRINSICS, *_WITH_FLAG)
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        args = [lowered(v, rewriter) for v in op.operands]
        t = op.results[0].type
        if type(op) in _WITH_FLAG:
            name = _WITH_FLAG[type(op)]
            flag = llvm.ConstantOp(IntegerAttr(0, i1), i1)
            rewriter.insert(flag)
            args.append(flag.result)
        else:
            name = _INTRINSICS[type(op)]
        result = call_intrinsic(f"{name}.{mangle(t)}", args, t, rewriter)
        assert result is not None
        replace_with(op, [], [result], rewriter, partial=self.partial)


class MathToLibm(ToLLVMPattern):
    """Math ops without an intrinsic -> a call of libm's `tanh`/`tanhf`/...,
    one per lane on a fixed-length 1-D vector."""

    @lowering_of(*_LIBM)
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        t = op.results[0].type
        args: list[SSAValue] = [lowered(v, rewriter) for v in op.operands]
        if not isinstance(t, VectorType):
            result = _libm_call(op, args, t, rewriter)
        elif t.get_num_dims() != 1 or t.get_num_scalable_dims():
            raise PassFailure(
                op, "on vectors other than fixed-length 1-D ones is not supported"
            )
        else:
            result = _per_lane(op, args, t, rewriter)
        replace_with(op, [], [result], rewriter, partial=self.partial)


def _libm_call(
    op: Operation, args: list[SSAValue], t: Attribute, rewriter: PatternRewriter
) -> SSAValue:
    """A call of `op`'s libm function (declared once) on scalars of type `t`."""
    name = _LIBM[type(op)] + ("f" if isinstance(t, Float32Type) else "")
    declare_function(op, name, llvm.LLVMFunctionType([a.type for a in args], t))
    call = llvm.CallOp(name, *args, return_type=t)
    rewriter.insert(call)
    assert call.returned is not None
    return call.returned


def _per_lane(
    op: Operation, args: list[SSAValue], t: VectorType, rewriter: PatternRewriter
) -> SSAValue:
    """The vector of `op`'s libm call on each lane of `args`."""
    vector: SSAValue = PoisonOp(convert_type(t)).res
    rewriter.insert(vector.owner)
    for lane in range(t.get_shape()[0]):
        position = const(lane, rewriter)
        elements = [ExtractElementOp(a, position) for a in args]
        rewriter.insert(elements)
        scalar = _libm_call(op, [e.res for e in elements], t.element_type, rewriter)
        insert = llvm.InsertElementOp(vector, scalar, position)
        rewriter.insert(insert)
        vector = insert.res
    return vector


MATH_PATTERNS: tuple[type[ToLLVMPattern], ...] = (MathToIntrinsic, MathToLibm)
