"""xsparse's loggers (Python's `logging`): `xsparse` and its children.

`xsparse.compile` reports the stages of a compile and the seconds each took:
at DEBUG, each pass of the sparsifier, lowering to the llvm dialect and to
LLVM IR text, LLVM's parsing, optimization and object emission, loading
into the JIT, and memory / disk cache hits and misses; at INFO, one line per module that LLVM compiled. As a
library, xsparse configures no handler but a `NullHandler`; to see them:

    import logging
    logging.basicConfig()
    logging.getLogger("xsparse").setLevel(logging.DEBUG)
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Generator

logging.getLogger("xsparse").addHandler(logging.NullHandler())

COMPILE_LOGGER = logging.getLogger("xsparse.compile")
"""Compile stages and their times, cache hits and misses."""


@contextlib.contextmanager
def log_time(
    logger: logging.Logger, stage: str, *args: object, level: int = logging.DEBUG
) -> Generator[None]:
    """Log `stage` (a %-format of `args`) and the seconds it took, once it
    ends without an error."""
    start = time.perf_counter()
    yield
    if logger.isEnabledFor(level):
        seconds = time.perf_counter() - start
        logger.log(level, f"{stage}: %.3f s", *args, seconds)
