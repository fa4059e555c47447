"""xsparse.compile caches kernels by source text and options: a second call in
the process returns the same Kernel, and a new process loads the object code
and signatures from the disk cache without parsing or running any pass."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

import xsparse

KERNEL = (Path(__file__).parent / "kernels" / "spmv_csr.mlir").read_text()

NEW_PROCESS = """
import numpy as np, scipy.sparse as sp
import xsparse.backend.kernel as kernel

def refuse(*args, **kwargs):
    raise AssertionError("compiled again instead of loading from the disk cache")

kernel._compile_kernel = refuse
k = kernel.compile(SOURCE)
a = sp.csr_array(np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]]))
print(k(a, np.array([1.0, 2.0, 3.0]), np.zeros(2)).tolist())
"""


FIRST_PROCESS = """
import numpy as np, scipy.sparse as sp
import xsparse
k = xsparse.compile(SOURCE)
k(sp.csr_array(np.eye(2)), np.ones(2), np.zeros(2))  # and its int32 variant
"""


def test_same_process_returns_the_same_kernel() -> None:
    assert xsparse.compile(KERNEL) is xsparse.compile(KERNEL)
    assert xsparse.compile(KERNEL) is not xsparse.compile(KERNEL, opt_level=2)


def test_new_process_loads_from_disk(tmp_path: Path) -> None:
    env = {**os.environ, "XSPARSE_CACHE_DIR": str(tmp_path)}
    first = subprocess.run(
        [sys.executable, "-c", f"SOURCE = {KERNEL!r}\n" + FIRST_PROCESS],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert first.returncode == 0
    assert any(p.suffix == ".json" for p in tmp_path.iterdir())
    second = subprocess.run(
        [sys.executable, "-c", f"SOURCE = {KERNEL!r}\n" + NEW_PROCESS],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert second.stdout.strip() == str(np.array([7.0, 6.0]).tolist())
