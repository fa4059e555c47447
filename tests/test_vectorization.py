"""Vectorized kernels (`xsparse.compile(..., vl=N)`) compute the scalar kernels' results.

Every kernel of tests/kernels runs on the same random data (fixed seeds, with
empty rows and ragged row lengths so that both the unmasked main loops and the
masked remainders run) scalar and with vl 4, 8 and 16, with and without 32-bit
gather indices. Sums are reassociated by the vector code, hence the tolerance.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse
from xsparse import SparseTensor
from xsparse.diagnostics import XSparseError

KERNELS = Path(__file__).parent / "kernels"
SV = "#sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>"
CSR32 = (
    "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed),"
    " posWidth = 32, crdWidth = 32 }>"
)
_compiled: dict[tuple[str, int, bool], Any] = {}


def kernel(name: str, vl: int = 1, index32: bool = False) -> Any:
    key = (name, vl, index32)
    if key not in _compiled:
        source = (KERNELS / f"{name}.mlir").read_text()
        _compiled[key] = xsparse.compile(source, vl=vl, enable_simd_index32=index32)
    return _compiled[key]


def sparse(
    rng: np.random.Generator, shape: tuple[int, ...], density: float
) -> np.ndarray:
    dense = rng.standard_normal(shape)
    dense[rng.random(shape) >= density] = 0
    if shape[0] > 2:
        dense[1] = 0  # an empty row
    if len(shape) == 2 and shape[0] > 3:
        dense[2, : min(shape[1], 21)] = 1.5  # a row longer than any vl
    return dense


Args = Callable[[np.random.Generator], list[Any]]

ARGS: dict[str, Args] = {
    "spmv_csr": lambda r: [
        sp.csr_array(sparse(r, (41, 67), 0.2)),
        r.random(67),
        r.random(41),
    ],
    "spmv_csc": lambda r: [
        sp.csc_array(sparse(r, (41, 67), 0.2)),
        r.random(67),
        r.random(41),
    ],
    "spmv_coo": lambda r: [
        sp.coo_array(sparse(r, (41, 67), 0.2)),
        r.random(67),
        r.random(41),
    ],
    "spmv_dcsr": lambda r: [sparse(r, (41, 67), 0.2), r.random(67), r.random(41)],
    "spmv_transposed_csr": lambda r: [
        sp.csr_array(sparse(r, (41, 67), 0.2)),
        r.random(41),
        np.zeros(67),
    ],
    "spmv_bsr": lambda r: [
        sp.bsr_array(sparse(r, (12, 10), 0.3), blocksize=(2, 2)),
        r.random(10),
        np.zeros(12),
    ],
    "spmv_csr_f32_w32": lambda r: [
        SparseTensor.from_scipy(
            sp.csr_array(sparse(r, (41, 67), 0.2).astype(np.float32)), CSR32
        ),
        r.random(67).astype(np.float32),
        np.zeros(41, np.float32),
    ],
    "spmm_csr": lambda r: [
        sp.csr_array(sparse(r, (37, 29), 0.2)),
        r.random((29, 8)),
        np.zeros((37, 8)),
    ],
    "sddmm_dense_out": lambda r: [
        sp.csr_array(sparse(r, (37, 29), 0.3)),
        r.random((37, 5)),
        r.random((5, 29)),
        r.random((37, 29)),
    ],
    "sparse_dot": lambda r: [
        SparseTensor.from_dense(sparse(r, (300,), 0.4), SV),
        SparseTensor.from_dense(sparse(r, (300,), 0.4), SV),
        np.zeros(()),
    ],
    "sparse_add_dense_out": lambda r: [
        SparseTensor.from_dense(sparse(r, (300,), 0.3), SV),
        SparseTensor.from_dense(sparse(r, (300,), 0.3), SV),
        np.full(300, 7.0),
    ],
    "sparse_sub_exp": lambda r: [
        SparseTensor.from_dense(sparse(r, (300,), 0.3), SV),
        SparseTensor.from_dense(sparse(r, (300,), 0.3), SV),
        np.zeros(300),
    ],
    "csr_mul_dcsr_dense_out": lambda r: [
        sp.csr_array(sparse(r, (37, 29), 0.4)),
        sparse(r, (37, 29), 0.5),
        np.full((37, 29), 3.0),
    ],
    "sum_all": lambda r: [sp.csr_array(sparse(r, (41, 67), 0.3)), np.zeros(())],
    "ttv_csf": lambda r: [sparse(r, (5, 6, 23), 0.5), r.random(23), np.zeros((5, 6))],
    "scale_index": lambda r: [
        sp.csr_array(sparse(r, (19, 31), 0.4)),
        np.full((19, 31), 5.0),
    ],
    "scale_in_place": lambda r: [sp.csr_array(sparse(r, (41, 67), 0.2))],
}


def test_every_kernel_has_arguments() -> None:
    names = {p.stem for p in KERNELS.glob("*.mlir")}
    assert names - set(ARGS) <= {"spmv_24"}  # 2:4 has no scipy constructor here


def _run(name: str, vl: int, index32: bool = False) -> Any:
    args = ARGS[name](np.random.default_rng(42))
    result = kernel(name, vl, index32)(*args)
    return result.to_dense() if isinstance(result, SparseTensor) else result


@pytest.mark.parametrize("vl", [4, 8, 16])
@pytest.mark.parametrize("name", sorted(ARGS))
def test_vector_matches_scalar(name: str, vl: int) -> None:
    expected = np.asarray(_run(name, 1))
    result = np.asarray(_run(name, vl))
    tol = 1e-4 if expected.dtype == np.float32 else 1e-10
    np.testing.assert_allclose(result, expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("name", ["spmv_csr_f32_w32", "spmv_csr", "sddmm_dense_out"])
def test_simd_index32(name: str) -> None:
    expected = np.asarray(_run(name, 1))
    result = np.asarray(_run(name, 8, index32=True))
    tol = 1e-4 if expected.dtype == np.float32 else 1e-10
    np.testing.assert_allclose(result, expected, rtol=tol, atol=tol)


def _llvm_ir(source: str, **options: Any) -> str:
    from xsparse.backend.lowering import lower_to_llvm
    from xsparse.diagnostics import parse_module
    from xsparse.dialect_registry import make_context
    from xsparse.transforms.pipeline import sparsifier_passes

    ctx = make_context()
    module = parse_module(ctx, source, "<source>")
    for p in sparsifier_passes(**options):
        p.apply(ctx, module)
    return lower_to_llvm(module).llvm_ir()


def test_vector_loops_are_generated() -> None:
    """The compiled vector kernel really runs vector code (LLVM IR has vectors)."""
    ir = _llvm_ir((KERNELS / "spmv_csr.mlir").read_text(), vl=8)
    assert re.search(r"<8 x double>", ir)
    # sparse-vector-peel: an unmasked main loop and a scalar epilogue, so no
    # masked memory intrinsics remain (and the gathers became scalar loads).
    assert "llvm.masked" not in ir


@pytest.mark.parametrize(
    "name", ["spmv_csr", "sum_all", "spmv_csr_f32_w32", "scale_index"]
)
def test_vla_compiles_for_sve(name: str) -> None:
    """Scalable vectors lower to `<vscale x N x T>` and compile for AArch64 SVE."""
    import llvmlite.binding as llvm

    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    try:
        target = llvm.Target.from_triple("aarch64-unknown-linux-gnu")
    except RuntimeError:
        pytest.skip("llvmlite is built without the AArch64 backend")
    machine = target.create_target_machine(cpu="generic", features="+sve", opt=3)
    source = (KERNELS / f"{name}.mlir").read_text()
    ir = _llvm_ir(source, vl=4, enable_vla_vectorization=True)
    assert "<vscale x 4 x" in ir and "@llvm.vscale.i64" in ir
    ir = re.sub(r"^target (triple|datalayout).*\n", "", ir, flags=re.M)
    module = llvm.parse_assembly(ir)
    module.triple = "aarch64-unknown-linux-gnu"
    module.data_layout = str(machine.target_data)
    module.verify()
    asm = machine.emit_assembly(module)
    # SVE: vector-length-agnostic counts and predicated SVE loads on z registers.
    assert re.search(r"\b(cntd|cntw|rdvl|incd|incw)\b", asm)
    assert re.search(r"\bld1[dw]\s+\{?\s*z\d+", asm)


# Integer division and complex elements -------------------------------------

DIVISION = """
#SV = #sparse_tensor.encoding<{{ map = (i) -> (i : compressed) }}>
#map = affine_map<(i) -> (i)>
func.func @{op}(%a: tensor<?xi32, #SV>, %b: tensor<?xi32>, %x: tensor<?xi32>)
    -> tensor<?xi32> {{
  %0 = linalg.generic {{indexing_maps = [#map, #map, #map],
                       iterator_types = ["parallel"]}}
      ins(%a, %b : tensor<?xi32, #SV>, tensor<?xi32>) outs(%x : tensor<?xi32>) {{
  ^bb0(%p: i32, %q: i32, %o: i32):
    %d = sparse_tensor.binary %p, %q : i32, i32 to i32
      overlap = {{
        ^bb0(%u: i32, %v: i32):
          %r = arith.{op} %u, %v : i32
          sparse_tensor.yield %r : i32
      }}
      left = identity
      right = {{}}
    linalg.yield %d : i32
  }} -> tensor<?xi32>
  return %0 : tensor<?xi32>
}}
"""

SUM_OF_QUOTIENTS = """
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
func.func @sum_of_quotients(%a: tensor<?xi64, #SV>, %b: tensor<?xi64>,
                            %x: tensor<i64>) -> tensor<i64> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>,
                                        affine_map<(i) -> (i)>,
                                        affine_map<(i) -> ()>],
                       iterator_types = ["reduction"]}
      ins(%a, %b : tensor<?xi64, #SV>, tensor<?xi64>) outs(%x : tensor<i64>) {
  ^bb0(%p: i64, %q: i64, %o: i64):
    %d = sparse_tensor.binary %p, %q : i64, i64 to i64
      overlap = {
        ^bb0(%u: i64, %v: i64):
          %r = arith.divsi %u, %v : i64
          sparse_tensor.yield %r : i64
      }
      left = identity
      right = {}
    %s = arith.addi %o, %d : i64
    linalg.yield %s : i64
  } -> tensor<i64>
  return %0 : tensor<i64>
}
"""


def _trunc_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sign(a) * np.sign(b) * (np.abs(a) // np.abs(b))


Division = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _unsigned(f: Division) -> Division:
    """`f` on the operands' bits read as uint32, its result's as int32."""

    def unsigned(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return f(a.view(np.uint32), b.view(np.uint32)).view(np.int32)

    return unsigned


NUMPY_DIVISIONS: dict[str, Division] = {
    "divsi": _trunc_div,
    "divui": _unsigned(np.floor_divide),
    "remsi": np.fmod,
    "remui": _unsigned(np.remainder),
    "ceildivsi": lambda a, b: -(-a // b),
    "floordivsi": np.floor_divide,
}


def _division_operands(
    n: int, stored: int, dtype: type[np.signedinteger[Any]]
) -> tuple[SparseTensor, np.ndarray, np.ndarray]:
    """`a` with `stored` entries (not a multiple of 8), `b` nonzero exactly there.

    A division where `a` has no entry, or in a lane the mask switched off (its
    gathered divisor is the zero that `vector.gather` passes through), would
    divide by zero and trap.
    """
    rng = np.random.default_rng(7)
    where = np.sort(rng.choice(n, stored, replace=False))
    a = np.zeros(n, dtype)
    a[where] = rng.integers(-1000, 1000, stored)
    a[where[a[where] == 0]] = 5  # every entry nonzero: a(i) stored <=> b(i) != 0
    b = np.zeros(n, dtype)
    b[where] = rng.choice([-7, -3, -1, 1, 2, 5, 11], stored)
    encoding = "#sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>"
    return SparseTensor.from_dense(a, encoding), a, b


@pytest.mark.parametrize("vl", [1, 8])
@pytest.mark.parametrize("op", sorted(NUMPY_DIVISIONS))
def test_integer_division(op: str, vl: int) -> None:
    """divsi/divui vectorize (masked-off lanes divide by 1), the others stay scalar."""
    kernel = xsparse.compile(DIVISION.format(op=op), vl=vl)
    for n, stored in [(45, 19), (13, 5), (64, 37)]:
        sparse_a, a, b = _division_operands(n, stored, np.int32)
        result = kernel(sparse_a, b, np.zeros(n, np.int32))
        safe_b = np.where(b == 0, 1, b)
        expected = np.where(b == 0, 0, NUMPY_DIVISIONS[op](a, safe_b))
        np.testing.assert_array_equal(result, expected)
    if vl > 1:
        ir = _llvm_ir(DIVISION.format(op=op), vl=vl)
        vector_division = re.search(rf"= (sdiv|udiv|srem|urem) <{vl} x i32>", ir)
        assert (vector_division is not None) == (op in ("divsi", "divui"))


def test_sum_of_quotients() -> None:
    """A reduction loop divides by gathered values: its masked lanes too are guarded."""
    kernel = xsparse.compile(SUM_OF_QUOTIENTS, vl=8)
    sparse_a, a, b = _division_operands(50, 21, np.int64)
    expected = _trunc_div(a, np.where(b == 0, 1, b)).sum()
    assert kernel(sparse_a, b, np.zeros((), np.int64)) == expected


def _compile_unpeeled(source: str, vl: int) -> Any:
    """`xsparse.compile(source, vl=vl)` without sparse-vector-peel: the vector
    loop runs its last, partial step with the lanes past the end masked off."""
    from xdsl.dialects import func

    from xsparse.backend import jit
    from xsparse.backend.kernel import Kernel, shared_sizes
    from xsparse.backend.lowering import lower_to_llvm
    from xsparse.diagnostics import parse_module
    from xsparse.dialect_registry import make_context
    from xsparse.transforms.pipeline import sparsifier_passes
    from xsparse.transforms.sparsifier.vectorization import SparseVectorPeelPass

    ctx = make_context()
    module = parse_module(ctx, source, "<source>")
    (function,) = [op for op in module.ops if isinstance(op, func.FuncOp)]
    signature, groups = function.function_type, shared_sizes(function)
    for p in sparsifier_passes(vl=vl):
        if not isinstance(p, SparseVectorPeelPass):
            p.apply(ctx, module)
    lowered = lower_to_llvm(module)
    ir = lowered.llvm_ir()
    assert "llvm.masked.gather" in ir and re.search(rf"sdiv <{vl} x i(32|64)>", ir)
    name = function.sym_name.data
    return Kernel(name, signature, jit.compile(lowered).function(name), groups)


def check_masked_lanes() -> None:
    """Masked vector loops divide right (run in a child process by the test
    below: a division by zero in a masked-off lane kills it with SIGFPE)."""
    divide = _compile_unpeeled(DIVISION.format(op="divsi"), 8)
    for n, stored in [(45, 19), (13, 5)]:
        sparse_a, a, b = _division_operands(n, stored, np.int32)
        result = divide(sparse_a, b, np.zeros(n, np.int32))
        expected = _trunc_div(a, np.where(b == 0, 1, b))
        np.testing.assert_array_equal(result, expected)
    total = _compile_unpeeled(SUM_OF_QUOTIENTS, 8)
    sparse_a, a, b = _division_operands(50, 21, np.int64)
    expected_total = _trunc_div(a, np.where(b == 0, 1, b)).sum()
    assert total(sparse_a, b, np.zeros((), np.int64)) == expected_total


def test_masked_lanes_divide_safely() -> None:
    """MLIR 22's vector division by the zero of masked-off lanes traps on x86
    (`mlir-opt --sparsifier="vl=8"`, then mlir-runner: SIGFPE); ours does not."""
    code = (
        f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); "
        "import test_vectorization as t; t.check_masked_lanes(); print('checked')"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, f"exit {run.returncode} (-8: SIGFPE)\n{run.stderr}"
    assert run.stdout.split() == ["checked"]


COMPLEX_MULTIPLY = """
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#map = affine_map<(i) -> (i)>
func.func @multiply(%a: tensor<?xcomplex<f64>, #SV>, %b: tensor<?xcomplex<f64>>,
                    %x: tensor<?xcomplex<f64>>) -> tensor<?xcomplex<f64>> {
  %0 = linalg.generic {indexing_maps = [#map, #map, #map],
                       iterator_types = ["parallel"]}
      ins(%a, %b : tensor<?xcomplex<f64>, #SV>, tensor<?xcomplex<f64>>)
      outs(%x : tensor<?xcomplex<f64>>) {
  ^bb0(%p: complex<f64>, %q: complex<f64>, %o: complex<f64>):
    %d = complex.mul %p, %q : complex<f64>
    linalg.yield %d : complex<f64>
  } -> tensor<?xcomplex<f64>>
  return %0 : tensor<?xcomplex<f64>>
}
"""


@pytest.mark.parametrize("vl", [1, 8])
def test_complex_kernel_is_refused_with_a_location(vl: int) -> None:
    """Complex elements are not supported by xsparse.compile (the vector loops
    would stay scalar, see complex.mlir; numpy arguments have no complex slot):
    a located error at the function, not an internal one."""
    with pytest.raises(XSparseError) as error:
        xsparse.compile(COMPLEX_MULTIPLY, vl=vl)
    message = str(error.value)
    assert message.startswith("<source>:4:1: error: 'func.func' op argument #0")
    assert "complex<f64>" in message
    assert "internal error" not in message


def test_complex_kernel_stays_scalar_in_the_sparsifier() -> None:
    """The sparsifier sparsifies complex kernels, and with vl=8 keeps their
    loops scalar (MLIR 22 vectorizes no complex value)."""
    result = subprocess.run(
        ["xsparse-opt", "--sparsifier=vl=8"],
        input=COMPLEX_MULTIPLY,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert "llvm.func @multiply" in result.stdout
    assert "vector<" not in result.stdout


def test_complex_integer_kernel_is_refused_by_the_sparsifier_with_a_location() -> None:
    """The sparsifier refuses complex integers (no arithmetic of them to
    lower) at the generic."""
    source = COMPLEX_MULTIPLY.replace(
        "    %d = complex.mul %p, %q : complex<f64>\n", ""
    ).replace("linalg.yield %d", "linalg.yield %p")
    source = source.replace("complex<f64>", "complex<i32>")
    result = subprocess.run(
        ["xsparse-opt", "-p", "sparse-reinterpret-map,sparsification"],
        input=source,
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert ":6:3: error: 'linalg.generic' op" in result.stderr
    assert "element type complex<i32> is not supported" in result.stderr
    assert "Traceback" not in result.stderr


# The decisions of MLIR 22's vectorizer, run natively ------------------------

OUTER = """
#SV = #sparse_tensor.encoding<{{ map = (i) -> (i : compressed) }}>
func.func @outer(%a: tensor<{m}xf64, #SV>, %x: tensor<{n}xf64>,
                 %y: tensor<{m}x{n}xf64>) -> tensor<{m}x{n}xf64> {{
  %0 = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i)>,
                                        affine_map<(i, j) -> (j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%a, %x : tensor<{m}xf64, #SV>, tensor<{n}xf64>)
      outs(%y : tensor<{m}x{n}xf64>) {{
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %r = arith.mulf %av, %xv : f64
    linalg.yield %r : f64
  }} -> tensor<{m}x{n}xf64>
  return %0 : tensor<{m}x{n}xf64>
}}
"""

ROWS = """
#CD = #sparse_tensor.encoding<{{ map = (i, j) -> (i : compressed, j : dense) }}>
func.func @rows(%a: tensor<{m}x{n}x{t}, #CD>, %y: tensor<{m}x{t}>) -> tensor<{m}x{t}> {{
  %0 = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}}
      ins(%a : tensor<{m}x{n}x{t}, #CD>) outs(%y : tensor<{m}x{t}>) {{
  ^bb0(%av: {t}, %yv: {t}):
    %r = arith.{op} %yv, %av : {t}
    linalg.yield %r : {t}
  }} -> tensor<{m}x{t}>
  return %0 : tensor<{m}x{t}>
}}
"""

ELEMENTWISE = """
#SV = #sparse_tensor.encoding<{{ map = (i) -> (i : compressed) }}>
func.func @elementwise(%a: tensor<?x{t}, #SV>, %x: tensor<?x{t}>) -> tensor<?x{t}> {{
  %0 = linalg.generic {{indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}}
      ins(%a : tensor<?x{t}, #SV>) outs(%x : tensor<?x{t}>) {{
  ^bb0(%p: {t}, %o: {t}):
    %c = arith.constant {c} : {t}
    %r = arith.{op} %p, %c : {t}
    linalg.yield %r : {t}
  }} -> tensor<?x{t}>
  return %0 : tensor<?x{t}>
}}
"""

SHIFT_BY_SCALAR = """
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
func.func @shift(%a: tensor<?xi32, #SV>, %s: tensor<i32>, %x: tensor<?xi32>)
    -> tensor<?xi32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>,
                                        affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%a, %s : tensor<?xi32, #SV>, tensor<i32>) outs(%x : tensor<?xi32>) {
  ^bb0(%p: i32, %n: i32, %o: i32):
    %r = arith.shrsi %p, %n : i32
    linalg.yield %r : i32
  } -> tensor<?xi32>
  return %0 : tensor<?xi32>
}
"""


def _vector_ops(source: str, vl: int) -> set[str]:
    """The vector ops that `sparse-vectorization` leaves in `source`'s kernel."""
    from xsparse.diagnostics import parse_module
    from xsparse.dialect_registry import make_context
    from xsparse.transforms.pipeline import sparsifier_passes
    from xsparse.transforms.sparsifier.vectorization import SparseVectorizationPass

    ctx = make_context()
    module = parse_module(ctx, source, "<source>")
    for p in sparsifier_passes(vl=vl):
        p.apply(ctx, module)
        if isinstance(p, SparseVectorizationPass):
            break
    return {op.name for op in module.walk() if op.name.startswith("vector.")}


