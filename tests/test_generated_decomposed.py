"""Random decomposed products (`xsparse.testing.decomposed_cases`): matrices
of every kind and shape (0 and 1 rows or columns, power-law rows past the
widest bucket, dense blocks, no entries, summed duplicates), rules (chosen,
or partitions, widths and BSR blocks), vectors and matrices of 1-70 columns,
outputs (none, full of NaN: aligned, 8 bytes off or strided, or b itself)
and 1 or 2 threads must give numpy's `A @ b`; a shape that is not a
multiple of a block must be refused with a ValueError. A failure prints the
case and the line that reruns it.

The rules come from `POOL` (each with one dtype) and, for a few seeds, from
`choose_rule`, so that the run compiles a few kernels (seconds each);
`tools/fuzz.py --mode decomposed` draws a new rule per seed."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator
from itertools import islice
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from xsparse.composable import Rule
from xsparse.testing.decomposed_cases import (
    DecomposedCase,
    Pool,
    check_decomposed_case,
    random_decomposed_case,
)
from xsparse.testing.outcome import Verdict

SEEDS = range(80)
POOL = (
    Rule(widths=(3, 17)),
    Rule(),
    Rule(blocks=(3, 2), widths=(1, 4)),
    Rule(partitions=2, widths=(2, 8)),
)
"""f32 at even places, f64 at odd ones: buckets that overwrite their rows
(one column partition), one wider than a chunk of slots
(`ell_loops.SLOT_CHUNK`); the remainder alone; two BSR sizes (one odd)
before buckets; buckets that add to their rows (two partitions)."""
CHOSEN = (None, None)
"""`choose_rule` (f32, f64): a rule per matrix, each compiled anew."""
CHOSEN_SEEDS = (0, 3, 4, 9)
"""Seeds whose chosen rules compile quickly (the fuzzer runs the others):
the remainder alone for a tiny and a 0 x 0 matrix, buckets for a vector
(which reads the matrix in CSR) and for a matrix."""


def assert_expected_verdict(seed: int, pool: Pool) -> None:
    """OK, or REFUSED where the shape is not a multiple of a block."""
    outcome = check_decomposed_case(seed, pool)
    misfit = random_decomposed_case(seed, pool).misfit is not None
    expected = Verdict.REFUSED if misfit else Verdict.OK
    if outcome.verdict is not expected:
        pytest.fail(
            f"{outcome.verdict.value.upper()}: {outcome.detail}\n\n"
            f"Reproducer:\n{outcome.reproducer}",
            pytrace=False,
        )


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_decomposed_product(seed: int) -> None:
    assert_expected_verdict(seed, POOL)


@pytest.mark.parametrize("seed", CHOSEN_SEEDS)
def test_generated_product_with_the_chosen_rule(seed: int) -> None:
    assert_expected_verdict(seed, CHOSEN)


def rhs_kind(case: DecomposedCase) -> str:
    """'vector', or b's columns: 'x8', 'x4' (a multiple of 4, not 8), 'odd'."""
    if case.b.ndim == 1:
        return "vector"
    k = case.b.shape[1]
    return "x8" if k % 8 == 0 else "x4" if k % 4 == 0 else "odd"


def test_the_generator_draws_every_kind_of_case() -> None:
    cases = [random_decomposed_case(seed, POOL) for seed in SEEDS]
    assert {c.kind for c in cases} == {
        "uniform",
        "power-law",
        "blocky",
        "empty",
        "duplicates",
    }
    assert {c.form for c in cases} >= {"csr", "csr-int64", "coo", "tensor"}
    assert "csr-unsummed" in {c.form for c in cases}
    assert {c.output for c in cases} == {"none", "aligned", "offset", "strided", "b"}
    assert {rhs_kind(c) for c in cases} == {"vector", "x8", "x4", "odd"}
    assert {c.threads for c in cases} == {1, 2}
    assert {c.dtype for c in cases} == {np.dtype(np.float32), np.dtype(np.float64)}
    assert any(not c.b.flags.c_contiguous for c in cases)
    assert {0, 1} <= {c.shape[0] for c in cases}
    assert 0 in {c.shape[1] for c in cases}
    assert any(c.misfit is not None for c in cases)
    chosen = [random_decomposed_case(seed, CHOSEN) for seed in CHOSEN_SEEDS]
    assert all(c.rule is None for c in chosen)
    assert {c.dtype for c in chosen} == {np.dtype(np.float32), np.dtype(np.float64)}


def test_power_law_rows_pass_the_widest_bucket() -> None:
    """Some power-law rows go to the remainder (longer than every width)."""
    for seed in SEEDS:
        case = random_decomposed_case(seed, POOL)
        if case.kind != "power-law" or case.rule is None or not case.rule.widths:
            continue
        if case.shape[1] > max(case.rule.widths):
            lengths = np.bincount(case.rows, minlength=case.shape[0])
            assert lengths.max() > max(case.rule.widths)
            return
    pytest.fail("no power-law case with a row past the widest bucket")


def load_fuzz(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """tools/fuzz.py as a module (tools/ is not a package), registered in
    `sys.modules` for the test (its dataclasses look themselves up there)."""
    path = Path(__file__).resolve().parent.parent / "tools" / "fuzz.py"
    spec = importlib.util.spec_from_file_location("fuzz_tool", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "fuzz_tool", module)
    spec.loader.exec_module(module)
    return module


def test_fuzz_runs_and_reports_the_decomposed_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`tools/fuzz.py --mode decomposed` (and `both`) draws these cases; a
    failure's group in the summary names its seeds and the rerun line."""
    fuzz = load_fuzz(monkeypatch)
    tasks: Callable[[str, int], Iterator[tuple[str, int]]] = fuzz.tasks
    assert list(islice(tasks("decomposed", 5), 2)) == [
        ("decomposed", 5),
        ("decomposed", 6),
    ]
    assert ("decomposed", 0) in islice(tasks("both", 0), 4)
    report = fuzz.Report(tmp_path)
    report.add(("decomposed", 7), "wrong", "wrong result: ...", "# reproducer\n")
    summary = report.summary(1)
    rerun = (
        "python -c 'from xsparse.testing.decomposed_cases import "
        "check_decomposed_case; print(check_decomposed_case(7))'"
    )
    assert "seeds 7" in summary and f"rerun: {rerun}" in summary
    written = (tmp_path / "decomposed-seed7-wrong.py").read_text()
    assert f"# rerun: {rerun}" in written and "# reproducer" in written
