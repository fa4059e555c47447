"""Regression tests for defects found by the generated differential tests
(`xsparse.testing.kernels`, `tools/fuzz.py`), one test per defect, each
named after what went wrong."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse
from xsparse import SparseTensor

MAPS = {
    "CSR": "(i, j) -> (i : dense, j : compressed)",
    "CSC": "(i, j) -> (j : dense, i : compressed)",
    "DCSR": "(i, j) -> (i : compressed, j : compressed)",
    "DCSC": "(i, j) -> (j : compressed, i : compressed)",
    "COO": "(i, j) -> (i : compressed(nonunique), j : singleton)",
    "2:4": "(i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4])",
}


def encoding(name: str) -> str:
    return f"#sparse_tensor.encoding<{{ map = {MAPS[name]} }}>"


def matmul_kernel(enc_a: str, enc_b: str | None) -> str:
    """`C += A @ B` with A and B in the formats named (B dense for None)."""
    ta = f"tensor<?x?xf64, {encoding(enc_a)}>"
    tb = "tensor<?x?xf64>" if enc_b is None else f"tensor<?x?xf64, {encoding(enc_b)}>"
    return f"""
func.func @mm(%a: {ta}, %b: {tb}, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {{
  %0 = linalg.generic {{indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
      affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
      iterator_types = ["parallel", "parallel", "reduction"]}}
      ins(%a, %b : {ta}, {tb}) outs(%c : tensor<?x?xf64>) {{
  ^bb0(%x: f64, %y: f64, %o: f64):
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %o, %m : f64
    linalg.yield %s : f64
  }} -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}}"""


@pytest.mark.parametrize(
    "enc_a, enc_b",
    [("CSC", "COO"), ("DCSC", "COO"), ("COO", "CSC"), ("COO", "DCSC"), ("COO", "COO")],
)
def test_coo_run_kept_across_another_operands_loop(enc_a: str, enc_b: str) -> None:
    """A COO operand's singleton level iterates the run of its nonunique parent
    even when another operand's loop sits between the two levels (C += A @ B,
    A column-major, B in COO: loop order k, i, j). It used to iterate only the
    run's first entry: [[1, 2], [3, 4]] @ itself gave [[7, 0], [15, 0]]."""
    kernel = xsparse.compile(matmul_kernel(enc_a, enc_b))
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    c = kernel(
        SparseTensor.from_dense(a, encoding(enc_a)),
        SparseTensor.from_dense(a, encoding(enc_b)),
        np.zeros((2, 2)),
    )
    np.testing.assert_array_equal(c, a @ a)
    rng = np.random.default_rng(7)
    a = np.where(rng.random((13, 11)) < 0.3, rng.standard_normal((13, 11)), 0.0)
    b = np.where(rng.random((11, 9)) < 0.3, rng.standard_normal((11, 9)), 0.0)
    a[4] = 0.0
    b[:, 2] = 0.0
    c = kernel(
        SparseTensor.from_dense(a, encoding(enc_a)),
        SparseTensor.from_dense(b, encoding(enc_b)),
        np.ones((13, 9)),
    )
    np.testing.assert_allclose(c, 1.0 + a @ b, rtol=1e-12, atol=1e-12)


COLUMN_MAX = """
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
#SV = #sparse_tensor.encoding<{ map = (j) -> (j : compressed) }>
func.func @column_max(%a: tensor<?x?xf32, #COO>) -> tensor<?xf32, #SV> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c1 : tensor<?x?xf32, #COO>
  %init = tensor.empty(%n) : tensor<?xf32, #SV>
  %id = arith.constant 0xFF800000 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
      affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]}
      ins(%a : tensor<?x?xf32, #COO>) outs(%init : tensor<?xf32, #SV>) {
  ^bb0(%x: f32, %o: f32):
    %m = sparse_tensor.reduce %o, %x, %id : f32 {
    ^bb0(%l: f32, %r: f32):
      %v = arith.maximumf %l, %r : f32
      sparse_tensor.yield %v : f32
    }
    linalg.yield %m : f32
  } -> tensor<?xf32, #SV>
  return %r : tensor<?xf32, #SV>
}"""


