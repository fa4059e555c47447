"""Mutants of the kernel corpus: each must compile or get a located diagnostic.

A seed picks a text of the corpus (the kernels of `tests/kernels` and the
round-trip chunks of `tests/filecheck/dialects`) and one to three edits:
tokens dropped, repeated, swapped or replaced; lines deleted, duplicated or
swapped; element types (f16, bf16, i8, complex, ...), shapes and ranks
changed; level formats, their properties and bit widths changed; affine maps
permuted, shortened, widened or given out-of-range dimensions; integer
constants pushed past a rank; float literals made huge or hexadecimal.

The mutant goes through `xsparse-opt -p sparsifier` (in process) and
`xsparse.compile`. Either works, or gets a located diagnostic
(`file:line:col: error: ...`); "internal error", a Python exception, a
diagnostic without a line and a hang are errors. A kernel that compiles is
called on small data (tensor and scalar arguments only): it runs or refuses
the data with a ValueError / TypeError; any other exception is an error (a
crash ends the process: `tools/fuzz.py` runs cases in child processes).
"""

from __future__ import annotations

import functools
import io
import math
import os
import random
import re
import signal
import tempfile
import threading
import traceback
import warnings
from collections.abc import Callable, Generator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import AnyFloat, FunctionType, IndexType, IntegerType

from xsparse.backend.kernel import Kernel
from xsparse.backend.kernel import compile as compile_kernel
from xsparse.backend.sparse_storage import numpy_dtype
from xsparse.diagnostics import XSparseError
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.testing.outcome import CaseOutcome, Verdict
from xsparse.tools.opt import main as xsparse_opt

TESTS = Path(__file__).resolve().parents[2] / "tests"
TIME_LIMIT_S = 60
"""Longer than any mutant of the corpus takes on a loaded machine: a hang."""
CALL_SIZE = 3
"""The size of every dynamic dimension of the data a kernel is called with."""
MAX_CALL_ELEMENTS = 4096

TOKEN = re.compile(r'"[^"\n]*"|[%^#!@]?[\w$.]+|->|\S')
ELEMENT_TYPE = re.compile(
    r"(?:(?<=[\d?]x)|(?<![\w.]))(?<!complex<)"
    r"(?:complex<(?:f16|f32|f64)>|bf16|f16|f32|f64|i1|i8|i16|i32|i64|index)(?![\w<])"
)
"""An element type, alone or in a shaped type (`?x?xf64`)."""
SIMILAR_TYPES = [
    ["f16", "bf16", "f32", "f64"],
    ["i8", "i16", "i32", "i64"],
    ["index", "i64", "i32"],
    ["complex<f32>", "complex<f64>"],
]
"""Types an element type may become with the kernel staying valid."""
ELEMENT_TYPES = sorted({t for similar in SIMILAR_TYPES for t in similar} | {"i1"})
SHAPED = re.compile(r"\b(tensor|memref|vector)<((?:(?:\?|\d+)x)*)")
DIMENSIONS = ["?", "?", "0", "1", "2", "3", "4", "8", "1000000000000"]
LEVEL = re.compile(
    r"(?<=: )(?:dense|compressed|singleton|loose_compressed|batch|block2_4|"
    r"structured\[\d+, *\d+\]|n_out_of_m\(\d+, *\d+\))(?:\([\w, ]*\))?"
)
LEVEL_FORMATS = [
    "dense", "compressed", "singleton", "loose_compressed", "batch",
    "structured[2, 4]", "structured[4, 8]", "structured[3, 2]", "block2_4",
    "n_out_of_m(2, 4)", "compressed(nonunique)", "compressed(nonordered)",
    "compressed(nonunique, nonordered)", "singleton(soa)",
    "singleton(nonunique, soa)", "loose_compressed(nonunique)",
    "compressed(nonunique, high)", "dense(nonunique)", "compressed(soa)",
]  # fmt: skip
WIDTH = re.compile(r"\b(posWidth|crdWidth) = \d+")
ENCODING_END = re.compile(r"\)(?= *\}>)")
WIDTHS = ["0", "1", "2", "7", "8", "16", "32", "64", "128"]
AFFINE_MAP = re.compile(r"\(([\w, ]*)\) -> \(([^()<>]*)\)")
INTEGER = re.compile(r"(?<![\w.#%@^$-])-?\d+(?![\w.])")
INTEGERS = [
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "-1",
    "64",
    "2147483648",
    "9223372036854775808",
]
"""Past a rank, a loop count, a level count or an integer type's range."""
FLOAT = re.compile(r"(?<![\w.])-?(?:\d+\.\d*(?:e[+-]?\d+)?|0x[0-9A-Fa-f]+)(?= *:)")
FLOATS = [
    "0x7C00", "0xFFFF", "0x1FFFF", "0x7F800000", "0x7FF0000000000000",
    "0xFFFFFFFFFFFFFFFFFF", "1.0e309", "65520.0", "1.0e-50", "-0.0", "0x1",
]  # fmt: skip
LOCATED = re.compile(r"^(?:mutant\.mlir|<source>):\d+:\d+: error: ", re.MULTILINE)
PYTHON_ERROR = re.compile(
    r"\b(?:IndexError|KeyError|TypeError|ValueError|AttributeError|AssertionError|"
    r"ZeroDivisionError|OverflowError|RecursionError|NotImplementedError|"
    r"UnboundLocalError|StopIteration)\b"
)
MODULE_LEVEL = ("name the entry function", "no public function")
"""`xsparse.compile`'s diagnostics about the module as a whole (no line to name)."""


