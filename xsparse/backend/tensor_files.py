"""Sparse tensors in files: Matrix Market (`.mtx`) and FROSTT (`.tns`).

Reading gives a `SparseTensor` in any encoding; writing takes a `SparseTensor`,
a scipy.sparse matrix or a dense numpy array.

* Matrix Market files are read and written by `scipy.io.mmread` / `mmwrite`
  (scipy's C++ reader, threaded): coordinate and array (dense) files, fields
  `real`, `integer`, `pattern` and `complex`, symmetries `general`,
  `symmetric`, `skew-symmetric` and `hermitian`; a path (`.gz` / `.bz2`
  compressed by its suffix) or an open file (text or binary, read or written
  whole in memory). Symmetric files list one triangle; reading mirrors it
  (the negated / conjugated value for skew-symmetric / hermitian) unless told
  not to. Pattern entries read as 1. Writing gives a general coordinate file
  with values written exactly. A CSR / CSC result is built by scipy's
  conversion, other encodings by `SparseTensor.from_coo`.
* FROSTT files (`i j k ... value` per entry, 1-based, `#` comment lines) are
  read by numpy here, as scipy has no reader for them. MLIR's "extended"
  variant (what `sparse_tensor.out` writes and `sparse_tensor.new` reads)
  starts with the lines `RANK NNZ` and the dimension sizes; a plain FROSTT
  file has no such header and its shape is the largest coordinate of each
  dimension (or given). numpy parses the entries in one pass; only a file
  that fails to parse is scanned line by line, to name the first bad line.

A malformed file raises `FileFormatError`, a `ValueError` whose message starts
with `path:line:` (`path:` where scipy names no line).

`read_for_new` reads a file as MLIR 22's runtime does for `sparse_tensor.new`
(the format chosen by `.mtx` / `.tns` in the name, symmetric files read as
stored, skew-symmetric, hermitian and array files refused); compiled code
calls it through `xsparse.backend.io_runtime`.
"""

from __future__ import annotations

import bz2
import contextlib
import errno
import gzip
import io
import os
import re
import warnings
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Any, Literal, cast

import numpy as np
import numpy.typing as npt

from xsparse.backend.sparse_storage import (
    SparseTensor,
    compressed_2d_kind,
    dimension_sizes,
    parse_encoding,
)
from xsparse.dialects.sparse_tensor.encoding import Encoding, SparseTensorEncodingAttr

IntArray = npt.NDArray[np.int64]
AnyArray = npt.NDArray[Any]
EncodingLike = str | SparseTensorEncodingAttr | Encoding
PathLike = str | os.PathLike[str]
MatrixMarketFile = PathLike | IO[Any]
"""A path (decompressed by a `.gz` / `.bz2` suffix) or an open file."""

ValueKind = Literal["real", "integer", "pattern", "complex", "undefined"]
"""How a file declares its values; FROSTT files do not ("undefined")."""


