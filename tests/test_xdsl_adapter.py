"""`xsparse.xdsl_adapter`: what it wraps still behaves as xsparse's
hand-written syntax relies on, and nothing else reaches into xDSL's privates."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, i32
from xdsl.ir import Block
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xsparse.xdsl_adapter import (
    AdaptedParser,
    advance,
    dialect_with,
    peek,
    share_ssa_name,
    tensor_literal_shape,
)


def parser_for(text: str) -> Parser:
    ctx = Context()
    ctx.load_dialect(Builtin)
    return Parser(ctx, text, "<test>")


def test_peek_does_not_consume() -> None:
    parser = parser_for("  foo, 42")
    tok = peek(parser)
    assert (tok.kind, tok.text, tok.span.start) == (MLIRTokenKind.BARE_IDENT, "foo", 2)
    assert peek(parser).span.start == parser.pos == 2
    assert parser.parse_identifier() == "foo"


def test_peek_follows_the_parser() -> None:
    parser = parser_for("foo // a comment\n  , 42")
    parser.parse_identifier()
    tok = peek(parser)
    assert (tok.kind, tok.span.start, tok.span.end) == (MLIRTokenKind.COMMA, 19, 20)
    parser.parse_punctuation(",")
    assert peek(parser).kind == MLIRTokenKind.INTEGER_LIT
    assert parser.parse_integer() == 42


def test_peek_at_the_end() -> None:
    parser = parser_for("x  \n")
    parser.parse_identifier()
    tok = peek(parser)
    assert tok.kind == MLIRTokenKind.EOF
    assert tok.text == ""
    assert tok.span.input is parser.lexer.input


def test_advance_consumes_a_hash_identifier() -> None:
    parser = parser_for("#sparse_tensor<slice>")
    tok = advance(parser)
    assert (tok.kind, tok.text) == (MLIRTokenKind.HASH_IDENT, "#sparse_tensor")
    assert parser.parse_optional_punctuation("<") == "<"
    assert parser.parse_identifier() == "slice"


def test_share_ssa_name() -> None:
    block = Block(arg_types=[i32, i32, i32])
    first, second, third = block.args
    printer = Printer(stream=StringIO())
    assert printer.print_ssa_value(first) == "0"
    share_ssa_name(printer, second, first)
    assert printer.print_ssa_value(second) == "0"
    assert printer.print_ssa_value(third) == "1"


PRIVATE = re.compile(r"\._(current_token|consume_token|ssa_values)\b")
"""The xDSL private names the adapter wraps."""


def test_tensor_literal_shape() -> None:
    """The shapes MLIR's `TensorLiteralParser` infers, the parser after the
    literal."""
    cases = {
        "[[0, 0], [1, 2]]": [2, 2],
        "[1, 5]": [2],
        "7": [],
        "[]": [0],
        "[[]]": [1, 0],
        "[(1.0, 2.0)]": [1],
    }
    for text, shape in cases.items():
        parser = parser_for(text + " ,")
        assert tensor_literal_shape(parser) == shape, text
        assert parser.parse_optional_punctuation(",") == ","


def test_dialect_with_keeps_the_interfaces() -> None:
    """builtin's resource handles (`dense_resource<...>`) stay readable in
    the builtin dialect that adds `sparse<...>`."""
    from xdsl.dialects.builtin import DenseResourceAttr

    from xsparse.dialects.upstream.builtin import SparseElementsAttr

    ours = dialect_with(Builtin, [], [SparseElementsAttr])
    assert SparseElementsAttr in ours.attributes
    assert SparseElementsAttr not in Builtin.attributes
    ctx = Context()
    ctx.register_dialect("builtin", lambda: ours)
    parser = AdaptedParser(ctx, "dense_resource<blob> : tensor<4xf32>")
    assert isinstance(parser.parse_attribute(), DenseResourceAttr)


def test_keyword_attributes_come_from_the_context() -> None:
    """`sparse<...>` parses where the context's builtin dialect holds it, and
    is xDSL's error elsewhere (xDSL's own builtin dialect, xDSL's parser)."""
    from xdsl.utils.exceptions import ParseError

    from xsparse.dialect_registry import make_context
    from xsparse.dialects.upstream.builtin import SparseElementsAttr

    text = "sparse<[[1]], [2.0]> : tensor<4xf32>"
    attr = AdaptedParser(make_context(), text).parse_attribute()
    assert isinstance(attr, SparseElementsAttr)
    for parser in (AdaptedParser(parser_for("").ctx, text), parser_for(text)):
        with pytest.raises(ParseError):
            parser.parse_attribute()


