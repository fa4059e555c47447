"""A refused call leaves every argument as it was (issue 37, "no data loss on
refusal"), and a kernel that takes memrefs says that they are unchecked.

The generated part draws calls from the einsum, kernel and decomposed
generators with one argument corrupted (`xsparse.testing.refusal_cases`)
and runs them in a child process under an address-space limit: corrupted
buffers that reached code trusting them could crash it."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse
from xsparse.backend import kernel as kernel_module
from xsparse.composable import Rule as composable_rule
from xsparse.testing.refusal_cases import arrays_of, checksums

EINSUM_SEEDS = range(100)
KERNEL_SEEDS = range(60)
DECOMPOSED_SEEDS = range(24)
MIN_CALLS = 300
CHILD_MEMORY = 8 << 30
"""Bytes of address space the child may map (the JIT and the native pool's
thread stacks included)."""

CHILD = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
from xsparse.composable import Rule
from xsparse.testing.refusal_cases import all_calls, check_all
pool = (Rule(widths=(3, 17)), Rule(), Rule(blocks=(3, 2), widths=(1, 4)),
        Rule(partitions=2, widths=(2, 8)))
calls = all_calls(range({einsum}), range({kernels}), range({decomposed}), pool)
print(json.dumps(check_all(calls)))
"""


def test_generated_refused_calls_change_nothing() -> None:
    """Hundreds of corrupted calls (wrong shapes and dtypes, coordinates out
    of range, unsorted or repeated, positions that decrease): every refused
    call raises ValueError / TypeError and leaves every buffer of every
    argument byte for byte as it was; shapes, positions and dtypes are
    always refused."""
    script = CHILD.format(
        limit=CHILD_MEMORY,
        einsum=EINSUM_SEEDS.stop,
        kernels=KERNEL_SEEDS.stop,
        decomposed=DECOMPOSED_SEEDS.stop,
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=1200
    )
    assert done.returncode == 0, done.stderr[-4000:]
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["problems"] == []
    made, refused = report["made"], report["refused"]
    assert sum(made.values()) >= MIN_CALLS, made
    for kind in ("shape", "range", "positions", "order", "duplicate", "dtype"):
        assert refused.get(kind, 0) > 0, (kind, made, refused)
    assert refused["positions"] == made["positions"]
    assert refused["dtype"] == made["dtype"]


# -- einsum / evaluate with out= ---------------------------------------------------


def _csr(rows: int, columns: int, per_row: int, seed: int) -> Any:
    rng = np.random.default_rng(seed)
    indices = np.sort(rng.integers(0, columns, (rows, per_row)), axis=1)
    indptr = np.arange(0, rows * per_row + 1, per_row)
    matrix = sp.csr_array(
        (rng.random(rows * per_row), indices.ravel(), indptr), shape=(rows, columns)
    )
    matrix.sum_duplicates()
    return matrix


@pytest.mark.parametrize("per_row", [1, 40])
def test_einsum_out_is_kept_when_a_repeated_call_is_refused(per_row: int) -> None:
    """The issue's case: `einsum(..., out=y)` ran once (its plan cached), then
    a call refused for a shape, a coordinate out of range or positions that
    decrease leaves y as it was: with y small beside A's coordinates (the
    kernel's own range check, y copied first) and large (every check first,
    no copy)."""
    a = _csr(50, 60, per_row, 1)
    x = np.random.default_rng(2).random(60)
    y = np.empty(50)
    xsparse.einsum("ij,j->i", a, x, out=y)
    np.testing.assert_allclose(y, a @ x)
    before = y.copy()
    bad_column, bad_row = a.copy(), a.copy()
    bad_column.indices[-1] = 60
    bad_row.indptr[10] = bad_row.indptr[11] + 1
    refused = [
        (a, np.ones(59), "index j has size 60"),
        (bad_column, x, "out of range"),
        (bad_row, x, "positions"),
    ]
    for matrix, vector, message in refused:
        with pytest.raises(ValueError, match=message):
            xsparse.einsum("ij,j->i", matrix, vector, out=y)
        np.testing.assert_array_equal(y, before)
        with pytest.raises(ValueError, match=message):
            xsparse.evaluate("y(i) = A(i,j) * x(j)", A=matrix, x=vector, out=y)
        np.testing.assert_array_equal(y, before)
    assert xsparse.einsum("ij,j->i", a, 2 * x, out=y) is y
    np.testing.assert_allclose(y, a @ (2 * x))


