"""2:4 (semi-structured) sparse matrices: pruning, the seed's packed
metadata, `SparseTensor` conversion and a fast matrix product.

A 2:4 matrix keeps at most 2 entries in every block of 4 consecutive
columns of a row (NVIDIA's sparse tensor cores, PyTorch's
`to_sparse_semi_structured`). As Triton stores it (seed 004) it is two dense
arrays, which `TwoFour` holds:

- `values`: M x 2*ceil(K/4), the two kept entries of each block, left to right
  (explicit zeros where a block holds fewer than two nonzeros);
- `metadata`: M x ceil(K/16) `int16` words, the column of each kept entry
  inside its block (0-3) in 2 bits.

Bit order (the seed's and NVIDIA's sparse `mma`'s, little end first): word
`w` of row `i` describes blocks `4w .. 4w+3` of that row (16 columns);
block `4w + q` takes bits `4q .. 4q+3`, its first kept entry's position in
bits `4q, 4q+1` and its second's in bits `4q+2, 4q+3`. A block keeping
columns 0 and 1 is `0b0100` (0x4), one keeping 2 and 3 is `0b1110` (0xE);
positions within a block are strictly increasing. The last word of a row
whose K is not a multiple of 16 has its unused high bits zero.

Row-major, this is the seed's array: the seed's 32 x 64 example has a
(32, 4) metadata array here, the same 128 words as its `2 x 64 x i16`
(`metadata.reshape(M // 16, K)` when 16 divides M and K).

K need not be a multiple of 4: the last block is padded with zero columns,
whose positions may be kept (with value zero) but are never read.

`SparseTensor` holds the same matrix in MLIR's `#NV_24` encoding (`NV_24`
below): its level-2 coordinates are the positions, one per value, so the
conversion is a repacking of the metadata and no copy of the values. With
`crdWidth = 2` (`NV_24_PACKED`, the seed's) they are stored packed four per
byte in the same bit order (`xsparse.backend.packed_bits`), so a row's bytes
are its metadata words' bytes (little end first): when 16 divides K,
`tensor.coordinates[2]` is `metadata.view(np.uint8).reshape(-1)`, shared,
not copied, by `to_sparse_tensor`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from xsparse.backend.kernel import Kernel
from xsparse.backend.kernel import compile as compile_kernel
from xsparse.backend.packed_bits import PACKED_WIDTH, pack
from xsparse.backend.sparse_storage import SparseTensor, parse_encoding
from xsparse.diagnostics import apply_to_text
from xsparse.dialect_registry import make_context
from xsparse.frontend.generic import matrix_product_source
from xsparse.transforms.decompose.decompose_tensors import (
    SparseDecomposeTensorsPass,
    is_two_four_encoding,
)

NV_24 = (
    "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, "
    "j mod 4 : structured[2, 4]), crdWidth = 8 }>"
)
"""MLIR's 2:4 encoding (`#NV_24` of MLIR's tests), coordinates in bytes."""

NV_24_PACKED = NV_24.replace("crdWidth = 8", "crdWidth = 2")
"""The seed's 2:4 encoding: 2-bit coordinates, packed four per byte."""

AnyArray = npt.NDArray[Any]
PositionArray = npt.NDArray[np.uint8]
"""Kept positions, M x blocks x 2, each 0-3."""