@pytest.mark.parametrize(
    ("m", "n", "vl", "ops"),
    [
        (64, 32, 8, {"vector.load", "vector.store"}),
        (23, 29, 8, {"vector.maskedload", "vector.maskedstore"}),
        (23, 29, 16, {"vector.maskedload", "vector.maskedstore"}),
    ],
)
def test_dense_innermost_loop(m: int, n: int, vl: int, ops: set[str]) -> None:
    """x[j] and y[i][j] at the dense loop's index: contiguous vector accesses,
    masked unless vl divides the (static) trip count."""
    source = OUTER.format(m=m, n=n)
    assert ops <= _vector_ops(source, vl)
    assert not {"vector.gather", "vector.scatter"} & _vector_ops(source, vl)
    rng = np.random.default_rng(3)
    a = sparse(rng, (m,), 0.4)
    x = rng.random(n)
    result = xsparse.compile(source, vl=vl)(
        SparseTensor.from_dense(a, SV), x, np.zeros((m, n))
    )
    np.testing.assert_allclose(result, np.outer(a, x), rtol=1e-12)


ROW_CASES: list[tuple[str, str, int, int, type[np.generic]]] = [
    ("addf", "f64", 16, 32, np.float64),
    ("addf", "f32", 13, 21, np.float32),
    ("mulf", "f64", 16, 32, np.float64),
    ("mulf", "f64", 13, 21, np.float64),
    ("muli", "i32", 16, 32, np.int32),
    ("muli", "i64", 13, 21, np.int64),
]


