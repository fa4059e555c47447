"""The thread runtime of parallel loops: `xsparse_parallel_for` and its pool.

`convert-to-llvm{threads=true}` turns the outermost `scf.parallel` of a
function into a call `xsparse_parallel_for(body, ctx, lo, hi, work, width,
step)`
(`xsparse.transforms.convert_to_llvm.threads`). That function is LLVM IR
compiled into each module that calls it (`PARALLEL_FOR_IR`): it estimates
the loop's work (stored entries from the positions buffer `work` when there
is one, else iterations times a weight) and runs `body(ctx, lo, hi, 0)` on
the calling thread when one thread is wanted or the work is below the grain,
so small calls pay a compare. Otherwise it calls `xsparse_parallel_run`, the
pool of native threads of `native_pool` (LLVM IR on libc's pthreads and
futexes, compiled once per process by `register`): chunks of about equal
stored entries, several per thread, taken dynamically; the calling thread
works too and returns when all chunks are done. No Python runs on the
workers (a failure a runtime callback reports there is kept by
`runtime_errors` for the caller), and the kernel call holds no GIL.

The thread count: `set_num_threads(n)`, else `XSPARSE_NUM_THREADS`, else
the cores this process may run on; at most `MAX_THREADS_PER_CORE` per core
(more is capped, with a RuntimeWarning), and the pool shrinks when it is
lowered. It lives in a native global
(`xsparse_num_threads`) that compiled code reads (`threadpoolctl`'s
`threadpool_limits` sets it too, where threadpoolctl is installed), beside the grain
(`xsparse_parallel_grain`, in stored entries; `set_grain`, or
`XSPARSE_PARALLEL_GRAIN`: 0 sends every loop of two or more iterations to
the pool, which the tests use to run small kernels on threads).

A fork may come at any moment: `os.fork` waits for the LLVM call in flight
on another thread (llvmlite runs one at a time, under its lock, which the
fork holds), so the child inherits LLVM between calls, never in the middle
of one, and llvmlite's lock free; the child's pool is reset to a fresh one
(`native_pool.RESET`: no workers, no job) before anything else runs.
"""

from __future__ import annotations

import ctypes
import operator
import os
import threading
import warnings
from contextlib import AbstractContextManager
from typing import Any, cast

import llvmlite.binding as llvm
import numpy as np

from xsparse.backend import native_pool
from xsparse.backend.native_pool import pool_ir
from xsparse.transforms.runtime_symbols import MAX_CHUNKS, PARALLEL_FOR

_RUN = native_pool.RUN
_NUM_THREADS = native_pool.NUM_THREADS
_GRAIN = "xsparse_parallel_grain"

DEFAULT_GRAIN = 16384
"""Stored entries (or 64ths of iterations) below which a loop stays on the
calling thread: dispatching to the pool costs about as much as that much
SpMV work (measured by `tools/bench_threads.py`)."""

CHUNKS_PER_THREAD = 4
"""Chunks per thread: spare chunks let a thread that finished early take
work from a slower one (skewed rows)."""

PARALLEL_FOR_IR = f"""
@{_NUM_THREADS} = external global i64
@{_GRAIN} = external global i64
declare i64 @{_RUN}(ptr, ptr, i64, i64, ptr, i64, i64)

define internal i64 @{PARALLEL_FOR}(ptr %body, ptr %ctx, i64 %lo, i64 %hi, ptr %work, i64 %width, i64 %step) {{
entry:
  %threads = load i64, ptr @{_NUM_THREADS}
  %several = icmp sgt i64 %threads, 1
  %span = sub i64 %hi, %lo
  %iterations = sdiv i64 %span, %step
  %nontrivial = icmp sgt i64 %span, %step
  %may_split = and i1 %several, %nontrivial
  br i1 %may_split, label %measure, label %inline
measure:
  %weighted = icmp ne ptr %work, null
  br i1 %weighted, label %entries, label %unweighted
unweighted:
  %scaled = mul i64 %iterations, %width
  br label %decide
entries:
  %wide = icmp eq i64 %width, 8
  br i1 %wide, label %entries64, label %entries32
entries64:
  %first64.p = getelementptr i64, ptr %work, i64 %lo
  %last64.p = getelementptr i64, ptr %work, i64 %hi
  %first64 = load i64, ptr %first64.p
  %last64 = load i64, ptr %last64.p
  %stored64 = sub i64 %last64, %first64
  br label %decide
entries32:
  %first32.p = getelementptr i32, ptr %work, i64 %lo
  %last32.p = getelementptr i32, ptr %work, i64 %hi
  %first32 = load i32, ptr %first32.p
  %last32 = load i32, ptr %last32.p
  %stored32.narrow = sub i32 %last32, %first32
  %stored32 = zext i32 %stored32.narrow to i64
  br label %decide
decide:
  %cost = phi i64 [%scaled, %unweighted], [%stored64, %entries64], [%stored32, %entries32]
  %grain = load i64, ptr @{_GRAIN}
  %large = icmp sge i64 %cost, %grain
  br i1 %large, label %pool, label %inline
pool:
  %chunks = call i64 @{_RUN}(ptr %body, ptr %ctx, i64 %lo, i64 %hi, ptr %work, i64 %width, i64 %step)
  ret i64 %chunks
inline:
  call void %body(ptr %ctx, i64 %lo, i64 %hi, i64 0)
  %ran = icmp slt i64 %lo, %hi
  %chunks.inline = zext i1 %ran to i64
  ret i64 %chunks.inline
}}
"""