def test_einsum_out_copies_nothing_when_every_check_runs_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the kernel's own range check would need a copy of y worth more
    than a pass over A's coordinates (y large, past `SMALL_COPY`, beside
    them), every check runs before it and a call with out= copies nothing:
    the compiled checkers, then y zeroed, then the kernel."""

    def no_copy(*args: object) -> None:
        raise AssertionError("the call copied the outputs")

    a = _csr(4000, 200, 1, 3)
    x = np.random.default_rng(4).random(200)
    y = np.empty(4000)
    assert y.nbytes > kernel_module.SMALL_COPY
    xsparse.einsum("ij,j->i", a, x, out=y)
    monkeypatch.setattr(kernel_module, "save_outputs", no_copy)
    xsparse.einsum("ij,j->i", a, x, out=y)
    np.testing.assert_allclose(y, a @ x)
    bad = a.copy()
    bad.indices[0] = 10**6
    y[...] = 5.0
    with pytest.raises(ValueError, match="out of range"):
        xsparse.einsum("ij,j->i", bad, x, out=y)
    assert (y == 5.0).all()


def test_einsum_compares_sizes_the_kernel_does_not() -> None:
    """Two COO tensors whose shared index has two sizes: the kernel reads one
    through a conversion to another level order (it compares no size of it);
    the call compares them itself (found by the generated refusals)."""
    encoding = (
        "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), "
        "j : singleton) }>"
    )
    coo3 = (
        "#sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed(nonunique), "
        "j : singleton(nonunique), k : singleton) }>"
    )
    a = xsparse.SparseTensor.from_dense(np.ones((1, 1)), encoding)
    b = xsparse.SparseTensor.from_dense(np.ones((1, 4, 1)), coo3)
    xsparse.einsum("il,lji", a, b)
    wider = xsparse.SparseTensor.from_dense(np.ones((1, 2)), encoding)
    with pytest.raises(ValueError, match="index l has size 2"):
        xsparse.einsum("il,lji", wider, b)


def test_einsum_checks_scipy_buffers_before_scipy_reads_them() -> None:
    """An unsorted CSR matrix that the call makes canonical (scipy's
    `sum_duplicates`, which trusts indptr) with positions that decrease:
    ValueError, the matrix and out unchanged (scipy raised RuntimeError)."""
    a = sp.csr_array(np.arange(12.0).reshape(3, 4) + 1)
    a.indices[:4] = a.indices[:4][::-1]
    a.has_sorted_indices = False
    b = sp.csr_array(np.ones((3, 4)))
    xsparse.einsum("ij,ij->ij", a, b)
    a.indptr[1] = 9
    saved = checksums((a,))
    with pytest.raises(ValueError, match="indptr"):
        xsparse.einsum("ij,ij->ij", a, b)
    assert checksums((a,)) == saved


# -- kernels that report while they run ------------------------------------------

SPMV = (Path(__file__).parent / "kernels" / "spmv_csr.mlir").read_text()

WRITES_THEN_CONVERTS = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSC8 = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed), posWidth = 8 }>
#map = affine_map<(i) -> (i)>
func.func @k(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>, %y: tensor<?xf64>)
    -> (tensor<?xf64>, tensor<?x?xf64, #CSC8>) {
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf64>) outs(%y : tensor<?xf64>) {
  ^bb0(%in: f64, %out: f64):
    %s = arith.addf %in, %out : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  %c = sparse_tensor.convert %a : tensor<?x?xf64, #CSR> to tensor<?x?xf64, #CSC8>
  return %0, %c : tensor<?xf64>, tensor<?x?xf64, #CSC8>
}
"""


def test_a_kernel_that_reports_after_writing_puts_its_outputs_back() -> None:
    """y += x, then A converted to CSC with 8-bit positions: more than 255
    entries is reported after y was written (the check cannot run first);
    the call copied y first and puts it back."""
    kernel = xsparse.compile(WRITES_THEN_CONVERTS)
    assert kernel.saved_on_error == (2,)
    x, y = np.ones(10), np.arange(10.0)
    with pytest.raises(ValueError, match="8-bit positions"):
        kernel(sp.random_array((40, 40), density=0.5, format="csr"), x, y)
    np.testing.assert_array_equal(y, np.arange(10.0))
    small = sp.random_array((4, 4), density=0.5, format="csr", random_state=0)
    _, converted = kernel(small, x, y)
    np.testing.assert_array_equal(y, np.arange(10.0) + 1)
    np.testing.assert_array_equal(converted.to_scipy().toarray(), small.toarray())


