"""The semiring ops inside linalg.generic bodies (`sparse_tensor.binary`, `unary`,
`select`, `reduce`), compiled with xsparse.compile, against numpy on random data
(fixed seeds), with empty rows, all-zero operands and empty shapes.

Presence is storage: an entry an operand stores is present (the random operands
store exactly their nonzeros); where a case has no value, a dense output keeps
the zero it is filled with. The kernels are in tests/kernels/semiring/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse

KERNELS = Path(__file__).parent / "kernels" / "semiring"
_compiled: dict[str, Any] = {}


def kernel(name: str) -> Any:
    if name not in _compiled:
        _compiled[name] = xsparse.compile((KERNELS / f"{name}.mlir").read_text())
    return _compiled[name]


CASES = ["random", "all_zero", "empty"]


def operand(rng: np.random.Generator, case: str, shape: tuple[int, ...]) -> np.ndarray:
    """A random operand (an empty row 1), all zeros, or with no rows."""
    if case == "empty":
        shape = (0, *shape[1:])
    dense = rng.standard_normal(shape)
    dense[rng.random(shape) >= (0.0 if case == "all_zero" else 0.3)] = 0
    if shape[0] > 2:
        dense[1] = 0
    return dense


def csr(a: np.ndarray) -> sp.csr_array:
    return sp.csr_array(a)


def two_operands(case: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return operand(rng, case, (23, 17)), operand(rng, case, (23, 17))


@pytest.mark.parametrize("case", CASES)
def test_binary_union(case: str) -> None:
    """overlap: a * b, left: identity, right: -b."""
    a, b = two_operands(case, 1)
    result = kernel("binary_union")(csr(a), csr(b), np.zeros(a.shape))
    expected = np.where(a != 0, np.where(b != 0, a * b, a), -b)
    np.testing.assert_allclose(result, expected)


@pytest.mark.parametrize("case", CASES)
def test_binary_union_dcsr(case: str) -> None:
    a, b = two_operands(case, 2)
    result = kernel("binary_union_dcsr")(a, b, np.zeros(a.shape))
    expected = np.where(a != 0, np.where(b != 0, a * b, a), -b)
    np.testing.assert_allclose(result, expected)


@pytest.mark.parametrize("case", CASES)
def test_binary_overlap(case: str) -> None:
    """Only an overlap case: an intersection."""
    a, b = two_operands(case, 3)
    result = kernel("binary_overlap")(csr(a), csr(b), np.full(a.shape, 7.0))
    expected = np.where((a != 0) & (b != 0), np.maximum(a, b), 0)
    np.testing.assert_allclose(result, expected)


@pytest.mark.parametrize("case", CASES)
def test_binary_left(case: str) -> None:
    """overlap: a + b, left: 2a, right empty."""
    a, b = two_operands(case, 4)
    result = kernel("binary_left")(csr(a), csr(b), np.zeros(a.shape))
    expected = np.where(a != 0, np.where(b != 0, a + b, 2 * a), 0)
    np.testing.assert_allclose(result, expected)


@pytest.mark.parametrize("case", CASES)
def test_binary_dense(case: str) -> None:
    """A dense right operand is present everywhere: a * b where a is stored."""
    a, b = two_operands(case, 5)
    b = b + 1.0
    result = kernel("binary_dense")(csr(a), b, np.zeros(a.shape))
    np.testing.assert_allclose(result, np.where(a != 0, a * b, 0))


@pytest.mark.parametrize("case", CASES)
def test_binary_select(case: str) -> None:
    """binary over a selection: the case is chosen at run time."""
    a, b = two_operands(case, 6)
    result = kernel("binary_select")(csr(a), csr(b), np.zeros(a.shape))
    kept = a > 0
    expected = np.where(kept, np.where(b != 0, a * b, a), b)
    np.testing.assert_allclose(result, expected)


@pytest.mark.parametrize("case", CASES)
def test_binary_vec_i32(case: str) -> None:
    rng = np.random.default_rng(7)
    n = 0 if case == "empty" else 61
    a = rng.integers(-9, 9, n).astype(np.int32)
    b = rng.integers(-9, 9, n).astype(np.int32)
    a[rng.random(n) >= 0.4] = 0
    b[rng.random(n) >= 0.4] = 0
    if case == "all_zero":
        a[:] = 0
        b[:] = 0
    result = kernel("binary_vec_i32")(a, b, np.full(n, 5, dtype=np.int64))
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    expected = np.where(a != 0, np.where(b != 0, a64 - b64, a64), 0)
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("case", CASES)
def test_unary_exp(case: str) -> None:
    """present: exp(a), absent: 1 (a dense result)."""
    a, _ = two_operands(case, 8)
    result = kernel("unary_exp")(csr(a), np.zeros(a.shape))
    np.testing.assert_allclose(result, np.where(a != 0, np.exp(a), 1.0))


@pytest.mark.parametrize("case", CASES)
def test_unary_mask(case: str) -> None:
    """Only an absent case: -1 on the complement of a's pattern."""
    a, _ = two_operands(case, 9)
    result = kernel("unary_mask")(csr(a), np.zeros(a.shape))
    np.testing.assert_allclose(result, np.where(a != 0, 0.0, -1.0))