def test_custom_reduction_into_a_built_output_starts_at_its_identity() -> None:
    """A `sparse_tensor.reduce` into an output built through an expanded
    workspace (the reduction loop outside the output's) reads the identity
    where nothing is stored yet, as MLIR's genInsertionLoadReduce does. It used
    to read the workspace's zero: the column maxima of negative entries were 0."""
    a = np.array([[0, 0, 0], [0, 0, -1.75], [0, -1.5, -3.0]], dtype=np.float32)
    coo = "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>"
    result = xsparse.compile(COLUMN_MAX)(SparseTensor.from_dense(a, coo))
    assert isinstance(result, SparseTensor)
    np.testing.assert_array_equal(result.to_dense(), [0, -1.5, -1.75])
    np.testing.assert_array_equal(result.coordinates[0], [1, 2])


OUTER_AND_INNER_MAX = """
func.func @max_over_i_and_k(%a: tensor<?x?x?xi64>, %init: tensor<?xi64>) -> tensor<?xi64> {
  %id = arith.constant -9223372036854775808 : i64
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>,
      affine_map<(i, j, k) -> (j)>], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%a : tensor<?x?x?xi64>) outs(%init : tensor<?xi64>) {
  ^bb0(%x: i64, %o: i64):
    %m = sparse_tensor.reduce %o, %x, %id : i64 {
    ^bb0(%l: i64, %r: i64):
      %v = arith.maxsi %l, %r : i64
      sparse_tensor.yield %v : i64
    }
    linalg.yield %m : i64
  } -> tensor<?xi64>
  return %r : tensor<?xi64>
}"""


def test_inner_reduction_continues_when_an_outer_reduction_revisits_the_output() -> (
    None
):
    """With a reduction loop outside the output's loop (i, j, k: out[j]), the
    custom reduction over k continues from out[j] on every i; it used to
    restart at the identity, so out[j] held the last i's maximum only."""
    rng = np.random.default_rng(3)
    a = rng.integers(-5, 5, size=(6, 11, 3))
    init = np.full(11, np.iinfo(np.int64).min)
    result = xsparse.compile(OUTER_AND_INNER_MAX)(a, init)
    np.testing.assert_array_equal(result, a.max(axis=(0, 2)))


BSR_ROW_WEIGHTED = """
#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense,
  j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
func.func @weighted(%a: tensor<6x4xf64, #BSR>, %y: tensor<6xf64>) -> tensor<6xf64> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
      affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<6x4xf64, #BSR>) outs(%y : tensor<6xf64>) {
  ^bb0(%x: f64, %o: f64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ij = arith.muli %i, %j : index
    %w = arith.index_cast %ij : index to i64
    %wf = arith.sitofp %w : i64 to f64
    %p = arith.mulf %x, %wf : f64
    %s = arith.addf %o, %p : f64
    linalg.yield %s : f64
  } -> tensor<6xf64>
  return %r : tensor<6xf64>
}"""


def test_linalg_index_in_a_demapped_kernel_is_the_dimension_coordinate() -> None:
    """`linalg.index` in a kernel over a block-encoded operand (BSR, 2:4) is
    the coordinate of the original loop, computed from the level loops; it
    used to read the level loop of the same number (the block coordinate)."""
    rng = np.random.default_rng(5)
    a = np.where(rng.random((6, 4)) < 0.5, rng.standard_normal((6, 4)), 0.0)
    bsr = BSR_ROW_WEIGHTED.split("#BSR = ")[1].split("\nfunc")[0].replace("\n ", "")
    result = xsparse.compile(BSR_ROW_WEIGHTED)(
        SparseTensor.from_dense(a, bsr), np.zeros(6)
    )
    i, j = np.indices(a.shape)
    np.testing.assert_allclose(result, (a * i * j).sum(axis=1), rtol=1e-12)


