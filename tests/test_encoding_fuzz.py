"""Broken `#sparse_tensor.encoding` texts get a located diagnostic, never a crash.

Mutations of the round-trip and invalid corpora (dropped, repeated, swapped
and replaced tokens, wrong numbers, truncations) and hypothesis-generated
token soups go through `xsparse.diagnostics.parse_module`: each one either
parses, and then prints a text that parses back to the same encoding, or
raises XSparseError carrying `file:line:col: error: ...`.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func

from xsparse.diagnostics import XSparseError, parse_module
from xsparse.dialects.sparse_tensor import SparseTensor, SparseTensorEncodingAttr

CORPUS_DIR = Path(__file__).parent / "filecheck" / "dialects" / "sparse_tensor"
ENCODING = re.compile(r"#sparse_tensor\.encoding<\{.*\}>")
TOKEN = re.compile(
    r"#sparse_tensor\.encoding<|#sparse_tensor<|\d+\.\d+|->|[A-Za-z_][\w$.]*|\d+|\S"
)
REPLACEMENTS = [
    "0", "-1", "2", "99999999999999999999", "?", "dense", "compressed", "singleton",
    "structured", "floordiv", "mod", "map", "posWidth", "=", ":", ",", "(", ")", "[",
    "]", "{", "}", "<", ">", "->", "#sparse_tensor<", "slice", "-", "*", "+",
]  # fmt: skip
# No `"` here: a mutation that turns the mnemonic into an unterminated string
# sends xDSL 0.74's string-literal regex into exponential backtracking. Inside
# the body, quotes are caught first (test_character_soup has them).


def _context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Func, SparseTensor):
        ctx.load_dialect(dialect)
    return ctx


CTX = _context()


def corpus() -> list[str]:
    texts: list[str] = []
    for name in ("encoding.mlir", "encoding-invalid.mlir"):
        for line in (CORPUS_DIR / name).read_text().splitlines():
            if not line.startswith("//") and (match := ENCODING.search(line)):
                texts.append(match.group(0))
    return texts


def check(encoding_text: str) -> str:
    """Parse `encoding_text` as an attribute: 'ok' (an encoding that prints
    back to itself), 'other' (not an encoding) or 'error' (a located
    diagnostic); anything else raises."""
    source = f"func.func private @f() attributes {{e = {encoding_text}}}\n"
    try:
        module = parse_module(CTX, source, "fuzz.mlir")
    except XSparseError as e:
        assert re.match(r"fuzz\.mlir:\d+:\d+: error: ", str(e)), str(e)
        return "error"
    attr = _encoding_of(module)
    if attr is None:
        return "other"  # a mutation that hit the mnemonic itself
    # Printing is a fixpoint: the printed text parses back to the same value.
    again = _encoding_of(
        parse_module(CTX, source.replace(encoding_text, str(attr)), "again.mlir")
    )
    assert again == attr and str(again) == str(attr)
    return "ok"


def _encoding_of(module: ModuleOp) -> SparseTensorEncodingAttr | None:
    attr = next(iter(module.ops)).attributes["e"]
    return attr if isinstance(attr, SparseTensorEncodingAttr) else None


def mutate(text: str, rng: random.Random) -> str:
    tokens = TOKEN.findall(text) or ["map"]
    k = rng.randrange(len(tokens))
    kind = rng.choice(["drop", "repeat", "swap", "replace", "truncate", "number"])
    if kind == "drop":
        del tokens[k]
    elif kind == "repeat":
        tokens.insert(k, tokens[k])
    elif kind == "swap" and k + 1 < len(tokens):
        tokens[k], tokens[k + 1] = tokens[k + 1], tokens[k]
    elif kind == "replace":
        tokens[k] = rng.choice(REPLACEMENTS)
    elif kind == "truncate":
        tokens = tokens[:k]
    else:
        numbers = [i for i, t in enumerate(tokens) if t.isdigit()] or [k]
        tokens[rng.choice(numbers)] = str(rng.choice([0, 1, 3, 7, 65, 2**31, 2**63]))
    return " ".join(tokens)


def test_corpus_is_large() -> None:
    texts = corpus()
    assert len(texts) >= 100
    outcomes = {check(t) for t in texts}
    assert outcomes == {"ok", "error"}


def test_mutations_give_diagnostics() -> None:
    rng = random.Random(20240)
    texts = corpus()
    outcomes: dict[str, int] = {"ok": 0, "error": 0, "other": 0}
    for _ in range(3000):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 3)):
            text = mutate(text, rng)
        outcomes[check(text)] += 1
    # Most mutations break the text; some still parse and round-trip.
    assert outcomes["error"] > 2500 and outcomes["ok"] >= 10


def test_deep_and_long_expressions() -> None:
    deep = "(" * 5000 + "i" + ")" * 5000
    assert (
        check(f"#sparse_tensor.encoding<{{ map = (i) -> ({deep} : dense) }}>")
        == "error"
    )
    long = " + ".join(f"i floordiv {k + 2}" for k in range(5000))
    assert (
        check(f"#sparse_tensor.encoding<{{ map = [s](i) -> ({long} : dense) }}>")
        == "error"
    )
    negations = "- " * 5000 + "i"
    assert (
        check(f"#sparse_tensor.encoding<{{ map = (i) -> ({negations} : dense) }}>")
        == "error"
    )


SOUP = st.lists(
    st.sampled_from(
        REPLACEMENTS + ["i", "j", "d0", "s0", "1", "4", "crdWidth", "nonunique"]
    ),
    max_size=40,
)


@settings(max_examples=400, deadline=None)
@given(SOUP)
def test_token_soup(tokens: list[str]) -> None:
    assert check("#sparse_tensor.encoding<{ " + " ".join(tokens) + " }>") in (
        "ok",
        "error",
        "other",
    )


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='()[]{}<>:,=-+*?#0123456789 dijksmaprloe"', max_size=60))
def test_character_soup(body: str) -> None:
    assert check("#sparse_tensor.encoding<{ map = " + body + " }>") in (
        "ok",
        "error",
        "other",
    )
