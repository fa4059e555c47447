"""Shrink a failing generated kernel to a small one that still fails.

`shrink(case, still_fails)` tries simpler variants of a case greedily (a
subexpression for the body, unused inputs dropped, dense operands, plainer
encodings, smaller loops, fewer nonzeros, simpler updates and outputs) and
keeps each that `still_fails`, until none helps or the budget is spent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

import numpy as np

from xsparse.testing.kernel_cases import (
    DIV,
    DTYPES,
    Apply,
    Binary,
    Case,
    Const,
    Expr,
    Input,
    LoopIndex,
    Operand,
    RegionArg,
    Select,
    Unary,
    children,
    inputs_of,
)


def _with_children(e: Expr, operands: list[Expr]) -> Expr:
    if isinstance(e, Apply):
        return replace(e, args=tuple(operands))
    if isinstance(e, Unary | Select):
        return replace(e, x=operands[0])
    if isinstance(e, Binary):
        return replace(e, x=operands[0], y=operands[1])
    return e


def _simpler_exprs(e: Expr) -> Iterator[Expr]:
    """`e` with one node replaced by one of its children, a constant or an input."""
    if isinstance(e, Apply) and e.op == DIV:  # (the divisor stays nonzero)
        dividend, divisor = e.args
        yield dividend
        if divisor != Const(1):
            yield Apply(DIV, (dividend, Const(1)))
        for simpler in _simpler_exprs(dividend):
            yield Apply(DIV, (simpler, divisor))
        return
    for child in children(e):
        yield child
    if isinstance(e, Binary):
        for overlap in (None,) if e.overlap is not None else ():
            yield replace(e, overlap=overlap)
        for side in ("left", "right"):
            if getattr(e, side) is not None:
                yield replace(e, **{side: None})
    if isinstance(e, Unary):
        if e.absent is not None:
            yield replace(e, absent=None)
        if e.present is not None:
            yield replace(e, present=RegionArg(0))
    if isinstance(e, Const) and e.value not in (0, 1):
        yield Const(1)
    if isinstance(e, LoopIndex):
        yield Const(1)
    operands = children(e)
    for k, child in enumerate(operands):
        for simpler in _simpler_exprs(child):
            yield _with_children(e, [*operands[:k], simpler, *operands[k + 1 :]])


def _renumber(e: Expr, mapping: dict[int, int]) -> Expr:
    if isinstance(e, Input):
        return Input(mapping[e.index])
    operands = children(e)
    return (
        _with_children(e, [_renumber(c, mapping) for c in operands]) if operands else e
    )


def _drop_unused(case: Case) -> Case | None:
    used = inputs_of(case.body)
    if len(used) == len(case.inputs) or not used:
        return None
    keep = sorted(used)
    loops = {loop for k in keep for loop in case.inputs[k].loops}
    if loops != set(range(len(case.sizes))):
        return None
    mapping = {old: new for new, old in enumerate(keep)}
    return replace(
        case,
        inputs=tuple(case.inputs[k] for k in keep),
        body=_renumber(case.body, mapping),
    )


def _slice(
    data: np.ndarray, loops: tuple[int, ...], loop: int, size: int
) -> np.ndarray:
    index = tuple(slice(0, size) if lp == loop else slice(None) for lp in loops)
    return data[index]


def _smaller_loops(case: Case) -> Iterator[Case]:
    for loop, size in enumerate(case.sizes):
        multiple = 1
        for op in case.inputs:
            if op.format is not None and loop in op.loops:
                multiple = np.lcm(multiple, op.format.multiples[op.loops.index(loop)])
        if case.out_format is not None and loop in case.out_loops:
            k = case.out_loops.index(loop)
            multiple = np.lcm(multiple, case.out_format.multiples[k])
        for new in sorted({int(multiple), size - int(multiple)}):
            if not 0 < new < size:
                continue
            sizes = list(case.sizes)
            sizes[loop] = new
            inputs = tuple(
                replace(op, data=_slice(op.data, op.loops, loop, new))
                for op in case.inputs
            )
            init = _slice(case.out_init, case.out_loops, loop, new)
            yield replace(case, sizes=tuple(sizes), inputs=inputs, out_init=init)


def _sparser_data(case: Case) -> Iterator[Case]:
    for k, op in enumerate(case.inputs):
        nz = np.argwhere(op.data != 0)
        if len(nz) == 0 or op.data.ndim == 0:
            continue
        for part in (nz[: len(nz) // 2], nz[len(nz) // 2 :], nz[:1]):
            data = op.data.copy()
            data[tuple(part.T)] = 0
            yield _with_input(case, k, replace(op, data=data))
        ones = np.where(op.data != 0, np.ones_like(op.data), op.data)
        if not np.array_equal(ones, op.data):
            yield _with_input(case, k, replace(op, data=ones))
    zero = np.zeros_like(case.out_init)
    if case.out_kind == "dense" and case.update != "reduce" and np.any(case.out_init):
        yield replace(case, out_init=zero)


def _with_input(case: Case, k: int, op: Operand) -> Case:
    return replace(case, inputs=(*case.inputs[:k], op, *case.inputs[k + 1 :]))


def _plainer(case: Case) -> Iterator[Case]:
    for k, op in enumerate(case.inputs):
        if op.passed_as != "tensor":
            yield _with_input(case, k, replace(op, passed_as="tensor"))
        if op.source != "same":
            yield _with_input(case, k, replace(op, source="same"))
        if op.layout != "c":
            yield _with_input(case, k, replace(op, layout="c"))
        if op.format is None:
            continue
        if op.format.pos_width or op.format.crd_width:
            fmt = replace(op.format, pos_width=0, crd_width=0)
            yield _with_input(case, k, replace(op, format=fmt))
        if op.format.structured is None:
            yield _with_input(case, k, replace(op, format=None, passed_as="tensor"))
    if case.static:
        yield replace(case, static=False)
    if case.out_layout != "c":
        yield replace(case, out_layout="c")
    if case.options:
        yield replace(case, options=())
    if (
        case.update in ("add_swapped", "mul", "max", "min")
        and case.out_kind != "inplace"
    ):
        yield replace(case, update="add")
    if case.update == "add" and not case.reductions and case.out_kind != "inplace":
        yield replace(case, update="overwrite")
    if case.out_kind == "empty" and case.update != "reduce":
        init = np.zeros(case.out_shape, DTYPES[case.dtype])
        yield replace(case, out_kind="dense", out_format=None, out_init=init)
    if case.out_format is not None and (
        case.out_format.pos_width or case.out_format.crd_width
    ):
        yield replace(
            case, out_format=replace(case.out_format, pos_width=0, crd_width=0)
        )


def candidates(case: Case) -> Iterator[Case]:
    """Simpler variants of `case`, the most promising first."""
    dropped = _drop_unused(case)
    if dropped is not None:
        yield dropped
    for body in _simpler_exprs(case.body):
        yield replace(case, body=body)
    yield from _plainer(case)
    yield from _smaller_loops(case)
    yield from _sparser_data(case)


def shrink(case: Case, still_fails: Callable[[Case], bool], budget: int = 300) -> Case:
    """A smaller case that still fails (`case` itself when nothing smaller does)."""
    tries = 0
    improved = True
    while improved and tries < budget:
        improved = False
        for candidate in candidates(case):
            tries += 1
            if tries > budget:
                break
            try:
                fails = still_fails(candidate)
            except Exception:
                fails = False
            if fails:
                case = candidate
                improved = True
                break
    return case