DENSE_SELECT = """
func.func @triu(%a: tensor<?x?xf64>, %init: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
      affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x?xf64>) outs(%init : tensor<?x?xf64>) {
  ^bb0(%x: f64, %o: f64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = sparse_tensor.select %x : f64 {
    ^bb0(%v: f64):
      %keep = arith.cmpi ule, %i, %j : index
      sparse_tensor.yield %keep : i1
    }
    linalg.yield %s : f64
  } -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}"""


def test_dense_kernel_with_a_semiring_op_zeroes_the_entries_without_a_value() -> None:
    """A kernel without sparse operands whose body may have no value (a
    `select`) writes zero there, as a sparse kernel's output not read by its
    body is zero-initialized; it used to leave the `outs` values in place."""
    a = np.arange(1.0, 13.0).reshape(3, 4)
    result = xsparse.compile(DENSE_SELECT)(a, np.full((3, 4), 99.0))
    np.testing.assert_array_equal(result, np.triu(a))


IN_PLACE_PRODUCT = """
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
func.func @scale(%a: tensor<?xf64, #SV>, %b: tensor<?xf64>, %x: tensor<?xf64, #SV>)
    -> tensor<?xf64, #SV> {
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>,
      affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64>) outs(%x : tensor<?xf64, #SV>) {
  ^bb0(%av: f64, %bv: f64, %o: f64):
    %m = arith.maximumf %bv, %av : f64
    %p = arith.mulf %m, %av : f64
    %s = arith.mulf %o, %p : f64
    linalg.yield %s : f64
  } -> tensor<?xf64, #SV>
  return %r : tensor<?xf64, #SV>
}"""


def test_in_place_update_writes_zero_where_the_product_vanishes() -> None:
    """x(i) = x(i) * (max(b(i), a(i)) * a(i)) with x sparse, updated in place:
    where a stores nothing, the stored x(i) becomes 0. The loop iterated x and
    a together (the max, dense over b, hid that a annihilates the product) and
    left those entries as they were."""
    sv = "#sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>"
    a = np.array([0, 0, 0, 1.75, 0, 0, 0, 0, 0])
    b = np.array([1.75, 0.5, 1, -1.75, -0.75, 1, -1.75, 0.75, -1])
    x = np.array([1.75, 0, 0, -0.75, 0, 0, 0.25, 0, 1])
    result = xsparse.compile(IN_PLACE_PRODUCT)(
        SparseTensor.from_dense(a, sv), b, SparseTensor.from_dense(x, sv)
    )
    assert isinstance(result, SparseTensor)
    np.testing.assert_array_equal(result.to_dense(), x * np.maximum(b, a) * a)


TIMES_SELECTED = """
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
func.func @times_positive(%a: tensor<?xf64, #SV>, %y: tensor<?xf64>) -> tensor<?xf64> {
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]}
      ins(%a : tensor<?xf64, #SV>) outs(%y : tensor<?xf64>) {
  ^bb0(%x: f64, %o: f64):
    %s = sparse_tensor.select %x : f64 {
    ^bb0(%v: f64):
      %zero = arith.constant 0.0 : f64
      %keep = arith.cmpf ogt, %v, %zero : f64
      sparse_tensor.yield %keep : i1
    }
    %p = arith.mulf %o, %s : f64
    linalg.yield %p : f64
  } -> tensor<?xf64>
  return %r : tensor<?xf64>
}"""


def test_output_times_a_missing_value_is_zero() -> None:
    """y(i) = y(i) * select(a(i) > 0): where the select drops a stored entry,
    the product is y(i) * 0, as where `a` stores nothing (and as
    mlir-runner-22 prints); it used to leave y(i) as it was."""
    sv = "#sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>"
    a = np.array([0.0, 2.0, -1.0, 0.5, -3.0])
    y = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    result = xsparse.compile(TIMES_SELECTED)(SparseTensor.from_dense(a, sv), y.copy())
    np.testing.assert_array_equal(result, y * np.where(a > 0, a, 0.0))


PLUS_COLUMN_INDEX = """
func.func @plus_j(%a: tensor<?x?xf32>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
      affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    %s = arith.addf %x, %jf : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}"""


