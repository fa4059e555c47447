"""A pool of native threads written in LLVM IR: `xsparse_parallel_run`.

Compiled once per process (through the JIT's caches) into its own module;
kernel modules resolve `xsparse_parallel_run` to it (`threads.register`).
It uses nothing but libc: `pthread_create` for the workers, the `futex`
system call to sleep and wake, and LLVM's atomics.

`xsparse_parallel_run(body, ctx, lo, hi, work, width, step) -> chunks`
(the iterations are lo, lo + step, ... below hi):

1. The caller takes the pool (`busy`, a compare-and-swap); when another
   thread holds it, the loop runs on the caller alone (one chunk).
2. It cuts `[lo, hi)` into `min(hi - lo, 4 x threads, 256)` chunks of about
   equal work (`xsparse_parallel_bounds`: a binary search for each cut in
   the positions buffer `work` of `width`-byte entries, so that rows are
   split by stored entries; even ranges without one), none empty, each
   starting at an iteration (lo plus a multiple of `step`).
3. It fences (non-temporal stores it made alone, in an earlier loop, are
   visible to the workers), publishes the job (body, context, bounds, `limit` = generation << 32 |
   chunks, `seats` = generation << 32 | threads - 1), resets the chunk
   counter `next` to generation << 32, bumps `generation` and wakes the
   workers (started on first need, never more than threads - 1).
4. Every thread, the caller included, takes chunk k by a compare-and-swap
   of `next` that succeeds only while `next` still belongs to its
   generation, so no thread consumes a chunk of a job it does not serve;
   it runs `body(ctx, bounds[k], bounds[k+1], k)`, fences (`fence seq_cst`:
   the chunk's non-temporal stores, which x86 does not order with later
   stores, are visible before it counts) and counts it in `done`.
   The one finishing the last chunk wakes the caller, which sleeps on `done`
   (after spinning `SPINS` loads: chunks are short).
5. The caller returns the number of chunks once `done` has them all (no
   worker touches the context, on the caller's stack, after that).

A worker sleeps on `generation` while it has seen the current one; it joins
a job only by taking a seat (at most threads - 1 helpers per job, so that
`set_num_threads` also lowers the count after more workers were started).
After each generation it leaves (its thread ends) while the pool has more
workers than the helpers last asked for (`keep`: the last job's, or
`xsparse_pool_resize`'s, which `set_num_threads` calls to shrink an idle
pool). Workers start with the asynchronous signals blocked: a signal
(Ctrl-C) goes to a thread of the program, never to one that runs no Python;
a fault of the worker's own (SIGSEGV, SIGFPE, ...) is its own as before.

`xsparse_pool_reset` puts every word back as a fresh pool has it (no
workers, no job, not busy): the child of a fork, which has none of the
parent's threads, calls it before anything else, so that its first parallel
loop starts workers of its own and never serves the job the parent had in
flight.
"""

from __future__ import annotations

import platform
import signal

_FUTEX = {"x86_64": 202, "AMD64": 202, "aarch64": 98, "arm64": 98}
"""The futex system call's number on Linux, per machine."""

RUN = "xsparse_parallel_run"
BOUNDS = "xsparse_parallel_bounds"
NUM_THREADS = "xsparse_num_threads"
WORKERS = "xsparse_pool_workers"
BUSY = "xsparse_pool_busy"
RESET = "xsparse_pool_reset"
RESIZE = "xsparse_pool_resize"

_SIG_BLOCK, _SIG_SETMASK = 0, 2
_SIGSET_WORDS = 16
"""Linux's `pthread_sigmask` `how` values and its `sigset_t` (1024 bits)."""

_SYNCHRONOUS = (
    signal.SIGILL,
    signal.SIGTRAP,
    signal.SIGABRT,
    signal.SIGBUS,
    signal.SIGFPE,
    signal.SIGSEGV,
)
"""Signals a thread raises on itself (a fault, `abort`): left unblocked in
workers, so that a crash there is reported as one (faulthandler)."""

_BLOCKED_LOW = ~sum(1 << (s - 1) for s in _SYNCHRONOUS)
"""The first word of the workers' blocked set (signal n is bit n - 1), as a
signed i64."""


def available() -> bool:
    """Whether this machine can run the native pool (Linux, known futex)."""
    return platform.system() == "Linux" and platform.machine() in _FUTEX


