"""LLVM-dialect mutants of the masked intrinsics vectorized kernels lower to:
`llvm.intr.masked.load`, `.store`, `.gather` and `.scatter`
(`dialects.upstream.llvm`), round-tripped through `xsparse-opt` and MLIR 22.

A seed draws an `llvm.func` of one element type (f16 ... f64, i8 ... i64)
and lane count: masked loads with and without a pass-through and
`nontemporal`, vector GEPs (`inbounds`, `nuw`, i32 or i64 indices) into
gathers and scatters, masked stores; masks are arguments or
`llvm.mlir.constant(dense<[true, ...]>)`; alignments 1 to 64. One edit in
three breaks it: a mask, pass-through, stored value or pointer vector of
another lane count or type, an alignment that is not a power of two.

The verdict compares the tools:
- mlir-opt-22 accepts it: xsparse-opt must read it, its print must read back
  to itself (a fixpoint), mlir-opt-22 must read that print to the same
  module as the original, and xsparse-opt must read mlir-opt-22's print to
  the same module as its own.
- mlir-opt-22 refuses it: xsparse-opt must refuse it too, with a located
  diagnostic (`mutant.mlir:line:col: error: ...`).
Without mlir-opt-22, only xsparse-opt's fixpoint and diagnostics are judged.
"""

from __future__ import annotations

import io
import random
import shutil
import subprocess
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

from xsparse.testing.ir_mutants import diagnostic_problem
from xsparse.testing.outcome import CaseOutcome, Verdict
from xsparse.tools.opt import main as xsparse_opt

MLIR_OPT = "mlir-opt-22"
TIMEOUT_S = 30
ELEMENTS = ["f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64"]
LANES = [1, 2, 4, 8, 16]
ALIGNMENTS = [1, 2, 4, 8, 16, 64]
BAD_ALIGNMENTS = [0, 3, 6, 12]
GEP_FLAGS = ["", "inbounds ", "nuw ", "inbounds|nuw ", "nusw "]
EDITS = ("mask_lanes", "value_lanes", "value_type", "pointer_lanes", "alignment")
"""The edits that break a program (one case in three gets one)."""


@dataclass(frozen=True)
class Program:
    """A drawn program and the edit that broke it ("" for none)."""

    text: str
    edit: str


@dataclass
class _Draw:
    """Draws the lines of one function."""

    rng: random.Random
    element: str
    lanes: int
    edit: str
    lines: list[str]
    counter: int = 0

    def fresh(self) -> str:
        self.counter += 1
        return f"%v{self.counter}"

    def vector(self, lanes: int | None = None, element: str | None = None) -> str:
        return f"vector<{lanes or self.lanes}x{element or self.element}>"

    def attributes(self, nontemporal: bool = False) -> str:
        align = self.rng.choice(ALIGNMENTS)
        if self.edit == "alignment" and self.rng.random() < 0.5:
            align = self.rng.choice(BAD_ALIGNMENTS)
        flags = ", nontemporal" if nontemporal and self.rng.random() < 0.3 else ""
        return f"{{alignment = {align} : i32{flags}}}"

    def lanes_for(self, edit: str) -> int:
        """The lane count of an operand `edit` may change."""
        if self.edit != edit or self.rng.random() < 0.3:
            return self.lanes
        return self.rng.choice([n for n in LANES if n != self.lanes])

    def mask(self) -> str:
        lanes = self.lanes_for("mask_lanes")
        if self.rng.random() < 0.5:
            return "%mask" if lanes == self.lanes else self._constant_mask(lanes)
        return self._constant_mask(lanes)

    def _constant_mask(self, lanes: int) -> str:
        name = self.fresh()
        bits = ", ".join(self.rng.choice(["true", "false"]) for _ in range(lanes))
        mask = f"vector<{lanes}xi1>"
        self.lines.append(
            f"{name} = llvm.mlir.constant(dense<[{bits}]> : {mask}) : {mask}"
        )
        return name

    def value(self, values: list[str]) -> tuple[str, str]:
        """A value to store or pass through, and its type."""
        lanes = self.lanes_for("value_lanes")
        element = self.element
        if self.edit == "value_type" and self.rng.random() < 0.7:
            element = self.rng.choice([e for e in ELEMENTS if e != self.element])
        if lanes == self.lanes and element == self.element:
            return self.rng.choice(values), self.vector()
        name = self.fresh()
        vtype = self.vector(lanes, element)
        self.lines.append(f"{name} = llvm.mlir.poison : {vtype}")
        return name, vtype

    def pointers(self) -> tuple[str, str]:
        lanes = self.lanes_for("pointer_lanes")
        width = self.rng.choice(["i32", "i64"])
        name, indices = self.fresh(), self.fresh()
        itype = f"vector<{lanes}x{width}>"
        steps = ", ".join(str(self.rng.randrange(8)) for _ in range(lanes))
        ptrs = f"vector<{lanes}x!llvm.ptr>"
        self.lines.append(
            f"{indices} = llvm.mlir.constant(dense<[{steps}]> : {itype}) : {itype}"
        )
        self.lines.append(
            f"{name} = llvm.getelementptr {self.rng.choice(GEP_FLAGS)}%ptr[{indices}]"
            f" : (!llvm.ptr, {itype}) -> {ptrs}, {self.element}"
        )
        return name, ptrs


