"""numpy's answer to a generated kernel (`kernel_cases.Case`).

Every operand is broadcast over the whole iteration space and the body is
evaluated there, then reduced over the reduction loops. Sparse tensors are
dense tensors with implicit zeros, so arith/math bodies are plain numpy. The
semiring ops depend on which entries are stored: each value carries a
presence mask (an input's stored entries, everywhere for dense inputs; for
products the intersection, for sums the union, as MLIR's merge lattices
have it; an integer negation is `0 - x`, present everywhere), and a semiring
op that yields no value leaves a zero.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from xsparse.testing.kernel_cases import (
    DIV,
    DTYPES,
    INT_DIVISIONS,
    Apply,
    Array,
    Binary,
    Case,
    Const,
    Expr,
    Identity,
    Input,
    LoopIndex,
    RegionArg,
    Select,
    Unary,
    is_float,
    reduce_identity,
)

Value = tuple[Array, Array]
"""A value over the iteration space and where it is present."""

UFUNCS: dict[str, np.ufunc] = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "max": np.maximum,
    "min": np.minimum,
    "neg": np.negative,
    "abs": np.abs,
    "exp": np.exp,
}
PRESENCE: dict[str, Callable[[Array, Array], Array]] = {
    "mul": np.logical_and,
    "add": np.logical_or,
    "sub": np.logical_or,
    "max": np.logical_or,
    "min": np.logical_or,
}


def spread(data: Array, loops: Sequence[int], sizes: Sequence[int]) -> Array:
    """`data`, whose dimension d is read by loop `loops[d]`, over all loops."""
    order = sorted(range(len(loops)), key=lambda d: loops[d])
    moved = np.transpose(data, order)
    shape = [1] * len(sizes)
    for d in order:
        shape[loops[d]] = data.shape[d]
    return np.broadcast_to(moved.reshape(shape), tuple(sizes))


@dataclass(frozen=True)
class Space:
    """The iteration space of a case, its inputs spread over it."""

    case: Case
    inputs: list[Value]

    @property
    def dtype(self) -> Any:
        return DTYPES[self.case.dtype]

    def full(self, value: float) -> Array:
        return np.full(self.case.sizes, value, self.dtype)

    def everywhere(self) -> Array:
        return np.ones(self.case.sizes, bool)

    def index(self, loop: int) -> Array:
        shape = [1] * len(self.case.sizes)
        shape[loop] = self.case.sizes[loop]
        grid = np.arange(self.case.sizes[loop]).reshape(shape)
        return np.broadcast_to(grid, self.case.sizes)


def evaluate(space: Space, e: Expr, args: Sequence[Value] = ()) -> Value:
    """The value of `e` over the space and its presence (RegionArg k: `args[k]`)."""
    with np.errstate(all="ignore"):
        return _evaluate(space, e, args)


def _evaluate(space: Space, e: Expr, args: Sequence[Value]) -> Value:
    if isinstance(e, Input):
        return space.inputs[e.index]
    if isinstance(e, RegionArg):
        return args[e.index]
    if isinstance(e, Const):
        return space.full(e.value), space.everywhere()
    if isinstance(e, LoopIndex):
        return space.index(e.loop).astype(space.dtype), space.everywhere()
    if isinstance(e, Apply) and e.op in INT_DIVISIONS:
        x, present = _evaluate(space, e.args[0], args)
        d, _ = _evaluate(space, e.args[1], args)
        return _divide(e.op, x, d, space.case.dtype).astype(space.dtype), present
    if isinstance(e, Apply):
        values = [_evaluate(space, a, args) for a in e.args]
        result = UFUNCS[e.op](*(v for v, _ in values)).astype(space.dtype)
        if e.op == "exp" or (e.op == "neg" and not is_float(space.case.dtype)):
            # exp(0) = 1; an integer negation is `0 - x` (the constant is everywhere)
            return result, space.everywhere()
        present = values[0][1]
        for _, p in values[1:]:
            present = PRESENCE[e.op](present, p)
        return result, present
    if isinstance(e, Unary):
        return _unary(space, e, args)
    if isinstance(e, Binary):
        return _binary(space, e, args)
    return _select(space, e, args)


def _divide(op: str, x: Array, d: Array, dtype: str) -> Array:
    """x / d (DIV), truncating toward zero for integers (`arith.divsi`), or
    the remainder x % d with x's sign (REM, `arith.remsi`), as numpy has them
    for every divisor: 0 by 0, INT_MIN / -1 == INT_MIN, INT_MIN % -1 == 0
    (the caller silences numpy's warnings)."""
    if is_float(dtype):
        return x / d
    if op != DIV:
        return np.fmod(x, d)
    quotient, remainder = np.floor_divide(x, d), np.remainder(x, d)
    rounded_down = (remainder != 0) & ((x < 0) != (d < 0))
    return np.where(rounded_down, quotient + 1, quotient)


def _unary(space: Space, e: Unary, args: Sequence[Value]) -> Value:
    x, present = _evaluate(space, e.x, args)
    value = space.full(0)
    if e.present is not None:
        inner, _ = _evaluate(space, e.present, [(x, present)])
        value = np.where(present, inner, value)
    if e.absent is not None:
        outer, _ = _evaluate(space, e.absent, [])
        value = np.where(present, value, outer)
    has = (present & (e.present is not None)) | (~present & (e.absent is not None))
    return np.where(has, value, 0).astype(space.dtype), has


def _branch(
    space: Space, region: Expr | Identity | None, arg: Value, where: Array
) -> tuple[Array, Array]:
    if region is None:
        return space.full(0), np.zeros_like(where)
    if isinstance(region, Identity):
        return arg[0], where
    value, _ = _evaluate(space, region, [arg])
    return value, where


def _binary(space: Space, e: Binary, args: Sequence[Value]) -> Value:
    x = _evaluate(space, e.x, args)
    y = _evaluate(space, e.y, args)
    both, only_x, only_y = x[1] & y[1], x[1] & ~y[1], ~x[1] & y[1]
    value = space.full(0)
    has = np.zeros_like(both)
    if e.overlap is not None:
        inner, _ = _evaluate(space, e.overlap, [x, y])
        value = np.where(both, inner, value)
        has |= both
    for region, arg, where in ((e.left, x, only_x), (e.right, y, only_y)):
        branch, kept = _branch(space, region, arg, where)
        value = np.where(kept, branch, value)
        has |= kept
    return value.astype(space.dtype), has


def _select(space: Space, e: Select, args: Sequence[Value]) -> Value:
    x, present = _evaluate(space, e.x, args)
    if e.predicate in ("triu", "tril"):
        a, b = (space.index(loop) for loop in e.loops)
        keep = b >= a if e.predicate == "triu" else b <= a
    else:
        bound = np.asarray(e.bound, space.dtype)
        keep = {"gt": x > bound, "lt": x < bound, "ne": x != bound}[e.predicate]
    kept = present & keep
    return np.where(kept, x, 0).astype(space.dtype), kept


def expected_output(case: Case, stored: Sequence[Array]) -> Array:
    """The output numpy computes for `case`, its inputs storing `stored`
    (boolean masks in each input's own shape): dense, in the output's dimension order."""
    inputs: list[Value] = [
        (spread(op.data, op.loops, case.sizes), spread(mask, op.loops, case.sizes))
        for op, mask in zip(case.inputs, stored, strict=True)
    ]
    space = Space(case, inputs)
    value, present = evaluate(space, case.body)
    axes = case.reductions
    dtype = space.dtype
    with np.errstate(all="ignore"):
        if case.update == "reduce":
            identity = reduce_identity(case.reduce_op, case.dtype)
            ufunc = UFUNCS[case.reduce_op]
            folded = ufunc.reduce(value, axis=axes, where=present, initial=identity)
            reduced = folded.astype(dtype)
            if case.out_kind != "dense":
                reduced = np.where(present.any(axis=axes), reduced, 0).astype(dtype)
        elif case.update in ("max", "min"):
            lowest = reduce_identity(case.update, case.dtype)
            reduced = UFUNCS[case.update].reduce(value, axis=axes, initial=lowest)
        elif case.update == "mul":
            reduced = np.multiply.reduce(value, axis=axes, dtype=dtype)
        else:
            reduced = np.add.reduce(value, axis=axes, dtype=dtype)
        parallel = [loop for loop in range(len(case.sizes)) if loop not in axes]
        reduced = np.transpose(
            reduced, [parallel.index(loop) for loop in case.out_loops]
        )
        out = case.out_init
        if case.update in ("overwrite", "reduce"):
            result = reduced
        elif case.update in ("add", "add_swapped"):
            result = out + reduced
        else:
            result = UFUNCS[case.update](out, reduced)
    if case.then_sum:
        return np.asarray(
            np.add.reduce(result, axis=None, dtype=dtype) + dtype(1), dtype
        )
    return np.asarray(result, dtype)
