"""Checks over a whole run: the share of generated kernels that xsparse
refuses (`test_generated_kernels.py`), measured over every seed of the run,
also when pytest-xdist spreads the seeds over several workers (each test
reports its verdict as a user property; the controller collects them);
and the fixtures that several test files share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from xsparse.backend import threads

VERDICT_PROPERTY = "generated_verdict"
MAX_REFUSED = 0.45
"""The share of refusals the generator may reach: beyond it, it mostly tests
what xsparse does not support (or xsparse refuses more than it did)."""
MIN_SEEDS = 500
"""The rate is judged only on a run of at least this many generated kernels
(a run of a few chosen seeds says nothing about it)."""

_verdicts: dict[str, str] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "call":
        return
    for name, value in report.user_properties:
        if name == VERDICT_PROPERTY:
            _verdicts[report.nodeid] = str(value)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if hasattr(session.config, "workerinput") or len(_verdicts) < MIN_SEEDS:
        return  # an xdist worker: its controller judges
    refused = sum(v == "refused" for v in _verdicts.values()) / len(_verdicts)
    if refused > MAX_REFUSED:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line("")
            reporter.write_line(
                f"FAILED refusal rate: {refused:.0%} of {len(_verdicts)} generated "
                f"kernels refused (at most {MAX_REFUSED:.0%})",
                red=True,
            )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture
def every_loop_on_threads() -> Iterator[None]:
    """Grain 0: every loop of two or more iterations goes to the pool."""
    saved = threads.get_num_threads(), threads.get_grain()
    threads.set_grain(0)
    yield
    threads.set_num_threads(saved[0])
    threads.set_grain(saved[1])