SPINS = 20_000
"""Loads of a futex word before sleeping on it (about 20-50 us): a caller
waiting for the last chunk, or a worker between the loops of one kernel
call, keeps its core instead of going through the scheduler, which on a
loaded machine can take milliseconds to give it back."""


_SPIN_HINT = {
    "x86_64": "call void @llvm.x86.sse2.pause()",
    "AMD64": "call void @llvm.x86.sse2.pause()",
    "aarch64": 'call void asm sideeffect "yield", ""()',
    "arm64": 'call void asm sideeffect "yield", ""()',
}
"""Tells the core that a thread spins (x86 `pause`, Arm `yield`): a spinning
worker leaves more of a shared physical core to the thread beside it."""


def pool_ir(max_chunks: int, chunks_per_thread: int) -> str:
    """The module defining `xsparse_parallel_run` and `xsparse_parallel_bounds`."""
    futex = _FUTEX[platform.machine()]
    hint = _SPIN_HINT[platform.machine()]
    pause_declaration = "declare void @llvm.x86.sse2.pause()" if "x86" in hint else ""
    return f"""
@{NUM_THREADS} = external global i64
@{BUSY} = global i32 0
@{WORKERS} = global i64 0
@pool.generation = internal global i32 0
@pool.next = internal global i64 0
@pool.limit = internal global i64 0
@pool.seats = internal global i64 0
@pool.keep = internal global i64 0
@pool.done = internal global i32 0
@pool.body = internal global ptr null
@pool.ctx = internal global ptr null
@pool.bounds = internal global [{max_chunks + 1} x i64] zeroinitializer

declare i64 @syscall(i64, ...)
{pause_declaration}
declare i32 @pthread_create(ptr, ptr, ptr, ptr)
declare i32 @pthread_detach(i64)
declare i32 @pthread_sigmask(i32, ptr, ptr)

define internal void @pool.wait(ptr %word, i32 %expected) {{
  %e = zext i32 %expected to i64
  %r = call i64 (i64, ...) @syscall(i64 {futex}, ptr %word, i64 128, i64 %e, ptr null)
  ret void
}}

define internal void @pool.wake(ptr %word, i64 %count) {{
  %r = call i64 (i64, ...) @syscall(i64 {futex}, ptr %word, i64 129, i64 %count)
  ret void
}}

; Wait until *word differs from %from (spinning SPINS loads, then asleep on
; the futex); the value it then holds.
define internal i32 @pool.await_change(ptr %word, i32 %from) {{
entry:
  br label %check
check:
  %spins = phi i64 [0, %entry], [%spins1, %spin], [0, %sleep]
  %now = load atomic i32, ptr %word acquire, align 4
  %same = icmp eq i32 %now, %from
  br i1 %same, label %idle, label %changed
idle:
  %spins1 = add i64 %spins, 1
  %patient = icmp ult i64 %spins1, {SPINS}
  br i1 %patient, label %spin, label %sleep
spin:
  {hint}
  br label %check
sleep:
  call void @pool.wait(ptr %word, i32 %from)
  br label %check
changed:
  ret i32 %now
}}

define internal i64 @pool.position(ptr %work, i64 %width, i64 %i) {{
entry:
  %wide = icmp eq i64 %width, 8
  br i1 %wide, label %w8, label %w4
w8:
  %p8 = getelementptr i64, ptr %work, i64 %i
  %v8 = load i64, ptr %p8
  ret i64 %v8
w4:
  %p4 = getelementptr i32, ptr %work, i64 %i
  %v4 = load i32, ptr %p4
  %z4 = zext i32 %v4 to i64
  ret i64 %z4
}}

; The first i in [lo, hi] with work[i] >= target (lower bound).
define internal i64 @pool.lower_bound(ptr %work, i64 %width, i64 %lo, i64 %hi, i64 %target) {{
entry:
  br label %loop
loop:
  %a = phi i64 [%lo, %entry], [%a.next, %step]
  %b = phi i64 [%hi, %entry], [%b.next, %step]
  %more = icmp ult i64 %a, %b
  br i1 %more, label %probe, label %done
probe:
  %span = sub i64 %b, %a
  %half = lshr i64 %span, 1
  %mid = add i64 %a, %half
  %v = call i64 @pool.position(ptr %work, i64 %width, i64 %mid)
  %below = icmp ult i64 %v, %target
  %mid1 = add i64 %mid, 1
  %a.next = select i1 %below, i64 %mid1, i64 %a
  %b.next = select i1 %below, i64 %b, i64 %mid
  br label %step
step:
  br label %loop
done:
  ret i64 %a
}}

; Cuts [lo, hi) into at most `pieces` nonempty ranges of about equal work,
; each starting at lo plus a multiple of `step`; out[0..count] are their
; bounds; returns count.
define i64 @{BOUNDS}(i64 %lo, i64 %hi, i64 %pieces, ptr %work, i64 %width, ptr %out, i64 %step) {{
entry:
  store i64 %lo, ptr %out
  %weighted = icmp ne ptr %work, null
  br i1 %weighted, label %ends, label %start
ends:
  %first.w = call i64 @pool.position(ptr %work, i64 %width, i64 %lo)
  %last.w = call i64 @pool.position(ptr %work, i64 %width, i64 %hi)
  br label %start
start:
  %first = phi i64 [0, %entry], [%first.w, %ends]
  %last = phi i64 [0, %entry], [%last.w, %ends]
  %total.w = sub i64 %last, %first
  %total.i = sub i64 %hi, %lo
  br label %loop
loop:
  %j = phi i64 [1, %start], [%j.next, %next]
  %count = phi i64 [0, %start], [%count.next, %next]
  %prev = phi i64 [%lo, %start], [%prev.next, %next]
  %more = icmp ult i64 %j, %pieces
  br i1 %more, label %cut, label %finish
cut:
  br i1 %weighted, label %by.work, label %by.count
by.work:
  %tw = mul i64 %total.w, %j
  %tw.q = udiv i64 %tw, %pieces
  %target = add i64 %first, %tw.q
  %c.w = call i64 @pool.lower_bound(ptr %work, i64 %width, i64 %lo, i64 %hi, i64 %target)
  br label %place
by.count:
  %ti = mul i64 %total.i, %j
  %ti.q = udiv i64 %ti, %pieces
  %c.i = add i64 %lo, %ti.q
  br label %place
place:
  %c.any = phi i64 [%c.w, %by.work], [%c.i, %by.count]
  %c.off = sub i64 %c.any, %lo
  %c.up = add i64 %c.off, %step
  %c.up1 = sub i64 %c.up, 1
  %c.k = udiv i64 %c.up1, %step
  %c.aligned = mul i64 %c.k, %step
  %c = add i64 %lo, %c.aligned
  %after = icmp ugt i64 %c, %prev
  %before = icmp ult i64 %c, %hi
  %keep = and i1 %after, %before
  br i1 %keep, label %append, label %next
append:
  %count1 = add i64 %count, 1
  %slot = getelementptr i64, ptr %out, i64 %count1
  store i64 %c, ptr %slot
  br label %next
next:
  %count.next = phi i64 [%count, %place], [%count1, %append]
  %prev.next = phi i64 [%prev, %place], [%c, %append]
  %j.next = add i64 %j, 1
  br label %loop
finish:
  %chunks = add i64 %count, 1
  %end = getelementptr i64, ptr %out, i64 %chunks
  store i64 %hi, ptr %end
  ret i64 %chunks
}}

; Run chunks of job `gen` until none is left.
define internal void @pool.work(i32 %gen) {{
entry:
  %gen64 = zext i32 %gen to i64
  br label %take
take:
  %v = load atomic i64, ptr @pool.next acquire, align 8
  %vgen = lshr i64 %v, 32
  %ours = icmp eq i64 %vgen, %gen64
  br i1 %ours, label %check, label %exit
check:
  %limit = load atomic i64, ptr @pool.limit acquire, align 8
  %lgen = lshr i64 %limit, 32
  %same = icmp eq i64 %lgen, %gen64
  %k = and i64 %v, 4294967295
  %count = and i64 %limit, 4294967295
  %left = icmp ult i64 %k, %count
  %go = and i1 %same, %left
  br i1 %go, label %claim, label %exit
claim:
  %v1 = add i64 %v, 1
  %pair = cmpxchg ptr @pool.next, i64 %v, i64 %v1 acq_rel acquire
  %won = extractvalue {{ i64, i1 }} %pair, 1
  br i1 %won, label %chunk, label %take
chunk:
  %body = load ptr, ptr @pool.body
  %ctx = load ptr, ptr @pool.ctx
  %lo.p = getelementptr [{max_chunks + 1} x i64], ptr @pool.bounds, i64 0, i64 %k
  %lo = load i64, ptr %lo.p
  %k1 = add i64 %k, 1
  %hi.p = getelementptr [{max_chunks + 1} x i64], ptr @pool.bounds, i64 0, i64 %k1
  %hi = load i64, ptr %hi.p
  call void %body(ptr %ctx, i64 %lo, i64 %hi, i64 %k)
  fence seq_cst
  %d = atomicrmw add ptr @pool.done, i32 1 acq_rel
  %d1 = add i32 %d, 1
  %count32 = trunc i64 %count to i32
  %last = icmp eq i32 %d1, %count32
  br i1 %last, label %wake, label %take
wake:
  call void @pool.wake(ptr @pool.done, i64 1)
  br label %take
exit:
  ret void
}}

; A worker joins job `gen` when it gets one of its seats.
define internal i1 @pool.sit(i32 %gen) {{
entry:
  %gen64 = zext i32 %gen to i64
  br label %try
try:
  %s = load atomic i64, ptr @pool.seats acquire, align 8
  %sgen = lshr i64 %s, 32
  %ours = icmp eq i64 %sgen, %gen64
  %free = and i64 %s, 4294967295
  %some = icmp ugt i64 %free, 0
  %can = and i1 %ours, %some
  br i1 %can, label %take, label %no
take:
  %s1 = sub i64 %s, 1
  %pair = cmpxchg ptr @pool.seats, i64 %s, i64 %s1 acq_rel acquire
  %won = extractvalue {{ i64, i1 }} %pair, 1
  br i1 %won, label %yes, label %try
yes:
  ret i1 true
no:
  ret i1 false
}}

; Whether a worker is one too many (more workers than `keep`): if so it
; counts itself out of `workers`.
define internal i1 @pool.leave() {{
entry:
  br label %try
try:
  %w = load atomic i64, ptr @{WORKERS} acquire, align 8
  %keep = load atomic i64, ptr @pool.keep acquire, align 8
  %surplus = icmp ugt i64 %w, %keep
  br i1 %surplus, label %out, label %no
out:
  %w1 = sub i64 %w, 1
  %pair = cmpxchg ptr @{WORKERS}, i64 %w, i64 %w1 acq_rel acquire
  %won = extractvalue {{ i64, i1 }} %pair, 1
  br i1 %won, label %yes, label %try
yes:
  ret i1 true
no:
  ret i1 false
}}

define internal ptr @pool.worker(ptr %unused) {{
entry:
  br label %wait
wait:
  %seen = phi i32 [0, %entry], [%g, %stay]
  %g = call i32 @pool.await_change(ptr @pool.generation, i32 %seen)
  %seated = call i1 @pool.sit(i32 %g)
  br i1 %seated, label %work, label %served
work:
  call void @pool.work(i32 %g)
  br label %served
served:
  %leave = call i1 @pool.leave()
  br i1 %leave, label %exit, label %stay
stay:
  br label %wait
exit:
  ret ptr null
}}

; Start a worker with the asynchronous signals blocked (it inherits the mask of the
; thread that creates it); whether it started.
define internal i1 @pool.start() {{
entry:
  %tid = alloca i64
  %all = alloca [{_SIGSET_WORDS} x i64]
  %old = alloca [{_SIGSET_WORDS} x i64]
  call void @llvm.memset.p0.i64(ptr %all, i8 -1, i64 {_SIGSET_WORDS * 8}, i1 false)
  store i64 {_BLOCKED_LOW}, ptr %all
  %b = call i32 @pthread_sigmask(i32 {_SIG_BLOCK}, ptr %all, ptr %old)
  %rc = call i32 @pthread_create(ptr %tid, ptr null, ptr @pool.worker, ptr null)
  %r = call i32 @pthread_sigmask(i32 {_SIG_SETMASK}, ptr %old, ptr null)
  %started = icmp eq i32 %rc, 0
  br i1 %started, label %detach, label %done
detach:
  %t = load i64, ptr %tid
  %d = call i32 @pthread_detach(i64 %t)
  br label %done
done:
  ret i1 %started
}}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; The pool of a process with none of its threads (the child of a fork).
define void @{RESET}() {{
entry:
  store i32 0, ptr @{BUSY}
  store i64 0, ptr @{WORKERS}
  store i32 0, ptr @pool.generation
  store i64 0, ptr @pool.next
  store i64 0, ptr @pool.limit
  store i64 0, ptr @pool.seats
  store i64 0, ptr @pool.keep
  store i32 0, ptr @pool.done
  store ptr null, ptr @pool.body
  store ptr null, ptr @pool.ctx
  ret void
}}

; Keep threads - 1 workers: when the pool is idle, a generation without a
; job (no seats) wakes them all and those beyond leave; else the job in
; flight's workers leave when it is done.
define void @{RESIZE}() {{
entry:
  %threads = load i64, ptr @{NUM_THREADS}
  %helpers = sub i64 %threads, 1
  store atomic i64 %helpers, ptr @pool.keep release, align 8
  %own = cmpxchg ptr @{BUSY}, i32 0, i32 1 acquire monotonic
  %owned = extractvalue {{ i32, i1 }} %own, 1
  br i1 %owned, label %bump, label %done
bump:
  %g0 = load i32, ptr @pool.generation
  %g = add i32 %g0, 1
  store atomic i32 %g, ptr @pool.generation release, align 4
  call void @pool.wake(ptr @pool.generation, i64 2147483647)
  store atomic i32 0, ptr @{BUSY} release, align 4
  br label %done
done:
  ret void
}}

define i64 @{RUN}(ptr %body, ptr %ctx, i64 %lo, i64 %hi, ptr %work, i64 %width, i64 %step) {{
entry:
  %own = cmpxchg ptr @{BUSY}, i32 0, i32 1 acquire monotonic
  %owned = extractvalue {{ i32, i1 }} %own, 1
  br i1 %owned, label %plan, label %alone
alone:
  call void %body(ptr %ctx, i64 %lo, i64 %hi, i64 0)
  ret i64 1
plan:
  fence seq_cst
  %threads = load i64, ptr @{NUM_THREADS}
  %span = sub i64 %hi, %lo
  %span.up = add i64 %span, %step
  %span.up1 = sub i64 %span.up, 1
  %n = udiv i64 %span.up1, %step
  %per = mul i64 %threads, {chunks_per_thread}
  %lt1 = icmp ult i64 %n, %per
  %p1 = select i1 %lt1, i64 %n, i64 %per
  %lt2 = icmp ult i64 %p1, {max_chunks}
  %pieces = select i1 %lt2, i64 %p1, i64 {max_chunks}
  %count = call i64 @{BOUNDS}(i64 %lo, i64 %hi, i64 %pieces, ptr %work, i64 %width, ptr @pool.bounds, i64 %step)
  %helpers = sub i64 %threads, 1
  store atomic i64 %helpers, ptr @pool.keep release, align 8
  br label %spawn
spawn:
  %have = load atomic i64, ptr @{WORKERS} acquire, align 8
  %short = icmp ult i64 %have, %helpers
  br i1 %short, label %start, label %publish
start:
  %started = call i1 @pool.start()
  br i1 %started, label %counted, label %publish
counted:
  %had = atomicrmw add ptr @{WORKERS}, i64 1 acq_rel
  br label %spawn
publish:
  %g0 = load i32, ptr @pool.generation
  %g = add i32 %g0, 1
  %g64 = zext i32 %g to i64
  %tag = shl i64 %g64, 32
  store ptr %body, ptr @pool.body
  store ptr %ctx, ptr @pool.ctx
  store atomic i32 0, ptr @pool.done release, align 4
  %limit = or i64 %tag, %count
  store atomic i64 %limit, ptr @pool.limit release, align 8
  %seats = or i64 %tag, %helpers
  store atomic i64 %seats, ptr @pool.seats release, align 8
  store atomic i64 %tag, ptr @pool.next release, align 8
  store atomic i32 %g, ptr @pool.generation release, align 4
  call void @pool.wake(ptr @pool.generation, i64 2147483647)
  call void @pool.work(i32 %g)
  %count32 = trunc i64 %count to i32
  %d0 = load atomic i32, ptr @pool.done acquire, align 4
  br label %wait
wait:
  %d = phi i32 [%d0, %publish], [%d1, %again]
  %all = icmp eq i32 %d, %count32
  br i1 %all, label %finish, label %again
again:
  %d1 = call i32 @pool.await_change(ptr @pool.done, i32 %d)
  br label %wait
finish:
  store atomic i32 0, ptr @{BUSY} release, align 4
  ret i64 %count
}}
"""
