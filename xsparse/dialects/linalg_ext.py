"""`linalg.generic` with its trait given as an attribute alias, as MLIR accepts;
`linalg.index` verified as MLIR verifies it.

MLIR's sparse kernels are usually written `linalg.generic #trait ins(...) outs(...)`
with `#trait = {indexing_maps = [...], iterator_types = [...]}` (MLIR's
"Linalg Generic" documentation); xDSL 0.74's parser only takes the inline
dictionary. `extend_linalg()` teaches xDSL's `linalg.generic` parser the alias,
and xDSL's `linalg.index` the bounds of its dimension (MLIR's `IndexOp::verify`).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import DictionaryAttr
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xsparse.xdsl_adapter import peek

_inline_parse: Callable[[Parser], GenericOp] = GenericOp.parse


def _parse_generic(cls: type[GenericOp], parser: Parser) -> GenericOp:
    """Parse `linalg.generic`, whose attribute dictionary may be an `#alias`."""
    if peek(parser).kind != MLIRTokenKind.HASH_IDENT:
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


def _verify_index(op: IndexOp) -> None:
    """MLIR's checks of `linalg.index`: a dimension from 0 to the loop count."""
    dim = op.dim.value.data
    if dim < 0:
        raise VerifyException(
            "attribute 'dim' failed to satisfy constraint: 64-bit signless "
            "integer attribute whose minimum value is 0"
        )
    parent = op.parent_op()
    if isinstance(parent, GenericOp) and dim >= len(parent.iterator_types):
        raise VerifyException(
            f"expected dim ({dim}) to be lower than the number of loops "
            f"({len(parent.iterator_types)}) of the enclosing LinalgOp"
        )


XDSL_VERIFY_GENERIC = GenericOp.verify_
"""xDSL's own `linalg.generic` verifier (before `extend_linalg`)."""


def _verify_generic(op: GenericOp) -> None:
    """xDSL's verifier, where an indexing map that divides by zero (`d0 mod 0`,
    which xDSL evaluates to bound the loops) is a diagnostic, not a
    ZeroDivisionError."""
    try:
        XDSL_VERIFY_GENERIC(op)
    except ZeroDivisionError:
        raise VerifyException(
            "an indexing map divides by zero (`floordiv`, `ceildiv` or `mod` by 0)"
        ) from None


def extend_linalg() -> None:
    """Install the alias-accepting parser and the division check on xDSL's
    `linalg.generic` and the bounds check on `linalg.index` (idempotent)."""
    GenericOp.verify_ = _verify_generic  # pyright: ignore[reportAttributeAccessIssue]
    GenericOp.parse = classmethod(_parse_generic)  # pyright: ignore[reportAttributeAccessIssue]
    IndexOp.verify_ = _verify_index  # pyright: ignore[reportAttributeAccessIssue]
