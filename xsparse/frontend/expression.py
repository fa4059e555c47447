"""The expressions `einsum` and `evaluate` compile: index notation trees.

Both front ends parse into one `Assignment`: an output indexed by letters,
and a right-hand side of operand accesses, numeric literals and the four
arithmetic operators. Operands are numbered in the order the expression
first uses them (einsum: the order of its operands).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Access:
    """Operand `operand` (its position) read at `indices` (one letter per
    dimension; a letter twice is a diagonal)."""

    operand: int
    indices: tuple[str, ...]


@dataclass(frozen=True)
class Literal:
    """A numeric constant."""

    value: int | float


@dataclass(frozen=True)
class Negate:
    """Unary minus."""

    operand: Expr


@dataclass(frozen=True)
class Binary:
    """`lhs op rhs` with op one of `+ - * /`."""

    op: str
    lhs: Expr
    rhs: Expr


@dataclass(frozen=True)
class Delta:
    """1 where loops `first` and `second` are at the same index, else 0: a
    diagonal of a sparse operand, read as a sum over a second letter."""

    first: str
    second: str


Expr = Access | Literal | Negate | Binary | Delta


@dataclass(frozen=True)
class Assignment:
    """`output(indices) = rhs`, with the text it came from (for messages) and
    the name of each operand (`operand 1` for einsum, `A` for evaluate)."""

    text: str
    output: tuple[str, ...]
    rhs: Expr
    names: tuple[str, ...]


def children(expr: Expr) -> tuple[Expr, ...]:
    if isinstance(expr, Binary):
        return (expr.lhs, expr.rhs)
    if isinstance(expr, Negate):
        return (expr.operand,)
    return ()


def walk(expr: Expr) -> Iterator[Expr]:
    """`expr` and its subexpressions, parents first."""
    yield expr
    for child in children(expr):
        yield from walk(child)


def accesses(expr: Expr) -> list[Access]:
    return [e for e in walk(expr) if isinstance(e, Access)]


def letters(expr: Expr) -> list[str]:
    """The index letters `expr` uses, in order of first use."""
    seen: dict[str, None] = {}
    for e in walk(expr):
        if isinstance(e, Access):
            seen.update(dict.fromkeys(e.indices))
        elif isinstance(e, Delta):
            seen.update(dict.fromkeys((e.first, e.second)))
    return list(seen)


def literals(expr: Expr) -> list[int | float]:
    return [e.value for e in walk(expr) if isinstance(e, Literal)]


def has_division(expr: Expr) -> bool:
    return any(isinstance(e, Binary) and e.op == "/" for e in walk(expr))


def signed_terms(expr: Expr, negative: bool = False) -> list[tuple[bool, Expr]]:
    """The terms of the outermost sum or difference, each with whether it is
    subtracted (unary minus at the top folds into the sign)."""
    if isinstance(expr, Binary) and expr.op in "+-":
        right = negative != (expr.op == "-")
        return signed_terms(expr.lhs, negative) + signed_terms(expr.rhs, right)
    if isinstance(expr, Negate):
        return signed_terms(expr.operand, not negative)
    return [(negative, expr)]


def product(factors: list[Expr]) -> Expr:
    """`f1 * f2 * ...` (left to right)."""
    result = factors[0]
    for factor in factors[1:]:
        result = Binary("*", result, factor)
    return result
