"""What xsparse's hand-written syntax needs from xDSL's parser and printer
that xDSL 0.74 has no public method for.

This is the only module that may touch xDSL's private names; each line that
does says why. When an xDSL release renames one, `tests/test_xdsl_adapter.py`
fails here rather than the dialects built on it.
"""

import dataclasses
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from xdsl.context import Context
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation, OpDef
from xdsl.irdl.operations import get_accessors_from_op_def
from xdsl.parser import AttrParser, BaseParser, Parser
from xdsl.parser.generic_parser import ParserState
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.printer import Printer
from xdsl.traits import MemoryEffect, MemoryEffectKind, RecursiveMemoryEffect
from xdsl.transforms.dead_code_elimination import is_trivially_dead
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken, MLIRTokenKind


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


class LinearStringLexer(MLIRLexer):
    """xDSL's MLIR lexer, matching string literals one character at a time
    (xDSL 0.74's pattern nests a quantifier: exponential time on an
    unterminated string, so a missing `"` hangs the parser)."""

    # Private: the lexer's string-literal pattern is a class attribute only.
    _unescaped_characters_regex = re.compile(  # pyright: ignore[reportIncompatibleVariableOverride]
        r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'
    )


def tensor_literal_shape(parser: AttrParser) -> list[int]:
    """Parse a tensor literal (`[[1, 2], [3, 4]]`, or one element: a splat)
    and return its shape (`[]` for one element); the elements are read again
    from the text by the caller, with the type it then knows.

    xDSL reads tensor literals only inside `dense<...>`; MLIR's `sparse<...>`
    holds two of them."""
    try:
        # Private: xDSL's tensor-literal parser has no public name.
        return parser._parse_tensor_literal()[1]  # pyright: ignore[reportPrivateUsage]
    except AssertionError:
        # xDSL asserts the `)` of a complex element (`(1.0, 2.0 -1`).
        parser.raise_error("expected ')' after complex elements")


KEYWORD_ATTRIBUTES = ("sparse",)
"""The keywords of builtin attributes that xDSL's parser lacks, looked up in
the context as `builtin.<keyword>` (a `KeywordAttribute`)."""


class KeywordAttribute(ABC):
    """A builtin attribute spelled `keyword<...>` that xDSL's parser does not
    know (MLIR's `sparse<...>`): a context whose `builtin` dialect holds one
    (named `builtin.<keyword>`, the keyword in KEYWORD_ATTRIBUTES) parses it
    with `AdaptedParser`."""

    @classmethod
    @abstractmethod
    def parse_after_keyword(cls, parser: AttrParser, start: Position) -> Attribute:
        """Parse what follows the keyword, which began at `start`."""


class AdaptedParser(Parser):
    """xDSL's parser on `LinearStringLexer`, calling `check_shaped_type` on
    each `tensor<...>` and `memref<...>` type as soon as it is parsed (the
    parser stands after its `>`; `start` is where its shape began), and
    reading the `KeywordAttribute`s of its context's `builtin` dialect.

    xDSL 0.74 parses those types in `AttrParser._parse_tensor_attrs` and
    `_parse_memref_attrs` only, with no hook for their element type or
    encoding, and builtin attributes by a fixed table of keywords in
    `_parse_optional_builtin_parametrized_attr`: the subclass overrides them.
    Only parsers of this class see these changes; xDSL's own `Parser` is
    untouched."""

    def __init__(self, ctx: Context, text: str, name: str = "<unknown>") -> None:
        super().__init__(ctx, "", name)
        # Private: xDSL's parser builds its lexer in `__init__`, with no hook
        # for the lexer class; parsing starts over on ours.
        self._resume_from(ParserState(LinearStringLexer(Input(text, name))))  # pyright: ignore[reportPrivateUsage]

    def check_shaped_type(self, parsed: Attribute, start: Position) -> None:
        """Called on each parsed tensor or memref type; accepts all."""

    def _parse_tensor_attrs(self):  # pyright: ignore[reportIncompatibleMethodOverride]
        start = self.pos
        parsed = super()._parse_tensor_attrs()  # pyright: ignore[reportPrivateUsage]
        self.check_shaped_type(parsed, start)
        return parsed

    def _parse_memref_attrs(self):  # pyright: ignore[reportIncompatibleMethodOverride]
        start = self.pos
        parsed = super()._parse_memref_attrs()  # pyright: ignore[reportPrivateUsage]
        self.check_shaped_type(parsed, start)
        return parsed

    def _parse_optional_builtin_parametrized_attr(self) -> Attribute | None:
        parsed = super()._parse_optional_builtin_parametrized_attr()  # pyright: ignore[reportPrivateUsage]
        if parsed is not None:
            return parsed
        # Private: the current token, not lexed again for each attribute.
        token = self._current_token  # pyright: ignore[reportPrivateUsage]
        if token.kind != MLIRTokenKind.BARE_IDENT:
            return None
        if token.text not in KEYWORD_ATTRIBUTES:
            return None
        found = self.ctx.get_optional_attr(f"builtin.{token.text}")
        if found is None or not issubclass(found, KeywordAttribute):
            return None
        advance(self)
        return found.parse_after_keyword(self, token.span.start)


