"""Vectorized kernels (`xsparse.compile(..., vl=N)`) compute the scalar kernels' results.

Every kernel of tests/kernels runs on the same random data (fixed seeds, with
empty rows and ragged row lengths so that both the unmasked main loops and the
masked remainders run) scalar and with vl 4, 8 and 16, with and without 32-bit
gather indices. Sums are reassociated by the vector code, hence the tolerance.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse
from xsparse import SparseTensor

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


def test_vector_loops_are_generated() -> None:
    """The compiled vector kernel really runs vector code (LLVM IR has vectors)."""
    from xsparse.backend.kernel import make_context
    from xsparse.backend.lowering import lower_to_llvm
    from xsparse.diagnostics import parse_module
    from xsparse.transforms.sparsifier import sparsifier_passes

    ctx = make_context()
    module = parse_module(ctx, (KERNELS / "spmv_csr.mlir").read_text(), "<spmv>")
    for p in sparsifier_passes(vl=8):
        p.apply(ctx, module)
    ir = lower_to_llvm(module).llvm_ir()
    assert re.search(r"<8 x double>", ir)
    # sparse-vector-peel: an unmasked main loop and a scalar epilogue, so no
    # masked memory intrinsics remain (and the gathers became scalar loads).
    assert "llvm.masked" not in ir


def _llvm_ir(name: str, **options: Any) -> str:
    from xsparse.backend.kernel import make_context
    from xsparse.backend.lowering import lower_to_llvm
    from xsparse.diagnostics import parse_module
    from xsparse.transforms.sparsifier import sparsifier_passes

    ctx = make_context()
    module = parse_module(ctx, (KERNELS / f"{name}.mlir").read_text(), name)
    for p in sparsifier_passes(**options):
        p.apply(ctx, module)
    return lower_to_llvm(module).llvm_ir()


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
    ir = _llvm_ir(name, vl=4, enable_vla_vectorization=True)
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
