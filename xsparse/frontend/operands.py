"""What each operand of `einsum` / `evaluate` is, as the kernel sees it.

From the object alone: a numpy array (or a Python number or list) is dense; a
scipy CSR/CSC matrix has scipy's layout (`(i : dense, j : compressed)` and its
transpose) with 32-bit positions and coordinates when its index arrays are
int32, so the kernel reads them without a copy; COO is
`(i : compressed(nonunique), j : singleton)` (the kernel sums duplicates and
sorts, as scipy's `sum_duplicates`); BSR keeps its block encoding; other
scipy formats (DIA, LIL, DOK) are converted to CSR by scipy on every call; a
`SparseTensor` has its own encoding. `prepare` runs on every call and must
stay cheap: a few attribute reads per operand.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import scipy.sparse as sp

from xsparse.backend.sparse_storage import (
    SparseTensor,
    default_encoding_text,
    parse_encoding,
)
from xsparse.dialects.sparse_tensor.encoding import Encoding, SparseTensorEncodingAttr

SUPPORTED_DTYPES = tuple(
    np.dtype(t) for t in (np.float64, np.float32, np.int64, np.int32)
)
"""The value types a kernel computes with (others raise TypeError)."""

Key = tuple[Any, ...]
"""What a compiled kernel depends on in one operand (its part of the cache key)."""


@dataclass(frozen=True)
class OperandInfo:
    """One operand as the kernel takes it."""

    name: str
    dtype: np.dtype[Any]
    shape: tuple[int, ...]
    encoding: Encoding | None
    """None for a dense operand."""
    family: str
    """'numpy', 'sparray' / 'spmatrix' (scipy), 'tensor' (SparseTensor) or
    'pydata' (pydata/sparse):
    what a sparse result made from it is returned as."""
    scipy_format: str | None = None

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def is_sparse(self) -> bool:
        return self.encoding is not None


@functools.cache
def scipy_encoding(
    fmt: str,
    blocksize: tuple[int, int] = (1, 1),
    width: int = 0,
    canonical: bool = True,
) -> Encoding:
    """The encoding of a 2-D scipy format (`width`: of positions and
    coordinates). A CSR/CSC matrix that is not canonical (its indices
    unsorted or repeated within a row, as scipy's products leave them) has a
    `compressed(nonunique, nonordered)` level: read as it is, duplicates
    summed, where the kernel needs no order (`unordered_where_possible`)."""
    text = default_encoding_text(fmt, blocksize)
    if not canonical and fmt in ("csr", "csc"):
        text = text.replace(": compressed", ": compressed(nonunique, nonordered)")
    encoding = parse_encoding(text)
    return dataclasses.replace(encoding, pos_width=width, crd_width=width)


def index_width(matrix: Any) -> int:
    """32 for a CSR/CSC matrix whose index arrays are both int32, else 0 (index)."""
    return (
        32
        if matrix.indices.dtype.itemsize == 4 and matrix.indptr.dtype.itemsize == 4
        else 0
    )


_encoding_texts: dict[int, tuple[Encoding, str]] = {}


def encoding_text(encoding: Encoding) -> str:
    """`#sparse_tensor.encoding<...>` of `encoding`, remembered by identity
    (printing an encoding is slow; `SparseTensor`s made alike share one)."""
    known = _encoding_texts.get(id(encoding))
    if known is not None and known[0] is encoding:
        return known[1]
    text = str(SparseTensorEncodingAttr(encoding))
    if len(_encoding_texts) >= 256:
        _encoding_texts.clear()
    _encoding_texts[id(encoding)] = (encoding, text)
    return text


def _compressed_key(m: Any) -> Key:
    # scipy computes `has_canonical_format` once (in C) and remembers it
    return (
        m.__class__,
        m.dtype,
        m.indices.dtype,
        m.indptr.dtype,
        m.has_canonical_format,
    )


def _coo_key(m: Any) -> Key | None:
    return (m.__class__, m.dtype) if len(m.shape) == 2 else None


def _bsr_key(m: Any) -> Key | None:
    """None (converted to CSR by `convert`) for 1 x 1 blocks, which have no
    block encoding (`d0 floordiv 1` leaves nothing to infer lvlToDim from)."""
    if tuple(m.blocksize) == (1, 1):
        return None
    return (m.__class__, m.dtype, m.blocksize)


def _tensor_key(t: Any) -> Key:
    return (SparseTensor, encoding_text(t.encoding), t.values.dtype)


_KEYS: dict[type, Callable[[Any], Key | None]] = {SparseTensor: _tensor_key}
for _cls, _keyer in [
    (sp.csr_array, _compressed_key),
    (sp.csr_matrix, _compressed_key),
    (sp.csc_array, _compressed_key),
    (sp.csc_matrix, _compressed_key),
    (sp.coo_array, _coo_key),
    (sp.coo_matrix, _coo_key),
    (sp.bsr_array, _bsr_key),
    (sp.bsr_matrix, _bsr_key),
]:
    _KEYS[_cls] = _keyer


def prepare(operand: Any) -> tuple[Any, Key]:
    """The object to hand the kernel (the operand itself, or a conversion of
    it) and its cache key."""
    kind: type[Any] = operand.__class__
    if kind is np.ndarray:
        return operand, (kind, operand.dtype, operand.ndim)
    keyer = _KEYS.get(kind)
    if keyer is not None:
        key = keyer(operand)
        if key is not None:
            return operand, key
    converted = convert(operand)
    if converted is operand:
        raise TypeError(f"cannot take a {kind.__name__} as an operand")
    return prepare(converted)


class PydataTensor(SparseTensor):
    """A pydata/sparse array taken in as a COO `SparseTensor` (its sorted
    coordinates and values shared where their dtypes allow): the family of
    the results made from it."""


def _pydata_key(t: Any) -> Key:
    return (PydataTensor, encoding_text(t.encoding), t.values.dtype)


_KEYS[PydataTensor] = _pydata_key


def is_pydata(operand: object) -> bool:
    """A pydata/sparse array (`sparse.COO`, `sparse.GCXS`, ...), recognized
    without importing the package (it is optional)."""
    module = type(operand).__module__
    return (module == "sparse" or module.startswith("sparse.")) and hasattr(
        operand, "asformat"
    )


def coo_encoding_text(rank: int) -> str:
    """COO of `rank` dimensions: a nonunique compressed level, singletons."""
    if rank == 1:
        return "#sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>"
    dims = ", ".join(f"d{k}" for k in range(rank))
    levels = ["d0 : compressed(nonunique)"]
    levels += [f"d{k} : singleton(nonunique)" for k in range(1, rank - 1)]
    levels.append(f"d{rank - 1} : singleton")
    return f"#sparse_tensor.encoding<{{ map = ({dims}) -> ({', '.join(levels)}) }}>"


def _from_pydata(array: Any) -> PydataTensor:
    coo = array.asformat("coo")
    # pydata keeps a COO canonical (sorted, duplicates summed) on construction
    rank = len(coo.shape)
    coords = np.asarray(coo.coords).T.reshape(-1, rank)
    tensor = PydataTensor.from_coo(
        coords, np.asarray(coo.data), coo.shape, coo_encoding_text(rank)
    )
    assert isinstance(tensor, PydataTensor)
    return tensor


def convert(operand: Any) -> Any:
    """A scipy format without an encoding as CSR, a 1-D scipy array as a
    SparseTensor, a pydata/sparse array as a COO `PydataTensor`, a number,
    list or numpy scalar as an array; anything else is returned as it is
    (and refused by `prepare`)."""
    if is_pydata(operand) and len(operand.shape) >= 1:
        return _from_pydata(operand)
    if sp.issparse(operand):
        if len(operand.shape) == 1:
            coo = operand.tocoo()
            coords = np.asarray(coo.coords[0]).reshape(-1, 1)
            vector = "#sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>"
            return SparseTensor.from_coo(
                coords, coo.data, operand.shape, vector, dtype=coo.dtype
            )
        return operand.tocsr()
    if _array_like(operand):
        return np.asarray(operand)
    return operand


def _array_like(value: object) -> bool:
    """A number (not a bool), numpy scalar, list or tuple: what numpy makes an array of."""
    if isinstance(value, (bool, np.bool_)):
        return False
    return isinstance(value, (int, float, np.generic, list, tuple))


def _describe_scipy(matrix: Any, name: str) -> OperandInfo:
    fmt: str = matrix.format
    family = "sparray" if isinstance(cast(object, matrix), sp.sparray) else "spmatrix"
    compressed = fmt in ("csr", "csc")
    width = index_width(matrix) if compressed else 0
    canonical = bool(matrix.has_canonical_format) if compressed else True
    rows, columns = getattr(matrix, "blocksize", (1, 1))
    encoding = scipy_encoding(fmt, (int(rows), int(columns)), width, canonical)
    shape: tuple[int, ...] = tuple(int(s) for s in matrix.shape)
    return OperandInfo(name, matrix.dtype, shape, encoding, family, fmt)


def describe(operand: Any, where: str, name: str) -> OperandInfo:
    """What the kernel compiled for `operand` (as `prepare` returned it) takes;
    TypeError naming `where` and `name` for an unsupported dtype."""
    if isinstance(operand, np.ndarray):
        array = cast("np.ndarray[Any, Any]", operand)
        info = OperandInfo(name, array.dtype, array.shape, None, "numpy")
    elif isinstance(operand, SparseTensor):
        kind = "pydata" if isinstance(operand, PydataTensor) else "tensor"
        info = OperandInfo(name, operand.dtype, operand.shape, operand.encoding, kind)
    else:
        info = _describe_scipy(operand, name)
    if info.dtype not in SUPPORTED_DTYPES:
        supported = ", ".join(str(t) for t in SUPPORTED_DTYPES)
        raise TypeError(
            f"{where}: {name} has dtype {info.dtype}; supported: {supported} (cast it first)"
        )
    return info
