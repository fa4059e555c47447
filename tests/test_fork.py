"""Forks at any moment and Ctrl-C on threads: the child of a fork made while
the process is idle, while another thread compiles, or while a parallel
kernel runs on the pool compiles and runs kernels (on one thread and on
several) with numpy's results, and the parent goes on unaffected; a
SIGINT during a long parallel kernel is a KeyboardInterrupt once the kernel
has returned, and the next call is right; the thread count is capped and the
pool shrinks when it is lowered.

Each test runs a script in a child process (its own session, under an
address-space limit, killed with everything it forked past a timeout): a
fork that hangs fails the test instead of blocking the run. Inside, every
fork's child is waited for with a timeout too and reported as a hang."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or sys.platform != "linux",
    reason="fork and the native pool are Linux's",
)

_ROOT = Path(__file__).resolve().parent.parent

PRELUDE = '''
import os, signal, sys, threading, time, warnings
import numpy as np
import xsparse
from xsparse.backend import threads

warnings.filterwarnings("ignore", category=DeprecationWarning)  # fork + threads

SUM = """
func.func @sum(%v: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant SEED.0 : f64
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f64 {
    %x = memref.load %v[%i] : memref<?xf64>
    scf.reduce(%x : f64) {
    ^bb0(%a: f64, %b: f64):
      %s = arith.addf %a, %b : f64
      scf.reduce.return %s : f64
    }
  }
  return %r : f64
}
"""

HEAVY = """
func.func @heavy(%out: memref<?xf64>, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %out, %c0 : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %s = scf.for %j = %c0 to %m step %c1 iter_args(%acc = %zero) -> (f64) {
      %k = arith.addi %i, %j : index
      %ki = arith.index_cast %k : index to i64
      %x = arith.sitofp %ki : i64 to f64
      %t = arith.addf %acc, %x : f64
      scf.yield %t : f64
    }
    memref.store %s, %out[%i] : memref<?xf64>
    scf.reduce
  }
  return
}
"""


def summing(seed):
    """A parallel sum (a reduction on the pool) whose IR differs per seed:
    each seed is a new compile."""
    return xsparse.compile(SUM.replace("SEED", str(seed)))


def heavy_expected(rows, m):
    """out[i] = sum of i + j for j < m (exact in f64 below 2**53)."""
    i = np.arange(rows, dtype=np.int64)
    return (m * i + m * (m - 1) // 2).astype(np.float64)


V = np.random.default_rng(0).integers(0, 1000, 50_000).astype(np.float64)


def check_kernels(seed):
    """Compile a new kernel and run it and an old one on threads and on one
    thread; True when every result is numpy's."""
    old = summing(0)
    new = summing(seed)
    ok = True
    for count in (1, 2):
        threads.set_num_threads(count)
        ok &= old(V, len(V)) == V.sum()
        ok &= new(V, len(V)) == V.sum() + seed
        out = np.zeros(6)
        xsparse.compile(HEAVY)(out, 1000)
        ok &= np.array_equal(out, heavy_expected(6, 1000))
    return bool(ok)


def run_child(seed):
    """In a forked child: check_kernels, exit 0 when right, 1 when wrong."""
    try:
        ok = check_kernels(seed)
    except BaseException:
        import traceback

        traceback.print_exc()
        ok = False
    sys.stdout.flush()
    os._exit(0 if ok else 1)


