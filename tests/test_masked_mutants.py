"""LLVM-dialect programs of the masked intrinsics (`llvm.intr.masked.load`,
`.store`, `.gather`, `.scatter`; `xsparse.testing.masked_mutants`), valid or
broken by one edit: xsparse-opt prints what it reads (a fixpoint); where
mlir-opt-22 is installed, both tools refuse a program or both read it and
each other's print to the same module.

`tools/fuzz.py --mode masked` runs the same cases for as long as it is given.
"""

from __future__ import annotations

import collections
import importlib.util
import re
import sys
from itertools import islice
from pathlib import Path

import pytest

from xsparse.testing.masked_mutants import (
    EDITS,
    check_case,
    masked_program,
    mlir_available,
    read_xsparse,
)
from xsparse.testing.outcome import Verdict

SEEDS = range(14)
"""About 0.8 s each on a loaded machine (four mlir-opt-22 runs). Seed 13 scatters
a vector<16xf64> through vector<2x!llvm.ptr>, which mlir-opt-22 refuses and
xsparse-opt (as of this writing) reads."""


@pytest.mark.parametrize("seed", SEEDS)
def test_masked_mutant(seed: int) -> None:
    outcome = check_case(seed)
    assert outcome.verdict is Verdict.OK, f"{outcome.detail}\n\n{outcome.reproducer}"


def test_every_intrinsic_and_edit_is_drawn() -> None:
    """The budget draws each intrinsic with and without a pass-through, each
    edit, and the GEP flags; the generator is reproducible."""
    programs = [masked_program(seed) for seed in range(200)]
    text = "".join(p.text for p in programs)
    for op in ("load", "store", "gather", "scatter"):
        assert f"llvm.intr.masked.{op} " in text
    assert re.search(r"masked\.load %\w+, %\w+, %\w+ ", text)  # a pass-through
    assert re.search(r"masked\.gather %\w+, %\w+ \{", text)  # none
    assert "nontemporal" in text and "inbounds|nuw" in text
    edits = collections.Counter(p.edit for p in programs)
    assert set(edits) == {"", *EDITS}, edits
    assert masked_program(7) == masked_program(7)
    drawn = collections.Counter(p.edit for p in map(masked_program, SEEDS))
    assert drawn[""] >= len(SEEDS) // 2, drawn


def test_valid_programs_read_and_print_the_same() -> None:
    """Without an edit, xsparse-opt reads the program and prints every
    masked op of it (with or without mlir-opt-22)."""
    for seed in SEEDS:
        program = masked_program(seed)
        if program.edit:
            continue
        read = read_xsparse(program.text)
        assert read.ok, read.output
        for op in re.findall(r"llvm\.intr\.masked\.\w+", program.text):
            assert read.output.count(op) == program.text.count(op), (seed, op)


def test_mlir_opt_judges_where_installed() -> None:
    """With mlir-opt-22 the verdict names the comparison, not the fixpoint."""
    detail = check_case(0).detail
    if mlir_available():
        assert "each other's print" in detail or "both refuse" in detail, detail
    else:
        assert "fixpoint" in detail or "refuse" in detail, detail


def test_fuzz_runs_the_masked_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`tools/fuzz.py --mode masked` draws these cases, reruns one in process
    and names its rerun line and reproducer."""
    path = Path(__file__).resolve().parent.parent / "tools" / "fuzz.py"
    spec = importlib.util.spec_from_file_location("fuzz_tool", path)
    assert spec is not None and spec.loader is not None
    fuzz = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "fuzz_tool", fuzz)
    spec.loader.exec_module(fuzz)
    assert list(islice(fuzz.tasks("masked", 3), 2)) == [("masked", 3), ("masked", 4)]
    verdict, detail, _ = fuzz.run_case("masked", 0, False)
    assert (verdict, detail) == (check_case(0).verdict.value, check_case(0).detail)
    assert fuzz._reproducer(("masked", 5)) == masked_program(5).text
    report = fuzz.Report(tmp_path)
    report.add(("masked", 9), "wrong", "masked seed 9: ...", "# reproducer\n")
    rerun = (
        "python -c 'from xsparse.testing.masked_mutants import check_case; "
        "print(check_case(9))'"
    )
    assert f"rerun: {rerun}" in report.summary(1)
