"""Sparse tensors in files: Matrix Market (`.mtx`) and FROSTT (`.tns`).

Reading gives a `SparseTensor` in any encoding; writing takes a `SparseTensor`,
a scipy.sparse matrix or a dense numpy array. Both formats store one entry
per line with 1-based coordinates:

* Matrix Market coordinate files: the banner
  `%%MatrixMarket matrix coordinate <field> <symmetry>` (field `real`,
  `double`, `integer`, `pattern` or `complex`; symmetry `general`, `symmetric`,
  `skew-symmetric` or `hermitian`), `%` comment lines, the line `M N NNZ`,
  then `i j [value]` per entry. Symmetric files list one triangle; reading
  mirrors it (the negated / conjugated value for skew-symmetric / hermitian)
  unless told not to. Pattern entries read as 1.
* FROSTT files: `i j k ... value` per entry, `#` comment lines. MLIR's
  "extended" variant (what `sparse_tensor.out` writes and `sparse_tensor.new`
  reads) starts with the lines `RANK NNZ` and the dimension sizes; a plain
  FROSTT file has no such header and its shape is the largest coordinate of
  each dimension (or given).

A malformed file raises `FileFormatError`, a `ValueError` whose message starts
with `path:line:`. Large files are parsed by numpy in one pass; only a file
that fails to parse is scanned line by line, to name the first bad line.

`read_for_new` reads a file as MLIR 22's runtime does for `sparse_tensor.new`
(the format chosen by `.mtx` / `.tns` in the name, symmetric files read as
stored, skew-symmetric and hermitian files refused); compiled code calls it
through `xsparse.backend.io_runtime`.
"""

from __future__ import annotations

import io
import os
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

import numpy as np
import numpy.typing as npt

from xsparse.backend.sparse_storage import SparseTensor, parse_encoding
from xsparse.dialects.sparse_tensor.encoding import Encoding, SparseTensorEncodingAttr

IntArray = npt.NDArray[np.int64]
AnyArray = npt.NDArray[Any]
EncodingLike = str | SparseTensorEncodingAttr | Encoding
PathLike = str | os.PathLike[str]

ValueKind = Literal["real", "integer", "pattern", "complex", "undefined"]
"""How a file declares its values; FROSTT files do not ("undefined")."""

_FIELDS: dict[str, ValueKind] = {
    "real": "real",
    "double": "real",
    "integer": "integer",
    "pattern": "pattern",
    "complex": "complex",
}
_SYMMETRIES = ("general", "symmetric", "skew-symmetric", "hermitian")
_VALUE_COLUMNS: dict[ValueKind, int] = {
    "real": 1,
    "integer": 1,
    "pattern": 0,
    "complex": 2,
    "undefined": 1,
}


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
    """The entries of a tensor file: 0-based coordinates (nnz x rank), values,
    the dimension sizes and how the file declared its values."""

    shape: tuple[int, ...]
    coords: IntArray
    values: AnyArray
    kind: ValueKind
    symmetry: str = "general"


# -- reading lines ------------------------------------------------------------