SCATTER = """
func.func @s(%u: tensor<?x3xf32>, %d: tensor<?x3xf32>, %i: tensor<?x1xindex>) -> tensor<?x3xf32> {
  %s = subset.scatter %u into %d[%i] coordinates = [0] : tensor<?x3xf32> into tensor<?x3xf32>[tensor<?x1xindex>] -> tensor<?x3xf32>
  return %s : tensor<?x3xf32>
}
"""


def test_a_scatter_refused_after_writing_a_row_puts_it_back() -> None:
    """`subset.scatter` writes row 1, then finds index 8 out of range: the
    destination is as it was (it held row 1's new values)."""
    kernel = xsparse.compile(SCATTER)
    assert kernel.saved_on_error == (1,)
    rng = np.random.default_rng(8)
    d = rng.random((8, 3), dtype=np.float32)
    before = d.copy()
    u = rng.random((2, 3), dtype=np.float32)
    with pytest.raises(ValueError, match="subset.scatter: index out of range"):
        kernel(u, d, np.array([[1], [8]]))
    np.testing.assert_array_equal(d, before)
    kernel(u, d, np.array([[1], [5]]))
    np.testing.assert_array_equal(d[[1, 5]], u)


def test_a_kernel_whose_checks_all_run_first_saves_nothing() -> None:
    kernel = xsparse.compile(SPMV)
    assert kernel.written == (2,)
    assert kernel.saved_on_error == ()


def test_a_refused_decomposed_product_keeps_out() -> None:
    """`Decomposed.matmul(b, out=...)` refused by the range check of its CSR
    part's coordinates: the caller's out is as it was."""
    from xsparse import composable

    a = sp.random_array((64, 48), density=0.2, format="csr", random_state=3)
    d = composable.decompose(a, composable.Rule())
    x = np.random.default_rng(0).random(48)
    y = np.full(64, 3.0)
    d.matmul(x, out=y)
    np.testing.assert_allclose(y, a @ x)
    d.parts[-1].arrays[0].indices[0] = 10**6
    y[...] = 3.0
    with pytest.raises(ValueError, match="out of range"):
        d.matmul(x, out=y)
    assert (y == 3.0).all()


def test_a_refused_dask_task_changes_no_chunk() -> None:
    """A chunk with a coordinate out of range: the task refuses it and no
    chunk, nor the matrix they come from, nor x changes."""
    da = pytest.importorskip("dask.array")
    import xsparse.dask as xdask

    bad = _csr(40, 30, 3, 5)
    bad.indices[4] = 1000
    import dask

    chunk = dask.delayed(bad, traverse=False)  # pyright: ignore[reportPrivateImportUsage]
    meta = sp.csr_array((0, 0))
    matrix = da.from_delayed(chunk, bad.shape, dtype=bad.dtype, meta=meta)
    x = np.random.default_rng(6).random(30)
    saved = checksums((bad, x))
    with pytest.raises(ValueError, match="out of range"):
        xdask.einsum("ij,j->i", matrix, x).compute(scheduler="sync")
    assert checksums((bad, x)) == saved


# -- memref kernels are unchecked ------------------------------------------------

MEMREF_KERNEL = """
func.func @scale(%a: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    %w = arith.mulf %v, %two : f64
    memref.store %w, %a[%i] : memref<?xf64>
  }
  return
}
"""


def test_a_memref_kernel_warns_once_that_it_is_unchecked() -> None:
    kernel_module.clear_memory_caches()
    with pytest.warns(xsparse.UncheckedMemrefWarning, match="not bounds-checked"):
        kernel = xsparse.compile(MEMREF_KERNEL)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert xsparse.compile(MEMREF_KERNEL) is kernel  # once per kernel
        a = np.arange(4.0)
        kernel(a, 4)
    np.testing.assert_array_equal(a, [0.0, 2.0, 4.0, 6.0])
    assert "no bounds checks" in (xsparse.compile.__doc__ or "")


def test_a_tensor_kernel_does_not_warn() -> None:
    kernel_module.clear_memory_caches()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        xsparse.compile(WRITES_THEN_CONVERTS)


def test_arrays_of_reaches_every_buffer() -> None:
    tensor = xsparse.SparseTensor.from_scipy(sp.csr_array(np.eye(3)))
    coo = sp.coo_array(np.eye(2))
    dense = np.ones(2)
    found = {id(a) for a in arrays_of((tensor, coo, dense, 3))}
    expected = [tensor.positions[1], tensor.coordinates[1], tensor.values]
    expected += [coo.row, coo.col, coo.data, dense]
    assert all(id(a) in found for a in expected)


