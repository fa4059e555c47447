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
the cores this process may run on. It lives in a native global
(`xsparse_num_threads`) that compiled code reads (`threadpoolctl`'s
`threadpool_limits` sets it too, where threadpoolctl is installed), beside the grain
(`xsparse_parallel_grain`, in stored entries; `set_grain`, or
`XSPARSE_PARALLEL_GRAIN`: 0 sends every loop of two or more iterations to
the pool, which the tests use to run small kernels on threads).
"""

from __future__ import annotations

import ctypes
import os
from typing import Any, cast

import llvmlite.binding as llvm
import numpy as np

from xsparse.backend import native_pool
from xsparse.backend.native_pool import pool_ir
from xsparse.transforms.convert_to_llvm.threads import MAX_CHUNKS, PARALLEL_FOR

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


def _default_threads() -> int:
    text = os.environ.get("XSPARSE_NUM_THREADS", "").strip()
    if text:
        try:
            return max(1, int(text))
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
    """Run parallel loops on `n` threads (1: on the calling thread only)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:  # pyright: ignore[reportUnnecessaryIsInstance]
        raise ValueError(f"the number of threads must be a positive int, not {n!r}")
    _settings[0] = n


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


def _address(engine: llvm.ExecutionEngine, name: str, *, data: bool = False) -> int:
    """The address of a function (or, `data`, a global) of the native pool."""
    if data:
        address = cast(int, engine.get_global_value_address(name))
    else:
        address = cast(int, engine.get_function_address(name))
    assert address, f"no symbol '{name}' in the native pool"
    return address


def _engine() -> llvm.ExecutionEngine:
    register()
    assert _pool is not None
    return _pool


def _reset_after_fork() -> None:
    """The child of a fork has no workers (and no other thread owns the pool)."""
    if _pool is not None:
        busy = _address(_pool, native_pool.BUSY, data=True)
        ctypes.c_int32.from_address(busy).value = 0
        workers = _address(_pool, native_pool.WORKERS, data=True)
        ctypes.c_int64.from_address(workers).value = 0


os.register_at_fork(after_in_child=_reset_after_fork)


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
    the native globals, then the pool compiled against them."""
    global _pool
    if _pool is not None:
        return
    base = ctypes.addressof(_settings)
    llvm.add_symbol(_NUM_THREADS, base)
    llvm.add_symbol(_GRAIN, base + ctypes.sizeof(ctypes.c_int64))
    engine = _compile_pool()
    llvm.add_symbol(_RUN, _address(engine, native_pool.RUN))
    _pool = engine