MAX_THREADS_PER_CORE = 4
"""Threads per core beyond which `set_num_threads` caps the count: more
only adds threads that wait for a core (threadpoolctl-style libraries cap
similarly; MLIR's OpenMP lowering leaves it to libomp)."""


def max_threads() -> int:
    """The most threads parallel loops run on: `MAX_THREADS_PER_CORE` per core."""
    return MAX_THREADS_PER_CORE * (os.cpu_count() or 1)


def _capped(n: int) -> int:
    """`n`, or `max_threads()` with a RuntimeWarning when `n` is above it."""
    limit = max_threads()
    if n <= limit:
        return n
    warnings.warn(
        f"{n} threads is more than {MAX_THREADS_PER_CORE} per core: using {limit}",
        RuntimeWarning,
        stacklevel=3,
    )
    return limit


def _default_threads() -> int:
    text = os.environ.get("XSPARSE_NUM_THREADS", "").strip()
    if text:
        try:
            return _capped(max(1, int(text)))
        except ValueError:
            pass
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _default_grain() -> int:
    text = os.environ.get("XSPARSE_PARALLEL_GRAIN", "").strip()
    try:
        return max(0, int(text)) if text else DEFAULT_GRAIN
    except ValueError:
        return DEFAULT_GRAIN


_settings = (ctypes.c_int64 * 2)(_default_threads(), _default_grain())
"""The native globals: the thread count and the grain."""


def get_num_threads() -> int:
    """The number of threads parallel loops run on."""
    return int(_settings[0])


def set_num_threads(n: int) -> None:
    """Run parallel loops on `n` threads (1: on the calling thread only), at
    most `max_threads()` (a RuntimeWarning when `n` is capped). An integer
    of any kind (numpy's too) is taken, a bool or other type is a TypeError,
    as in numpy's APIs; below 1 a ValueError. Lowering the count ends the
    pool's surplus threads."""
    if isinstance(n, bool):
        raise TypeError("the number of threads must be an int, not bool")
    try:
        count = operator.index(n)
    except TypeError:
        raise TypeError(
            f"the number of threads must be an int, not {type(n).__name__}"
        ) from None
    if count < 1:
        raise ValueError(f"the number of threads must be a positive int, not {count}")
    _settings[0] = _capped(count)
    if _native is not None:
        _native.resize()


def get_grain() -> int:
    return int(_settings[1])


def set_grain(entries: int) -> None:
    """The work (stored entries) below which a loop runs on the calling thread."""
    if entries < 0:
        raise ValueError(f"the grain must be at least 0, not {entries}")
    _settings[1] = entries


# -- the native pool ------------------------------------------------------------

_pool: llvm.ExecutionEngine | None = None
"""The engine holding the native pool (`native_pool`), kept for the process."""

_VOID = ctypes.CFUNCTYPE(None)


class _Native:
    """The pool's entries that Python calls: `reset` (in a forked child) and
    `resize` (after the thread count changed)."""

    def __init__(self, engine: llvm.ExecutionEngine) -> None:
        self.reset = _VOID(_address(engine, native_pool.RESET))
        self.resize = _VOID(_address(engine, native_pool.RESIZE))


_native: _Native | None = None
_register_lock = threading.Lock()
"""Held while the pool is compiled (`register`), so that it is compiled once."""


def _compile_pool() -> llvm.ExecutionEngine:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    target = llvm.Target.from_triple(llvm.get_process_triple())
    machine = target.create_target_machine(opt=2, codemodel="jitdefault")
    module = llvm.parse_assembly(pool_ir(MAX_CHUNKS, CHUNKS_PER_THREAD))
    module.verify()
    engine = llvm.create_mcjit_compiler(module, machine)
    engine.finalize_object()
    return engine


