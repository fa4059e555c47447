"""`SparseTensor`: a sparse tensor of any encoding as numpy level buffers.

The buffers follow `xsparse.dialects.sparse_tensor.storage` (the calling
convention of compiled kernels): per level a positions and/or coordinates
array, then the values, then the level sizes. Tensors are built from dense
arrays, COO coordinates, scipy.sparse matrices or level buffers, validated
before they reach native code, and converted back to numpy / scipy.

A `SparseTensor` is also an array as numpy and scipy users know one:
`shape`, `ndim`, `dtype`, `nnz`, `format`, `T`, `toarray()`,
`np.asarray(t)`, `to_scipy()`, and the operators `@ + - *` with scipy's
result types (`SparseTensor`'s docstring), computed by the front end
(`xsparse.einsum` / `xsparse.evaluate`, reached through `front_end()`).
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import sys
from collections.abc import Iterable, Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    IndexType,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.ir.affine import (
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

from xsparse.backend.packed_bits import PACKED_WIDTH, PackedBuffer, pack
from xsparse.dialects.sparse_tensor.encoding import (
    Encoding,
    SparseTensorEncodingAttr,
    block_sizes,
)
from xsparse.dialects.sparse_tensor.levels import (
    LevelAccess,
    LevelType,
    positionless_access,
)
from xsparse.dialects.sparse_tensor.storage import (
    build_level_buffers,
    eval_affine,
    level_extent,
    sparse_encoding,
    storage_fields,
)
from xsparse.dialects.type_guards import is_integer_type

IntArray = npt.NDArray[np.int64]
AnyArray = npt.NDArray[Any]
Stored = AnyArray | PackedBuffer | int
"""One field of the calling convention: a buffer (2-bit coordinates as a
`PackedBuffer`) or a level size."""


def overhead_dtype(width: int) -> np.dtype[Any]:
    """numpy dtype of a positions/coordinates buffer (unsigned, as MLIR reads them)."""
    return np.dtype(
        {0: np.int64, 64: np.int64, 32: np.uint32, 16: np.uint16}.get(width, np.uint8)
    )


def overhead_buffer(buffer: IntArray, width: int, what: str) -> AnyArray:
    """`buffer` in the dtype of a `width`-bit positions/coordinates buffer
    (2 bits: packed four per byte, `packed_bits`); ValueError where an entry
    does not fit in `width` bits (it would wrap)."""
    bits = 64 if width == 0 else width
    if buffer.size and buffer.dtype.kind == "i" and int(buffer.min()) < 0:
        raise ValueError(f"{what} {int(buffer.min())} is negative")
    if bits < 64 and buffer.size and int(buffer.max()) >> bits:
        raise ValueError(
            f"{what} {int(buffer.max())} does not fit in {bits} bits "
            "(the encoding's posWidth/crdWidth)"
        )
    if width == PACKED_WIDTH:
        return pack(buffer, what)
    return buffer.astype(overhead_dtype(width))


def dimension_sizes(shape: Any) -> tuple[int, ...]:
    """A shape as a tuple of Python ints: a sequence (or one size) of
    integers (numpy's included, and any object with `__index__`), none
    negative. Floats (even 4.0), bools and other objects are refused with a
    ValueError, not truncated."""
    if isinstance(shape, np.ndarray):
        shape = shape.tolist()
    sizes = list(shape) if isinstance(shape, Iterable) else [shape]
    for d, size in enumerate(sizes):
        if isinstance(size, (bool, np.bool_)) or not hasattr(size, "__index__"):
            raise ValueError(
                f"shape {tuple(sizes)}: dimension {d} is {size!r} "
                f"({type(size).__name__}), not an integer"
            )
        if operator.index(size) < 0:
            raise ValueError(
                f"shape {tuple(sizes)}: dimension {d} is negative ({size})"
            )
    return tuple(operator.index(size) for size in sizes)


def numpy_dtype(element_type: Attribute) -> np.dtype[Any]:
    """numpy dtype of an MLIR element type."""
    if isinstance(element_type, Float64Type):
        return np.dtype(np.float64)
    if isinstance(element_type, Float32Type):
        return np.dtype(np.float32)
    if isinstance(element_type, IndexType):
        return np.dtype(np.int64)
    if is_integer_type(element_type):
        width = element_type.width.data
        return np.dtype(
            {1: np.bool_, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}[width]
        )
    raise TypeError(f"no numpy dtype for element type {element_type}")


class NumpyArithmetic:
    """The level formats' `Arithmetic` on numbers and numpy arrays of positions
    (elementwise), for checking and reading buffers at run time."""

    def index(self, n: int) -> Any:
        return np.int64(n)

    def add(self, a: Any, b: Any) -> Any:
        return np.add(a, b)

    def mul(self, a: Any, b: Any) -> Any:
        return np.multiply(a, b)


NUMPY_ARITHMETIC = NumpyArithmetic()


def _within_segments(steps: int, lo: IntArray, hi: IntArray) -> npt.NDArray[np.bool_]:
    """Which of the `steps` steps between neighbouring entries (from entry k
    to k + 1) lie inside a segment [lo, hi): lo <= k < hi - 1 (a loose
    level's room between segments is not read)."""
    long = (hi - lo) >= 2
    inside = np.zeros(steps + 1, np.int64)
    np.add.at(inside, lo[long], 1)
    np.add.at(inside, hi[long] - 1, -1)
    return np.cumsum(inside[:-1]) > 0


def _check_chain_order(
    crd: IntArray,
    chain: tuple[IntArray, IntArray, list[IntArray]],
    unique: bool,
    where: str,
) -> None:
    """A singleton level under a nonunique one (COO): where the coordinates
    above are equal, this level's are in order (`unique`: increasing; only
    the region's last level makes its tuples unique), within each segment of
    the region's first level."""
    if crd.shape[0] < 2:
        return
    lo, hi, above = chain
    tie = np.ones(crd.shape[0] - 1, np.bool_)
    for a in above:
        tie &= a[1:] == a[:-1]
    step = np.diff(crd)
    bad = tie & ((step <= 0) if unique else (step < 0))
    if (bad & _within_segments(step.shape[0], lo, hi)).any():
        kind = "sorted and unique" if unique else "sorted"
        raise ValueError(
            f"{where}: coordinates must be {kind} where the coordinates of the "
            "levels above are equal"
        )


def _check_distinct(crd: IntArray, lo: IntArray, hi: IntArray, where: str) -> None:
    """An unordered unique level: no coordinate twice within a segment."""
    lengths = hi - lo
    total = int(lengths.sum())
    if total < 2:
        return
    segment: IntArray = np.repeat(np.arange(lo.shape[0], dtype=np.int64), lengths)
    starts = np.cumsum(lengths) - lengths
    index = np.arange(total) - np.repeat(starts, lengths) + np.repeat(lo, lengths)
    values = crd[index]
    order = np.lexsort((values, segment))
    same = (np.diff(segment[order]) == 0) & (np.diff(values[order]) == 0)
    if same.any():
        raise ValueError(f"{where}: coordinates must be unique within each parent")


def parse_encoding(encoding: str | SparseTensorEncodingAttr | Encoding) -> Encoding:
    if isinstance(encoding, Encoding):
        return encoding
    if isinstance(encoding, SparseTensorEncodingAttr):
        return encoding.data
    return SparseTensorEncodingAttr.parse_text(encoding).data


def _check_compressed(matrix: Any) -> None:
    """The index arrays of a scipy CSR/CSC matrix, before scipy itself reads
    them (its `sum_duplicates` fails obscurely on a bad `indptr`)."""
    indptr = np.asarray(matrix.indptr)
    indices = np.asarray(matrix.indices)
    major = matrix.shape[0] if matrix.format == "csr" else matrix.shape[1]
    minor = matrix.shape[1] if matrix.format == "csr" else matrix.shape[0]
    name = f"{matrix.format} indptr"
    if indptr.ndim != 1 or indptr.shape[0] != major + 1:
        raise ValueError(f"{name} must have {major + 1} entries, got {indptr.shape}")
    if indptr[0] != 0 or np.any(np.diff(indptr) < 0):
        raise ValueError(f"{name} must start at 0 and never decrease")
    if int(indptr[-1]) > indices.shape[0] or indices.shape[0] != len(matrix.data):
        raise ValueError(
            f"{name} ends at {int(indptr[-1])}, but there are {indices.shape[0]} "
            f"indices and {len(matrix.data)} values"
        )
    used = indices[: int(indptr[-1])]
    if used.size and (int(used.min()) < 0 or int(used.max()) >= minor):
        raise ValueError(f"{matrix.format} indices must lie in [0, {minor})")


class SparseTensor:
    """A sparse tensor: its encoding, dimension shape and level buffers.

    As an array (scipy.sparse's rules where they decide): `t @ other` is a
    numpy array when `other` is dense (a scalar for two vectors) and a
    `SparseTensor` when it is sparse; `t + s`, `t - s` and `t * s` with `s`
    sparse (a `SparseTensor` or scipy matrix) are `SparseTensor`s, `t * d`
    with `d` dense (broadcast to `t`'s shape) is sparse, `t + d` / `t - d`
    are dense numpy arrays. Scalars scale the values (`t * 2.0`, `t / 2`,
    `-t`: the same index buffers, numpy's dtype rules); adding a nonzero
    scalar raises NotImplementedError, as scipy does (add to `toarray()`).
    With a scipy matrix `m` on the left, `m + t` and `m - t` are computed
    here (a result of `m`'s family), `m * t` and `m @ t` by scipy, which
    reads the tensor as a dense array (`__array__`). Sparse results follow
    the front end (`xsparse.frontend.results`): a sparse operand's
    encoding, or CSR's generalization; entries that cancel stay stored
    (scipy drops them). Shapes must agree (ValueError, as scipy's).
    """

    __array_ufunc__ = None
    """numpy's operators defer to ours: `dense + t` is `t.__radd__(dense)`."""

    encoding: Encoding
    shape: tuple[int, ...]
    positions: list[AnyArray | None]
    coordinates: list[AnyArray | None]
    values: AnyArray
    level_sizes: tuple[int, ...]

    def __init__(
        self,
        encoding: str | SparseTensorEncodingAttr | Encoding,
        shape: Sequence[int],
        positions: Sequence[AnyArray | None],
        coordinates: Sequence[AnyArray | None],
        values: AnyArray,
        *,
        validate: bool = True,
    ) -> None:
        """From level buffers (one positions and one coordinates entry per level,
        None where the level format has no such buffer). A level with
        `crdWidth = 2` (2:4 metadata) holds its coordinates packed four per
        byte (`xsparse.backend.packed_bits.pack`): `ceil(n / 4)` uint8."""
        self.encoding = parse_encoding(encoding)
        self.shape = dimension_sizes(shape)
        if len(self.shape) != self.encoding.dim_rank:
            raise ValueError(
                f"shape {self.shape} has {len(self.shape)} dimensions, the encoding {self.encoding.dim_rank}"
            )
        self.level_sizes = tuple(
            level_extent(e, self.shape) for e in self.encoding.dim_to_lvl.results
        )
        self.positions = [_read_only(p) for p in positions]
        self.coordinates = [_read_only(c) for c in coordinates]
        self.values = _read_only(np.asarray(values))
        if validate:
            self.validate()

    # -- construction -------------------------------------------------------

    @classmethod
    def from_coo(
        cls,
        coords: npt.ArrayLike,
        values: npt.ArrayLike,
        shape: Sequence[int],
        encoding: str | SparseTensorEncodingAttr | Encoding,
        dtype: npt.DTypeLike | None = None,
    ) -> SparseTensor:
        """From dimension coordinates (nnz x rank, integers) and values;
        duplicates are summed unless the encoding stores them (nonunique
        levels). `shape`: integers (`dimension_sizes`); positions and
        coordinates that the encoding's widths cannot hold are a ValueError."""
        enc = parse_encoding(encoding)
        shape = dimension_sizes(shape)
        if len(shape) != enc.dim_rank:
            raise ValueError(
                f"shape {shape} has {len(shape)} dimensions, the encoding {enc.dim_rank}"
            )
        given = np.asarray(coords)
        if given.size and given.dtype.kind not in "iu":
            raise ValueError(f"coordinates must be integers, not {given.dtype}")
        crd = given.astype(np.int64, copy=False).reshape(-1, len(shape))
        vals = np.asarray(values, dtype=dtype)
        if vals.shape != (crd.shape[0],):
            raise ValueError("values must have one entry per coordinate tuple")
        for d, size in enumerate(shape):
            col = crd[:, d]
            if col.size and (col.min() < 0 or col.max() >= size):
                raise ValueError(
                    f"coordinate out of range in dimension {d} (size {size})"
                )
        buffers = build_level_buffers(enc, shape, crd, vals)
        positions = [
            None
            if p is None
            else overhead_buffer(p, enc.pos_width, f"level {lvl}'s position")
            for lvl, p in enumerate(buffers.positions)
        ]
        coordinates = [
            None
            if c is None
            else overhead_buffer(c, enc.crd_width, f"level {lvl}'s coordinate")
            for lvl, c in enumerate(buffers.coordinates)
        ]
        # Built here from coordinates checked above, in widths that hold them:
        # valid by construction, so the numpy validation pass is skipped.
        return cls(enc, shape, positions, coordinates, buffers.values, validate=False)

    @classmethod
    def from_dense(
        cls, array: npt.ArrayLike, encoding: str | SparseTensorEncodingAttr | Encoding
    ) -> SparseTensor:
        """The nonzeros of a dense array, stored in `encoding`."""
        dense = np.asarray(array)
        nz = np.nonzero(dense)
        coords = np.stack(nz, axis=1) if dense.ndim else np.zeros((0, 0), np.int64)
        return cls.from_coo(coords, dense[nz], dense.shape, encoding, dtype=dense.dtype)

    @classmethod
    def from_scipy(
        cls,
        matrix: Any,
        encoding: str | SparseTensorEncodingAttr | Encoding | None = None,
        *,
        validate: bool = True,
    ) -> SparseTensor:
        """From a scipy.sparse array or matrix; without an encoding, the one
        matching its format (CSR, CSC, COO, BSR). CSR/CSC buffers are shared
        when their dtypes already match the encoding's widths.

        `validate=False` (for a kernel whose compiled checker runs on the
        buffers anyway): a CSR/CSC matrix that scipy already knows to be
        canonical is taken as it is, without a numpy pass over its indices."""
        import scipy.sparse as sp

        if not sp.issparse(matrix):
            raise TypeError(
                f"expected a scipy.sparse matrix, got {type(matrix).__name__}"
            )
        fmt = matrix.format
        if encoding is None:
            encoding = default_encoding_text(fmt, getattr(matrix, "blocksize", (1, 1)))
        enc = parse_encoding(encoding)
        shape = tuple(int(s) for s in matrix.shape)
        if fmt == compressed_2d_kind(enc, unordered=True):
            lt = enc.lvl_types[1]
            m = matrix
            if lt.is_ordered and lt.is_unique:  # scipy's canonical format
                # scipy's cached verdict (computing it reads the indices unchecked)
                known_canonical = (
                    getattr(matrix, "_has_canonical_format", False) is True
                )
                if validate or not known_canonical:
                    _check_compressed(matrix)
                m = matrix if matrix.has_canonical_format else matrix.copy()
                m.sum_duplicates()
            elif validate:  # scipy's buffers as they are: no order to make
                _check_compressed(matrix)
            return cls(
                enc,
                shape,
                [None, _as_overhead(m.indptr, enc.pos_width, "indptr entry")],
                [None, _as_overhead(m.indices, enc.crd_width, "indices entry")],
                np.asarray(m.data),
                validate=validate,
            )
        coo = matrix.tocoo()
        coords = np.stack([np.asarray(coo.row), np.asarray(coo.col)], axis=1)
        return cls.from_coo(coords, coo.data, shape, enc, dtype=coo.data.dtype)

    # -- validation ---------------------------------------------------------

    def validate(self) -> None:
        """Check the buffers against the encoding; ValueError/TypeError if not."""
        enc = self.encoding
        if len(self.positions) != enc.lvl_rank or len(self.coordinates) != enc.lvl_rank:
            raise ValueError(
                f"expected positions and coordinates for {enc.lvl_rank} levels"
            )
        num_parents = 1
        # The segments of a COO region's first level and its coordinates so far.
        chain: tuple[IntArray, IntArray, list[IntArray]] | None = None
        for level, lt in enumerate(enc.lvl_types):
            num_parents, lo, hi = self._validate_level(level, lt, num_parents)
            fmt, crd = lt.format, self.coordinates_at(level)
            if fmt.is_dense or crd is None:
                chain = None
                continue
            where = f"level {level} ({lt})"
            crd = crd.astype(np.int64, copy=False)
            if lt.is_unique and not lt.is_ordered and not fmt.is_branchless:
                _check_distinct(crd, lo, hi, where)
            if fmt.has_positions and not lt.is_unique:  # a COO region starts
                chain = (lo, hi, [crd])
            elif fmt.is_branchless and chain is not None:
                below = enc.lvl_types[level + 1 : level + 2]
                ends_region = not (below and below[0].format.is_branchless)
                if lt.is_ordered:
                    _check_chain_order(crd, chain, lt.is_unique and ends_region, where)
                chain[2].append(crd)
            else:
                chain = None
        if self.values.ndim != 1:
            raise ValueError("values must be a 1-D array")
        if self.values.shape[0] != num_parents:
            raise ValueError(
                f"values has {self.values.shape[0]} entries, the levels store {num_parents}"
            )

    def _validate_level(
        self, level: int, lt: LevelType, num_parents: int
    ) -> tuple[int, IntArray, IntArray]:
        """Check one level's buffers; the number of its entries and the
        segments [lo, hi) of its parents. The format says where each parent's
        entries are (`segment`) and how many there are (`children`,
        `positions_length`)."""
        fmt = lt.format
        size = self.level_sizes[level]
        where = f"level {level} ({lt})"
        pos, crd = self.positions[level], self.coordinates_at(level)
        if fmt.has_positions != (pos is not None) or fmt.has_coordinates != (
            crd is not None
        ):
            raise ValueError(f"{where}: wrong set of buffers for the level format")
        if fmt.is_dense:
            none = cast(IntArray, np.zeros(0, np.int64))
            return num_parents * size, none, none
        assert crd is not None
        self._check_buffer(crd, self.encoding.crd_width, f"{where} coordinates")
        if crd.size and int(crd.max()) >= size:
            raise ValueError(
                f"{where}: coordinate {int(crd.max())} out of range [0, {size})"
            )
        if fmt.is_padded and crd.size and int(crd.max()) >= lt.m:
            raise ValueError(f"{where}: coordinate out of the block of {lt.m}")
        parents = cast(IntArray, np.arange(num_parents, dtype=np.int64))
        if pos is None:
            access = positionless_access(NUMPY_ARITHMETIC, lambda: size)
            bounds = fmt.children(lt, access, np.int64(0), np.int64(num_parents))
            assert bounds is not None
            count = int(bounds[1])
            if crd.shape[0] != count:
                raise ValueError(f"{where}: expected {count} coordinates")
            lo, hi = fmt.segment(lt, access, parents)
            self._check_segments(crd.astype(np.int64, copy=False), lo, hi, lt, where)
            return count, lo, hi
        self._check_buffer(pos, self.encoding.pos_width, f"{where} positions")
        expected = int(fmt.positions_length(NUMPY_ARITHMETIC, np.int64(num_parents)))
        if pos.shape[0] != expected:
            raise ValueError(
                f"{where}: positions has {pos.shape[0]} entries, expected {expected}"
            )
        p = pos.astype(np.int64, copy=False)
        access = LevelAccess(NUMPY_ARITHMETIC, lambda: size, lambda k: p[k])
        lo, hi = fmt.segment(lt, access, parents)
        if fmt.is_compact and p[0] != 0:
            raise ValueError(f"{where}: positions must start at 0")
        if np.any(hi < lo):
            raise ValueError(f"{where}: positions are not monotone")
        if hi.size and int(hi.max()) > crd.shape[0]:
            raise ValueError(
                f"{where}: positions point past the {crd.shape[0]} coordinates"
            )
        if fmt.is_compact and int(p[-1]) != crd.shape[0]:
            raise ValueError(
                f"{where}: positions end at {int(p[-1])}, but there are "
                f"{crd.shape[0]} coordinates"
            )
        self._check_segments(crd.astype(np.int64, copy=False), lo, hi, lt, where)
        return crd.shape[0] if fmt.is_compact else int(hi.max(initial=0)), lo, hi

    @staticmethod
    def _check_buffer(buf: AnyArray, width: int, what: str) -> None:
        if buf.ndim != 1:
            raise ValueError(f"{what} must be a 1-D array")
        if buf.dtype != overhead_dtype(width):
            raise TypeError(
                f"{what} must have dtype {overhead_dtype(width)}, not {buf.dtype}"
            )
        if buf.size and buf.dtype.kind == "i" and int(buf.min()) < 0:
            raise ValueError(f"{what} holds a negative value")

    @staticmethod
    def _check_segments(
        crd: IntArray, lo: IntArray, hi: IntArray, lt: LevelType, where: str
    ) -> None:
        if not lt.is_ordered or crd.shape[0] < 2:
            return
        step = np.diff(crd)
        bad = (step < 0) if not lt.is_unique else (step <= 0)
        bad &= _within_segments(step.shape[0], lo, hi)
        if bad.any():
            kind = "sorted" if not lt.is_unique else "sorted and unique"
            raise ValueError(f"{where}: coordinates must be {kind} within each parent")

    def is_packed(self, level: int) -> bool:
        """Whether `level` holds 2-bit coordinates packed four per byte."""
        return (
            self.encoding.crd_width == PACKED_WIDTH
            and self.encoding.lvl_types[level].format.has_coordinates
        )

    def packed_coordinates(self, level: int) -> PackedBuffer:
        """A packed level's coordinates with their count (a 2:4 level under
        dense ones: n per block); ValueError when the bytes do not hold
        exactly that many."""
        crd = self.coordinates[level]
        lt = self.encoding.lvl_types[level]
        assert crd is not None and self.is_packed(level)
        count = lt.n * int(np.prod(self.level_sizes[:level], dtype=np.int64))
        try:
            return PackedBuffer(crd, count)
        except (TypeError, ValueError) as e:
            raise type(e)(f"level {level} ({lt}) coordinates: {e}") from None

    def coordinates_at(self, level: int) -> AnyArray | None:
        """`level`'s coordinates, one entry each (a packed level unpacked)."""
        if self.coordinates[level] is not None and self.is_packed(level):
            return self.packed_coordinates(level).entries()
        return self.coordinates[level]

    # -- conversion back ----------------------------------------------------

    @property
    def dtype(self) -> np.dtype[Any]:
        return self.values.dtype

    @property
    def nse(self) -> int:
        """The number of stored entries."""
        return int(self.values.shape[0])

    def level_coordinates(self) -> list[IntArray]:
        """The level coordinates of every stored value (one array per level)."""
        enc = self.encoding
        num = self.values.shape[0]
        node = cast(IntArray, np.arange(num, dtype=np.int64))
        result: list[IntArray] = [np.zeros(0, np.int64)] * enc.lvl_rank
        for level in range(enc.lvl_rank - 1, -1, -1):
            lt = enc.lvl_types[level]
            fmt = lt.format
            pos, crd = self.positions[level], self.coordinates_at(level)
            if fmt.is_dense:
                size = self.level_sizes[level]
                result[level] = node % size
                node = node // size
            elif pos is not None:
                assert crd is not None
                p = pos.astype(np.int64, copy=False)
                lo, hi = (
                    (p[:-1], p[1:])
                    if fmt.positions_per_parent == 1
                    else (p[0::2], p[1::2])
                )
                if fmt.positions_per_parent == 1:
                    parents = cast(IntArray, np.arange(lo.shape[0]))
                    owner = np.repeat(parents, hi - lo)
                else:
                    owner = np.full(crd.shape[0], -1, np.int64)
                    for parent in np.nonzero(hi > lo)[0]:
                        owner[lo[parent] : hi[parent]] = parent
                result[level] = crd.astype(np.int64)[node]
                node = owner[node]
            elif lt.n:
                assert crd is not None
                result[level] = crd.astype(np.int64)[node]
                node = node // lt.n
            else:
                assert crd is not None
                result[level] = crd.astype(np.int64)[node]
        keep = node >= 0
        return [r[keep] for r in result] if not keep.all() else result

    def to_coo(self) -> tuple[IntArray, AnyArray]:
        """Dimension coordinates (nnz x rank) and values of the stored entries."""
        lvl = self.level_coordinates()
        dims = [eval_affine(e, lvl) for e in self.encoding.lvl_to_dim.results]
        coords = np.stack(dims, axis=1) if dims else np.zeros((self.nse, 0), np.int64)
        values = self.values
        if coords.shape[0] != values.shape[0]:  # loose_compressed free space
            raise ValueError("to_coo of tensors with unused storage is not supported")
        return coords, values

    def to_dense(self) -> AnyArray:
        coords, values = self.to_coo()
        dense = np.zeros(self.shape, self.values.dtype)
        inside = (
            np.all(coords < np.asarray(self.shape), axis=1)
            if coords.size
            else np.ones(0, bool)
        )
        np.add.at(dense, tuple(coords[inside].T), values[inside])
        return dense

    def to_scipy(self) -> Any:
        """A scipy.sparse array of a 2-D tensor: CSR, CSC, DCSR and DCSC as
        `csr_array` / `csc_array`, COO as `coo_array`, BSR as `bsr_array`,
        any other encoding through its entries as `coo_array`. The values
        and index arrays are shared, not copied (read-only, as the tensor's),
        where scipy can read them: 64-bit indices, and 32-bit ones (viewed as
        int32) when every index fits; DCSR/DCSC's row (column) pointers are
        new, other widths are converted."""
        import scipy.sparse as sp

        if len(self.shape) != 2:
            raise ValueError("to_scipy needs a 2-D tensor")
        kind = compressed_2d_kind(self.encoding)
        if kind is not None:
            pos, crd = self.positions[1], self.coordinates[1]
            assert pos is not None and crd is not None
            ctor = sp.csr_array if kind == "csr" else sp.csc_array
            pos, crd = self.scipy_index(pos), self.scipy_index(crd)
            return ctor((self.values, crd, pos), shape=self.shape)
        name = format_name(self.encoding)
        if name in ("dcsr", "dcsc"):
            return self._doubly_compressed_to_scipy(name)
        if name == "coo":
            rows, columns = self.coordinates
            assert rows is not None and columns is not None
            index = (self.scipy_index(rows), self.scipy_index(columns))
            matrix = sp.coo_array((self.values, index), shape=self.shape)
            matrix.has_canonical_format = True  # sorted, unique (the encoding)
            return matrix
        if name == "bsr":
            return self._bsr_to_scipy()
        coords, values = self.to_coo()
        return sp.coo_array((values, (coords[:, 0], coords[:, 1])), shape=self.shape)

    def scipy_index(self, buffer: AnyArray) -> AnyArray:
        """A positions/coordinates buffer of this tensor as scipy's index
        array: itself (int64), an int32 view (32-bit, every index below
        2**31: scipy keeps it as it is), else a copy."""
        if buffer.dtype == np.int64:
            return buffer
        small = max(self.nse, *self.shape) < 2**31
        if small and buffer.dtype.itemsize == 4:
            return buffer.view(np.int32)
        return buffer.astype(np.int32 if small else np.int64)

    def _doubly_compressed_to_scipy(self, name: str) -> Any:
        """DCSR / DCSC as CSR / CSC: the pointers of the rows (columns) with
        entries spread over all of them."""
        import scipy.sparse as sp

        outer, pos = self.coordinates[0], self.positions[1]
        crd = self.coordinates[1]
        assert outer is not None and pos is not None and crd is not None
        indices = self.scipy_index(crd)
        majors = self.level_sizes[0]
        indptr = np.zeros(majors + 1, indices.dtype)
        counts = np.diff(pos.astype(np.int64))
        indptr[outer.astype(np.int64) + 1] = counts
        np.cumsum(indptr, out=indptr)
        ctor = sp.csr_array if name == "dcsr" else sp.csc_array
        return ctor((self.values, indices, indptr), shape=self.shape)

    def _bsr_to_scipy(self) -> Any:
        import scipy.sparse as sp

        blocks = block_sizes(self.encoding.dim_to_lvl)
        pos, crd = self.positions[1], self.coordinates[1]
        assert blocks is not None and pos is not None and crd is not None
        rows, columns = blocks[2], blocks[3]
        data = self.values.reshape(-1, rows, columns)
        index = (self.scipy_index(crd), self.scipy_index(pos))
        return sp.bsr_array((data, *index), shape=self.shape, blocksize=(rows, columns))

    def storage(self) -> list[Stored]:
        """The buffers and sizes in the calling convention's order."""
        return list(self.storage_tuple())

    def storage_tuple(self) -> tuple[Stored, ...]:
        """`storage()` as a tuple, built once and kept on the tensor: the same
        object until one of the buffers, the encoding or the level sizes is
        replaced (a kernel call asks for it every time, and recognizes the
        same storage faster than new views of the buffers)."""
        sources = (
            self.encoding,
            self.values,
            self.level_sizes,
            *self.positions,
            *self.coordinates,
        )
        cached: tuple[tuple[object, ...], tuple[Stored, ...]] | None = (
            self.__dict__.get("_storage")
        )
        if (
            cached is not None
            and len(cached[0]) == len(sources)
            and all(map(operator.is_, cached[0], sources))
        ):
            return cached[1]
        out: list[Stored] = []
        for level in range(self.encoding.lvl_rank):
            pos, crd = self.positions[level], self.coordinates[level]
            if pos is not None:
                # Signless integers: the kernel reads them as unsigned.
                out.append(pos.view(pos.dtype.str.replace("u", "i")))
            if crd is not None and self.is_packed(level):
                out.append(self.packed_coordinates(level))
            elif crd is not None:
                out.append(crd.view(crd.dtype.str.replace("u", "i")))
        out.append(self.values)
        out.extend(self.level_sizes)
        # The sources stay referenced here, so the identity check is sound.
        stored = tuple(out)
        self.__dict__["_storage"] = (sources, stored)
        return stored

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the storage kept for calls (`storage_tuple`):
        its views would be pickled as copies of every buffer."""
        return {k: v for k, v in self.__dict__.items() if k != "_storage"}

    # -- the array API (numpy / scipy names) ---------------------------------

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def nnz(self) -> int:
        """The number of stored entries (scipy's `nnz`; `nse`)."""
        return int(self.values.shape[0])

    @property
    def format(self) -> str:
        """The encoding's usual name ('csr', 'csc', 'coo', 'dcsr', 'dcsc',
        'bsr', 'csf', 'dense', 'sparse_vector'; `format_name`), else its text."""
        return format_name(self.encoding) or str(
            SparseTensorEncodingAttr(self.encoding)
        )

    @property
    def T(self) -> SparseTensor:
        """The transpose (dimensions reversed), sharing every buffer: the same
        levels read with the dimensions renamed (CSR's transpose is CSC,
        DCSR's DCSC, COO's a COO sorted by columns)."""
        return SparseTensor(
            transposed_encoding(self.encoding),
            self.shape[::-1],
            self.positions,
            self.coordinates,
            self.values,
            validate=False,
        )

    def transpose(self) -> SparseTensor:
        """`T` (all dimensions reversed, as numpy's `transpose()`)."""
        return self.T

    def toarray(self) -> AnyArray:
        """The dense numpy array (scipy's name for `to_dense`)."""
        return self.to_dense()

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> AnyArray:
        """`np.asarray(t)`: the dense array (always a new one: `copy=False`
        raises ValueError, as numpy asks)."""
        if copy is False:
            raise ValueError("a SparseTensor becomes a dense array only by a copy")
        dense = self.to_dense()
        return dense if dtype is None else dense.astype(dtype, copy=False)

    def with_values(self, values: AnyArray) -> SparseTensor:
        """The same entries with other values (one per stored entry); the
        index buffers are shared."""
        values = np.asarray(values)
        if values.shape != self.values.shape:
            raise ValueError(
                f"with_values needs {self.nnz} values (one per stored entry), "
                f"got shape {values.shape}"
            )
        return SparseTensor(
            self.encoding,
            self.shape,
            self.positions,
            self.coordinates,
            values,
            validate=False,
        )

    def __matmul__(self, other: Any) -> Any:
        kind, value = _classify(other)
        return NotImplemented if kind == "other" else _matmul(self, value, kind)

    def __rmatmul__(self, other: Any) -> Any:
        kind, value = _classify(other)
        return NotImplemented if kind == "other" else _matmul(value, self, kind)

    def __add__(self, other: Any) -> Any:
        return self._elementwise("+", other, reflected=False)

    def __radd__(self, other: Any) -> Any:
        return self._elementwise("+", other, reflected=True)

    def __sub__(self, other: Any) -> Any:
        return self._elementwise("-", other, reflected=False)

    def __rsub__(self, other: Any) -> Any:
        return self._elementwise("-", other, reflected=True)

    def __mul__(self, other: Any) -> Any:
        return self._elementwise("*", other, reflected=False)

    def __rmul__(self, other: Any) -> Any:
        return self._elementwise("*", other, reflected=True)

    def __truediv__(self, other: Any) -> Any:
        """Division by a scalar (the values divided; numpy's dtype rules)."""
        kind, _ = _classify(other)
        if kind != "scalar":
            return NotImplemented
        return self.with_values(self.values / other)

    def __neg__(self) -> SparseTensor:
        return self.with_values(-self.values)

    def _elementwise(self, op: str, other: Any, reflected: bool) -> Any:
        """`self op other` (`other op self` when `reflected`): scalars on the
        values, anything else by `xsparse.evaluate` (class docstring)."""
        kind, value = _classify(other)
        if kind == "other":
            return NotImplemented
        if kind == "scalar":
            return self._scalar(op, other, reflected)
        if kind == "sparse":
            if tuple(value.shape) != self.shape:
                raise ValueError(
                    f"inconsistent shapes: {_shape_text(self.shape)} and "
                    f"{_shape_text(value.shape)}"
                )
        else:
            value = _broadcast(value, self.shape)
        lhs, rhs = (value, self) if reflected else (self, value)
        index = ",".join("ijklmnpqrstuvw"[: self.ndim])
        return front_end().evaluate(
            f"C({index}) = A({index}) {op} B({index})", A=lhs, B=rhs
        )

    def _scalar(self, op: str, scalar: Any, reflected: bool) -> SparseTensor:
        """A scalar operand, as scipy takes it: `*` scales the values; `+`
        and `-` take only zero (a nonzero one would fill every entry)."""
        if op == "*":
            return self.with_values(self.values * scalar)
        if scalar != 0:
            raise NotImplementedError(
                f"adding a nonzero scalar to a sparse tensor is not supported "
                f"(as in scipy): it would store every entry; use t.toarray() {op} "
                "scalar"
            )
        values = -self.values if op == "-" and reflected else self.values
        return self.with_values(values + scalar)

    def __repr__(self) -> str:
        """One line: shape, dtype, format (the encoding where it has no name),
        stored entries, index widths where they are not the default."""
        enc = self.encoding
        widths = "".join(
            f", {what}={width}"
            for what, width in (
                ("pos_width", enc.pos_width),
                ("crd_width", enc.crd_width),
            )
            if width
        )
        return (
            f"<SparseTensor {_shape_text(self.shape)} {self.dtype} {self.format}, "
            f"nnz={self.nnz}{widths}>"
        )


def _as_overhead(buf: AnyArray, width: int, what: str) -> AnyArray:
    """`buf` as a positions/coordinates buffer of `width` bits: a view when only
    the sign differs (scipy's int32 for a 32-bit level), else a converted copy.
    Negative values reinterpreted as unsigned fail validation (out of range)."""
    dtype = overhead_dtype(width)
    if buf.dtype.kind in "iu" and buf.dtype.itemsize == dtype.itemsize:
        return buf.view(dtype)
    if buf.dtype.itemsize > dtype.itemsize:  # narrower: refuse what would wrap
        return overhead_buffer(buf, width, what)
    return np.asarray(buf, dtype)


def _read_only(buf: AnyArray | None) -> Any:
    """A read-only view: buffers checked once stay valid while the tensor is
    used (the caller's own array, e.g. scipy's, is not affected)."""
    if buf is None:
        return None
    view = np.asarray(buf).view()
    view.flags.writeable = False
    return view


def compressed_2d_kind(enc: Encoding, *, unordered: bool = False) -> str | None:
    """'csr' / 'csc' when the encoding is exactly scipy's CSR / CSC layout;
    with `unordered`, also when its compressed level is `nonunique` and/or
    `nonordered` (scipy's layout without its canonical format)."""
    types = enc.lvl_types
    if (
        len(types) != 2
        or not types[0].format.is_dense
        or types[0].format.name != "dense"
    ):
        return None
    lt = types[1]
    if lt.format.name != "compressed" or (
        not unordered and (lt.nonunique or lt.nonordered)
    ):
        return None
    results = enc.dim_to_lvl.results
    if not all(isinstance(r, AffineDimExpr) for r in results):
        return None
    order = [cast(AffineDimExpr, r).position for r in results]
    return "csr" if order == [0, 1] else "csc" if order == [1, 0] else None


@functools.cache
def _named_encodings(rank: int) -> tuple[tuple[Encoding, str], ...]:
    """The encodings of rank `rank` that have a usual name (widths at index)."""
    dims = [f"d{k}" for k in range(rank)]
    named: list[tuple[str, list[str]]] = [("dense", [f"{d} : dense" for d in dims])]
    if rank == 1:
        named.append(("sparse_vector", ["d0 : compressed"]))
    if rank == 2:
        named += [
            ("csr", ["d0 : dense", "d1 : compressed"]),
            ("csc", ["d1 : dense", "d0 : compressed"]),
            ("dcsr", ["d0 : compressed", "d1 : compressed"]),
            ("dcsc", ["d1 : compressed", "d0 : compressed"]),
        ]
    if rank >= 2:
        middle = [f"{d} : singleton(nonunique)" for d in dims[1:-1]]
        levels = [
            f"{dims[0]} : compressed(nonunique)",
            *middle,
            f"{dims[-1]} : singleton",
        ]
        named.append(("coo", levels))
    if rank >= 3:
        named.append(("csf", [f"{d} : compressed" for d in dims]))
    header = ", ".join(dims)
    return tuple(
        (
            parse_encoding(
                f"#sparse_tensor.encoding<{{ map = ({header}) -> ({', '.join(levels)}) }}>"
            ),
            name,
        )
        for name, levels in named
    )


_format_names: dict[int, tuple[Encoding, str | None]] = {}


def format_name(encoding: Encoding) -> str | None:
    """The usual name of `encoding` whatever its widths ('csr', 'csc', 'coo',
    'dcsr', 'dcsc', 'bsr' (any block size), 'csf' (3-D and up: compressed
    levels in dimension order), 'dense', 'sparse_vector'), else None.
    Remembered by identity: comparing encodings is slow."""
    known = _format_names.get(id(encoding))
    if known is not None and known[0] is encoding:
        return known[1]
    plain = dataclasses.replace(encoding, pos_width=0, crd_width=0)
    name = next((n for e, n in _named_encodings(encoding.dim_rank) if e == plain), None)
    blocks = block_sizes(encoding.dim_to_lvl)
    if name is None and blocks is not None and len(blocks) == 4:
        bsr = default_encoding_text("bsr", (blocks[2], blocks[3]))
        name = "bsr" if parse_encoding(bsr) == plain else None
    if len(_format_names) >= 256:
        _format_names.clear()
    _format_names[id(encoding)] = (encoding, name)
    return name


_transposes: dict[int, tuple[Encoding, Encoding]] = {}


def transposed_encoding(encoding: Encoding) -> Encoding:
    """The encoding that stores the transpose of a tensor in the same level
    buffers: dimension k renamed n-1-k (CSR -> CSC). One object per
    `encoding` object, so kernels and the front end recognize it fast."""
    known = _transposes.get(id(encoding))
    if known is not None and known[0] is encoding:
        return known[1]
    n = encoding.dim_rank
    d2l, l2d = encoding.dim_to_lvl, encoding.lvl_to_dim
    symbols = [AffineExpr.symbol(s) for s in range(d2l.num_symbols)]
    renamed = [AffineExpr.dimension(n - 1 - k) for k in range(n)]
    transposed = dataclasses.replace(
        encoding,
        dim_to_lvl=d2l.replace_dims_and_symbols(renamed, symbols, n, len(symbols)),
        lvl_to_dim=AffineMap(l2d.num_dims, l2d.num_symbols, l2d.results[::-1]),
        dim_slices=encoding.dim_slices[::-1],
    )
    if len(_transposes) >= 256:
        _transposes.clear()
    _transposes[id(encoding)] = (encoding, transposed)
    return transposed


def front_end() -> Any:
    """The package root, whose `einsum` / `evaluate` compute `SparseTensor`'s
    operators: the one call from the runtime up to the front end. Read at
    call time from `sys.modules` (the root is loaded before any of its
    modules; its lazy `__getattr__` loads `xsparse.frontend` on first use),
    so the backend imports nothing above it (tests/test_architecture.py)."""
    return sys.modules["xsparse"]


def _shape_text(shape: Sequence[int]) -> str:
    return "x".join(str(int(s)) for s in shape)


def _classify(value: Any) -> tuple[str, Any]:
    """An operand of `SparseTensor`'s operators: ('sparse', it) for a
    SparseTensor or scipy matrix, ('scalar', array) / ('dense', array) for
    what numpy makes an array of, ('other', it) for the rest (NotImplemented)."""
    if isinstance(value, SparseTensor):
        return "sparse", value
    import scipy.sparse as sp

    if sp.issparse(value):
        return "sparse", value
    if isinstance(value, (np.ndarray, np.generic, int, float, list, tuple)):
        array = np.asarray(value)
        return ("scalar" if array.ndim == 0 else "dense"), array
    return "other", value


def _broadcast(dense: AnyArray, shape: tuple[int, ...]) -> AnyArray:
    """A dense operand of an elementwise operator, broadcast to `shape`."""
    if dense.shape == shape:
        return dense
    try:
        return np.ascontiguousarray(np.broadcast_to(dense, shape))
    except ValueError:
        raise ValueError(
            f"operands could not be broadcast together with shapes "
            f"{_shape_text(shape)} and {_shape_text(dense.shape)}"
        ) from None


def _matmul(lhs: Any, rhs: Any, kind: str) -> Any:
    """`lhs @ rhs` for 1-D and 2-D operands (numpy's rules for vectors) by
    `xsparse.einsum`; `kind` is the non-`SparseTensor` operand's."""
    if kind == "scalar":
        raise ValueError("matmul: scalar operands are not allowed, use '*' instead")
    left, right = tuple(lhs.shape), tuple(rhs.shape)
    if not (1 <= len(left) <= 2 and 1 <= len(right) <= 2):
        raise ValueError(
            f"matmul: takes 1-D and 2-D operands, not {_shape_text(left)} @ "
            f"{_shape_text(right)}"
        )
    if left[-1] != right[0]:
        raise ValueError(
            f"matmul: dimension mismatch: {_shape_text(left)} @ {_shape_text(right)} "
            f"(size {left[-1]} is different from {right[0]})"
        )
    a = "ij"[2 - len(left) :]
    b = "jk"[: len(right)]
    out = a[:-1] + b[1:]
    return front_end().einsum(f"{a},{b}->{out}", lhs, rhs)


def default_encoding_text(fmt: str, blocksize: tuple[int, int] = (1, 1)) -> str:
    """The encoding of a scipy.sparse format."""
    if fmt == "csr":
        return "#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>"
    if fmt == "csc":
        return "#sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>"
    if fmt == "bsr":
        r, c = blocksize
        return (
            "#sparse_tensor.encoding<{ map = (d0, d1) -> "
            f"(d0 floordiv {r} : dense, d1 floordiv {c} : compressed, d0 mod {r} : dense, d1 mod {c} : dense) }}>"
        )
    return "#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>"


class ResultFromFields:
    """How one result of a Kernel is rebuilt from the native function's results:
    a sparse tensor from its storage fields, anything else as it comes."""

    def __init__(self, result_type: Attribute) -> None:
        self.encoding = sparse_encoding(result_type)
        self.fields = (
            storage_fields(cast(TensorType[Attribute], result_type))
            if self.encoding is not None
            else []
        )

    def take(self, values: list[Any]) -> Any:
        """Consume this result's values from the front of `values`."""
        if self.encoding is None:
            return values.pop(0)
        enc = self.encoding
        taken = [values.pop(0) for _ in self.fields]
        positions: list[Any] = [None] * enc.lvl_rank
        coordinates: list[Any] = [None] * enc.lvl_rank
        level_sizes: list[int] = []
        buffers: Any = None
        for field, value in zip(self.fields, taken, strict=True):
            if field.kind == "positions":
                positions[field.level] = value.view(overhead_dtype(enc.pos_width))
            elif field.kind == "coordinates" and isinstance(value, PackedBuffer):
                coordinates[field.level] = value.data
            elif field.kind == "coordinates":
                coordinates[field.level] = value.view(overhead_dtype(enc.crd_width))
            elif field.kind == "values":
                buffers = value
            else:
                level_sizes.append(int(value))
        last = [np.array([size - 1]) for size in level_sizes]
        shape = [int(eval_affine(e, last)[0]) + 1 for e in enc.lvl_to_dim.results]
        return SparseTensor(enc, shape, positions, coordinates, buffers, validate=False)
