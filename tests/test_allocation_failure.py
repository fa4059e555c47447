"""A heap allocation that compiled code cannot make is a MemoryError naming
the kernel and the bytes asked for (`xsparse-run`: `xsparse-run: error:`
and exit status 1), never a crash, and the process runs the next kernel
correctly (`convert_to_llvm.allocation_failures`).

Each case runs in a child process whose address space is limited
(RLIMIT_AS), so that `malloc` really fails and nothing can take the
machine's memory; sizes past 2^64 bytes fail by the overflow check.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

LIMIT = 3 << 30
"""The child's address space (bytes)."""

_PRELUDE = f"""
import resource
resource.setrlimit(resource.RLIMIT_AS, ({LIMIT}, {LIMIT}))
import numpy as np
import scipy.sparse as sp
import xsparse
from xsparse.backend import threads

def expect_memory_error(call, needle):
    try:
        call()
    except MemoryError as error:
        assert needle in str(error), str(error)
        print("MemoryError:", error)
    else:
        raise AssertionError("no MemoryError")
"""


def _child(code: str) -> str:
    """Run `code` (after `_PRELUDE`) in a child process; its stdout."""
    done = subprocess.run(
        [sys.executable, "-c", _PRELUDE + code],
        capture_output=True,
        text=True,
        timeout=900,
        env=os.environ.copy(),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


_SPGEMM_THEN_CORRECT = """
A = sp.csr_matrix(np.arange(1.0, {rows} * 4 + 1).reshape({rows}, 4))
B = sp.csr_matrix(([1.0, 2.0], ([0, 3], [5, {cols} - 1])), shape=(4, {cols}))
for _ in range(3):
    expect_memory_error(lambda: xsparse.einsum("ik,kj->ij", A, B), "{needle}")
C = sp.random(4, 50, density=0.3, format="csr", random_state=0)
r = xsparse.einsum("ik,kj->ij", A, C)
assert abs(sp.csr_matrix(r) - A @ C).max() < 1e-12
print("correct after")
"""


def test_spgemm_row_workspace_too_large() -> None:
    # scipy raises MemoryError for this product; the row workspace (2^36
    # slots of 8 bytes) cannot be had under the limit.
    out = _child(
        _SPGEMM_THEN_CORRECT.format(
            rows=2, cols=2**36, needle="cannot allocate 549755813888 bytes"
        )
    )
    assert out.count("MemoryError: kernel(): cannot allocate") == 3
    assert "correct after" in out


def test_spgemm_on_threads_per_chunk_calloc_fails() -> None:
    # Two threads, chunks of one row: each chunk callocs its own workspace
    # (its values: 8 bytes a column, 2^36 columns), on the pool's
    # threads and on the caller's; the caller stops after the loop.
    code = "threads.set_num_threads(2)\nthreads.set_grain(1)\n"
    code += _SPGEMM_THEN_CORRECT.format(
        rows=400, cols=2**36, needle="cannot allocate 549755813888 bytes"
    )
    out = _child(code)
    assert out.count("MemoryError: kernel(): cannot allocate") == 3
    assert "correct after" in out


_DENSE = """
func.func @dense(%n: index, %m: index) -> tensor<?x?xf64> {
  %one = arith.constant 1.0 : f64
  %e = tensor.empty(%n, %m) : tensor<?x?xf64>
  %f = linalg.fill ins(%one : f64) outs(%e : tensor<?x?xf64>) -> tensor<?x?xf64>
  return %f : tensor<?x?xf64>
}
"""


@pytest.mark.parametrize(
    ("n", "m", "needle"),
    [
        (100_000, 100_000, "cannot allocate 80000000000 bytes"),
        (2**61, 4, "cannot allocate a size that overflows 64 bits"),
        (2**40, 2**40, "cannot allocate a size that overflows 64 bits"),
    ],
    ids=["over-the-limit", "bytes-wrap", "elements-wrap"],
)
def test_dense_result_too_large(n: int, m: int, needle: str) -> None:
    code = f"""
kernel = xsparse.compile({_DENSE!r})
expect_memory_error(lambda: kernel({n}, {m}), "dense(): {needle}")
assert (kernel(3, 2) == 1.0).all() and kernel(3, 2).shape == (3, 2)
print("correct after")
"""
    out = _child(code)
    assert "correct after" in out


_RUN = """
func.func @main() {{
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f64
  %t = tensor.empty() : tensor<{shape}xf64>
  %u = linalg.fill ins(%f : f64) outs(%t : tensor<{shape}xf64>) -> tensor<{shape}xf64>
  %v = tensor.extract %u[%c0, %c0] : tensor<{shape}xf64>
  vector.print %v : f64
  return
}}
"""


def _run(tmp_path: Path, shape: str) -> subprocess.CompletedProcess[str]:
    """`xsparse-run` on a kernel filling a dense tensor of `shape`, in a
    child under the limit."""
    source = tmp_path / "kernel.mlir"
    source.write_text(_RUN.format(shape=shape))
    limited_runner = (
        "import resource, sys\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({LIMIT}, {LIMIT}))\n"
        "from xsparse.tools.run import main\n"
        "sys.exit(main())"
    )
    return subprocess.run(
        [sys.executable, "-c", limited_runner, str(source), "-e", "main"]
        + ["-entry-point-result=void"],
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_runner_reports_and_exits(tmp_path: Path) -> None:
    done = _run(tmp_path, "100000x100000")
    assert done.returncode == 1
    assert done.stderr == (
        "xsparse-run: error: main(): cannot allocate 80000000000 bytes\n"
    )
    done = _run(tmp_path, "10x10")
    assert (done.returncode, done.stdout) == (0, "1\n")


_TWO = """
func.func @two(%n: index, %m: index) -> (tensor<?xf64>, tensor<?xf64>) {
  %one = arith.constant 1.0 : f64
  %a = tensor.empty(%n) : tensor<?xf64>
  %fa = linalg.fill ins(%one : f64) outs(%a : tensor<?xf64>) -> tensor<?xf64>
  %b = tensor.empty(%m) : tensor<?xf64>
  %fb = linalg.fill ins(%one : f64) outs(%b : tensor<?xf64>) -> tensor<?xf64>
  return %fa, %fb : tensor<?xf64>, tensor<?xf64>
}
"""


def test_failed_call_frees_what_it_allocated() -> None:
    # The first result (80 MB) is allocated, the second (8 TiB) is not: the
    # exit frees the first. Leaked, 200 calls would take 16 GB; the address
    # space would run out and the 80 MB allocation fail.
    code = f"""
from pathlib import Path

def address_space_mib():
    status = Path("/proc/self/status").read_text().splitlines()
    return next(int(l.split()[1]) // 1024 for l in status if l.startswith("VmSize:"))

kernel = xsparse.compile({_TWO!r})
expect_memory_error(lambda: kernel(10_000_000, 2**40), "8796093022208 bytes")
before = address_space_mib()
for _ in range(200):
    expect_memory_error(lambda: kernel(10_000_000, 2**40), "8796093022208 bytes")
print("growth", address_space_mib() - before)
a, b = kernel(3, 2)
assert (a == 1).all() and (b == 1).all() and (a.shape, b.shape) == ((3,), (2,))
"""
    out = _child(code)
    growth = int(out.split("growth ")[1].split()[0])
    assert growth < 200, out[-500:]


_FILL_THEN = """
func.func @fill_then(%y: tensor<?xf64>, %m: index) -> (tensor<?xf64>, tensor<?xf64>) {
  %one = arith.constant 1.0 : f64
  %fy = linalg.fill ins(%one : f64) outs(%y : tensor<?xf64>) -> tensor<?xf64>
  %b = tensor.empty(%m) : tensor<?xf64>
  %fb = linalg.fill ins(%one : f64) outs(%b : tensor<?xf64>) -> tensor<?xf64>
  return %fy, %fb : tensor<?xf64>, tensor<?xf64>
}
"""


def test_array_written_in_place_is_put_back() -> None:
    # The kernel fills y (in place) before its allocation fails: a kernel
    # that may fail an allocation saves the arrays it writes first.
    code = f"""
kernel = xsparse.compile({_FILL_THEN!r})
assert kernel.written == (0,)
y = np.arange(5.0)
expect_memory_error(lambda: kernel(y, 2**40), "fill_then(): cannot allocate")
assert (y == np.arange(5.0)).all(), y
fy, b = kernel(y, 3)
assert (y == 1).all() and (b == 1).all() and b.shape == (3,)
print("kept")
"""
    assert "kept" in _child(code)
