"""What xsparse's hand-written syntax needs from xDSL's parser and printer
that xDSL 0.74 has no public method for.

This is the only module that may touch xDSL's private names; each line that
does says why. When an xDSL release renames one, `tests/test_xdsl_adapter.py`
fails here rather than the dialects built on it.
"""

import re
from collections.abc import Callable, Iterator, Sequence

from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.parser import AttrParser, BaseParser
from xdsl.pattern_rewriter import PatternRewriteWalker
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken


def peek(parser: BaseParser) -> MLIRToken:
    """The parser's next token, not consumed.

    xDSL exposes only where that token starts (`parser.pos`); lexing the
    parser's input again from there yields the same token."""
    lexer = MLIRLexer(parser.lexer.input)
    lexer.pos = parser.pos
    return lexer.lex()


def advance(parser: BaseParser) -> MLIRToken:
    """Consume the parser's next token, whatever its kind, and return it.

    For a lone `#name` (as in `#complex.number<...>` or
    `#sparse_tensor<slice(...)>` parsed by hand): xDSL's public methods each
    consume a token of one kind, and none consumes a `#name` without parsing
    the attribute after it."""
    # Private: GenericParser has no public way to consume an arbitrary token.
    return parser._consume_token()  # pyright: ignore[reportPrivateUsage]


def share_ssa_name(printer: Printer, value: SSAValue, named: SSAValue) -> None:
    """Print `value` under the name `printer` already gave `named`, as MLIR
    prints the block arguments of sibling regions that share a header.

    xDSL's Printer names each value once, from its name hint or a counter,
    and has no public method to give a value an existing name."""
    # Private: Printer keeps its value-to-name map in `_ssa_values` only.
    names = printer._ssa_values  # pyright: ignore[reportPrivateUsage]
    names[value] = names[named]


Position = int
"""An offset in the parsed text."""


def check_parsed_shaped_types(
    check: Callable[[AttrParser, Attribute, Position], None],
) -> None:
    """Call `check(parser, type, start)` on each `tensor<...>` and
    `memref<...>` type xDSL parses, as soon as it is parsed (the parser
    stands after its `>`; `start` is where its shape began).

    xDSL 0.74 parses them in `AttrParser._parse_tensor_attrs` and
    `_parse_memref_attrs` only, with no hook for their element type or
    encoding: those are wrapped."""

    def checked(parse: Callable[[AttrParser], Attribute]) -> Callable[..., Attribute]:
        def parse_checked(parser: AttrParser) -> Attribute:
            start = parser.pos
            parsed = parse(parser)
            check(parser, parsed, start)
            return parsed

        return parse_checked

    # Private: the shaped types' parsers have no public hook.
    tensor = AttrParser._parse_tensor_attrs  # pyright: ignore[reportPrivateUsage]
    memref = AttrParser._parse_memref_attrs  # pyright: ignore[reportPrivateUsage]
    AttrParser._parse_tensor_attrs = checked(tensor)  # pyright: ignore[reportAttributeAccessIssue, reportPrivateUsage]
    AttrParser._parse_memref_attrs = checked(memref)  # pyright: ignore[reportAttributeAccessIssue, reportPrivateUsage]


def extend_dialect(
    dialect: Dialect,
    ops: Sequence[type[Operation]],
    attrs: Sequence[type[Attribute]] = (),
) -> None:
    """Add `ops` and `attrs` to `dialect`, replacing any of the same name.

    A context copies a dialect's ops and attributes when it loads it, so this
    must run before. xDSL's `Dialect` is immutable to the public."""
    names = {op.name for op in ops}
    kept = [op for op in dialect.operations if op.name not in names]
    # Private: Dialect keeps its definitions in `_operations`/`_attributes` only.
    dialect._operations[:] = kept + list(ops)  # pyright: ignore[reportPrivateUsage]
    attr_names = {attr.name for attr in attrs}
    kept_attrs = [a for a in dialect.attributes if a.name not in attr_names]
    dialect._attributes[:] = kept_attrs + list(attrs)  # pyright: ignore[reportPrivateUsage]


def lex_string_literals_in_linear_time() -> None:
    """xDSL 0.74 lexes string literals with a nested quantifier, which takes
    exponential time on an unterminated string (a missing `"` hangs the
    parser); the same language, matched one character at a time."""
    # Private: the lexer's string-literal pattern has no public setter.
    MLIRLexer._unescaped_characters_regex = re.compile(  # pyright: ignore[reportPrivateUsage]
        r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'
    )


def resume_from(parser: BaseParser, pos: int) -> None:
    """Continue parsing at offset `pos` of the input (after text the caller
    read itself, e.g. a large dense literal read in bulk)."""
    # Private: xDSL's parser has no public way to move to a position.
    parser._resume_from(pos)  # pyright: ignore[reportPrivateUsage]


def walk_iteratively(
    root: Operation | Region | Block,
    *,
    reverse: bool = False,
    region_first: bool = False,
) -> Iterator[Operation]:
    """The ops of `root` in the order of xDSL's `walk(reverse=, region_first=)`,
    with a stack instead of one generator per level (xDSL's walk resumes
    every enclosing generator for each op: quadratic in the nesting depth)."""
    stack: list[tuple[Operation | Region | Block, bool]] = [(root, False)]
    while stack:
        item, finished = stack.pop()
        if finished:
            assert isinstance(item, Operation)
            yield item
            continue
        children: Sequence[Operation | Region | Block]
        if isinstance(item, Operation):
            if region_first:
                stack.append((item, True))
            else:
                yield item
            children = item.regions
        elif isinstance(item, Region):
            children = list(item.blocks)
        else:
            children = list(item.ops)
        ordered = list(reversed(children)) if reverse else list(children)
        stack.extend((child, False) for child in reversed(ordered))


class IterativeRewriteWalker(PatternRewriteWalker):
    """xDSL's `PatternRewriteWalker`, filling its worklist with
    `walk_iteratively`: a pass over IR nested 10^4 deep takes linear time,
    not minutes."""

    def _populate_worklist(self, op: Operation | Region | Block) -> None:
        # Private: the walker has no public hook for how it gathers the ops.
        for sub_op in walk_iteratively(
            op, reverse=not self.walk_reverse, region_first=not self.walk_regions_first
        ):
            self._worklist.push(sub_op)  # pyright: ignore[reportPrivateUsage]

    def _handle_operation_removal(self, op: Operation) -> None:
        # Private: as xDSL's, with the removed op's nested ops gathered by
        # `walk_iteratively` (an scf.if erased 10^4 levels deep).
        if self.apply_recursively:
            self._add_operands_to_worklist(op.operands)  # pyright: ignore[reportPrivateUsage]
        for sub_op in walk_iteratively(op) if op.regions else (op,):
            self._worklist.remove(sub_op)  # pyright: ignore[reportPrivateUsage]