_BOUNDS_TYPE = ctypes.CFUNCTYPE(
    ctypes.c_int64,
    ctypes.c_int64,
    ctypes.c_int64,
    ctypes.c_int64,
    ctypes.c_void_p,
    ctypes.c_int64,
    ctypes.c_void_p,
    ctypes.c_int64,
)


def chunk_bounds(
    lo: int,
    hi: int,
    pieces: int,
    positions: np.ndarray[Any, Any] | None = None,
    step: int = 1,
) -> list[int]:
    """How the pool cuts `[lo, hi)` into at most `pieces` nonempty chunks of
    about equal work: `positions` (int32 or int64, indexed like the loop)
    weighs the rows `[i, j)` by `positions[j] - positions[i]`; without it,
    even ranges. Every chunk starts at `lo` plus a multiple of `step` (a
    loop of that step). The chunks' bounds, `lo` first and `hi` last."""
    engine = _engine()
    bounds = _BOUNDS_TYPE(_address(engine, native_pool.BOUNDS))
    out = np.zeros(MAX_CHUNKS + 1, np.int64)
    work, width = None, 8
    if positions is not None:
        positions = np.ascontiguousarray(positions)
        work, width = positions.ctypes.data, positions.dtype.itemsize
    count = bounds(lo, hi, min(pieces, MAX_CHUNKS), work, width, out.ctypes.data, step)
    return out[: count + 1].tolist()


def _address(engine: llvm.ExecutionEngine, name: str) -> int:
    """The address of a function of the native pool."""
    address = cast(int, engine.get_function_address(name))
    assert address, f"no symbol '{name}' in the native pool"
    return address


def _engine() -> llvm.ExecutionEngine:
    register()
    assert _pool is not None
    return _pool


def _llvm_lock() -> AbstractContextManager[None] | None:
    """The lock under which llvmlite makes every call into LLVM (one at a
    time). llvmlite names it only as an attribute of its library wrapper
    (`ffi.lib._lock`, which `ffi.register_lock_callback` extends); None
    where a version of llvmlite has none."""
    return getattr(llvm.ffi.lib, "_lock", None)


def _before_fork() -> None:
    """Wait for the LLVM call in flight on another thread and keep LLVM until
    the fork is done: the child then inherits no call half-made (nor
    llvmlite's lock held by a thread it does not have)."""
    lock = _llvm_lock()
    if lock is not None:
        lock.__enter__()


def _after_fork_in_parent() -> None:
    lock = _llvm_lock()
    if lock is not None:
        lock.__exit__(None, None, None)


def _after_fork_in_child() -> None:
    """The child has only the thread that forked: LLVM is given back (the
    forking thread holds it), the pool is a fresh one (no workers, not the
    parent's job in flight) and the pool's lock a new one. No LLVM call, no
    lock another thread might hold."""
    global _register_lock
    _after_fork_in_parent()
    if _native is not None:
        _native.reset()
    _register_lock = threading.Lock()


os.register_at_fork(
    before=_before_fork,
    after_in_parent=_after_fork_in_parent,
    after_in_child=_after_fork_in_child,
)


def _register_with_threadpoolctl() -> None:
    """Let `threadpoolctl.threadpool_limits` limit xsparse's threads as it
    limits BLAS and OpenMP (user_api "xsparse"), when threadpoolctl is
    installed (the `threads` extra). threadpoolctl finds a library among
    the loaded shared objects: xsparse's kernels run in llvmlite's."""
    try:
        import threadpoolctl  # pyright: ignore[reportMissingImports]
    except ImportError:
        return

    class XsparseController(threadpoolctl.LibController):  # pyright: ignore
        user_api = "xsparse"
        internal_api = "xsparse"
        filename_prefixes = ("libllvmlite",)

        def get_num_threads(self) -> int:  # pyright: ignore[reportIncompatibleMethodOverride]
            return get_num_threads()

        def set_num_threads(self, num_threads: int) -> None:
            set_num_threads(max(1, int(num_threads)))

        def get_version(self) -> str:  # pyright: ignore[reportIncompatibleMethodOverride]
            from xsparse.version import __version__

            return __version__

    threadpoolctl.register(XsparseController)  # pyright: ignore


_register_with_threadpoolctl()


def register() -> None:
    """Make the runtime's symbols resolvable by every module the JIT loads:
    the native globals, then the pool compiled against them (once)."""
    global _pool, _native
    if _pool is not None:
        return
    with _register_lock:
        if _pool is not None:
            return
        base = ctypes.addressof(_settings)
        llvm.add_symbol(_NUM_THREADS, base)
        llvm.add_symbol(_GRAIN, base + ctypes.sizeof(ctypes.c_int64))
        engine = _compile_pool()
        llvm.add_symbol(_RUN, _address(engine, native_pool.RUN))
        _native = _Native(engine)
        _pool = engine
