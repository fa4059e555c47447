"""Defects the IR fuzzer (`xsparse.testing.ir_mutants`) found, each reduced to
its smallest input: what xsparse.compile and xsparse-opt now say, or compute.

The invalid-IR cases with MLIR's messages are lit tests beside their
diagnostics (dialects/builtin, dialects/linalg, transforms/*/invalid.mlir);
these are the ones that need the Python API, a run, or a pass pipeline.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import xsparse
from xsparse.tools.opt import main as xsparse_opt

CSR = "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>"


def compile_error(source: str) -> str:
    with pytest.raises(xsparse.XSparseError) as info:
        xsparse.compile(source)
    return str(info.value)


def opt_error(source: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    path = tmp_path / "input.mlir"
    path.write_text(source)
    assert xsparse_opt([str(path), "-p", "sparsifier"]) == 1
    return capsys.readouterr().err.replace(str(path), "input.mlir")


def test_scf_parallel_with_reduction_lowers_sequentially() -> None:
    """convert-to-llvm erased `scf.reduce` before moving its region's ops out
    (ValueError: Cannot detach a toplevel operation)."""
    kernel = xsparse.compile(
        """
func.func @sum(%m: memref<?x?xf64>, %n: index, %k: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.parallel (%i, %j) = (%c0, %c0) to (%n, %k) step (%c1, %c1) init (%zero) -> f64 {
    %v = memref.load %m[%i, %j] : memref<?x?xf64>
    scf.reduce(%v : f64) {
    ^bb0(%lhs: f64, %rhs: f64):
      %s = arith.addf %lhs, %rhs : f64
      scf.reduce.return %s : f64
    }
  }
  return %r : f64
}"""
    )
    m = np.arange(12.0).reshape(3, 4)
    assert kernel(m, 3, 4) == m.sum()


def test_bf16_arithmetic_in_a_kernel() -> None:
    """bf16 has an LLVM IR type (`bfloat`) and constants (`0xR...`): a
    kernel computing in bf16 on f32 data compiles and runs."""
    kernel = xsparse.compile(
        """
func.func @scale(%x: f32) -> f32 {
  %b = arith.truncf %x : f32 to bf16
  %two = arith.constant 2.0 : bf16
  %p = arith.mulf %b, %two : bf16
  %r = arith.extf %p : bf16 to f32
  return %r : f32
}"""
    )
    assert kernel(np.float32(1.5)) == 3.0


def test_bf16_signature_is_refused_at_the_function() -> None:
    """No numpy dtype carries bf16: a located error, not a TypeError out of
    the calling convention."""
    error = compile_error(
        f"""#CSR = {CSR}
func.func @kernel(%a: tensor<?x?xbf16, #CSR>, %x: tensor<?xbf16>) -> tensor<?xbf16> {{
  return %x : tensor<?xbf16>
}}"""
    )
    assert error.startswith("<source>:2:1: error: 'func.func' op argument #0 of type")
    assert "cannot cross the Python boundary (no numpy/native slot for bf16)" in error


def test_op_without_llvm_translation_is_located_in_its_function() -> None:
    """An op no pass lowers is named at its function even when passes rebuilt
    every op around it (the llvm.func is found by its symbol name); was a raw
    DiagnosticException out of xsparse.compile."""
    error = compile_error(
        f"""#CSR = {CSR}
func.func @kernel(%a: tensor<8x?xf64, #CSR>) {{
  %s = sparse_tensor.extract_iteration_space %a lvls = 0 : tensor<8x?xf64, #CSR> -> !sparse_tensor.iter_space<#CSR, lvls = 0>
  sparse_tensor.iterate %it in %s at(%i) : !sparse_tensor.iter_space<#CSR, lvls = 0> {{
    "test.op"(%i) : (index) -> ()
  }}
  return
}}"""
    )
    assert error.startswith(
        "<source>:2:1: error: 'test.op' op cannot be translated to LLVM IR\n"
        "func.func @kernel"
    )


def test_verifier_failure_after_a_pass_is_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """xsparse-opt verifies between passes; the failing op is found and named
    at its line (was `input.mlir: error: ...` with no line)."""
    error = opt_error(
        """func.func @unary(%a: f64) -> i32 {
  %p = arith.constant 1 : i32
  %0 = sparse_tensor.unary %a : f64 to i32
    present = {
    ^bb0(%x: f64):
      sparse_tensor.yield %p : i32
    }
    absent = {
      %m = arith.constant 4 : i32
      sparse_tensor.yield %m : i32
    }
  return %0 : i32
}""",
        tmp_path,
        capsys,
    )
    assert re.match(r"input\.mlir:3:3: error: 'sparse_tensor\.unary' op ", error)


def test_dimension_past_the_rank_through_compile() -> None:
    """Was an IndexError inside sparse-tensor-codegen, reported as an internal
    error without a line."""
    error = compile_error(
        f"""#CSR = {CSR}
