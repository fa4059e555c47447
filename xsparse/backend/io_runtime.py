"""The runtime functions that compiled code calls for `sparse_tensor.new` and
`sparse_tensor.out`, and `getTensorFilename`, as Python callbacks.

`sparse-tensor-codegen` (`xsparse.transforms.storage.file_io`) emits calls
of external functions; `register()` gives LLVM the address of a ctypes
callback for each name (`llvmlite.binding.add_symbol`), so any module the JIT
loads resolves them, compiled now or loaded from the disk cache.

* `getTensorFilename(i)`: the value of the environment variable `TENSOR<i>`,
  as MLIR's runner utilities give it.
* `xsparse_new_tensor(file, type)`: reads the file as MLIR 22's runtime does
  (`tensor_files.read_for_new`), checks it against the tensor type (rank,
  static sizes, value kind) and stores it in the type's encoding; compiled
  code then asks the length of each storage field, allocates the buffer
  (`malloc`, so that a kernel returning the tensor hands it to numpy, which
  frees it) and has it filled.
* `xsparse_runtime_error(message)`: bad run-time data that compiled code
  found (e.g. a block of a `structured[n, m]` level with more than n
  nonzeros), raised as a ValueError.
* `xsparse_allocation_failed(bytes, function)`: a heap allocation of
  compiled code failed (`runtime_errors.allocation_failed`), raised as a
  MemoryError; `xsparse_failure_key` is the key of the threads' failure
  flags that compiled code reads.
* `xsparse_out_*`: the storage fields of a tensor, then the file to write:
  MLIR's extended FROSTT text with values as `std::ostream` prints them; an
  empty file name writes to stdout (through C's `stdout`, in order with the
  kernel's own printing).

A failure (no such file, a malformed one, a shape that does not match) goes
to `runtime_errors.fail`: the callback then returns an empty tensor so that
the kernel finishes harmlessly, and `Kernel` raises the error once the call
returns (`xsparse-run` prints it and exits at once, as MLIR's runtime does).
"""

from __future__ import annotations

import ctypes
import functools
import itertools
import threading
from typing import Any

import llvmlite.binding as llvm
import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute
from xdsl.parser import Parser

from xsparse.backend.abi import libc
from xsparse.backend.packed_bits import PACKED_WIDTH, PackedBuffer, packed_length
from xsparse.backend.runtime_errors import (
    FAILURE_KEY_SYMBOL,
    allocation_failed,
    fail,
    failure_key,
)
from xsparse.backend.sparse_storage import (
    ResultFromFields,
    SparseTensor,
    numpy_dtype,
    overhead_dtype,
)
from xsparse.backend.tensor_files import (
    FileFormatError,
    entries_to_tensor,
    frostt_text,
    read_for_new,
)
from xsparse.dialects.sparse_tensor import SparseTensor as SparseTensorDialect
from xsparse.dialects.sparse_tensor.storage import (
    StorageField,
    sparse_encoding,
    storage_fields,
)
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.transforms.runtime_symbols import (
    ALLOCATION_FAILED,
    NEW_TENSOR,
    OUT_BEGIN,
    OUT_END,
    OUT_FIELD,
    RUNTIME_ERROR,
    TENSOR_COPY,
    TENSOR_RELEASE,
    TENSOR_SIZE,
)

libc.getenv.argtypes = [ctypes.c_char_p]
libc.getenv.restype = ctypes.c_void_p
libc.fwrite.argtypes = [
    ctypes.c_char_p,
    ctypes.c_size_t,
    ctypes.c_size_t,
    ctypes.c_void_p,
]
libc.fwrite.restype = ctypes.c_size_t
_EMPTY = ctypes.create_string_buffer(b"")


# -- tensor types -------------------------------------------------------------


@functools.cache
def _context() -> Context:
    ctx = Context()
    ctx.load_dialect(SparseTensorDialect)
    return ctx


@functools.cache
def _tensor_type(text: str) -> TensorType[Attribute]:
    """A tensor type from the text codegen stored in the module."""
    t = Parser(_context(), text).parse_type()
    assert is_tensor_type(t) and sparse_encoding(t) is not None, text
    return t


