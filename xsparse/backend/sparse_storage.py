"""`SparseTensor`: a sparse tensor of any encoding as numpy level buffers.

The buffers follow `xsparse.dialects.sparse_tensor.storage` (the calling
convention of compiled kernels): per level a positions and/or coordinates
array, then the values, then the level sizes. Tensors are built from dense
arrays, COO coordinates, scipy.sparse matrices or level buffers, validated
before they reach native code, and converted back to numpy / scipy.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
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
)

from xsparse.dialects.sparse_tensor.encoding import Encoding, SparseTensorEncodingAttr
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


def overhead_dtype(width: int) -> np.dtype[Any]:
    """numpy dtype of a positions/coordinates buffer (unsigned, as MLIR reads them)."""
    return np.dtype(
        {0: np.int64, 64: np.int64, 32: np.uint32, 16: np.uint16}.get(width, np.uint8)
    )


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
    """A sparse tensor: its encoding, dimension shape and level buffers."""

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
        None where the level format has no such buffer)."""
        self.encoding = parse_encoding(encoding)
        self.shape = tuple(int(s) for s in shape)
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
        """From dimension coordinates (nnz x rank) and values; duplicates are
        summed unless the encoding stores them (nonunique levels)."""
        enc = parse_encoding(encoding)
        crd = np.asarray(coords, dtype=np.int64).reshape(-1, len(shape))
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
        pos_dtype, crd_dtype = (
            overhead_dtype(enc.pos_width),
            overhead_dtype(enc.crd_width),
        )
        return cls(
            enc,
            shape,
            [None if p is None else p.astype(pos_dtype) for p in buffers.positions],
            [None if c is None else c.astype(crd_dtype) for c in buffers.coordinates],
            buffers.values,
        )

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
        kind = compressed_2d_kind(enc)
        if kind is not None and fmt == kind:
            # scipy's cached verdict (computing it reads the indices unchecked)
            known_canonical = getattr(matrix, "_has_canonical_format", False) is True
            if validate or not known_canonical:
                _check_compressed(matrix)
            m = matrix if matrix.has_canonical_format else matrix.copy()
            m.sum_duplicates()
            return cls(
                enc,
                shape,
                [None, _as_overhead(m.indptr, enc.pos_width)],
                [None, _as_overhead(m.indices, enc.crd_width)],
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
            fmt, crd = lt.format, self.coordinates[level]
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
        pos, crd = self.positions[level], self.coordinates[level]
        where = f"level {level} ({lt})"
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
            pos, crd = self.positions[level], self.coordinates[level]
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
        """A scipy.sparse array (CSR/CSC share the buffers, others go through COO)."""
        import scipy.sparse as sp

        if len(self.shape) != 2:
            raise ValueError("to_scipy needs a 2-D tensor")
        kind = compressed_2d_kind(self.encoding)
        if kind is not None:
            pos, crd = self.positions[1], self.coordinates[1]
            assert pos is not None and crd is not None
            ctor = sp.csr_array if kind == "csr" else sp.csc_array
            return ctor((self.values, crd, pos), shape=self.shape)
        coords, values = self.to_coo()
        return sp.coo_array((values, (coords[:, 0], coords[:, 1])), shape=self.shape)

    def storage(self) -> list[AnyArray | int]:
        """The buffers and sizes in the calling convention's order."""
        return list(self.storage_tuple())

    def storage_tuple(self) -> tuple[AnyArray | int, ...]:
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
        cached: tuple[tuple[object, ...], tuple[AnyArray | int, ...]] | None = (
            self.__dict__.get("_storage")
        )
        if (
            cached is not None
            and len(cached[0]) == len(sources)
            and all(map(operator.is_, cached[0], sources))
        ):
            return cached[1]
        out: list[AnyArray | int] = []
        for level in range(self.encoding.lvl_rank):
            for buf in (self.positions[level], self.coordinates[level]):
                if buf is not None:
                    # Signless integers: the kernel reads them as unsigned.
                    out.append(buf.view(buf.dtype.str.replace("u", "i")))
        out.append(self.values)
        out.extend(self.level_sizes)
        # The sources stay referenced here, so the identity check is sound.
        stored = tuple(out)
        self.__dict__["_storage"] = (sources, stored)
        return stored

    def __repr__(self) -> str:
        return f"SparseTensor(shape={self.shape}, nse={self.nse}, dtype={self.dtype}, encoding={SparseTensorEncodingAttr(self.encoding)})"


def _as_overhead(buf: AnyArray, width: int) -> AnyArray:
    """`buf` as a positions/coordinates buffer of `width` bits: a view when only
    the sign differs (scipy's int32 for a 32-bit level), else a converted copy.
    Negative values reinterpreted as unsigned fail validation (out of range)."""
    dtype = overhead_dtype(width)
    if buf.dtype.kind in "iu" and buf.dtype.itemsize == dtype.itemsize:
        return buf.view(dtype)
    return np.asarray(buf, dtype)


def _read_only(buf: AnyArray | None) -> Any:
    """A read-only view: buffers checked once stay valid while the tensor is
    used (the caller's own array, e.g. scipy's, is not affected)."""
    if buf is None:
        return None
    view = np.asarray(buf).view()
    view.flags.writeable = False
    return view


def compressed_2d_kind(enc: Encoding) -> str | None:
    """'csr' / 'csc' when the encoding is exactly scipy's CSR / CSC layout."""
    types = enc.lvl_types
    if (
        len(types) != 2
        or not types[0].format.is_dense
        or types[0].format.name != "dense"
    ):
        return None
    lt = types[1]
    if lt.format.name != "compressed" or lt.nonunique or lt.nonordered:
        return None
    results = enc.dim_to_lvl.results
    if not all(isinstance(r, AffineDimExpr) for r in results):
        return None
    order = [cast(AffineDimExpr, r).position for r in results]
    return "csr" if order == [0, 1] else "csc" if order == [1, 0] else None


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
            elif field.kind == "coordinates":
                coordinates[field.level] = value.view(overhead_dtype(enc.crd_width))
            elif field.kind == "values":
                buffers = value
            else:
                level_sizes.append(int(value))
        last = [np.array([size - 1]) for size in level_sizes]
        shape = [int(eval_affine(e, last)[0]) + 1 for e in enc.lvl_to_dim.results]
        return SparseTensor(enc, shape, positions, coordinates, buffers, validate=False)
