"""MLIR's sparse integration suite, run through xsparse's tools (issue 39).

    python tools/mlir_suite.py PATH-TO-llvm-project [options] [NAME ...]

Reads every `mlir/test/Integration/Dialect/SparseTensor/CPU/*.mlir` of the
checkout (or only the files named, by stem or glob), expands each file's
`DEFINE:` / `REDEFINE:` / `RUN:` lines as lit does, and runs every RUN line
twice, as one shell pipeline each:

- with MLIR 22: `mlir-opt` -> `mlir-opt-22`, `mlir-runner` -> `mlir-runner-22`
  (`--no-mlir` leaves this run out);
- with xsparse: `mlir-opt` -> `xsparse-opt`, `mlir-runner` -> `xsparse-run`.

`FileCheck` is the `filecheck` beside this Python (or $FILECHECK). Lines under
`%if mlir_arm_sve_tests` (ARM SVE) are not run, as on an x86 lit
configuration. Files written before MLIR renamed its tools are adapted the way
the renames say (`--sparse-compiler` -> `--sparsifier`, `mlir-cpu-runner` ->
`mlir-runner`); nothing else in them changes.

Prints one row per file (RUN lines passed with MLIR 22 and with xsparse, and
xsparse's first error), then the totals: files and RUN lines that pass with
MLIR 22, how many of those pass with xsparse, the files that MLIR 22 fails and
xsparse passes, and xsparse's failures grouped by their first error.
`--json FILE` writes every RUN line's command, status and output tail.

The checkout only supplies the tests: nothing of it is copied anywhere.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

SUITE = Path("mlir/test/Integration/Dialect/SparseTensor/CPU")
MLIR_LIB_DIR = Path("/usr/lib/llvm-22/lib")

DIRECTIVE = re.compile(r"^\s*//\s*(RUN|DEFINE|REDEFINE):(.*)$")
DEFINITION = re.compile(r"^\s*(%\{[\w.\-]+\})\s*=(.*)$")
USE = re.compile(r"%\{[\w.\-]+\}")
SKIPPED_FEATURE = re.compile(r"^\s*%if\s+([\w.\-]+)\s+%\{")
RENAMES = (
    ("--sparse-compiler", "--sparsifier"),
    ("mlir-cpu-runner", "mlir-runner"),
)
"""MLIR's own renames before MLIR 22, applied to older copies of the files."""


@dataclass(frozen=True)
class RunLine:
    """One `RUN:` line of a test, its substitutions expanded."""

    number: int
    """The line it starts on."""
    command: str
    skipped: str | None = None
    """Why it is not run (a feature lit would not have here), or None."""


def directives(text: str) -> Iterable[tuple[int, str, str]]:
    """Each `// KIND: body` directive, continuation lines (`\\`) joined."""
    pending: tuple[int, str, str] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        match = DIRECTIVE.match(line)
        if match is None:
            if pending is not None:  # a continuation with nothing after it
                yield pending
                pending = None
            continue
        kind, body = match.group(1), match.group(2).strip()
        if pending is not None:
            start, pending_kind, pending_body = pending
            body = f"{pending_body} {body}"
            kind, number = pending_kind, start
            pending = None
        if body.endswith("\\"):
            pending = (number, kind, body[:-1].rstrip())
            continue
        yield number, kind, body
    if pending is not None:
        yield pending


def expand(command: str, definitions: dict[str, str]) -> str:
    """`%{name}` uses replaced by their definitions until none is left."""
    for _ in range(100):
        expanded = USE.sub(lambda m: definitions.get(m.group(0), m.group(0)), command)
        if expanded == command:
            return expanded
        command = expanded
    raise ValueError(f"recursive definitions in: {command}")


def run_lines(text: str) -> list[RunLine]:
    """The RUN lines of a test file, as lit expands them (DEFINE/REDEFINE)."""
    definitions: dict[str, str] = {}
    lines: list[RunLine] = []
    for number, kind, body in directives(text):
        if kind == "RUN":
            command = expand(body, definitions)
            feature = SKIPPED_FEATURE.match(command)
            skipped = f"needs {feature.group(1)}" if feature else None
            lines.append(RunLine(number, command, skipped))
            continue
        definition = DEFINITION.match(body)
        if definition is None:
            raise ValueError(f"line {number}: malformed {kind}: {body}")
        name, value = definition.group(1), definition.group(2).strip()
        if kind == "DEFINE" and name in definitions:
            raise ValueError(f"line {number}: {name} is defined twice")
        if kind == "REDEFINE" and name not in definitions:
            raise ValueError(f"line {number}: {name} is redefined before it is defined")
        definitions[name] = value
    return lines


