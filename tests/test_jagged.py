"""Jagged buffers through xsparse.compile, against ragged Python lists and numpy."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

import xsparse
from xsparse.diagnostics import parse_module
from xsparse.dialect_registry import make_context
from xsparse.transforms.structured.lower_jagged import LowerJaggedPass
from xsparse.transforms.structured.lower_subset import LowerSubsetPass

RNG = np.random.default_rng(11)

CSR_ROWS = """
func.func @rows(%pos: memref<?xindex>, %vals: memref<?xf64>, %sums: memref<?xf64>, %lens: memref<?xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %j = jagged.from_positions %pos, %vals : memref<?xindex>, memref<?xf64> -> !jagged.buffer<?xmemref<?xf64>>
  %n = jagged.dim %j, 0 : !jagged.buffer<?xmemref<?xf64>>
  scf.for %r = %c0 to %n step %c1 {
    %len = jagged.size %j[%r], 0 : !jagged.buffer<?xmemref<?xf64>>
    memref.store %len, %lens[%r] : memref<?xindex>
    %s = scf.for %k = %c0 to %len step %c1 iter_args(%acc = %zero) -> (f64) {
      %v = jagged.load %j[%r][%k] : !jagged.buffer<?xmemref<?xf64>>
      %a = arith.addf %acc, %v : f64
      scf.yield %a : f64
    }
    memref.store %s, %sums[%r] : memref<?xf64>
  }
  return
}
"""


def test_csr_view_is_the_ragged_rows() -> None:
    k = xsparse.compile(CSR_ROWS)
    a = sp.random_array((30, 40), density=0.1, format="csr", rng=RNG)
    ragged = [a.data[a.indptr[r] : a.indptr[r + 1]] for r in range(a.shape[0])]
    sums = np.zeros(a.shape[0])
    lens = np.zeros(a.shape[0], dtype=np.int64)
    k(a.indptr.astype(np.int64), a.data, sums, lens)
    np.testing.assert_array_equal(lens, [len(row) for row in ragged])
    np.testing.assert_allclose(sums, [row.sum() for row in ragged])


ELL = """
func.func @ell(%vals: memref<?x4xf32>, %out: memref<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %j = jagged.from_ell %vals : memref<?x4xf32> -> !jagged.buffer<?xmemref<4xf32>>
  %n = jagged.dim %j, 0 : !jagged.buffer<?xmemref<4xf32>>
  scf.for %r = %c0 to %n step %c1 {
    %w = jagged.size %j[%r], 0 : !jagged.buffer<?xmemref<4xf32>>
    scf.for %k = %c0 to %w step %c1 {
      %v = jagged.load %j[%r][%k] : !jagged.buffer<?xmemref<4xf32>>
      %d = arith.addf %v, %v : f32
      jagged.store %d, %j[%r][%k] : !jagged.buffer<?xmemref<4xf32>>
      memref.store %v, %out[%r, %k] : memref<?x4xf32>
    }
  }
  return
}
"""


def test_ell_view_folds_to_the_strided_memref() -> None:
    ctx = make_context()
    module = parse_module(ctx, ELL, "<ell>")
    LowerJaggedPass().apply(ctx, module)
    assert "jagged." not in str(module)  # every access folded into the memref
    k = xsparse.compile(ELL)
    vals = RNG.random((7, 4), dtype=np.float32)
    before = vals.copy()
    out = np.zeros_like(vals)
    k(vals, out)
    np.testing.assert_array_equal(out, before)
    np.testing.assert_array_equal(vals, 2 * before)  # stores went through the view


VIEW = """
func.func @view(%m: memref<6x5xf64>, %idx: memref<?x1xindex>, %out: memref<?x6xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %neg = arith.constant -1.0 : f64
  %v = subset.gather view(%m[%idx]) coordinates = [1] : memref<6x5xf64>[memref<?x1xindex>] -> memref<? x memref<6xf64>>
  // Overwrite the input after the view is made: the view must see it.
  scf.for %i = %c0 to %c6 step %c1 {
    memref.store %neg, %m[%i, %c0] : memref<6x5xf64>
  }
  %n = jagged.dim %v, 0 : !jagged.buffer<?xmemref<6xf64>>
  scf.for %b = %c0 to %n step %c1 {
    %col = jagged.get %v[%b] : !jagged.buffer<?xmemref<6xf64>> -> memref<6xf64, strided<[?], offset: ?>>
    scf.for %k = %c0 to %c6 step %c1 {
      %x = memref.load %col[%k] : memref<6xf64, strided<[?], offset: ?>>
      memref.store %x, %out[%b, %k] : memref<?x6xf64>
    }
  }
  jagged.dealloc %v : !jagged.buffer<?xmemref<6xf64>>
  return
}
"""


def test_gather_view_moves_no_values() -> None:
    ctx = make_context()
    module = parse_module(ctx, VIEW, "<view>")
    LowerSubsetPass().apply(ctx, module)
    gather_loop = str(module).split("jagged.alloc", 1)[1].split("memref.store", 1)[0]
    assert "memref.load %m" not in gather_loop  # building the view reads no element
    k = xsparse.compile(VIEW)
    m = RNG.random((6, 5))
    idx = np.array([[0], [3], [0], [4]])
    out = np.zeros((4, 6))
    k(m, idx, out)
    expected = m.copy()
    expected[:, 0] = -1.0
    np.testing.assert_array_equal(out, expected[:, idx[:, 0]].T)


JAGGED_OF_ALLOCS = """
func.func @mixed(%a: memref<?xf32>, %b: memref<?xf32>, %out: memref<2xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %j = jagged.alloc(%c2) : !jagged.buffer<?xmemref<?xf32>>
  jagged.set %a, %j[%c0] : memref<?xf32> into !jagged.buffer<?xmemref<?xf32>>
  jagged.set %b, %j[%c1] : memref<?xf32> into !jagged.buffer<?xmemref<?xf32>>
  scf.for %r = %c0 to %c2 step %c1 {
    %s = jagged.size %j[%r], 0 : !jagged.buffer<?xmemref<?xf32>>
    memref.store %s, %out[%r] : memref<2xindex>
    scf.for %k = %c0 to %s step %c1 {
      %v = jagged.load %j[%r][%k] : !jagged.buffer<?xmemref<?xf32>>
      %w = arith.mulf %v, %v : f32
      jagged.store %w, %j[%r][%k] : !jagged.buffer<?xmemref<?xf32>>
    }
  }
  jagged.dealloc %j : !jagged.buffer<?xmemref<?xf32>>
  return
}
"""


def test_inner_buffers_with_their_own_base_and_size() -> None:
    """The RFC's memref<2 x memref<?xf32>>: two buffers from different allocations."""
    k = xsparse.compile(JAGGED_OF_ALLOCS)
    a = RNG.random(3, dtype=np.float32)
    b = RNG.random(8, dtype=np.float32)
    ra, rb = a.copy(), b.copy()
    out = np.zeros(2, dtype=np.int64)
    k(a, b, out)
    np.testing.assert_array_equal(out, [3, 8])
    np.testing.assert_array_equal(a, ra * ra)
    np.testing.assert_array_equal(b, rb * rb)