@dataclass(frozen=True)
class Source:
    """One text of the corpus."""

    name: str
    text: str


def _uncommented(text: str) -> str:
    lines = text.splitlines()
    return "\n".join(line for line in lines if not line.lstrip().startswith("//"))


@functools.cache
def corpus() -> tuple[Source, ...]:
    """The kernels, then the round-trip chunks of the dialect tests."""
    sources = [
        Source(path.relative_to(TESTS).as_posix(), _uncommented(path.read_text()))
        for path in sorted((TESTS / "kernels").rglob("*.mlir"))
    ]
    if not sources:
        raise FileNotFoundError(f"no kernels under {TESTS}: run from a checkout")
    for path in sorted((TESTS / "filecheck" / "dialects").rglob("*.mlir")):
        if "invalid" in path.name or "Output" in path.parts:
            continue
        for i, chunk in enumerate(path.read_text().split("// -----")):
            body = _uncommented(chunk)
            if body.strip():
                name = f"{path.relative_to(TESTS).as_posix()}#{i}"
                sources.append(Source(name, body))
    return tuple(sources)


@functools.cache
def vocabulary() -> tuple[str, ...]:
    return tuple(sorted({m.group(0) for s in corpus() for m in TOKEN.finditer(s.text)}))


Mutation = Callable[[str, random.Random], str | None]
"""An edit of a text; None where the text has nothing it applies to."""


