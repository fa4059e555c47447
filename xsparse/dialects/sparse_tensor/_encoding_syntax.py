"""The text of `#sparse_tensor.encoding<{...}>`: MLIR 22's grammar and printing.

Mirrors, in MLIR 22: `SparseTensorEncodingAttr::parse/print`
(SparseTensorDialect.cpp), `DimLvlMapParser` and `LvlTypeParser`
(SparseTensor/IR/Detail), the affine-expression parser (AffineParser.cpp),
the construction-time simplification of affine expressions (AffineExpr.cpp:
simplifyAdd, simplifyMul, simplifyFloorDiv, simplifyCeilDiv, simplifyMod) and
their printing (AsmPrinter.cpp: printAffineExprInternal). Expressions are built
the way MLIR builds them, so that printing them reproduces MLIR's canonical
text byte for byte.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from math import gcd
from typing import NoReturn

from xdsl.dialects.builtin import AnyFloat, ComplexType, FloatAttr, IntegerAttr
from xdsl.dialects.complex import ComplexNumberAttr
from xdsl.ir import Attribute
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)
from xdsl.parser import AttrParser
from xdsl.utils.hints import isa
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRToken, MLIRTokenKind, PunctuationSpelling

from xsparse.dialects.sparse_tensor.levels import (
    LEVEL_FORMATS,
    LOOSE_COMPRESSED,
    STRUCTURED,
    LevelType,
)
from xsparse.xdsl_adapter import advance, peek

# ---------------------------------------------------------------------------
# Affine expressions, simplified on construction as MLIR simplifies them.
# ---------------------------------------------------------------------------

ADD = AffineBinaryOpKind.Add
MUL = AffineBinaryOpKind.Mul
MOD = AffineBinaryOpKind.Mod
FLOORDIV = AffineBinaryOpKind.FloorDiv
CEILDIV = AffineBinaryOpKind.CeilDiv

_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1


def _wrap64(value: int) -> int:
    """Two's complement int64 arithmetic, as MLIR's constants wrap."""
    return (value - _INT64_MIN) % 2**64 + _INT64_MIN


def const(value: int) -> AffineExpr:
    return AffineConstantExpr(_wrap64(value))


def _bin(kind: AffineBinaryOpKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """A binary node as is (MLIR's uniqued storage, no simplification)."""
    return AffineBinaryOpExpr(kind, lhs, rhs)


def _const_value(expr: AffineExpr) -> int | None:
    return expr.value if isinstance(expr, AffineConstantExpr) else None


def is_symbolic_or_constant(expr: AffineExpr) -> bool:
    """No dimension occurs in `expr` (MLIR's `isSymbolicOrConstant`)."""
    return not any(isinstance(e, AffineDimExpr) for e in expr.dfs())


def largest_known_divisor(expr: AffineExpr) -> int:
    """MLIR's `AffineExpr::getLargestKnownDivisor`."""
    if isinstance(expr, AffineConstantExpr):
        return abs(expr.value)
    if isinstance(expr, AffineBinaryOpExpr):
        if expr.kind == MUL:
            return largest_known_divisor(expr.lhs) * largest_known_divisor(expr.rhs)
        if expr.kind in (ADD, MOD):
            return gcd(largest_known_divisor(expr.lhs), largest_known_divisor(expr.rhs))
    return 1


def _out_of_order(lhs: AffineExpr, rhs: AffineExpr) -> bool:
    """MLIR 22 orders the operands of a commutative operation on two
    dimensions (or two symbols) by position: `d1 + d0` is `d0 + d1`."""
    if isinstance(lhs, AffineDimExpr) and isinstance(rhs, AffineDimExpr):
        return lhs.position > rhs.position
    if isinstance(lhs, AffineSymExpr) and isinstance(rhs, AffineSymExpr):
        return lhs.position > rhs.position
    return False


def add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """`lhs + rhs` as MLIR's `AffineExpr::operator+` builds it."""
    lc, rc = _const_value(lhs), _const_value(rhs)
    if lc is not None and rc is not None:
        return const(lc + rc)
    # Only the RHS is a constant; a symbolic term goes to the right.
    if lc is not None or (
        is_symbolic_or_constant(lhs) and not is_symbolic_or_constant(rhs)
    ):
        return add(rhs, lhs)
    if _out_of_order(lhs, rhs):
        return add(rhs, lhs)
    if rc == 0:
        return lhs
    lbin = lhs if isinstance(lhs, AffineBinaryOpExpr) else None
    # (d0 + 2) + 3 -> d0 + 5
    if lbin is not None and rc is not None and lbin.kind == ADD:
        lrc = _const_value(lbin.rhs)
        if lrc is not None:
            return add(lbin.lhs, const(lrc + rc))
    # c1 * e + c2 * e -> (c1 + c2) * e
    if lbin is not None and lbin.kind == MUL and _const_value(lbin.rhs) is not None:
        first, first_c = lbin.lhs, _const_value(lbin.rhs)
    else:
        first, first_c = lhs, 1
    rbin = rhs if isinstance(rhs, AffineBinaryOpExpr) else None
    if rbin is not None and rbin.kind == MUL and _const_value(rbin.rhs) is not None:
        second, second_c = rbin.lhs, _const_value(rbin.rhs)
    else:
        second, second_c = rhs, 1
    if first == second and first_c is not None and second_c is not None:
        return mul(first, const(first_c + second_c))
    # (d0 + 2) + d1 -> (d0 + d1) + 2
    if lbin is not None and lbin.kind == ADD:
        lrc = _const_value(lbin.rhs)
        if lrc is not None:
            return add(add(lbin.lhs, rhs), lbin.rhs)
    # e - q * (e floordiv q) -> e mod q
    if rbin is None:
        return _bin(ADD, lhs, rhs)
    lrhs, rrhs = rbin.lhs, rbin.rhs
    if (
        _const_value(rrhs) == -1
        and isinstance(lrhs, AffineBinaryOpExpr)
        and lrhs.kind == MUL
    ):
        llrhs, rlrhs = lrhs.lhs, lrhs.rhs
        if not (isinstance(llrhs, AffineBinaryOpExpr) and llrhs.kind == FLOORDIV):
            return _bin(ADD, lhs, rhs)
        if llrhs.rhs == rlrhs and lhs == llrhs.lhs:
            return mod(lhs, rlrhs)
    if (
        isinstance(lrhs, AffineBinaryOpExpr)
        and lrhs.kind == FLOORDIV
        and lhs == lrhs.lhs
        and lrhs.rhs == neg(rrhs)
    ):
        return mod(lhs, lrhs.rhs)
    return _bin(ADD, lhs, rhs)


def mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """`lhs * rhs` as MLIR's `AffineExpr::operator*` builds it (one side must
    be symbolic or constant)."""
    lc, rc = _const_value(lhs), _const_value(rhs)
    if lc is not None and rc is not None:
        return const(lc * rc)
    # The constant or symbolic term goes to the right.
    if not is_symbolic_or_constant(rhs) or lc is not None or _out_of_order(lhs, rhs):
        return mul(rhs, lhs)
    if rc == 1:
        return lhs
    if rc == 0:
        return rhs
    lbin = lhs if isinstance(lhs, AffineBinaryOpExpr) else None
    if lbin is not None and lbin.kind == MUL:
        lrc = _const_value(lbin.rhs)
        if lrc is not None and rc is not None:
            return mul(lbin.lhs, const(lrc * rc))
        # (d0 * 2) * d1 -> (d0 * d1) * 2
        if lrc is not None:
            return mul(mul(lbin.lhs, rhs), lbin.rhs)
    return _bin(MUL, lhs, rhs)


def neg(expr: AffineExpr) -> AffineExpr:
    return mul(expr, const(-1))


def sub(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    return add(lhs, neg(rhs))


def _divide(kind: AffineBinaryOpKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """`lhs floordiv rhs` or `lhs ceildiv rhs` as MLIR's `AffineExpr::floorDiv`
    and `ceilDiv` build them (simplifyFloorDiv, simplifyCeilDiv)."""
    lc, rc = _const_value(lhs), _const_value(rhs)
    if rc is None or rc < 1:
        return _bin(kind, lhs, rhs)
    if lc is not None:
        return const(lc // rc if kind == FLOORDIV else -(-lc // rc))
    if rc == 1:
        return lhs
    if isinstance(lhs, AffineBinaryOpExpr) and lhs.kind == MUL:
        lrc = _const_value(lhs.rhs)
        if lrc is not None and lrc % rc == 0:
            return mul(lhs.lhs, const(lrc // rc))
    # (e1 + e2) floordiv c, when c divides e1 or e2 (floordiv only).
    if (
        kind == FLOORDIV
        and isinstance(lhs, AffineBinaryOpExpr)
        and lhs.kind == ADD
        and (
            largest_known_divisor(lhs.lhs) % rc == 0
            or largest_known_divisor(lhs.rhs) % rc == 0
        )
    ):
        return add(floordiv(lhs.lhs, rhs), floordiv(lhs.rhs, rhs))
    return _bin(kind, lhs, rhs)


def floordiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    return _divide(FLOORDIV, lhs, rhs)


def ceildiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    return _divide(CEILDIV, lhs, rhs)


def mod(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """`lhs mod rhs` as MLIR's `AffineExpr::operator%` builds it."""
    lc, rc = _const_value(lhs), _const_value(rhs)
    if rc is None or rc < 1:
        return _bin(MOD, lhs, rhs)
    if lc is not None:
        return const(lc % rc)
    if largest_known_divisor(lhs) % rc == 0:
        return const(0)
    if isinstance(lhs, AffineBinaryOpExpr) and lhs.kind == ADD:
        if largest_known_divisor(lhs.lhs) % rc == 0:
            return mod(lhs.rhs, rhs)
        if largest_known_divisor(lhs.rhs) % rc == 0:
            return mod(lhs.lhs, rhs)
    if isinstance(lhs, AffineBinaryOpExpr) and lhs.kind == MOD:
        inner = _const_value(lhs.rhs)
        if inner is not None and inner >= 1 and inner % rc == 0:
            return mod(lhs.lhs, rhs)
    return _bin(MOD, lhs, rhs)


BUILDERS: dict[AffineBinaryOpKind, Callable[[AffineExpr, AffineExpr], AffineExpr]] = {
    ADD: add,
    MUL: mul,
    MOD: mod,
    FLOORDIV: floordiv,
    CEILDIV: ceildiv,
}


_SPELLING = {
    ADD: " + ",
    MUL: " * ",
    MOD: " mod ",
    FLOORDIV: " floordiv ",
    CEILDIV: " ceildiv ",
}


def print_affine(expr: AffineExpr, strong: bool = False) -> str:
    """MLIR's `printAffineExprInternal`: `strong` is the enclosing binding."""
    if isinstance(expr, AffineDimExpr):
        return f"d{expr.position}"
    if isinstance(expr, AffineSymExpr):
        return f"s{expr.position}"
    if isinstance(expr, AffineConstantExpr):
        return str(expr.value)
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs, rhs = expr.lhs, expr.rhs
    if expr.kind != ADD:
        if expr.kind == MUL and _const_value(rhs) == -1:
            text = "-" + print_affine(lhs, True)
        else:
            text = (
                print_affine(lhs, True) + _SPELLING[expr.kind] + print_affine(rhs, True)
            )
        return f"({text})" if strong else text
    text: str | None = None
    if isinstance(rhs, AffineBinaryOpExpr) and rhs.kind == MUL:
        rrc = _const_value(rhs.rhs)
        if rrc == -1:
            inner_strong = (
                isinstance(rhs.lhs, AffineBinaryOpExpr) and rhs.lhs.kind == ADD
            )
            text = print_affine(lhs) + " - " + print_affine(rhs.lhs, inner_strong)
        elif rrc is not None and rrc < -1:
            text = (
                print_affine(lhs) + " - " + print_affine(rhs.lhs, True) + f" * {-rrc}"
            )
    rc = _const_value(rhs)
    if text is None and rc is not None and rc < 0:
        text = print_affine(lhs) + f" - {-rc}"
    if text is None:
        text = print_affine(lhs) + " + " + print_affine(rhs)
    return f"({text})" if strong else text


# ---------------------------------------------------------------------------
# The parsed text, before verification.
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DimSlice:
    """`#sparse_tensor<slice(offset, size, stride)>`; None stands for `?`."""

    offset: int | None
    size: int | None
    stride: int | None

    def parameters(self) -> str:
        """`(offset, size, stride)` as MLIR prints it."""
        values = (self.offset, self.size, self.stride)
        return "(" + ", ".join("?" if v is None else str(v) for v in values) + ")"

    def __str__(self) -> str:
        return f"#sparse_tensor<slice{self.parameters()}>"


DEFAULT_SLICE = DimSlice(0, None, 1)
"""The slice MLIR gives an unsliced dimension of a sliced encoding."""


@dataclass
class ParsedEncoding:
    """What the text says, in MLIR's terms; verified by the caller."""

    name_span: Span
    """Where MLIR reports verification errors: the `encoding` mnemonic."""
    lvl_types: list[LevelType] = field(default_factory=lambda: [])
    dim_slices: list[DimSlice] = field(default_factory=lambda: [])
    num_dims: int = 0
    num_symbols: int = 0
    lvl_exprs: tuple[AffineExpr, ...] = ()
    dim_exprs: tuple[AffineExpr | None, ...] | None = None
    """The dimension expressions when any was written (`None` entries for the
    ones left out), else None."""
    has_map: bool = False
    pos_width: int = 0
    crd_width: int = 0
    explicit_val: Attribute | None = None
    implicit_val: Attribute | None = None


# ---------------------------------------------------------------------------
# The parser.
# ---------------------------------------------------------------------------

_DECIMAL_INTEGER = re.compile(r"-?\s*(?!0[xX])[0-9]+(?![0-9.xX])")
"""A decimal integer literal (MLIR takes hexadecimal ones as float bits)."""

_KEYS = ("map", "posWidth", "crdWidth", "explicitVal", "implicitVal")


def _nth(n: int) -> str:
    return {1: "1st", 2: "2nd"}.get(n, f"{n}th")


@dataclass
class _Var:
    kind: str  # "d", "s" or "l"
    num: int
    bound: bool


class EncodingParser:
    """Parses `<{ key = value, ... }>` with MLIR 22's rules and messages."""

    def __init__(self, parser: AttrParser) -> None:
        self.p = parser
        lt = peek(parser).span
        self.result = ParsedEncoding(
            Span(lt.start - len("encoding"), lt.start, lt.input)
        )

    # -- tokens (shared with AffineExprParser) ---------------------------------

    @property
    def tok(self) -> MLIRToken:
        """The next token, not consumed."""
        return peek(self.p)

    def error(self, message: str, span: Span | None = None) -> NoReturn:
        self.p.raise_error(message, span if span is not None else self.tok.span)

    def wrong_token(self, message: str) -> NoReturn:
        """MLIR's `emitWrongTokenError`: reported at the end of the previous
        token, skipping blank space, line ends and `//` comments."""
        tok = self.tok
        span = tok.span
        text = span.input.content
        end = span.start - 1 if tok.kind == MLIRTokenKind.EOF else span.start
        original = end
        while True:
            while end > 0 and text[end - 1] in " \t":
                end -= 1
            if end == 0:
                end = original
                break
            if text[end - 1] not in "\n\r":
                break
            end -= 1
            line_start = max(text.rfind("\n", 0, end), text.rfind("\r", 0, end)) + 1
            comment = text.find("//", line_start, end)
            if comment != -1:
                end = comment
        # One character wide: the caret MLIR draws (an empty span shows none).
        self.p.raise_error(message, Span(end, min(end + 1, len(text)), span.input))

    def expect(self, punct: PunctuationSpelling) -> Span:
        span = self.tok.span
        if self.p.parse_optional_punctuation(punct) is None:
            self.wrong_token(f"expected '{punct}'")
        return span

    def optional(self, punct: PunctuationSpelling) -> bool:
        return self.p.parse_optional_punctuation(punct) is not None

    def is_ident(self) -> bool:
        return self.tok.kind == MLIRTokenKind.BARE_IDENT

    def ident(self) -> tuple[str, Span]:
        """The next token, a bare identifier (`is_ident()`), consumed."""
        span = self.tok.span
        return self.p.parse_identifier(), span

    def _comma_list(
        self,
        open_: PunctuationSpelling,
        close: PunctuationSpelling,
        element: Callable[[], None],
        context: str,
        optional: bool,
    ) -> bool:
        """MLIR's `parseCommaSeparatedList` with a delimiter."""
        if not self.optional(open_):
            if optional:
                return False
            self.wrong_token(f"expected '{open_}'{context}")
        if self.optional(close):
            return True
        element()
        while self.optional(","):
            element()
        if not self.optional(close):
            self.wrong_token(f"expected '{close}'{context}")
        return True

    # -- the attribute ----------------------------------------------------------

    def check_balanced(self, lt: Span) -> None:
        """MLIR first scans a pretty dialect attribute's body, from its `<` at
        `lt`, for balanced punctuation (Parser::parseDialectSymbolBody)."""
        text = lt.input.content
        stack: list[str] = []
        closing = {">": "<", "]": "[", ")": "(", "}": "{"}
        pos = lt.start
        while True:
            if pos >= len(text) or text[pos] == "\0":
                self.error(
                    f"unbalanced '{stack[-1]}' character in pretty dialect name"
                    if stack
                    else "unexpected nul or EOF in pretty dialect name",
                    lt,
                )
            c = text[pos]
            pos += 1
            if c in "<[({":
                stack.append(c)
                continue
            if c == "-" and text.startswith(">", pos):
                pos += 1
                continue
            if c == '"':
                end = pos
                while end < len(text) and text[end] not in '"\n':
                    end += 2 if text[end] == "\\" else 1
                if end >= len(text) or text[end] != '"':
                    self.error(
                        "expected '\"' in string literal", Span(pos - 1, pos, lt.input)
                    )
                pos = end + 1
                continue
            if c in closing:
                if not stack:
                    self.error(f"unbalanced '{c}' character in pretty dialect name", lt)
                if stack[-1] != closing[c]:
                    self.error(
                        f"unbalanced '{stack[-1]}' character in pretty dialect name", lt
                    )
                stack.pop()
                if not stack:
                    return

    def parse(self) -> ParsedEncoding:
        self.check_balanced(self.tok.span)
        self.expect("<")
        self.expect("{")
        while self.is_ident():
            key, _ = self.ident()
            if key not in _KEYS:
                self.error(f"unexpected key: {key}", self.result.name_span)
            self.expect("=")
            if key == "map":
                self._parse_map()
            elif key in ("posWidth", "crdWidth"):
                self._parse_width(key)
            else:
                self._parse_value(key)
            if not self.optional(","):
                break
        self.expect("}")
        self.expect(">")
        return self.result

    def _parse_attribute(self) -> Attribute:
        """A builtin attribute value, with MLIR's messages for common slips."""
        start = self.tok
        if start.kind == MLIRTokenKind.INTEGER_LIT and int(start.text, 0) > _INT64_MAX:
            self.error("integer constant out of range for attribute", start.span)
        decimal = _DECIMAL_INTEGER.match(start.span.input.content, start.span.start)
        attr = self.p.parse_optional_attribute()
        if attr is None:
            self.wrong_token("expected attribute value")
        if decimal and isinstance(attr, FloatAttr):
            self.error(
                "unexpected decimal integer literal for a floating point value",
                start.span,
            )
        return attr

    def _parse_width(self, key: str) -> None:
        attr = self._parse_attribute()
        if not isinstance(attr, IntegerAttr):
            what = "position" if key == "posWidth" else "index"
            self.error(f"expected an integral {what} bitwidth", self.result.name_span)
        width = attr.value.data % 2**32  # MLIR keeps the low 32 bits, unsigned
        if key == "posWidth":
            self.result.pos_width = width
        else:
            self.result.crd_width = width

    def _parse_complex(self) -> Attribute:
        """`#complex.number<:f32 re, im>`, whose `: complex<f32>` MLIR lets
        one leave out (xDSL's own parser requires it)."""
        advance(self.p)  # `#complex.number`
        self.expect("<")
        self.expect(":")
        element = self.p.parse_type()
        if not isa(element, AnyFloat):
            self.error("expected a floating point element type")
        real = self.p.parse_float()
        self.expect(",")
        imag = self.p.parse_float()
        self.expect(">")
        if self.optional(":"):
            at = self.tok.span
            if self.p.parse_type() != ComplexType(element):
                self.error("complex number type doesn't match its element type", at)
        return ComplexNumberAttr(real, imag, ComplexType(element))

    def _parse_value(self, key: str) -> None:
        if (
            self.tok.kind == MLIRTokenKind.HASH_IDENT
            and self.tok.text == "#complex.number"
        ):
            attr = self._parse_complex()
        else:
            attr = self._parse_attribute()
        if (
            not isinstance(attr, FloatAttr | IntegerAttr)
            and attr.name != "complex.number"
        ):
            self.error(f"expected a numeric value for {key}", self.result.name_span)
        if key == "explicitVal":
            self.result.explicit_val = attr
        else:
            self.result.implicit_val = attr

    # -- the map ------------------------------------------------------------------

    def _parse_map(self) -> None:
        env: dict[str, _Var] = {}
        counts = {"d": 0, "s": 0, "l": 0}
        dims_and_syms: dict[str, AffineExpr] = {}
        lvls_and_syms: dict[str, AffineExpr] = {}

        def bind(kind: str) -> None:
            if not self.is_ident():
                self.error("expected bare identifier")
            name, span = self.ident()
            if name in env:
                self.error(f"redefinition of identifier '{name}'", span)
            num = counts[kind]
            counts[kind] += 1
            env[name] = _Var(kind, num, True)
            if kind == "s":
                dims_and_syms[name] = lvls_and_syms[name] = AffineSymExpr(num)
            elif kind == "d":
                dims_and_syms[name] = AffineDimExpr(num)
            else:
                lvls_and_syms[name] = AffineDimExpr(num)

        self._comma_list(
            "[", "]", lambda: bind("s"), " in symbol binding list", optional=True
        )
        self._comma_list(
            "{", "}", lambda: bind("l"), " in level declaration list", optional=True
        )
        declared_lvls = counts["l"]

        dim_exprs: list[AffineExpr | None] = []
        slices: list[DimSlice | None] = []

        def dim_spec() -> None:
            bind("d")
            expr = None
            if self.optional("="):
                expr = AffineExprParser(self, lvls_and_syms).parse()
            dim_exprs.append(expr)
            slice_ = None
            if self.optional(":"):
                slice_ = self._parse_slice()
            slices.append(slice_)

        self._comma_list(
            "(", ")", dim_spec, " in dimension-specifier list", optional=False
        )
        self.expect("->")

        lvl_exprs: list[AffineExpr] = []
        lvl_types: list[LevelType] = []
        list_start = self.tok.span

        def lvl_spec() -> None:
            if declared_lvls:
                if not self.is_ident():
                    self.error("expected bare identifier")
                name, span = self.ident()
                var = env.get(name)
                if var is None:
                    self.error(f"use of undeclared identifier '{name}'", span)
                assert var is not None
                if var.kind != "l":
                    self.error(f"use of undeclared identifier '{name}'", span)
                if var.num != len(lvl_exprs):
                    self.error(
                        f"Level-variable ordering mismatch. The variable '{name}' was "
                        f"forward-declared as the {_nth(var.num)} level; but is bound by "
                        f"the {_nth(len(lvl_exprs))} specification.",
                        span,
                    )
                self.expect("=")
            lvl_exprs.append(AffineExprParser(self, dims_and_syms).parse())
            self.expect(":")
            lvl_types.append(self._parse_lvl_type())

        self._comma_list("(", ")", lvl_spec, " in level-specifier list", optional=False)
        if declared_lvls and len(lvl_exprs) != declared_lvls:
            self.error(
                "Level-rank mismatch between forward-declarations and specifiers. "
                f"Declared {declared_lvls} level-variables; but got {len(lvl_exprs)} "
                "level-specifiers.",
                list_start,
            )
        self.result.has_map = True
        self.result.num_dims = counts["d"]
        self.result.num_symbols = counts["s"]
        self.result.lvl_exprs = tuple(lvl_exprs)
        self.result.dim_exprs = (
            tuple(dim_exprs) if any(e is not None for e in dim_exprs) else None
        )
        # Level types and slices accumulate over repeated `map` keys, as in MLIR.
        self.result.lvl_types.extend(lvl_types)
        if any(s is not None for s in slices):
            self.result.dim_slices.extend(s or DEFAULT_SLICE for s in slices)

    def _parse_slice(self) -> DimSlice:
        """`#sparse_tensor<slice(offset, size, stride)>` (or an alias of one),
        MLIR 22's SparseTensorDimSliceAttr: parsed first, then verified."""
        start = self.tok.span
        if (
            self.tok.kind != MLIRTokenKind.HASH_IDENT
            or self.tok.text != "#sparse_tensor"
        ):
            # Anything else is an attribute, a slice only through an alias.
            parsed = getattr(self._parse_attribute(), "data", None)
            if not isinstance(parsed, DimSlice):
                self.error("expected SparseTensorDimSliceAttr", start)
            return parsed
        advance(self.p)  # `#sparse_tensor`
        self.expect("<")
        keyword = self.tok
        if keyword.kind != MLIRTokenKind.BARE_IDENT:
            self.error("expected valid keyword")
        if keyword.text != "slice":
            self.error(f"unknown attribute `{keyword.text}` in dialect `sparse_tensor`")
        _, name_span = self.ident()
        slice_ = self.slice_parameters(name_span)
        self.expect(">")
        return slice_

    def slice_parameters(self, name_span: Span) -> DimSlice:
        """`(offset, size, stride)` after the `slice` mnemonic at `name_span`,
        where MLIR reports a zero size or stride."""
        self.expect("(")
        values: list[int | None] = []
        for i in range(3):
            if i:
                self.expect(",")
            if self.optional("?"):
                values.append(None)
                continue
            number = self.tok.span
            value = self.p.parse_optional_integer(
                allow_boolean=False, allow_negative=True
            )
            if value is None:
                self.wrong_token("expected '?'")
            if not _INT64_MIN <= value <= _INT64_MAX:
                self.error("integer value too large", number)
            if value < 0:
                self.error("expect positive value or ? for slice offset/size/stride")
            values.append(value)
        self.expect(")")
        offset, size, stride = values
        for what, value in (("size", size), ("stride", stride)):
            if value == 0:
                self.error(f"expect positive value or ? for slice {what}", name_span)
        return DimSlice(offset, size, stride)

    def _parse_lvl_type(self) -> LevelType:
        span = self.tok.span
        if not self.is_ident():
            self.error(
                "expected valid level format (e.g. dense, compressed or singleton)"
            )
        base, _ = self.ident()
        sizes: list[int] = []
        if base == "structured":

            def size() -> None:
                loc = self.tok.span
                if (
                    self.tok.kind != MLIRTokenKind.INTEGER_LIT
                    and self.tok.kind != MLIRTokenKind.MINUS
                ):
                    self.error("expected valid integer for structured size", loc)
                value = self.p.parse_integer(allow_boolean=False, allow_negative=True)
                if value < 0:
                    self.error("expected structured size to be >= 0", loc)
                if value >= 2**31:
                    self.error("failed to parse structured size", loc)
                sizes.append(value)

            if self._comma_list(
                "[", "]", size, " in structured n out of m", optional=True
            ):
                if len(sizes) != 2:
                    self.error("expected exactly 2 structured sizes", span)
                if sizes[0] > sizes[1]:
                    self.error("expected n <= m in n_out_of_m", span)
            else:
                self.error("expected exactly 2 structured sizes", span)
        elif base.startswith("block") and _block_sizes(base) is not None:
            sizes = list(_block_sizes(base) or ())
            base = "structured"
        props: list[str] = []

        def prop() -> None:
            loc = self.tok.span
            if not self.is_ident():
                self.error(
                    "expected valid level property (e.g. nonordered, nonunique or high)",
                    loc,
                )
            name, _ = self.ident()
            if name == "high" and base == "compressed":
                props.append(name)  # the seed's spelling of loose_compressed
                return
            if name not in ("nonunique", "nonordered", "soa"):
                self.error(f"unknown level property: {name}", loc)
            props.append(name)

        self._comma_list("(", ")", prop, " in level property list", optional=True)
        fmt = LEVEL_FORMATS.get(base)
        if fmt is None:
            self.error(f"unknown level format: {base}", span)
        assert fmt is not None
        if "high" in props:
            # The seed's `compressed(nonunique, high)`: MLIR 22's loose_compressed.
            fmt = LOOSE_COMPRESSED
        lt = LevelType(
            fmt,
            nonunique="nonunique" in props,
            nonordered="nonordered" in props,
            soa="soa" in props,
            n=sizes[0] if fmt is STRUCTURED else 0,
            m=sizes[1] if fmt is STRUCTURED else 0,
        )
        if props and fmt.name in ("dense", "batch", "structured"):
            self.error(
                "invalid level type: level format doesn't support the properties", span
            )
        return lt


def _block_sizes(base: str) -> tuple[int, int] | None:
    """The seed's `blockN_M` spelling of `structured[N, M]`."""
    digits = base[len("block") :].split("_")
    if len(digits) == 2 and all(d.isdigit() and len(d) < 10 for d in digits):
        return int(digits[0]), int(digits[1])
    return None


_MAX_NESTING = 100
_MAX_OPERATIONS = 250
"""Deeper nesting of parentheses or negations, and longer expressions, are
refused: MLIR has no limit, but its recursion runs on a larger stack than
Python's."""


_HIGH_OPS = {"floordiv": FLOORDIV, "ceildiv": CEILDIV, "mod": MOD}
"""The high-precedence operators spelled as keywords (`*` is punctuation)."""


class AffineExprParser:
    """MLIR's AffineParser for one expression over named variables."""

    def __init__(self, outer: EncodingParser, names: dict[str, AffineExpr]) -> None:
        self.o = outer
        self.names = names
        self.depth = 0
        """Open parentheses and negations, bounded to keep Python's stack."""
        self.operations = 0
        """Binary operations so far, bounded for the same reason."""

    def parse(self) -> AffineExpr:
        return self._low(None, None)

    def _low_op(self) -> AffineBinaryOpKind | str | None:
        if self.o.optional("+"):
            return ADD
        if self.o.optional("-"):
            return "sub"
        return None

    def _high_op(self) -> AffineBinaryOpKind | None:
        if self.o.optional("*"):
            return MUL
        word = self.o.p.parse_optional_keyword_in(_HIGH_OPS)
        return None if word is None else _HIGH_OPS[word]

    def _combine(
        self,
        op: AffineBinaryOpKind | str,
        lhs: AffineExpr,
        rhs: AffineExpr,
        loc: Span | None = None,
    ) -> AffineExpr:
        self.operations += 1
        if self.operations > _MAX_OPERATIONS:
            self.o.error("affine expression too long", loc)
        if op == "sub":
            return sub(lhs, rhs)
        assert isinstance(op, AffineBinaryOpKind)
        if (
            op == MUL
            and not is_symbolic_or_constant(lhs)
            and not is_symbolic_or_constant(rhs)
        ):
            self.o.error(
                "non-affine expression: at least one of the multiply operands has to be "
                "either a constant or symbolic",
                loc,
            )
        if op in (FLOORDIV, CEILDIV, MOD) and not is_symbolic_or_constant(rhs):
            word = _SPELLING[op].strip()
            self.o.error(
                f"non-affine expression: right operand of {word} has to be either a constant or symbolic",
                loc,
            )
        return BUILDERS[op](lhs, rhs)

    def _low(
        self, llhs: AffineExpr | None, llhs_op: AffineBinaryOpKind | str | None
    ) -> AffineExpr:
        """`parseAffineLowPrecOpExpr`, its tail recursion as a loop."""
        while True:
            lhs = self._operand(llhs)
            if (op := self._low_op()) is not None:
                if llhs is not None and llhs_op is not None:
                    lhs = self._combine(llhs_op, llhs, lhs)
                llhs, llhs_op = lhs, op
                continue
            op_loc = self.o.tok.span
            if (hop := self._high_op()) is not None:
                expr = self._high(lhs, hop, op_loc)
                if llhs is not None and llhs_op is not None:
                    expr = self._combine(llhs_op, llhs, expr)
                if (nxt := self._low_op()) is not None:
                    llhs, llhs_op = expr, nxt
                    continue
                return expr
            if llhs is not None and llhs_op is not None:
                return self._combine(llhs_op, llhs, lhs)
            return lhs

    def _high(
        self,
        llhs: AffineExpr | None,
        llhs_op: AffineBinaryOpKind | None,
        llhs_loc: Span,
    ) -> AffineExpr:
        """`parseAffineHighPrecOpExpr`, its tail recursion as a loop; an error
        on a product is reported at the operator after it, as MLIR does."""
        while True:
            lhs = self._operand(llhs)
            op_loc = self.o.tok.span
            if (op := self._high_op()) is not None:
                if llhs is not None and llhs_op is not None:
                    lhs = self._combine(llhs_op, llhs, lhs, op_loc)
                llhs, llhs_op, llhs_loc = lhs, op, op_loc
                continue
            if llhs is not None and llhs_op is not None:
                return self._combine(llhs_op, llhs, lhs, llhs_loc)
            return lhs

    def _operand(self, lhs: AffineExpr | None) -> AffineExpr:
        o = self.o
        tok = o.tok
        kind = tok.kind
        if kind == MLIRTokenKind.BARE_IDENT:
            if tok.text not in self.names:
                o.wrong_token("use of undeclared identifier")
            o.p.parse_identifier()
            return self.names[tok.text]
        if kind in (MLIRTokenKind.MINUS, MLIRTokenKind.L_PAREN):
            self.depth += 1
            if self.depth > _MAX_NESTING:
                o.error("affine expression nested too deeply")
            o.p.parse_punctuation("-" if kind == MLIRTokenKind.MINUS else "(")
            if kind == MLIRTokenKind.MINUS:
                expr = neg(self._operand(lhs))
            else:
                if o.tok.kind == MLIRTokenKind.R_PAREN:
                    o.error("no expression inside parentheses")
                expr = self.parse()
                o.expect(")")
            self.depth -= 1
            return expr
        if kind == MLIRTokenKind.INTEGER_LIT:
            text = tok.text
            try:
                value = int(text, 0)
            except ValueError:
                value = -1
            if value < 0 or value > _INT64_MAX:
                o.error("constant too large for index")
            o.p.parse_integer(allow_boolean=False, allow_negative=False)
            return const(value)
        if kind in (MLIRTokenKind.PLUS, MLIRTokenKind.STAR):
            o.error(
                "missing right operand of binary operator"
                if lhs is not None
                else "missing left operand of binary operator"
            )
        o.error(
            "missing right operand of binary operator"
            if lhs is not None
            else "expected affine expression"
        )
        raise AssertionError("unreachable")


def parse_slice_parameters(parser: AttrParser) -> DimSlice:
    """The `(offset, size, stride)` of a standalone `#sparse_tensor<slice...>`,
    read right after its `slice` mnemonic, with MLIR 22's messages."""
    text = peek(parser).span.input

    def token_before(pos: int, length: int) -> Span:
        while pos > 0 and text.content[pos - 1].isspace():
            pos -= 1
        return Span(pos - length, pos, text)

    name_span = token_before(parser.pos, len("slice"))
    syntax = EncodingParser(parser)
    syntax.check_balanced(token_before(name_span.start, 1))
    return syntax.slice_parameters(name_span)