class _Lines:
    """The lines of a file's text, numbered from 1, read one at a time until
    the entries start; `rest()` is the text after the lines read."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.offset = 0
        self.number = 0

    def next(self, comment: str) -> str | None:
        """The next line that is not blank and not a comment (None at the end)."""
        while self.offset < len(self.text):
            end = self.text.find("\n", self.offset)
            end = len(self.text) if end < 0 else end
            line = self.text[self.offset : end]
            self.offset = end + 1
            self.number += 1
            stripped = line.strip()
            if stripped and not stripped.startswith(comment):
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


# -- entries ------------------------------------------------------------------


@dataclass(frozen=True)
class _Layout:
    """What each entry line holds: `rank` coordinates then the value columns."""

    rank: int
    kind: ValueKind
    integer_values: bool
    comment: str

    @property
    def columns(self) -> int:
        return self.rank + _VALUE_COLUMNS[self.kind]

    def describe(self) -> str:
        values = {0: "", 1: " and a value", 2: " and a real and an imaginary part"}
        return f"{self.rank} coordinates{values[_VALUE_COLUMNS[self.kind]]}"

    def dtype(self) -> np.dtype[Any]:
        fields: list[tuple[str, Any]] = [(f"c{d}", np.int64) for d in range(self.rank)]
        value = np.int64 if self.integer_values else np.float64
        fields += [(f"v{i}", value) for i in range(_VALUE_COLUMNS[self.kind])]
        return np.dtype(fields)


def _parse_entries(
    lines: _Lines, layout: _Layout, nnz: int | None, shape: Sequence[int] | None
) -> tuple[IntArray, AnyArray]:
    """The entries after the header: 0-based coordinates and values. numpy
    parses the text at once; any problem (a bad line, too few or too many
    entries, a coordinate out of range) is located by a line-by-line scan."""
    first_line = lines.number + 1
    body = lines.rest()
    table: Any = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "input contained no data"
            table = np.loadtxt(
                io.StringIO(body),
                dtype=layout.dtype(),
                comments=layout.comment,
                ndmin=1,
            )
    except ValueError:
        table = None
    if table is not None:
        coords = _columns(table, "c", layout.rank, np.int64)
        values = _values(table, layout)
        count_ok = nnz is None or coords.shape[0] == nnz
        if count_ok and _in_range(coords, shape):
            return coords - 1, values
    # Name the first problem (the scan raises).
    return _scan_entries(lines, layout, nnz, shape, first_line, body)


def _columns(table: Any, prefix: str, n: int, dtype: Any) -> Any:
    rows = int(table.shape[0])
    if n == 0:
        return np.zeros((rows, 0), dtype)
    return np.stack([np.asarray(table[f"{prefix}{i}"]) for i in range(n)], axis=1)


def _values(table: Any, layout: _Layout) -> AnyArray:
    rows = int(table.shape[0])
    if layout.kind == "pattern":
        return np.ones(rows, np.float64)
    if layout.kind == "complex":
        return np.asarray(table["v0"]) + 1j * np.asarray(table["v1"])
    return np.asarray(table["v0"])


def _in_range(coords: IntArray, shape: Sequence[int] | None) -> bool:
    if coords.size == 0:
        return True
    if int(coords.min()) < 1:
        return False
    return shape is None or bool(np.all(coords.max(axis=0) <= np.asarray(shape)))


def _scan_entries(
    lines: _Lines,
    layout: _Layout,
    nnz: int | None,
    shape: Sequence[int] | None,
    first_line: int,
    body: str,
) -> tuple[IntArray, AnyArray]:
    """The entries parsed line by line, raising at the first bad line."""
    coords: list[list[int]] = []
    values: list[Any] = []
    number = first_line - 1
    for number, fields in _entry_lines(body, layout.comment, first_line):
        if nnz is not None and len(coords) == nnz:
            raise lines.error(
                f"more entries than the {nnz} the header announces", number
            )
        if len(fields) != layout.columns:
            raise lines.error(
                f"expected {layout.columns} fields ({layout.describe()}), "
                f"found {len(fields)}",
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
        values.append(_parse_value(fields[layout.rank :], layout, lines, number))
    if nnz is not None and len(coords) != nnz:
        raise lines.error(
            f"expected {nnz} entries, found {len(coords)}", max(number, first_line - 1)
        )
    array = np.asarray(coords, np.int64).reshape(len(coords), layout.rank)
    if layout.kind == "pattern":
        return array, np.ones(len(coords), np.float64)
    dtype = (
        np.complex128
        if layout.kind == "complex"
        else np.int64
        if layout.integer_values
        else np.float64
    )
    return array, np.asarray(values, dtype)


def _entry_lines(
    body: str, comment: str, first_line: int
) -> Iterator[tuple[int, list[str]]]:
    for number, line in enumerate(body.split("\n"), start=first_line):
        stripped = line.strip()
        if stripped and not stripped.startswith(comment):
            yield number, stripped.split()


def _parse_value(tokens: list[str], layout: _Layout, lines: _Lines, number: int) -> Any:
    parse = int if layout.integer_values else float
    kind = "an integer" if layout.integer_values else "a number"
    parsed: list[Any] = []
    for token in tokens:
        try:
            parsed.append(parse(token))
        except ValueError:
            raise lines.error(
                f"invalid value '{token}' (expected {kind})", number
            ) from None
    if layout.kind == "complex":
        return complex(parsed[0], parsed[1])
    return parsed[0] if parsed else 1.0


# -- Matrix Market --------------------------------------------------------------


def load_matrix_market(
    path: PathLike, *, expand_symmetry: bool = True, mlir_compatible: bool = False
) -> TensorEntries:
    """The entries of a Matrix Market coordinate file. Symmetric entries are
    mirrored unless `expand_symmetry` is False. `mlir_compatible` follows
    MLIR 22's reader: only `general` and `symmetric` files are accepted."""
    name, text = _read_text(path)
    lines = _Lines(name, text)
    banner = lines.next(comment="\0")
    if banner is None:
        raise FileFormatError(name, 1, "empty file: expected a Matrix Market banner")
    tokens = banner.split()
    expected = "'%%MatrixMarket matrix coordinate <field> <symmetry>'"
    if len(tokens) != 5 or tokens[0].lower() != "%%matrixmarket":
        raise lines.error(f"expected the banner {expected}")
    obj, fmt, field, symmetry = (t.lower() for t in tokens[1:])
    if obj != "matrix":
        raise lines.error(f"expected a matrix, found '{tokens[1]}'")
    if fmt != "coordinate":
        raise lines.error(
            f"only coordinate (sparse) files are supported, found '{tokens[2]}'"
        )
    if field not in _FIELDS:
        raise lines.error(
            f"unknown field '{tokens[3]}' (expected real, integer, pattern or complex)"
        )
    if symmetry not in _SYMMETRIES:
        raise lines.error(
            f"unknown symmetry '{tokens[4]}' "
            "(expected general, symmetric, skew-symmetric or hermitian)"
        )
    if mlir_compatible and symmetry not in ("general", "symmetric"):
        raise lines.error(f"{symmetry} matrices are not supported (MLIR's reader)")
    kind = _FIELDS[field]
    size_line = lines.next(comment="%")
    if size_line is None:
        raise lines.error("missing the size line 'ROWS COLUMNS ENTRIES'")
    sizes = size_line.split()
    if len(sizes) != 3:
        raise lines.error(
            f"expected the size line 'ROWS COLUMNS ENTRIES', found '{size_line}'"
        )
    rows = _count(sizes[0], "the number of rows", lines)
    cols = _count(sizes[1], "the number of columns", lines)
    nnz = _count(sizes[2], "the number of entries", lines)
    if symmetry != "general" and rows != cols:
        raise lines.error(f"a {symmetry} matrix must be square, found {rows}x{cols}")
    layout = _Layout(2, kind, kind == "integer", "%")
    coords, values = _parse_entries(lines, layout, nnz, (rows, cols))
    if expand_symmetry and symmetry != "general":
        coords, values = _mirror(coords, values, symmetry)
    return TensorEntries((rows, cols), coords, values, kind, symmetry)


