"""The JIT's caches, the LLVM IR it is given, and calls from several threads."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import numpy as np
import pytest
from test_backend_kernels import SPMV, compile_mlir
from xdsl.dialects.builtin import FunctionType, i64

from xsparse.backend import jit
from xsparse.backend.abi import Guard


def test_second_compile_hits_the_memory_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XSPARSE_CACHE_DIR", str(tmp_path))
    first = compile_mlir(SPMV, opt_level=2)
    assert list(tmp_path.glob("*.o"))
    assert compile_mlir(SPMV, opt_level=2) is first
    assert compile_mlir(SPMV, opt_level=1) is not first


def test_new_process_hits_the_disk_cache(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import numpy as np
        from xsparse.backend import jit
        from tests.test_backend_kernels import SPMV, compile_mlir
        if {mode!r} == "warm":
            def refuse(ir, opt_level):
                raise AssertionError("LLVM ran although the disk cache has the object")
            jit._optimize = refuse
        f = compile_mlir(SPMV).function("spmv")
        y = np.zeros(2)
        f(np.array([0, 1, 2]), np.array([1, 0]), np.array([2.0, 3.0]), np.array([5.0, 7.0]), y)
        print(y.tolist())
        """
    )
    env = {**os.environ, "XSPARSE_CACHE_DIR": str(tmp_path)}
    root = Path(__file__).resolve().parent.parent
    outputs = []
    for mode in ("cold", "warm"):
        done = subprocess.run(
            [sys.executable, "-c", script.replace("{mode!r}", repr(mode))],
            env=env,
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.append(done.stdout.strip())
    assert outputs == ["[14.0, 15.0]", "[14.0, 15.0]"]
    assert len(list(tmp_path.glob("*.o"))) == 1


def test_llvm_ir_text_with_a_signature() -> None:
    ir = "define i64 @twice(i64 %x) {\n  %y = mul i64 %x, 2\n  ret i64 %y\n}\n"
    module = jit.compile(
        ir, signatures={"twice": FunctionType.from_lists([i64], [i64])}
    )
    assert module.function("twice")(21) == 42


def test_calls_from_threads_release_the_gil() -> None:
    f = compile_mlir(SPMV).function("spmv")
    n = 200
    pos = np.arange(n + 1, dtype=np.int64)
    crd = np.arange(n, dtype=np.int64)
    val = np.full(n, 2.0)
    x = np.arange(n, dtype=np.float64)
    results = [np.zeros(n) for _ in range(8)]
    threads = [threading.Thread(target=f, args=(pos, crd, val, x, y)) for y in results]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for y in results:
        np.testing.assert_array_equal(y, 2 * x)


def test_checked_entry_runs_the_function_only_when_no_guard_fails() -> None:
    """A guard returns true to stop the call: the function does not run, its
    results are not read, and the call returns None."""
    ir = textwrap.dedent(
        """
        define i64 @scaled(i64 %x, i64 %k) {
          %r = mul i64 %x, %k
          ret i64 %r
        }
        define i1 @negative(i64 %k) {
          %f = icmp slt i64 %k, 0
          ret i1 %f
        }
        """
    )
    signature = FunctionType.from_lists([i64, i64], [i64])
    module = jit.compile(
        ir,
        signatures={"scaled": signature},
        guards={"scaled": [Guard("negative", 1, 1)]},
    )
    checked = module.function("scaled", checked=True)
    assert checked(3, 4) == 12
    assert checked(3, -1) is None
    assert checked(5, 2) == 10  # a failed call leaves nothing behind
    assert module.function("scaled")(3, -1) == -3  # the unchecked entry
