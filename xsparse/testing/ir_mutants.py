"""Mutants of the kernel corpus: each must compile or get a located diagnostic.

A seed picks a text of the corpus (the kernels of `tests/kernels`, the gpu
and sliced-tensor texts of `tests/ir_corpus` and the round-trip chunks of
`tests/filecheck/dialects`) and one to three edits: tokens dropped, repeated,
swapped or replaced; lines deleted, duplicated or swapped; element types
(f16, bf16, i8, complex, ...), shapes and ranks changed; level formats, their
properties and bit widths changed; affine maps permuted, shortened, widened or
given out-of-range dimensions; integer constants pushed past a rank; float
literals made huge or hexadecimal; dimension slices
(`#sparse_tensor<slice(offset, size, stride)>`) added to an encoding's
dimensions, dropped or given other (dynamic, zero, negative, huge) values;
regions nested up to 3000 deep or attributes of nested brackets; constant
lines repeated thousands of times; functions renamed to names that need
quotes; narrow position and coordinate widths given to encodings;
the gpu ops of MLIR 22's sparse GPU code generation (`dialects.upstream.gpu`) made
synchronous or asynchronous, their token dependencies, dimensions, bounds,
transpose modes, launch configurations and kernel symbols changed, or an op
swapped for one of its family (`create_csr` for `create_coo`, `spmv` for
`spmm`, ...).

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
AFFINE_MAP = re.compile(
    r"\(((?:[\w, ]|: #[\w.]+(?:<slice\([^()]*\)>)?)*)\) -> \(([^()<>]*)\)"
)
"""An affine map or an encoding's map; its dimensions may be sliced
(`i : #sparse_tensor<slice(...)>`, `i : #alias`)."""
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
EXTRA_CORPUS = "ir_corpus"
"""Texts beside the kernels, under `tests/`: MLIR 22's sparse GPU code
generation (`gpu/`, library calls and outlined kernels) and sliced sparse
tensors (`slice/`)."""

SLICE = re.compile(r"#sparse_tensor<slice\(([^()]*)\)>")
"""A dimension slice, standalone or in an encoding's map."""
SLICE_VALUES = [
    "?", "?", "0", "1", "2", "3", "4", "8", "-1", "1000000000000",
    "9223372036854775807", "9223372036854775808",
]  # fmt: skip
"""An offset, size or stride: dynamic, zero, within a shape, past it, negative,
past an int64_t."""
ENCODING_DIMS = re.compile(r"(?<=map = \()((?:[^()]|\([^()]*\))*)(?=\) ->)")
"""The dimensions of an encoding's map, with their slices
(`i : #sparse_tensor<slice(...)>`)."""

