"""Embedding xsparse in an xDSL process changes nothing that plain xDSL can
observe (issue 38): a compiler built on xDSL that loads our dialects and
passes, or merely has xsparse installed, parses, verifies and prints
standard IR exactly as before, and xDSL's modules and classes are the
objects they were.

`embedding_corpus/probe.py` does the looking, in one fresh interpreter (the
imports of this pytest process do not count): a corpus of standard IR
(`embedding_corpus/*.mlir`, what xDSL 0.74 reads, covering the dialects
xsparse builds on) through plain xDSL contexts, and a snapshot of xDSL's
modules and classes, before and after xsparse is imported, its contexts
built and its pipeline run."""

from __future__ import annotations

import difflib
import json
import os
import re
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

CORPUS = Path(__file__).resolve().parent / "embedding_corpus"
PROBE = CORPUS / "probe.py"
CHILD_MEMORY = 4 << 30
"""RLIMIT_AS of the child (bytes)."""
TIMEOUT = 300
IDENTITY = re.compile(r" @0x[0-9a-f]+")


def limit_memory() -> None:
    """(In the child, before it runs.)"""
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY, CHILD_MEMORY))


def run_child(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        preexec_fn=limit_memory,
        env={**os.environ, "XSPARSE_CACHE_DIR": str(tmp_path / "cache")},
    )


def probe(exercise: str, tmp_path: Path) -> dict[str, Any]:
    """The probe's report on `exercise` (one fresh interpreter)."""
    result_file = tmp_path / "difference.json"
    child = run_child([str(PROBE), str(CORPUS), str(result_file), exercise], tmp_path)
    assert child.returncode == 0, child.stderr[-4000:]
    report = json.loads(result_file.read_text())
    assert report["inputs"] >= 30 and report["attributes"] > 10_000, report
    return report


def differs(report: dict[str, Any]) -> bool:
    return bool(
        report["differing_inputs"]
        or report["added"]
        or report["removed"]
        or report["changed"]
    )


def shown(text: Any) -> str:
    """A value of the probe's report without object ids, where the label
    alone says what it is."""
    return IDENTITY.sub("", str(text))


