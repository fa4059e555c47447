"""2:4 matrices (`xsparse.two_four`): magnitude pruning, the seed's packed
metadata (bit for bit), `SparseTensor` conversion, and the decomposed
product kernels (`sparse-decompose-tensors`) against numpy."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

import xsparse
from xsparse import two_four
from xsparse.backend import threads as threads_runtime
from xsparse.two_four import NV_24, TwoFour


@pytest.fixture
def threads() -> Iterator[None]:
    """Restores the thread count and the grain (0: every parallel loop of two
    or more iterations goes to the pool, small as the tests' are)."""
    saved = xsparse.get_num_threads(), threads_runtime.get_grain()
    yield
    xsparse.set_num_threads(saved[0])
    threads_runtime.set_grain(saved[1])


def reference_prune(dense: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Block by block: the 2 largest magnitudes stay, the leftmost of equal ones."""
    out = np.zeros_like(dense)
    for i in range(dense.shape[0]):
        for start in range(0, dense.shape[1], 4):
            block = list(range(start, min(start + 4, dense.shape[1])))
            keep = sorted(block, key=lambda j: (-abs(dense[i, j]), j))[:2]
            out[i, keep] = dense[i, keep]
    return out


@pytest.mark.parametrize("columns", [16, 18, 7, 1])
def test_prune_keeps_the_two_largest_magnitudes(columns: int) -> None:
    rng = np.random.default_rng(1)
    dense = rng.integers(-3, 4, size=(9, columns)).astype(np.float64)
    pruned = two_four.prune(dense)
    assert pruned.shape == dense.shape and pruned.dtype == dense.dtype
    np.testing.assert_array_equal(pruned, reference_prune(dense))


def test_prune_refuses_a_vector() -> None:
    with pytest.raises(ValueError, match="needs a matrix"):
        two_four.prune(np.ones(8))


def mixed_blocks() -> npt.NDArray[np.float64]:
    """Every kind of block: 0, 1 (at each position) and 2 nonzeros."""
    rows = [
        [0, 0, 0, 0, 5, 0, 0, 0, 0, 6, 0, 0, 0, 0, 7, 0],
        [0, 0, 0, 8, 1, 2, 0, 0, 0, 0, 3, 4, -1, 0, 0, -2],
        [0, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0],
    ]
    return np.array(rows, np.float64)


@pytest.mark.parametrize(
    "dense",
    [
        np.zeros((4, 12)),
        mixed_blocks(),
        mixed_blocks()[:, :13],
        two_four.prune(np.random.default_rng(2).standard_normal((33, 70))),
    ],
    ids=["all-zero", "0-1-2-nonzeros", "k-not-multiple-of-4", "random"],
)
def test_round_trips(dense: npt.NDArray[np.float64]) -> None:
    a = TwoFour.from_dense(dense)
    rows, columns = dense.shape
    assert a.values.shape == (rows, 2 * -(-columns // 4))
    assert a.metadata.shape == (rows, -(-columns // 16))
    np.testing.assert_array_equal(a.to_dense(), dense)
    again = TwoFour(a.values.copy(), a.metadata.copy(), a.shape)
    np.testing.assert_array_equal(again.to_dense(), dense)
    tensor = a.to_sparse_tensor()
    np.testing.assert_array_equal(tensor.toarray(), dense)
    back = TwoFour.from_sparse_tensor(tensor)
    np.testing.assert_array_equal(back.values, a.values)
    np.testing.assert_array_equal(back.metadata, a.metadata)


def test_zero_and_one_nonzero_blocks_keep_explicit_zeros() -> None:
    a = TwoFour.from_dense(mixed_blocks())
    # Row 0: blocks [0 0 0 0], [5 0 0 0], [0 6 0 0], [0 0 7 0].
    np.testing.assert_array_equal(a.values[0], [0, 0, 5, 0, 0, 6, 0, 7])
    np.testing.assert_array_equal(a.positions[0], [[0, 1], [0, 1], [0, 1], [0, 2]])


def test_metadata_bits() -> None:
    """Block q of a word in bits 4q..4q+3, first position in the low 2 bits."""
    dense = np.zeros((1, 16))
    for block, (p, q) in enumerate([(0, 1), (2, 3), (0, 3), (1, 2)]):
        dense[0, 4 * block + p] = 1.0
        dense[0, 4 * block + q] = 2.0
    a = TwoFour.from_dense(dense)
    expected = 0x4 | 0xE << 4 | 0xC << 8 | 0x9 << 12
    assert a.metadata.dtype == np.int16
    assert int(a.metadata.view(np.uint16)[0, 0]) == expected
    np.testing.assert_array_equal(a.values[0], [1, 2] * 4)


def test_metadata_of_a_partial_word_leaves_high_bits_zero() -> None:
    dense = np.zeros((1, 6))
    dense[0, [2, 3, 5]] = 1.0
    words = TwoFour.from_dense(dense).metadata.view(np.uint16)
    assert words.tolist() == [[0xE | (0 | 1 << 2) << 4]]


def test_seed_layout() -> None:
    """The seed's 32 x 64 matrix has 2 x 64 words of metadata: ours, reshaped."""
    rng = np.random.default_rng(3)
    a = TwoFour.from_dense(rng.standard_normal((32, 64)), pruning=True)
    assert a.values.shape == (32, 32)
    assert a.metadata.shape == (32, 4)
    seed = a.metadata.reshape(2, 64)
    assert seed.dtype == np.int16
    fields = (seed.view(np.uint16)[:, :, None] >> np.arange(0, 16, 2)) & 3
    np.testing.assert_array_equal(fields.reshape(32, 16, 2), a.positions)


def test_packing_functions_are_inverse() -> None:
    rng = np.random.default_rng(4)
    positions = np.sort(
        np.stack([rng.permutation(4)[:2] for _ in range(5 * 11)]), axis=1
    ).reshape(5, 11, 2)
    words = two_four.pack_metadata(positions.astype(np.uint8))
    assert words.shape == (5, 3)
    np.testing.assert_array_equal(two_four.unpack_metadata(words, 11), positions)


def test_from_sparse_tensor_of_xsparse_own_2_4_storage() -> None:
    dense = mixed_blocks()
    index_width = NV_24.replace(", crdWidth = 8", "")
    tensor = xsparse.SparseTensor.from_dense(dense, index_width)
    a = TwoFour.from_sparse_tensor(tensor)
    np.testing.assert_array_equal(a.metadata, TwoFour.from_dense(dense).metadata)
    np.testing.assert_array_equal(a.to_dense(), dense)


def test_refusals() -> None:
    with pytest.raises(ValueError, match="more than 2 nonzeros"):
        TwoFour.from_dense(np.ones((2, 8)))
    csr = "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>"
    with pytest.raises(ValueError, match="not a row-major 2:4 encoding"):
        TwoFour.from_sparse_tensor(xsparse.SparseTensor.from_dense(np.eye(4), csr))
    a = TwoFour.from_dense(np.eye(4))
    with pytest.raises(ValueError, match="values of shape"):
        TwoFour(a.values[:, :1], a.metadata, a.shape)
    with pytest.raises(ValueError, match="do not multiply"):
        two_four.matmul(a, np.ones((5, 2)))
    with pytest.raises(TypeError, match="float32 or float64"):
        two_four.matmul(TwoFour.from_dense(np.eye(4, dtype=np.int64)), np.ones(4))


def test_decompose_locates_a_refusal() -> None:
    source = two_four.product_source("f64", True).replace("arith.mulf", "arith.subf")
    with pytest.raises(
        xsparse.XSparseError, match=r"<source>:3:\d+: error: .*not a 2:4"
    ):
        two_four.decompose(source)


def test_decomposed_source_has_no_structured_tensor() -> None:
    text = two_four.decompose(two_four.product_source("f64", True))
    assert "structured" not in text
    assert "tensor<?x?xi16>" in text


SHAPES = [(37, 44, 19), (64, 64, 64), (5, 7, 3), (33, 18, 1), (300, 256, 40), (8, 3, 4)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("num_threads", [1, 2])
def test_products_against_numpy(
    dtype: type[np.floating], num_threads: int, threads: None
) -> None:
    xsparse.set_num_threads(num_threads)
    threads_runtime.set_grain(0)
    rng = np.random.default_rng(5)
    tolerance = 1e-4 if dtype == np.float32 else 1e-12
    for rows, columns, n in SHAPES:
        dense = two_four.prune(rng.standard_normal((rows, columns)).astype(dtype))
        a = TwoFour.from_dense(dense)
        b = rng.standard_normal((columns, n)).astype(dtype)
        expected = dense.astype(np.float64) @ b.astype(np.float64)
        np.testing.assert_allclose(a @ b, expected, rtol=tolerance, atol=tolerance)
        x = b[:, 0].copy()
        np.testing.assert_allclose(
            a @ x, expected[:, 0], rtol=tolerance, atol=tolerance
        )


def test_compiled_kernel_takes_the_two_arrays_and_accumulates() -> None:
    """The decomposed function, compiled as it is: `c += A @ b` in place."""
    rng = np.random.default_rng(6)
    dense = two_four.prune(rng.standard_normal((20, 32)))
    a = TwoFour.from_dense(dense)
    b = rng.standard_normal((32, 24))
    c = np.ones((20, 24))
    kernel = xsparse.compile(two_four.decompose(two_four.product_source("f64", True)))
    kernel(a.values, a.metadata, b, c)
    np.testing.assert_allclose(c, 1 + dense @ b, rtol=1e-12)


def test_out_is_overwritten() -> None:
    a = TwoFour.from_dense(np.eye(8))
    out = np.full(8, 7.0)
    result = two_four.matmul(a, np.arange(8.0), out=out)
    assert result is out
    np.testing.assert_array_equal(out, np.arange(8.0))


def test_threads_give_the_same_bits(threads: None) -> None:
    """Each row block and column tile is one thread's: no sum is regrouped."""
    rng = np.random.default_rng(7)
    a = TwoFour.from_dense(rng.standard_normal((130, 96)), pruning=True)
    b = rng.standard_normal((96, 37))
    threads_runtime.set_grain(0)
    results: list[list[npt.NDArray[np.float64]]] = []
    for n in (1, 2):
        xsparse.set_num_threads(n)
        results.append([two_four.matmul(a, b), two_four.matmul(a, b[:, 0].copy())])
    for one, two in zip(results[0], results[1], strict=True):
        np.testing.assert_array_equal(one, two)


def test_compiled_kernel_refuses_shapes_that_disagree() -> None:
    """Called directly, the kernel checks the arrays' shapes before it reads."""
    a = TwoFour.from_dense(np.eye(8))
    kernel = two_four.product_kernel("f64", True)
    c = np.zeros((8, 3))
    bad = [
        (a.values, a.metadata[:4], np.ones((8, 3))),
        (a.values[:, :2], a.metadata, np.ones((8, 3))),
        (a.values, a.metadata, np.ones((12, 3))),
        (a.values, a.metadata, np.ones((8, 2))),
    ]
    for values, metadata, b in bad:
        with pytest.raises(ValueError, match="2:4 product: the shapes do not agree"):
            kernel(values, metadata, b, c)
    assert not c.any()


def test_benchmark_runs_on_tiny_data() -> None:
    """`tools/bench_two_four.py` checks every kernel against numpy first."""
    tool = Path(__file__).resolve().parent.parent / "tools" / "bench_two_four.py"
    done = subprocess.run(
        [sys.executable, str(tool), "--size", "40", "--columns", "8,13"]
        + ["--rounds", "1", "--threads", "1,2"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "2:4 decomposed (values, 16-bit metadata words)" in done.stdout


@pytest.mark.parametrize("shape", [(0, 8), (0, 0), (3, 0), (0, 5), (2, 5)])
def test_empty_shapes_round_trip_and_multiply(shape: tuple[int, int]) -> None:
    # (found by the kernel generator's 2:4 products: reshapes of no rows failed)
    dense = np.zeros(shape)
    assert two_four.prune(dense).shape == shape
    matrix = TwoFour.from_dense(dense)
    again = TwoFour.from_sparse_tensor(matrix.to_sparse_tensor())
    assert again.to_dense().shape == shape
    np.testing.assert_array_equal(again.metadata, matrix.metadata)
    b = np.random.default_rng(0).random((shape[1], 3))
    np.testing.assert_array_equal(matrix @ b, dense @ b)
    np.testing.assert_array_equal(matrix @ b[:, 0], dense @ b[:, 0])


def test_the_decomposed_kernel_knows_it_writes_c() -> None:
    # (its loops write C through `bufferization.to_buffer`: numpy's rules
    # for `out=` hold there too)
    kernel = two_four.product_kernel("f64", True)
    assert kernel.written == (3,)
    matrix = TwoFour.from_dense(np.random.default_rng(2).random((8, 8)), pruning=True)
    values, metadata = matrix.values.copy(), matrix.metadata.copy()
    values.flags.writeable = metadata.flags.writeable = False  # inputs may be
    b = np.random.default_rng(3).random((8, 3))
    c = np.zeros((8, 3))
    c.flags.writeable = False
    with pytest.raises(ValueError, match="argument 3 .* read-only"):
        kernel(values, metadata, b, c)
    out = np.zeros((8, 3))
    kernel(values, metadata, b, out)
    np.testing.assert_allclose(out, matrix.to_dense() @ b)