def test_vector_loop_over_linalg_index_gets_its_scalar_epilogue() -> None:
    """With vl=8, a loop using `linalg.index` (a vector constant of lane
    offsets) is peeled into a vector loop and a scalar epilogue. The
    epilogue's builder gave up on the constant and left half-built loads
    using the kernel's buffers, which crashed sparse-tensor-codegen."""
    a = np.arange(3 * 13, dtype=np.float32).reshape(3, 13)
    result = xsparse.compile(PLUS_COLUMN_INDEX, vl=8)(a, np.zeros_like(a))
    np.testing.assert_array_equal(result, a + np.arange(13, dtype=np.float32))


def bsr(widths: str) -> str:
    return (
        "#sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, "
        "j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)"
        f"{widths} }}>"
    )


BSR_ADD = """
func.func @add(%a: tensor<4x6xf64, {A}>, %b: tensor<4x6xf64, {B}>,
    %c: tensor<4x6xf64>) -> tensor<4x6xf64> {{
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>,
      affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}}
      ins(%a, %b : tensor<4x6xf64, {A}>, tensor<4x6xf64, {B}>)
      outs(%c : tensor<4x6xf64>) {{
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = arith.addf %x, %y : f64
    linalg.yield %s : f64
  }} -> tensor<4x6xf64>
  return %r : tensor<4x6xf64>
}}"""


def test_block_operands_demapped_together_keep_their_own_widths() -> None:
    """Two BSR operands with the same blocks but other position/coordinate
    widths are demapped together, each keeping its widths; the second used to
    be read with the first one's (8-bit coordinates read from a 32-bit buffer)."""
    a_enc, b_enc = bsr(", crdWidth = 8"), bsr(", posWidth = 16, crdWidth = 32")
    rng = np.random.default_rng(11)
    a = np.where(rng.random((4, 6)) < 0.4, rng.standard_normal((4, 6)), 0.0)
    b = np.where(rng.random((4, 6)) < 0.4, rng.standard_normal((4, 6)), 0.0)
    kernel = xsparse.compile(BSR_ADD.format(A=a_enc, B=b_enc))
    result = kernel(
        SparseTensor.from_dense(a, a_enc),
        SparseTensor.from_dense(b, b_enc),
        np.zeros((4, 6)),
    )
    np.testing.assert_array_equal(result, a + b)


P8 = "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 8 }>"
SPMV_P8 = f"""
func.func @spmv(%a: tensor<?x?xf64, {P8}>, %x: tensor<?xf64>, %y: tensor<?xf64>)
    -> tensor<?xf64> {{
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>,
      affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}}
      ins(%a, %x : tensor<?x?xf64, {P8}>, tensor<?xf64>) outs(%y : tensor<?xf64>) {{
  ^bb0(%av: f64, %xv: f64, %o: f64):
    %m = arith.mulf %av, %xv : f64
    %s = arith.addf %o, %m : f64
    linalg.yield %s : f64
  }} -> tensor<?xf64>
  return %r : tensor<?xf64>
}}"""


def test_narrow_positions_past_the_signed_range_are_unsigned() -> None:
    """8-bit positions up to 255 (MLIR's are unsigned): a CSR matrix with 225
    entries and `posWidth = 8`. The loops sign-extended them (a position of
    200 read as -56) and the kernel read out of bounds (SIGSEGV)."""
    rng = np.random.default_rng(0)
    a = np.where(rng.random((20, 20)) < 0.6, 1.0 + rng.random((20, 20)), 0.0)
    assert 128 <= np.count_nonzero(a) < 256
    x = rng.random(20)
    result = xsparse.compile(SPMV_P8)(SparseTensor.from_dense(a, P8), x, np.zeros(20))
    np.testing.assert_allclose(result, a @ x, rtol=1e-12)


RETURN_OUTPUT = """
func.func @kernel(%x: tensor<?xT>, %init: tensor<?xT>) -> tensor<?xT> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
      affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<?xT>) outs(%init : tensor<?xT>) {
  ^bb0(%a: T, %o: T):
    linalg.yield %o : T
  } -> tensor<?xT>
  return %r : tensor<?xT>
}"""