@pytest.mark.parametrize(("op", "t", "m", "n", "dtype"), ROW_CASES)
@pytest.mark.parametrize("vl", [4, 8])
def test_dense_innermost_reduction(
    op: str, t: str, m: int, n: int, dtype: type[np.generic], vl: int
) -> None:
    """Rows of a (compressed, dense) matrix reduced by add or mul: the dense
    level's values are contiguous (vector.load where vl divides the row), a
    product starts from | 1 .. 1 r |."""
    source = ROWS.format(m=m, n=n, t=t, op=op)
    ops = _vector_ops(source, vl)
    assert "vector.reduction" in ops
    assert ("vector.load" if n % vl == 0 else "vector.maskedload") in ops
    rng = np.random.default_rng(5)
    a = rng.choice(np.array([-3, -2, -1, 1, 2, 3]), (m, n)).astype(dtype)
    a[rng.random(m) < 0.3] = 0  # rows not stored
    a[1] = 0
    init = np.full(m, 3, dtype)
    encoding = (
        "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : dense) }>"
    )
    kernel = xsparse.compile(source, vl=vl)
    result = kernel(SparseTensor.from_dense(a, encoding), init.copy())
    expected = init + a.sum(axis=1) if op == "addf" else init * a.prod(axis=1)
    np.testing.assert_allclose(result, expected.astype(dtype), rtol=1e-5)