GPU_OP = re.compile(r"\bgpu\.\w+")
GPU_FAMILIES: list[list[str]] = [
    ["create_csr", "create_csc", "create_coo", "create_bsr"],
    ["spmv", "spmm", "sddmm"],
    ["spmv_buffer_size", "spmm_buffer_size", "sddmm_buffer_size"],
    ["destroy_sp_mat", "destroy_dn_tensor", "spgemm_destroy_descr"],
    ["thread_id", "block_id", "block_dim", "grid_dim", "global_id"],
    ["alloc", "dealloc"],
    ["spgemm_copy", "set_csr_pointers", "spmat_get_size"],
    ["wait", "memcpy"],
]
"""gpu ops that take one another's place: similar syntax, other operands
(all registered by `dialects.upstream.gpu` or xDSL)."""
ASYNC_OPS = re.compile(
    r"\bgpu\.(?:alloc|dealloc|memcpy|wait|launch_func|create_\w+|destroy_\w+|spmv\w*|"
    r"spmm\w*|sddmm\w*|spgemm_\w+|spmat_get_size|set_csr_pointers)\b(?! async)"
)
"""The gpu ops that may be asynchronous, where they are not."""
DEPENDENCIES = re.compile(r"\bgpu\.\w+ +(?:async +)?(\[(?:%[\w#]+(?:, %[\w#]+)*)?\])")
"""A gpu op's token dependencies (group 1)."""
GPU_DIMENSION = re.compile(
    r"\bgpu\.(?:thread_id|block_id|block_dim|grid_dim|global_id) +[xyz]\b"
)
"""A kernel index op up to its dimension (the match's last character)."""
UPPER_BOUND = re.compile(r" upper_bound -?\d+")
TRANSPOSE = re.compile(r"\{ *(?:NON_TRANSPOSE|TRANSPOSE|CONJUGATE_TRANSPOSE)\}")
TRANSPOSED_OPERAND = re.compile(
    r"\bgpu\.(?:spmv|spmm|sddmm)(?:_buffer_size)? +(?:async +)?(?:\[[^\]]*\] +)?%[\w#]+"
)
"""A sparse op up to its first operand, which a transpose mode may follow."""
TRANSPOSE_MODES: list[str] = [
    "{TRANSPOSE}",
    "{NON_TRANSPOSE}",
    "{CONJUGATE_TRANSPOSE}",
    "{ NONE}",
]
LAUNCH_SIZES = re.compile(r"\b(?:blocks|threads|clusters) in \(([^()]*)\)")
KERNEL_SYMBOL = re.compile(r"@(\w+)::@(\w+)")
LAUNCH_ARGUMENTS = re.compile(r"(?<=args\()([^()]*)(?=\))")
SSA_VALUE = re.compile(r"%[\w#]+")
GPU_KEYWORDS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r" attributes \{gpu\.container_module\}"), ""),
    (re.compile(r"\) kernel \{"), ") {"),
    (re.compile(r"(?<=gpu\.alloc) +host_shared"), ""),
    (re.compile(r"(?<=gpu\.alloc)(?= )(?! async| host_shared)"), " host_shared"),
    (re.compile(r" +dynamic_shared_memory_size %[\w#]+"), ""),
    (re.compile(r"\{(?:PRUNE_ONLY|PRUNE_AND_CHECK)\}"), "{PRUNE_AND_CHECK}"),
    (re.compile(r"\{(?:COMPUTE|WORK_ESTIMATION)\}"), "{WORK_ESTIMATION}"),
    (re.compile(r"\bgpu\.module @\w+"), "gpu.module @other"),
]
"""Keywords of the gpu syntax dropped, added or changed (pattern, replacement)."""


@dataclass(frozen=True)
class Source:
    """One text of the corpus."""

    name: str
    text: str


def _uncommented(text: str) -> str:
    lines = text.splitlines()
    return "\n".join(line for line in lines if not line.lstrip().startswith("//"))


def _files(directory: str) -> list[Source]:
    """The `.mlir` files under `tests/<directory>`, comments left out."""
    return [
        Source(path.relative_to(TESTS).as_posix(), _uncommented(path.read_text()))
        for path in sorted((TESTS / directory).rglob("*.mlir"))
    ]


@functools.cache
def corpus() -> tuple[Source, ...]:
    """The kernels, the gpu and sliced-tensor texts of `tests/ir_corpus`, then
    the round-trip chunks of the dialect tests."""
    sources = _files("kernels")
    if not sources:
        raise FileNotFoundError(f"no kernels under {TESTS}: run from a checkout")
    sources += _files(EXTRA_CORPUS)
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
    dims = _split_top_level(m.group(1))
    names = [d.split(" : ")[0] for d in dims]
    results = _split_top_level(m.group(2))
    if rng.random() < 0.25:
        if dims and rng.random() < 0.5:
            del dims[rng.randrange(len(dims))]
        else:
            dims.append(f"d{len(dims) + 7}")
    else:
        results = _new_affine_results(names, results, rng)
    new = f"({', '.join(dims)}) -> ({', '.join(results)})"
    return text[: m.start()] + new + text[m.end() :]