def _field_dtype(field: StorageField, t: TensorType[Attribute]) -> np.dtype[Any]:
    enc = sparse_encoding(t)
    assert enc is not None
    if field.kind == "values":
        return numpy_dtype(t.element_type)
    width = enc.pos_width if field.kind == "positions" else enc.crd_width
    return overhead_dtype(width)


# -- sparse_tensor.new ----------------------------------------------------------

_handles = itertools.count(1)
_read: dict[int, list[Any]] = {}
_written: dict[int, tuple[TensorType[Attribute], list[Any]]] = {}
_open: dict[int, set[int]] = {}
"""Per thread, the handles its kernel has not released yet (a kernel that
fails an allocation returns without releasing them)."""


def _opened(handle: int) -> int:
    _open.setdefault(threading.get_ident(), set()).add(handle)
    return handle


def _closed(handle: int) -> None:
    handles = _open.get(threading.get_ident())
    if handles is not None:
        handles.discard(handle)
        if not handles:
            del _open[threading.get_ident()]


def _load(path: str, t: TensorType[Attribute]) -> SparseTensor:
    """The file as a tensor of type `t` (MLIR 22's checks, with clear errors)."""
    entries = read_for_new(path)
    shape = t.get_shape()
    if len(entries.shape) != len(shape):
        raise FileFormatError(
            path, None, f"the file holds a rank-{len(entries.shape)} tensor, not {t}"
        )
    for d, (want, got) in enumerate(zip(shape, entries.shape, strict=True)):
        if want >= 0 and want != got:
            raise FileFormatError(
                path, None, f"dimension {d} has size {got} in the file, {want} in {t}"
            )
    enc = sparse_encoding(t)
    assert enc is not None
    return entries_to_tensor(path, entries, enc, numpy_dtype(t.element_type))


def _empty(t: TensorType[Attribute]) -> SparseTensor:
    """What a failed read gives the kernel: no entries (dynamic sizes 0)."""
    enc = sparse_encoding(t)
    assert enc is not None
    shape = [max(s, 0) for s in t.get_shape()]
    dtype = numpy_dtype(t.element_type)
    rank = len(shape)
    return SparseTensor.from_coo(
        np.zeros((0, rank), np.int64), np.zeros(0, dtype), shape, enc, dtype=dtype
    )


def _new_tensor(file: int | None, type_text: int) -> int:
    t = _tensor_type(ctypes.string_at(type_text).decode())
    path = ctypes.string_at(file).decode() if file else ""
    try:
        tensor = _load(path, t)
    except Exception as error:  # nothing may unwind into native code
        fail(error)
        tensor = _empty(t)
    handle = next(_handles)
    _read[handle] = tensor.storage()
    return _opened(handle)


def _tensor_size(handle: int, k: int) -> int:
    field = _read[handle][k]
    if isinstance(field, PackedBuffer):
        return field.count
    return int(field) if isinstance(field, int) else int(field.shape[0])


def _tensor_copy(handle: int, k: int, address: int) -> None:
    stored = _read[handle][k]
    field = np.ascontiguousarray(
        stored.data if isinstance(stored, PackedBuffer) else stored
    )
    if field.nbytes:
        ctypes.memmove(address, field.ctypes.data, field.nbytes)


def _tensor_release(handle: int) -> None:
    _read.pop(handle, None)
    _closed(handle)


# -- sparse_tensor.out ------------------------------------------------------------


def _out_begin(type_text: int) -> int:
    t = _tensor_type(ctypes.string_at(type_text).decode())
    handle = next(_handles)
    _written[handle] = (t, [None] * len(storage_fields(t)))
    return _opened(handle)


def _out_field(handle: int, k: int, address: int, length: int) -> None:
    try:
        _store_field(handle, k, address, length)
    except (
        Exception
    ) as error:  # (a MemoryError copying it) nothing may unwind into native code
        fail(error)