Lanewise = Callable[[np.ndarray], np.ndarray]

BY_CONSTANT: list[tuple[str, str, str, type[np.generic], Lanewise]] = [
    ("divf", "f64", "3.0", np.float64, lambda a: a / 3.0),
    ("divf", "f32", "-2.5", np.float32, lambda a: a / np.float32(-2.5)),
    ("divsi", "i32", "7", np.int32, lambda a: _trunc_div(a, np.full_like(a, 7))),
    ("divui", "i64", "3", np.int64, lambda a: (a.view(np.uint64) // 3).view(np.int64)),
    ("shli", "i32", "3", np.int32, lambda a: a << 3),
    ("shrsi", "i64", "2", np.int64, lambda a: a >> 2),
    ("shrui", "i32", "5", np.int32, lambda a: (a.view(np.uint32) >> 5).view(np.int32)),
]


@pytest.mark.parametrize(("op", "t", "c", "dtype", "expect"), BY_CONSTANT)
@pytest.mark.parametrize("vl", [4, 16])
def test_by_constant(
    op: str,
    t: str,
    c: str,
    dtype: type[np.generic],
    expect: Lanewise,
    vl: int,
) -> None:
    """Division and shifts by a constant of the kernel body vectorize (the
    constant is hoisted and splat, as in MLIR 22's form of the loop); the
    results are numpy's to the bit."""
    source = ELEMENTWISE.format(op=op, t=t, c=c)
    assert {"vector.maskedload", "vector.scatter"} <= _vector_ops(source, vl)
    rng = np.random.default_rng(11)
    a = (rng.integers(-1000, 1000, 83) * (rng.random(83) < 0.5)).astype(dtype)
    kernel = xsparse.compile(source, vl=vl)
    result = kernel(SparseTensor.from_dense(a, SV), np.zeros(83, dtype))
    np.testing.assert_array_equal(result, expect(a))


def test_shift_by_scalar_tensor() -> None:
    """A shift by a scalar tensor operand (read once, broadcast) vectorizes."""
    assert "vector.broadcast" in _vector_ops(SHIFT_BY_SCALAR, 8)
    rng = np.random.default_rng(13)
    a = (rng.integers(-(10**6), 10**6, 61) * (rng.random(61) < 0.5)).astype(np.int32)
    kernel = xsparse.compile(SHIFT_BY_SCALAR, vl=8)
    result = kernel(
        SparseTensor.from_dense(a, SV), np.array(3, np.int32), np.zeros(61, np.int32)
    )
    np.testing.assert_array_equal(result, a >> 3)
