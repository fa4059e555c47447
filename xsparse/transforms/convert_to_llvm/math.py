"""math -> llvm intrinsics, or libm calls where LLVM has no intrinsic
(mirrors MLIR's `convert-math-to-llvm` + `convert-math-to-libm`)."""

from __future__ import annotations

from xdsl.dialects import llvm, math
from xdsl.dialects.builtin import Float32Type, IntegerAttr, VectorType, i1
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.utils.exceptions import DiagnosticException

from xsparse.transforms.convert_to_llvm.common import (
    ToLLVMPattern,
    call_intrinsic,
    declare_function,
    lowered,
    lowering_of,
    mangle,
    replace_with,
)

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
    """Scalar math ops without an intrinsic -> a call of libm's `tanh`/`tanhf`/..."""

    @lowering_of(*_LIBM)
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        t = op.results[0].type
        if isinstance(t, VectorType):
            raise DiagnosticException(f"'{op.name}' on vectors is not supported")
        name = _LIBM[type(op)] + ("f" if isinstance(t, Float32Type) else "")
        args: list[SSAValue] = [lowered(v, rewriter) for v in op.operands]
        declare_function(op, name, llvm.LLVMFunctionType([a.type for a in args], t))
        call = llvm.CallOp(name, *args, return_type=t)
        assert call.returned is not None
        replace_with(op, [call], [call.returned], rewriter, partial=self.partial)


MATH_PATTERNS: tuple[type[ToLLVMPattern], ...] = (MathToIntrinsic, MathToLibm)
