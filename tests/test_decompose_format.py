"""Composable formats (`xsparse.composable`, `sparse-decompose-format`):
decomposed products against numpy on random, power-law and block-structured
matrices, the compiled data movement, the rule that picks itself, and the
pass's diagnostics."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse
from xsparse import composable
from xsparse.backend import threads as threads_runtime
from xsparse.composable import Rule
from xsparse.errors import XSparseError
from xsparse.frontend.generic import matrix_product_source
from xsparse.transforms.decompose import bsr_loops


@pytest.fixture
def threads() -> Iterator[None]:
    """Restores the thread count and the grain (0: every parallel loop goes
    to the pool, small as the tests' are)."""
    saved = xsparse.get_num_threads(), threads_runtime.get_grain()
    threads_runtime.set_grain(0)
    yield
    xsparse.set_num_threads(saved[0])
    threads_runtime.set_grain(saved[1])


def power_law(rows: int, columns: int, seed: int) -> Any:
    """Row lengths drawn from a Zipf law (many short rows, a few long ones,
    some empty), columns uniform."""
    rng = np.random.default_rng(seed)
    lengths = np.minimum(rng.zipf(1.8, rows) - 1, columns)
    indptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    indices = np.concatenate(
        [np.sort(rng.choice(columns, n, replace=False)) for n in lengths]
        or [np.zeros(0, np.int64)]
    ).astype(np.int32)
    data = rng.standard_normal(indices.size)
    return sp.csr_array((data, indices, indptr), shape=(rows, columns))


def blocky(rows: int, columns: int, block: int, seed: int) -> Any:
    """Dense blocks (a few entries dropped) plus scattered entries."""
    rng = np.random.default_rng(seed)
    mask = sp.random_array(
        (rows // block, columns // block), density=0.1, rng=rng, format="csr"
    )
    dense = sp.kron(mask, np.ones((block, block))).toarray()
    dense *= rng.random(dense.shape) > 0.1
    dense += sp.random_array((rows, columns), density=0.01, rng=rng).toarray()
    return sp.csr_array(dense * rng.standard_normal(dense.shape))


def random_matrix(rows: int, columns: int, seed: int) -> Any:
    rng = np.random.default_rng(seed)
    return sp.csr_array(
        sp.random_array((rows, columns), density=0.05, rng=rng, format="csr")
    )


MATRICES = {
    "random": lambda: random_matrix(97, 64, 1),
    "power-law": lambda: power_law(300, 120, 2),
    "blocky": lambda: blocky(64, 48, 4, 3),
    "empty": lambda: sp.csr_array((16, 8)),
    "no-rows": lambda: sp.csr_array((0, 8)),
    "empty-rows": lambda: sp.csr_array(
        (
            np.ones(3),
            np.array([0, 5, 7], np.int32),
            np.array([0, 0, 0, 3, 3], np.int32),
        ),
        shape=(4, 8),
    ),
}
RULES = {
    "hyb": Rule(widths=(1, 2, 4)),
    "hyb-2-partitions": Rule(partitions=2, widths=(2, 8)),
    "remainder-only": Rule(),
}


def nan_outputs(shape: tuple[int, ...], dtype: Any) -> list[Any]:
    """Outputs full of NaN (the products must not read them): one aligned
    as `matmul` allocates its own (C's rows streamed where whole vectors),
    one 8 bytes off (stored as usual)."""
    aligned = composable.aligned_empty(shape, np.dtype(dtype))
    aligned[...] = np.nan
    size = int(np.prod(shape))
    off = composable.aligned_empty((size + 1,), np.dtype(dtype))[1:].reshape(shape)
    off[...] = np.nan
    return [aligned, off]


def check_products(d: composable.Decomposed, a: Any, dtype: Any) -> None:
    """`d @ b` and `d.matmul(b, out)` (out full of NaN) equal numpy's, for
    a vector and matrices of 5 (no whole vectors) and 64 columns."""
    rng = np.random.default_rng(7)
    tolerance = 1e-4 if dtype == np.float32 else 1e-10
    dense = a.toarray().astype(np.float64)
    for shape in ((a.shape[1],), (a.shape[1], 5), (a.shape[1], 64)):
        b = rng.standard_normal(shape).astype(dtype)
        expected = dense @ b.astype(np.float64)
        np.testing.assert_allclose(d @ b, expected, rtol=tolerance, atol=tolerance)
        for out in nan_outputs(expected.shape, dtype):
            got = d.matmul(b, out=out)
            assert got is out
            np.testing.assert_allclose(out, expected, rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("threads_count", [1, 2])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("rule", RULES.values(), ids=RULES.keys())
@pytest.mark.parametrize("matrix", MATRICES.values(), ids=MATRICES.keys())
def test_hyb_products_equal_numpy(
    matrix: Any, rule: Rule, dtype: Any, threads_count: int, threads: None
) -> None:
    xsparse.set_num_threads(threads_count)
    a = sp.csr_array(matrix().astype(dtype))
    d = composable.decompose(a, rule)
    assert d.nnz == a.nnz
    check_products(d, a, dtype)


def test_rows_longer_than_the_widest_bucket_go_to_the_remainder() -> None:
    a = power_law(200, 100, 5)
    d = composable.decompose(a, Rule(widths=(1, 2)))
    remainder = d.parts[-1]
    lengths = np.diff(a.indptr)
    assert remainder.kind == "csr"
    assert remainder.nnz == int(lengths[lengths > 2].sum())
    assert [p.kind for p in d.parts] == ["ell", "ell", "csr"]
    check_products(d, a, np.float64)


def test_parts_hold_the_entries_padded_at_the_last_column() -> None:
    a = sp.csr_array(np.array([[0, 2, 0, 3], [0, 0, 0, 0], [4, 0, 0, 0]], float))
    d = composable.decompose(a, Rule(widths=(2,)))
    ell = d.parts[0]
    rows, cols, vals = ell.arrays
    np.testing.assert_array_equal(rows, [0, 2])
    np.testing.assert_array_equal(cols, [[1, 3], [0, 0]])
    np.testing.assert_array_equal(vals, [[2, 3], [4, 0]])
    assert (ell.nnz, ell.stored, d.padding_ratio) == (3, 4, 4 / 3)
    assert "ell(width=2, partition=0)" in d.describe()


def test_sparse_tensor_input() -> None:
    a = random_matrix(40, 30, 9)
    tensor = xsparse.SparseTensor.from_scipy(a)
    d = composable.decompose(tensor, Rule(widths=(2, 4)))
    check_products(d, a, np.float64)


BSR_RULES = {
    "bsr": Rule(blocks=(4,)),
    "bsr-two-sizes-hyb": Rule(blocks=(4, 2), widths=(1, 2, 4)),
}


@pytest.mark.parametrize("threads_count", [1, 2])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("rule", BSR_RULES.values(), ids=BSR_RULES.keys())
@pytest.mark.parametrize("matrix", ["blocky", "power-law-square", "empty"])
def test_bsr_products_equal_numpy(
    matrix: str, rule: Rule, dtype: Any, threads_count: int, threads: None
) -> None:
    xsparse.set_num_threads(threads_count)
    matrices = {
        "blocky": lambda: blocky(64, 48, 4, 11),
        "power-law-square": lambda: power_law(120, 120, 4),
        "empty": lambda: sp.csr_array((8, 12)),
    }
    a = sp.csr_array(matrices[matrix]().astype(dtype))
    d = composable.decompose(a, rule)
    assert d.parts[0].kind == "bsr" and d.nnz == a.nnz
    if matrix == "blocky":
        assert d.parts[0].nnz > a.nnz // 2
    check_products(d, a, dtype)


@pytest.mark.parametrize("threads_count", [1, 2, 4])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("block", [2, 3, 8, 16])
def test_bsr_loops_for_every_block_size(
    block: int, dtype: Any, threads_count: int, threads: None
) -> None:
    """Block sizes below, at and above a vector's lanes, odd ones (SpMM's
    groups of rows uneven), blocks taller than a group of rows; C's columns
    in main tiles, single vectors and scalars (`check_products`); empty
    block rows and a scattered remainder."""
    xsparse.set_num_threads(threads_count)
    a = blocky(96, 48, block, block)
    a = sp.csr_array(a.astype(dtype))
    d = composable.decompose(a, Rule(blocks=(block,)))
    assert d.parts[0].kind == "bsr" and d.parts[0].nnz > 0 and d.nnz == a.nnz
    check_products(d, a, dtype)


ACCUMULATING_RULES = {
    "hyb": Rule(widths=(1, 2, 4)),
    "hyb-2-partitions": Rule(partitions=2, widths=(2, 8)),
    "bsr-hyb": Rule(blocks=(4,), widths=(1, 2)),
    "remainder-only": Rule(),
}


@pytest.mark.parametrize("threads_count", [1, 2])
@pytest.mark.parametrize("rule", ACCUMULATING_RULES.values(), ids=ACCUMULATING_RULES)
def test_kernels_without_a_zero_fill_add_into_c(
    rule: Rule, threads_count: int, threads: None
) -> None:
    """A kernel whose `outs` is C itself (`C += A @ B`) keeps adding every
    part into C; only a `linalg.fill` of zero lets the first part
    initialize C (`output_writes`, as `Decomposed.matmul` compiles)."""
    xsparse.set_num_threads(threads_count)
    a = blocky(64, 48, 4, 5)
    d = composable.decompose(a, rule)
    source = matrix_product_source(composable.CSR32, "f64", True, "spmm")
    kernel = xsparse.compile(composable.decompose_source(source, rule), entry="spmm")
    b = np.random.default_rng(3).standard_normal((48, 64))
    for c in nan_outputs((64, 64), np.float64):
        c[...] = 1.0
        kernel(*d.arguments(), b, c)
        np.testing.assert_allclose(c, 1.0 + a.toarray() @ b, rtol=1e-10, atol=1e-10)


@pytest.fixture
def fresh_kernels() -> Iterator[None]:
    """Product kernels compiled anew before and after (for a test that
    changes the loops' constants)."""
    composable.product_kernel.cache_clear()
    yield
    composable.product_kernel.cache_clear()


@pytest.mark.parametrize("threads_count", [1, 2])
@pytest.mark.parametrize("distance", [0, 1, 7])
@pytest.mark.parametrize("block", [3, 8])
def test_bsr_prefetch_distances(
    block: int,
    distance: int,
    threads_count: int,
    threads: None,
    fresh_kernels: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Prefetching B's slabs none, one or more block rows ahead than the
    part has (counterparts clamped to its last block) leaves the products
    as they were."""
    monkeypatch.setattr(bsr_loops, "PREFETCH_DISTANCE", distance)
    xsparse.set_num_threads(threads_count)
    a = blocky(48, 48, block, block)
    d = composable.decompose(a, Rule(blocks=(block,)))
    assert d.parts[0].nnz > 0
    check_products(d, a, np.float64)


@pytest.mark.parametrize("threads_count", [1, 2, 4])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("density", [0.1, 0.5, 1.0])
@pytest.mark.parametrize("block", [2, 3, 4, 8])
def test_compiled_bsr_split_matches_a_numpy_reference(
    block: int, density: float, dtype: Any, threads_count: int, threads: None
) -> None:
    """The compiled count and fill keep exactly the blocks holding at least
    density * b * b entries, each entry at its place (zeros elsewhere in
    the block), and leave the others, in order, to the remainder."""
    xsparse.set_num_threads(threads_count)
    a = composable.as_csr(sp.csr_array(blocky(96, 48, block, block).astype(dtype)))
    bsr, rest = composable.split_bsr(a, block, density)
    rows = np.repeat(np.arange(96), np.diff(a.indptr))
    ids = (rows // block) * (48 // block) + a.indices // block
    blocks, counts = np.unique(ids, return_counts=True)
    kept = blocks[counts >= density * block * block]
    taken = np.isin(ids, kept)
    dense = a.toarray()
    expected_bsr = np.zeros_like(dense)
    expected_bsr[rows[taken], a.indices[taken]] = a.data[taken]
    np.testing.assert_array_equal(bsr.toarray(), expected_bsr)
    np.testing.assert_array_equal(rest.toarray(), dense - expected_bsr)
    assert bsr.indices.dtype == np.int32 and bsr.has_sorted_indices
    assert bsr.data.shape[0] == kept.size and rest.nnz == int((~taken).sum())
    np.testing.assert_array_equal(rest.indices, a.indices[~taken])


def test_bsr_needs_multiples_of_the_block() -> None:
    with pytest.raises(ValueError, match="multiples of 4"):
        composable.decompose(random_matrix(10, 8, 1), Rule(blocks=(4,)))


def test_movement_matches_a_numpy_reference() -> None:
    """The compiled data movement puts every row's segment where the plan
    says, for several column partitions."""
    a = power_law(400, 90, 8)
    rule = Rule(partitions=3, widths=(1, 3, 6))
    d = composable.decompose(a, rule)
    dense = a.toarray()
    bounds = np.arange(4) * 90 // 3
    for part in d.parts[:-1]:
        rows, cols, vals = part.arrays
        p = int(part.encoding.split("partition=")[1].rstrip(")"))
        rebuilt = np.zeros_like(dense)
        np.add.at(
            rebuilt,
            (np.repeat(rows, cols.shape[1]), cols.reshape(-1)),
            vals.reshape(-1),
        )
        expected = np.zeros_like(dense)
        expected[rows, bounds[p] : bounds[p + 1]] = dense[
            rows, bounds[p] : bounds[p + 1]
        ]
        np.testing.assert_array_equal(rebuilt, expected)
    total = sum(
        np.asarray(
            sp.csr_array(
                (
                    p.arrays[2].reshape(-1),
                    (
                        np.repeat(p.arrays[0], p.arrays[1].shape[1]),
                        p.arrays[1].reshape(-1),
                    ),
                ),
                shape=a.shape,
            ).toarray()
        )
        for p in d.parts[:-1]
    )
    np.testing.assert_array_equal(total + d.parts[-1].arrays[0].toarray(), dense)


@pytest.mark.parametrize("matrix", ["power-law", "blocky", "random"])
def test_chosen_rule_keeps_padding_under_one_and_a_half(matrix: str) -> None:
    a = MATRICES[matrix]()
    d = composable.decompose(a)
    assert d.padding_ratio < 1.5
    assert "chosen because" in d.describe()
    x = np.random.default_rng(1).standard_normal(a.shape[1])
    np.testing.assert_allclose(d @ x, a @ x, rtol=1e-10, atol=1e-10)


def test_chosen_rule_on_power_law_uses_buckets() -> None:
    rule, reason = composable.choose_rule(power_law(2000, 500, 3))
    assert rule.widths and not rule.blocks
    assert "ELL pays" in reason


def test_chosen_buckets_serve_matrices_and_csr_serves_vectors() -> None:
    """A rule chosen for ELL buckets serves `A @ B`; `A @ x` reads the whole
    matrix in CSR (each bucket row would write y at a scattered row); an
    explicit rule serves both."""
    a = power_law(2000, 500, 3)
    d = composable.decompose(a)
    assert d.rule.widths and d.vector_parts is not None
    assert [p.kind for p in d.vector_parts] == ["csr"]
    assert d.vector_parts[0].nnz == a.nnz
    assert "for a vector b (SpMV): the whole matrix in CSR" in d.describe()
    rng = np.random.default_rng(4)
    x, b = rng.standard_normal(a.shape[1]), rng.standard_normal((a.shape[1], 5))
    np.testing.assert_allclose(d @ x, a @ x, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(d @ b, a @ b, rtol=1e-10, atol=1e-10)
    explicit = composable.decompose(a, d.rule)
    assert explicit.vector_parts is None
    np.testing.assert_allclose(explicit @ x, a @ x, rtol=1e-10, atol=1e-10)


def test_bad_rule_is_a_located_error() -> None:
    with pytest.raises(XSparseError, match="widths=.*positive and increasing"):
        composable.decompose_source(
            composable.product_source("f64", False), Rule(widths=(4, 2))
        )


def test_shape_mismatch_is_a_value_error() -> None:
    d = composable.decompose(random_matrix(10, 10, 1), Rule(widths=(2,)))
    with pytest.raises(ValueError, match="do not multiply"):
        d.matmul(np.ones(11))