def test_kernels_with_the_same_llvm_ir_keep_their_own_signatures() -> None:
    """Two kernels whose LLVM IR is the same (pointers are untyped) but whose
    element types differ used to share one JIT module and its argument checks:
    the i64 kernel was refused its int64 arrays ("expected dtype float64")."""
    f64 = xsparse.compile(RETURN_OUTPUT.replace("T", "f64"))
    i64 = xsparse.compile(RETURN_OUTPUT.replace("T", "i64"))
    np.testing.assert_array_equal(f64(np.ones(3), np.zeros(3)), [0.0, 0.0, 0.0])
    result = i64(np.ones(3, np.int64), np.zeros(3, np.int64))
    assert result.dtype == np.int64
    np.testing.assert_array_equal(result, [0, 0, 0])


SCALAR_IN_VECTOR_LOOP = """
func.func @kernel(%s: tensor<f32>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>,
      affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%s : tensor<f32>) outs(%init : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}"""


def test_vectorized_loop_reads_a_0d_operand_as_a_broadcast() -> None:
    """A loop that sparse-vectorization vectorizes and that loads a 0-d tensor
    (a scalar operand) in its body: the load has no subscript to vectorize
    along (IndexError: list index out of range, an internal error); it is the
    same value in every lane."""
    kernel = xsparse.compile(SCALAR_IN_VECTOR_LOOP, vl=8)
    result = kernel(np.array(2.5, np.float32), np.zeros(11, np.float32))
    np.testing.assert_array_equal(result, np.full(11, 2.5, np.float32))


ANNIHILATED_REDUCTION = """
#V = #sparse_tensor.encoding<{ map = (d0) -> (d0 : dense) }>
#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>
func.func @kernel(%x: tensor<?xi64, #V>, %a: tensor<?x?xi64, #COO>) -> tensor<?x?xi64, #COO> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xi64, #COO>
  %n = tensor.dim %a, %c1 : tensor<?x?xi64, #COO>
  %init = tensor.empty(%m, %n) : tensor<?x?xi64, #COO>
  %one = arith.constant 1 : i64
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, l) -> (l)>,
      affine_map<(i, j, l) -> (i, j)>, affine_map<(i, j, l) -> (i, j)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %a : tensor<?xi64, #V>, tensor<?x?xi64, #COO>)
      outs(%init : tensor<?x?xi64, #COO>) {
  ^bb0(%xv: i64, %av: i64, %o: i64):
    %b = sparse_tensor.binary %av, %xv : i64, i64 to i64
      overlap = {}
      left = {}
      right = {
      ^bb0(%r: i64):
        %c = arith.constant -1 : i64
        sparse_tensor.yield %c : i64
      }
    %p = sparse_tensor.reduce %o, %b, %one : i64 {
      ^bb0(%u: i64, %v: i64):
        %w = arith.muli %u, %v : i64
        sparse_tensor.yield %w : i64
    }
    linalg.yield %p : i64
  } -> tensor<?x?xi64, #COO>
  return %r : tensor<?x?xi64, #COO>
}"""


def test_reduction_that_reduces_nothing_inserts_no_entry() -> None:
    """A custom reduction into a sparse result whose every term is absent where
    an operand is stored (`binary` with empty overlap and left regions): the
    result has no entry there. The reduction's innermost step was the identity
    and still marked the reduction visited, so its identity (1) was inserted
    (MLIR 22 does the same)."""
    kernel = xsparse.compile(ANNIHILATED_REDUCTION)
    a = np.array([[0, 3, 0], [0, 0, 0]], np.int64)
    coo = "#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>"
    x = SparseTensor.from_dense(
        np.ones(5, np.int64), "#sparse_tensor.encoding<{ map = (d0) -> (d0 : dense) }>"
    )
    result = kernel(x, SparseTensor.from_dense(a, coo))
    np.testing.assert_array_equal(result.to_dense(), [[-1, 0, -1], [-1, -1, -1]])
    assert result.nse == 5