class FileFormatError(ValueError):
    """A tensor file that cannot be read: `path:line: message`."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path = path
        self.line = line
        self.message = message
        where = path if line is None else f"{path}:{line}"
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class TensorEntries:
    """The entries of a tensor file: 0-based coordinates (one integer array
    per dimension), values, the dimension sizes and how the file declared its
    values."""

    shape: tuple[int, ...]
    coordinates: tuple[AnyArray, ...]
    values: AnyArray
    kind: ValueKind
    symmetry: str = "general"


# -- Matrix Market (scipy.io) ---------------------------------------------------


@dataclass(frozen=True)
class _MatrixMarketHeader:
    """What `scipy.io.mminfo` says of a file."""

    rows: int
    cols: int
    entries: int
    format: str
    field: str
    symmetry: str

    @property
    def kind(self) -> ValueKind:
        if self.field in ("integer", "unsigned-integer"):
            return "integer"
        return cast(ValueKind, self.field)


_SCIPY_LINE = re.compile(r"Line (\d+): (.*)", re.DOTALL)


def _file_name(file: MatrixMarketFile) -> str:
    if isinstance(file, str | os.PathLike):
        return os.fspath(file)
    name = getattr(file, "name", None)
    return name if isinstance(name, str) else "<file object>"


@contextlib.contextmanager
def _scipy_errors(name: str) -> Generator[None]:
    """scipy's `ValueError("Line N: Message.")` as `FileFormatError`
    (`name:N: message`), a missing file as `open` says it."""
    try:
        yield
    except FileNotFoundError:  # scipy's message: give the one `open` gives
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), name) from None
    except ValueError as error:
        text = " ".join(str(error).split())
        match = _SCIPY_LINE.fullmatch(text)
        line, message = (int(match[1]), match[2]) if match else (None, text)
        message = message.rstrip(".")
        raise FileFormatError(name, line, message[:1].lower() + message[1:]) from None


def _scipy_source(file: MatrixMarketFile) -> PathLike | io.BytesIO:
    """What scipy reads: a path, or the rest of an open file in memory (scipy
    rewinds a stream after reading its header, and aborts the process where
    the stream's `seek` fails)."""
    if isinstance(file, str | os.PathLike):
        return file
    data = file.read()
    return io.BytesIO(data.encode() if isinstance(data, str) else data)


def _read_header(name: str, source: PathLike | io.BytesIO) -> _MatrixMarketHeader:
    import scipy.io

    with _scipy_errors(name):
        info = cast("tuple[int, int, int, str, str, str]", scipy.io.mminfo(source))
    header = _MatrixMarketHeader(*info)
    if isinstance(source, io.BytesIO):
        source.seek(0)
    return header


def _check_header(
    name: str, header: _MatrixMarketHeader, mlir_compatible: bool
) -> None:
    symmetry = header.symmetry
    if symmetry != "general" and header.rows != header.cols:
        raise FileFormatError(
            name,
            None,
            f"a {symmetry} matrix must be square, found {header.rows}x{header.cols}",
        )
    if not mlir_compatible:
        return
    if symmetry not in ("general", "symmetric"):
        raise FileFormatError(
            name, None, f"{symmetry} matrices are not supported (MLIR's reader)"
        )
    if header.format != "coordinate":
        raise FileFormatError(
            name, None, "array (dense) files are not supported (MLIR's reader)"
        )


def _matrix_entries(
    header: _MatrixMarketHeader, matrix: Any, expand_symmetry: bool
) -> tuple[tuple[AnyArray, AnyArray], AnyArray]:
    """Rows, columns and values of what `scipy.io.mmread` read (a coo_array,
    or an ndarray for an array file), symmetry expanded or not."""
    stored_only = not expand_symmetry and header.symmetry != "general"
    if header.format == "array":
        dense = cast(AnyArray, np.tril(matrix) if stored_only else matrix)
        rows, cols = np.nonzero(dense)
        return (rows, cols), dense[rows, cols]
    rows, cols, values = (
        cast(AnyArray, matrix.row),
        cast(AnyArray, matrix.col),
        cast(AnyArray, matrix.data),
    )
    if stored_only:
        # mmread lists the entries of the file first, then their mirror images.
        count = header.entries
        rows, cols, values = rows[:count], cols[:count], values[:count]
    return (rows, cols), values


def load_matrix_market(
    file: MatrixMarketFile,
    *,
    expand_symmetry: bool = True,
    mlir_compatible: bool = False,
) -> TensorEntries:
    """The entries of a Matrix Market file (`scipy.io.mmread`). Symmetric
    entries are mirrored unless `expand_symmetry` is False. `mlir_compatible`
    follows MLIR 22's reader: only `general` and `symmetric` coordinate files
    are accepted."""
    import scipy.io

    name = _file_name(file)
    source = _scipy_source(file)
    header = _read_header(name, source)
    _check_header(name, header, mlir_compatible)
    with _scipy_errors(name):
        matrix: Any = scipy.io.mmread(source, spmatrix=False)
    coordinates, values = _matrix_entries(header, matrix, expand_symmetry)
    shape = (header.rows, header.cols)
    return TensorEntries(shape, coordinates, values, header.kind, header.symmetry)


# -- FROSTT: reading lines ------------------------------------------------------

_COMMENT = "#"


class _Lines:
    """The lines of a file's text, numbered from 1, read one at a time until
    the entries start; `rest()` is the text after the lines read."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.offset = 0
        self.number = 0

    def next(self) -> str | None:
        """The next line that is not blank and not a comment (None at the end)."""
        while self.offset < len(self.text):
            end = self.text.find("\n", self.offset)
            end = len(self.text) if end < 0 else end
            line = self.text[self.offset : end]
            self.offset = end + 1
            self.number += 1
            stripped = line.strip()
            if stripped and not stripped.startswith(_COMMENT):
                return stripped
        return None

    def rest(self) -> str:
        return self.text[self.offset :]

    def error(self, message: str, line: int | None = None) -> FileFormatError:
        return FileFormatError(
            self.path, self.number if line is None else line, message
        )


def _read_text(path: PathLike) -> tuple[str, str]:
    name = os.fspath(path)
    with open(name, encoding="latin-1") as f:
        return name, f.read()


def _count(token: str, what: str, lines: _Lines) -> int:
    """A non-negative integer of a header line."""
    try:
        value = int(token)
    except ValueError:
        raise lines.error(f"expected {what} (an integer), found '{token}'") from None
    if value < 0:
        raise lines.error(f"{what} must not be negative, found {value}")
    return value


def _is_int(token: str) -> bool:
    try:
        int(token)
    except ValueError:
        return False
    return True


# -- FROSTT: entries ----------------------------------------------------------------


@dataclass(frozen=True)
class _Layout:
    """What each entry line holds: `rank` coordinates then a value."""

    rank: int
    integer_values: bool

    @property
    def columns(self) -> int:
        return self.rank + 1

    @property
    def value_dtype(self) -> type[np.int64] | type[np.float64]:
        return np.int64 if self.integer_values else np.float64

    def dtype(self) -> np.dtype[Any]:
        fields: list[tuple[str, Any]] = [(f"c{d}", np.int64) for d in range(self.rank)]
        return np.dtype([*fields, ("value", self.value_dtype)])


def _parse_entries(
    lines: _Lines, layout: _Layout, nnz: int | None, shape: Sequence[int] | None
) -> tuple[tuple[IntArray, ...], AnyArray]:
    """The entries after the header: 0-based coordinates (one array per
    dimension) and values. numpy
    parses the text at once; any problem (a bad line, too few or too many
    entries, a coordinate out of range) is located by a line-by-line scan."""
    first_line = lines.number + 1
    body = lines.rest()
    table: Any = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "input contained no data"
            table = np.loadtxt(
                io.StringIO(body), dtype=layout.dtype(), comments=_COMMENT, ndmin=1
            )
    except ValueError:
        table = None
    if table is not None:
        columns = [np.asarray(table[f"c{d}"], np.int64) for d in range(layout.rank)]
        count_ok = nnz is None or int(table.shape[0]) == nnz
        if count_ok and _in_range(columns, shape):
            return tuple(c - 1 for c in columns), np.asarray(table["value"])
    # Name the first problem (the scan raises).
    return _scan_entries(lines, layout, nnz, shape, first_line, body)


def _in_range(columns: list[IntArray], shape: Sequence[int] | None) -> bool:
    """Whether the 1-based coordinates lie in the shape (or are positive)."""
    for d, column in enumerate(columns):
        if column.size == 0:
            return True
        if int(column.min()) < 1 or (shape is not None and column.max() > shape[d]):
            return False
    return True


def _scan_entries(
    lines: _Lines,
    layout: _Layout,
    nnz: int | None,
    shape: Sequence[int] | None,
    first_line: int,
    body: str,
) -> tuple[tuple[IntArray, ...], AnyArray]:
    """The entries parsed line by line, raising at the first bad line."""
    coords: list[list[int]] = []
    values: list[int | float] = []
    number = first_line - 1
    for number, fields in _entry_lines(body, first_line):
        if nnz is not None and len(coords) == nnz:
            raise lines.error(
                f"more entries than the {nnz} the header announces", number
            )
        if len(fields) != layout.columns:
            raise lines.error(
                f"expected {layout.columns} fields ({layout.rank} coordinates "
                f"and a value), found {len(fields)}",
                number,
            )
        entry: list[int] = []
        for d, token in enumerate(fields[: layout.rank]):
            try:
                c = int(token)
            except ValueError:
                raise lines.error(
                    f"invalid coordinate '{token}' in dimension {d}", number
                ) from None
            upper = shape[d] if shape is not None else None
            if c < 1 or (upper is not None and c > upper):
                bound = f"[1, {upper}]" if upper is not None else "1 or more"
                raise lines.error(
                    f"coordinate {c} of dimension {d} is out of range "
                    f"(1-based, {bound})",
                    number,
                )
            entry.append(c - 1)
        coords.append(entry)
        values.append(_parse_value(fields[layout.rank], layout, lines, number))
    if nnz is not None and len(coords) != nnz:
        raise lines.error(
            f"expected {nnz} entries, found {len(coords)}", max(number, first_line - 1)
        )
    array = np.asarray(coords, np.int64).reshape(len(coords), layout.rank)
    return tuple(array.T), np.asarray(values, layout.value_dtype)


def _entry_lines(body: str, first_line: int) -> Iterator[tuple[int, list[str]]]:
    for number, line in enumerate(body.split("\n"), start=first_line):
        stripped = line.strip()
        if stripped and not stripped.startswith(_COMMENT):
            yield number, stripped.split()


def _parse_value(token: str, layout: _Layout, lines: _Lines, number: int) -> Any:
    parse = int if layout.integer_values else float
    try:
        return parse(token)
    except ValueError:
        kind = "an integer" if layout.integer_values else "a number"
        raise lines.error(
            f"invalid value '{token}' (expected {kind})", number
        ) from None


# -- FROSTT: files ------------------------------------------------------------------


def load_frostt(
    path: PathLike,
    *,
    header: bool | None = None,
    shape: Sequence[int] | None = None,
    integer_values: bool = False,
) -> TensorEntries:
    """The entries of a FROSTT file. `header`: whether it starts with MLIR's
    extended header (`RANK NNZ` and the dimension sizes); None: detected (the
    first line holds two integers and the second as many integers as the first
    says). Without a header, `shape` gives the dimension sizes (default: the
    largest coordinate of each dimension)."""
    if shape is not None:
        shape = dimension_sizes(shape)
    name, text = _read_text(path)
    lines = _Lines(name, text)
    if header is None:
        header = _has_extended_header(_Lines(name, text))
    if not header:
        return _load_plain_frostt(lines, shape, integer_values)
    meta = lines.next()
    if meta is None:
        raise lines.error("empty file: expected the header line 'RANK NNZ'")
    tokens = meta.split()
    if len(tokens) != 2:
        raise lines.error(f"expected the header line 'RANK NNZ', found '{meta}'")
    rank = _count(tokens[0], "the rank", lines)
    nnz = _count(tokens[1], "the number of entries", lines)
    dims_line = lines.next()
    if dims_line is None:
        raise lines.error(f"missing the line of the {rank} dimension sizes")
    dims = dims_line.split()
    if len(dims) != rank:
        raise lines.error(
            f"expected {rank} dimension sizes (the rank), found {len(dims)}"
        )
    file_shape = tuple(
        _count(t, f"the size of dimension {d}", lines) for d, t in enumerate(dims)
    )
    if shape is not None and tuple(shape) != file_shape:
        raise lines.error(f"the file's shape {file_shape} is not {tuple(shape)}")
    layout = _Layout(rank, integer_values)
    coordinates, values = _parse_entries(lines, layout, nnz, file_shape)
    return TensorEntries(file_shape, coordinates, values, "undefined")


def _has_extended_header(lines: _Lines) -> bool:
    first = lines.next()
    if first is None:
        return False
    tokens = first.split()
    if len(tokens) != 2 or not all(_is_int(t) for t in tokens):
        return False
    second = lines.next()
    if second is None:
        return int(tokens[1]) == 0
    dims = second.split()
    return len(dims) == int(tokens[0]) and all(_is_int(t) for t in dims)


def _load_plain_frostt(
    lines: _Lines, shape: Sequence[int] | None, integer_values: bool
) -> TensorEntries:
    probe = _Lines(lines.path, lines.text)
    first = probe.next()
    if first is None:
        if shape is None:
            raise lines.error("empty FROSTT file: give its shape")
        rank = len(shape)
    else:
        rank = len(first.split()) - 1
        if rank < 1:
            raise probe.error(
                "expected coordinates and a value per line, found one field"
            )
    if shape is not None and len(shape) != rank:
        raise probe.error(
            f"the file holds a rank-{rank} tensor, shape has {len(shape)} dimensions"
        )
    layout = _Layout(rank, integer_values)
    coordinates, values = _parse_entries(lines, layout, None, shape)
    if shape is None:
        shape = tuple(int(c.max()) + 1 if c.size else 0 for c in coordinates)
    return TensorEntries(tuple(shape), coordinates, values, "undefined")


# -- SparseTensor -------------------------------------------------------------------


def _default_dtype(kind: ValueKind) -> np.dtype[Any]:
    if kind == "integer":
        return np.dtype(np.int64)
    if kind == "complex":
        return np.dtype(np.complex128)
    return np.dtype(np.float64)


def _check_value_kind(path: str, kind: ValueKind, dtype: np.dtype[Any]) -> None:
    """MLIR's rule: real values never read into integers, complex ones only
    into complex numbers; integer and pattern values into any number."""
    if kind == "real" and dtype.kind in "iub":
        raise FileFormatError(path, None, f"cannot read real values as {dtype}")
    if kind == "complex" and dtype.kind != "c":
        raise FileFormatError(path, None, f"cannot read complex values as {dtype}")


def entries_to_tensor(
    path: str,
    entries: TensorEntries,
    encoding: EncodingLike,
    dtype: npt.DTypeLike | None,
) -> SparseTensor:
    """The entries stored in `encoding` (duplicates summed unless the
    encoding keeps them)."""
    enc = parse_encoding(encoding)
    rank = len(entries.shape)
    if enc.dim_rank != rank:
        raise FileFormatError(
            path,
            None,
            f"the file holds a rank-{rank} tensor, the encoding has "
            f"{enc.dim_rank} dimensions",
        )
    want = _default_dtype(entries.kind) if dtype is None else np.dtype(dtype)
    _check_value_kind(path, entries.kind, want)
    values = entries.values.astype(want, copy=False)
    scipy_format = compressed_2d_kind(enc)
    if scipy_format is not None and want != np.float16:
        # scipy sorts and sums duplicates as from_coo does, several times
        # faster; it checked the coordinates, so there is nothing to validate.
        import scipy.sparse as sp

        coo = sp.coo_array((values, entries.coordinates), shape=entries.shape)
        matrix = coo.asformat(scipy_format)
        return SparseTensor.from_scipy(matrix, enc, validate=False)
    coords = np.stack(entries.coordinates, axis=1)
    return SparseTensor.from_coo(coords, values, entries.shape, enc, dtype=want)


def _coo_encoding(rank: int) -> str:
    """Sorted COO of any rank (MLIR's `COO` for a rank > 1)."""
    names = [f"d{d}" for d in range(rank)]
    if rank == 1:
        levels = ["d0 : compressed"]
    else:
        levels = [f"{names[0]} : compressed(nonunique)"]
        levels += [f"{n} : singleton(nonunique)" for n in names[1:-1]]
        levels.append(f"{names[-1]} : singleton")
    return (
        f"#sparse_tensor.encoding<{{ map = ({', '.join(names)}) -> "
        f"({', '.join(levels)}) }}>"
    )


_CSR = "#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>"


def read_mtx(
    file: MatrixMarketFile,
    encoding: EncodingLike | None = None,
    *,
    dtype: npt.DTypeLike | None = None,
    expand_symmetry: bool = True,
) -> SparseTensor:
    """A Matrix Market file (coordinate or array; a path, `.gz` / `.bz2`
    decompressed, or an open file) as a `SparseTensor` in `encoding` (default
    CSR), read by `scipy.io.mmread`. Values are float64 (int64 for an
    `integer` file, complex128 for a `complex` one) unless `dtype` says
    otherwise; real values never read as integers. Symmetric, skew-symmetric
    and hermitian files are expanded to the whole matrix unless
    `expand_symmetry` is False. Raises `FileFormatError` (file:line: message)
    on a malformed file."""
    entries = load_matrix_market(file, expand_symmetry=expand_symmetry)
    return entries_to_tensor(_file_name(file), entries, encoding or _CSR, dtype)


def read_tns(
    path: PathLike,
    encoding: EncodingLike | None = None,
    *,
    dtype: npt.DTypeLike | None = None,
    shape: Sequence[int] | None = None,
    header: bool | None = None,
) -> SparseTensor:
    """A FROSTT file as a `SparseTensor` in `encoding` (default: sorted COO).
    MLIR's extended header (`RANK NNZ`, then the dimension sizes) is detected
    unless `header` says whether there is one; a plain FROSTT file takes its
    shape from `shape` or from its largest coordinates. Values are float64
    unless `dtype` says otherwise (integer dtypes read integer values).
    Raises `FileFormatError` (file:line: message) on a malformed file."""
    want = None if dtype is None else np.dtype(dtype)
    entries = load_frostt(
        path,
        header=header,
        shape=shape,
        integer_values=want is not None and want.kind in "iub",
    )
    enc = encoding or _coo_encoding(len(entries.shape))
    return entries_to_tensor(os.fspath(path), entries, enc, want)


def read_for_new(path: str) -> TensorEntries:
    """A file as MLIR 22's runtime reads it for `sparse_tensor.new`: the
    format by `.mtx` or `.tns` in its name (with the extended FROSTT header),
    symmetric matrices as stored."""
    if ".mtx" in path:
        return load_matrix_market(path, expand_symmetry=False, mlir_compatible=True)
    if ".tns" in path:
        return load_frostt(path, header=True)
    raise FileFormatError(path, None, "unknown file format (expected .mtx or .tns)")


# -- writing --------------------------------------------------------------------------


def tensor_entries(tensor: Any) -> tuple[tuple[int, ...], IntArray, AnyArray]:
    """Shape, 0-based coordinates (nnz x rank) and values of a SparseTensor,
    a scipy.sparse matrix or a dense numpy array, in storage order."""
    if isinstance(tensor, SparseTensor):
        coords, values = tensor.to_coo()
        return tensor.shape, coords, values
    import scipy.sparse as sp

    if sp.issparse(tensor):
        coo = tensor.tocoo()
        coords = np.stack([np.asarray(coo.row), np.asarray(coo.col)], axis=1)
        shape = tuple(int(s) for s in coo.shape)
        return shape, coords.astype(np.int64), np.asarray(coo.data)
    if isinstance(tensor, np.ndarray):
        dense = cast("np.ndarray[Any, Any]", tensor)
        nz = np.nonzero(dense)
        coords = np.stack(nz, axis=1).astype(np.int64)
        return tuple(dense.shape), coords, dense[nz]
    raise TypeError(
        "expected a SparseTensor, scipy.sparse matrix or numpy array, "
        f"got {type(tensor).__name__}"
    )


def _write_bytes(file: MatrixMarketFile, data: bytes) -> None:
    """`data` into a path (compressed by a `.gz` / `.bz2` suffix) or an open
    file, text or binary."""
    if isinstance(file, io.TextIOBase):
        file.write(data.decode("ascii"))
        return
    if not isinstance(file, str | os.PathLike):
        file.write(data)
        return
    name = os.fspath(file)
    if name.endswith(".gz"):
        data = gzip.compress(data)
    elif name.endswith(".bz2"):
        data = bz2.compress(data)
    with open(name, "wb") as f:
        f.write(data)


def write_mtx(
    file: MatrixMarketFile,
    tensor: Any,
    *,
    field: Literal["real", "integer", "complex", "pattern"] | None = None,
    comment: str | None = None,
) -> None:
    """Write a matrix (SparseTensor, scipy.sparse or dense numpy) as a general
    Matrix Market coordinate file (`scipy.io.mmwrite`; a path, compressed by a
    `.gz` / `.bz2` suffix, or an open file), its stored entries in storage
    order with values written exactly. `field` defaults from the dtype
    (`pattern` writes coordinates only)."""
    shape, coords, values = tensor_entries(tensor)
    if len(shape) != 2:
        raise ValueError(f"Matrix Market files hold matrices, got shape {shape}")
    if field is None:
        kind = values.dtype.kind
        field = "complex" if kind == "c" else "integer" if kind in "iub" else "real"
    if field == "integer" and values.dtype.kind not in "iub":
        raise ValueError(f"cannot write {values.dtype} values as integers")
    if field != "complex" and values.dtype.kind == "c":
        raise ValueError(f"cannot write complex values as {field}")
    import scipy.io
    import scipy.sparse as sp

    matrix = sp.coo_array((values, (coords[:, 0], coords[:, 1])), shape=shape)
    # Into memory: scipy's writer seeks in its stream, which a compressed file
    # or a pipe cannot do, and adds `.mtx` to a path without it.
    text = io.BytesIO()
    scipy.io.mmwrite(text, matrix, comment=comment, field=field, symmetry="general")
    _write_bytes(file, text.getvalue())


def _entry_text(coords: IntArray, values: list[str]) -> str:
    rows = [" ".join(map(str, c)) for c in (coords + 1).tolist()]
    return "".join(f"{r} {v}\n" for r, v in zip(rows, values, strict=True))


def frostt_text(shape: Sequence[int], coords: IntArray, values: list[str]) -> str:
    """MLIR's extended FROSTT layout: a comment, `RANK NNZ`, the dimension
    sizes, then one line per entry."""
    head = (
        "# extended FROSTT format\n"
        f"{len(shape)} {coords.shape[0]}\n"
        f"{' '.join(map(str, shape))}\n"
    )
    return head + _entry_text(coords, values)


def _exact(values: AnyArray) -> list[str]:
    """Values written so that reading them back gives the same numbers."""
    if values.dtype.kind == "c":
        return [f"{v.real!r} {v.imag!r}" for v in values.astype(np.complex128).tolist()]
    if values.dtype.kind in "iub":
        return [str(int(v)) for v in values.tolist()]
    return [repr(float(v)) for v in values.tolist()]


def write_tns(path: PathLike, tensor: Any) -> None:
    """Write a tensor (SparseTensor, scipy.sparse or dense numpy) as a FROSTT
    file with MLIR's extended header, its stored entries in storage order with
    values written exactly."""
    shape, coords, values = tensor_entries(tensor)
    text = frostt_text(shape, coords, _exact(values))
    with open(os.fspath(path), "w", encoding="ascii") as f:
        f.write(text)