def _replace_match(
    text: str, pattern: re.Pattern[str], rng: random.Random, new: Callable[[str], str]
) -> str | None:
    """One match of `pattern` replaced by `new(match)`."""
    matches = list(pattern.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    return text[: m.start()] + new(m.group(0)) + text[m.end() :]


def _token_edit(text: str, rng: random.Random) -> str | None:
    spans = [m.span() for m in TOKEN.finditer(text)]
    if not spans:
        return None
    i = rng.randrange(len(spans))
    start, end = spans[i]
    token = text[start:end]
    kind = rng.choice(["drop", "repeat", "swap", "replace"])
    if kind == "drop":
        return text[:start] + text[end:]
    if kind == "repeat":
        return text[:end] + " " + token + text[end:]
    if kind == "swap" and i + 1 < len(spans):
        s2, e2 = spans[i + 1]
        return text[:start] + text[s2:e2] + text[end:s2] + token + text[e2:]
    return text[:start] + rng.choice(vocabulary()) + text[end:]


def _line_edit(text: str, rng: random.Random) -> str | None:
    lines = text.splitlines()
    if len(lines) < 2:
        return None
    i = rng.randrange(len(lines))
    kind = rng.choice(["delete", "duplicate", "swap", "move"])
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    elif kind == "swap" and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    else:
        lines.insert(rng.randrange(len(lines)), lines.pop(i))
    return "\n".join(lines)


def _element_type(text: str, rng: random.Random) -> str | None:
    """Every occurrence of an element type changed (to a similar type, 7 times
    in 10), or one occurrence."""
    found = sorted({m.group(0) for m in ELEMENT_TYPE.finditer(text)})
    if not found:
        return None
    old = rng.choice(found)
    similar = [t for group in SIMILAR_TYPES if old in group for t in group]
    new = rng.choice(similar if similar and rng.random() < 0.7 else ELEMENT_TYPES)
    if rng.random() < 0.7:
        return ELEMENT_TYPE.sub(
            lambda m: new if m.group(0) == old else m.group(0), text
        )
    return _replace_match(text, ELEMENT_TYPE, rng, lambda _: new)


def _new_dimensions(dims: str, rng: random.Random) -> str:
    sizes = dims.split("x")[:-1]
    kind = rng.choice(["resize", "add", "drop"])
    if kind == "resize" and sizes:
        sizes[rng.randrange(len(sizes))] = rng.choice(DIMENSIONS)
    elif kind == "drop" and sizes:
        del sizes[rng.randrange(len(sizes))]
    else:
        sizes.insert(rng.randint(0, len(sizes)), rng.choice(DIMENSIONS))
    return "".join(f"{s}x" for s in sizes)


def _shape(text: str, rng: random.Random) -> str | None:
    """A changed size or rank, in one type or in every type of the same shape."""
    matches = list(SHAPED.finditer(text))
    if not matches:
        return None
    chosen = rng.choice(matches)
    new = f"{chosen.group(1)}<{_new_dimensions(chosen.group(2), rng)}"
    if rng.random() < 0.5:
        return text[: chosen.start()] + new + text[chosen.end() :]
    return text.replace(chosen.group(0), new)


def _level_format(text: str, rng: random.Random) -> str | None:
    new = rng.choice(LEVEL_FORMATS)
    return _replace_match(text, LEVEL, rng, lambda _: new)


def _bit_width(text: str, rng: random.Random) -> str | None:
    width = rng.choice(WIDTHS)
    if WIDTH.search(text) and rng.random() < 0.5:
        return _replace_match(
            text, WIDTH, rng, lambda old: f"{old.split(' ')[0]} = {width}"
        )
    name = rng.choice(["posWidth", "crdWidth"])
    return _replace_match(text, ENCODING_END, rng, lambda _: f"), {name} = {width}")


def _split_top_level(results: str) -> list[str]:
    """The comma-separated parts of `results`, commas in brackets kept."""
    parts: list[str] = []
    depth = 0
    current = ""
    for ch in results:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def _compound(dims: list[str], rng: random.Random) -> str:
    """An expression of the dimensions other than one of them (division by
    zero and products of dimensions included: valid, and not affine)."""
    d = rng.choice(dims) if dims else "0"
    e = rng.choice(dims) if dims else "0"
    return rng.choice(
        [
            f"{d} floordiv 2", f"{d} mod 3", f"{d} * 2", f"{d} + {e}", "0", "3",
            f"{d} mod 0", f"{d} * {e}", f"{d} floordiv {e}",
        ]
    )  # fmt: skip


def _new_affine_results(
    dims: list[str], results: list[str], rng: random.Random
) -> list[str]:
    """Results permuted, dropped, duplicated, replaced by another dimension
    or by an expression (an encoding's level keeps its format)."""
    kind = rng.choice(["permute", "drop", "duplicate", "replace", "compound"])
    if kind == "permute":
        rng.shuffle(results)
    elif kind == "drop" and results:
        del results[rng.randrange(len(results))]
    elif kind == "duplicate" and results:
        results.insert(rng.randint(0, len(results)), rng.choice(results))
    elif results:
        i = rng.randrange(len(results))
        level = results[i].split(" : ", 1)
        expr = rng.choice(dims) if kind == "replace" and dims else _compound(dims, rng)
        results[i] = " : ".join([expr, *level[1:]])
    return results


def _affine_map(text: str, rng: random.Random) -> str | None:
    """Results permuted, dropped, duplicated or rewritten; a dimension added or dropped."""
    matches = list(AFFINE_MAP.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    dims = [d.strip() for d in m.group(1).split(",") if d.strip()]
    results = _split_top_level(m.group(2))
    if rng.random() < 0.25:
        if dims and rng.random() < 0.5:
            del dims[rng.randrange(len(dims))]
        else:
            dims.append(f"d{len(dims) + 7}")
    else:
        results = _new_affine_results(dims, results, rng)
    new = f"({', '.join(dims)}) -> ({', '.join(results)})"
    return text[: m.start()] + new + text[m.end() :]


def _integer(text: str, rng: random.Random) -> str | None:
    new = rng.choice(INTEGERS)
    return _replace_match(text, INTEGER, rng, lambda _: new)


def _float_literal(text: str, rng: random.Random) -> str | None:
    new = rng.choice(FLOATS)
    return _replace_match(text, FLOAT, rng, lambda _: new)


MUTATIONS: list[tuple[Mutation, int]] = [
    (_token_edit, 3),
    (_line_edit, 3),
    (_element_type, 4),
    (_shape, 4),
    (_level_format, 4),
    (_bit_width, 2),
    (_affine_map, 4),
    (_integer, 3),
    (_float_literal, 2),
]


@dataclass(frozen=True)
class Mutant:
    """A text of the corpus after some edits."""

    source: Source
    edits: tuple[str, ...]
    """The names of the edits, in order."""
    text: str


def mutant(seed: int) -> Mutant:
    """The mutant a seed makes: a corpus text (a kernel, 7 times in 10) and
    one to three edits."""
    rng = random.Random(seed)
    kernels = [s for s in corpus() if s.name.startswith("kernels/")]
    source = rng.choice(kernels if rng.random() < 0.7 else corpus())
    text = source.text
    functions = [f for f, _ in MUTATIONS]
    weights = [w for _, w in MUTATIONS]
    edits: list[str] = []
    wanted = rng.choice([1, 1, 1, 2, 2, 3])
    for _ in range(100):  # a text some edits do not apply to: draw again
        if len(edits) == wanted:
            break
        edit = rng.choices(functions, weights)[0]
        mutated = edit(text, rng)
        if mutated is not None and mutated != text:
            text = mutated
            edits.append(edit.__name__.lstrip("_"))
    return Mutant(source, tuple(edits), text)


class Hang(BaseException):
    """A stage ran past TIME_LIMIT_S (a BaseException: xsparse's handlers of
    a pass's failures must not take it for one)."""


@contextmanager
def _time_limit(seconds: int) -> Generator[None]:
    """SIGALRM in the main thread; no limit elsewhere (signals need it)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise Hang(f"no answer after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def diagnostic_problem(message: str) -> str | None:
    """Why a diagnostic is not a good one, or None."""
    if "internal error" in message:
        return "internal error"
    if PYTHON_ERROR.search(message):
        return "a Python exception in a diagnostic"
    if not LOCATED.search(message) and not any(m in message for m in MODULE_LEVEL):
        return "a diagnostic without a location"
    return None


@dataclass(frozen=True)
class StageResult:
    """What one tool made of a mutant."""

    kind: str
    """"works", "diagnosed" or "error"; for a call also "refused" (its
    arguments, by validation) or "skipped" (no data to call it with)."""
    text: str
    """The diagnostic, or what went wrong."""


def _judge(tool: str, message: str) -> StageResult:
    problem = diagnostic_problem(message)
    if problem is None:
        return StageResult("diagnosed", message)
    return StageResult("error", f"{tool}: {problem}\n{message}")


def _short_traceback(error: BaseException) -> str:
    """The traceback of `error` and of what caused it, each message cut to its
    first line (xDSL's pattern errors carry the whole module)."""
    parts: list[str] = []
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        first = (str(current).splitlines() or [""])[0][:300]
        parts.append(
            "".join(traceback.format_tb(current.__traceback__))
            + f"{type(current).__name__}: {first}"
        )
        current = current.__cause__ or current.__context__
    return "\n-- which led to --\n".join(reversed(parts))


def run_opt(text: str) -> StageResult:
    """`xsparse-opt mutant.mlir -p sparsifier`, in process."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mutant.mlir"
        path.write_text(text)
        args = [str(path), "-p", "sparsifier", "-o", str(Path(tmp) / "out.mlir")]
        previous = os.environ.get("XSPARSE_TRACEBACK")
        os.environ["XSPARSE_TRACEBACK"] = "1"  # a crash raises, with its traceback
        try:
            with (
                redirect_stdout(stdout),
                redirect_stderr(stderr),
                _time_limit(TIME_LIMIT_S),
            ):
                status = xsparse_opt(args)
        except Hang as e:
            return StageResult("error", f"xsparse-opt: hang: {e}")
        except Exception as e:
            return StageResult("error", "xsparse-opt: " + _short_traceback(e))
        finally:
            if previous is None:
                del os.environ["XSPARSE_TRACEBACK"]
            else:
                os.environ["XSPARSE_TRACEBACK"] = previous
        message = stderr.getvalue().replace(str(path), "mutant.mlir")
    if status == 0:
        return StageResult("works", "")
    return _judge("xsparse-opt", message)


def run_compile(text: str) -> tuple[StageResult, Kernel | None]:
    """`xsparse.compile(text)`, and the kernel when it compiles."""
    try:
        with _time_limit(TIME_LIMIT_S):
            kernel = compile_kernel(text)
    except XSparseError as e:
        return _judge("xsparse.compile", str(e)), None
    except Hang as e:
        return StageResult("error", f"xsparse.compile: hang: {e}"), None
    except Exception as e:
        return StageResult("error", "xsparse.compile: " + _short_traceback(e)), None
    return StageResult("works", ""), kernel


def call_arguments(signature: FunctionType, seed: int) -> list[object] | None:
    """Small data for a kernel: a numpy array per tensor (the kernel converts
    it to a sparse argument's format; entries from -4 to 4, no zero, so that
    integer division is defined), a number per scalar. None when an argument
    is a memref (raw buffers, unchecked: random data reads out of bounds) or
    too large."""
    rng = np.random.default_rng(seed)
    arguments: list[object] = []
    for t in signature.inputs.data:
        if is_tensor_type(t):
            shape = [CALL_SIZE if d < 0 else d for d in t.get_shape()]
            if math.prod(shape) > MAX_CALL_ELEMENTS:
                return None
            magnitudes = rng.integers(1, 5, size=shape)
            signs = rng.choice(np.array([-1, 1]), size=shape)
            dtype = numpy_dtype(t.element_type)
            arguments.append(np.asarray(magnitudes * signs).astype(dtype))
        elif isinstance(t, AnyFloat):
            arguments.append(1.5)
        elif isinstance(t, IntegerType | IndexType):
            arguments.append(2)
        else:
            return None
    return arguments


def run_call(kernel: Kernel, seed: int) -> StageResult:
    """The kernel called on `call_arguments`: it runs, or refuses its arguments
    with a ValueError / TypeError (validation); anything else is an error."""
    arguments = call_arguments(kernel.signature, seed)
    if arguments is None:
        return StageResult("skipped", "")
    try:
        with warnings.catch_warnings(), _time_limit(TIME_LIMIT_S):
            warnings.simplefilter("ignore")  # arguments converted to a format
            kernel(*arguments)
    except (ValueError, TypeError) as e:
        return StageResult("refused", f"{type(e).__name__}: {e}")
    except Hang as e:
        return StageResult("error", f"call: hang: {e}")
    except Exception as e:
        return StageResult("error", "call: " + _short_traceback(e))
    return StageResult("works", "")


def check_case(seed: int) -> CaseOutcome:
    """The mutant of `seed` through xsparse-opt and xsparse.compile, and a
    call of the kernel on small data where it compiles."""
    m = mutant(seed)
    header = f"// mutant {seed} of {m.source.name}: {', '.join(m.edits)}"
    reproducer = f"{header}\n{m.text}\n"
    compiled, kernel = run_compile(m.text)
    results = {"xsparse-opt": run_opt(m.text), "xsparse.compile": compiled}
    if kernel is not None:
        results["call"] = run_call(kernel, seed)
        reproducer += f"// called on call_arguments(signature, {seed})\n"
    errors = [r.text for r in results.values() if r.kind == "error"]
    if errors:
        return CaseOutcome(Verdict.ERROR, "\n".join(errors), reproducer)
    detail = "; ".join(
        f"{tool}: {r.kind}" + (f" ({r.text.splitlines()[0]})" if r.text else "")
        for tool, r in results.items()
    )
    return CaseOutcome(Verdict.OK, detail, reproducer)