@pytest.mark.parametrize("case", CASES)
def test_select_positive(case: str) -> None:
    a, _ = two_operands(case, 10)
    result = kernel("select_positive")(csr(a), np.zeros(a.shape))
    np.testing.assert_allclose(result, np.where(a > 0, a, 0))


@pytest.mark.parametrize("case", CASES)
def test_select_triu(case: str) -> None:
    """A predicate on the loop indices, under a product."""
    a, _ = two_operands(case, 11)
    result = kernel("select_triu")(csr(a), np.zeros(a.shape))
    np.testing.assert_allclose(result, 2 * np.triu(a))


def row_reduce(a: np.ndarray, keep: np.ndarray, f: Any, identity: float) -> np.ndarray:
    return np.array(
        [f(row[mask], initial=identity) for row, mask in zip(a, keep, strict=True)]
    )


@pytest.mark.parametrize("case", CASES)
def test_reduce_max_rows(case: str) -> None:
    """A custom reduction starts at its identity (-inf for an empty row)."""
    a, _ = two_operands(case, 12)
    result = kernel("reduce_max_rows")(csr(a), np.full(a.shape[0], 3.0))
    np.testing.assert_array_equal(result, row_reduce(a, a != 0, np.max, -np.inf))


@pytest.mark.parametrize("case", CASES)
def test_reduce_min_positive(case: str) -> None:
    """A custom reduction over a selection."""
    a, _ = two_operands(case, 13)
    result = kernel("reduce_min_positive")(csr(a), np.zeros(a.shape[0]))
    np.testing.assert_array_equal(result, row_reduce(a, a > 0, np.min, np.inf))


@pytest.mark.parametrize("case", CASES)
def test_reduce_prod_all(case: str) -> None:
    """The product of the stored values: absent zeros do not annihilate it."""
    rng = np.random.default_rng(14)
    a = operand(rng, case, (9, 8))
    a[a != 0] = 1.0 + 0.1 * a[a != 0]
    result = kernel("reduce_prod_all")(csr(a), np.zeros(()))
    np.testing.assert_allclose(result, np.prod(a[a != 0]))


# -- sparse outputs, built by insertion: an entry only where the kernel has a value


def assert_sparse(result: Any, expected: np.ndarray, pattern: np.ndarray) -> None:
    """A valid sparse result with `expected`'s values, storing `pattern`."""
    result.validate()
    coords, values = result.to_coo()
    stored = np.zeros(pattern.shape, bool)
    stored[tuple(coords.T)] = True
    assert result.nse == len(values) == np.count_nonzero(pattern)
    np.testing.assert_array_equal(stored, pattern)
    np.testing.assert_allclose(values, expected[tuple(coords.T)])


@pytest.mark.parametrize("case", CASES)
def test_select_positive_csr(case: str) -> None:
    a, _ = two_operands(case, 21)
    result = kernel("select_positive_csr")(csr(a))
    assert_sparse(result, a, a > 0)


@pytest.mark.parametrize("case", CASES)
def test_binary_left_csr(case: str) -> None:
    a, b = two_operands(case, 22)
    result = kernel("binary_left_csr")(csr(a), csr(b))
    assert_sparse(result, np.where(b != 0, a + b, 2 * a), a != 0)


@pytest.mark.parametrize("case", CASES)
def test_binary_select_csr(case: str) -> None:
    a, b = two_operands(case, 23)
    result = kernel("binary_select_csr")(csr(a), csr(b))
    kept = a > 0
    expected = np.where(kept, np.where(b != 0, a * b, a), b)
    assert_sparse(result, expected, kept | (b != 0))


@pytest.mark.parametrize("case", CASES)
def test_unary_exp_csr(case: str) -> None:
    a, _ = two_operands(case, 24)
    result = kernel("unary_exp_csr")(csr(a))
    assert_sparse(result, np.exp(a), a != 0)


@pytest.mark.parametrize("case", CASES)
def test_reduce_max_rows_sv(case: str) -> None:
    """Into a sparse vector: a row without stored values has no entry."""
    a, _ = two_operands(case, 25)
    result = kernel("reduce_max_rows_sv")(csr(a))
    stored = (a != 0).any(axis=1)
    expected = row_reduce(a, a != 0, np.max, -np.inf)
    assert_sparse(result, np.where(stored, expected, 0), stored)


@pytest.mark.parametrize("case", CASES)
def test_reduce_min_positive_sv(case: str) -> None:
    """A reduction over a selection into a sparse vector: rows without a kept
    entry (all stored values negative, or none stored) have no entry."""
    a, _ = two_operands(case, 27)
    if a.shape[0] > 2:
        a[1] = -np.abs(a[1])  # stored entries that all fail the predicate
    result = kernel("reduce_min_positive_sv")(csr(a))
    kept = (a > 0).any(axis=1)
    expected = row_reduce(a, a > 0, np.min, np.inf)
    assert_sparse(result, np.where(kept, expected, 0), kept)


@pytest.mark.parametrize("case", CASES)
def test_select_positive_in_place(case: str) -> None:
    """Updated in place, a rejected entry stays stored, as an explicit zero."""
    a, _ = two_operands(case, 26)
    result = kernel("select_positive_in_place")(csr(a))
    assert_sparse(result, np.where(a > 0, a, 0), a != 0)
