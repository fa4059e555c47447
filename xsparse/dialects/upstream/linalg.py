"""xDSL's `linalg` as MLIR 22 reads it: `linalg.generic` with its trait given
as an attribute alias, and `linalg.index` verified as MLIR verifies it.

MLIR's sparse kernels are usually written `linalg.generic #trait ins(...) outs(...)`
with `#trait = {indexing_maps = [...], iterator_types = [...]}` (MLIR's
"Linalg Generic" documentation); xDSL 0.74's parser only takes the inline
dictionary.
"""

from __future__ import annotations

from xdsl.dialects import linalg
from xdsl.dialects.builtin import DictionaryAttr
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.ir import Attribute, Dialect, Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xsparse.xdsl_adapter import dialect_with, peek, redefined_op


@redefined_op()
class GenericOp(linalg_ops.GenericOp):
    """`linalg.generic`, whose attribute dictionary may be an `#alias`, and
    whose indexing maps may not divide by zero."""

    @classmethod
    def parse(cls, parser: Parser) -> GenericOp:
        if peek(parser).kind != MLIRTokenKind.HASH_IDENT:
            return super().parse(parser)
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
            return super().parse(parser)
        finally:
            if "parse_optional_attr_dict" in vars(parser):
                delattr(parser, "parse_optional_attr_dict")

    def verify_(self) -> None:
        """xDSL's verifier, where an indexing map that divides by zero
        (`d0 mod 0`, which xDSL evaluates to bound the loops) is a
        diagnostic, not a ZeroDivisionError."""
        try:
            linalg_ops.GenericOp.verify_(self)
        except ZeroDivisionError:
            raise VerifyException(
                "an indexing map divides by zero (`floordiv`, `ceildiv` or `mod` by 0)"
            ) from None


@redefined_op()
class IndexOp(linalg_ops.IndexOp):
    """`linalg.index`, whose dimension MLIR bounds by the loop count."""

    def verify_(self) -> None:
        """MLIR's checks (`IndexOp::verify`): a dimension from 0 to the
        number of loops of the enclosing op."""
        linalg_ops.IndexOp.verify_(self)
        dim = self.dim.value.data
        if dim < 0:
            raise VerifyException(
                "attribute 'dim' failed to satisfy constraint: 64-bit signless "
                "integer attribute whose minimum value is 0"
            )
        parent = self.parent_op()
        if isinstance(parent, linalg_ops.GenericOp) and dim >= len(
            parent.iterator_types
        ):
            raise VerifyException(
                f"expected dim ({dim}) to be lower than the number of loops "
                f"({len(parent.iterator_types)}) of the enclosing LinalgOp"
            )


OPS: tuple[type[Operation], ...] = (GenericOp, IndexOp)

Linalg: Dialect = dialect_with(linalg.Linalg, OPS)
"""xDSL's `linalg` with the ops above in place of its own."""
