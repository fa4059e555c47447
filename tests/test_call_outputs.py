"""Arguments a kernel writes in place follow numpy's rules for `out=`
(xsparse/backend/outputs.py): read-only arrays are refused before native code
runs, inputs that overlap them are read as if copied first, and a written
array that is not contiguous is written through a temporary."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse

SPMV = (Path(__file__).parent / "kernels" / "spmv_csr.mlir").read_text()


@pytest.fixture(scope="module")
def spmv() -> xsparse.Kernel:
    return xsparse.compile(SPMV)


def matrix(seed: int) -> sp.csr_array:
    return sp.csr_array(sp.random(6, 6, density=0.5, random_state=seed))


def test_written_arguments_are_known(spmv: xsparse.Kernel) -> None:
    assert spmv.written == (2,)  # y of y += A @ x


def test_read_only_output_is_refused_and_left_as_it_was(spmv: xsparse.Kernel) -> None:
    y = np.zeros(6)
    y.flags.writeable = False
    with pytest.raises(ValueError, match="argument 2 .* read-only"):
        spmv(matrix(0), np.ones(6), y)
    np.testing.assert_array_equal(y, np.zeros(6))


def test_read_only_input_is_accepted(spmv: xsparse.Kernel) -> None:
    x = np.arange(6.0)
    x.flags.writeable = False
    a = matrix(1)
    np.testing.assert_allclose(spmv(a, x, np.zeros(6)), a @ x)


def test_input_that_is_the_output_is_read_as_if_copied(spmv: xsparse.Kernel) -> None:
    a = matrix(2)
    x = np.arange(6.0)
    expected = a @ x + x
    result = spmv(a, x, x)  # y += A @ y, with the y read before any write
    np.testing.assert_allclose(result, expected)
    np.testing.assert_allclose(x, expected)


def test_input_overlapping_the_output_is_read_as_if_copied(
    spmv: xsparse.Kernel,
) -> None:
    a = matrix(3)
    buffer = np.arange(8.0)
    x, y = buffer[:6], buffer[2:]
    expected = a @ x.copy() + y.copy()
    spmv(a, x, y)
    np.testing.assert_allclose(buffer[2:], expected)


def test_non_contiguous_output_is_written(spmv: xsparse.Kernel) -> None:
    a = matrix(4)
    storage = np.zeros((6, 2))
    y = storage[:, 1]
    result = spmv(a, np.ones(6), y)
    assert result is y
    np.testing.assert_allclose(storage[:, 1], a @ np.ones(6))
    np.testing.assert_array_equal(storage[:, 0], np.zeros(6))
