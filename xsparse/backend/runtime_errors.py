"""Failures of runtime callbacks that compiled code made (e.g. reading a file).

An exception cannot unwind through native frames: a callback records it with
`fail` and returns something harmless, and the Python caller of the kernel
raises it once the call returns (`raise_pending`). After `exit_on_error`,
`fail` prints the error and exits the process instead, as MLIR's runtime
does (`xsparse-run`).

A heap allocation of compiled code that fails (`convert_to_llvm.
allocation_failures`) reports a MemoryError here (`allocation_failed`)
and sets its thread's failure flag, a POSIX thread-specific value that
compiled code sets and reads through `FAILURE_IR` (the JIT cannot give a
module thread-local globals): every function on the way out returns at
once. `raise_pending` clears the flag of the thread that raises.
"""

from __future__ import annotations

import ctypes
import os
import re
import sys
import threading

from xsparse.backend.abi import libc
from xsparse.transforms.runtime_symbols import (
    FAILED,
    FORGET,
    RELEASE,
    SET_FAILED,
    SIZE_OVERFLOW,
)

FAILURE_KEY_SYMBOL = "xsparse_failure_key"
"""The symbol (an `i32`, glibc's `pthread_key_t`) holding the key of the
threads' failure flags."""
failure_key = ctypes.c_uint(0)
libc.pthread_key_create.argtypes = [ctypes.POINTER(ctypes.c_uint), ctypes.c_void_p]
libc.pthread_setspecific.argtypes = [ctypes.c_uint, ctypes.c_void_p]
if libc.pthread_key_create(ctypes.byref(failure_key), None) != 0:
    raise OSError("pthread_key_create failed")

FAILURE_IR = f"""
@{FAILURE_KEY_SYMBOL} = external global i32
declare ptr @pthread_getspecific(i32)
declare i32 @pthread_setspecific(i32, ptr)

define internal i1 @{FAILED}() {{
  %key = load i32, ptr @{FAILURE_KEY_SYMBOL}
  %flag = call ptr @pthread_getspecific(i32 %key)
  %set = icmp ne ptr %flag, null
  ret i1 %set
}}

define internal void @{FORGET}(ptr %slots, i64 %n, ptr %block) noinline {{
entry:
  %none = icmp eq i64 %n, 0
  br i1 %none, label %done, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %slot = getelementptr ptr, ptr %slots, i64 %i
  %held = load ptr, ptr %slot
  %same = icmp eq ptr %held, %block
  %kept = select i1 %same, ptr null, ptr %held
  store ptr %kept, ptr %slot
  %next = add i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}}

define internal void @{RELEASE}(ptr %slots, i64 %n) noinline {{
entry:
  %none = icmp eq i64 %n, 0
  br i1 %none, label %done, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %slot = getelementptr ptr, ptr %slots, i64 %i
  %held = load ptr, ptr %slot
  call void @free(ptr %held)
  %next = add i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}}

define internal void @{SET_FAILED}(i1 %on) {{
  %key = load i32, ptr @{FAILURE_KEY_SYMBOL}
  %flag = select i1 %on, ptr inttoptr (i64 1 to ptr), ptr null
  call i32 @pthread_setspecific(i32 %key, ptr %flag)
  ret void
}}
"""
"""The definitions of `FAILED`, `SET_FAILED` and the owned-block helpers
`FORGET` and `RELEASE` (LLVM IR; not inlined: a function has a slot per
allocation site, up to ~100), for a module that calls them."""

_pending: dict[int, BaseException] = {}
"""The first failure of a runtime call, per thread, until `raise_pending`."""
_from_workers: list[BaseException] = []
"""Failures reported on the native pool's threads (`threads`), which only the
thread that runs a parallel loop waits for."""
_exit_program: str | None = None


def exit_on_error(program: str) -> None:
    """From now on, a failing runtime call prints `program: error: ...` and
    exits the process with status 1."""
    global _exit_program
    _exit_program = program


def fail(error: BaseException) -> None:
    """Record the failure of a runtime call (the first one of this thread
    counts), or print it and exit after `exit_on_error`."""
    if _exit_program is not None:
        libc.fflush(None)
        sys.stdout.flush()
        os.write(2, f"{_exit_program}: error: {error}\n".encode())
        os._exit(1)
    if isinstance(threading.current_thread(), threading._DummyThread):  # pyright: ignore[reportPrivateUsage]
        # A native worker of the thread pool: the caller of the kernel takes it.
        _from_workers.append(error)
        return
    _pending.setdefault(threading.get_ident(), error)


def allocation_failed(bytes_asked: int, function: str) -> None:
    """Record that `function`'s heap allocation of `bytes_asked` bytes
    failed (`SIZE_OVERFLOW`: its size overflowed 64 bits) as a MemoryError."""
    size = (
        "a size that overflows 64 bits"
        if bytes_asked == SIZE_OVERFLOW
        else f"{bytes_asked} bytes"
    )
    fail(MemoryError(f"{function}(): cannot allocate {size}"))


def _clear_failure_flag() -> None:
    libc.pthread_setspecific(failure_key, None)


def raise_pending() -> None:
    """Raise the failure a runtime call of this thread (or of the pool's
    threads, working for it) recorded, if any (clearing this thread's
    failure flag)."""
    if _pending:
        error = _pending.pop(threading.get_ident(), None)
        if error is not None:
            _from_workers.clear()
            _clear_failure_flag()
            raise error
    if _from_workers:
        error = _from_workers[0]
        _from_workers.clear()
        _clear_failure_flag()
        raise error


def failure_ir(declared_in: str) -> str:
    """`FAILURE_IR` where `declared_in` (a module's LLVM IR) calls `FAILED`
    or `SET_FAILED`; else nothing."""
    if f"@{FAILED}(" not in declared_in and f"@{SET_FAILED}(" not in declared_in:
        return ""
    if re.search(r"^declare [^\n]*@free\(", declared_in, re.MULTILINE):
        return FAILURE_IR
    return FAILURE_IR + "declare void @free(ptr)\n"
