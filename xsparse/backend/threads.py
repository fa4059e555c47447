"""The thread runtime of parallel loops: `xsparse_parallel_for` and its pool.

`convert-to-llvm{threads=true}` turns the outermost `scf.parallel` of a
function into a call `xsparse_parallel_for(body, ctx, lo, hi, work, width)`
(`xsparse.transforms.convert_to_llvm.threads`). That function is LLVM IR
compiled into each module that calls it (`PARALLEL_FOR_IR`): it estimates
the loop's work (stored entries from the positions buffer `work` when there
is one, else iterations) and runs `body(ctx, lo, hi)` on the calling thread
when one thread is wanted or the work is below the grain, so small calls pay
a compare and no Python. Otherwise it calls `xsparse_parallel_run`, a ctypes
callback into this module, which cuts `[lo, hi)` into chunks of about equal
work (a binary search in the positions buffer: rows by stored entries, not
by count), several per thread, and runs them on a pool of threads started
once and reused. Threads take the next chunk from a shared counter as they
finish one (dynamic scheduling for skewed rows); each chunk is one ctypes
call, which releases the GIL, so the chunks run at native speed in
parallel. The calling thread works too and returns when all chunks are done.

Why Python threads and not a native pool: nothing beyond pip packages is
allowed (no C compiler at install time), llvmlite cannot create threads, and
a chunk costs a few microseconds of Python while the grain keeps each chunk
at tens of microseconds of native work or more.

The thread count: `set_num_threads(n)`, else `XSPARSE_NUM_THREADS`, else
the cores this process may run on. It lives in a native global
(`xsparse_num_threads`) that compiled code reads, beside the grain
(`xsparse_parallel_grain`, in stored entries; `set_grain`, or
`XSPARSE_PARALLEL_GRAIN`: 0 sends every loop of two or more iterations to
the pool, which the tests use to run small kernels on threads).
"""

from __future__ import annotations

import ctypes
import itertools
import os
import queue
import threading
from collections.abc import Callable
from typing import Any

import llvmlite.binding as llvm
import numpy as np

from xsparse.backend.runtime_errors import fail, take_pending
from xsparse.transforms.convert_to_llvm.threads import MAX_CHUNKS, PARALLEL_FOR

_RUN = "xsparse_parallel_run"
_NUM_THREADS = "xsparse_num_threads"
_GRAIN = "xsparse_parallel_grain"

DEFAULT_GRAIN = 200_000
"""Stored entries (or 64ths of iterations) below which a loop stays on the
calling thread: dispatching to the pool costs about as much as that much
SpMV work (measured by `tools/bench_threads.py`)."""

CHUNKS_PER_THREAD = 4
"""Chunks per thread: spare chunks let a thread that finished early take
work from a slower one (skewed rows)."""

