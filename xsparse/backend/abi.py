"""numpy <-> MLIR memref descriptors, and the packed calling convention.

Every public function `f` gets a generated wrapper `_xsparse_packed_f(ptr)`
(like MLIR ExecutionEngine's packed interface): its one argument points to
an array of 8-byte slots, first the expanded arguments of `f` (memrefs as
allocated ptr, aligned ptr, offset, sizes..., strides...; scalars one slot
each), then the leaves of its results. Python fills the slots with one
precomputed `struct.Struct.pack_into`, so any signature is callable through
one ctypes prototype and no ctypes structure is built per call. ctypes
`CFUNCTYPE` calls release the GIL.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import struct
import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    Float32Type,
    Float64Type,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.ir import Attribute

from xsparse.backend.llvm_names import symbol_text
from xsparse.backend.packed_bits import PackedBuffer, packed_length
from xsparse.dialects.type_guards import is_memref_type

libc = ctypes.CDLL(ctypes.util.find_library("c"))
libc.free.argtypes = [ctypes.c_void_p]
libc.free.restype = None
libc.fflush.argtypes = [ctypes.c_void_p]
libc.fflush.restype = ctypes.c_int

GLOBAL_ALLOCATED = 0xDEADBEEF
"""The allocated pointer MLIR gives memrefs of `memref.get_global` (never freed)."""

PACKED_PREFIX = "_xsparse_packed_"
CHECKED_PREFIX = "checked_"
"""After `PACKED_PREFIX`: the packed wrapper that runs the guards first."""
IN_KERNEL_PREFIX = "in_kernel_checked_"
"""After `PACKED_PREFIX`: the packed wrapper that runs the guards that
leave some checks to the function itself (`fused_checks`) first."""
_PACKED = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


@dataclass(frozen=True)
class Scalar:
    """How one scalar travels: numpy dtype, LLVM IR type, struct format of its slot."""

    dtype: np.dtype[Any]
    ir: str
    fmt: str
    python: type


_SCALARS: dict[tuple[str, int], Scalar] = {
    ("i", 1): Scalar(np.dtype(np.bool_), "i1", "?7x", bool),
    ("i", 8): Scalar(np.dtype(np.int8), "i8", "b7x", int),
    ("i", 16): Scalar(np.dtype(np.int16), "i16", "h6x", int),
    ("i", 32): Scalar(np.dtype(np.int32), "i32", "i4x", int),
    ("i", 64): Scalar(np.dtype(np.int64), "i64", "q", int),
    ("f", 32): Scalar(np.dtype(np.float32), "float", "f4x", float),
    ("f", 64): Scalar(np.dtype(np.float64), "double", "d", float),
}


def boundary_scalar(t: Attribute) -> Scalar | None:
    """How a scalar of type `t` crosses between Python and native code; None
    when it cannot (no numpy dtype, or no slot format: f16, bf16, complex)."""
    if isinstance(t, IndexType):
        return _SCALARS[("i", 64)]
    if isinstance(t, IntegerType):
        return _SCALARS.get(("i", t.bitwidth))
    if isinstance(t, Float32Type):
        return _SCALARS[("f", 32)]
    if isinstance(t, Float64Type):
        return _SCALARS[("f", 64)]
    return None


def scalar_of(t: Attribute) -> Scalar:
    scalar = boundary_scalar(t)
    if scalar is None:
        raise TypeError(f"type {t} cannot cross the Python boundary")
    return scalar


def _slot_irs(t: Attribute) -> list[str]:
    """LLVM IR types of the slots one value of type `t` occupies."""
    if isinstance(t, MemRefType):
        return ["ptr", "ptr", "i64"] + ["i64"] * (2 * t.get_num_dims())
    return [scalar_of(t).ir]


def _ir_type(t: Attribute) -> str:
    irs = _slot_irs(t)
    if not isinstance(t, MemRefType):
        return irs[0]
    rank = t.get_num_dims()
    arrays = f", [{rank} x i64], [{rank} x i64]" if rank else ""
    return "{ ptr, ptr, i64" + arrays + " }"


def _leaf_paths(t: Attribute) -> list[list[int]]:
    """extractvalue positions of the leaves of one value (relative to the value)."""
    if not isinstance(t, MemRefType):
        return [[]]
    rank = t.get_num_dims()
    return (
        [[0], [1], [2]] + [[3, i] for i in range(rank)] + [[4, i] for i in range(rank)]
    )


@dataclass(frozen=True)
class Guard:
    """A function a checked wrapper calls before its function, on the inputs
    `first` to `first + count - 1` of the function's arguments; it returns
    an i1, true when the function must not run (a check failed)."""

    function: str
    first: int
    count: int


def packed_wrapper_ir(
    name: str,
    signature: FunctionType,
    guards: Sequence[Guard] = (),
    checked_prefix: str = CHECKED_PREFIX,
) -> str:
    """LLVM IR of `_xsparse_packed_<name>(ptr slots)` calling `@name`; with
    `guards`, of `_xsparse_packed_<checked_prefix><name>`, which calls the
    guards first and `@name` only when none of them returns true."""
    inputs = list(signature.inputs.data)
    outputs = list(signature.outputs.data)
    wrapper = PACKED_PREFIX + (checked_prefix if guards else "") + name
    lines = [f"define void {symbol_text(wrapper)}(ptr %slots) {{", "entry:"]
    args: list[str] = []
    per_input: list[list[str]] = []
    slot = 0
    for t in inputs:
        per_input.append([])
        for ir in _slot_irs(t):
            lines.append(f"  %p{slot} = getelementptr i64, ptr %slots, i64 {slot}")
            lines.append(f"  %a{slot} = load {ir}, ptr %p{slot}")
            args.append(f"{ir} %a{slot}")
            per_input[-1].append(f"{ir} %a{slot}")
            slot += 1
    failed = "false"
    for index, guard in enumerate(guards):
        guard_args = [
            a for i in per_input[guard.first : guard.first + guard.count] for a in i
        ]
        lines.append(
            f"  %g{index} = call i1 {symbol_text(guard.function)}({', '.join(guard_args)})"
        )
        lines.append(f"  %f{index} = or i1 {failed}, %g{index}")
        failed = f"%f{index}"
    if guards:
        # The slot after the results says whether a guard failed (the results
        # are then not written).
        status = slot + sum(len(_slot_irs(t)) for t in outputs)
        lines += [
            f"  %status = getelementptr i64, ptr %slots, i64 {status}",
            f"  %failed = zext i1 {failed} to i64",
            "  store i64 %failed, ptr %status",
            f"  br i1 {failed}, label %skip, label %run",
            "skip:",
            "  ret void",
            "run:",
        ]
    if not outputs:
        ret = "void"
    elif len(outputs) == 1:
        ret = _ir_type(outputs[0])
    else:
        ret = "{ " + ", ".join(_ir_type(t) for t in outputs) + " }"
    call = f"call {ret} {symbol_text(name)}({', '.join(args)})"
    lines.append(f"  {call}" if ret == "void" else f"  %r = {call}")
    leaf = 0
    for index, t in enumerate(outputs):
        prefix = [index] if len(outputs) > 1 else []
        for ir, path in zip(_slot_irs(t), _leaf_paths(t), strict=True):
            position = prefix + path
            value = "%r"
            if position:
                lines.append(
                    f"  %e{leaf} = extractvalue {ret} %r, {', '.join(map(str, position))}"
                )
                value = f"%e{leaf}"
            lines.append(f"  %q{leaf} = getelementptr i64, ptr %slots, i64 {slot}")
            lines.append(f"  store {ir} {value}, ptr %q{leaf}")
            slot += 1
            leaf += 1
    lines += ["  ret void", "}"]
    return "\n".join(lines) + "\n"


class _MallocOwner:
    """Frees a buffer the kernel malloc'd when the last numpy view of it dies."""

    __slots__ = ("pointer",)

    def __init__(self, pointer: int):
        self.pointer = pointer

    def __del__(self, free: Any = libc.free) -> None:
        # `free` bound now: at interpreter exit this module's globals may be gone
        free(self.pointer)


