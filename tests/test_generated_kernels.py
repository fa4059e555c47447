"""Random kernels (`xsparse.testing.kernels`): a fixed budget of seeds, each a
`linalg.generic` over random encodings, shapes, dtypes and bodies, must compute
numpy's result or be refused with a located diagnostic; a smaller share also
runs as an integration program through `xsparse-run` and MLIR 22, which must
print the same values. A failure prints the case's reproducer (a Python script).

Supersedes tests/test_sparsify_random.py: its element-wise and reduction
kernels over dense, CSR, CSC, DCSR, DCSC and COO operands are part of the
generated space, and a kernel whose row-major and column-major sparse operands
leave no loop order is refused for it ("no loop order") or computed correctly
(a "no loop order" refusal where an order exists is an error).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from conftest import VERDICT_PROPERTY

from xsparse.testing.kernel_cases import (
    Apply,
    Case,
    Format,
    Input,
    Operand,
    random_case,
)
from xsparse.testing.kernel_text import kernel_text, program_text
from xsparse.testing.kernels import (
    arguments,
    check,
    check_case,
    mlir_available,
    sparsifier_options,
)
from xsparse.testing.outcome import CaseOutcome, Verdict

SEEDS = range(900)
"""Their share of refusals is judged over the run (`conftest.py`)."""
MLIR_SEEDS = range(100_000, 100_030)


def assert_passes(outcome: CaseOutcome) -> None:
    if outcome.verdict not in (Verdict.OK, Verdict.REFUSED):
        pytest.fail(
            f"{outcome.verdict.value.upper()}: {outcome.detail}\n\n"
            f"Reproducer:\n{outcome.reproducer}",
            pytrace=False,
        )


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_kernel(
    seed: int, record_property: Callable[[str, object], None]
) -> None:
    outcome = check_case(seed)
    record_property(VERDICT_PROPERTY, outcome.verdict.value)
    assert_passes(outcome)


def _needs_mlir() -> None:
    if mlir_available():
        return
    if os.environ.get("XSPARSE_REQUIRE_MLIR"):
        pytest.fail(
            "XSPARSE_REQUIRE_MLIR is set but mlir-opt-22/mlir-runner-22 are missing"
        )
    pytest.skip("MLIR 22's mlir-opt-22 and mlir-runner-22 are not installed")


@pytest.mark.parametrize("seed", MLIR_SEEDS)
def test_generated_kernel_against_mlir(seed: int) -> None:
    _needs_mlir()
    assert_passes(check_case(seed, mlir=True))


CSR = Format("CSR", 2, ("d0 : dense", "d1 : compressed"), (0, 1), (1, 1))
CSC = Format("CSC", 2, ("d1 : dense", "d0 : compressed"), (1, 0), (1, 1))


def _two_operand_case(update: str) -> Case:
    rng = np.random.default_rng(7)
    a, b = (
        np.where(rng.random((5, 6)) < 0.4, rng.integers(1, 5, (5, 6)), 0) for _ in "ab"
    )
    reduce = update == "add"
    return Case(
        seed=-1,
        dtype="f64",
        sizes=(5, 6),
        iterators=("parallel", "reduction" if reduce else "parallel"),
        inputs=(
            Operand((0, 1), CSR, a.astype(np.float64)),
            Operand((0, 1), CSC, b.astype(np.float64)),
        ),
        out_loops=(0,) if reduce else (0, 1),
        out_format=None,
        out_kind="dense",
        out_init=np.full((5,) if reduce else (5, 6), 3.0),
        update="add" if reduce else "overwrite",
        body=Apply("mul", (Input(0), Input(1))),
    )


@pytest.mark.parametrize("update", ["overwrite", "add"])
def test_row_and_column_major_operands(update: str) -> None:
    """CSR .* CSC has no loop order that visits both operands' levels in
    order: refused for it, or computed right."""
    outcome = check(_two_operand_case(update))
    assert_passes(outcome)
    if outcome.verdict is Verdict.REFUSED:
        assert "no loop order" in outcome.detail


def test_sparse_constant_inputs_are_drawn() -> None:
    """A share of the cases holds one sparse input as a builtin
    `sparse<[[i, j], ...], [values]>` constant the kernel converts to its
    encoding (no parameter for it); numpy's result is computed from the
    constant's dense value, the input's data."""
    cases = [random_case(s) for s in SEEDS]
    held = [c for c in cases if any(not op.is_parameter for op in c.inputs)]
    assert len(held) >= len(SEEDS) // 30, len(held)
    for case in held:
        text = kernel_text(case)
        k = next(k for k, op in enumerate(case.inputs) if not op.is_parameter)
        assert f"%t{k} = arith.constant sparse<" in text
        assert f"sparse_tensor.convert %t{k} : " in text
        assert f"%t{k}:" not in text  # (not a parameter)
        assert (
            len(arguments(case)[0])
            == len([op for op in case.inputs if op.is_parameter])
            + (case.out_kind != "empty")
            + case.then_sum
        )


CONSTANT_MLIR_SEEDS = (13, 96)
"""Seeds whose case holds a sparse constant and that MLIR 22 compiles and runs
(in most others MLIR 22 fails: narrow widths of a converted constant, semiring
ops), so that the integration program is compared with mlir-runner-22."""


@pytest.mark.parametrize("seed", CONSTANT_MLIR_SEEDS)
def test_sparse_constant_against_mlir(seed: int) -> None:
    _needs_mlir()
    assert any(not op.is_parameter for op in random_case(seed).inputs)
    outcome = check_case(seed, mlir=True)
    assert_passes(outcome)
    assert "MLIR part skipped" not in outcome.detail, outcome.detail


MASKED_MLIR_SEED = 100_068
"""A DCSR kernel with vl=8 whose lowering by mlir-opt-22 holds
`llvm.intr.masked.load`, `.gather` and `.scatter`."""


def test_vectorized_kernel_against_mlir() -> None:
    """With `vl`, both toolchains compile the integration program with the
    same `--sparsifier` options (`xsparse-opt | xsparse-run` as MLIR's users
    run it), and xsparse-run runs mlir-opt-22's lowering, masked intrinsics
    included, to mlir-runner-22's output."""
    _needs_mlir()
    case = random_case(MASKED_MLIR_SEED)
    options = sparsifier_options(case)
    assert options == "vl=8", options
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "program.mlir"
        path.write_text(program_text(case))
        sparsifier = f"--sparsifier={options} enable-runtime-library=false"
        lowered = subprocess.run(
            ["mlir-opt-22", sparsifier, str(path)], capture_output=True, text=True
        ).stdout
    for op in ("load", "gather", "scatter"):
        assert f"llvm.intr.masked.{op}" in lowered, op
    outcome = check_case(MASKED_MLIR_SEED, mlir=True)
    assert_passes(outcome)
    assert outcome.detail.endswith(case.describe() + "\n"), outcome.detail


@pytest.mark.parametrize(
    "seed, intrinsic",
    [
        (100_037, "llvm.intr.vector.reduce.add"),
        (100_057, "llvm.intr.abs"),
        (100_094, "llvm.intr.fabs"),
        (100_242, "llvm.intr.vector.reduce.mul"),
    ],
)
def test_mlir_lowering_with_reductions_and_abs_runs(seed: int, intrinsic: str) -> None:
    """xsparse-run reads and translates the vector reductions, `abs` and
    `fabs` that mlir-opt-22's lowering of these kernels holds (found by the
    generated vl cases: "not registered", "cannot be translated")."""
    _needs_mlir()
    case = random_case(seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "program.mlir"
        path.write_text(program_text(case))
        options = (
            f"--sparsifier={sparsifier_options(case)} enable-runtime-library=false"
        )
        lowered = subprocess.run(
            ["mlir-opt-22", options, str(path)], capture_output=True, text=True
        ).stdout
    assert intrinsic in lowered
    assert_passes(check_case(seed, mlir=True))
