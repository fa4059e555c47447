"""2:4 coordinates with `crdWidth = 2` packed four per byte (issue 19):
`SparseTensor` round trips with the seed's metadata (`xsparse.two_four`),
kernels reading the packed buffers against numpy, and bad buffers refused
with a ValueError before native code runs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import xsparse
from xsparse import two_four
from xsparse.backend import threads as threads_runtime
from xsparse.backend.packed_bits import PackedBuffer, pack, unpack
from xsparse.two_four import NV_24_PACKED, TwoFour

Matrix = npt.NDArray[np.float64]


@pytest.fixture
def threads() -> Iterator[None]:
    saved = xsparse.get_num_threads(), threads_runtime.get_grain()
    yield
    xsparse.set_num_threads(saved[0])
    threads_runtime.set_grain(saved[1])


def test_bit_order_first_entry_in_the_low_bits() -> None:
    np.testing.assert_array_equal(pack([1, 2, 3, 0, 3]), [0b00111001, 0b11])
    np.testing.assert_array_equal(unpack([0b00111001, 0b11], 5), [1, 2, 3, 0, 3])


@pytest.mark.parametrize("count", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 30])
def test_pack_round_trips(count: int) -> None:
    entries = np.random.default_rng(count).integers(0, 4, count).astype(np.uint8)
    packed = pack(entries)
    assert packed.shape == (-(-count // 4),)
    np.testing.assert_array_equal(unpack(packed, count), entries)
    np.testing.assert_array_equal(PackedBuffer(packed, count).entries(), entries)


def _blocks_with(nonzeros: int, rows: int, columns: int) -> Matrix:
    """Every block of 4 with `nonzeros` nonzeros, at varying places."""
    rng = np.random.default_rng(nonzeros + 10 * rows + 100 * columns)
    dense = np.zeros((rows, 4 * -(-columns // 4)))
    for i in range(rows):
        for b in range(dense.shape[1] // 4):
            keep = rng.choice(4, nonzeros, replace=False)
            dense[i, 4 * b + keep] = rng.standard_normal(nonzeros) + 2
    return dense[:, :columns]


MATRICES = {
    "random": two_four.prune(np.random.default_rng(3).standard_normal((9, 40))),
    "all-zero": np.zeros((5, 16)),
    "blocks of 0": _blocks_with(0, 3, 12),
    "blocks of 1": _blocks_with(1, 5, 20),
    "blocks of 2": _blocks_with(2, 4, 32),
    # 2 entries per block: an odd number of blocks is a count not a
    # multiple of 4, the last byte half used
    "odd blocks": _blocks_with(1, 3, 12),
    "one block": _blocks_with(2, 1, 4),
    "K not a multiple of 4": two_four.prune(
        np.random.default_rng(4).standard_normal((7, 18))
    ),
    "no rows": np.zeros((0, 8)),
}


@pytest.mark.parametrize("name", list(MATRICES))
def test_round_trips_bit_exactly(name: str) -> None:
    dense = MATRICES[name]
    pair = TwoFour.from_dense(dense)
    tensor = pair.to_sparse_tensor(NV_24_PACKED)
    entries = 2 * dense.shape[0] * -(-dense.shape[1] // 4)
    crd = tensor.coordinates[2]
    assert crd is not None and crd.dtype == np.uint8
    assert crd.shape == (-(-entries // 4),)
    np.testing.assert_array_equal(tensor.to_dense(), dense)
    back = TwoFour.from_sparse_tensor(tensor)
    np.testing.assert_array_equal(back.metadata, pair.metadata)
    np.testing.assert_array_equal(back.values, pair.values)
    built = xsparse.SparseTensor.from_dense(dense, NV_24_PACKED)
    np.testing.assert_array_equal(built.coordinates[2], crd)
    np.testing.assert_array_equal(built.to_dense(), dense)
    coords, values = built.to_coo()
    np.testing.assert_array_equal(dense[tuple(coords.T)], values)


def test_the_tensor_holds_the_seeds_metadata_bytes() -> None:
    """With whole 16-bit words per row (16 divides K), the coordinates are
    the metadata's bytes, shared."""
    pair = TwoFour.from_dense(MATRICES["blocks of 2"])
    tensor = pair.to_sparse_tensor(NV_24_PACKED)
    crd = tensor.coordinates[2]
    assert crd is not None
    np.testing.assert_array_equal(crd, pair.metadata.view(np.uint8).reshape(-1))
    assert np.shares_memory(crd, pair.metadata)
    odd = TwoFour.from_dense(MATRICES["odd blocks"])
    packed = odd.to_sparse_tensor(NV_24_PACKED).coordinates[2]
    np.testing.assert_array_equal(packed, pack(odd.positions))