@dataclass(frozen=True)
class Toolchain:
    """Which commands stand for `mlir-opt` and `mlir-runner` in a RUN line."""

    name: str
    opt: str
    runner: str


def runner_library(name: str) -> str:
    """The path of one of MLIR 22's runner libraries (`libmlir_c_runner_utils`)."""
    for candidate in sorted(MLIR_LIB_DIR.glob(f"lib{name}.so*")):
        return str(candidate)
    return str(MLIR_LIB_DIR / f"lib{name}.so")


def substitute(
    command: str, test: Path, checkout: Path, tools: Toolchain, scratch: Path
) -> str:
    """lit's `%` substitutions and the tool names, for one toolchain."""
    for old, new in RENAMES:
        command = command.replace(old, new)
    c_runner = runner_library("mlir_c_runner_utils")
    runner = runner_library("mlir_runner_utils")
    table = {
        "%mlir_src_dir": str(checkout / "mlir"),
        "%mlir_c_runner_utils": c_runner,
        "%mlir_runner_utils": runner,
        "%native_mlir_c_runner_utils": c_runner,
        "%native_mlir_runner_utils": runner,
        "%mlir_lib_dir": str(MLIR_LIB_DIR),
        "%mlir_native_utils_lib_dir": str(MLIR_LIB_DIR),
        "%shlibext": ".so",
        "%ENABLE_VLA": "false",
        "%VLA_ARCH_ATTR_OPTIONS": "",
        "%s": str(test),
        "%S": str(test.parent),
        "%t": str(scratch / "t"),
        "%T": str(scratch),
    }
    keys = sorted(table, key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(k) + r"(?![\w])" for k in keys))
    command = pattern.sub(lambda m: table[m.group(0)], command)
    words = {
        "mlir-opt": tools.opt,
        "mlir-runner": tools.runner,
        "FileCheck": os.environ.get("FILECHECK", filecheck()),
    }
    return re.sub(
        r"(?<![\w\-./])(mlir-opt|mlir-runner|FileCheck)(?![\w\-])",
        lambda m: words[m.group(1)],
        command,
    )


def filecheck() -> str:
    beside = Path(sys.executable).parent / "filecheck"
    return str(beside) if beside.exists() else "filecheck"


@dataclass
class Outcome:
    line: int
    command: str
    status: str
    """`pass`, `fail`, `timeout` or `skipped`."""
    error: str = ""
    """The first line that looks like an error, else the output's last line."""
    tail: str = ""


def first_error(output: str) -> str:
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    for line in lines:
        if "error" in line.lower() or "exception" in line.lower():
            return line[:300]
    return lines[-1][:300] if lines else ""


def run_one(command: str, cwd: Path, timeout: float) -> tuple[str, str]:
    """Runs one pipeline in bash with pipefail; its status and output."""
    try:
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", command],
            cwd=cwd,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return "timeout", f"timed out after {timeout:.0f} s"
    status = "pass" if done.returncode == 0 else "fail"
    return status, (done.stdout[-2000:] + done.stderr[-4000:])


@dataclass
class FileResult:
    name: str
    runs: dict[str, list[Outcome]] = field(default_factory=dict)

    def passed(self, tools: str) -> int:
        return sum(o.status == "pass" for o in self.runs.get(tools, []))

    def counted(self, tools: str) -> int:
        return sum(o.status != "skipped" for o in self.runs.get(tools, []))

    def all_pass(self, tools: str) -> bool:
        counted = self.counted(tools)
        return counted > 0 and self.passed(tools) == counted

    def first_failure(self, tools: str) -> str:
        for o in self.runs.get(tools, []):
            if o.status in ("fail", "timeout"):
                return o.error or o.status
        return ""