def _mirror(
    coords: IntArray, values: AnyArray, symmetry: str
) -> tuple[IntArray, AnyArray]:
    """The stored triangle and its mirror image (the diagonal once)."""
    off = coords[:, 0] != coords[:, 1]
    mirrored = coords[off][:, ::-1]
    image = values[off]
    if symmetry == "skew-symmetric":
        image = -image
    elif symmetry == "hermitian":
        image = np.conj(image)
    return (
        np.concatenate([coords, mirrored]),
        np.concatenate([values, image]),
    )


# -- FROSTT -----------------------------------------------------------------------


def _is_int(token: str) -> bool:
    try:
        int(token)
    except ValueError:
        return False
    return True


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
    name, text = _read_text(path)
    lines = _Lines(name, text)
    if header is None:
        header = _has_extended_header(_Lines(name, text))
    if not header:
        return _load_plain_frostt(lines, shape, integer_values)
    meta = lines.next(comment="#")
    if meta is None:
        raise lines.error("empty file: expected the header line 'RANK NNZ'")
    tokens = meta.split()
    if len(tokens) != 2:
        raise lines.error(f"expected the header line 'RANK NNZ', found '{meta}'")
    rank = _count(tokens[0], "the rank", lines)
    nnz = _count(tokens[1], "the number of entries", lines)
    dims_line = lines.next(comment="#")
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
    layout = _Layout(rank, "undefined", integer_values, "#")
    coords, values = _parse_entries(lines, layout, nnz, file_shape)
    return TensorEntries(file_shape, coords, values, "undefined")