def _new_slice(rng: random.Random) -> str:
    """A `#sparse_tensor<slice(offset, size, stride)>` of `SLICE_VALUES`."""
    values = ", ".join(rng.choice(SLICE_VALUES) for _ in range(3))
    return f"#sparse_tensor<slice({values})>"


def _slice_dimensions(text: str, rng: random.Random) -> str | None:
    """A slice added to a dimension of an encoding's map, or one dropped."""
    matches = list(ENCODING_DIMS.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    dims = _split_top_level(m.group(1))
    if not dims:
        return None
    i = rng.randrange(len(dims))
    name, *annotation = dims[i].split(" : ", 1)
    dims[i] = name if annotation else f"{name} : {_new_slice(rng)}"
    return text[: m.start()] + ", ".join(dims) + text[m.end() :]


def _slice(text: str, rng: random.Random) -> str | None:
    """A dimension slice's offset, size or stride changed (to a dynamic, zero,
    negative or huge value), its values dropped or repeated; or a slice added
    to or dropped from an encoding's dimension."""
    matches = list(SLICE.finditer(text))
    if not matches or rng.random() < 0.4:
        return _slice_dimensions(text, rng)
    m = rng.choice(matches)
    values = [v.strip() for v in m.group(1).split(",")]
    kind = rng.choice(["value", "value", "value", "drop", "repeat"])
    i = rng.randrange(len(values))
    if kind == "drop":
        del values[i]
    elif kind == "repeat":
        values.insert(i, values[i])
    else:
        values[i] = rng.choice(SLICE_VALUES)
    return text[: m.start(1)] + ", ".join(values) + text[m.end(1) :]


def _gpu_family(text: str, rng: random.Random) -> str | None:
    """A gpu op replaced by another of its family."""

    def other(op: str) -> str:
        name = op.removeprefix("gpu.")
        family = [f for f in GPU_FAMILIES if name in f]
        return "gpu." + rng.choice(family[0] if family else [name])

    return _replace_match(text, GPU_OP, rng, other)


def _gpu_async(text: str, rng: random.Random) -> str | None:
    """An op made asynchronous, or synchronous (its dependencies kept or not)."""
    if rng.random() < 0.5:
        return _replace_match(text, ASYNC_OPS, rng, lambda op: op + " async")
    pattern = re.compile(r" async(?: \[[^\]]*\])?" if rng.random() < 0.5 else " async")
    return _replace_match(text, pattern, rng, lambda _: "")


def _gpu_dependencies(text: str, rng: random.Random) -> str | None:
    """A token dependency dropped, repeated, or replaced by another value."""
    values = sorted({m.group(0) for m in SSA_VALUE.finditer(text)})

    def edit(deps: str) -> str:
        tokens = [t.strip() for t in deps.strip("[]").split(",") if t.strip()]
        kind = rng.choice(["drop", "repeat", "replace", "empty"])
        if kind == "empty" or not tokens:
            return "[]"
        i = rng.randrange(len(tokens))
        if kind == "drop":
            del tokens[i]
        elif kind == "repeat":
            tokens.insert(i, tokens[i])
        else:
            tokens[i] = rng.choice(values)
        return f"[{', '.join(tokens)}]"

    matches = list(DEPENDENCIES.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    return text[: m.start(1)] + edit(m.group(1)) + text[m.end(1) :]


def _gpu_dimension(text: str, rng: random.Random) -> str | None:
    """A kernel index op's dimension or upper bound changed."""
    if UPPER_BOUND.search(text) and rng.random() < 0.5:
        bound = rng.choice(INTEGERS)
        return _replace_match(text, UPPER_BOUND, rng, lambda _: f" upper_bound {bound}")
    new = rng.choice(["x", "y", "z", "w", "x upper_bound 0", "y upper_bound 64"])
    return _replace_match(text, GPU_DIMENSION, rng, lambda old: old[:-1] + new)


def _gpu_transpose(text: str, rng: random.Random) -> str | None:
    """A transpose mode changed, dropped, or added to a sparse op's operand."""
    mode = rng.choice(TRANSPOSE_MODES)
    if TRANSPOSE.search(text) and rng.random() < 0.5:
        new = mode if rng.random() < 0.7 else ""
        return _replace_match(text, TRANSPOSE, rng, lambda _: new)
    return _replace_match(text, TRANSPOSED_OPERAND, rng, lambda old: old + mode)


def _gpu_launch(text: str, rng: random.Random) -> str | None:
    """A launch's grid sizes, kernel symbol or arguments changed."""
    kind = rng.choice(["sizes", "symbol", "arguments"])
    if kind == "symbol":
        return _replace_match(
            text,
            KERNEL_SYMBOL,
            rng,
            lambda old: rng.choice(
                [old.split("::")[1], old.split("::")[0], old + "::@x", "@x::@y"]
            ),
        )
    if kind == "arguments":

        def drop_argument(args: str) -> str:
            parts = _split_top_level(args)
            if parts:
                del parts[rng.randrange(len(parts))]
            return ", ".join(parts)

        return _replace_match(text, LAUNCH_ARGUMENTS, rng, drop_argument)

    matches = list(LAUNCH_SIZES.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    sizes = [size.strip() for size in m.group(1).split(",")]
    i = rng.randrange(len(sizes))
    if rng.random() < 0.5:
        del sizes[i]
    else:
        sizes[i] = rng.choice([*sizes, "%nope"])
    return text[: m.start(1)] + ", ".join(sizes) + text[m.end(1) :]


def _gpu_keyword(text: str, rng: random.Random) -> str | None:
    """A keyword of the gpu syntax dropped, added or changed (the container
    module's attribute, `kernel`, `host_shared`, launch options, ...)."""
    edits = [(p, new) for p, new in GPU_KEYWORDS if p.search(text)]
    if not edits:
        return None
    pattern, new = rng.choice(edits)
    return _replace_match(text, pattern, rng, lambda _: new)


GPU_EDITS: list[Mutation] = [
    _gpu_family,
    _gpu_async,
    _gpu_dependencies,
    _gpu_dimension,
    _gpu_transpose,
    _gpu_launch,
    _gpu_keyword,
]


def _gpu(text: str, rng: random.Random) -> str | None:
    """One edit of a gpu op of MLIR 22's sparse GPU code generation: the first
    of `GPU_EDITS`, in a random order, that applies to the text."""
    if not GPU_OP.search(text):
        return None
    for edit in rng.sample(GPU_EDITS, len(GPU_EDITS)):
        mutated = edit(text, rng)
        if mutated is not None and mutated != text:
            return mutated
    return None


def _integer(text: str, rng: random.Random) -> str | None:
    new = rng.choice(INTEGERS)
    return _replace_match(text, INTEGER, rng, lambda _: new)


def _float_literal(text: str, rng: random.Random) -> str | None:
    new = rng.choice(FLOATS)
    return _replace_match(text, FLOAT, rng, lambda _: new)


DEPTHS = [10, 100, 1000, 3000]
"""Nesting depths of `_nesting`: mlir-opt-22 takes 10^4 and more."""
RETURN_LINE = re.compile(r"^( *)(?:func\.)?return\b", re.MULTILINE)
FUNCTION_NAME = re.compile(r"(?<=func\.func )(?:(?:private|public) )?@(\w+)")
QUOTED_NAMES = ['"my kernel"', '"a.b-c"', '"x$y"', '"\u00fcmlaut"', '"1st"', '"\\22"']
CONSTANT_LINE = re.compile(r"^( *)(%\w+) = arith\.constant (.*)$", re.MULTILINE)
PLAIN_ENCODING = re.compile(r"(#sparse_tensor\.encoding<\{ *map = [^{}]*?)( *\}>)")


def _edit_match(
    text: str,
    pattern: re.Pattern[str],
    rng: random.Random,
    new: Callable[[re.Match[str]], str],
) -> str | None:
    """One match of `pattern` replaced by `new(match)` (with its groups)."""
    matches = list(pattern.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    return text[: m.start()] + new(m) + text[m.end() :]


def _nesting(text: str, rng: random.Random) -> str | None:
    """Regions nested `DEPTHS` deep before a return, or an attribute of nested
    brackets on a function."""
    depth = rng.choice(DEPTHS)
    if rng.random() < 0.5:
        brackets = "[" * depth + "1" + "]" * depth
        return _replace_match(
            text,
            re.compile(
                r"(?<=func\.func )(?:(?:private|public) )?@[\w\"]+\([^{]*?(?= *\{)",
                re.DOTALL,
            ),
            rng,
            lambda head: f"{head} attributes {{xsparse.deep = {brackets}}}",
        )

    def nest(m: re.Match[str]) -> str:
        pad = m.group(1)
        opened = f"{pad}%xsparse_true = arith.constant true\n" + "".join(
            f"{pad}scf.if %xsparse_true {{\n" for _ in range(depth)
        )
        return opened + f"{pad}}}\n" * depth + m.group(0)

    return _edit_match(text, RETURN_LINE, rng, nest)


def _size(text: str, rng: random.Random) -> str | None:
    """An `arith.constant` line repeated under new names, hundreds to
    thousands of times (long blocks)."""
    copies = rng.choice([100, 1000, 5000])

    def repeat(m: re.Match[str]) -> str:
        pad, name, rest = m.groups()
        names = (f"{name}_xsparse{k}" for k in range(copies))
        return "".join(f"{pad}{n} = arith.constant {rest}\n" for n in names) + m.group(
            0
        )

    return _edit_match(text, CONSTANT_LINE, rng, repeat)


def _symbol_name(text: str, rng: random.Random) -> str | None:
    """A function renamed, definition and uses, to a name that needs quotes."""
    names = FUNCTION_NAME.findall(text)
    if not names:
        return None
    old = rng.choice(names)
    new = rng.choice(QUOTED_NAMES)
    return re.sub(rf"@{re.escape(old)}\b", lambda _: f"@{new}", text)


def _narrow_widths(text: str, rng: random.Random) -> str | None:
    """An encoding without widths given narrow ones (8, 16 bits: results that
    overflow them must be refused, not wrapped)."""
    pos, crd = rng.choice(["8", "16", "32"]), rng.choice(["8", "16", "32"])
    return _edit_match(
        text,
        PLAIN_ENCODING,
        rng,
        lambda m: (
            f"{m.group(1)}, posWidth = {pos}, crdWidth = {crd}{m.group(2)}"
            if "Width" not in m.group(1)
            else m.group(0)
        ),
    )


MUTATIONS: list[tuple[Mutation, int]] = [
    (_token_edit, 3),
    (_line_edit, 3),
    (_element_type, 4),
    (_shape, 4),
    (_level_format, 4),
    (_bit_width, 2),
    (_affine_map, 4),
    (_integer, 3),
    (_float_literal, 6),
    (_slice, 3),
    (_gpu, 8),
    (_nesting, 2),
    (_size, 3),
    (_symbol_name, 2),
    (_narrow_widths, 2),
]


@dataclass(frozen=True)
class Mutant:
    """A text of the corpus after some edits."""

    source: Source
    edits: tuple[str, ...]
    """The names of the edits, in order."""
    text: str


def mutant(seed: int) -> Mutant:
    """The mutant a seed makes: a corpus text (a kernel 6 times in 10, a gpu or
    sliced-tensor text of `tests/ir_corpus` 2 times in 10, any text
    otherwise) and one to three edits."""
    rng = random.Random(seed)
    kernels = [s for s in corpus() if s.name.startswith("kernels/")]
    extra = [s for s in corpus() if s.name.startswith(f"{EXTRA_CORPUS}/")]
    draw = rng.random()
    source = rng.choice(
        kernels if draw < 0.6 else extra if draw < 0.8 and extra else corpus()
    )
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