def clipped_pair(before: str, after: str, width: int = 100) -> tuple[str, str]:
    """Two long strings cut to the stretch around where they first differ."""
    if len(before) <= width and len(after) <= width:
        return before, after
    start = next(
        (i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
        min(len(before), len(after)),
    )
    lo = max(0, start - width // 3)

    def cut(s: str) -> str:
        piece = s[lo : lo + width]
        return ("..." if lo else "") + piece + ("..." if lo + width < len(s) else "")

    return cut(before), cut(after)


def content_lines(path: str, difference: Any) -> list[str]:
    """`path: before -> after` for each leaf of a nested content difference."""
    if isinstance(difference, dict) and set(difference) == {"before", "after"}:
        before, after = clipped_pair(
            shown(difference["before"]), shown(difference["after"])
        )
        return [f"    {path}:\n      before: {before}\n      after:  {after}"]
    lines: list[str] = []
    for key, sub in difference.items():
        lines += content_lines(f"{path}[{key}]", sub)
    return lines


def describe(report: dict[str, Any]) -> str:
    """The probe's report, for a person: each differing input as a unified
    diff, each attribute by qualified name."""
    inputs = report["differing_inputs"]
    lines = [
        f"{len(inputs)} of {report['inputs']} inputs differ; of "
        f"{report['attributes']} attributes of xDSL's modules and classes, "
        f"{len(report['added'])} added, {len(report['removed'])} removed, "
        f"{len(report['changed'])} changed.",
    ]
    for name, results in sorted(inputs.items()):
        lines.append(f"\ninput {name}:")
        lines += difflib.unified_diff(
            results["before"].splitlines(),
            results["after"].splitlines(),
            "plain xDSL, before xsparse",
            "plain xDSL, after xsparse",
            lineterm="",
            n=1,
        )
    for key, value in sorted(report["added"].items()):
        lines.append(f"added: {key} = {shown(value)}")
    for key, value in sorted(report["removed"].items()):
        lines.append(f"removed: {key} (was {shown(value)})")
    for key, change in sorted(report["changed"].items()):
        if "before" in change:
            before, after = change["before"], change["after"]
            if shown(before) != shown(after):
                before, after = shown(before), shown(after)
            lines.append(f"replaced: {key}: {before} -> {after}")
        if "content" in change:
            lines.append(f"changed in place: {key}")
            lines += content_lines("", change["content"])
    return "\n".join(lines)


def test_xdsl_sees_no_difference_after_xsparse(tmp_path: Path) -> None:
    """The corpus through a plain xDSL context, and every attribute of xDSL's
    modules and classes, are the same before and after importing xsparse,
    building its contexts (every dialect loaded), loading the xdsl.universe
    multiverse, running `xsparse.einsum`, the sparsifier and `xsparse-opt`."""
    report = probe("xsparse", tmp_path)
    if differs(report):
        pytest.fail("xsparse changes what plain xDSL does:\n" + describe(report))


def test_probe_sees_nothing_when_only_xdsl_runs(tmp_path: Path) -> None:
    """The probe's own control: with xDSL's passes run in place of xsparse,
    it reports no difference (its snapshot holds no cache that plain use
    of xDSL fills)."""
    report = probe("only-xdsl", tmp_path)
    assert "xsparse" not in report["modules_loaded_by_exercise"]
    if differs(report):
        pytest.fail("the probe sees a difference without xsparse:\n" + describe(report))


def test_probe_sees_each_kind_of_patch(tmp_path: Path) -> None:
    """The probe's own check: each kind of patch xsparse once made to xDSL,
    made by the probe itself, is reported by its qualified name, and the
    corpus input whose printing it changes is reported."""
    report = probe("known-patches", tmp_path)
    assert sorted(report["added"]) == ["xdsl.dialects.memref.CastOp.probe_added"]
    assert report["removed"] == {}
    changed = sorted(report["changed"])
    lexer = [k for k in changed if k.startswith("xdsl.utils.mlir_lexer.MLIRLexer.")]
    assert len(lexer) == 1 and "content" not in report["changed"][lexer[0]]
    assert [k for k in changed if k not in lexer] == [
        "xdsl.backend.wgsl.wgsl_printer.WGSLPrinter.print",
        "xdsl.dialects.arith.AddiOp.<irdl definition>",
        "xdsl.dialects.arith.SelectOp.print",
        "xdsl.dialects.llvm.SelectOp.<irdl definition>",
        "xdsl.dialects.vector.Vector",
    ]
    vector_ops = report["changed"]["xdsl.dialects.vector.Vector"]["content"]
    assert list(vector_ops["operations"]) == ["vector.probe_added"]
    # The inputs by file and symbol (their lines move as the corpus grows):
    # arith.select prints differently, llvm.select verifies differently.
    differing = {re.sub(r":\d+", "", name) for name in report["differing_inputs"]}
    assert "arith.mlir (@select)" in differing
    assert differing <= {
        "arith.mlir (@select)",
        "arith.mlir (@select_vector_condition)",
        "llvm.mlir (@select_vector_condition)",
    }
    describe(report)  # readable whatever it holds


XSPARSE_HEAVY = (
    "xsparse.dialects.",
    "xsparse.transforms.",
    "xsparse.backend",
    "xsparse.frontend",
)
THIRD_PARTY_HEAVY = ("llvmlite", "numpy", "scipy")


def loaded_after(code: str, tmp_path: Path) -> list[str]:
    """The modules a fresh interpreter has loaded after running `code`."""
    script = f"import sys\n{code}\nprint('\\n'.join(sorted(sys.modules)))"
    child = run_child(["-c", script], tmp_path)
    assert child.returncode == 0, child.stderr[-4000:]
    return child.stdout.split()


def heavy(modules: list[str]) -> list[str]:
    """xsparse's dialect, pass, backend and front-end modules, and the big
    libraries, among `modules`."""
    return [
        m
        for m in modules
        if m.startswith(XSPARSE_HEAVY) or m.split(".")[0] in THIRD_PARTY_HEAVY
    ]


def test_import_xsparse_loads_no_dialect_nor_xdsl(tmp_path: Path) -> None:
    """`import xsparse` loads xsparse's package and version only: no dialect,
    pass or backend module, and no xDSL."""
    modules = loaded_after("import xsparse", tmp_path)
    assert heavy(modules) == []
    assert not [m for m in modules if m.split(".")[0] == "xdsl"]


def test_universe_loads_no_dialect_module(tmp_path: Path) -> None:
    """What an xDSL tool pays for our entry point: `import xsparse.universe`
    and `Universe.get_multiverse()` (as `xdsl-opt` calls it) import none of
    xsparse's dialect, pass or backend modules; their factories load them
    when a context or a pipeline first asks."""
    for code in (
        "import xsparse.universe",
        "from xdsl.universe import Universe\nUniverse.get_multiverse()",
    ):
        modules = loaded_after(code, tmp_path)
        xsparse_modules = [m for m in modules if m.split(".")[0] == "xsparse"]
        assert heavy(modules) == [], f"{code!r} loads: {xsparse_modules}"
