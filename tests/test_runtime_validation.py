"""Malformed runtime data never reaches native code: every corrupted buffer gives
a clear Python exception (TypeError/ValueError) or, when the corruption happens
to be valid data, the right result. A crash would kill the test process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import xsparse
from xsparse import SparseTensor

KERNELS = Path(__file__).parent / "kernels"
ENCODINGS = {
    "spmv_csr": "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>",
    "spmv_csc": "#sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>",
    "spmv_coo": "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>",
    "spmv_dcsr": "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>",
    "spmv_bsr": "#sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>",
    "spmv_24": "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]), crdWidth = 8 }>",
    "spmv_csr_f32_w32": "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>",
}
_kernels: dict[str, Any] = {}


def kernel(name: str) -> Any:
    if name not in _kernels:
        _kernels[name] = xsparse.compile((KERNELS / f"{name}.mlir").read_text())
    return _kernels[name]


def sample_matrix(name: str) -> np.ndarray:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((8, 12))
    a[rng.random(a.shape) < 0.6] = 0
    if name == "spmv_24":
        for i in range(8):
            for b in range(3):
                a[i, b * 4 + 2 : b * 4 + 4] = 0
    return a.astype(np.float32 if "f32" in name else np.float64)


CORRUPTIONS = ["set", "add", "swap", "truncate", "extend", "dtype"]


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from(sorted(ENCODINGS)),
    which=st.integers(0, 20),
    corruption=st.sampled_from(CORRUPTIONS),
    position=st.integers(0, 1000),
    value=st.integers(-5, 40),
)
def test_corrupted_buffers_raise_or_compute(
    name: str, which: int, corruption: str, position: int, value: int
) -> None:
    a = sample_matrix(name)
    good = SparseTensor.from_dense(a, ENCODINGS[name])
    buffers = [b for b in (*good.positions, *good.coordinates) if b is not None] + [
        good.values
    ]
    target_index = which % len(buffers)
    positions = [None if p is None else p.copy() for p in good.positions]
    coordinates = [None if c is None else c.copy() for c in good.coordinates]
    values = good.values.copy()
    mutable = [b for b in (*positions, *coordinates) if b is not None] + [values]
    buf = mutable[target_index]
    if buf.size == 0 and corruption in ("set", "add", "swap"):
        corruption = "extend"
    index = position % max(buf.size, 1)
    if corruption == "set":
        buf[index] = np.array(value).astype(buf.dtype)  # wraps around for unsigned
    elif corruption == "add":
        buf[index] = buf[index] + 1
    elif corruption == "swap" and buf.size > 1:
        buf[[index, (index + 1) % buf.size]] = buf[[(index + 1) % buf.size, index]]
    elif corruption in ("truncate", "extend", "dtype"):
        if corruption == "truncate":
            buf = buf[:-1]
        elif corruption == "extend":
            buf = np.concatenate(
                [buf, buf[-1:] if buf.size else np.zeros(1, buf.dtype)]
            )
        else:
            buf = buf.astype(np.int16 if buf.dtype.kind in "iu" else np.float16)
        mutable[target_index] = buf
        slots = [("p", i) for i, p in enumerate(positions) if p is not None] + [
            ("c", i) for i, c in enumerate(coordinates) if c is not None
        ]
        if target_index < len(slots):
            kind, level = slots[target_index]
            (positions if kind == "p" else coordinates)[level] = buf
        else:
            values = buf
    x = np.ones(a.shape[1], a.dtype)
    y = np.zeros(a.shape[0], a.dtype)
    try:
        tensor = SparseTensor(ENCODINGS[name], a.shape, positions, coordinates, values)
        result = kernel(name)(tensor, x, y)
    except (TypeError, ValueError):
        return
    np.testing.assert_allclose(result, tensor.to_dense() @ x, rtol=1e-5, atol=1e-5)


def test_mutating_a_validated_tensor_is_refused() -> None:
    tensor = SparseTensor.from_dense(np.eye(3), ENCODINGS["spmv_csr"])
    crd = tensor.coordinates[1]
    assert crd is not None
    with pytest.raises(ValueError):
        crd[0] = 100


@pytest.mark.parametrize(
    "args, error",
    [
        ((sp.csr_array(np.eye(3)), np.ones(4), np.zeros(3)), ValueError),  # x too long
        ((sp.csr_array(np.eye(3)), np.ones(3), np.zeros(2)), ValueError),  # y too short
        ((sp.csr_array(np.eye(3)), np.ones(3, np.float32), np.zeros(3)), TypeError),
        (
            (sp.csr_array(np.eye(3, dtype=np.float32)), np.ones(3), np.zeros(3)),
            TypeError,
        ),
        ((np.eye(3), np.ones((3, 1)), np.zeros(3)), ValueError),  # wrong rank
        (("not a matrix", np.ones(3), np.zeros(3)), TypeError),
        ((sp.csr_array(np.eye(3)), np.ones(3)), TypeError),  # missing argument
    ],
)
def test_bad_arguments_raise(args: tuple[Any, ...], error: type[Exception]) -> None:
    with pytest.raises(error):
        kernel("spmv_csr")(*args)


def test_unsorted_scipy_indices_are_sorted_not_trusted() -> None:
    m = sp.csr_array(
        (np.array([1.0, 2.0]), np.array([2, 0]), np.array([0, 2, 2])), shape=(2, 3)
    )
    m.has_sorted_indices = False
    y = kernel("spmv_csr")(m, np.arange(3.0), np.zeros(2))
    np.testing.assert_allclose(y, m.toarray() @ np.arange(3.0))


def test_out_of_range_scipy_coordinates_raise() -> None:
    m = sp.csr_array(
        (np.array([1.0]), np.array([7]), np.array([0, 1, 1])), shape=(2, 3), copy=False
    )
    with pytest.raises(ValueError):
        kernel("spmv_csr")(m, np.arange(3.0), np.zeros(2))


@pytest.mark.parametrize(
    ("indptr", "message"),
    [
        ([0, 2, 1, 3], "never decrease"),
        ([1, 2, 3, 3], "start at 0"),
        ([0, 1, 2, 9], "ends at 9"),
        ([0, 1, 3], "must have 4 entries"),
    ],
)
def test_bad_scipy_indptr_raises_before_scipy_reads_it(
    indptr: list[int], message: str
) -> None:
    """scipy's own `sum_duplicates` fails obscurely (or worse) on these."""
    m = sp.csr_array(np.eye(3))
    m.indptr = np.array(indptr, dtype=m.indptr.dtype)
    with pytest.raises(ValueError, match=message):
        kernel("spmv_csr")(m, np.arange(3.0), np.zeros(3))


