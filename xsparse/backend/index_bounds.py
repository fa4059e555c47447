"""The operand dimensions a kernel indexes by affine expressions of its loops
(`d0 + d1`, `2 * d0`, `d0 mod 4`), checked against the loops' sizes at each call.

MLIR's linalg verifier checks static shapes ("inferred input/output operand
#2 has shape's dimension #0 to be greater than or equal to 5"); with dynamic
sizes a kernel would read or write out of bounds. A loop's size comes from an
argument dimension that the loop indexes directly; each expression's range
over the loops is computed by interval arithmetic (a sound bound: an
expression whose range it overestimates, such as `d0 - d0`, is refused when
its operand is not large enough for the bound).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import AffineMapAttr
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import BlockArgument
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.parser import Parser

from xsparse.xdsl_adapter import walk_iteratively


@dataclass(frozen=True)
class Dimension:
    """Dimension `dim` of argument `arg` of the entry function."""

    arg: int
    dim: int


@dataclass(frozen=True)
class IndexBound:
    """Argument dimension `operand` is indexed by `index` (a one-result map of
    the loops); `loops[d]` is an argument dimension as large as loop d, if one is."""

    operand: Dimension
    index: AffineMap
    loops: tuple[Dimension | None, ...]

    def check(self, name: str, shapes: Sequence[tuple[int, ...] | None]) -> None:
        """Raise ValueError when some loop index takes the expression out of
        the operand dimension (loops of unknown size are not checked)."""
        expr = self.index.results[0]
        used = expr.used_dims()
        ranges: list[tuple[int, int]] = []
        for position, loop in enumerate(self.loops):
            shape = shapes[loop.arg] if loop is not None else None
            if loop is None or shape is None:
                if position in used:
                    return
                ranges.append((0, 0))
                continue
            ranges.append((0, shape[loop.dim] - 1))
        shape = shapes[self.operand.arg]
        if shape is None or any(hi < lo for lo, hi in ranges):
            return  # a loop without iterations reads nothing
        try:
            lo, hi = interval(expr, ranges)
        except ZeroDivisionError as e:
            raise ValueError(
                f"{name}(): argument {self.operand.arg} dimension "
                f"{self.operand.dim}: its index {e}"
            ) from None
        size = shape[self.operand.dim]
        if lo < 0 or hi >= size:
            raise ValueError(
                f"{name}(): argument {self.operand.arg} dimension "
                f"{self.operand.dim} is {size}, but its index "
                f"{self.index.results[0]} takes values from {lo} to {hi}"
            )


def interval(expr: AffineExpr, ranges: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """The smallest and largest value of `expr` with dimension d in `ranges[d]`
    (bounds of a sum, product by a constant, floordiv, ceildiv and mod)."""
    if isinstance(expr, AffineDimExpr):
        return ranges[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return expr.value, expr.value
    assert isinstance(expr, AffineBinaryOpExpr)
    a, b = interval(expr.lhs, ranges), interval(expr.rhs, ranges)
    if expr.kind == AffineBinaryOpKind.Add:
        return a[0] + b[0], a[1] + b[1]
    if expr.kind == AffineBinaryOpKind.Mul:
        products = [x * y for x in a for y in b]
        return min(products), max(products)
    c = b[0]  # the right operand of floordiv, ceildiv and mod is a constant
    if c == 0:
        raise ZeroDivisionError(f"{expr} divides by zero")
    if expr.kind == AffineBinaryOpKind.FloorDiv:
        ends = (a[0] // c, a[1] // c)
    elif expr.kind == AffineBinaryOpKind.CeilDiv:
        ends = (-(-a[0] // c), -(-a[1] // c))
    elif a[0] // c == a[1] // c:  # mod within one period: increasing
        ends = (a[0] % c, a[1] % c)
    else:
        ends = (0, c - 1) if c > 0 else (c + 1, 0)
    return min(ends), max(ends)


def index_bounds(function: func.FuncOp) -> list[IndexBound]:
    """The argument dimensions that the linalg.generic ops of `function`
    index by an expression other than a loop."""
    bounds: list[IndexBound] = []
    for op in walk_iteratively(function):
        if not isinstance(op, GenericOp):
            continue
        operands = [
            (value.index, amap.data)
            for value, amap in zip(
                (*op.inputs, *op.outputs), op.indexing_maps.data, strict=True
            )
            if isinstance(value, BlockArgument) and value.block is function.body.block
        ]
        loops: list[Dimension | None] = [None] * len(op.iterator_types)
        for arg, amap in operands:
            for dim, result in enumerate(amap.results):
                if isinstance(result, AffineDimExpr) and loops[result.position] is None:
                    loops[result.position] = Dimension(arg, dim)
        for arg, amap in operands:
            for dim, result in enumerate(amap.results):
                if not isinstance(result, AffineDimExpr):
                    index = AffineMap(amap.num_dims, amap.num_symbols, (result,))
                    bounds.append(IndexBound(Dimension(arg, dim), index, tuple(loops)))
    return bounds


def bounds_to_json(bounds: Sequence[IndexBound]) -> list[object]:
    return [
        [
            [b.operand.arg, b.operand.dim],
            str(AffineMapAttr(b.index)),
            [None if d is None else [d.arg, d.dim] for d in b.loops],
        ]
        for b in bounds
    ]


def bounds_from_json(data: Sequence[Any], ctx: Context) -> list[IndexBound]:
    """What `bounds_to_json` wrote (a kernel loaded from the disk cache)."""
    bounds: list[IndexBound] = []
    for (arg, dim), text, loops in data:
        index = Parser(ctx, text).parse_attribute()
        assert isinstance(index, AffineMapAttr)
        known = tuple(None if d is None else Dimension(d[0], d[1]) for d in loops)
        bounds.append(IndexBound(Dimension(arg, dim), index.data, known))
    return bounds