def dialect_with(
    dialect: Dialect,
    ops: Sequence[type[Operation]],
    attrs: Sequence[type[Attribute]] = (),
) -> Dialect:
    """A new dialect of `dialect`'s name: its ops and attributes, where those
    of `ops` and `attrs` replace any of the same name and add the others.
    `dialect` itself is unchanged."""
    names = {op.name for op in ops}
    kept = [op for op in dialect.operations if op.name not in names]
    attr_names = {attr.name for attr in attrs}
    kept_attrs = [a for a in dialect.attributes if a.name not in attr_names]
    # Private: a Dialect's interfaces (builtin's resource handles) have no
    # public accessor.
    interfaces = list(dialect._interfaces)  # pyright: ignore[reportPrivateUsage]
    return Dialect(dialect.name, [*kept, *ops], [*kept_attrs, *attrs], interfaces)


OpT = TypeVar("OpT", bound=IRDLOperation)


def redefined_op(
    change: Callable[[OpDef], None] = lambda definition: None,
) -> Callable[[type[OpT]], type[OpT]]:
    """Define a subclass of one of xDSL's op classes, of the same op name:
    its definition is a copy of the parent's changed by `change` (e.g. wider
    operand constraints), its methods (`parse`/`print`, `verify_`) the
    subclass's own.

    The parent class and its definition stay as they are, so only contexts
    that register the subclass parse into it; `isinstance` with the parent
    holds. (xDSL's `irdl_op_definition` cannot derive from a defined op: its
    fields are accessors by then.) The subclass's `verify_` replaces the
    parent's, which checks the parent's definition: call it only where that
    is right."""

    def define(cls: type[OpT]) -> type[OpT]:
        parent = cls.__mro__[1]
        assert issubclass(parent, IRDLOperation)
        old = parent.get_irdl_definition()
        definition = dataclasses.replace(
            old,
            operands=list(old.operands),
            results=list(old.results),
            regions=list(old.regions),
            successors=list(old.successors),
            properties=dict(old.properties),
            attributes=dict(old.attributes),
            accessor_names=dict(old.accessor_names),
        )
        change(definition)
        own = vars(cls)
        if "parse" in own or "print" in own:
            definition.assembly_format = None
        elif "assembly_format" in own:
            definition.assembly_format = own["assembly_format"]
        accessors = get_accessors_from_op_def(definition, own.get("verify_"))
        for name, value in accessors.items():
            if name in ("parse", "print") and name in own:
                continue
            setattr(cls, name, value)
        return cls

    return define


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


