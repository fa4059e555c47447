"""`xsparse.xdsl_adapter`: what it wraps still behaves as xsparse's
hand-written syntax relies on, and nothing else reaches into xDSL's privates."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, i32
from xdsl.ir import Block, Region
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


def sparsify_in_a_child(text: str) -> tuple[str, float]:
    """`xsparse-opt - --sparsifier` on `text` in a child process: its output and
    the seconds it took."""
    import subprocess
    import sys
    import time

    start = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "xsparse.tools.opt", "-", "--sparsifier"],
        input=text,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout, time.monotonic() - start


def test_passes_take_linear_time_in_the_nesting_depth() -> None:
    """The sparsifier over regions nested 2 x 10^4 deep: seconds (xDSL's
    recursive walks and a dominance check that climbed through every
    ancestor took minutes: 368 s)."""

    depth = 20000
    body = "  %t = arith.constant true\n" + "scf.if %t {\n" * depth + "}\n" * depth
    output, seconds = sparsify_in_a_child("func.func @f() {\n" + body + "  return\n}\n")
    assert "llvm.func @f" in output
    assert seconds < 90


def test_dead_code_questions_take_linear_time_under_an_effect() -> None:
    """The sparsifier over `scf.if`s nested 1500 deep around a `vector.print`:
    seconds (xDSL's dead-code check walked each level's whole nest, once per
    level and pass: 2000 levels took 507 s)."""

    depth = 1500
    body = (
        "  %t = arith.constant true\n  %c = arith.constant 2.5 : f64\n"
        + "scf.if %t {\n" * depth
        + "vector.print %c : f64\n"
        + "}\n" * depth
    )
    output, seconds = sparsify_in_a_child("func.func @f() {\n" + body + "  return\n}\n")
    assert output.count("llvm.call @printF64") == 1
    assert seconds < 90


def test_lasting_effects_keep_exactly_the_ops_with_effects() -> None:
    """`IterativeRewriteWalker`'s dead-code step erases an unused nest of reads
    and keeps one whose innermost op writes, however the question is asked."""
    from xdsl.dialects import arith, memref, scf
    from xdsl.dialects.builtin import IndexType, MemRefType, f64
    from xdsl.pattern_rewriter import GreedyRewritePatternApplier

    from xsparse.xdsl_adapter import IterativeRewriteWalker, LastingEffects

    def nest(write: bool) -> tuple[Block, scf.IfOp]:
        block = Block(arg_types=[MemRefType(f64, [4]), IndexType()])
        buffer, index = block.args
        cond = arith.ConstantOp.from_int_and_width(1, 1)
        inner = Block()
        value = memref.LoadOp.get(buffer, [index])
        inner.add_ops([value])
        if write:
            inner.add_op(memref.StoreOp.get(value.res, buffer, [index]))
        inner.add_op(scf.YieldOp())
        innermost = scf.IfOp(cond, [], [inner])
        outer = innermost
        for _ in range(3):
            outer = scf.IfOp(cond, [], [Block([outer, scf.YieldOp()])])
        block.add_ops([cond, outer])
        return block, outer

    lasting = LastingEffects()
    _, kept = nest(write=True)
    assert lasting(kept) and kept in lasting.known
    _, dropped = nest(write=False)
    assert not lasting(dropped) and dropped not in lasting.known
    for write in (False, True):
        block, outer = nest(write)
        IterativeRewriteWalker(GreedyRewritePatternApplier([])).rewrite_region(
            Region([block])
        )
        assert (outer.parent is block) == write