func.func @rows(%a: tensor<?x?xf64, #CSR>) -> index {{
  %c = arith.constant 64 : index
  %d = tensor.dim %a, %c : tensor<?x?xf64, #CSR>
  return %d : index
}}"""
    )
    assert error.startswith(
        "<source>:4:3: error: 'tensor.dim' op dimension index 64 is out of range for rank 2"
    )


SCATTER_EVEN = f"""#CSR = {CSR}
#t = {{indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (i)>,
       affine_map<(j, i) -> (j + j)>], iterator_types = ["parallel", "reduction"]}}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {{
  %0 = linalg.generic #t ins(%a, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) {{
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  }} -> tensor<?xf64>
  return %0 : tensor<?xf64>
}}"""


def test_compound_index_checked_at_each_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """y[2 j] += A[i, j] x[i]: y needs 2 (n - 1) + 1 entries. Called with
    fewer, the kernel wrote past y's end and corrupted the heap (found by
    calling fuzzed kernels); now a ValueError, also for a kernel loaded from
    the disk cache."""
    import scipy.sparse as sp

    from xsparse.backend.kernel import clear_memory_caches

    monkeypatch.setenv("XSPARSE_CACHE_DIR", str(tmp_path))
    a = sp.random_array((3, 4), density=0.6, format="csr", rng=1)
    for _ in range(2):  # compiled, then loaded from the disk cache
        clear_memory_caches()
        kernel = xsparse.compile(SCATTER_EVEN)
        with pytest.raises(
            ValueError, match=r"index \(d0 \+ d0\) takes values from 0 to 6"
        ):
            kernel(a, np.ones(3), np.zeros(6))
        y = kernel(a, np.ones(3), np.zeros(7))
        np.testing.assert_allclose(y[::2], a.T @ np.ones(3))
        assert not y[1::2].any()


def test_interval_of_affine_expressions() -> None:
    from xdsl.ir.affine import AffineExpr

    from xsparse.backend.index_bounds import interval

    d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
    ranges = [(0, 9), (0, 2)]
    assert interval(d0 + d1 * 3, ranges) == (0, 15)
    assert interval(d0 * -2 + 20, ranges) == (2, 20)
    assert interval(d0 // 4, ranges) == (0, 2)
    assert interval(d0.ceil_div(4), ranges) == (0, 3)
    assert interval(d0 % 4, ranges) == (0, 3)
    assert interval(d1 % 4, ranges) == (0, 2)
    assert interval(d0 // -4, ranges) == (-3, 0)
    assert interval(d0 % -4, ranges) == (-3, 0)
    with pytest.raises(ZeroDivisionError):  # valid IR; the call refuses it
        interval(d0 % 0, ranges)


def test_insertion_into_an_argument_leaves_the_callers_buffers() -> None:
    """Insertion grows buffers with realloc: on the caller's (numpy's) buffers
    that was a double free. The function now copies an argument it inserts
    into, and the argument keeps its value."""
    import scipy.sparse as sp

    kernel = xsparse.compile(
        f"""#CSR = {CSR}
func.func @insert(%t: tensor<3x3xf64, #CSR>, %i: index, %j: index, %v: f64) -> tensor<3x3xf64, #CSR> {{
  %0 = tensor.insert %v into %t[%i, %j] : tensor<3x3xf64, #CSR>
  %1 = sparse_tensor.load %0 hasInserts : tensor<3x3xf64, #CSR>
  return %1 : tensor<3x3xf64, #CSR>
}}"""
    )
    a = sp.csr_array(np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]))
    before = (a.indptr.copy(), a.indices.copy(), a.data.copy())
    for _ in range(3):
        result = kernel(a, 2, 1, 5.0).to_scipy().toarray()
        expected = a.toarray()
        expected[2, 1] = 5.0
        np.testing.assert_array_equal(result, expected)
    for array, old in zip((a.indptr, a.indices, a.data), before, strict=True):
        np.testing.assert_array_equal(array, old)


def test_structured_level_of_another_size_is_a_value_error() -> None:
    """`j : structured[2, 2]` on a dimension of 3: coordinates past the block
    raised an IndexError while the argument was converted."""
    encoding = (
        "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : structured[2, 2]) }>"
    )
    with pytest.raises(
        ValueError, match=r"structured\[2, 2\] level has 2 coordinates, this one 3"
    ):
        xsparse.SparseTensor.from_dense(np.ones((3, 3)), encoding)
    t = xsparse.SparseTensor.from_dense(np.array([[1.0, 0.0], [0.0, 2.0]]), encoding)
    np.testing.assert_array_equal(t.to_scipy().toarray(), [[1.0, 0.0], [0.0, 2.0]])


COLUMN_SUMS_SIZED_BY_ROWS = f"""#CSR = {CSR}
#SV = #sparse_tensor.encoding<{{ map = (i) -> (i : compressed) }}>
#t = {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
       iterator_types = ["reduction", "parallel"]}}
