"""TACO's index notation (`"y(i) = A(i,j) * x(j) + b(i)"`) as an `Assignment`.

    assignment := access '=' sum
    sum        := product (('+' | '-') product)*
    product    := unary (('*' | '/') unary)*
    unary      := '-' unary | '+' unary | number | access | '(' sum ')'
    access     := name ['(' [name (',' name)*] ')']

Names and index variables are identifiers; an access without parentheses
(or with empty ones) is a scalar. Indices that do not appear on the left are
summed over, with TACO's convention (`makeReductionNotation`): each term of
the outermost sum or difference is summed over the indices it uses, so
`y(i) = A(i,j) * x(j) + b(i)` is `A @ x + b`. Inside a term the sum wraps the
whole term; a term whose inner sum has a part that does not use a summed
index (`(A(i,j) * x(j) + b(i)) * c(i)`) is refused as ambiguous.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from xsparse.frontend.expression import (
    Access,
    Assignment,
    Binary,
    Expr,
    Literal,
    Negate,
    letters,
    signed_terms,
    walk,
)

_TOKEN = re.compile(
    r"\s*(?:(?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<symbol>[-+*/(),=]))"
)


@dataclass(frozen=True)
class Token:
    kind: str
    """'number', 'name', 'symbol' or 'end'."""
    text: str
    column: int


def tokenize(text: str, where: str) -> list[Token]:
    tokens: list[Token] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            if text[position:].strip() == "":
                break
            column = position + len(text[position:]) - len(text[position:].lstrip())
            raise ValueError(
                f"{where}: unexpected {text[column]!r} at column {column + 1}"
            )
        kind = match.lastgroup
        assert kind is not None
        tokens.append(Token(kind, match.group(kind), match.start(kind)))
        position = match.end()
    tokens.append(Token("end", "", len(text)))
    return tokens


class _Parser:
    """Recursive descent over the tokens; operands are numbered by first use."""

    def __init__(self, text: str) -> None:
        self.where = f"evaluate {text!r}"
        self.tokens = tokenize(text, self.where)
        self.position = 0
        self.names: dict[str, int] = {}

    @property
    def token(self) -> Token:
        return self.tokens[self.position]

    def error(self, expected: str) -> ValueError:
        token = self.token
        found = "the end" if token.kind == "end" else repr(token.text)
        return ValueError(
            f"{self.where}: expected {expected} at column {token.column + 1}, found {found}"
        )

    def accept(self, symbol: str) -> bool:
        if self.token.kind == "symbol" and self.token.text == symbol:
            self.position += 1
            return True
        return False

    def expect(self, symbol: str, expected: str) -> None:
        if not self.accept(symbol):
            raise self.error(expected)

    def name(self, expected: str) -> str:
        if self.token.kind != "name":
            raise self.error(expected)
        self.position += 1
        return self.tokens[self.position - 1].text

    def indices(self) -> tuple[str, ...]:
        if not self.accept("("):
            return ()
        if self.accept(")"):
            return ()
        found = [self.name("an index variable")]
        while self.accept(","):
            found.append(self.name("an index variable"))
        self.expect(")", "',' or ')'")
        return tuple(found)

    def sum(self) -> Expr:
        return self.chain("+-", self.product)

    def product(self) -> Expr:
        return self.chain("*/", self.unary)

    def chain(self, symbols: str, operand: Callable[[], Expr]) -> Expr:
        """`operand (symbol operand)*`, left-associative."""
        expr = operand()
        while self.token.kind == "symbol" and self.token.text in symbols:
            op = self.token.text
            self.position += 1
            expr = Binary(op, expr, operand())
        return expr

    def unary(self) -> Expr:
        if self.accept("-"):
            return Negate(self.unary())
        if self.accept("+"):
            return self.unary()
        token = self.token
        if token.kind == "number":
            self.position += 1
            is_int = token.text.isdigit()
            return Literal(int(token.text) if is_int else float(token.text))
        if self.accept("("):
            expr = self.sum()
            self.expect(")", "')'")
            return expr
        name = self.name("an operand, a number or '('")
        operand = self.names.setdefault(name, len(self.names))
        return Access(operand, self.indices())


def parse_assignment(text: str) -> Assignment:
    """The assignment `text` writes; ValueError naming it when malformed."""
    if not isinstance(text, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(
            f"evaluate needs the assignment as a str, got {type(text).__name__}"
        )
    parser = _Parser(text)
    parser.name("the output's name")
    output = parser.indices()
    parser.expect("=", "'='")
    rhs = parser.sum()
    if parser.token.kind != "end":
        raise parser.error("an operator")
    names = tuple(parser.names)
    assignment = Assignment(text, output, rhs, names)
    check_indices(assignment, parser.where)
    return assignment


def check_indices(assignment: Assignment, where: str) -> None:
    """Each output index once and used on the right; no ambiguous sum."""
    used = letters(assignment.rhs)
    seen: set[str] = set()
    for index in assignment.output:
        if index in seen:
            raise ValueError(f"{where}: index {index} appears twice on the left")
        if index not in used:
            raise ValueError(
                f"{where}: index {index} of the left appears on no operand"
            )
        seen.add(index)
    if not any(isinstance(e, Access) for e in walk(assignment.rhs)):
        raise ValueError(f"{where}: the right side reads no operand")
    for _, term in signed_terms(assignment.rhs):
        summed = set(letters(term)) - seen
        for inner in walk(term):
            if not (isinstance(inner, Binary) and inner.op in "+-"):
                continue
            for part in (inner.lhs, inner.rhs):
                missing = sorted(summed - set(letters(part)))
                if missing:
                    raise ValueError(
                        f"{where}: the sum over {missing[0]} wraps the whole term "
                        f"{to_text(term, assignment.names)}, in which "
                        f"{to_text(part, assignment.names)} does not use {missing[0]} "
                        "(it would be added once per value of it); write it as a term "
                        "of its own"
                    )


def to_text(expr: Expr, names: tuple[str, ...]) -> str:
    """`expr` in index notation (parenthesized where needed), for messages."""
    if isinstance(expr, Access):
        inside = f"({','.join(expr.indices)})" if expr.indices else ""
        return names[expr.operand] + inside
    if isinstance(expr, Literal):
        return repr(expr.value)
    if isinstance(expr, Negate):
        return f"-{_operand_text(expr.operand, names)}"
    if isinstance(expr, Binary):
        lhs = to_text(expr.lhs, names)
        if expr.op in "*/":
            lhs = _operand_text(expr.lhs, names)
        rhs = to_text(expr.rhs, names)
        if expr.op != "+" and isinstance(expr.rhs, Binary):
            rhs = f"({rhs})" if expr.op == "/" or expr.rhs.op in "+-" else rhs
        return f"{lhs} {expr.op} {rhs}"
    return f"delta({expr.first},{expr.second})"


def _operand_text(expr: Expr, names: tuple[str, ...]) -> str:
    text = to_text(expr, names)
    return f"({text})" if isinstance(expr, Binary) and expr.op in "+-" else text