def _has_extended_header(lines: _Lines) -> bool:
    first = lines.next(comment="#")
    if first is None:
        return False
    tokens = first.split()
    if len(tokens) != 2 or not all(_is_int(t) for t in tokens):
        return False
    second = lines.next(comment="#")
    if second is None:
        return int(tokens[1]) == 0
    dims = second.split()
    return len(dims) == int(tokens[0]) and all(_is_int(t) for t in dims)


def _load_plain_frostt(
    lines: _Lines, shape: Sequence[int] | None, integer_values: bool
) -> TensorEntries:
    probe = _Lines(lines.path, lines.text)
    first = probe.next(comment="#")
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
    layout = _Layout(rank, "undefined", integer_values, "#")
    coords, values = _parse_entries(lines, layout, None, shape)
    if shape is None:
        shape = (
            tuple(int(m) + 1 for m in coords.max(axis=0))
            if coords.shape[0]
            else (0,) * rank
        )
    return TensorEntries(tuple(shape), coords, values, "undefined")


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
    return SparseTensor.from_coo(
        entries.coords, entries.values.astype(want), entries.shape, enc, dtype=want
    )


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
    path: PathLike,
    encoding: EncodingLike | None = None,
    *,
    dtype: npt.DTypeLike | None = None,
    expand_symmetry: bool = True,
) -> SparseTensor:
    """A Matrix Market coordinate file as a `SparseTensor` in `encoding`
    (default CSR). Values are float64 (int64 for an `integer` file,
    complex128 for a `complex` one) unless `dtype` says otherwise; real values
    never read as integers. Symmetric, skew-symmetric and hermitian files are
    expanded to the whole matrix unless `expand_symmetry` is False.
    Raises `FileFormatError` (file:line: message) on a malformed file."""
    entries = load_matrix_market(path, expand_symmetry=expand_symmetry)
    return entries_to_tensor(os.fspath(path), entries, encoding or _CSR, dtype)


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


def _exact(values: AnyArray) -> list[str]:
    """Values written so that reading them back gives the same numbers."""
    if values.dtype.kind == "c":
        return [f"{v.real!r} {v.imag!r}" for v in values.astype(np.complex128).tolist()]
    if values.dtype.kind in "iub":
        return [str(int(v)) for v in values.tolist()]
    return [repr(float(v)) for v in values.tolist()]


def _entry_text(coords: IntArray, values: list[str] | None) -> str:
    rows = [" ".join(map(str, c)) for c in (coords + 1).tolist()]
    if values is not None:
        rows = [f"{r} {v}" for r, v in zip(rows, values, strict=True)]
    return "".join(f"{r}\n" for r in rows)


def write_mtx(
    path: PathLike,
    tensor: Any,
    *,
    field: Literal["real", "integer", "complex", "pattern"] | None = None,
    comment: str | None = None,
) -> None:
    """Write a matrix (SparseTensor, scipy.sparse or dense numpy) as a general
    Matrix Market coordinate file, its stored entries in storage order with
    values written exactly. `field` defaults from the dtype (`pattern` writes
    coordinates only)."""
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
    head = f"%%MatrixMarket matrix coordinate {field} general\n"
    if comment:
        head += "".join(f"%{line}\n" for line in comment.split("\n"))
    head += f"{shape[0]} {shape[1]} {coords.shape[0]}\n"
    body = _entry_text(coords, None if field == "pattern" else _exact(values))
    with open(os.fspath(path), "w", encoding="ascii") as f:
        f.write(head + body)


def frostt_text(shape: Sequence[int], coords: IntArray, values: list[str]) -> str:
    """MLIR's extended FROSTT layout: a comment, `RANK NNZ`, the dimension
    sizes, then one line per entry."""
    head = (
        "# extended FROSTT format\n"
        f"{len(shape)} {coords.shape[0]}\n"
        f"{' '.join(map(str, shape))}\n"
    )
    return head + _entry_text(coords, values)


def write_tns(path: PathLike, tensor: Any) -> None:
    """Write a tensor (SparseTensor, scipy.sparse or dense numpy) as a FROSTT
    file with MLIR's extended header, its stored entries in storage order with
    values written exactly."""
    shape, coords, values = tensor_entries(tensor)
    text = frostt_text(shape, coords, _exact(values))
    with open(os.fspath(path), "w", encoding="ascii") as f:
        f.write(text)