func.func @kernel(%a: tensor<?x?xf64, #CSR>) -> tensor<?xf64, #SV> {{
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR>
  %init = tensor.empty(%rows) : tensor<?xf64, #SV>
  %0 = linalg.generic #t ins(%a : tensor<?x?xf64, #CSR>) outs(%init : tensor<?xf64, #SV>) {{
  ^bb0(%av: f64, %yv: f64):
    %s = arith.addf %yv, %av : f64
    linalg.yield %s : f64
  }} -> tensor<?xf64, #SV>
  return %0 : tensor<?xf64, #SV>
}}"""


def test_output_sized_by_another_loop_is_checked_at_the_call() -> None:
    """An output `tensor.empty` sized by A's rows but indexed by its columns:
    a non-square A overran the output's workspace (a heap corruption found by
    calling fuzzed kernels). Its size joins the loop's group of sizes."""
    import scipy.sparse as sp

    kernel = xsparse.compile(COLUMN_SUMS_SIZED_BY_ROWS)
    with pytest.raises(
        ValueError, match="argument 0 dimension 1 is 4, argument 0 dimension 0 is 3"
    ):
        kernel(sp.random_array((3, 4), density=0.5, format="csr", rng=2))
    a = sp.random_array((4, 4), density=0.5, format="csr", rng=2)
    np.testing.assert_allclose(kernel(a).to_dense(), a.sum(axis=0))


def test_output_of_static_size_is_checked_at_the_call() -> None:
    kernel = xsparse.compile(
        """
#t = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @kernel(%x: tensor<?xf64>) -> tensor<4xf64> {
  %init = tensor.empty() : tensor<4xf64>
  %0 = linalg.generic #t ins(%x : tensor<?xf64>) outs(%init : tensor<4xf64>) {
  ^bb0(%xv: f64, %yv: f64):
    linalg.yield %xv : f64
  } -> tensor<4xf64>
  return %0 : tensor<4xf64>
}"""
    )
    with pytest.raises(ValueError, match="a size fixed in the kernel is 4"):
        kernel(np.ones(6))
    np.testing.assert_array_equal(kernel(np.arange(4.0)), np.arange(4.0))


def test_a_patterns_value_error_is_located_at_its_op() -> None:
    """sparse-tensor-codegen and post-sparsification-rewrite reported a
    helper's ValueError on builtin.module (no line); their applier now names
    the op the pattern was rewriting."""
    from xdsl.dialects import func
    from xdsl.ir import Operation
    from xdsl.pattern_rewriter import (
        PatternRewriter,
        PatternRewriteWalker,
        RewritePattern,
    )

    from xsparse.diagnostics import parse_module
    from xsparse.dialect_registry import make_context
    from xsparse.transforms.errors import LocatingApplier, PassFailure

    class Refuse(RewritePattern):
        def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
            if isinstance(op, func.ReturnOp):
                raise ValueError("cannot size a level of expression d0 * 2")

    module = parse_module(make_context(), "func.func @f() {\n  return\n}")
    walker = PatternRewriteWalker(LocatingApplier([Refuse()]))
    with pytest.raises(PassFailure) as info:
        walker.rewrite_module(module)
    assert isinstance(info.value.op, func.ReturnOp)
    assert str(info.value).startswith(
        "'func.return' op cannot size a level of expression d0 * 2"
    )


def test_function_with_an_empty_body_is_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """IR mutant seed 60000104: was an llvmlite `LLVM IR parsing error` from
    xsparse.compile, and an unlocated message from xsparse-opt."""
    source = "func.func @f(%t: tensor<3xf64>) {\n}\n"
    expected = "1:1: error: empty block: expect at least a terminator"  # MLIR 22's
    assert compile_error(source) == f"<source>:{expected}\n" + (
        "func.func @f(%t: tensor<3xf64>) {\n^^^^^^^^^"
    )
    assert opt_error(source, tmp_path, capsys).startswith(f"input.mlir:{expected}")


def test_a_pass_option_of_the_wrong_type_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Was a ValueError traceback from the pipeline parser."""
    for option in ("convert-to-llvm{threads=maybe}", "sparsifier{vl=abc}"):
        assert xsparse_opt(["-", "-p", option]) == 1
        error = capsys.readouterr().err
        assert error.startswith("xsparse-opt: error: invalid pass option: ")
        assert error.count("\n") == 1