REPORTING = """
func.func private @xsparse_runtime_error(index)
func.func private @external(memref<4xf64>)
func.func @k(%c: memref<4xf64>, %ok: i1, %m: index) {{
  %z = arith.constant 0.0 : f64
  %i = arith.constant 0 : index
  {body}
  return
}}
"""
STORE = "memref.store %z, %c[%i] : memref<4xf64>"
REPORT = "func.call @xsparse_runtime_error(%m) : (index) -> ()"
BRANCHES = f"scf.if %ok {{ {STORE} }} else {{ {REPORT} }}"


@pytest.mark.parametrize(
    ("body", "late"),
    [
        (BRANCHES, False),
        (f"scf.if %ok {{ scf.if %ok {{ {STORE} }} }} else {{ {REPORT} }}", False),
        (f"{REPORT} {STORE}", True),
        (f"{STORE} {REPORT}", True),
        (f"scf.if %ok {{ {REPORT} }} {STORE}", True),
        (f"scf.if %ok {{ {REPORT} }} else {{ {STORE} }} {STORE}", True),
        (
            f"%n = arith.constant 2 : index scf.for %j = %i to %n step %m {{ {BRANCHES} }}",
            True,
        ),
        (
            "%w = memref.alloc() : memref<4xf64> "
            f"memref.store %z, %w[%i] : memref<4xf64> {BRANCHES}",
            False,
        ),
        (
            f"scf.if %ok {{ func.call @external(%c) : (memref<4xf64>) -> () }} else {{ {REPORT} }}",
            False,
        ),
        (f"{BRANCHES} func.call @external(%c) : (memref<4xf64>) -> ()", True),
        (STORE, False),
    ],
)
def test_reports_while_running_reads_the_paths(body: str, late: bool) -> None:
    """A report counts when a write may run on the same path: before or
    after it, in one loop, or through a call of unknown effects; not in the
    other branch of an `scf.if` outside loops, nor a write to memory the
    kernel allocated."""
    from xdsl.parser import Parser

    from xsparse.backend.native_checks import reports_while_running
    from xsparse.dialect_registry import make_context

    module = Parser(make_context(), REPORTING.format(body=body)).parse_module()
    assert reports_while_running(module, "k") is late


@pytest.mark.parametrize(
    "rule",
    [
        composable_rule(widths=(2, 8)),
        composable_rule(blocks=(2,)),
        composable_rule(blocks=(2,), widths=(1, 4)),
        composable_rule(partitions=2, widths=(2, 8)),
    ],
)
def test_a_decomposed_product_copies_nothing_and_keeps_out(rule: Any) -> None:
    """Every part's shapes are checked before any part writes C (the loops
    and the reports in the two branches of one `scf.if`): the decomposed
    SpMM saves nothing before a call, and a part of the wrong shape after
    parts that write first (the last bucket, the remainder) leaves the
    caller's C as it was."""
    from xsparse import composable

    a = sp.random_array((40, 40), density=0.2, format="csr", random_state=2)
    d = composable.decompose(a, rule)
    kernel = composable.product_kernel("f64", True, rule)
    assert kernel.written and kernel.saved_on_error == ()
    args = [x for p in d.parts for x in p.arrays]
    b = np.random.default_rng(1).random((40, 5))
    c = np.full((40, 5), 7.0)
    kernel(*args, b, c)
    np.testing.assert_allclose(c, a @ b)
    remainder = args[-1].tocsr()
    wide = sp.csr_array(
        (remainder.data, remainder.indices, remainder.indptr), shape=(40, 41)
    )
    cases = [(-1, wide, "decomposed part: the shapes do not agree")]
    if rule.widths:
        cases.append((-2, args[-2][:-1], "ELL bucket: the shapes do not agree"))
    for position, bad, message in cases:
        wrong = list(args)
        wrong[position] = bad
        c[...] = 7.0
        with pytest.raises(ValueError, match=message):
            kernel(*wrong, b, c)
        assert (c == 7.0).all()


TWO_FOUR = """
#NV_24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
func.func @dot(%a: tensor<32x64xf32, #NV_24>, %b: tensor<64x16xf32>, %c: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<32x64xf32, #NV_24>, tensor<64x16xf32>) outs(%c : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %0 : tensor<32x16xf32>
}
"""


def test_a_two_four_product_copies_nothing() -> None:
    """The 2:4 loops check the arrays' shapes in the branch of one `scf.if`
    opposite the product: the kernel writes C in place with no copy first."""
    kernel = xsparse.compile(TWO_FOUR)
    assert kernel.written == (2,)
    assert kernel.saved_on_error == ()
