"""MLIR's `sparse<indices, values> : type` constant
(`xsparse.dialects.upstream.builtin.SparseElementsAttr`): its dense contents
and entries against numpy, and its text against mlir-opt-22's on random
constants (every element type the parser reads, splats, repeated and
unsorted indices, vectors)."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from io import StringIO

import numpy as np
import pytest
from xdsl.printer import Printer

from xsparse.diagnostics import XSparseError, parse_module
from xsparse.dialect_registry import make_context
from xsparse.dialects.upstream.builtin import SparseElementsAttr

ELEMENTS = ["f64", "f32", "i64", "i32", "i8", "i1", "index"]


def random_constant(rng: random.Random) -> tuple[str, np.ndarray]:
    """A `sparse<...>` literal and the dense numpy array it stands for (an
    index listed twice keeps its first value)."""
    element = rng.choice(ELEMENTS)
    shape = [rng.randint(1, 5) for _ in range(rng.randint(1, 3))]
    count = rng.randint(0, 6)
    coords = [[rng.randrange(d) for d in shape] for _ in range(count)]
    if element == "i1":
        values = [rng.choice([0, 1]) for _ in coords]
        texts = ["true" if v else "false" for v in values]
    elif element.startswith("f"):
        values = [rng.choice([0.5, -2.0, 3.25, 0.0, 1.0]) for _ in coords]
        texts = [repr(v) for v in values]
    else:
        values = [rng.randint(-100, 100) for _ in coords]
        texts = [str(v) for v in values]
    dense = np.zeros(shape, dtype=float)
    seen: set[tuple[int, ...]] = set()
    for c, v in zip(coords, values, strict=True):
        if tuple(c) not in seen:
            seen.add(tuple(c))
            dense[tuple(c)] = v
    flat = len(shape) == 1 and rng.random() < 0.5
    rows = [str(c[0]) if flat else str(c) for c in coords]
    kind = "vector" if rng.random() < 0.2 else "tensor"
    shaped = f"{kind}<{'x'.join(map(str, shape))}x{element}>"
    entries = f"[{', '.join(rows)}], [{', '.join(texts)}]" if coords else ""
    literal = f"sparse<{entries}> : {shaped}"
    return literal, dense


def program(literals: list[str]) -> str:
    body = "".join(f"  %c{i} = arith.constant {t}\n" for i, t in enumerate(literals))
    return f"func.func @f() {{\n{body}  return\n}}\n"


def constants(text: str) -> list[SparseElementsAttr]:
    module = parse_module(make_context(), text)
    return [
        op.properties["value"]
        for op in module.walk()
        if isinstance(op.properties.get("value"), SparseElementsAttr)
    ]


def printed(text: str) -> list[str]:
    """The constants' attributes as printed, one a line."""
    out = StringIO()
    Printer(stream=out).print_op(parse_module(make_context(), text))
    return [
        line.split("= arith.constant ")[1]
        for line in out.getvalue().splitlines()
        if "arith.constant" in line
    ]


def test_dense_contents_and_entries_match_numpy() -> None:
    rng = random.Random(0)
    cases = [random_constant(rng) for _ in range(200)]
    for (literal, dense), attr in zip(
        cases, constants(program([c[0] for c in cases])), strict=True
    ):
        # xDSL reads a signless i1 `true` as -1: compare magnitudes there.
        read = np.abs if "xi1>" in literal else np.asarray
        got = np.array(attr.dense_values(), dtype=float)
        assert np.array_equal(read(got), dense.reshape(-1)), literal
        coords, values = attr.entries()
        listed = [tuple(c) for c in coords.tolist()]
        assert listed == sorted(set(listed)), literal  # row-major, each once
        assert set(listed) == set(map(tuple, np.argwhere(dense).tolist())) | {
            c for c in listed if dense[c] == 0
        }, literal
        for c, v in zip(listed, values, strict=True):
            assert dense[c] == read(float(v)), literal


UNREADABLE = re.compile(r"^sparse<-?\d+, \[")
"""A splat of several indices, printed (by MLIR too) as one index with a list
of values: neither MLIR nor xsparse reads it back (one index, several values)."""


def test_printing_reads_back() -> None:
    rng = random.Random(1)
    once = printed(program([random_constant(rng)[0] for _ in range(300)]))
    readable = [t for t in once if not UNREADABLE.match(t)]
    assert 250 <= len(readable) < len(once)
    assert printed(program(readable)) == readable


@pytest.mark.skipif(
    not shutil.which("mlir-opt-22"), reason="mlir-opt-22 is not installed"
)
def test_printed_as_mlir_opt_prints() -> None:
    rng = random.Random(2)
    text = program([random_constant(rng)[0] for _ in range(300)])
    reference = mlir_opt(text)
    assert reference.returncode == 0, reference.stderr
    ours = printed(text)
    assert ours == [
        line.split("= arith.constant ")[1]
        for line in reference.stdout.splitlines()
        if "arith.constant" in line
    ]
    readable = [t for t in ours if not UNREADABLE.match(t)]
    assert mlir_opt(program(readable)).returncode == 0
    unreadable = next(t for t in ours if UNREADABLE.match(t))
    message = "inferred shape of indices literal"
    assert message in mlir_opt(program([unreadable])).stderr
    with pytest.raises(XSparseError, match=message):
        parse_module(make_context(), program([unreadable]))


def mlir_opt(text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["mlir-opt-22"], input=text, capture_output=True, text=True, timeout=60
    )
