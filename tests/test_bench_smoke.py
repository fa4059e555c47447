"""Smoke test of the benchmark machinery (`tools/bench.py`, `tools/bench_mlir.py`).

Runs every benchmark kernel on tiny data through xsparse (64- and 32-bit
encodings), MLIR 22's compiled kernel when `mlir-opt-22` is installed, and scipy,
and checks that the results agree. Nothing here is timed against a target.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import bench  # noqa: E402
import bench_mlir  # noqa: E402

import xsparse  # noqa: E402

needs_mlir = pytest.mark.skipif(
    not bench_mlir.mlir_available(),
    reason="mlir-opt-22 / mlir-translate-22 not installed",
)


def test_random_csr_is_canonical() -> None:
    rng = np.random.default_rng(1)
    for dist in bench.DISTS:
        m = bench.random_csr(rng, 50, 40, 300, dist)
        assert m.shape == (50, 40)
        assert m.has_canonical_format
        assert m.indices.dtype == np.int32


def test_sparse_tensor_is_zero_copy_for_32_bit() -> None:
    m = bench.random_csr(np.random.default_rng(2), 30, 30, 100, "uniform")
    t = bench.sparse_tensor(m, "spmv", 32)
    assert np.shares_memory(t.coordinates[1], m.indices)
    assert np.shares_memory(t.positions[1], m.indptr)
    assert np.shares_memory(t.values, m.data)


def test_wrapper_source_assembles_every_sparse_argument() -> None:
    text, signature, sparse = bench_mlir.wrapper_source(
        bench.source("dot", 32), "kernel", [(7,), (7,), None]
    )
    assert text.count("sparse_tensor.assemble") == 2
    assert "tensor<7xf64, #sparse_tensor.encoding" in text
    assert sparse == [True, True, False]
    assert len(signature.inputs.data) == 7  # 2 x (pos, crd, values) + x


def test_wrapper_source_returns_a_sparse_result_as_buffers() -> None:
    """SpGEMM's CSR result comes back as positions, coordinates and values."""
    _, signature, sparse = bench_mlir.wrapper_source(
        bench.source("spgemm", 64), "kernel", [(5, 6), (6, 7)]
    )
    assert sparse == [True, True]
    assert len(signature.outputs.data) == 3


def test_sparse_output_check_sorts_scipy_spgemm() -> None:
    """scipy's SpGEMM result may have unsorted columns: the reference sorts them,
    and a result with a wrong coordinate fails."""
    rng = np.random.default_rng(4)
    a = bench.random_csr(rng, 30, 30, 150, "uniform")
    b = bench.random_csr(rng, 30, 30, 150, "uniform")
    work = bench.sparse_output_workload("spgemm", a, b, "uniform")
    ref = sp.csr_array(a @ b).sorted_indices()
    assert work.check((ref.indptr, ref.indices, ref.data)) < 1e-12
    bad = ref.indices.copy()
    bad[[0, 1]] = bad[[1, 0]]
    assert work.check((ref.indptr, bad, ref.data)) == float("inf")


def test_no_inline_marks_the_kernel() -> None:
    ir = "define i64 @kernel(i64 %0) {\n  ret i64 %0\n}\n"
    assert "@kernel(i64 %0) noinline {" in bench_mlir.no_inline(ir, "kernel")


@pytest.mark.parametrize("width", [64, 32])
def test_kernels_agree_with_scipy(width: int) -> None:
    """Every kernel of the benchmark: xsparse (and MLIR 22 when installed) == scipy."""
    rng = np.random.default_rng(width)
    matrix = bench.random_csr(rng, 40, 40, 200, "powerlaw")
    works = [
        bench.matrix_workloads(k, matrix, "powerlaw", rng)
        for k in ("spmv", "spmm", "sum")
    ]
    works.append(bench.sddmm_workload(rng, 40, 200, "uniform"))
    works += [bench.vector_workload(k, rng, 500, 60) for k in ("dot", "add")]
    other = bench.random_csr(rng, 40, 40, 200, "uniform")
    u, v = (bench.random_sparse_vector(rng, 500, 60) for _ in range(2))
    works += [
        bench.sparse_output_workload("add_sparse", u, v, "uniform"),
        bench.sparse_output_workload("csr_add", matrix, other, "powerlaw"),
        bench.sparse_output_workload("spgemm", matrix, other, "powerlaw"),
    ]
    works.append(bench.csr_to_csc_workload(matrix, "powerlaw"))
    works.append(bench.dense_to_coo_workload(rng, 30))
    for work in works:
        args: list[Any] = work.arguments(width)
        kernel = xsparse.compile(bench.source(work.kernel, width), entry="kernel")
        work.outputs()
        assert work.check(kernel(*args)) < 1e-12, work.kernel
        if bench_mlir.mlir_available():
            mlir = bench_mlir.build(
                bench.source(work.kernel, width), "kernel", work.sparse_shapes
            )
            work.outputs()
            assert work.check(mlir(*args)) < 1e-12, work.kernel
        assert np.isfinite(bench.median_seconds(work.scipy, 1))


@needs_mlir
def test_bench_run_small_end_to_end(capsys: pytest.CaptureFixture[str]) -> None:
    """The whole driver on a tiny problem: every row checked, tables printed."""
    rows = bench.run(
        [
            "--size",
            "60",
            "--nnz",
            "300",
            "--dense-size",
            "40",
            "--repeats",
            "1",
            "--compile-repeats",
            "1",
            "--dists",
            "uniform",
        ]
    )
    assert {r.kernel for r in rows} == set(bench.KERNELS)
    assert all(r.error < 1e-9 and r.mlir is not None for r in rows)
    out = capsys.readouterr().out
    assert "xs/MLIR" in out and "mlir-opt" in out


def test_conversion_check_compares_every_buffer() -> None:
    """A conversion result differing from scipy's in one coordinate fails."""
    matrix = sp.csr_array(np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]]))
    work = bench.csr_to_csc_workload(matrix, "uniform")
    ref = matrix.tocsc()
    good = (ref.indptr, ref.indices, ref.data)
    assert work.check(good) == 0.0
    bad = ref.indices.copy()
    bad[0] += 1
    assert work.check((ref.indptr, bad, ref.data)) == float("inf")


def test_check_catches_a_wrong_result() -> None:
    rng = np.random.default_rng(3)
    matrix = sp.csr_array(np.eye(5))
    work = bench.matrix_workloads("spmv", matrix, "uniform", rng)
    assert work.check(np.zeros(5)) > 0.5
