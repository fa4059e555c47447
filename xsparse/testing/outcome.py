"""The verdict on one generated test case, shared by the generators and `tools/fuzz.py`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Verdict(Enum):
    """What happened to one case."""

    OK = "ok"
    """It ran and agreed with the reference."""
    REFUSED = "refused"
    """xsparse refused it with a located diagnostic naming what is unsupported."""
    WRONG = "wrong"
    """It ran and disagreed with the reference."""
    ERROR = "error"
    """An internal error, a raw Python exception, or a diagnostic without a location."""
    CRASH = "crash"
    """The process running it was killed by a signal or aborted."""
    HANG = "hang"
    """No verdict within its time limit."""


@dataclass(frozen=True)
class CaseOutcome:
    """The verdict on one case, with what a developer needs to reproduce it."""

    verdict: Verdict
    detail: str
    """The diagnostic, the difference from the reference, or the traceback."""
    reproducer: str
    """Self-contained text that reproduces the case (the MLIR source and how its data is made)."""