def test_packing_quarters_the_coordinates() -> None:
    dense = MATRICES["random"]
    wide = xsparse.SparseTensor.from_dense(dense, two_four.NV_24)
    packed = xsparse.SparseTensor.from_dense(dense, NV_24_PACKED)
    assert wide.coordinates[2] is not None and packed.coordinates[2] is not None
    assert packed.coordinates[2].nbytes == -(-wide.coordinates[2].nbytes // 4)
    np.testing.assert_array_equal(packed.coordinates_at(2), wide.coordinates[2])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("num_threads", [1, 2])
def test_kernels_read_packed_coordinates(
    dtype: type[np.floating], num_threads: int, threads: None
) -> None:
    """SpMV compiled for the packed encoding (the generic loops) and SpMM
    (the decomposed 2:4 product on the tensor's pair), against numpy."""
    xsparse.set_num_threads(num_threads)
    threads_runtime.set_grain(0)
    rng = np.random.default_rng(8)
    tolerance = 1e-4 if dtype == np.float32 else 1e-12
    for name in ("random", "odd blocks", "K not a multiple of 4", "blocks of 1"):
        dense = MATRICES[name].astype(dtype)
        tensor = xsparse.SparseTensor.from_dense(dense, NV_24_PACKED)
        x = rng.standard_normal(dense.shape[1]).astype(dtype)
        b = rng.standard_normal((dense.shape[1], 5)).astype(dtype)
        expected = dense.astype(np.float64) @ b.astype(np.float64)
        y = xsparse.einsum("ij,j->i", tensor, x)
        np.testing.assert_allclose(y, dense.astype(np.float64) @ x, rtol=tolerance)
        c = TwoFour.from_sparse_tensor(tensor) @ b
        np.testing.assert_allclose(c, expected, rtol=tolerance, atol=tolerance)


def test_compiled_conversion_writes_packed_coordinates() -> None:
    """A dense argument of a kernel taking the packed encoding is converted
    by compiled code, which stores the 2-bit entries."""
    dense = MATRICES["odd blocks"]
    kernel = xsparse.compile(
        two_four.product_source("f64", False).replace("crdWidth = 8", "crdWidth = 2")
    )
    x = np.random.default_rng(9).standard_normal(dense.shape[1])
    with pytest.warns(UserWarning, match="converted"):
        y = kernel(dense, x, np.zeros(dense.shape[0]))
    np.testing.assert_allclose(y, dense @ x, rtol=1e-12)


def test_wrong_buffer_length_is_refused_before_native_code() -> None:
    dense = MATRICES["odd blocks"]
    good = xsparse.SparseTensor.from_dense(dense, NV_24_PACKED)
    crd = good.coordinates[2]
    assert crd is not None
    unpacked = good.coordinates_at(2)
    for bad in (unpacked, crd[:-1], np.concatenate([crd, crd])):
        with pytest.raises(ValueError, match=r"level 2 .* coordinates: .* take"):
            xsparse.SparseTensor(
                NV_24_PACKED, dense.shape, [None] * 3, [None, None, bad], good.values
            )
        unchecked = xsparse.SparseTensor(
            NV_24_PACKED,
            dense.shape,
            [None] * 3,
            [None, None, bad],
            good.values,
            validate=False,
        )
        with pytest.raises(ValueError, match=r"level 2 .* coordinates: .* take"):
            xsparse.einsum("ij,j->i", unchecked, np.ones(dense.shape[1]))


def test_coordinates_that_do_not_fit_in_two_bits() -> None:
    with pytest.raises(ValueError, match="4 does not fit in 2 bits"):
        pack([0, 1, 4, 2])
    with pytest.raises(ValueError, match="-1 does not fit in 2 bits"):
        pack(np.array([0, -1]))
    wide: Any = np.zeros(2, np.int64)
    with pytest.raises(TypeError, match="1-D uint8"):
        PackedBuffer(wide, 5)


def test_files_round_trip_through_packed_storage(tmp_path: Path) -> None:
    dense = MATRICES["K not a multiple of 4"]
    tensor = xsparse.SparseTensor.from_dense(dense, NV_24_PACKED)
    path = tmp_path / "a.mtx"
    xsparse.write_mtx(path, tensor)
    back = xsparse.read_mtx(path, NV_24_PACKED)
    np.testing.assert_array_equal(back.coordinates[2], tensor.coordinates[2])
    np.testing.assert_array_equal(back.to_dense(), dense)