def test_the_sparse_tensor_dialect_goes_through_the_adapter() -> None:
    package = Path(__file__).resolve().parent.parent / "xsparse" / "dialects"
    users = [
        f"{path.name} line {n}"
        for path in sorted((package / "sparse_tensor").rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if PRIVATE.search(line)
    ]
    assert users == []


def test_contexts_do_not_stack_the_additions() -> None:
    """Every context applies xsparse's additions to xDSL's dialects as it
    loads them, once per process: wraps of xDSL's methods never nest, so a
    long-running process can build contexts without end (each nesting level
    cost ~3 frames: a RecursionError came after a few hundred)."""
    from xsparse.diagnostics import parse_module
    from xsparse.dialect_registry import make_context

    text = (
        "func.func @f(%t: tensor<4xf64>, %a: i32) -> i32 {\n"
        "  %b = arith.addi %a, %a : i32\n"
        "  gpu.wait\n"
        "  return %b : i32\n"
        "}\n"
    )
    for _ in range(1500):
        module = parse_module(make_context(), text)
    assert "arith.addi" in str(module)


def test_an_indexing_map_dividing_by_zero_is_a_diagnostic() -> None:
    from xsparse.diagnostics import parse_module
    from xsparse.dialect_registry import make_context
    from xsparse.errors import XSparseError

    text = (
        "#map = affine_map<(i, j) -> (j mod 0)>\n"
        "func.func @f(%a: tensor<4xf64>, %o: tensor<4x4xf64>) -> tensor<4x4xf64> {\n"
        "  %r = linalg.generic {indexing_maps = [#map, affine_map<(i, j) -> (i, j)>],"
        ' iterator_types = ["parallel", "parallel"]}'
        " ins(%a : tensor<4xf64>) outs(%o : tensor<4x4xf64>) {\n"
        "  ^bb0(%x: f64, %y: f64):\n"
        "    linalg.yield %x : f64\n"
        "  } -> tensor<4x4xf64>\n"
        "  return %r : tensor<4x4xf64>\n"
        "}\n"
    )
    with pytest.raises(XSparseError, match="divides by zero"):
        parse_module(make_context(), text)


def test_walk_iteratively_visits_as_xdsl_walks() -> None:
    """`walk_iteratively` gives xDSL's `walk` order for every option, from an
    op, a region and a block."""
    from pathlib import Path

    from xdsl.parser import Parser

    from xsparse.dialect_registry import make_context
    from xsparse.xdsl_adapter import walk_iteratively

    kernels = sorted((Path(__file__).parent / "kernels").glob("*.mlir"))
    assert kernels
    for path in kernels:
        module = Parser(make_context(), path.read_text()).parse_module()
        for root in (module, module.body, module.body.blocks[0]):
            for reverse in (False, True):
                for region_first in (False, True):
                    assert list(
                        walk_iteratively(
                            root, reverse=reverse, region_first=region_first
                        )
                    ) == list(root.walk(reverse=reverse, region_first=region_first))


def test_passes_take_linear_time_in_the_nesting_depth() -> None:
    """The sparsifier over regions nested 2 x 10^4 deep: seconds (xDSL's
    recursive walks and a dominance check that climbed through every
    ancestor took minutes: 368 s)."""
    import subprocess
    import sys
    import time

    depth = 20000
    body = "  %t = arith.constant true\n" + "scf.if %t {\n" * depth + "}\n" * depth
    text = "func.func @f() {\n" + body + "  return\n}\n"
    start = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "xsparse.tools.opt", "-", "--sparsifier"],
        input=text,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "llvm.func @f" in run.stdout
    assert time.monotonic() - start < 90
