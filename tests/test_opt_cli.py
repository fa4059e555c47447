"""xsparse-opt's command line: what its lit tests (tests/filecheck/tools)
cannot see: which modules start-up loads, and the pipeline reader and the
diagnostic verifier on their own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.transforms import get_all_passes as get_xdsl_passes

from xsparse.tools.command_line import UsageError
from xsparse.tools.pass_pipeline import (
    build_pass,
    describe,
    read_pipeline,
    typed_values,
)
from xsparse.tools.verify_diagnostics import Diagnostic, check, read_expectations
from xsparse.transforms import get_all_passes
from xsparse.transforms.pipeline import SparsifierPass


def loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running `code`."""
    script = f"import sys\n{code}\nprint(' '.join(sys.modules), file=sys.stderr)"
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    return set(result.stderr.split())


@pytest.mark.parametrize("tool", ["opt", "run"])
def test_version_loads_no_xdsl(tool: str) -> None:
    modules = loaded_after(
        f"from xsparse.tools.{tool} import main\nmain(['--version'])"
    )
    assert "xdsl.ir" not in modules
    assert "xsparse.dialects" not in modules


def test_ir_without_sparse_tensors_loads_no_sparse_tensor_dialect(
    tmp_path: Path,
) -> None:
    source = tmp_path / "plain.mlir"
    source.write_text("func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}\n")
    modules = loaded_after(
        f"from xsparse.tools.opt import main\nassert main([{str(source)!r}]) == 0"
    )
    assert "xsparse.dialects.sparse_tensor" not in modules


def test_nested_anchors_run_on_the_module() -> None:
    texts = read_pipeline(
        "builtin.module(func.func(canonicalize, cse), any(dce), sparsifier{vl=4})",
        anchored=True,
    )
    assert [t.name for t in texts] == ["canonicalize", "cse", "dce", "sparsifier"]
    assert texts[3].options[0].text == "vl=4"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("builtin.module(cse),", "expected a pass name at end"),
        ("cse{a=1", "expected a space or '}' after an option at end"),
        ("cse{a=1,}", "expected an option value at column 9"),
        ("cse{a=1}b", "expected ',' between passes at column 9"),
        ("builtin.module(builtin.module(cse))", "passes anchored on 'builtin.module'"),
    ],
)
def test_pipeline_mistakes(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        read_pipeline(text, anchored=False)


def test_options_as_mlir_spells_them() -> None:
    available = {**get_xdsl_passes(), **get_all_passes()}
    (text,) = read_pipeline(
        "sparsifier{parallelization-strategy=dense-outer-loop vl=4 "
        "enable-simd-index32}",
        anchored=False,
    )
    assert build_pass(text, available) == SparsifierPass(
        parallelization_strategy="dense-outer-loop", vl=4, enable_simd_index32=True
    )


def test_option_values() -> None:
    assert typed_values(None, bool) == (True,)
    assert typed_values(("1",), float) == (1.0,)
    assert typed_values(("1", "2"), tuple[int, ...]) == (1, 2)
    assert typed_values(('"a b"',), str) == ("a b",)
    assert describe(tuple[int, ...] | None) == "a comma-separated list, each an integer"


SOURCE = """\
op // expected-error {{on its line}}
// expected-error@+2 {{two below}}
// expected-note@below {{next plain line}}

op
// expected-warning@above {{plain line above}}
// expected-remark@-1 {{one above}}
// expected-error@unknown {{anywhere}}
// expected-error-re {{a {{[0-9]+}} b}}
"""


def test_expectations_by_line() -> None:
    expectations = read_expectations(SOURCE, "f.mlir")
    assert [(e.severity, e.line) for e in expectations] == [
        ("error", 1),
        ("error", 4),
        ("note", 4),
        ("warning", 5),
        ("remark", 6),
        ("error", None),
        ("error", 9),
    ]
    assert expectations[6].pattern.search("a 12 b")


def test_check_meets_or_reports() -> None:
    expectations = read_expectations(SOURCE, "f.mlir")
    met = Diagnostic.read("f.mlir:1:1: error: found on its line here\nop\n^")
    assert check(met, expectations) is None
    assert expectations[0].met
    unlocated = Diagnostic.read("f.mlir: error: anywhere at all")
    assert check(unlocated, expectations) is None
    unexpected = Diagnostic.read("f.mlir:2:1: error: nothing expects it\nop\n^")
    assert check(unexpected, expectations) == (
        "f.mlir:2:1: error: unexpected error: nothing expects it\nop\n^"
    )
    severity = Diagnostic.read("f.mlir:4:1: error: the next plain line")
    report = check(severity, expectations) or ""
    assert report.startswith(
        "f.mlir:3:4: error: 'error' diagnostic emitted when expecting a 'note'"
    )