def wait_child(pid, limit=60.0):
    """'ok', 'wrong', or 'hang' (then the child is killed)."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return "ok" if os.waitstatus_to_exitcode(status) == 0 else "wrong"
        time.sleep(0.005)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return "hang"


threads.set_grain(0)  # every loop of two or more iterations on the pool
threads.set_num_threads(2)
'''


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))


def run_script(script: str, cache: Path, timeout: float = 240) -> str:
    """Run PRELUDE + `script` in a child (a new session, killed with all it
    forked past `timeout`); its output, asserting it exited with 0."""
    env = {
        **os.environ,
        "XSPARSE_CACHE_DIR": str(cache),
        "PYTHONPATH": str(_ROOT),
    }
    child = subprocess.Popen(
        [sys.executable, "-c", PRELUDE + textwrap.dedent(script)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        preexec_fn=_limit_memory,
    )
    try:
        output, _ = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        output, _ = child.communicate()
        pytest.fail(f"the script hung ({timeout} s):\n{output}")
    assert child.returncode == 0, output
    return output


def test_fork_while_idle(tmp_path: Path) -> None:
    run_script(
        """
        assert check_kernels(1)  # the pool and the compiler have run
        pid = os.fork()
        if pid == 0:
            run_child(2)
        assert wait_child(pid) == "ok"
        assert check_kernels(3)  # the parent is as it was
        """,
        tmp_path,
    )


def test_fork_while_another_thread_compiles(tmp_path: Path) -> None:
    """The fork comes at a different point of a compile in each round (in the
    sparsifier, in LLVM's optimizer or code generator, loading the module)."""
    output = run_script(
        """
        assert check_kernels(1)
        results, compiled = [], []
        for round in range(20):
            seed = 100 + round
            compiling = threading.Thread(
                target=lambda: compiled.append(summing(seed)(V, len(V)) == V.sum() + seed)
            )
            compiling.start()
            time.sleep(0.02 * (round % 10))
            pid = os.fork()
            if pid == 0:
                run_child(1000 + round)
            compiling.join()
            results.append(wait_child(pid))
        print(results)
        assert results == ["ok"] * 20, results
        assert compiled == [True] * 20  # the parent's compiles
        assert check_kernels(2)
        """,
        tmp_path,
    )
    assert output.count("'ok'") == 20


@pytest.mark.parametrize("count", [2, 4])
def test_fork_while_a_parallel_kernel_runs(tmp_path: Path, count: int) -> None:
    """Another thread runs a kernel on `count` threads (workers mid-chunk,
    some waiting for a seat) when the fork comes: the child's pool is a new
    one, never the parent's job in flight."""
    run_script(
        f"""
        assert check_kernels(1)
        heavy = xsparse.compile(HEAVY)
        rows, m = 4 * {count}, 1_000_000
        expected = heavy_expected(rows, m)
        results, parent = [], []

        def run_heavy():
            threads.set_num_threads({count})
            for _ in range(3):
                out = np.zeros(rows)
                heavy(out, m)
                parent.append(np.array_equal(out, expected))

        for round in range(20):
            running = threading.Thread(target=run_heavy)
            running.start()
            time.sleep(0.003 * (round % 7))
            pid = os.fork()
            if pid == 0:
                run_child(2000 + round)
            running.join()
            results.append(wait_child(pid))
        print(results)
        assert results == ["ok"] * 20, results
        assert parent == [True] * 60
        assert check_kernels(3)
        """,
        tmp_path,
    )


def test_multiprocessing_fork_pool_runs_kernels(tmp_path: Path) -> None:
    """multiprocessing's 'fork' start method, its workers forked while the
    parent's pool has threads and another thread compiles."""
    run_script(
        """
        import multiprocessing

        def task(seed):
            return check_kernels(seed)

        assert check_kernels(1)
        compiling = threading.Thread(target=lambda: summing(7)(V, len(V)))
        compiling.start()
        with multiprocessing.get_context("fork").Pool(2) as pool:
            done = pool.map_async(task, range(10, 18)).get(timeout=120)
        compiling.join()
        assert done == [True] * 8, done
        assert check_kernels(2)
        """,
        tmp_path,
    )


def test_sigint_during_a_parallel_kernel(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT from another thread, as a terminal sends it to the
    process) while a kernel of about a second runs on 2 threads: the kernel
    finishes (its output is whole), KeyboardInterrupt comes after it
    returns, and the next calls are right. The pool's workers block the
    asynchronous signals, so that one goes to a Python thread."""
    run_script(
        """
        from pathlib import Path

        heavy = xsparse.compile(HEAVY)
        rows, m = 32, 15_000_000
        others = set(os.listdir("/proc/self/task"))  # BLAS's threads among them
        out = np.zeros(rows)
        start = time.monotonic()
        heavy(out, m)
        alone = time.monotonic() - start
        assert np.array_equal(out, heavy_expected(rows, m))
        interrupted, sent = False, threading.Event()

        def press_ctrl_c():
            os.kill(os.getpid(), signal.SIGINT)
            sent.set()

        out = np.zeros(rows)
        timer = threading.Timer(alone / 4, press_ctrl_c)
        timer.start()
        try:
            heavy(out, m)
            sent.wait(60)
            time.sleep(5)  # the interrupt comes before this ends
        except KeyboardInterrupt:
            interrupted = True
        timer.join()
        assert interrupted
        assert np.array_equal(out, heavy_expected(rows, m))
        for _ in range(3):
            again = np.zeros(rows)
            heavy(again, m // 10)
            assert np.array_equal(again, heavy_expected(rows, m // 10))
        assert check_kernels(4)
        def blocked(task):
            status = Path(f"/proc/self/task/{task}/status").read_text()
            return int(status.split("SigBlk:")[1].split()[0], 16)

        def settled(task):  # the mask once it runs (glibc starts it all blocked)
            end = time.monotonic() + 10
            while blocked(task) & (1 << 32) and time.monotonic() < end:
                time.sleep(0.01)  # SIGSETXID: blocked only while it starts
            return blocked(task)

        def steady_tasks():
            # a thread just joined (compile's deep-stack thread) may still
            # be listed for a moment, with no signal blocked
            seen = set(os.listdir("/proc/self/task"))
            for _ in range(200):
                time.sleep(0.05)
                now = set(os.listdir("/proc/self/task"))
                if now == seen:
                    return now
                seen = now
            return seen

        workers = steady_tasks() - others
        assert workers
        for task in workers:
            mask = settled(task)
            assert mask & (1 << (signal.SIGINT - 1)), (task, hex(mask))
            assert not mask & (1 << (signal.SIGSEGV - 1)), (task, hex(mask))
        """,
        tmp_path,
    )


def test_the_thread_count_is_capped_and_the_pool_shrinks(tmp_path: Path) -> None:
    """set_num_threads(1000) warns and caps at MAX_THREADS_PER_CORE per core;
    lowering it to 2 ends the surplus workers (counted in /proc/self/task)."""
    run_script(
        """
        def tasks():
            return len(os.listdir("/proc/self/task"))

        def settle(expected):
            end = time.monotonic() + 20
            while tasks() != expected and time.monotonic() < end:
                time.sleep(0.01)
            return tasks()

        def steady():
            # a thread that has just been joined (compile's deep-stack
            # thread) may still be listed for a moment
            seen = tasks()
            for _ in range(200):
                time.sleep(0.02)
                if tasks() == seen:
                    return seen
                seen = tasks()
            return seen

        heavy = xsparse.compile(HEAVY)
        rows, m = 64, 10_000
        expected = heavy_expected(rows, m)
        base = steady()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            xsparse.set_num_threads(1000)
        assert [w.category for w in caught] == [RuntimeWarning], caught
        cap = threads.max_threads()
        assert xsparse.get_num_threads() == cap == 4 * os.cpu_count()
        out = np.zeros(rows)
        heavy(out, m)
        assert np.array_equal(out, expected)
        assert base < tasks() <= base + cap - 1
        for count in (2, 1, 3, 2):
            lower = count - 1 < tasks() - base
            xsparse.set_num_threads(count)
            if lower:  # the pool shrinks when asked, before any call
                assert settle(base + count - 1) == base + count - 1, (count, tasks())
            out = np.zeros(rows)
            heavy(out, m)
            assert np.array_equal(out, expected)
            assert settle(base + count - 1) == base + count - 1, (count, tasks())
        """,
        tmp_path,
    )


def test_fork_while_another_thread_holds_the_python_locks(tmp_path: Path) -> None:
    """A thread of the parent holding the kernel cache's lock or the spare
    copies' lock at the fork (as while it compiles or calls): the child has
    new locks and compiles and calls kernels."""
    run_script(
        """
        from xsparse.backend import kernel, outputs

        assert check_kernels(1)
        for held in (kernel._kernels_lock, outputs._spare_copies._lock):
            taken, release = threading.Event(), threading.Event()

            def hold(lock=held):
                with lock:
                    taken.set()
                    release.wait()

            holder = threading.Thread(target=hold)
            holder.start()
            taken.wait()
            pid = os.fork()
            if pid == 0:
                run_child(7)
            release.set()
            holder.join()
            assert wait_child(pid) == "ok"
        """,
        tmp_path,
    )