EXPANDED_REDUCTION = """
#CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : dense, j : compressed, k : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (k) -> (k : compressed) }>
func.func @kernel(%a: tensor<?x?x?xf64, #CSF>, %x: tensor<?xf64, #SV>) -> tensor<?xf64, #SV> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c1 : tensor<?x?x?xf64, #CSF>
  %init = tensor.empty(%n) : tensor<?xf64, #SV>
  %one = arith.constant 1.0 : f64
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>,
      affine_map<(i, j, k) -> (k)>, affine_map<(i, j, k) -> (j)>],
      iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%a, %x : tensor<?x?x?xf64, #CSF>, tensor<?xf64, #SV>)
      outs(%init : tensor<?xf64, #SV>) {
  ^bb0(%av: f64, %xv: f64, %o: f64):
    %b = sparse_tensor.binary %av, %xv : f64, f64 to f64
      overlap = {
      ^bb0(%p: f64, %q: f64):
        %m = arith.mulf %p, %q : f64
        sparse_tensor.yield %m : f64
      }
      left = {}
      right = {}
    %s = sparse_tensor.reduce %o, %b, %one : f64 {
      ^bb0(%u: f64, %v: f64):
        %w = arith.mulf %u, %v : f64
        sparse_tensor.yield %w : f64
    }
    linalg.yield %s : f64
  } -> tensor<?xf64, #SV>
  return %r : tensor<?xf64, #SV>
}"""


def test_expanded_reduction_that_reduces_nothing_inserts_no_entry() -> None:
    """The same under access-pattern expansion (the output's loop j sits
    between the reductions over i and k): a j whose products all meet an
    absent x(k) gets no entry. The workspace entry used to be filled with the
    reduction's start, the identity 1 (MLIR 22 does the same)."""
    csf = "#sparse_tensor.encoding<{ map = (i, j, k) -> (i : dense, j : compressed, k : compressed) }>"
    sv = "#sparse_tensor.encoding<{ map = (k) -> (k : compressed) }>"
    a = np.zeros((2, 3, 2))
    a[0, 0, 0] = 2.0  # x(0) is absent: no product for j = 0
    a[1, 2, 1] = 3.0
    x = np.array([0.0, 5.0])
    result = xsparse.compile(EXPANDED_REDUCTION)(
        SparseTensor.from_dense(a, csf), SparseTensor.from_dense(x, sv)
    )
    np.testing.assert_array_equal(result.to_dense(), [0.0, 0.0, 15.0])
    assert result.nse == 1


BATCHED_SPGEMM = """
#B = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : batch, d1 : loose_compressed) }>
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @kernel(%a: tensor<4x6xi32, #B>, %b: tensor<6x9xi32, #CSR>) -> tensor<4x9xi32, #CSR> {
  %init = tensor.empty() : tensor<4x9xi32, #CSR>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
      affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x6xi32, #B>, tensor<6x9xi32, #CSR>)
      outs(%init : tensor<4x9xi32, #CSR>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %m = arith.muli %x, %y : i32
    %s = arith.addi %o, %m : i32
    linalg.yield %s : i32
  } -> tensor<4x9xi32, #CSR>
  return %r : tensor<4x9xi32, #CSR>
}"""


@pytest.mark.parametrize("filled", [False, True])
def test_output_size_hint_does_not_count_batched_entries(filled: bool) -> None:
    """Generated seed 70000343: the size hint of an SpGEMM's sparse output
    summed |B(k, :)| over A's entries, counted as the first size of A's
    values; with a `batch` level that memref is `memref<4x?xi32>`, whose
    first size is the batch count. On an empty A the hint loop read four
    coordinates of an empty buffer (SIGSEGV). Batched operands give no hint."""
    batched = "#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : batch, d1 : loose_compressed) }>"
    csr = "#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>"
    rng = np.random.default_rng(343)
    a = np.zeros((4, 6), np.int32)
    if filled:
        a[1, 2], a[3, 0] = 3, -2
    b = (rng.integers(-3, 4, (6, 9)) * (rng.random((6, 9)) < 0.5)).astype(np.int32)
    result = xsparse.compile(BATCHED_SPGEMM)(
        SparseTensor.from_dense(a, batched), SparseTensor.from_dense(b, csr)
    )
    np.testing.assert_array_equal(result.to_dense(), a @ b)


