"""Run generated test cases for a while and report what failed.

    python tools/fuzz.py --minutes N
                         [--mode kernels|ir|einsum|decomposed|both|adversarial|masked]
                         [--jobs J] [--mlir]
                         [--shrink] [--out DIR] [--start-seed S] [--timeout SECONDS]

Mode `kernels` runs `xsparse.testing.kernels.check_case(seed, mlir=...)`
(random kernels against numpy, and with --mlir against MLIR 22), mode `ir`
runs `xsparse.testing.ir_mutants.check_case(seed)` (mutated IR must compile or
get a located diagnostic), mode `einsum` runs
`xsparse.testing.einsum_cases.check_einsum_case(seed)` (random einsum /
evaluate calls on numpy, scipy and SparseTensor operands against numpy),
mode `decomposed` runs
`xsparse.testing.decomposed_cases.check_decomposed_case(seed)` (random
matrices, rules, right-hand sides and outputs of `xsparse.composable`'s
decomposed products against numpy), `both` alternates all four. Mode
`adversarial` runs `xsparse.testing.adversarial_cases.check_adversarial_case(seed)`
(huge allocations, integer division by zero, narrow widths, refused calls
with out=, deep IR, quoted names, undecodable input, a tampered cache,
forks, thread counts and shapes), each case a script in a grandchild under
an address-space limit, classified as ok / refused / wrong / error / crash /
hang. Mode `masked` runs
`xsparse.testing.masked_mutants.check_case(seed)` (LLVM-dialect programs of
`llvm.intr.masked.load/store/gather/scatter`, valid or broken, read by
xsparse-opt and mlir-opt-22: both refuse, or both read each other's print to
the same module). Seeds run
from S upwards,
each in a child process of a pool of J workers: a child killed by a signal is
a CRASH for its seed, one running past the timeout a HANG; either is replaced
by a fresh child. Every failing case (wrong, error, crash, hang) gets a
reproducer file in DIR (default fuzz-findings/), with --shrink that of the
smallest variant of a failing kernel that still fails; the summary counts
verdicts and groups refusals and failures by message, each group with the
line that reruns its first seed.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import multiprocessing
import re
import signal
import sys
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.context import SpawnContext, SpawnProcess
from pathlib import Path

RERUN = {
    "kernels": ("kernels", "check_case"),
    "ir": ("ir_mutants", "check_case"),
    "einsum": ("einsum_cases", "check_einsum_case"),
    "decomposed": ("decomposed_cases", "check_decomposed_case"),
    "adversarial": ("adversarial_cases", "check_adversarial_case"),
    "masked": ("masked_mutants", "check_case"),
}
"""Per mode, the module and function that rerun one seed."""
VERDICTS = ["ok", "refused", "wrong", "error", "crash", "hang"]
Task = tuple[str, int]


def run_case(
    mode: str, seed: int, mlir: bool, shrink: bool = False
) -> tuple[str, str, str]:
    """(verdict, detail, reproducer) of one case, in this process."""
    try:
        if mode == "kernels" and shrink and not mlir:
            from xsparse.testing.kernels import check_shrunk

            outcome = check_shrunk(seed)
        elif mode == "kernels":
            from xsparse.testing.kernels import check_case

            outcome = check_case(seed, mlir=mlir)
        elif mode == "einsum":
            from xsparse.testing.einsum_cases import check_einsum_case

            outcome = check_einsum_case(seed)
        elif mode == "decomposed":
            from xsparse.testing.decomposed_cases import check_decomposed_case

            outcome = check_decomposed_case(seed)
        elif mode == "adversarial":
            from xsparse.testing.adversarial_cases import check_adversarial_case

            outcome = check_adversarial_case(seed)
        elif mode == "masked":
            from xsparse.testing.masked_mutants import check_case as check_masked

            outcome = check_masked(seed)
        else:
            from xsparse.testing.ir_mutants import check_case as check_mutant

            outcome = check_mutant(seed)
        return outcome.verdict.value, outcome.detail, outcome.reproducer
    except Exception:
        return "error", f"the checker failed:\n{traceback.format_exc()}", ""


def _worker(conn: Connection, mlir: bool, shrink: bool) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the pool
    while True:
        task = conn.recv()
        if task is None:
            return
        mode, seed = task
        conn.send(run_case(mode, seed, mlir, shrink))


@dataclass
class Worker:
    """A child process running one case at a time."""

    process: SpawnProcess
    conn: Connection
    task: Task | None = None
    started: float = 0.0
    done: collections.deque[Task] = field(
        default_factory=lambda: collections.deque(maxlen=4)
    )
    """The cases this child ran last: a crash from heap corruption happens
    where memory is freed, which may be in a case after the one at fault."""

    @classmethod
    def start(cls, ctx: SpawnContext, mlir: bool, shrink: bool) -> Worker:
        parent, child = ctx.Pipe()
        process = ctx.Process(target=_worker, args=(child, mlir, shrink), daemon=True)
        process.start()
        child.close()
        return cls(process, parent)

    def assign(self, task: Task) -> None:
        self.task = task
        self.started = time.monotonic()
        self.conn.send(task)

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


@dataclass
class Report:
    """What the run found, per mode."""

    out: Path
    counts: dict[str, collections.Counter[str]] = field(
        default_factory=lambda: collections.defaultdict(collections.Counter)
    )
    refusals: collections.Counter[str] = field(
        default_factory=lambda: collections.Counter[str]()
    )
    failures: dict[str, list[int]] = field(
        default_factory=lambda: collections.defaultdict(list)
    )
    seconds: float = 0.0

    def add(self, task: Task, verdict: str, detail: str, reproducer: str) -> None:
        mode, seed = task
        self.counts[mode][verdict] += 1
        if verdict == "refused":
            self.refusals[f"{mode}: {message_of(detail)}"] += 1
        elif verdict != "ok":
            self.failures[f"{mode} {verdict}: {message_of(detail)}"].append(seed)
            self._write(task, verdict, detail, reproducer)

    def _write(self, task: Task, verdict: str, detail: str, reproducer: str) -> None:
        mode, seed = task
        self.out.mkdir(parents=True, exist_ok=True)
        suffix = "py" if mode in ("kernels", "decomposed", "adversarial") else "txt"
        path = self.out / f"{mode}-seed{seed}-{verdict}.{suffix}"
        rerun = rerun_line(mode, seed)
        comment = "\n".join(f"# {line}" for line in detail.splitlines())
        path.write_text(
            f"# {mode} seed {seed}: {verdict.upper()}\n# rerun: {rerun}\n{comment}\n\n"
            + (reproducer or _reproducer(task))
        )

    def summary(self, jobs: int) -> str:
        lines: list[str] = []
        everything = sum(sum(c.values()) for c in self.counts.values())
        per_case = self.seconds * jobs / everything if everything else 0.0
        for mode, counts in sorted(self.counts.items()):
            total = sum(counts.values())
            lines.append(
                f"{mode}: {total} generated in {self.seconds / 60:.1f} min "
                f"({per_case:.2f} s/case over {jobs} job(s))"
            )
            lines.append(
                "  "
                + "  ".join(f"{v} {counts[v]}" for v in VERDICTS)
                + (
                    f"  (refused {100 * counts['refused'] / total:.1f}%)"
                    if total
                    else ""
                )
            )
        if self.refusals:
            lines.append("refusals by message:")
            lines += [f"  {n:6d}  {m}" for m, n in self.refusals.most_common()]
        if self.failures:
            lines.append(f"failures by message (reproducers in {self.out}/):")
            for message, seeds in sorted(
                self.failures.items(), key=lambda kv: -len(kv[1])
            ):
                shown = ", ".join(map(str, seeds[:12])) + (
                    " ..." if len(seeds) > 12 else ""
                )
                lines.append(f"  {len(seeds):6d}  {message}\n          seeds {shown}")
                mode = message.split(" ", 1)[0]  # the key is "<mode> <verdict>: ..."
                lines.append(f"          rerun: {rerun_line(mode, seeds[0])}")
        return "\n".join(lines)


def rerun_line(mode: str, seed: int) -> str:
    """The shell command that reruns `seed` of `mode`."""
    module, function = RERUN[mode]
    return (
        f"python -c 'from xsparse.testing.{module}"
        f" import {function}; print({function}({seed}))'"
    )


DIAGNOSTIC = re.compile(r"error: (.*)")
KNOWN = re.compile(r"^(\[known: [^\]]*\] )+")


def message_of(detail: str) -> str:
    """A failure's or refusal's message with locations and numbers generalized."""
    known = KNOWN.match(detail)
    if known:
        return known.group(0).strip()
    lines = [line for line in detail.splitlines() if line.strip()]
    if any(line.startswith("wrong result") for line in lines[:3]):
        return "wrong result"
    for line in lines:
        m = DIAGNOSTIC.search(line)
        if m and "Traceback" not in line:
            return _generalize(m.group(1))
    for line in reversed(lines):  # a traceback's last line
        if re.match(r"^\w+(Error|Exception)\b", line):
            return _generalize(line)
    body = [line for line in lines if not line.startswith("seed ")]
    return _generalize(body[0] if body else "(no detail)")


def _generalize(message: str) -> str:
    message = re.sub(r"%[\w#]+", "%_", message)
    return re.sub(r"\b\d+\b", "N", message)[:200]


def _reproducer(task: Task) -> str:
    """The reproducer of a case that gave none (it crashed or hung)."""
    mode, seed = task
    try:
        if mode == "kernels":
            from xsparse.testing.kernels import case_reproducer

            return case_reproducer(seed)
        if mode == "adversarial":
            from xsparse.testing.adversarial_cases import adversarial_case

            return adversarial_case(seed)[1]
        if mode == "decomposed":
            from xsparse.testing.decomposed_cases import (
                decomposed_reproducer,
                random_decomposed_case,
            )

            return decomposed_reproducer(random_decomposed_case(seed))
        if mode == "masked":
            from xsparse.testing.masked_mutants import masked_program

            return masked_program(seed).text
        return ""
    except Exception:
        return f"# building the reproducer failed:\n# {traceback.format_exc()}"


def tasks(mode: str, start: int) -> Iterator[Task]:
    seed = start
    while True:
        if mode in ("kernels", "both"):
            yield "kernels", seed
        if mode in ("ir", "both"):
            yield "ir", seed
        if mode in ("einsum", "both"):
            yield "einsum", seed
        if mode in ("decomposed", "both"):
            yield "decomposed", seed
        if mode in ("adversarial", "masked"):
            yield mode, seed
        seed += 1


def fuzz(args: argparse.Namespace) -> Report:
    ctx = multiprocessing.get_context("spawn")
    report = Report(Path(args.out))
    workers = [Worker.start(ctx, args.mlir, args.shrink) for _ in range(args.jobs)]
    todo = tasks(args.mode, args.start_seed)
    begin = time.monotonic()
    deadline = begin + args.minutes * 60
    try:
        while True:
            for w in workers:
                if w.task is None and time.monotonic() < deadline:
                    w.assign(next(todo))
            busy = [w for w in workers if w.task is not None]
            if not busy:
                break
            wait([w.conn for w in busy], timeout=1.0)
            for k, w in enumerate(workers):
                if w.task is not None and _collect(w, report, args.timeout):
                    w.stop()
                    workers[k] = Worker.start(ctx, args.mlir, args.shrink)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
    finally:
        for w in workers:
            w.stop()
        report.seconds = time.monotonic() - begin
    return report


def _collect(w: Worker, report: Report, timeout: float) -> bool:
    """Record `w`'s case if it is done; True when the worker must be replaced."""
    assert w.task is not None
    task = w.task
    if w.conn.poll():
        try:
            verdict, detail, reproducer = w.conn.recv()
        except (EOFError, OSError):
            w.process.join(5)
            code = w.process.exitcode
            what = (
                f"killed by {signal.Signals(-code).name}"
                if code is not None and code < 0
                else f"exited with {code}"
            )
            before = ", ".join(f"{mode} {seed}" for mode, seed in reversed(w.done))
            history = f"; the same child ran before it: {before}" if before else ""
            report.add(task, "crash", f"the child process {what}{history}", "")
            w.task = None
            return True
        report.add(task, verdict, detail, reproducer)
        w.done.append(task)
        w.task = None
        return False
    if time.monotonic() - w.started > timeout:
        report.add(task, "hang", f"no verdict after {timeout:.0f} s", "")
        w.task = None
        return True
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--minutes", type=float, required=True)
    parser.add_argument(
        "--mode",
        choices=[
            "kernels",
            "ir",
            "einsum",
            "decomposed",
            "both",
            "adversarial",
            "masked",
        ],  # fmt: skip
        default="kernels",
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--mlir", action="store_true", help="also compare with MLIR 22")
    parser.add_argument(
        "--shrink",
        action="store_true",
        help="write the smallest failing variant of a failing kernel (not with --mlir)",
    )
    parser.add_argument("--out", default="fuzz-findings")
    parser.add_argument("--start-seed", type=int, default=0)
    parser.add_argument(
        "--timeout", type=float, default=300, help="seconds before a case is a hang"
    )
    args = parser.parse_args(argv)
    if (
        args.mode in ("ir", "both")
        and importlib.util.find_spec("xsparse.testing.ir_mutants") is None
    ):
        parser.error("xsparse.testing.ir_mutants is not available (mode ir)")
    if args.mlir:
        from xsparse.testing.kernels import mlir_available

        if not mlir_available():
            parser.error("--mlir needs mlir-opt-22 and mlir-runner-22 on PATH")
    report = fuzz(args)
    print(report.summary(args.jobs))
    return 0 if not report.failures else 1


if __name__ == "__main__":
    sys.exit(main())