def masked_program(seed: int) -> Program:
    """The program of `seed`."""
    rng = random.Random(seed)
    edit = rng.choice(EDITS) if rng.random() < 1 / 3 else ""
    draw = _Draw(rng, rng.choice(ELEMENTS), rng.choice(LANES), edit, [])
    values = ["%pass"]
    for _ in range(rng.randint(2, 5)):
        kind = rng.choice(["load", "store", "gather", "scatter"])
        if kind in ("load", "gather"):
            result = draw.fresh()
            source, stype = ("%ptr", "!llvm.ptr") if kind == "load" else draw.pointers()
            mask = draw.mask()
            operands, types = [source, mask], [stype, _type_of(draw, mask)]
            if rng.random() < 0.6:
                thru, ttype = draw.value(values)
                operands.append(thru)
                types.append(ttype)
            attrs = draw.attributes(nontemporal=kind == "load")
            draw.lines.append(
                f"{result} = llvm.intr.masked.{kind} {', '.join(operands)} {attrs} : "
                f"({', '.join(types)}) -> {draw.vector()}"
            )
            values.append(result)
        else:
            target, ttype = (
                ("%ptr", "!llvm.ptr") if kind == "store" else draw.pointers()
            )
            value, vtype = draw.value(values)
            mask = draw.mask()
            draw.lines.append(
                f"llvm.intr.masked.{kind} {value}, {target}, {mask} "
                f"{draw.attributes()} : {vtype}, {_type_of(draw, mask)} into {ttype}"
            )
    returned = rng.choice(values)
    vtype = draw.vector()
    body = "".join(f"  {line}\n" for line in draw.lines)
    text = (
        f"llvm.func @masked(%ptr: !llvm.ptr, %mask: vector<{draw.lanes}xi1>, "
        f"%pass: {vtype}) -> {vtype} {{\n{body}  llvm.return {returned} : {vtype}\n}}\n"
    )
    return Program(text, edit)


def _type_of(draw: _Draw, mask: str) -> str:
    """The type of a mask `draw` made (the argument, or a constant line)."""
    if mask == "%mask":
        return f"vector<{draw.lanes}xi1>"
    line = next(line for line in draw.lines if line.startswith(f"{mask} = "))
    return line.rsplit(" : ", 1)[1]


# -- the tools -----------------------------------------------------------------------


@dataclass(frozen=True)
class Read:
    """What a tool made of a text: its print, or its diagnostic."""

    ok: bool
    output: str


def read_xsparse(text: str) -> Read:
    """`xsparse-opt mutant.mlir` (no passes), in process."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mutant.mlir"
        path.write_text(text)
        try:
            with redirect_stdout(stdout), redirect_stderr(stderr):
                status = xsparse_opt([str(path)])
        except Exception as e:
            return Read(False, f"xsparse-opt raised {type(e).__name__}: {e}")
        message = stderr.getvalue().replace(str(path), "mutant.mlir")
    return Read(status == 0, stdout.getvalue() if status == 0 else message)


def mlir_available() -> bool:
    return shutil.which(MLIR_OPT) is not None


def read_mlir(text: str) -> Read:
    """`mlir-opt-22` on `text` (no passes)."""
    try:
        done = subprocess.run(
            [MLIR_OPT, "-"],
            input=text,
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        return Read(False, f"{MLIR_OPT}: no result after {TIMEOUT_S} s")
    return Read(
        done.returncode == 0, done.stdout if done.returncode == 0 else done.stderr
    )


def check_case(seed: int, *, mlir: bool = True) -> CaseOutcome:
    """The verdict on the program of `seed` (`mlir`: against mlir-opt-22
    where it is installed)."""
    program = masked_program(seed)
    head = f"masked seed {seed} ({program.edit or 'valid'})\n"
    reproducer = f"# xsparse-opt mutant.mlir; {MLIR_OPT} mutant.mlir\n{program.text}"
    reference = read_mlir(program.text) if mlir and mlir_available() else None
    ours = read_xsparse(program.text)

    def outcome(verdict: Verdict, detail: str) -> CaseOutcome:
        return CaseOutcome(verdict, head + detail, reproducer)

    if not ours.ok:
        problem = diagnostic_problem(ours.output)
        if problem is not None:
            return outcome(Verdict.ERROR, f"xsparse-opt: {problem}\n{ours.output}")
        if reference is not None and reference.ok:
            return outcome(
                Verdict.WRONG,
                f"xsparse-opt refuses what {MLIR_OPT} reads:\n{ours.output}",
            )
        return outcome(Verdict.OK, "both refuse:\n" + ours.output)
    if reference is not None and not reference.ok:
        return outcome(
            Verdict.WRONG,
            f"xsparse-opt reads what {MLIR_OPT} refuses:\n{reference.output}",
        )
    again = read_xsparse(ours.output)
    if not again.ok or again.output != ours.output:
        return outcome(
            Verdict.WRONG,
            "xsparse-opt does not read back its own print to itself:\n"
            f"{ours.output}--- read back:\n{again.output}",
        )
    if reference is None:
        return outcome(Verdict.OK, "xsparse-opt's print is a fixpoint")
    theirs = read_mlir(ours.output)
    if not theirs.ok or theirs.output != reference.output:
        return outcome(
            Verdict.WRONG,
            f"{MLIR_OPT} reads xsparse-opt's print otherwise than the program:\n"
            f"{ours.output}--- {MLIR_OPT}:\n{theirs.output}",
        )
    back = read_xsparse(reference.output)
    if not back.ok or read_mlir(back.output).output != reference.output:
        return outcome(
            Verdict.WRONG,
            f"xsparse-opt reads {MLIR_OPT}'s print otherwise than {MLIR_OPT}:\n"
            f"{reference.output}--- xsparse-opt:\n{back.output}",
        )
    return outcome(Verdict.OK, "both read it, and each other's print")