def test_repeated_scipy_indices_are_summed_by_every_kernel() -> None:
    """Generated einsum seed 11000269: a CSR matrix with a repeated column in
    a row (scipy sums them) copied by `ki->ki` kept the last one, 2 for 1 + 2:
    the kernel stored each entry where it must add them. A term that reads
    the matrix twice (a square) is not linear in its entries: the matrix is
    made canonical first."""
    repeated = sp.csr_array(
        (np.array([1.0, 2.0, 5.0]), np.array([1, 1, 0]), np.array([0, 2, 3, 3])),
        shape=(3, 3),
    )
    assert not repeated.has_canonical_format
    dense = np.asarray(repeated.toarray(), dtype=np.float64)
    np.testing.assert_array_equal(
        xsparse.einsum("ki->ki", repeated, format="dense"), dense
    )
    np.testing.assert_array_equal(
        xsparse.einsum("ki->ik", repeated, format="dense"), dense.T
    )
    np.testing.assert_array_equal(
        xsparse.evaluate("y(i,j) = A(i,j) * A(i,j)", A=repeated, format="dense"),
        dense * dense,
    )


@pytest.mark.parametrize("fmt", ["dense", None])
def test_a_divisor_stored_sparsely_is_read_where_it_is_stored(fmt: str | None) -> None:
    """`x(j) / (A(i,j) + 1)` visited every j of the dense numerator but never
    co-iterated A, so the divisor read whichever entry of A the position
    held (4 = 3 + 1 across row 0): a division is visited where its left side
    is, and its right side is read where it is stored too."""
    a = sp.csr_array(np.array([[0.0, 3.0, 0.0], [0.0, 0.0, 0.0], [5.0, 0.0, 0.0]]))
    b = sp.csr_array(np.array([[2.0, 0.0, 0.0], [0.0, 0.0, 0.0], [4.0, 0.0, 1.0]]))
    x = np.array([1.0, 2.0, 4.0])
    da = np.asarray(a.toarray(), dtype=np.float64)
    db = np.asarray(b.toarray(), dtype=np.float64)
    cases: list[tuple[str, dict[str, Any], Any]] = [
        ("y(i,j) = x(j) / (A(i,j) + 1)", {"A": a, "x": x}, x / (da + 1)),
        ("y(i,j) = 1 / (A(i,j) + 1)", {"A": a}, 1 / (da + 1)),
        ("y(i,j) = A(i,j) / (B(i,j) + 1)", {"A": a, "B": b}, da / (db + 1)),
        ("y(i,j) = A(i,j) / x(j)", {"A": a, "x": x}, da / x),
    ]
    for text, operands, expected in cases:
        result = xsparse.evaluate(text, format=fmt, **operands)
        dense = result.toarray() if hasattr(result, "toarray") else np.asarray(result)
        np.testing.assert_allclose(dense, expected, err_msg=text)


def test_a_two_four_spmm_as_written_compiles_and_multiplies() -> None:
    """A 2:4 SpMM (`C(i,j) += A(i,k) * B(k,j)`) was refused as written, while
    mlir-opt-22 runs it: sparse-reinterpret-map demapped a block-encoded
    operand only where it indexed every loop, and SpMM's A does not index
    j (fuzz seed 190000 with --mlir). The loops A does not index now stay
    loops of their own beside its levels, as in MLIR 22's pass."""
    rng = np.random.default_rng(7)
    dense = rng.standard_normal((6, 12))
    dense[:, 1::4] = 0.0  # at most two nonzeros in every group of four
    dense[:, 2::4] = 0.0
    dense[3] = 0.0  # an empty row
    b, c = rng.standard_normal((12, 5)), rng.standard_normal((6, 5))
    a = SparseTensor.from_dense(dense, encoding("2:4"))
    kernel = xsparse.compile(matmul_kernel("2:4", None))
    np.testing.assert_allclose(kernel(a, b, c.copy()), c + dense @ b)
