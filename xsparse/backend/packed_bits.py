"""2-bit buffers packed four entries per byte: the coordinates of a
`structured[2, 4]` level with `crdWidth = 2` (2:4 metadata), as kernels store
them (`transforms/convert_to_llvm/packed.py`) and `SparseTensor` holds them.

Bit order (the seed's metadata, `xsparse.two_four`): entry `k` is bits
`2 * (k % 4)` and `2 * (k % 4) + 1` of byte `k // 4`, the first entry in the
low bits; the unused high bits of a last, partial byte are written zero and
never read. A buffer of `n` entries is `ceil(n / 4)` bytes, so its length
alone does not give `n`: the calling convention takes a `PackedBuffer` (the
bytes and `n`), whose descriptor has the size `n` in elements.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

PER_BYTE = 4
"""2-bit entries in one byte."""

PACKED_WIDTH = 2
"""The coordinate width (`crdWidth`) stored packed."""

Bytes = npt.NDArray[np.uint8]
_SHIFTS = np.arange(0, 8, 2, dtype=np.uint8)


def packed_length(count: int) -> int:
    """The bytes of `count` packed entries."""
    return -(-count // PER_BYTE)


def pack(entries: npt.ArrayLike, what: str = "2-bit entry") -> Bytes:
    """Entries 0-3 packed four per byte (module docstring); ValueError
    naming `what` where an entry does not fit in 2 bits."""
    array = np.asarray(entries).reshape(-1)
    if array.size and (int(array.min()) < 0 or int(array.max()) >= PER_BYTE):
        bad = int(array.min()) if int(array.min()) < 0 else int(array.max())
        raise ValueError(f"{what} {bad} does not fit in 2 bits (crdWidth = 2)")
    padded = np.zeros(PER_BYTE * packed_length(array.size), np.uint8)
    padded[: array.size] = array
    fields = padded.reshape(-1, PER_BYTE) << _SHIFTS
    return np.bitwise_or.reduce(fields, axis=1).astype(np.uint8)


def unpack(packed: npt.ArrayLike, count: int) -> Bytes:
    """The first `count` entries of a packed buffer, one byte each."""
    data = np.asarray(packed, dtype=np.uint8).reshape(-1)
    fields = (data[:, None] >> _SHIFTS) & (PER_BYTE - 1)
    return fields.reshape(-1)[:count].astype(np.uint8)


@dataclass(frozen=True)
class PackedBuffer:
    """`count` 2-bit entries packed in `data` (uint8, `ceil(count / 4)`
    bytes): how a `memref<?xi2>` crosses between Python and kernels.
    ValueError when the lengths disagree (a kernel would read past the
    bytes)."""

    data: Bytes
    count: int

    def __post_init__(self) -> None:
        data: Any = self.data
        if not isinstance(data, np.ndarray) or data.dtype != np.uint8 or data.ndim != 1:
            raise TypeError("a packed 2-bit buffer is a 1-D uint8 array")
        if data.shape[0] != packed_length(self.count):
            raise ValueError(
                f"{self.count} 2-bit entries packed four per byte take "
                f"{packed_length(self.count)} bytes, not {data.shape[0]}"
            )

    def entries(self) -> Bytes:
        """The entries, one byte each."""
        return unpack(self.data, self.count)
