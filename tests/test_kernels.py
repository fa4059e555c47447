"""Every kernel of tests/kernels compiled with xsparse.compile computes numpy's result
on random data (fixed seeds), with empty rows and all-zero operands."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse
from xsparse import SparseTensor

KERNELS = Path(__file__).parent / "kernels"
_compiled: dict[str, Any] = {}


def kernel(name: str) -> Any:
    if name not in _compiled:
        _compiled[name] = xsparse.compile((KERNELS / f"{name}.mlir").read_text())
    return _compiled[name]


def random_sparse(
    rng: np.random.Generator,
    shape: tuple[int, ...],
    density: float,
    dtype: Any = np.float64,
) -> np.ndarray:
    dense = rng.standard_normal(shape).astype(dtype)
    dense[rng.random(shape) >= density] = 0
    if len(shape) >= 1 and shape[0] > 2:
        dense[1] = 0  # an empty row
    return dense


CASES = ["random", "all_zero", "empty"]


def shapes(case: str, m: int = 37, n: int = 29) -> tuple[int, int]:
    return (0, n) if case == "empty" else (m, n)


def density(case: str) -> float:
    return 0.0 if case == "all_zero" else 0.15


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize(
    "name, to_arg",
    [
        ("spmv_csr", lambda a: sp.csr_array(a)),
        ("spmv_csc", lambda a: sp.csc_array(a)),
        ("spmv_coo", lambda a: sp.coo_array(a)),
        ("spmv_dcsr", lambda a: a),
    ],
)
def test_spmv(name: str, to_arg: Callable[[np.ndarray], Any], case: str) -> None:
    rng = np.random.default_rng(1)
    a = random_sparse(rng, shapes(case), density(case))
    x = rng.standard_normal(a.shape[1])
    y0 = rng.standard_normal(a.shape[0])
    y = y0.copy()
    result = kernel(name)(to_arg(a), x, y)
    np.testing.assert_allclose(result, y0 + a @ x, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", CASES)
def test_spmv_bsr(case: str) -> None:
    rng = np.random.default_rng(2)
    m, n = (0, 8) if case == "empty" else (12, 10)
    a = np.zeros((m, n))
    if case == "random":
        a = random_sparse(rng, (m, n), 0.2)
    x = rng.standard_normal(n)
    y = np.zeros(m)
    result = kernel("spmv_bsr")(sp.bsr_array(a, blocksize=(2, 2)) if m else a, x, y)
    np.testing.assert_allclose(result, a @ x, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", CASES)
def test_spmv_2_4(case: str) -> None:
    rng = np.random.default_rng(3)
    m, n = (0, 16) if case == "empty" else (9, 16)
    a = np.zeros((m, n))
    if case == "random":
        for i in range(m):
            for block in range(n // 4):
                keep = rng.choice(4, size=rng.integers(0, 3), replace=False)
                a[i, block * 4 + keep] = rng.standard_normal(keep.shape[0])
    x = rng.standard_normal(n)
    result = kernel("spmv_24")(a, x, np.zeros(m))
    np.testing.assert_allclose(result, a @ x, rtol=1e-12, atol=1e-12)


def test_spmv_f32_index32() -> None:
    rng = np.random.default_rng(4)
    a = random_sparse(rng, (50, 40), 0.1, np.float32)
    x = rng.standard_normal(40).astype(np.float32)
    y = np.zeros(50, np.float32)
    tensor = SparseTensor.from_scipy(
        sp.csr_array(a),
        "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>",
    )
    assert tensor.positions[1] is not None and tensor.positions[1].dtype == np.uint32
    result = kernel("spmv_csr_f32_w32")(tensor, x, y)
    np.testing.assert_allclose(result, a @ x, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("case", CASES)
def test_spmm(case: str) -> None:
    rng = np.random.default_rng(5)
    a = random_sparse(rng, shapes(case), density(case))
    b = rng.standard_normal((a.shape[1], 8))
    c = np.zeros((a.shape[0], 8))
    np.testing.assert_allclose(
        kernel("spmm_csr")(sp.csr_array(a), b, c), a @ b, rtol=1e-12, atol=1e-12
    )


@pytest.mark.parametrize("case", CASES)
def test_sddmm(case: str) -> None:
    rng = np.random.default_rng(6)
    s = random_sparse(rng, shapes(case), density(case))
    a = rng.standard_normal((s.shape[0], 5))
    b = rng.standard_normal((5, s.shape[1]))
    c0 = rng.standard_normal(s.shape)
    result = kernel("sddmm_dense_out")(sp.csr_array(s), a, b, c0.copy())
    np.testing.assert_allclose(result, c0 + s * (a @ b), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", CASES)
def test_transposed_spmv(case: str) -> None:
    rng = np.random.default_rng(7)
    a = random_sparse(rng, shapes(case), density(case))
    x = rng.standard_normal(a.shape[0])
    y = np.zeros(a.shape[1])
    np.testing.assert_allclose(
        kernel("spmv_transposed_csr")(sp.csr_array(a), x, y),
        a.T @ x,
        rtol=1e-12,
        atol=1e-12,
    )


SV = "#sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>"


@pytest.mark.parametrize("overlap", ["some", "none", "all", "empty"])
def test_sparse_dot_and_add(overlap: str) -> None:
    rng = np.random.default_rng(8)
    n = 0 if overlap == "empty" else 200
    a = random_sparse(rng, (n,), 0.3)
    b = random_sparse(rng, (n,), 0.3)
    if overlap == "none":
        b[a != 0] = 0
    elif overlap == "all":
        b = np.where(a != 0, rng.standard_normal(n), 0.0)
    sa, sb = SparseTensor.from_dense(a, SV), SparseTensor.from_dense(b, SV)
    dot = kernel("sparse_dot")(sa, sb, np.zeros(()))
    np.testing.assert_allclose(dot, a @ b, rtol=1e-12, atol=1e-12)
    added = kernel("sparse_add_dense_out")(sa, sb, np.full(n, 7.0))
    np.testing.assert_allclose(added, a + b, rtol=1e-12, atol=1e-12)
    exp_diff = kernel("sparse_sub_exp")(sa, sb, np.zeros(n))
    np.testing.assert_allclose(exp_diff, np.exp(a - b), rtol=1e-12)


@pytest.mark.parametrize("case", CASES)
def test_csr_times_dcsr(case: str) -> None:
    rng = np.random.default_rng(9)
    a = random_sparse(rng, shapes(case), density(case))
    b = random_sparse(rng, shapes(case), 0.5)
    c = np.full(a.shape, 3.0)
    np.testing.assert_allclose(
        kernel("csr_mul_dcsr_dense_out")(sp.csr_array(a), b, c), a * b
    )


@pytest.mark.parametrize("case", CASES)
def test_sum(case: str) -> None:
    rng = np.random.default_rng(10)
    a = random_sparse(rng, shapes(case), density(case))
    np.testing.assert_allclose(
        kernel("sum_all")(sp.csr_array(a), np.zeros(())), a.sum(), atol=1e-12
    )


@pytest.mark.parametrize("case", CASES)
def test_ttv_csf(case: str) -> None:
    rng = np.random.default_rng(11)
    shape = (0, 6, 7) if case == "empty" else (5, 6, 7)
    a = random_sparse(rng, shape, density(case))
    v = rng.standard_normal(7)
    result = kernel("ttv_csf")(a, v, np.zeros(shape[:2]))
    np.testing.assert_allclose(
        result, np.einsum("ijk,k->ij", a, v), rtol=1e-12, atol=1e-12
    )


def test_linalg_index_in_body() -> None:
    rng = np.random.default_rng(12)
    a = random_sparse(rng, (9, 11), 0.3)
    i, j = np.indices(a.shape)
    result = kernel("scale_index")(sp.csr_array(a), np.full(a.shape, 5.0))
    np.testing.assert_allclose(result, a * (i + j))


def test_in_place_output() -> None:
    a = sp.csr_array(np.eye(4))
    y = np.zeros(4)
    assert kernel("spmv_csr")(a, np.arange(4.0), y) is y
    np.testing.assert_array_equal(y, np.arange(4.0))


COO_TIMES_CSR = """
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#mul = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @kernel(%a: tensor<?x?xf64, #COO>, %b: tensor<?x?xf64, #CSR>, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.generic #mul ins(%a, %b : tensor<?x?xf64, #COO>, tensor<?x?xf64, #CSR>) outs(%c : tensor<?x?xf64>) {
  ^bb0(%av: f64, %bv: f64, %cv: f64):
    %m = arith.mulf %av, %bv : f64
    linalg.yield %m : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}
