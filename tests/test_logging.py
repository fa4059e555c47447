"""The `xsparse` loggers: a compile reports its stages and their times, and
the disk cache's hits and misses; the library adds no handler but a
NullHandler."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse
from xsparse.backend import kernel as kernel_module
from xsparse.logs import COMPILE_LOGGER

SCALE = """
// A = 3.25 A, compiled by tests/test_logging.py only (no other test shares its text).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#scale = {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSR> {
  %c = arith.constant 3.25 : f64
  %0 = linalg.generic #scale outs(%a : tensor<?x?xf64, #CSR>) {
  ^bb0(%x: f64):
    %m = arith.mulf %x, %c : f64
    linalg.yield %m : f64
  } -> tensor<?x?xf64, #CSR>
  return %0 : tensor<?x?xf64, #CSR>
}
"""

STAGES = [
    "convert-to-llvm",
    "LLVM IR text printed",
    "disk cache miss",
    "LLVM IR parsed and verified",
    "LLVM O3 pipeline",
    "object code emitted",
    "compiled by LLVM (O3)",
    "loaded into the JIT",
]


def compile_messages(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    """Level and text of what `xsparse.compile` logged during one compile."""
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="xsparse"):
        kernel = xsparse.compile(SCALE)
    dense = np.arange(12.0).reshape(3, 4) * (np.arange(12).reshape(3, 4) % 3 == 0)
    result = kernel(sp.csr_array(dense))
    np.testing.assert_allclose(result.to_scipy().toarray(), 3.25 * dense)
    return [
        (r.levelno, r.getMessage())
        for r in caplog.records
        if r.name == COMPILE_LOGGER.name
    ]


def test_compile_logs_stages_and_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("XSPARSE_CACHE_DIR", str(tmp_path))
    kernel_module.clear_memory_caches()
    cold = compile_messages(caplog)
    texts = [text for _, text in cold]
    for stage in STAGES:
        assert any(stage in text for text in texts), (stage, texts)
    timed = [text for text in texts if text.endswith(" s")]
    assert timed and all(re.search(r": \d+\.\d{3} s$", text) for text in timed)
    compiled = [text for level, text in cold if level == logging.INFO]
    assert compiled and all("compiled by LLVM" in text for text in compiled)
    # A new process (here: memory caches emptied) finds the object code on disk.
    kernel_module.clear_memory_caches()
    warm = [text for _, text in compile_messages(caplog)]
    assert any("disk cache hit" in text for text in warm)
    assert not any("compiled by LLVM" in text for text in warm)


def test_only_a_null_handler() -> None:
    handlers = logging.getLogger("xsparse").handlers
    assert handlers and all(isinstance(h, logging.NullHandler) for h in handlers)
    assert not COMPILE_LOGGER.handlers
