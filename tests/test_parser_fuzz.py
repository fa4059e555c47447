"""Broken IR of every xsparse dialect gets a located diagnostic, never a
traceback and never a hang.

The round-trip corpus (the chunks of tests/filecheck/dialects/**.mlir and the
kernels of tests/kernels) is mutated token by token: tokens dropped,
repeated, swapped, replaced by another token of the corpus, numbers changed,
texts truncated. Each mutant goes through `parse_module` (parse + verify):
it either parses or raises XSparseError with `file:line:col: error:`.
"""

from __future__ import annotations

import random
import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from xsparse.diagnostics import XSparseError, parse_module
from xsparse.dialect_registry import make_context

TESTS = Path(__file__).parent
TOKEN = re.compile(r'"[^"\n]*"|[%^#!@]?[\w$.]+|->|\S')
NUMBERS = ["0", "-1", "1", "3", "64", "2147483648", "99999999999999999999"]
LOCATED = re.compile(r"^fuzz\.mlir:\d+:\d+: error: ", re.MULTILINE)


def corpus() -> list[str]:
    chunks: list[str] = []
    files = sorted((TESTS / "filecheck" / "dialects").rglob("*.mlir"))
    files += sorted((TESTS / "kernels").glob("*.mlir"))
    for path in files:
        if "invalid" in path.name or "Output" in path.parts:
            continue
        for chunk in path.read_text().split("// -----"):
            body = "\n".join(
                line
                for line in chunk.splitlines()
                if not line.lstrip().startswith("//")
            )
            if body.strip():
                chunks.append(body)
    return chunks


def mutate(text: str, vocabulary: list[str], rng: random.Random) -> str:
    spans = [m.span() for m in TOKEN.finditer(text)]
    if not spans:
        return text
    start, end = rng.choice(spans)
    kind = rng.choice(["drop", "repeat", "swap", "replace", "number", "truncate"])
    token = text[start:end]
    if kind == "drop":
        return text[:start] + text[end:]
    if kind == "repeat":
        return text[:end] + " " + token + text[end:]
    if kind == "swap":
        later = [s for s in spans if s[0] >= end]
        if later:
            s2, e2 = later[0]
            return text[:start] + text[s2:e2] + text[end:s2] + token + text[e2:]
        return text[:start]
    if kind == "replace":
        return text[:start] + rng.choice(vocabulary) + text[end:]
    if kind == "number":
        return text[:start] + rng.choice(NUMBERS) + text[end:]
    return text[:start]


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def hang(signum: int, frame: object) -> None:
        raise TimeoutError(f"parsing took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def outcome(text: str) -> str:
    ctx = make_context()
    try:
        with time_limit(10):
            parse_module(ctx, text, "fuzz.mlir")
    except XSparseError as e:
        assert LOCATED.search(str(e)), f"unlocated diagnostic: {e}"
        assert "internal error" not in str(e), f"a parser crashed on:\n{text}\n{e}"
        return "error"
    return "ok"


def test_corpus_parses() -> None:
    texts = corpus()
    assert len(texts) > 100
    assert {outcome(t) for t in texts} == {"ok"}


@pytest.mark.parametrize("seed", range(6))
def test_mutants_give_located_diagnostics(seed: int) -> None:
    rng = random.Random(seed)
    texts = corpus()
    vocabulary = sorted({m.group(0) for t in texts for m in TOKEN.finditer(t)})
    counts = {"ok": 0, "error": 0}
    for _ in range(500):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 3)):
            text = mutate(text, vocabulary, rng)
        counts[outcome(text)] += 1
    assert counts["error"] > 250


def test_unterminated_string_does_not_hang() -> None:
    text = 'func.func @f() attributes {e = "' + "a" * 200 + "}\n"
    assert outcome(text) == "error"