def _store_field(handle: int, k: int, address: int, length: int) -> None:
    t, fields = _written[handle]
    field = storage_fields(t)[k]
    if field.kind == "level_size":
        fields[k] = length
        return
    dtype = _field_dtype(field, t)
    enc = sparse_encoding(t)
    assert enc is not None
    if field.kind == "coordinates" and enc.crd_width == PACKED_WIDTH:
        data = ctypes.string_at(address, packed_length(length)) if length else b""
        fields[k] = PackedBuffer(np.frombuffer(data, np.uint8).copy(), length)
        return
    data = ctypes.string_at(address, length * dtype.itemsize) if length else b""
    fields[k] = np.frombuffer(data, dtype).copy()


def _ostream(values: Any) -> list[str]:
    """Values as C++'s `std::ostream` prints them by default (like `%g`)."""
    if values.dtype.kind in "iub":
        return [str(int(v)) for v in values.tolist()]
    return [f"{v:g}" for v in values.tolist()]


def _out_end(handle: int, file: int | None) -> None:
    t, fields = _written.pop(handle)
    _closed(handle)
    path = ctypes.string_at(file).decode() if file else ""
    try:
        tensor = ResultFromFields(t).take(fields)
        coords, values = tensor.to_coo()
        text = frostt_text(tensor.shape, coords, _ostream(values))
        if path:
            with open(path, "w", encoding="ascii") as f:
                f.write(text)
        else:
            data = text.encode()
            stdout = ctypes.c_void_p.in_dll(libc, "stdout")
            libc.fwrite(data, 1, len(data), stdout)
            libc.fflush(stdout)
    except Exception as error:  # nothing may unwind into native code
        fail(error)


# -- getTensorFilename --------------------------------------------------------------


def _get_tensor_filename(index: int) -> int:
    name = f"TENSOR{index}"
    address: int | None = libc.getenv(name.encode())
    if address is None:
        fail(LookupError(f"environment variable {name} is not set"))
        return ctypes.addressof(_EMPTY)
    return address


def _runtime_error(message: int) -> None:
    fail(ValueError(ctypes.string_at(message).decode()))


def _allocation_failed(bytes_asked: int, function: int) -> None:
    allocation_failed(bytes_asked, ctypes.string_at(function).decode())
    for handle in _open.pop(threading.get_ident(), set()):
        _read.pop(handle, None)
        _written.pop(handle, None)


# -- registration ------------------------------------------------------------------

_I64 = ctypes.c_int64
_PTR = ctypes.c_void_p
_CALLBACKS: dict[str, tuple[Any, Any]] = {
    "getTensorFilename": (ctypes.CFUNCTYPE(_PTR, _I64), _get_tensor_filename),
    NEW_TENSOR: (ctypes.CFUNCTYPE(_I64, _PTR, _I64), _new_tensor),
    TENSOR_SIZE: (ctypes.CFUNCTYPE(_I64, _I64, _I64), _tensor_size),
    TENSOR_COPY: (ctypes.CFUNCTYPE(None, _I64, _I64, _I64), _tensor_copy),
    TENSOR_RELEASE: (ctypes.CFUNCTYPE(None, _I64), _tensor_release),
    OUT_BEGIN: (ctypes.CFUNCTYPE(_I64, _I64), _out_begin),
    OUT_FIELD: (ctypes.CFUNCTYPE(None, _I64, _I64, _I64, _I64), _out_field),
    OUT_END: (ctypes.CFUNCTYPE(None, _I64, _PTR), _out_end),
    RUNTIME_ERROR: (ctypes.CFUNCTYPE(None, _I64), _runtime_error),
    ALLOCATION_FAILED: (
        ctypes.CFUNCTYPE(None, ctypes.c_uint64, _PTR),
        _allocation_failed,
    ),
}
_registered: list[Any] = []
"""The ctypes function objects LLVM calls (kept alive with the process)."""


def register() -> None:
    """Make the runtime functions resolvable by every module the JIT loads."""
    if _registered:
        return
    for name, (prototype, function) in _CALLBACKS.items():
        callback = prototype(function)
        _registered.append(callback)
        address = ctypes.cast(callback, ctypes.c_void_p).value
        assert address is not None
        llvm.add_symbol(name, address)
    llvm.add_symbol(FAILURE_KEY_SYMBOL, ctypes.addressof(failure_key))
