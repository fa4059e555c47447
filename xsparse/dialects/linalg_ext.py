"""`linalg.generic` with its trait given as an attribute alias, as MLIR accepts.

MLIR's sparse kernels are usually written `linalg.generic #trait ins(...) outs(...)`
with `#trait = {indexing_maps = [...], iterator_types = [...]}` (MLIR's
"Linalg Generic" documentation); xDSL 0.74's parser only takes the inline
dictionary. `extend_linalg()` teaches xDSL's `linalg.generic` parser the alias.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import DictionaryAttr
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.utils.mlir_lexer import MLIRTokenKind

_inline_parse: Callable[[Parser], GenericOp] = GenericOp.parse


def _parse_generic(cls: type[GenericOp], parser: Parser) -> GenericOp:
    """Parse `linalg.generic`, whose attribute dictionary may be an `#alias`."""
    if parser._current_token.kind != MLIRTokenKind.HASH_IDENT:
        return _inline_parse(parser)
    start = parser.pos
    trait = parser.parse_attribute()
    if not isinstance(trait, DictionaryAttr):
        parser.raise_error(
            "expected a dictionary attribute for the trait", start, parser.pos
        )
    entries: dict[str, Attribute] = dict(trait.data)

    def trait_entries_once() -> dict[str, Attribute]:
        # Only the generic's own dictionary comes from the alias.
        delattr(parser, "parse_optional_attr_dict")
        return entries

    parser.parse_optional_attr_dict = trait_entries_once
    try:
        return _inline_parse(parser)
    finally:
        if "parse_optional_attr_dict" in vars(parser):
            delattr(parser, "parse_optional_attr_dict")


def extend_linalg() -> None:
    """Install the alias-accepting parser on xDSL's `linalg.generic` (idempotent)."""
    GenericOp.parse = classmethod(_parse_generic)  # pyright: ignore[reportAttributeAccessIssue]