def run_file(
    test: Path,
    checkout: Path,
    toolchains: Sequence[Toolchain],
    timeout: float,
) -> FileResult:
    result = FileResult(test.stem)
    try:
        lines = run_lines(test.read_text())
    except (ValueError, UnicodeDecodeError) as e:
        for tools in toolchains:
            result.runs[tools.name] = [Outcome(0, "", "fail", f"RUN lines: {e}")]
        return result
    for tools in toolchains:
        outcomes: list[Outcome] = []
        with tempfile.TemporaryDirectory(prefix=f"suite-{test.stem}-") as tmp:
            for line in lines:
                command = substitute(line.command, test, checkout, tools, Path(tmp))
                if line.skipped:
                    outcomes.append(Outcome(line.number, command, "skipped"))
                    continue
                status, output = run_one(command, test.parent, timeout)
                error = "" if status == "pass" else first_error(output)
                outcomes.append(
                    Outcome(line.number, command, status, error, output[-1500:])
                )
        result.runs[tools.name] = outcomes
    return result


def cause(error: str) -> str:
    """An error line with its file, position and numbers taken out."""
    error = re.sub(r"^\S*?:\d+:\d+:\s*", "", error)
    error = re.sub(r"^[\w./\-]+\.mlir:\s*", "", error)
    error = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", error)
    return re.sub(r"\d+", "N", error)[:160]


def report(results: Sequence[FileResult], names: Sequence[str]) -> str:
    reference, ours = names[0], names[-1]
    out: list[str] = []
    width = max([len(r.name) for r in results] + [4])
    header = f"{'file':<{width}}  " + "  ".join(f"{n:>9}" for n in names)
    out += [header + "  first xsparse error", "-" * (len(header) + 22)]
    for r in results:
        cells = "  ".join(f"{r.passed(n):>4}/{r.counted(n):<4}" for n in names)
        out.append(f"{r.name:<{width}}  {cells}  {r.first_failure(ours)}")
    out.append("")
    if reference != ours:
        judged = [r for r in results if r.all_pass(reference)]
        lines = sum(r.counted(reference) for r in judged)
        ours_lines = sum(r.passed(ours) for r in judged)
        ours_files = sum(r.all_pass(ours) for r in judged)
        out.append(
            f"{reference} passes {len(judged)} of {len(results)} files "
            f"({lines} RUN lines); xsparse passes {ours_files} of those "
            f"{len(judged)} files ({ours_lines} of {lines} RUN lines)"
        )
        better = [
            r.name for r in results if r.all_pass(ours) and not r.all_pass(reference)
        ]
        out.append(
            f"files {reference} fails and xsparse passes: "
            + (", ".join(better) if better else "none")
        )
        failing = [r for r in judged if not r.all_pass(ours)]
    else:
        failing = [r for r in results if not r.all_pass(ours)]
        out.append(
            f"xsparse passes {len(results) - len(failing)} of {len(results)} files "
            f"({sum(r.passed(ours) for r in results)} of "
            f"{sum(r.counted(ours) for r in results)} RUN lines)"
        )
    causes = Counter(cause(r.first_failure(ours)) for r in failing)
    if causes:
        out += ["", "xsparse's first error, by files:"]
        out += [f"{count:>4}  {text}" for text, count in causes.most_common()]
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    parser.add_argument("checkout", type=Path, help="an llvm-project checkout")
    parser.add_argument("names", nargs="*", help="test stems or globs (default: all)")
    parser.add_argument(
        "--no-mlir", action="store_true", help="do not run MLIR 22's tools"
    )
    parser.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--timeout", type=float, default=300, help="seconds per RUN line"
    )
    parser.add_argument("--json", type=Path, help="write every RUN line's outcome")
    args = parser.parse_args(argv)

    suite = args.checkout / SUITE
    if not suite.is_dir():
        print(f"mlir_suite: error: no {SUITE} under {args.checkout}", file=sys.stderr)
        return 2
    tests = sorted(suite.glob("*.mlir"))
    if args.names:
        tests = [
            t
            for t in tests
            if any(fnmatch.fnmatch(t.stem, n) or t.name == n for n in args.names)
        ]
    toolchains = [Toolchain("xsparse", "xsparse-opt", "xsparse-run")]
    if not args.no_mlir:
        if shutil.which("mlir-opt-22") is None:
            print("mlir_suite: error: mlir-opt-22 is not installed", file=sys.stderr)
            return 2
        toolchains.insert(0, Toolchain("mlir-22", "mlir-opt-22", "mlir-runner-22"))
    checkout = args.checkout.resolve()
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(
            pool.map(
                lambda t: run_file(t.resolve(), checkout, toolchains, args.timeout),
                tests,
            )
        )
    print(report(results, [t.name for t in toolchains]))
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    r.name: {n: [asdict(o) for o in runs] for n, runs in r.runs.items()}
                    for r in results
                },
                indent=1,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
