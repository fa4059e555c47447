"""`tools/mlir_suite.py`: lit's DEFINE/REDEFINE/RUN expansion, and a run of
a small suite laid out as llvm-project lays out its sparse integration tests
(written here, in our words) through xsparse's tools and MLIR 22's."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import mlir_suite  # noqa: E402

HEADER = """\
// DEFINE: %{opts} = enable-runtime-library=true
// DEFINE: %{compile} = mlir-opt %s --sparsifier="%{opts}"
// DEFINE: %{run_opts} = -e main -entry-point-result=void
// DEFINE: %{run} = mlir-runner %{run_opts} \\
// DEFINE:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils
// DEFINE: %{env} =
// RUN: %{compile} | env %{env} %{run} | FileCheck %s
// REDEFINE: %{opts} = enable-runtime-library=false vl=2
// RUN: %{compile} | env %{env} %{run} | FileCheck %s
// RUN: %if mlir_arm_sve_tests %{ %{compile} | %{run} | FileCheck %s %}
"""

DOT = (Path(__file__).parent / "integration" / "sparse_dot.mlir").read_text()


def test_expansion_follows_definitions_in_order() -> None:
    lines = mlir_suite.run_lines(HEADER)
    assert [line.number for line in lines] == [7, 9, 10]
    first, second, sve = lines
    assert first.command == (
        'mlir-opt %s --sparsifier="enable-runtime-library=true" | env  '
        "mlir-runner -e main -entry-point-result=void "
        "-shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s"
    )
    assert 'enable-runtime-library=false vl=2"' in second.command
    assert first.skipped is None and second.skipped is None
    assert sve.skipped == "needs mlir_arm_sve_tests"


@pytest.mark.parametrize(
    "text, message",
    [
        ("// REDEFINE: %{x} = 1\n", "redefined before it is defined"),
        ("// DEFINE: %{x} = 1\n// DEFINE: %{x} = 2\n", "defined twice"),
        ("// DEFINE: x 1\n", "malformed DEFINE"),
        ("// DEFINE: %{x} = %{x}a\n// RUN: %{x}\n", "recursive definitions"),
    ],
)
def test_malformed_directives_are_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        mlir_suite.run_lines(text)


def test_substitution_names_the_tools_and_libraries(tmp_path: Path) -> None:
    test = tmp_path / "a.mlir"
    tools = mlir_suite.Toolchain("xsparse", "xsparse-opt", "xsparse-run")
    command = mlir_suite.substitute(
        "mlir-opt %s --sparse-compiler=x | TENSOR0=%mlir_src_dir/d.mtx "
        "mlir-cpu-runner -shared-libs=%mlir_c_runner_utils%shlibext | FileCheck %s",
        test,
        tmp_path,
        tools,
        tmp_path,
    )
    assert command.startswith(f"xsparse-opt {test} --sparsifier=x | ")
    assert f"TENSOR0={tmp_path}/mlir/d.mtx xsparse-run -shared-libs=" in command
    assert "libmlir_c_runner_utils" in command and "%" not in command
    assert command.endswith(f"filecheck {test}") or command.endswith(
        f"FileCheck {test}"
    )


def make_checkout(root: Path, programs: dict[str, str]) -> Path:
    suite = root / mlir_suite.SUITE
    suite.mkdir(parents=True)
    for name, text in programs.items():
        (suite / f"{name}.mlir").write_text(text)
    return root


@pytest.mark.parametrize("mlir", [False, True])
def test_a_small_suite_runs_both_ways(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mlir: bool
) -> None:
    if mlir and shutil.which("mlir-opt-22") is None:
        pytest.skip("mlir-opt-22 is not installed")
    wrong = DOT.replace("// CHECK: 9.25", "// CHECK: 9.5")
    assert wrong != DOT
    checkout = make_checkout(
        tmp_path, {"dot": HEADER + DOT, "dot_wrong": HEADER + wrong}
    )
    report = tmp_path / "report.json"
    args = [str(checkout), "--json", str(report), "-j", "2"]
    assert mlir_suite.main(args if mlir else [*args, "--no-mlir"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line}
    if mlir:
        assert rows["dot"][:2] == ["2/2", "2/2"]
        assert rows["dot_wrong"][:2] == ["0/2", "0/2"]
        assert (
            "mlir-22 passes 1 of 2 files (2 RUN lines); xsparse passes 1 of those "
            "1 files (2 of 2 RUN lines)" in out
        )
    else:
        assert rows["dot"][0] == "2/2" and rows["dot_wrong"][0] == "0/2"
        assert "xsparse passes 1 of 2 files (2 of 4 RUN lines)" in out
    outcomes = __import__("json").loads(report.read_text())
    assert [o["status"] for o in outcomes["dot"]["xsparse"]] == [
        "pass",
        "pass",
        "skipped",
    ]
