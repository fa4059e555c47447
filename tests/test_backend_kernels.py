"""JIT-run hand-written memref-level kernels against numpy (fixed seeds, empty inputs)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
from xdsl.parser import Parser

from xsparse.backend import jit, lower_to_llvm
from xsparse.backend.jit import JITModule
from xsparse.dialect_registry import make_context


def compile_mlir(text: str, **options: Any) -> JITModule:
    ctx = make_context()
    return jit.compile(lower_to_llvm(Parser(ctx, text).parse_module()), **options)


SPMV = (Path(__file__).parent / "kernels" / "memref" / "spmv.mlir").read_text()


@pytest.mark.parametrize("shape", [(50, 40), (0, 7), (9, 0)])
def test_csr_spmv(shape: tuple[int, int]) -> None:
    f = compile_mlir(SPMV).function("spmv")
    a = sp.random(*shape, density=0.2, format="csr", random_state=1)
    x = np.random.default_rng(2).random(shape[1])
    y = np.zeros(shape[0])
    f(a.indptr.astype(np.int64), a.indices.astype(np.int64), a.data, x, y)
    np.testing.assert_allclose(y, a @ x)


SPMM = """
func.func @spmm(%pos: memref<?xi32>, %crd: memref<?xi32>, %val: memref<?xf32>,
                %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %c, %c0 : memref<?x?xf32>
  %n = memref.dim %c, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %m step %c1 {
    %i1 = arith.addi %i, %c1 : index
    %lo32 = memref.load %pos[%i] : memref<?xi32>
    %hi32 = memref.load %pos[%i1] : memref<?xi32>
    %lo = arith.index_cast %lo32 : i32 to index
    %hi = arith.index_castui %hi32 : i32 to index
    scf.for %p = %lo to %hi step %c1 {
      %k32 = memref.load %crd[%p] : memref<?xi32>
      %k = arith.index_cast %k32 : i32 to index
      %a = memref.load %val[%p] : memref<?xf32>
      scf.for %j = %c0 to %n step %c1 {
        %bv = memref.load %b[%k, %j] : memref<?x?xf32>
        %cv = memref.load %c[%i, %j] : memref<?x?xf32>
        %prod = arith.mulf %a, %bv : f32
        %sum = arith.addf %cv, %prod : f32
        memref.store %sum, %c[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}
"""


def test_csr_spmm_f32_i32_indices() -> None:
    f = compile_mlir(SPMM).function("spmm")
    rng = np.random.default_rng(3)
    a = sp.random(30, 20, density=0.3, format="csr", random_state=4, dtype=np.float32)
    b = rng.random((20, 12), dtype=np.float32)
    c = np.zeros((30, 12), np.float32)
    f(a.indptr.astype(np.int32), a.indices.astype(np.int32), a.data, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5)
    # An identity-layout memref needs a row-major array.
    with pytest.raises(ValueError, match="stride of dimension 1"):
        f(
            a.indptr.astype(np.int32),
            a.indices.astype(np.int32),
            a.data,
            np.asfortranarray(b),
            c,
        )


STRIDED = """
func.func @sum(%a: memref<?x?xf64, strided<[?, ?], offset: ?>>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %m = memref.dim %a, %c0 : memref<?x?xf64, strided<[?, ?], offset: ?>>
  %n = memref.dim %a, %c1 : memref<?x?xf64, strided<[?, ?], offset: ?>>
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> (f64) {
    %t = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %acc) -> (f64) {
      %v = memref.load %a[%i, %j] : memref<?x?xf64, strided<[?, ?], offset: ?>>
      %w = arith.mulf %v, %v : f64
      %r = arith.addf %acc2, %w : f64
      scf.yield %r : f64
    }
    scf.yield %t : f64
  }
  return %s : f64
}
"""


def test_strided_views_go_through_their_strides() -> None:
    f = compile_mlir(STRIDED).function("sum")
    a = np.random.default_rng(9).random((8, 10))
    for view in (a, a.T, a[1::3, ::-2], a[:0]):
        assert f(view) == pytest.approx((view * view).sum())


MERGE_DOT = """
func.func @dot(%ca: memref<?xindex>, %va: memref<?xf64>,
               %cb: memref<?xindex>, %vb: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %na = memref.dim %ca, %c0 : memref<?xindex>
  %nb = memref.dim %cb, %c0 : memref<?xindex>
  %r:3 = scf.while (%i = %c0, %j = %c0, %acc = %zero) : (index, index, f64) -> (index, index, f64) {
    %ina = arith.cmpi ult, %i, %na : index
    %inb = arith.cmpi ult, %j, %nb : index
    %both = arith.andi %ina, %inb : i1
    scf.condition(%both) %i, %j, %acc : index, index, f64
  } do {
  ^bb0(%i: index, %j: index, %acc: f64):
    %a = memref.load %ca[%i] : memref<?xindex>
    %b = memref.load %cb[%j] : memref<?xindex>
    %eq = arith.cmpi eq, %a, %b : index
    %next = scf.if %eq -> (f64) {
      %x = memref.load %va[%i] : memref<?xf64>
      %y = memref.load %vb[%j] : memref<?xf64>
      %m = arith.mulf %x, %y : f64
      %s = arith.addf %acc, %m : f64
      scf.yield %s : f64
    } else {
      scf.yield %acc : f64
    }
    %k = arith.minui %a, %b : index
    %ai = arith.cmpi eq, %a, %k : index
    %bi = arith.cmpi eq, %b, %k : index
    %di = arith.extui %ai : i1 to i64
    %dj = arith.extui %bi : i1 to i64
    %ii = arith.index_cast %di : i64 to index
    %jj = arith.index_cast %dj : i64 to index
    %i2 = arith.addi %i, %ii : index
    %j2 = arith.addi %j, %jj : index
    scf.yield %i2, %j2, %next : index, index, f64
  }
  return %r#2 : f64
}
"""


@pytest.mark.parametrize("density", [0.3, 0.0])
def test_two_way_merge_sparse_dot(density: float) -> None:
    f = compile_mlir(MERGE_DOT).function("dot")
    a = sp.random(1, 200, density=density, format="csr", random_state=5)
    b = sp.random(1, 200, density=density, format="csr", random_state=6)
    got = f(a.indices.astype(np.int64), a.data, b.indices.astype(np.int64), b.data)
    assert isinstance(got, float)
    assert got == pytest.approx((a.multiply(b)).sum())


REDUCE_0D = """
func.func @total(%a: memref<?xi32>, %out: memref<i32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xi32>
  %init = memref.load %out[] : memref<i32>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (i32) {
    %v = memref.load %a[%i] : memref<?xi32>
    %r = arith.addi %acc, %v : i32
    scf.yield %r : i32
  }
  memref.store %s, %out[] : memref<i32>
  return
}
"""


@pytest.mark.parametrize("n", [0, 1, 1000])
def test_reduction_into_0d_memref(n: int) -> None:
    f = compile_mlir(REDUCE_0D).function("total")
    a = np.random.default_rng(7).integers(-100, 100, n).astype(np.int32)
    out = np.array(5, np.int32)
    f(a, out)
    assert int(out) == 5 + int(a.sum())


VECTOR_KERNELS = """
func.func @masked_sum(%a: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f64
  %pass = arith.constant dense<0.0> : vector<8xf64>
  %n = memref.dim %a, %c0 : memref<?xf64>
  %s = scf.for %i = %c0 to %n step %c8 iter_args(%acc = %zero) -> (f64) {
    %left = arith.subi %n, %i : index
    %mask = vector.create_mask %left : vector<8xi1>
    %v = vector.maskedload %a[%i], %mask, %pass : memref<?xf64>, vector<8xi1>, vector<8xf64> into vector<8xf64>
    %r = vector.reduction <add>, %v, %acc : vector<8xf64> into f64
    scf.yield %r : f64
  }
  return %s : f64
}
func.func @gather(%x: memref<?xf32>, %idx: memref<?xi32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %pass = arith.constant dense<0.0> : vector<4xf32>
  %ipass = arith.constant dense<0> : vector<4xi32>
  %n = memref.dim %y, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c4 {
    %left = arith.subi %n, %i : index
    %mask = vector.create_mask %left : vector<4xi1>
    %iv = vector.maskedload %idx[%i], %mask, %ipass : memref<?xi32>, vector<4xi1>, vector<4xi32> into vector<4xi32>
    %g = vector.gather %x[%c0][%iv], %mask, %pass : memref<?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
    vector.maskedstore %y[%i], %mask, %g : memref<?xf32>, vector<4xi1>, vector<4xf32>
  }
  return
}
func.func @imax(%a: memref<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<?xi64>, vector<4xi64>
  %m = vector.reduction <maxsi>, %v : vector<4xi64> into i64
  return %m : i64
}
"""


@pytest.mark.parametrize("n", [0, 5, 8, 21])
def test_vector_kernels(n: int) -> None:
    module = compile_mlir(VECTOR_KERNELS)
    rng = np.random.default_rng(8)
    a = rng.random(n)
    assert module.function("masked_sum")(a) == pytest.approx(a.sum())
    x = rng.random(50, dtype=np.float32)
    idx = rng.integers(0, 50, n).astype(np.int32)
    y = np.full(n, -1, np.float32)
    module.function("gather")(x, idx, y)
    np.testing.assert_array_equal(y, x[idx])
    b = rng.integers(-(2**40), 2**40, 4)
    assert module.function("imax")(b) == b.max()


RESULTS = """
func.func @iota(%n: index, %scale: f32) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %i64 = arith.index_cast %i : index to i64
    %f = arith.sitofp %i64 : i64 to f32
    %v = arith.mulf %f, %scale : f32
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return %m : memref<?xf32>
}
func.func @same(%a: memref<?x?xf64>) -> (memref<?x?xf64>, index) {
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  return %a, %n : memref<?x?xf64>, index
}
func.func @tail(%a: memref<?xi64>) -> memref<?xi64, strided<[1], offset: ?>> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %a, %c0 : memref<?xi64>
  %m = arith.subi %n, %c2 : index
  %v = memref.subview %a[2] [%m] [1] : memref<?xi64> to memref<?xi64, strided<[1], offset: ?>>
  return %v : memref<?xi64, strided<[1], offset: ?>>
}
func.func @grow(%n: index) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : i64
  %m = memref.alloc(%c1) : memref<?xi64>
  memref.store %c7, %m[%c0] : memref<?xi64>
  %g = memref.realloc %m(%n) : memref<?xi64> to memref<?xi64>
  scf.for %i = %c1 to %n step %c1 {
    %v = arith.index_cast %i : index to i64
    memref.store %v, %g[%i] : memref<?xi64>
  }
  return %g : memref<?xi64>
}
"""


def test_memref_results() -> None:
    module = compile_mlir(RESULTS)
    out = module.function("iota")(6, np.float32(0.5))
    np.testing.assert_array_equal(out, np.arange(6, dtype=np.float32) * 0.5)
    assert out.dtype == np.float32 and out.base is not None
    assert module.function("iota")(0, 1.0).shape == (0,)
    a = np.ones((3, 4))
    same, n = module.function("same")(a)
    assert same is a and n == 4
    b = np.arange(10)
    tail = module.function("tail")(b)
    np.testing.assert_array_equal(tail, b[2:])
    tail[0] = 99
    assert b[2] == 99  # a view of the argument, not a copy
    np.testing.assert_array_equal(module.function("grow")(5), [7, 1, 2, 3, 4])


def test_signature_mismatches_raise_before_running() -> None:
    module = compile_mlir(SPMV + RESULTS)
    f = module.function("spmv")
    i64 = np.zeros(3, np.int64)
    f64 = np.zeros(3)
    with pytest.raises(TypeError, match="dtype"):
        f(i64, i64, f64.astype(np.float32), f64, f64)
    with pytest.raises(ValueError, match="rank"):
        f(i64, i64, f64, np.zeros((3, 1)), f64)
    with pytest.raises(TypeError, match="numpy array"):
        f(i64, i64, f64, [0.0, 1.0], f64)
    with pytest.raises(TypeError, match="takes 5 arguments"):
        f(i64, i64, f64)
    with pytest.raises(TypeError, match="integer"):
        module.function("iota")(2.5, 1.0)
    misaligned = np.lib.stride_tricks.as_strided(f64, (2,), (12,))
    with pytest.raises(ValueError, match="element size"):
        f(i64, i64, f64, misaligned, f64)


def test_arguments_seen_before_are_checked_again() -> None:
    """A call remembers the last array of each argument; an array changed in
    place since (shape, dtype) is checked again, and alternating arrays each
    get their own data."""
    f = compile_mlir(SPMV).function("spmv")
    pos, crd = np.array([0, 1, 2]), np.array([1, 0])
    val, x = np.array([2.0, 3.0]), np.array([5.0, 7.0])
    y1, y2 = np.zeros(2), np.full(2, 100.0)
    f(pos, crd, val, x, y1)
    np.testing.assert_array_equal(y1, [14.0, 15.0])
    f(pos, crd, val, x, y2)
    f(pos, crd, val, x, y1)
    np.testing.assert_array_equal(y1, [28.0, 30.0])
    np.testing.assert_array_equal(y2, [114.0, 115.0])
    x.shape = (2, 1)
    with pytest.raises(ValueError, match="rank"):
        f(pos, crd, val, x, y1)
    x.shape = (2,)
    x.dtype = np.int64
    with pytest.raises(TypeError, match="dtype"):
        f(pos, crd, val, x, y1)
    x.dtype = np.float64
    f(pos, crd, val, x, y1)
    np.testing.assert_array_equal(y1, [42.0, 45.0])


def test_calls_from_threads_use_their_own_arrays() -> None:
    import threading

    f = compile_mlir(SPMV).function("spmv")
    pos, crd = np.array([0, 1, 2]), np.array([1, 0])
    val = np.array([2.0, 3.0])
    failures: list[str] = []

    def work(seed: int) -> None:
        xs = [np.array([seed, i], np.float64) for i in range(4)]
        for _ in range(200):
            for i, x in enumerate(xs):
                y = np.zeros(2)
                f(pos, crd, val, x, y)
                if y.tolist() != [2.0 * i, 3.0 * seed]:
                    failures.append(f"thread {seed}: {y.tolist()}")

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


def test_kernel_calls_with_remembered_tensors() -> None:
    """The Kernel's per-call shortcuts (storage kept on the SparseTensor,
    encodings compared once) give the same results and errors."""
    import xsparse
    from xsparse import SparseTensor

    kernel = xsparse.compile(
        (Path(__file__).parent / "kernels" / "spmv_csr.mlir").read_text()
    )
    dense = np.array([[1.0, 0, 2], [0, 3, 0]])
    x = np.array([1.0, 2.0, 3.0])
    csr = SparseTensor.from_dense(
        dense,
        "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>",
    )
    csc = SparseTensor.from_dense(
        dense,
        "#sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>",
    )
    for tensor in (csr, csr, csc, csc):
        np.testing.assert_array_equal(kernel(tensor, x, np.zeros(2)), dense @ x)
    # A replaced buffer is used (its storage is built again).
    assert csr.storage()[2] is csr.values
    csr.values = np.array([10.0, 20.0, 30.0])
    assert csr.storage()[2] is csr.values
    np.testing.assert_array_equal(kernel(csr, x, np.zeros(2)), [70.0, 60.0])
    with pytest.raises(ValueError, match="disagree"):
        kernel(csr, np.ones(4), np.zeros(2))
    with pytest.raises(ValueError, match="disagree"):
        kernel(csr, x, np.zeros(3))
    with pytest.raises(TypeError, match="dtype"):
        kernel(csr, x.astype(np.float32), np.zeros(2))
    y = np.zeros(2)
    assert kernel(csr, x, y) is y


STREAM = """
func.func @stream(%m: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %two = arith.constant 2.0 : f64
  %v = vector.broadcast %two : f64 to vector<4xf64>
  vector.store %v, %m[%c0] {nontemporal = true} : memref<?xf64>, vector<4xf64>
  vector.store %v, %m[%c4] {alignment = 32 : i64, nontemporal = true} : memref<?xf64>, vector<4xf64>
  return
}
"""


def test_nontemporal_stores_reach_llvm() -> None:
    """`vector.store {nontemporal}` is LLVM's `!nontemporal` store, at the
    element's alignment unless `alignment` promises more."""
    module = Parser(make_context(), STREAM).parse_module()
    ir = lower_to_llvm(module).llvm_ir()
    assert "align 8, !nontemporal !0" in ir
    assert "align 32, !nontemporal !0" in ir
    assert "!0 = !{i32 1}" in ir
    raw = np.zeros(12)
    skip = (-raw.ctypes.data % 32) // 8
    m = raw[skip : skip + 8]
    compile_mlir(STREAM).function("stream")(m)
    np.testing.assert_array_equal(m, np.full(8, 2.0))