def _blocks(columns: int) -> int:
    return -(-columns // 4)


def _as_blocks(dense: AnyArray) -> AnyArray:
    """M x K -> M x ceil(K/4) x 4, zero padded."""
    rows, columns = dense.shape
    padded = np.zeros((rows, 4 * _blocks(columns)), dense.dtype)
    padded[:, :columns] = dense
    return padded.reshape(rows, _blocks(columns), 4)


def prune(dense: npt.ArrayLike) -> AnyArray:
    """Magnitude pruning to 2:4 along rows, as PyTorch's: in every block of 4
    columns the 2 entries largest in absolute value stay (the leftmost of
    equal ones), the others become zero. K not a multiple of 4 is read as
    padded with zero columns; the result has `dense`'s shape and dtype."""
    array = np.asarray(dense)
    if array.ndim != 2:
        raise ValueError(f"2:4 pruning needs a matrix, not {array.ndim} dimensions")
    blocks = _as_blocks(array)
    order = np.argsort(-np.abs(blocks), axis=2, kind="stable")
    keep = np.zeros(blocks.shape, bool)
    np.put_along_axis(keep, order[:, :, :2], True, axis=2)
    pruned = np.where(keep, blocks, 0).reshape(array.shape[0], 4 * blocks.shape[1])
    return pruned[:, : array.shape[1]].astype(array.dtype, copy=False)


def _kept_positions(blocks: AnyArray) -> PositionArray:
    """The positions to store per block: its nonzeros, then its first zero
    columns until there are two, in increasing order."""
    nonzero = blocks != 0
    if (nonzero.sum(axis=2) > 2).any():
        row, block = np.argwhere(nonzero.sum(axis=2) > 2)[0]
        raise ValueError(
            f"row {row}, columns {4 * block}-{4 * block + 3} hold more than 2 "
            "nonzeros: not a 2:4 matrix (prune it first: xsparse.two_four.prune)"
        )
    # Nonzeros first, then zeros, each in column order; the first two stay.
    rank = np.argsort(~nonzero, axis=2, kind="stable")[:, :, :2]
    return np.sort(rank, axis=2).astype(np.uint8)


def pack_metadata(positions: PositionArray) -> npt.NDArray[np.int16]:
    """Kept positions (M x blocks x 2, each 0-3) -> the M x ceil(blocks/4)
    16-bit words of the module docstring."""
    rows, blocks, _ = positions.shape
    words = -(-blocks // 4)
    fields = np.zeros((rows, 8 * words), np.uint32)
    fields[:, : 2 * blocks] = positions.reshape(rows, 2 * blocks)
    shifts = np.arange(0, 16, 2, dtype=np.uint32)
    packed = (fields.reshape(rows, words, 8) << shifts).sum(axis=2, dtype=np.uint32)
    return packed.astype(np.uint16).view(np.int16)


def unpack_metadata(metadata: npt.ArrayLike, blocks: int) -> PositionArray:
    """The inverse of `pack_metadata`: positions of the first `blocks` blocks."""
    words = np.asarray(metadata).astype(np.int16, copy=False).view(np.uint16)
    shifts = np.arange(0, 16, 2, dtype=np.uint16)
    fields = (words[:, :, None] >> shifts) & 3
    return (
        fields.reshape(words.shape[0], 8 * words.shape[1])[:, : 2 * blocks]
        .reshape(words.shape[0], blocks, 2)
        .astype(np.uint8)
    )


@dataclass(frozen=True)
class TwoFour:
    """A 2:4 matrix of shape `shape` as the seed's two arrays (module
    docstring): `values` (M x 2*ceil(K/4)) and `metadata` (M x ceil(K/16),
    int16)."""

    values: AnyArray
    metadata: npt.NDArray[np.int16]
    shape: tuple[int, int]

    def __post_init__(self) -> None:
        rows, columns = self.shape
        blocks = _blocks(columns)
        if self.values.shape != (rows, 2 * blocks):
            raise ValueError(
                f"values of shape {self.values.shape}; a {rows} x {columns} 2:4 "
                f"matrix has ({rows}, {2 * blocks})"
            )
        if (
            self.metadata.shape != (rows, -(-blocks // 4))
            or self.metadata.dtype != np.int16
        ):
            raise ValueError(
                f"metadata of shape {self.metadata.shape} and dtype {self.metadata.dtype}; "
                f"a {rows} x {columns} 2:4 matrix has ({rows}, {-(-blocks // 4)}) int16"
            )

    @classmethod
    def from_dense(cls, dense: npt.ArrayLike, *, pruning: bool = False) -> TwoFour:
        """A dense matrix with at most 2 nonzeros per block of 4 (ValueError
        otherwise), or any matrix with `pruning=True` (`prune` first)."""
        array = prune(dense) if pruning else np.asarray(dense)
        if array.ndim != 2:
            raise ValueError(f"a 2:4 matrix has 2 dimensions, not {array.ndim}")
        blocks = _as_blocks(array)
        positions = _kept_positions(blocks)
        values = np.take_along_axis(blocks, positions.astype(np.intp), axis=2)
        rows, columns = array.shape
        values = values.reshape(rows, 2 * _blocks(columns))
        return cls(values, pack_metadata(positions), (rows, columns))

    @property
    def positions(self) -> PositionArray:
        """The column of each value inside its block, M x blocks x 2."""
        return unpack_metadata(self.metadata, _blocks(self.shape[1]))

    def to_dense(self) -> AnyArray:
        """The matrix as a dense numpy array."""
        rows, columns = self.shape
        positions = self.positions
        if (positions[:, :, 0] >= positions[:, :, 1]).any():
            raise ValueError("metadata positions within a block must increase")
        blocks = np.zeros((rows, _blocks(columns), 4), self.values.dtype)
        np.put_along_axis(
            blocks,
            positions.astype(np.intp),
            self.values.reshape(rows, _blocks(columns), 2),
            axis=2,
        )
        padding = blocks.reshape(rows, 4 * _blocks(columns))[:, columns:]
        if padding.any():
            raise ValueError("nonzero values in the padding columns past K")
        return blocks.reshape(rows, 4 * _blocks(columns))[:, :columns]

    def to_sparse_tensor(self, encoding: str = NV_24) -> SparseTensor:
        """The same matrix as a `SparseTensor` in a row-major 2:4 encoding
        (`NV_24` by default): the values are shared, the positions unpacked
        into one byte each or, with `crdWidth = 2` (`NV_24_PACKED`), kept
        packed (the metadata's bytes themselves when 16 divides K)."""
        enc = parse_encoding(encoding)
        if not is_two_four_encoding(enc):
            raise ValueError(f"not a row-major 2:4 encoding: {encoding}")
        if enc.crd_width != PACKED_WIDTH:
            crd = self.positions.reshape(-1)
        elif self.shape[1] % 16 == 0:  # whole words per row: the same bytes
            crd = self.metadata.astype("<i2", copy=False).view(np.uint8).reshape(-1)
        else:
            crd = pack(self.positions)
        values = self.values.reshape(-1)
        return SparseTensor(enc, self.shape, [None] * 3, [None, None, crd], values)

    @classmethod
    def from_sparse_tensor(cls, tensor: SparseTensor) -> TwoFour:
        """From a `SparseTensor` in a row-major 2:4 encoding (`NV_24`, any
        coordinate width); its values are shared."""
        if not is_two_four_encoding(tensor.encoding):
            raise ValueError(f"not a row-major 2:4 encoding: {tensor.format}")
        rows, columns = tensor.shape
        crd = tensor.coordinates_at(2)
        assert crd is not None
        positions = np.asarray(crd).astype(np.uint8).reshape(rows, _blocks(columns), 2)
        values = np.asarray(tensor.values).reshape(rows, 2 * _blocks(columns))
        return cls(values, pack_metadata(positions), (rows, columns))

    @property
    def nbytes(self) -> int:
        """Bytes of the values and the metadata."""
        return self.values.nbytes + self.metadata.nbytes

    def __matmul__(self, other: npt.ArrayLike) -> AnyArray:
        return matmul(self, other)


def product_source(element: str, matrix: bool) -> str:
    """The MLIR of `C += A @ B` (`matrix`) or `y += A @ x` with A in `NV_24`
    and element type `element` (`f32`, `f64`), before decomposition."""
    kind = "spmm" if matrix else "spmv"
    return matrix_product_source(NV_24, element, matrix, f"two_four_{kind}")


def decompose(source: str) -> str:
    """MLIR text after `sparse-decompose-tensors`: its 2:4 arguments become
    (values, metadata) pairs, which `xsparse.compile`'s kernel then takes
    as two numpy arrays. Bad input raises `XSparseError` with a location."""
    return apply_to_text(make_context(), source, SparseDecomposeTensorsPass())


@functools.cache
def product_kernel(element: str, matrix: bool) -> Kernel:
    """The compiled decomposed product: called as
    `kernel(values, metadata, b, c)`, it adds A @ b into `c` in place."""
    return compile_kernel(decompose(product_source(element, matrix)))


_ELEMENTS = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64"}


def matmul(a: TwoFour, b: npt.ArrayLike, out: AnyArray | None = None) -> AnyArray:
    """`a @ b` for a 2:4 `a` and a dense matrix or vector `b` (of `a`'s
    float dtype: float32 or float64), on xsparse's threads; into `out`
    (overwritten) when given."""
    element = _ELEMENTS.get(a.values.dtype)
    if element is None:
        raise TypeError(f"2:4 products take float32 or float64, not {a.values.dtype}")
    dense = np.ascontiguousarray(b, dtype=a.values.dtype)
    if dense.ndim not in (1, 2) or dense.shape[0] != a.shape[1]:
        raise ValueError(f"shapes {a.shape} and {dense.shape} do not multiply")
    shape = (a.shape[0], *dense.shape[1:])
    if out is None:
        out = np.zeros(shape, a.values.dtype)
    elif out.shape != shape or out.dtype != a.values.dtype:
        raise ValueError(f"out must be {shape} of {a.values.dtype}")
    else:
        out[...] = 0
    kernel = product_kernel(element, dense.ndim == 2)
    kernel(np.ascontiguousarray(a.values), np.ascontiguousarray(a.metadata), dense, out)
    return out
