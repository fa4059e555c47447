"""Failures of runtime callbacks that compiled code made (e.g. reading a file).

An exception cannot unwind through native frames: a callback records it with
`fail` and returns something harmless, and the Python caller of the kernel
raises it once the call returns (`raise_pending`). After `exit_on_error`,
`fail` prints the error and exits the process instead, as MLIR's runtime
does (`xsparse-run`).
"""

from __future__ import annotations

import os
import sys
import threading

from xsparse.backend.abi import libc

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


def raise_pending() -> None:
    """Raise the failure a runtime call of this thread (or of the pool's
    threads, working for it) recorded, if any."""
    if _pending:
        error = _pending.pop(threading.get_ident(), None)
        if error is not None:
            _from_workers.clear()
            raise error
    if _from_workers:
        error = _from_workers[0]
        _from_workers.clear()
        raise error
