"""compiler-rt's conversions to `bfloat` and `half` that LLVM's code generator
calls, as LLVM IR compiled into the modules that need them.

A host CPU without a conversion instruction (float -> bf16 before AVX512-BF16,
double -> f16 everywhere on x86) gets a call to `__truncsfbf2`,
`__truncdfbf2` or `__truncdfhf2`; MCJIT finds no compiler-rt in the process,
and the call would jump to address 0. Rounding is to nearest, ties to even, as
compiler-rt's: float -> bf16 on the bits; double -> bf16 / f16 through a float
rounded to odd (exact when the float keeps two more bits than the target,
which it does for both).
"""

from __future__ import annotations

import re

_BUILTINS = """define bfloat @__truncsfbf2(float %x) {
  %bits = bitcast float %x to i32
  %upper = lshr i32 %bits, 16
  %lsb = and i32 %upper, 1
  %bias = add i32 %lsb, 32767
  %biased = add i32 %bits, %bias
  %rounded = lshr i32 %biased, 16
  %quiet = or i32 %upper, 64
  %nan = fcmp uno float %x, 0.0
  %result = select i1 %nan, i32 %quiet, i32 %rounded
  %short = trunc i32 %result to i16
  %b = bitcast i16 %short to bfloat
  ret bfloat %b
}

define internal float @__xsparse_round_to_odd(double %x) {
  %f = fptrunc double %x to float
  %back = fpext float %f to double
  %exact = fcmp ueq double %back, %x
  %bits = bitcast float %f to i32
  %magnitude = call double @llvm.fabs.f64(double %x)
  %back_magnitude = call double @llvm.fabs.f64(double %back)
  %away = fcmp ogt double %back_magnitude, %magnitude
  %toward = sub i32 %bits, 1
  %truncated = select i1 %away, i32 %toward, i32 %bits
  %odd = or i32 %truncated, 1
  %result = select i1 %exact, i32 %bits, i32 %odd
  %r = bitcast i32 %result to float
  ret float %r
}

define bfloat @__truncdfbf2(double %x) {
  %f = call float @__xsparse_round_to_odd(double %x)
  %b = call bfloat @__truncsfbf2(float %f)
  ret bfloat %b
}

define half @__truncdfhf2(double %x) {
  %f = call float @__xsparse_round_to_odd(double %x)
  %h = fptrunc float %f to half
  ret half %h
}
"""

_FABS = "declare double @llvm.fabs.f64(double)\n"

_NARROW_FLOAT = re.compile(r"\b(?:bfloat|half)\b")


def float_builtins_ir(ir: str) -> str:
    """The builtins, for a module `ir` that computes in bf16 or f16 (nothing
    otherwise)."""
    if not _NARROW_FLOAT.search(ir):
        return ""
    fabs = "" if "@llvm.fabs.f64(" in ir else _FABS
    return "\n" + _BUILTINS + fabs
