"""complex -> arith and math on the parts -> llvm.

Mirrors MLIR 22's `convert-complex-to-standard` (ComplexToStandard.cpp, with
its default `complex-range=improved` division of DivisionConverter.cpp),
which the sparsifier pipeline runs before `convert-complex-to-llvm`: every
complex op but `complex.constant`, `create`, `re` and `im` becomes float
arithmetic on the real and imaginary parts, by MLIR's formulas (so that
results agree with MLIR's to the last printed digit); then those four become
llvm struct operations on `!llvm.struct<(fN, fN)>`, the type a complex number
lowers to (`common.convert_type`).

`complex.pow`, `powi`, `rsqrt`, `atan2` and `bitcast` are refused with a
located error: no kernel of xsparse's produces them.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith, complex, llvm, math
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import (
    AnyFloat,
    ComplexType,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    i1,
    i64,
)
from xdsl.dialects.utils.fast_math import FastMathFlag
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
)

from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.dialects.upstream.llvm import PoisonOp
from xsparse.transforms.convert_to_llvm.common import (
    ToLLVMPattern,
    convert_type,
    lowered,
    lowering,
    lowering_of,
    replace_with,
)
from xsparse.transforms.errors import PassFailure
from xsparse.xdsl_adapter import IterativeRewriteWalker

NAN_INF = frozenset((FastMathFlag.NO_NANS, FastMathFlag.NO_INFS))


@dataclass
class Parts:
    """Inserts the float ops of one complex op's expansion before it (MLIR's
    `ImplicitLocOpBuilder` with the op's fastmath flags)."""

    rewriter: PatternRewriter
    element: AnyFloat
    fmf: FastMathFlagsAttr

    def __call__(self, op: Operation) -> SSAValue:
        self.rewriter.insert_op(op)
        return op.results[0]

    @property
    def finite(self) -> bool:
        """Whether the flags promise neither NaNs nor infinities (MLIR then
        leaves out the special cases)."""
        return self.fmf.data >= NAN_INF

    @property
    def fmf_nan_inf(self) -> FastMathFlagsAttr:
        """The flags without `nnan` and `ninf`."""
        return FastMathFlagsAttr(self.fmf.data - NAN_INF)

    def const(self, v: float) -> SSAValue:
        return self(arith.ConstantOp(FloatAttr(v, self.element)))

    def re(self, z: SSAValue) -> SSAValue:
        return self(complex.ReOp(z))

    def im(self, z: SSAValue) -> SSAValue:
        return self(complex.ImOp(z))

    def create(self, re: SSAValue, im: SSAValue) -> SSAValue:
        return self(complex.CreateOp(re, im, ComplexType(self.element)))

    def add(
        self, a: SSAValue, b: SSAValue, f: FastMathFlagsAttr | None = None
    ) -> SSAValue:
        return self(arith.AddfOp(a, b, self.fmf if f is None else f))

    def sub(
        self, a: SSAValue, b: SSAValue, f: FastMathFlagsAttr | None = None
    ) -> SSAValue:
        return self(arith.SubfOp(a, b, self.fmf if f is None else f))

    def mul(
        self, a: SSAValue, b: SSAValue, f: FastMathFlagsAttr | None = None
    ) -> SSAValue:
        return self(arith.MulfOp(a, b, self.fmf if f is None else f))

    def div(
        self, a: SSAValue, b: SSAValue, f: FastMathFlagsAttr | None = None
    ) -> SSAValue:
        return self(arith.DivfOp(a, b, self.fmf if f is None else f))

    def neg(self, a: SSAValue) -> SSAValue:
        return self(arith.NegfOp(a))

    def cmp(self, a: SSAValue, predicate: str, b: SSAValue) -> SSAValue:
        return self(arith.CmpfOp(a, b, predicate))

    def select(self, cond: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self(upstream_arith.SelectOp(cond, a, b))

    def both(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self(arith.AndIOp(a, b))

    def either(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self(arith.OrIOp(a, b))

    def unary(
        self, op: type[math.FloatingPointLikeUnaryMathOperation], a: SSAValue
    ) -> SSAValue:
        return self(op(a, self.fmf))

    def binary(
        self,
        op: type[math.FloatingPointLikeBinaryMathOperation],
        a: SSAValue,
        b: SSAValue,
    ) -> SSAValue:
        return self(op(a, b, self.fmf))

    def fma(self, a: SSAValue, b: SSAValue, c: SSAValue) -> SSAValue:
        return self(math.FmaOp(a, b, c, self.fmf))


def abs_of(p: Parts, re: SSAValue, im: SSAValue, sqrt: bool = False) -> SSAValue:
    """|re + i im| (MLIR's `computeAbs`), or its square root with `sqrt`:
    max * sqrt(1 + (min/max)^2), min where that is NaN."""
    one = p.const(1.0)
    abs_re = p.unary(math.AbsFOp, re)
    abs_im = p.unary(math.AbsFOp, im)
    largest = p(arith.MaximumfOp(abs_re, abs_im, p.fmf))
    smallest = p(arith.MinimumfOp(abs_re, abs_im, p.fmf))
    f = p.fmf_nan_inf
    ratio = p.div(smallest, largest, f)
    ratio_sq_plus_one = p.add(p.mul(ratio, ratio, f), one, f)
    if sqrt:
        quarter = p.const(0.25)
        root = p(math.SqrtOp(largest, f))
        result = p.mul(root, p(math.PowFOp(ratio_sq_plus_one, quarter, f)), f)
    else:
        result = p.mul(largest, p(math.SqrtOp(ratio_sq_plus_one, f)), f)
    return p.select(p(arith.CmpfOp(result, result, "uno", f)), smallest, result)


Expansion = Callable[[Parts, Operation], SSAValue]


def _abs(p: Parts, op: Operation) -> SSAValue:
    z = op.operands[0]
    return abs_of(p, p.re(z), p.im(z))


def _angle(p: Parts, op: Operation) -> SSAValue:
    z = op.operands[0]
    return p.binary(math.Atan2Op, p.im(z), p.re(z))


def _parts_binary(
    float_op: type[arith.FloatingPointLikeBinaryOperation],
) -> Expansion:
    """An op applied to the real parts and to the imaginary parts (add, sub)."""

    def expand(p: Parts, op: Operation) -> SSAValue:
        a, b = op.operands
        re = p(float_op(p.re(a), p.re(b), p.fmf))
        im = p(float_op(p.im(a), p.im(b), p.fmf))
        return p.create(re, im)

    return expand


def _compare(predicate: str, combine: type[arith.AndIOp | arith.OrIOp]) -> Expansion:
    """`complex.eq` (both parts equal) and `complex.neq` (either differs)."""

    def expand(p: Parts, op: Operation) -> SSAValue:
        a, b = op.operands
        re = p.cmp(p.re(a), predicate, p.re(b))
        im = p.cmp(p.im(a), predicate, p.im(b))
        return p(combine(re, im))

    return expand


def _mul(p: Parts, op: Operation) -> SSAValue:
    a, b = op.operands
    ar, ai, br, bi = p.re(a), p.im(a), p.re(b), p.im(b)
    re = p.sub(p.mul(ar, br), p.mul(ai, bi))
    im = p.add(p.mul(ai, br), p.mul(ar, bi))
    return p.create(re, im)


def _div(p: Parts, op: Operation) -> SSAValue:
    """Smith's range reduction with MLIR's corner cases (zero and infinite
    denominators, infinite numerators)."""
    a, b = op.operands
    ar, ai, br, bi = p.re(a), p.im(a), p.re(b), p.im(b)
    # |br| < |bi|: divide through by bi; else by br
    r1 = p.div(br, bi)
    d1 = p.add(bi, p.mul(r1, br))
    re1 = p.div(p.add(p.mul(ar, r1), ai), d1)
    im1 = p.div(p.sub(p.mul(ai, r1), ar), d1)
    r2 = p.div(bi, br)
    d2 = p.add(br, p.mul(r2, bi))
    re2 = p.div(p.add(ar, p.mul(ai, r2)), d2)
    im2 = p.div(p.sub(ai, p.mul(ar, r2)), d2)
    zero, one, inf = p.const(0.0), p.const(1.0), p.const(pymath.inf)
    abs_br, abs_bi = p.unary(math.AbsFOp, br), p.unary(math.AbsFOp, bi)
    # 1: a zero denominator, a numerator with at most one NaN part
    b_zero = p.both(p.cmp(abs_br, "oeq", zero), p.cmp(abs_bi, "oeq", zero))
    a_number = p.either(p.cmp(ar, "ord", zero), p.cmp(ai, "ord", zero))
    to_infinity = p.both(a_number, b_zero)
    signed_inf = p.binary(math.CopySignOp, inf, br)
    re_case1, im_case1 = p.mul(signed_inf, ar), p.mul(signed_inf, ai)
    # 2: an infinite numerator, a finite denominator
    b_finite = p.both(p.cmp(abs_br, "one", inf), p.cmp(abs_bi, "one", inf))
    abs_ar, abs_ai = p.unary(math.AbsFOp, ar), p.unary(math.AbsFOp, ai)
    ar_inf, ai_inf = p.cmp(abs_ar, "oeq", inf), p.cmp(abs_ai, "oeq", inf)
    inf_by_finite = p.both(p.either(ar_inf, ai_inf), b_finite)
    ar_sign = p.binary(math.CopySignOp, p.select(ar_inf, one, zero), ar)
    ai_sign = p.binary(math.CopySignOp, p.select(ai_inf, one, zero), ai)
    re_case2 = p.mul(inf, p.add(p.mul(ar_sign, br), p.mul(ai_sign, bi)))
    im_case2 = p.mul(inf, p.sub(p.mul(ai_sign, br), p.mul(ar_sign, bi)))
    # 3: a finite numerator, an infinite denominator
    a_finite = p.both(p.cmp(abs_ar, "one", inf), p.cmp(abs_ai, "one", inf))
    br_inf, bi_inf = p.cmp(abs_br, "oeq", inf), p.cmp(abs_bi, "oeq", inf)
    finite_by_inf = p.both(a_finite, p.either(br_inf, bi_inf))
    br_sign = p.binary(math.CopySignOp, p.select(br_inf, one, zero), br)
    bi_sign = p.binary(math.CopySignOp, p.select(bi_inf, one, zero), bi)
    re_case3 = p.mul(zero, p.add(p.mul(ar, br_sign), p.mul(ai, bi_sign)))
    im_case3 = p.mul(zero, p.sub(p.mul(ai, br_sign), p.mul(ar, bi_sign)))
    by_im = p.cmp(abs_br, "olt", abs_bi)
    re = p.select(by_im, re1, re2)
    im = p.select(by_im, im1, im2)
    re_special = p.select(
        to_infinity,
        re_case1,
        p.select(inf_by_finite, re_case2, p.select(finite_by_inf, re_case3, re)),
    )
    im_special = p.select(
        to_infinity,
        im_case1,
        p.select(inf_by_finite, im_case2, p.select(finite_by_inf, im_case3, im)),
    )
    nan = p.both(p.cmp(re, "uno", zero), p.cmp(im, "uno", zero))
    return p.create(p.select(nan, re_special, re), p.select(nan, im_special, im))


def _neg(p: Parts, op: Operation) -> SSAValue:
    z = op.operands[0]
    return p.create(p.neg(p.re(z)), p.neg(p.im(z)))


def _conj(p: Parts, op: Operation) -> SSAValue:
    z = op.operands[0]
    return p.create(p.re(z), p.neg(p.im(z)))


def _exp(p: Parts, op: Operation) -> SSAValue:
    z = op.operands[0]
    re, im = p.re(z), p.im(z)
    scale = p.unary(math.ExpOp, re)
    cos = p.unary(math.CosOp, im)
    sin = p.unary(math.SinOp, im)
    return p.create(p.mul(scale, cos), p.mul(scale, sin))


COSM1_COEFFICIENTS = (
    4.7377507964246204691685e-14,
    -1.1470284843425359765671e-11,
    2.0876754287081521758361e-9,
    -2.7557319214999787979814e-7,
    2.4801587301570552304991e-5,
    -1.3888888888888872993737e-3,
    4.1666666666666666609054e-2,
)
"""cephes' `cosm1` polynomial in x^2, as MLIR's expm1 expansion uses it."""


def _cosm1(p: Parts, x: SSAValue) -> SSAValue:
    """cos(x) - 1, accurate for small x (cephes' cosm1)."""
    large = p.add(p.unary(math.CosOp, x), p.const(-1.0))
    x2 = p.mul(x, x)
    x4 = p.mul(x2, x2)
    poly = p.const(COSM1_COEFFICIENTS[0])
    for c in COSM1_COEFFICIENTS[1:]:
        poly = p.fma(poly, x2, p.const(c))
    small = p.add(p.mul(x4, poly), p.mul(p.const(-0.5), x2), FastMathFlagsAttr("none"))
    # (pi/4)^2 is about 0.61685
    return p.select(p.cmp(x2, "oge", p.const(0.61685)), large, small)


def _expm1(p: Parts, op: Operation) -> SSAValue:
    """exp(z) - 1 = (expm1(re) cos(im) + cosm1(im)) + i exp(re) sin(im)."""
    z = op.operands[0]
    re, im = p.re(z), p.im(z)
    zero, one = p.const(0.0), p.const(1.0)
    expm1_re = p.unary(math.ExpM1Op, re)
    exp_re = p.add(expm1_re, one)
    sin_im = p.unary(math.SinOp, im)
    cosm1_im = _cosm1(p, im)
    cos_im = p.add(cosm1_im, one)
    real = p.add(p.mul(expm1_re, cos_im), cosm1_im)
    im_zero = p(arith.CmpfOp(im, zero, "oeq", p.fmf))
    return p.create(real, p.select(im_zero, zero, p.mul(exp_re, sin_im)))


def _log(p: Parts, op: Operation) -> SSAValue:
    z = op.operands[0]
    re, im = p.re(z), p.im(z)
    log_abs = p.unary(math.LogOp, abs_of(p, re, im))
    return p.create(log_abs, p.binary(math.Atan2Op, im, re))


def _log1p(p: Parts, op: Operation) -> SSAValue:
    """log(1 + z), with the real part as log1p of the larger part and of the
    squared ratio of the smaller to it."""
    z = op.operands[0]
    re, im = p.re(z), p.im(z)
    half, one = p.const(0.5), p.const(1.0)
    re_plus_one = p.add(re, one)
    abs_re_plus_one = p.unary(math.AbsFOp, re_plus_one)
    abs_im = p.unary(math.AbsFOp, im)
    largest = p(arith.MaximumfOp(abs_re_plus_one, abs_im, p.fmf))
    smallest = p(arith.MinimumfOp(abs_re_plus_one, abs_im, p.fmf))
    use_re = p(arith.CmpfOp(re_plus_one, abs_im, "ogt", p.fmf))
    largest_minus_one = p.select(use_re, re, p.sub(largest, one))
    f = p.fmf_nan_inf
    ratio = p.div(smallest, largest, f)
    log_largest = p.unary(math.Log1pOp, largest_minus_one)
    log_ratio = p(math.Log1pOp(p.mul(ratio, ratio, f), f))
    r = p.add(p.mul(half, log_ratio, f), log_largest, f)
    real = p.select(p(arith.CmpfOp(r, r, "uno", f)), smallest, r)
    return p.create(real, p.binary(math.Atan2Op, im, re_plus_one))


def _sin_or_cos(is_sin: bool) -> Expansion:
    """sin and cos through t = exp(im): with s = sin(re), c = cos(re),
    sin z = (t/2 + 1/2t) s + i (t/2 - 1/2t) c and
    cos z = (1/2t + t/2) c + i (1/2t - t/2) s."""

    def expand(p: Parts, op: Operation) -> SSAValue:
        z = op.operands[0]
        re, im = p.re(z), p.im(z)
        half = p.const(0.5)
        exp = p.unary(math.ExpOp, im)
        scaled = p.mul(half, exp)
        reciprocal = p.div(half, exp)
        sin = p.unary(math.SinOp, re)
        cos = p.unary(math.CosOp, re)
        if is_sin:
            real = p.mul(p.add(scaled, reciprocal), sin)
            return p.create(real, p.mul(p.sub(scaled, reciprocal), cos))
        real = p.mul(p.add(reciprocal, scaled), cos)
        return p.create(real, p.mul(p.sub(reciprocal, scaled), sin))

    return expand


def _sqrt(p: Parts, op: Operation) -> SSAValue:
    """sqrt(|z|) (cos(arg/2) + i sin(arg/2)), with MLIR's infinities, NaNs
    and zeros."""
    z = op.operands[0]
    re, im = p.re(z), p.im(z)
    zero, half = p.const(0.0), p.const(0.5)
    abs_sqrt = abs_of(p, re, im, sqrt=True)
    half_arg = p.mul(p.binary(math.Atan2Op, im, re), half)
    cos = p.unary(math.CosOp, half_arg)
    sin = p.unary(math.SinOp, half_arg)
    sin_zero = p(arith.CmpfOp(sin, zero, "oeq", p.fmf))
    real = p.mul(abs_sqrt, cos)
    imag = p.select(sin_zero, zero, p.mul(abs_sqrt, sin))
    if not p.finite:
        inf, neg_inf, nan = (p.const(v) for v in (pymath.inf, -pymath.inf, pymath.nan))
        abs_im = p.unary(math.AbsFOp, im)
        im_inf = p(arith.CmpfOp(abs_im, inf, "oeq", p.fmf))
        im_not_inf = p(arith.CmpfOp(abs_im, inf, "one", p.fmf))
        re_inf = p(arith.CmpfOp(re, inf, "oeq", p.fmf))
        re_neg_inf = p(arith.CmpfOp(re, neg_inf, "oeq", p.fmf))
        real = p.select(p.both(re_neg_inf, im_not_inf), zero, real)
        real = p.select(p.either(im_inf, re_inf), inf, real)
        signed_inf = p.binary(math.CopySignOp, inf, im)
        imag = p.select(p.cmp(abs_sqrt, "uno", abs_sqrt), nan, imag)
        imag = p.select(p.either(im_inf, re_neg_inf), signed_inf, imag)
    is_zero = p(arith.CmpfOp(abs_sqrt, zero, "oeq", p.fmf))
    return p.create(p.select(is_zero, zero, real), p.select(is_zero, zero, imag))


def _sign(p: Parts, op: Operation) -> SSAValue:
    """z / |z|, and z itself where z is zero."""
    z = op.operands[0]
    re, im = p.re(z), p.im(z)
    zero = p.const(0.0)
    is_zero = p.both(p.cmp(re, "oeq", zero), p.cmp(im, "oeq", zero))
    magnitude = abs_of(p, re, im)
    sign = p.create(p.div(re, magnitude), p.div(im, magnitude))
    return p.select(is_zero, z, sign)


def _tan_or_tanh(is_tan: bool) -> Expansion:
    """tanh(x + iy) = (e^2x - e^-2x + 4i cos y sin y) / (e^2x + e^-2x - 2 +
    4 cos^2 y) with both exponentials as expm1, the limit +-1 where they
    overflow; tan(x + iy) = -i tanh(-y + ix)."""

    def expand(p: Parts, op: Operation) -> SSAValue:
        z = op.operands[0]
        re, im = p.re(z), p.im(z)
        neg_one = p.const(-1.0)
        if is_tan:
            re, im = p.mul(im, neg_one), re
        inf, four = p.const(pymath.inf), p.const(4.0)
        two_re = p.add(re, re)
        expm1_pos = p.unary(math.ExpM1Op, two_re)
        expm1_neg = p.unary(math.ExpM1Op, p.mul(neg_one, two_re))
        real_num = p.sub(expm1_pos, expm1_neg)
        cos_im = p.unary(math.CosOp, im)
        four_cos_sq = p.mul(p.mul(cos_im, cos_im), four)
        sin_im = p.unary(math.SinOp, im)
        imag_num = p.mul(four, p.mul(cos_im, sin_im))
        exp_sum_minus_two = p.add(expm1_pos, expm1_neg)
        denominator = p.add(exp_sum_minus_two, four_cos_sq)
        overflows = p(arith.CmpfOp(exp_sum_minus_two, inf, "oeq", p.fmf))
        limit = p.binary(math.CopySignOp, neg_one, re)
        real = p.select(overflows, limit, p.div(real_num, denominator))
        imag = p.div(imag_num, denominator)
        if not p.finite:
            zero, nan = p.const(0.0), p.const(pymath.nan)
            abs_re_inf = p(arith.CmpfOp(p.unary(math.AbsFOp, re), inf, "oeq", p.fmf))
            im_zero = p(arith.CmpfOp(im, zero, "oeq", p.fmf))
            true = p(arith.ConstantOp(IntegerAttr(1, i1)))
            abs_re_finite = p(arith.XOrIOp(abs_re_inf, true))
            imag_num_nan = p(arith.CmpfOp(imag_num, imag_num, "uno", p.fmf))
            real_nan = p.both(imag_num_nan, abs_re_finite)
            imag_zero = p.either(im_zero, p.both(abs_re_inf, imag_num_nan))
            real = p.select(real_nan, nan, real)
            imag = p.select(imag_zero, zero, imag)
        if is_tan:
            real, imag = imag, p.mul(real, neg_one)
        return p.create(real, imag)

    return expand


EXPANSIONS: dict[type[Operation], Expansion] = {
    complex.AbsOp: _abs,
    complex.AngleOp: _angle,
    complex.AddOp: _parts_binary(arith.AddfOp),
    complex.SubOp: _parts_binary(arith.SubfOp),
    complex.EqualOp: _compare("oeq", arith.AndIOp),
    complex.NotEqualOp: _compare("une", arith.OrIOp),
    complex.MulOp: _mul,
    complex.DivOp: _div,
    complex.NegOp: _neg,
    complex.ConjOp: _conj,
    complex.ExpOp: _exp,
    complex.Expm1Op: _expm1,
    complex.LogOp: _log,
    complex.Log1pOp: _log1p,
    complex.SinOp: _sin_or_cos(True),
    complex.CosOp: _sin_or_cos(False),
    complex.SqrtOp: _sqrt,
    complex.SignOp: _sign,
    complex.TanOp: _tan_or_tanh(True),
    complex.TanhOp: _tan_or_tanh(False),
}
"""Each complex op's expansion into float ops on the parts (MLIR's patterns
of the same names)."""

REFUSED = (complex.PowOp, complex.RsqrtOp, complex.Atan2Op, complex.BitcastOp)


def _element_of(op: Operation) -> AnyFloat:
    t = op.operands[0].type
    assert isinstance(t, ComplexType)
    element = t.element_type
    if not isinstance(element, AnyFloat):
        raise PassFailure(op, f"complex numbers of {element} are not supported")
    return element


class ExpandComplexOp(RewritePattern):
    """One complex op -> its expansion (`EXPANSIONS`)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, REFUSED):
            raise PassFailure(op, "is not supported")
        expansion = EXPANSIONS.get(type(op))
        if expansion is None:
            return
        fmf = op.properties.get("fastmath")
        parts = Parts(
            rewriter,
            _element_of(op),
            fmf if isinstance(fmf, FastMathFlagsAttr) else FastMathFlagsAttr("none"),
        )
        result = expansion(parts, op)
        rewriter.replace_op(op, [], [result])


class FoldPartOfCreate(RewritePattern):
    """`complex.re` / `complex.im` of a `complex.create` -> that part (MLIR's
    folders of ReOp and ImOp, which its dialect conversion applies)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, complex.ReOp | complex.ImOp):
            return
        create = op.operands[0].owner
        if isinstance(create, complex.CreateOp):
            part = create.real if isinstance(op, complex.ReOp) else create.imaginary
            rewriter.replace_op(op, [], [part])


def expand_complex(module: ModuleOp) -> None:
    """MLIR's `convert-complex-to-standard`."""
    IterativeRewriteWalker(
        GreedyRewritePatternApplier([ExpandComplexOp(), FoldPartOfCreate()]),
        apply_recursively=True,
    ).rewrite_module(module)


def _struct(
    op: Operation, re: SSAValue, im: SSAValue, rewriter: PatternRewriter, partial: bool
) -> None:
    """Replace `op` by the struct of `re` and `im` (`insertvalue`s into poison)."""
    poison = PoisonOp(convert_type(op.results[0].type))
    first = llvm.InsertValueOp(DenseArrayBase.from_list(i64, [0]), poison.res, re)
    second = llvm.InsertValueOp(DenseArrayBase.from_list(i64, [1]), first.res, im)
    replace_with(op, [poison, first, second], [second.res], rewriter, partial=partial)


class CreateToLLVM(ToLLVMPattern):
    """`complex.create` -> `insertvalue`s into a poison struct."""

    @lowering
    def match_and_rewrite(
        self, op: complex.CreateOp, rewriter: PatternRewriter
    ) -> None:
        re, im = lowered(op.real, rewriter), lowered(op.imaginary, rewriter)
        _struct(op, re, im, rewriter, self.partial)


class ConstantToLLVM(ToLLVMPattern):
    """`complex.constant [re, im]` -> the struct of two `llvm.mlir.constant`s."""

    @lowering
    def match_and_rewrite(
        self, op: complex.ConstantOp, rewriter: PatternRewriter
    ) -> None:
        t = op.complex.type
        assert isinstance(t, ComplexType)
        if not isinstance(t.element_type, AnyFloat):
            message = f"complex numbers of {t.element_type} are not supported"
            raise PassFailure(op, message)
        parts = [llvm.ConstantOp(v, t.element_type) for v in op.value.data]
        rewriter.insert(parts)
        _struct(op, parts[0].result, parts[1].result, rewriter, self.partial)


class PartToLLVM(ToLLVMPattern):
    """`complex.re` / `complex.im` -> `extractvalue` of field 0 / 1."""

    @lowering_of(complex.ReOp, complex.ImOp)
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        field = 0 if isinstance(op, complex.ReOp) else 1
        extract = llvm.ExtractValueOp(
            DenseArrayBase.from_list(i64, [field]),
            lowered(op.operands[0], rewriter),
            op.results[0].type,
        )
        replace_with(op, [extract], [extract.res], rewriter, partial=self.partial)


COMPLEX_PATTERNS: tuple[type[ToLLVMPattern], ...] = (
    ConstantToLLVM,
    CreateToLLVM,
    PartToLLVM,
)
