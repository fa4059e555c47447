"""Adversarial cases (`xsparse.testing.adversarial_cases`), two seeds of each
kind: huge and overflowing allocations, integer division by zero and
INT_MIN / -1, results that overflow narrow widths, refused calls with `out=`,
deep IR, quoted names, undecodable input, a tampered cache, forks, thread
counts and shapes. Each runs as a script in a child process under an
address-space limit and must end OK (numpy's result) or REFUSED (a clean
error, every argument unchanged, the process usable after); a crash, hang,
wrong result or traceback fails with the case's script."""

from __future__ import annotations

import pytest

from xsparse.testing.adversarial_cases import (
    KINDS,
    MARK,
    adversarial_case,
    check_adversarial_case,
    judge_script,
)
from xsparse.testing.outcome import Verdict

PER_KIND = 2


def seeds() -> list[int]:
    """The first PER_KIND seeds of each kind."""
    found: dict[str, list[int]] = {kind: [] for kind in KINDS}
    seed = 0
    while any(len(s) < PER_KIND for s in found.values()):
        kind, _ = adversarial_case(seed)
        if len(found[kind]) < PER_KIND:
            found[kind].append(seed)
        seed += 1
    return sorted(s for kind_seeds in found.values() for s in kind_seeds)


@pytest.mark.parametrize("seed", seeds())
def test_generated_adversarial(seed: int) -> None:
    outcome = check_adversarial_case(seed)
    if outcome.verdict not in (Verdict.OK, Verdict.REFUSED):
        pytest.fail(
            f"{outcome.verdict.value.upper()}: {outcome.detail}\n\n"
            f"Reproducer:\n{outcome.reproducer}",
            pytrace=False,
        )


def test_a_crash_and_a_hang_are_told_apart() -> None:
    """The classifier itself: a script killed by a signal is a CRASH, one past
    its time a HANG, one that ends without a verdict an ERROR."""

    def verdict(script: str, timeout: float = 60.0) -> Verdict:
        return judge_script("probe", script, timeout).verdict

    assert (
        verdict("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)")
        is Verdict.CRASH
    )
    assert verdict("import time; time.sleep(30)", timeout=1.0) is Verdict.HANG
    assert verdict("raise KeyError('x')") is Verdict.ERROR
    assert verdict(f"print('{MARK} refused ValueError: no')") is Verdict.REFUSED
    assert verdict(f"print('{MARK} wrong differs')") is Verdict.WRONG