PARALLEL_FOR_IR = f"""
@{_NUM_THREADS} = external global i64
@{_GRAIN} = external global i64
declare i64 @{_RUN}(ptr, ptr, i64, i64, ptr, i64)

define internal i64 @{PARALLEL_FOR}(ptr %body, ptr %ctx, i64 %lo, i64 %hi, ptr %work, i64 %width) {{
entry:
  %threads = load i64, ptr @{_NUM_THREADS}
  %several = icmp sgt i64 %threads, 1
  %iterations = sub i64 %hi, %lo
  %nontrivial = icmp sgt i64 %iterations, 1
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
  %chunks = call i64 @{_RUN}(ptr %body, ptr %ctx, i64 %lo, i64 %hi, ptr %work, i64 %width)
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


# -- chunks -------------------------------------------------------------------

_Body = Callable[[int, int, int, int], None]
_BODY_TYPE = ctypes.CFUNCTYPE(
    None, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64
)
_bodies: dict[int, _Body] = {}


def _body(address: int) -> _Body:
    found = _bodies.get(address)
    if found is None:
        found = _BODY_TYPE(address)
        _bodies[address] = found
    return found


def chunk_bounds(
    lo: int, hi: int, pieces: int, positions: np.ndarray[Any, Any] | None
) -> list[int]:
    """`lo`, the cuts, `hi`: `pieces` ranges of about equal work (entries of
    `positions` between their ends when given, which holds `positions[lo:hi+1]`;
    iterations otherwise), none empty."""
    if positions is not None and positions.size:
        first, last = int(positions[0]), int(positions[-1])
        targets = first + (last - first) * np.arange(1, pieces) // pieces
        cuts = (np.searchsorted(positions, targets, side="left") + lo).tolist()
    else:
        cuts = [lo + (hi - lo) * k // pieces for k in range(1, pieces)]
    bounds = [lo]
    for cut in cuts:
        if bounds[-1] < cut < hi:
            bounds.append(cut)
    bounds.append(hi)
    return bounds


def _positions(work: int | None, lo: int, hi: int, width: int) -> Any:
    if not work:
        return None
    ctype = ctypes.c_int64 if width == 8 else ctypes.c_uint32
    data = (ctype * (hi - lo + 1)).from_address(work + lo * width)
    return np.ctypeslib.as_array(data)


class _Job:
    """One parallel loop: its chunks, taken in order by whichever thread is free."""

    def __init__(self, body: _Body, context: int, bounds: list[int]):
        self.body = body
        self.context = context
        self.bounds = bounds
        self.count = len(bounds) - 1
        self.taken = itertools.count()
        self.finished = itertools.count()
        self.done = threading.Event()
        self.errors: list[BaseException] = []

    def work(self) -> None:
        """Run chunks until none is left (`next` on a count is atomic)."""
        while (k := next(self.taken)) < self.count:
            self.body(self.context, self.bounds[k], self.bounds[k + 1], k)
            error = take_pending()
            if error is not None:
                self.errors.append(error)
            if next(self.finished) == self.count - 1:
                self.done.set()


class _Pool:
    """Worker threads started on first use, waiting on one queue of jobs."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self.workers: list[threading.Thread] = []
        self.lock = threading.Lock()

    def ensure(self, count: int) -> None:
        with self.lock:
            while len(self.workers) < count:
                worker = threading.Thread(
                    target=self._serve, name="xsparse-worker", daemon=True
                )
                worker.start()
                self.workers.append(worker)

    def _serve(self) -> None:
        while True:
            self.jobs.get().work()

    def run(self, job: _Job, threads: int) -> None:
        helpers = min(threads, job.count) - 1
        self.ensure(helpers)
        for _ in range(helpers):
            self.jobs.put(job)
        job.work()
        job.done.wait()


_pool = _Pool()


def _reset_after_fork() -> None:
    global _pool
    _pool = _Pool()


os.register_at_fork(after_in_child=_reset_after_fork)


def _run(
    body: int, context: int, lo: int, hi: int, work: int | None, width: int
) -> int:
    """`xsparse_parallel_run`: run the chunks of `[lo, hi)`; how many ran."""
    try:
        threads = get_num_threads()
        pieces = min(hi - lo, threads * CHUNKS_PER_THREAD, MAX_CHUNKS)
        bounds = chunk_bounds(lo, hi, pieces, _positions(work, lo, hi, width))
        job = _Job(_body(body), context, bounds)
        _pool.run(job, threads)
        if job.errors:
            fail(job.errors[0])
        return job.count
    except Exception as error:  # nothing may unwind into native code
        fail(error)
        return 0


_RUN_TYPE = ctypes.CFUNCTYPE(
    ctypes.c_int64,
    ctypes.c_void_p,
    ctypes.c_void_p,
    ctypes.c_int64,
    ctypes.c_int64,
    ctypes.c_void_p,
    ctypes.c_int64,
)
_registered: list[Any] = []


def register() -> None:
    """Make the runtime's symbols resolvable by every module the JIT loads."""
    if _registered:
        return
    callback = _RUN_TYPE(_run)
    _registered.append(callback)
    address = ctypes.cast(callback, ctypes.c_void_p).value
    assert address is not None
    llvm.add_symbol(_RUN, address)
    base = ctypes.addressof(_settings)
    llvm.add_symbol(_NUM_THREADS, base)
    llvm.add_symbol(_GRAIN, base + ctypes.sizeof(ctypes.c_int64))