"""


@pytest.mark.parametrize("case", CASES)
def test_coo_coiterated_by_runs(case: str) -> None:
    """A COO operand co-iterated with CSR: its rows are runs of equal coordinates."""
    rng = np.random.default_rng(13)
    a = random_sparse(rng, shapes(case), density(case))
    b = random_sparse(rng, shapes(case), 0.5)
    coo = sp.coo_array(a)
    if coo.nnz:  # duplicate entries are summed
        coo = sp.coo_array(
            (
                np.concatenate([coo.data, coo.data[:3]]),
                (
                    np.concatenate([coo.row, coo.row[:3]]),
                    np.concatenate([coo.col, coo.col[:3]]),
                ),
            ),
            shape=a.shape,
        )
    expected = coo.toarray() * b
    result = xsparse.compile(COO_TIMES_CSR)(coo, sp.csr_array(b), np.zeros(a.shape))
    np.testing.assert_allclose(result, expected)


@pytest.mark.parametrize(
    "strategy",
    [
        "dense-outer-loop",
        "any-storage-outer-loop",
        "dense-any-loop",
        "any-storage-any-loop",
    ],
)
@pytest.mark.parametrize("name", ["spmv_csr", "spmv_dcsr", "spmv_csc", "spmm_csr"])
def test_parallelization_strategies(name: str, strategy: str) -> None:
    rng = np.random.default_rng(14)
    a = random_sparse(rng, (23, 17), 0.2)
    k = xsparse.compile(
        (KERNELS / f"{name}.mlir").read_text(), parallelization_strategy=strategy
    )  # type: ignore[arg-type]
    arg = sp.csc_array(a) if name == "spmv_csc" else sp.csr_array(a)
    if name == "spmm_csr":
        b = rng.standard_normal((17, 4))
        np.testing.assert_allclose(k(arg, b, np.zeros((23, 4))), a @ b, atol=1e-12)
    else:
        x = rng.standard_normal(17)
        np.testing.assert_allclose(k(arg, x, np.zeros(23)), a @ x, atol=1e-12)


@pytest.mark.parametrize(
    "encoding",
    [
        "(i, j) -> (i : dense, j : loose_compressed)",
        "(i, j) -> (i : batch, j : compressed)",
        "(i, j) -> (i : dense, j : compressed(nonordered))",
        "(i, j) -> (i : compressed(nonunique), j : singleton(soa))",
        "(i, j) -> (i : compressed, j : compressed), posWidth = 8, crdWidth = 16",
    ],
)
def test_spmv_every_level_format(encoding: str) -> None:
    source = (
        (KERNELS / "spmv_csr.mlir")
        .read_text()
        .replace("(i, j) -> (i : dense, j : compressed)", encoding)
    )
    rng = np.random.default_rng(15)
    a = random_sparse(rng, (12, 10), 0.3)
    x = rng.standard_normal(10)
    tensor = SparseTensor.from_dense(
        a, f"#sparse_tensor.encoding<{{ map = {encoding} }}>"
    )
    np.testing.assert_allclose(
        xsparse.compile(source)(tensor, x, np.zeros(12)), a @ x, atol=1e-12
    )


MASKED_SCALE = """
#ENC = #sparse_tensor.encoding<{ map = ENCODING }>
#trait = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @kernel(%b: tensor<?x?xf64>, %a: tensor<?x?xf64, #ENC>) -> tensor<?x?xf64, #ENC> {
  %0 = linalg.generic #trait ins(%b : tensor<?x?xf64>) outs(%a : tensor<?x?xf64, #ENC>) {
  ^bb0(%bv: f64, %av: f64):
    %m = arith.mulf %av, %bv : f64
    linalg.yield %m : f64
  } -> tensor<?x?xf64, #ENC>
  return %0 : tensor<?x?xf64, #ENC>
}
"""


@pytest.mark.parametrize(
    "encoding",
    [
        "(i, j) -> (i : dense, j : compressed)",
        "(i, j) -> (j : dense, i : compressed)",
        "(i, j) -> (i : compressed, j : compressed)",
        "(i, j) -> (i : compressed(nonunique), j : singleton)",
    ],
)
def test_sparse_output_updated_in_place(encoding: str) -> None:
    """A sparse output with an input's sparsity keeps that structure: its values
    are updated where it stores entries, and the result is a SparseTensor."""
    rng = np.random.default_rng(16)
    a = random_sparse(rng, (9, 7), 0.3)
    b = rng.standard_normal((9, 7))
    tensor = SparseTensor.from_dense(
        a, f"#sparse_tensor.encoding<{{ map = {encoding} }}>"
    )
    result = xsparse.compile(MASKED_SCALE.replace("ENCODING", encoding))(b, tensor)
    assert isinstance(result, SparseTensor) and result.shape == a.shape
    np.testing.assert_allclose(result.to_dense(), a * b)
    assert np.shares_memory(result.values, tensor.values)


def test_scale_in_place_returns_the_scaled_tensor() -> None:
    m = sp.random_array((30, 20), density=0.1, format="csr", random_state=4)
    result = kernel("scale_in_place")(m.copy())
    np.testing.assert_allclose(result.to_scipy().toarray(), 2 * m.toarray())


def test_sparse_output_needing_insertion_is_refused() -> None:
    source = MASKED_SCALE.replace(
        "ENCODING", "(i, j) -> (i : dense, j : compressed)"
    ).replace("arith.mulf %av, %bv", "arith.addf %av, %bv")
    with pytest.raises(xsparse.XSparseError, match="needs insertion"):
        xsparse.compile(source)


BATCHED_VALUES = """
#BCSR = #sparse_tensor.encoding<{ map = (b, i, j) -> (b : batch, i : dense, j : compressed) }>
func.func @vals(%a: tensor<2x3x4xf64, #BCSR>) -> memref<2x?xf64> {
  %v = sparse_tensor.values %a : tensor<2x3x4xf64, #BCSR> to memref<2x?xf64>
  return %v : memref<2x?xf64>
}
"""


def test_batched_buffer_view_returned_is_refused_at_the_op() -> None:
    # (it used to reach LLVM as invalid IR: a traceback from llvmlite)
    with pytest.raises(
        xsparse.XSparseError, match=r"<source>:4:3: error: .*stored flat"
    ):
        xsparse.compile(BATCHED_VALUES)


def test_llvm_refusing_our_ir_is_an_internal_error_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from xsparse.backend import jit

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("LLVM IR parsing error\n<string>:1:1: error: bad")

    monkeypatch.setattr(jit, "compile", refuse)
    # (a source no cache holds: the disk cache would skip LLVM)
    source = f"// {uuid.uuid4()}\n" + BATCHED_VALUES.replace(
        "-> memref<2x?xf64>", "-> index"
    ).replace(
        "return %v : memref<2x?xf64>",
        "%c1 = arith.constant 1 : index\n  %n = memref.dim %v, %c1 : memref<2x?xf64>\n  return %n : index",
    )
    with pytest.raises(
        xsparse.XSparseError, match="internal error in the LLVM backend"
    ):
        xsparse.compile(source)