def test_non_contiguous_dense_arguments_are_copied() -> None:
    """A strided numpy view is a tensor value like any other."""
    a = sample_matrix("spmv_csr")
    x = np.arange(24.0)[::2]
    y = kernel("spmv_csr")(sp.csr_array(a), x, np.zeros(8))
    np.testing.assert_allclose(y, a @ x)


@pytest.mark.parametrize(
    ("widths", "coords", "message"),
    [
        ("crdWidth = 8", [[0, 300], [1, 2]], "coordinate 300 does not fit in 8 bits"),
        (
            "crdWidth = 16",
            [[0, 70000], [1, 2]],
            "coordinate 70000 does not fit in 16 bits",
        ),
    ],
)
def test_coordinates_wider_than_the_encoding_raise(
    widths: str, coords: list[list[int]], message: str
) -> None:
    """A coordinate that a narrow buffer cannot hold is refused, not wrapped
    (300 stored as 44 in 8 bits); the widest one that fits is kept."""
    enc = f"#sparse_tensor.encoding<{{ map = (i, j) -> (i : dense, j : compressed), {widths} }}>"
    with pytest.raises(ValueError, match=message):
        SparseTensor.from_coo(coords, [1.0, 2.0], (2, 80000), enc)
    top = 255 if widths.endswith("8") else 65535
    kept = SparseTensor.from_coo([[0, top], [1, 2]], [1.0, 2.0], (2, 80000), enc)
    np.testing.assert_array_equal(kept.coordinates[1], [top, 2])


def test_scipy_indices_wider_than_the_encoding_raise() -> None:
    """scipy's int32 indices given to an 8-bit encoding are narrowed only where
    they fit, checked or not."""
    enc = "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), crdWidth = 8 }>"
    wide = sp.csr_array(([1.0, 2.0], ([0, 1], [300, 2])), shape=(2, 400))
    for validate in (True, False):
        with pytest.raises(
            ValueError, match="indices entry 300 does not fit in 8 bits"
        ):
            SparseTensor.from_scipy(wide, enc, validate=validate)
    narrow = sp.csr_array(([1.0, 2.0], ([0, 1], [255, 2])), shape=(2, 400))
    kept = SparseTensor.from_scipy(narrow, enc)
    np.testing.assert_array_equal(kept.coordinates[1], [255, 2])