class LastingEffects:
    """Which ops hold, themselves or anywhere in their regions, an effect that
    outlives them: a write, a free, an allocation of no value, or an op of
    unknown effects (so no DCE may erase them, whatever their enclosing op).

    Only the "yes" answers are remembered, for the op asked about and every op
    on the path down to the effect: the next question about any of them is
    answered at once, so asking about each level of a nest 10^4 deep is
    linear, where xDSL's `is_trivially_dead` walks each level's whole nest. A
    "yes" that the IR has since made false only keeps an op alive (`forget`
    drops the answers above a changed op)."""

    def __init__(self) -> None:
        self.known: set[Operation] = set()

    def __call__(self, root: Operation) -> bool:
        if root in self.known:
            return True
        path: list[Operation] = []
        stack: list[tuple[Operation, int]] = [(root, 0)]
        while stack:
            op, depth = stack.pop()
            del path[depth:]
            path.append(op)
            if op in self.known or self.has_own_lasting_effect(op):
                self.known.update(path)
                return True
            if op.has_trait(RecursiveMemoryEffect):
                stack.extend(
                    (child, depth + 1)
                    for region in op.regions
                    for block in region.blocks
                    for child in block.ops
                )
        return False

    @staticmethod
    def has_own_lasting_effect(op: Operation) -> bool:
        traits = op.get_traits_of_type(MemoryEffect)
        if not traits:
            return True
        for trait in traits:
            if isinstance(trait, RecursiveMemoryEffect):
                continue
            effects = trait.get_effects(op)
            if effects is None:
                return True
            for effect in effects:
                passing = effect.kind == MemoryEffectKind.READ or (
                    effect.kind == MemoryEffectKind.ALLOC
                    and isinstance(effect.value, SSAValue)
                )
                if not passing:
                    return True
        return False

    def forget(self, op: Operation | None) -> None:
        """Drop the answers for `op` and the ops around it, up to the first
        without one (a change inside `op` may have removed its effect)."""
        while op is not None and op in self.known:
            self.known.discard(op)
            op = op.parent_op()


@dataclasses.dataclass(eq=False, repr=False)
class DeadCodeFirst(RewritePattern):
    """`GreedyRewritePatternApplier`'s own first step, erasing an op that is
    trivially dead, with `LastingEffects` answering at once for the ops whose
    nest surely keeps them (then `applier`, built without its DCE)."""

    applier: GreedyRewritePatternApplier
    lasting: LastingEffects

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if (
            all(result.first_use is None for result in op.results)
            and not self.lasting(op)
            and is_trivially_dead(op)
        ):
            rewriter.erase(op)
            return
        self.applier.match_and_rewrite(op, rewriter)


class IterativeRewriteWalker(PatternRewriteWalker):
    """xDSL's `PatternRewriteWalker`, filling its worklist with
    `walk_iteratively` and answering the applier's dead-code question with
    `DeadCodeFirst`: a pass over IR nested 10^4 deep takes linear time, not
    minutes, whatever the innermost op does."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lasting = LastingEffects()

    def rewrite_region(self, region: Region) -> bool:
        applier = self.pattern
        if not (
            isinstance(applier, GreedyRewritePatternApplier) and applier.dce_enabled
        ):
            return super().rewrite_region(region)
        self.pattern = DeadCodeFirst(
            dataclasses.replace(applier, dce_enabled=False), self.lasting
        )
        try:
            return super().rewrite_region(region)
        finally:
            self.pattern = applier
            self.lasting.known.clear()

    def _populate_worklist(self, op: Operation | Region | Block) -> None:
        # Private: the walker has no public hook for how it gathers the ops.
        for sub_op in walk_iteratively(
            op, reverse=not self.walk_reverse, region_first=not self.walk_regions_first
        ):
            self._worklist.push(sub_op)  # pyright: ignore[reportPrivateUsage]

    def _handle_operation_insertion(self, op: Operation) -> None:
        self.lasting.forget(op.parent_op())
        super()._handle_operation_insertion(op)

    def _handle_operation_modification(self, op: Operation) -> None:
        self.lasting.forget(op)
        super()._handle_operation_modification(op)

    def _handle_operation_removal(self, op: Operation) -> None:
        # Private: as xDSL's, with the removed op's nested ops gathered by
        # `walk_iteratively` (an scf.if erased 10^4 levels deep).
        self.lasting.forget(op.parent_op())
        if self.apply_recursively:
            self._add_operands_to_worklist(op.operands)  # pyright: ignore[reportPrivateUsage]
        for sub_op in walk_iteratively(op) if op.regions else (op,):
            self._worklist.remove(sub_op)  # pyright: ignore[reportPrivateUsage]
