"""A fixed budget of IR mutants (`xsparse.testing.ir_mutants`): every one
compiles and runs, or gets a located diagnostic; none gets an internal error,
a raw exception, a diagnostic without a line, or hangs.

`tools/fuzz.py --mode ir` runs the same cases for as long as it is given.
"""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

from xsparse.testing.ir_mutants import check_case, corpus, mutant
from xsparse.testing.outcome import Verdict

SEEDS = range(300)


@pytest.fixture(autouse=True)
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiled mutants go to a cache of their own, not the user's."""
    monkeypatch.setenv("XSPARSE_CACHE_DIR", str(tmp_path))


def test_mutants_work_or_get_located_diagnostics() -> None:
    outcomes = {seed: check_case(seed) for seed in SEEDS}
    failures = [
        f"seed {seed}:\n{o.detail}\n{o.reproducer}"
        for seed, o in outcomes.items()
        if o.verdict is not Verdict.OK
    ]
    assert not failures, "\n\n".join(failures)
    kinds = collections.Counter(
        "compiled" if "xsparse.compile: works" in o.detail else "diagnosed"
        for o in outcomes.values()
    )
    # The budget reaches code generation and the kernels' calls, not only the
    # parser: a change that makes every mutant fail to parse fails this test.
    assert kinds["compiled"] >= len(SEEDS) // 10, kinds
    assert sum("call: works" in o.detail for o in outcomes.values()) >= 10


def test_mutants_are_reproducible() -> None:
    for seed in (0, 17, 299):
        assert mutant(seed) == mutant(seed)
        assert check_case(seed) == check_case(seed)


def test_every_kind_of_edit_is_drawn() -> None:
    edits = collections.Counter(e for seed in SEEDS for e in mutant(seed).edits)
    expected = {
        "token_edit", "line_edit", "element_type", "shape", "level_format",
        "bit_width", "affine_map", "integer", "float_literal", "slice", "gpu",
        "nesting", "size", "symbol_name", "narrow_widths",
    }  # fmt: skip
    assert set(edits) == expected
    assert min(edits.values()) >= 10, edits


def test_corpus_holds_kernels_and_dialect_tests() -> None:
    names = [s.name for s in corpus()]
    assert sum(n.startswith("kernels/") for n in names) >= 30
    assert any(n.startswith("filecheck/dialects/sparse_tensor/") for n in names)
    assert all("invalid" not in n for n in names)


def test_corpus_holds_gpu_and_sliced_texts() -> None:
    """MLIR 22's sparse GPU code generation (library calls and outlined
    kernels) and sliced encodings are in the corpus, and drawn."""
    texts = {s.name: s.text for s in corpus()}
    gpu = [n for n in texts if n.startswith("ir_corpus/gpu/")]
    assert any("gpu.spmv" in texts[n] for n in gpu)
    assert any("gpu.launch_func" in texts[n] for n in gpu)
    assert any("#sparse_tensor<slice(" in texts[n] for n in texts if "slice" in n)
    drawn = collections.Counter(mutant(seed).source.name for seed in SEEDS)
    assert sum(n in drawn for n in gpu) >= len(gpu) // 2, drawn


def test_gpu_and_slice_edits_change_what_they_name() -> None:
    """A gpu edit changes a gpu op's line; a slice edit a slice or an
    encoding's dimensions."""
    for seed in SEEDS:
        m = mutant(seed)
        if m.edits != ("gpu",) and m.edits != ("slice",):
            continue
        before, after = m.source.text.splitlines(), m.text.splitlines()
        changed = [line for line in before if line not in after]
        changed += [line for line in after if line not in before]
        assert changed, (seed, m.edits)
        words = ("gpu",) if m.edits == ("gpu",) else ("map = (", "slice(")
        assert any(w in line for w in words for line in changed), (seed, changed)