class _View:
    """Exposes a raw buffer to numpy while keeping `owner` alive."""

    __slots__ = ("__array_interface__", "owner")

    def __init__(self, interface: dict[str, Any], owner: object):
        self.__array_interface__ = interface
        self.owner = owner


_Slots = tuple[Any, ...]
"""The slot values of one argument, in the order of the packed convention."""


class NotContiguousError(ValueError):
    """An array given where a row-major contiguous one is needed."""


class MemRefParam:
    """Checks one numpy argument against a memref type and expands it into the
    slots of its descriptor (`where` names the argument in errors).

    The last array seen is remembered (a weak reference, its shape, strides,
    dtype and slots): an ndarray's data pointer never changes while it lives
    (numpy refuses to `resize` an array that has weak references, unless told
    `refcheck=False`, which the caller then vouches for), so an argument that
    is the same object with the same shape, strides and dtype has the same
    slots, and all the checks it passed still hold. Reading the data pointer
    (`ndarray.ctypes.data`, `__array_interface__`) costs more than a whole
    call otherwise.
    """

    __slots__ = ("_last", "contiguous", "dtype", "shape", "static_strides", "where")

    def __init__(
        self,
        where: str,
        dtype: np.dtype[Any],
        shape: tuple[int | None, ...],
        static_strides: tuple[int | None, ...] | None,
        contiguous: bool = False,
    ) -> None:
        self.where = where
        self.contiguous = contiguous
        """Only row-major contiguous arrays (`NotContiguousError` otherwise)."""
        self.dtype = dtype
        self.shape = shape
        self.static_strides = static_strides
        # (array ref, shape, strides, dtype, slots); replaced as a whole, so
        # threads calling at once read either the old entry or the new one.
        self._last: (
            tuple[
                weakref.ref[np.ndarray[Any, Any]],
                tuple[int, ...],
                tuple[int, ...],
                np.dtype[Any],
                _Slots,
            ]
            | None
        ) = None

    @staticmethod
    def of(
        where: str, t: MemRefType[Attribute], *, contiguous: bool = False
    ) -> MemRefParam | PackedParam:
        """The parameter of memref type `t`."""
        if t.element_type == PACKED:
            return PackedParam(where, t)
        return MemRefParam(
            where,
            scalar_of(t.element_type).dtype,
            tuple(None if d == DYNAMIC_INDEX else d for d in t.get_shape()),
            _static_strides(t),
            contiguous,
        )

    def expand(self, value: object) -> _Slots:
        last = self._last
        if last is not None:
            seen = last[0]()
            if (
                seen is value
                and seen is not None
                and seen.shape == last[1]
                and seen.strides == last[2]
                and seen.dtype is last[3]
            ):
                return last[4]
        array = self.check(value)
        pointer: int = array.__array_interface__["data"][0]
        itemsize = array.itemsize
        slots = (
            pointer,
            pointer,
            0,
            *array.shape,
            *(s // itemsize for s in array.strides),
        )
        self._last = (
            weakref.ref(array),
            array.shape,
            array.strides,
            array.dtype,
            slots,
        )
        return slots

    def check(self, value: object) -> np.ndarray[Any, Any]:
        """`value` if it is an array this memref type accepts; TypeError/ValueError if not."""
        if not isinstance(value, np.ndarray):
            raise TypeError(
                f"{self.where}: expected a numpy array of {self.dtype}, "
                f"got {type(value).__name__}"
            )
        array = cast("np.ndarray[Any, Any]", value)
        if array.dtype != self.dtype:
            raise TypeError(
                f"{self.where}: expected dtype {self.dtype}, got {array.dtype}"
            )
        if array.ndim != len(self.shape):
            raise ValueError(
                f"{self.where}: expected rank {len(self.shape)}, "
                f"got shape {array.shape}"
            )
        for dim, (want, got) in enumerate(zip(self.shape, array.shape, strict=True)):
            if want is not None and want != got:
                raise ValueError(
                    f"{self.where}: dimension {dim} must be {want}, "
                    f"got shape {array.shape}"
                )
        if self.contiguous and not array.flags.c_contiguous:
            raise NotContiguousError(f"{self.where}: the array is not contiguous")
        itemsize = array.itemsize
        strides: list[int] = []
        for s in array.strides:
            if s % itemsize:
                raise ValueError(
                    f"{self.where}: strides {array.strides} are not "
                    f"multiples of the element size {itemsize}"
                )
            strides.append(s // itemsize)
        if self.static_strides is not None:
            for dim, (want, got) in enumerate(
                zip(self.static_strides, strides, strict=True)
            ):
                if (
                    want is not None
                    and want != got
                    and array.shape[dim] > 1
                    and array.size
                ):
                    raise ValueError(
                        f"{self.where}: stride of dimension {dim} must be "
                        f"{want} elements, got {got}"
                    )
        return array


PACKED = IntegerType(2)
"""Memrefs of this element type are packed four per byte (`packed_bits`)."""


class PackedParam:
    """A 1-D `memref<?xi2>` parameter: a `PackedBuffer`, whose descriptor
    has its entry count as size (the kernel's lowering finds entry k in byte
    k // 4)."""

    __slots__ = ("where",)

    def __init__(self, where: str, t: MemRefType[Attribute]) -> None:
        if t.get_num_dims() != 1 or _static_strides(t) != (1,):
            raise TypeError(f"{where}: memrefs of i2 are 1-D and contiguous, not {t}")
        self.where = where

    def expand(self, value: object) -> _Slots:
        if not isinstance(value, PackedBuffer):
            raise TypeError(
                f"{self.where}: expected 2-bit entries packed four per byte "
                f"(a PackedBuffer), got {type(value).__name__}"
            )
        pointer: int = value.data.__array_interface__["data"][0]
        return (pointer, pointer, 0, value.count, 1)


def _packed_result(
    values: Sequence[int],
    argument: np.ndarray[Any, Any] | None,
    owners: dict[int, _MallocOwner],
) -> PackedBuffer:
    """The `PackedBuffer` of a 1-D `memref<?xi2>` result."""
    offset, count, stride = values[2], values[3], values[4]
    if offset % 4 or (stride != 1 and count > 1):
        raise ValueError(
            "a memref<?xi2> result must start on a byte and be contiguous "
            f"(offset {offset}, stride {stride} elements)"
        )
    as_bytes = (values[0], values[1], offset // 4, packed_length(count), 1)
    data = _memref_result(1, np.dtype(np.uint8), as_bytes, argument, owners)
    return PackedBuffer(data, count)


def _static_strides(t: MemRefType) -> tuple[int | None, ...] | None:
    layout = t.layout
    shape = t.get_shape()
    if isinstance(layout, StridedLayoutAttr):
        if not isinstance(layout.offset, NoneAttr) and layout.offset.data != 0:
            raise TypeError(f"memref arguments with a static nonzero offset: {t}")
        return tuple(
            None if isinstance(s, NoneAttr) else s.data for s in layout.strides
        )
    if not isinstance(layout, NoneAttr):
        raise TypeError(f"unsupported memref layout of an argument: {t}")
    strides: list[int | None] = []
    running: int | None = 1
    for d in reversed(shape):
        strides.append(running)
        running = None if running is None or d == DYNAMIC_INDEX else running * d
    return tuple(reversed(strides))


def _memref_result(
    rank: int,
    dtype: np.dtype[Any],
    values: Sequence[int],
    argument: np.ndarray[Any, Any] | None,
    owners: dict[int, _MallocOwner],
) -> np.ndarray[Any, Any]:
    """The numpy array of a memref result (`values`: its descriptor's slots);
    `argument`: the memref argument whose buffer it is, if any (the result is
    that array, or a view keeping it alive); `owners` the buffers the kernel
    malloc'd that earlier results of the call returned (results that share
    one, e.g. a sparse result and a view of it, free it once)."""
    allocated, aligned, offset = values[0], values[1], values[2]
    shape = tuple(values[3 : 3 + rank])
    itemsize = dtype.itemsize
    strides = tuple(s * itemsize for s in values[3 + rank : 3 + 2 * rank])
    data = aligned + offset * itemsize
    if (
        argument is not None
        and data == allocated
        and argument.shape == shape
        and argument.strides == strides
    ):
        return argument
    interface = {
        "data": (data, False),
        "shape": shape,
        "strides": strides,
        "typestr": dtype.str,
        "version": 3,
    }
    if argument is not None:
        return np.asarray(_View(interface, argument))
    if allocated == GLOBAL_ALLOCATED:
        return np.asarray(_View(interface, None)).copy()
    malloc_owner = owners.get(allocated)
    if malloc_owner is None:
        malloc_owner = owners[allocated] = _MallocOwner(allocated)
    return np.asarray(_View(interface, malloc_owner))


_Buffer = tuple[ctypes.Array[ctypes.c_char], int]
"""A slot buffer and its address."""


class NativeFunction:
    """A compiled function called with numpy arrays and Python/numpy scalars.

    A `guarded` one is the checked entry of a function (`packed_wrapper_ir`
    with guards): when a guard failed, the call returns None (the failure is
    pending in `runtime_errors`). A call checks every argument, fills a slot buffer with one precompiled
    `struct.Struct.pack_into` and calls the packed wrapper (the GIL is
    released). The slot buffers are reused: each thread keeps a list of free
    ones and takes one for the length of a call, so threads (and a signal
    handler that calls the function while the thread is between packing and
    calling) never share one.
    """

    def __init__(
        self,
        name: str,
        signature: FunctionType,
        address: int,
        keep_alive: object,
        flush_stdout: bool,
        guarded: bool = False,
    ):
        self.name = name
        self._guarded = guarded
        self.signature = signature
        self._keep_alive = keep_alive
        self._entry = _PACKED(address)
        self._flush = flush_stdout
        inputs = list(signature.inputs.data)
        outputs = list(signature.outputs.data)
        self._arity = len(inputs)
        fmt = "<"
        self._converters: list[Callable[[object], _Slots]] = []
        # (argument position, index of its first slot) of each memref argument
        self._memref_slots: list[tuple[int, int]] = []
        slot = 0
        for position, t in enumerate(inputs):
            if is_memref_type(t):
                param = MemRefParam.of(f"argument {position}", t)
                self._converters.append(param.expand)
                self._memref_slots.append((position, slot))
                fmt += "QQq" + "q" * (2 * t.get_num_dims())
                slot += 3 + 2 * t.get_num_dims()
            else:
                where = f"argument {position}"
                self._converters.append(scalar_converter(where, scalar_of(t)))
                fmt += scalar_of(t).fmt
                slot += 1
        self._in_struct = struct.Struct(fmt)
        out_fmt = "<"
        for t in outputs:
            out_fmt += (
                "QQq" + "q" * (2 * t.get_num_dims())
                if isinstance(t, MemRefType)
                else scalar_of(t).fmt
            )
        if guarded:
            out_fmt += "q"  # the status slot (packed_wrapper_ir)
        self._out_struct = struct.Struct(out_fmt)
        # per result: None for a scalar, (rank, dtype) for a memref (dtype
        # None: packed 2-bit entries, a PackedBuffer)
        self._outputs: list[tuple[int, np.dtype[Any] | None] | None] = [
            (
                t.get_num_dims(),
                None if t.element_type == PACKED else scalar_of(t.element_type).dtype,
            )
            if is_memref_type(t)
            else None
            for t in outputs
        ]
        self._size = max(self._in_struct.size + self._out_struct.size, 8)
        self._local = threading.local()

    def _new_buffer(self) -> _Buffer:
        buffer = ctypes.create_string_buffer(self._size)
        return buffer, ctypes.addressof(buffer)

    def __call__(self, *args: object) -> Any:
        if len(args) != self._arity:
            raise TypeError(
                f"{self.name}() takes {self._arity} arguments, got {len(args)}"
            )
        values: list[Any] = []
        for convert, arg in zip(self._converters, args, strict=False):
            values += convert(arg)
        return self.call_slots(values, args)

    def call_slots(self, values: Sequence[Any], args: Sequence[object]) -> Any:
        """Call with the slots of the arguments already expanded (`values`,
        as `MemRefParam.expand` and the scalars' formats give them); `args`
        are the arguments themselves (a result that is an argument's buffer
        is returned as that array)."""
        local = self._local
        try:
            free: list[_Buffer] = local.free
        except AttributeError:
            free = local.free = []
        buffer, address = free.pop() if free else self._new_buffer()
        self._in_struct.pack_into(buffer, 0, *values)
        self._entry(address)
        if self._flush:
            libc.fflush(None)
        raw = self._out_struct.unpack_from(buffer, self._in_struct.size)
        free.append((buffer, address))
        if self._guarded and raw[-1]:
            return None  # a guard failed: the results were not written
        if not self._outputs:
            return None
        results: list[Any] = []
        owners: dict[int, _MallocOwner] = {}
        index = 0
        for memref in self._outputs:
            if memref is not None:
                rank, dtype = memref
                n = 3 + 2 * rank
                leaves = raw[index : index + n]
                index += n
                argument = None
                for position, slot in self._memref_slots:
                    if values[slot] == leaves[0]:
                        # the slots were expanded from this argument, an array
                        arg = args[position]
                        argument = cast(
                            "np.ndarray[Any, Any]",
                            arg.data if isinstance(arg, PackedBuffer) else arg,
                        )
                        break
                results.append(
                    _packed_result(leaves, argument, owners)
                    if dtype is None
                    else _memref_result(rank, dtype, leaves, argument, owners)
                )
            else:
                results.append(raw[index])
                index += 1
        return results[0] if len(results) == 1 else tuple(results)


def scalar_converter(where: str, scalar: Scalar) -> Callable[[object], _Slots]:
    """The slots of a scalar argument (`where` names it in errors)."""
    python = scalar.python

    def convert(value: object) -> _Slots:
        if type(value) is python:  # the common case, checked first
            return (value,)
        if isinstance(value, np.ndarray) or not isinstance(
            value, int | float | bool | np.generic
        ):
            raise TypeError(
                f"{where}: expected a {scalar.dtype} scalar, "
                f"got {type(cast(object, value)).__name__}"
            )
        if python is not float and isinstance(value, float | np.floating):
            raise TypeError(
                f"{where}: expected an integer ({scalar.dtype}), got {value!r}"
            )
        # `Scalar.python` is a bare `type`, so pyright cannot type the call
        return (python(value),)  # pyright: ignore[reportUnknownArgumentType]

    return convert
