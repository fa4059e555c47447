"""Conversions to bf16 and f16 in compiled kernels (`xsparse.backend.float_builtins`):
rounded to nearest, ties to even, as numpy rounds to f16 and as an exact
reference rounds to bf16; no call into a missing compiler-rt (a crash)."""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest

import xsparse

ROUND_TRIP = """
func.func @round_trip(%x: memref<?x{wide}>, %y: memref<?x{wide}>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?x{wide}>
  scf.for %i = %c0 to %n step %c1 {{
    %v = memref.load %x[%i] : memref<?x{wide}>
    %t = arith.truncf %v : {wide} to {narrow}
    %w = arith.extf %t : {narrow} to {wide}
    memref.store %w, %y[%i] : memref<?x{wide}>
  }}
  return
}}
"""


def bf16_reference(x: float) -> float:
    """`x` rounded to bf16 (8 significant bits, float's exponent range)."""
    if math.isnan(x) or math.isinf(x) or x == 0:
        return x
    quantum = 2.0 ** max(math.frexp(x)[1] - 8, -133)
    rounded = round(x / quantum) * quantum  # exact scaling, ties to even
    return math.copysign(math.inf, x) if abs(rounded) >= 2.0**128 else rounded


def samples(
    dtype: type[np.floating[object]],
) -> np.ndarray[tuple[int], np.dtype[np.float64]]:
    rng = np.random.default_rng(7)
    special = [0.0, -0.0, 1.0, 1.00390625, 1.01171875, 65504.0, 65520.0, 3.4e38]
    special += [2.0**-133, 2.0**-134, 3 * 2.0**-135, 2.0**-126, 2.0**-24, 2.0**-25]
    special += [math.inf, -math.inf, 1.0e300, 1.0e-300]
    random = rng.standard_normal(2000) * np.exp2(rng.integers(-140, 130, 2000))
    # values one float ulp from a bf16 halfway point: double rounding shows there
    halfway = [
        struct.unpack("<f", struct.pack("<I", (b << 16) | 0x8000))[0]
        for b in rng.integers(0x0080, 0x7F00, 200)
    ]
    nudged = [h * (1 + s * 2.0**-40) for h in halfway for s in (-1, 1)]
    values = np.array(special + list(random) + halfway + nudged, dtype=np.float64)
    values = np.concatenate([values, -values])
    with np.errstate(over="ignore"):
        return values.astype(dtype).astype(np.float64)


def f16_reference(x: float) -> float:
    with np.errstate(over="ignore"):
        return float(np.float16(x))


@pytest.mark.parametrize("narrow", ["bf16", "f16"])
@pytest.mark.parametrize("wide", ["f32", "f64"])
def test_rounding(wide: str, narrow: str) -> None:
    kernel = xsparse.compile(ROUND_TRIP.format(wide=wide, narrow=narrow))
    dtype = np.float32 if wide == "f32" else np.float64
    x = samples(dtype).astype(dtype)
    y = np.zeros_like(x)
    kernel(x, y)
    reference = bf16_reference if narrow == "bf16" else f16_reference
    expected = np.array([reference(float(v)) for v in x], dtype=dtype)
    np.testing.assert_array_equal(y, expected)


def test_nan_stays_nan() -> None:
    kernel = xsparse.compile(ROUND_TRIP.format(wide="f64", narrow="bf16"))
    x = np.array([math.nan, -math.nan, 1.0])
    y = np.zeros_like(x)
    kernel(x, y)
    assert math.isnan(y[0]) and math.isnan(y[1]) and y[2] == 1.0


TRUNCATE_VECTOR = """
define void @truncate(ptr %x, ptr %y) {
  %v = load <16 x float>, ptr %x
  %t = fptrunc <16 x float> %v to <16 x bfloat>
  store <16 x bfloat> %t, ptr %y
  ret void
}
"""


@pytest.mark.parametrize("cpu", ["znver4", "sapphirerapids", "znver5"])
def test_no_flushing_bf16_instruction(cpu: str) -> None:
    """On CPUs with AVX512-BF16 (whose `vcvtneps2bf16` flushes subnormals to
    zero) the code generator is kept off it: without `exact_features` it
    emits the instruction, with them it rounds on the bits."""
    import llvmlite.binding as llvm

    from xsparse.backend.jit import exact_features

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    target = llvm.Target.from_triple("x86_64-unknown-linux-gnu")

    def assembly(features: str) -> str:
        machine = target.create_target_machine(cpu=cpu, features=features, opt=2)
        module = llvm.parse_assembly(TRUNCATE_VECTOR)
        return machine.emit_assembly(module)

    assert "vcvtneps2bf16" in assembly("+avx512bf16")
    assert "vcvtneps2bf16" not in assembly(exact_features("+avx512bf16,+avx512f"))