ACROSS_BOUNDARIES = """
!J = !jagged.buffer<?xmemref<?xf64>>

func.func private @view(%pos: memref<?xindex>, %vals: memref<?xf64>) -> !J {
  %j = jagged.from_positions %pos, %vals : memref<?xindex>, memref<?xf64> -> !J
  return %j : !J
}

func.func private @row_sum(%j: !J, %r: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = jagged.size %j[%r], 0 : !J
  %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
    %v = jagged.load %j[%r][%k] : !J
    %a = arith.addf %acc, %v : f64
    scf.yield %a : f64
  }
  return %s : f64
}

// out[r] = the sum of row r of A for even r, of B for odd r: the views come
// back from @view, the one for the next row is picked by scf.if and carried
// by scf.for, and @row_sum reads it.
func.func @alternate(%pa: memref<?xindex>, %va: memref<?xf64>,
                     %pb: memref<?xindex>, %vb: memref<?xf64>, %out: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = func.call @view(%pa, %va) : (memref<?xindex>, memref<?xf64>) -> !J
  %b = func.call @view(%pb, %vb) : (memref<?xindex>, memref<?xf64>) -> !J
  %n = jagged.dim %a, 0 : !J
  %last = scf.for %r = %c0 to %n step %c1 iter_args(%cur = %a) -> (!J) {
    %s = func.call @row_sum(%cur, %r) : (!J, index) -> f64
    memref.store %s, %out[%r] : memref<?xf64>
    %r1 = arith.addi %r, %c1 : index
    %parity = arith.remui %r1, %c2 : index
    %even = arith.cmpi eq, %parity, %c0 : index
    %next = scf.if %even -> (!J) {
      scf.yield %a : !J
    } else {
      scf.yield %b : !J
    }
    scf.yield %next : !J
  }
  jagged.dealloc %a : !J
  jagged.dealloc %b : !J
  return
}
"""


def test_jagged_values_cross_functions_loops_and_ifs() -> None:
    """Jagged views returned by a function, passed to one, carried by scf.for
    and chosen by scf.if, against numpy's row sums of random CSR matrices."""
    k = xsparse.compile(ACROSS_BOUNDARIES)
    for rows in (1, 7, 20):
        a = sp.random_array((rows, 15), density=0.3, format="csr", rng=RNG)
        b = sp.random_array((rows, 15), density=0.3, format="csr", rng=RNG)
        out = np.zeros(rows)
        k(a.indptr.astype(np.int64), a.data, b.indptr.astype(np.int64), b.data, out)
        sums = [np.asarray(m.sum(axis=1)).ravel() for m in (a, b)]
        want = [sums[r % 2][r] for r in range(rows)]
        np.testing.assert_allclose(out, want)
