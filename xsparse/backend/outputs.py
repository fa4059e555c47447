"""The arguments a kernel writes, and numpy's rules for them at a call.

A kernel updates a tensor argument in place where it is the `outs` of a linalg
op or the destination of an insertion (the buffer reuse of MLIR's one-shot
bufferization). At a call, as numpy's ufuncs treat `out=`: a read-only array
is refused before native code runs; an input that overlaps a written argument
is read as if copied first; a written array that is not row-major contiguous
is written through a temporary that is copied back.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
from xdsl.dialects import bufferization, func, memref, scf, tensor, vector
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import SSAValue

from xsparse.dialects import subset
from xsparse.dialects.sparse_tensor.ops_conversion import ReinterpretMapOp
from xsparse.dialects.type_guards import is_memref_type, is_tensor_type


def _aliases(value: SSAValue) -> list[SSAValue]:
    """`value` and the values that are the same tensor: casts, reinterpreted
    maps and loop-carried copies of it."""
    found = [value]
    for current in found:
        for use in current.uses:
            op = use.operation
            if isinstance(op, tensor.CastOp | ReinterpretMapOp):
                found.append(op.results[0])
            elif isinstance(op, scf.ForOp) and use.index >= 3:
                position = use.index - 3
                found += [op.body.block.args[1 + position], op.results[position]]
    return found


def _writes(value: SSAValue) -> bool:
    """Whether `value` is the `outs` of a linalg op (its operands after the
    inputs), the destination of an insertion or a scatter (operand 1), or a
    tensor whose buffer (`bufferization.to_buffer`, as the loops of the
    decompositions read their arguments) is stored into."""
    for use in value.uses:
        op = use.operation
        if isinstance(op, LinalgStructuredOperation) and use.index >= len(op.inputs):
            return True
        if (
            isinstance(op, tensor.InsertOp | tensor.InsertSliceOp | subset.ScatterOp)
            and use.index == 1
        ):
            return True
        if isinstance(op, bufferization.ToBufferOp) and _stored_into(op.results[0]):
            return True
    return False


def _stored_into(buffer: SSAValue) -> bool:
    """Whether some op stores into `buffer` (through casts and views of it)."""
    for use in buffer.uses:
        op = use.operation
        if isinstance(op, memref.CastOp | memref.SubviewOp | memref.ReinterpretCastOp):
            if _stored_into(op.results[0]):
                return True
        elif (
            isinstance(op, memref.StoreOp | vector.StoreOp | memref.CopyOp)
            and use.index == 1
        ) or (isinstance(op, vector.MaskedStoreOp) and use.index == 0):
            return True
    return False


def written_arguments(function: func.FuncOp) -> tuple[int, ...]:
    """The positions of the tensor arguments that `function` may write."""
    return tuple(
        arg.index
        for arg in function.body.block.args
        if is_tensor_type(arg.type) and any(_writes(v) for v in _aliases(arg))
    )


def written_memrefs(function: func.FuncOp) -> tuple[int, ...]:
    """The positions of the memref arguments that `function` may write: stored
    into (through views), the `outs` of a linalg op, or passed to a call."""
    return tuple(
        arg.index
        for arg in function.body.block.args
        if is_memref_type(arg.type) and _memref_written(arg)
    )


def _memref_written(buffer: SSAValue) -> bool:
    if _stored_into(buffer):
        return True
    for use in buffer.uses:
        op = use.operation
        if isinstance(op, LinalgStructuredOperation) and use.index >= len(op.inputs):
            return True
        if isinstance(op, subset.ScatterOp) and use.index == 1:
            return True
        if isinstance(op, func.CallOp):
            return True
        if isinstance(
            op, memref.CastOp | memref.SubviewOp | memref.ReinterpretCastOp
        ) and _memref_written(op.results[0]):
            return True
    return False


Copies = list[tuple["np.ndarray[Any, Any]", "np.ndarray[Any, Any]"]]
"""(the caller's array, the contiguous temporary written in its place)."""


def prepare_outputs(
    written: tuple[int, ...], where: Sequence[str], args: tuple[Any, ...]
) -> tuple[tuple[Any, ...], Copies]:
    """The arguments to pass: written arrays checked (and made contiguous
    through a temporary), inputs that overlap them copied; and the temporaries
    to copy back. Allocates nothing when there is nothing to do."""
    prepared: list[Any] | None = None
    copies: Copies = []
    for position in written:
        if not isinstance(args[position], np.ndarray):
            continue
        out = cast("np.ndarray[Any, Any]", args[position])
        flags = out.flags
        if not flags.writeable:
            raise ValueError(
                f"{where[position]}: the kernel writes this array in place, "
                "but it is read-only"
            )
        for other, arg in enumerate(args):
            if (
                other != position
                and isinstance(arg, np.ndarray)
                and np.may_share_memory(cast(Any, arg), out)
            ):
                prepared = list(args) if prepared is None else prepared
                prepared[other] = np.array(cast(Any, arg), copy=True)
        if not flags.c_contiguous:
            temporary = np.ascontiguousarray(out)
            copies.append((out, temporary))
            prepared = list(args) if prepared is None else prepared
            prepared[position] = temporary
    return (args if prepared is None else tuple(prepared)), copies


def finish_outputs(copies: Copies, result: Any) -> Any:
    """Copy the temporaries back; the result with each temporary's buffer
    replaced by the caller's array."""
    for out, temporary in copies:
        np.copyto(out, temporary)
    if isinstance(result, tuple):
        items = cast(tuple[Any, ...], result)
        return tuple(_callers(copies, r) for r in items)
    return _callers(copies, result)


def _callers(copies: Copies, value: Any) -> Any:
    """The caller's array where `value` is the buffer of a temporary."""
    if not isinstance(value, np.ndarray):
        return value
    array = cast("np.ndarray[Any, Any]", value)
    for out, temporary in copies:
        if array.shape == temporary.shape and np.may_share_memory(array, temporary):
            return out
    return cast(Any, value)


Saved = list[tuple["np.ndarray[Any, Any]", "np.ndarray[Any, Any]"]]
"""(an array the kernel writes in place, a copy of it from before the call)."""


def worth_saving(written: tuple[int, ...], args: tuple[Any, ...]) -> bool:
    """Whether copying the arrays a kernel writes in place (to put them back
    if a check inside the kernel fails) costs less than a pass over the
    sparse arguments' coordinates before it: every written argument is a
    numpy array, and together they are under a quarter of those coordinates'
    bytes (SpMV's y beside A's column indices). About 1 us a call."""
    saved = 0
    for position in written:
        out: Any = args[position]
        if type(out) is not np.ndarray:
            return False
        saved += out.nbytes
    coordinate_bytes = 0
    for arg in args:
        if type(arg) is not np.ndarray:
            coordinate_bytes += _coordinate_bytes(arg)
    return 4 * saved <= coordinate_bytes


def _coordinate_bytes(arg: Any) -> int:
    """The bytes of a sparse argument's coordinates (scipy's `indices`, or a
    SparseTensor's coordinate buffers; 0 for anything else)."""
    indices: Any = getattr(arg, "indices", None)
    if type(indices) is np.ndarray:
        return indices.nbytes
    coordinates: Any = getattr(arg, "coordinates", None)
    if type(coordinates) is list:
        buffers = cast(list[Any], coordinates)
        return sum(c.nbytes for c in buffers if c is not None)
    return 0


class _SpareCopies:
    """Arrays that held the saved copies of earlier calls, kept for the next
    ones (at most `limit` bytes): a new array of a few megabytes costs a page
    fault per page on its first write, which for SpMV's y is ten times the
    copy itself."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._arrays: list[np.ndarray[Any, Any]] = []
        self._bytes = 0
        self._lock = threading.Lock()

    def take(self, like: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """A kept array of `like`'s shape and type, else a new one."""
        shape, dtype = like.shape, like.dtype
        with self._lock:
            arrays = self._arrays
            for position in range(len(arrays) - 1, -1, -1):
                array = arrays[position]
                if array.shape == shape and array.dtype == dtype:
                    del arrays[position]
                    self._bytes -= array.nbytes
                    return array
        return np.empty(shape, dtype)

    def new_lock(self) -> None:
        """In a forked child: a thread of the parent may have held the lock;
        the list it guards is whole (its updates hold the GIL)."""
        self._lock = threading.Lock()

    def give_back(self, array: np.ndarray[Any, Any]) -> None:
        """Keep `array` for a later call, dropping the oldest beyond the limit."""
        with self._lock:
            self._arrays.append(array)
            self._bytes += array.nbytes
            while self._bytes > self.limit:
                self._bytes -= self._arrays.pop(0).nbytes


_spare_copies = _SpareCopies(limit=256 << 20)
os.register_at_fork(after_in_child=_spare_copies.new_lock)
SPARE_FROM = 64 << 10
"""Bytes from which a saved copy goes through `_spare_copies`: a smaller
array comes from numpy's allocator without page faults, faster than the
lock."""


def output_bytes(written: Sequence[int], args: Sequence[Any]) -> int:
    """The bytes of the arguments at `written` (every buffer of a sparse one)."""
    total = 0
    for position in written:
        arg = args[position]
        if type(arg) is np.ndarray:
            total += arg.nbytes
        else:
            total += sum(a.nbytes for a in argument_arrays(arg))
    return total


def argument_arrays(arg: Any) -> list[np.ndarray[Any, Any]]:
    """The numpy arrays a kernel argument is made of: a numpy array itself, a
    `SparseTensor`'s or scipy matrix's buffers (a `PackedBuffer`'s bytes);
    none for a scalar."""
    if isinstance(arg, np.ndarray):
        return [cast("np.ndarray[Any, Any]", arg)]
    buffers: list[Any] = []
    for name in ("positions", "coordinates"):
        found: Any = getattr(arg, name, None)
        if isinstance(found, list):
            buffers += cast(list[Any], found)
    for name in ("values", "indptr", "indices", "data", "row", "col"):
        buffers.append(getattr(arg, name, None))
    return [b for b in buffers if isinstance(b, np.ndarray)]


def save_outputs(written: Sequence[int], args: Sequence[Any]) -> Saved:
    """A copy of each array the kernel may write in place: the arguments at
    `written` (numpy arrays, or every buffer of a sparse one) (`release_saved`
    after the call)."""
    saved: Saved = []
    for position in written:
        for out in argument_arrays(args[position]):
            if out.nbytes < SPARE_FROM:
                saved.append((out, out.copy()))
                continue
            copy = _spare_copies.take(out)
            np.copyto(copy, out)
            saved.append((out, copy))
    return saved


def restore_outputs(saved: Saved) -> None:
    """Put the arrays back as they were before the call."""
    for out, before in saved:
        np.copyto(out, before)


def release_saved(saved: Saved) -> None:
    """The copies are not needed any more: keep them for the next call."""
    for _, copy in saved:
        if copy.nbytes >= SPARE_FROM:
            _spare_copies.give_back(copy)
