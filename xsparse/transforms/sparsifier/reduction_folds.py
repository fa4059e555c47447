"""Which reduction a loop body computes: the fold `acc' = acc (op) g` with `g`
independent of `acc`, found from the ops alone.

A loop whose only carried value is such a fold may run its iterations in
parallel (`scf.parallel` + `scf.reduce`, as MLIR's sparsifier emits for
`parallelization-strategy` on a reduction loop): each iteration starts from
the op's identity instead of `acc` and yields `g`, and the partial results
are combined with `op`. `fold_of` proves that the body has that shape: every
value computed from `acc` is, step by step, `op` of an acc-derived value and
an independent one, a `select` between two acc-derived values on an
independent condition, or the result of an inner `scf.for` that carries such a
fold itself; any other use of an acc-derived value (a comparison, a store,
`op` of two acc-derived values) makes it no fold.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from xsparse.dialects.type_guards import is_integer_type

_FOLDS: tuple[type[Operation], ...] = (
    arith.AddfOp,
    arith.AddiOp,
    arith.MulfOp,
    arith.MuliOp,
    arith.AndIOp,
    arith.OrIOp,
    arith.XOrIOp,
)


_FLOAT_IDENTITY: dict[type[Operation], float] = {arith.AddfOp: -0.0, arith.MulfOp: 1.0}
_INT_IDENTITY: dict[type[Operation], int] = {arith.MuliOp: 1, arith.AndIOp: -1}
"""Other integer folds (add, or, xor) start from 0."""


@dataclass(frozen=True)
class Fold:
    """A reduction by an associative, commutative op."""

    op: type[Operation]

    def identity(self, t: Attribute) -> Operation:
        """A constant of type `t` that `op` leaves any value unchanged with
        (-0.0 for a float sum: -0.0 + x is x, signed zeros included)."""
        if isinstance(t, AnyFloat):
            return arith.ConstantOp(FloatAttr(_FLOAT_IDENTITY[self.op], t))
        assert is_integer_type(t)
        value = _INT_IDENTITY.get(self.op, 0)
        return arith.ConstantOp(IntegerAttr(value, t, truncate_bits=True))

    def combine(self, lhs: SSAValue, rhs: SSAValue) -> Operation:
        return self.op(lhs, rhs)  # pyright: ignore[reportCallIssue]


_ANY = Fold(Operation)
"""The fold of `acc` itself (no op applied yet): compatible with every op."""


def _merge(a: Fold | None, b: Fold | None) -> Fold | None:
    if a is None or b is None:
        return None
    if a.op is Operation:
        return b
    if b.op is Operation or a.op is b.op:
        return a
    return None


def _derived(op: Operation, linear: dict[SSAValue, Fold]) -> bool:
    return any(operand in linear for inner in op.walk() for operand in inner.operands)


def _step(op: Operation, linear: dict[SSAValue, Fold]) -> bool:
    """Record the folds of `op`'s results; False when `op` uses an acc-derived
    value in a way that is no fold."""
    if isinstance(op, _FOLDS):
        lhs, rhs = op.operands
        if (lhs in linear) == (rhs in linear):
            return False
        fold = _merge(linear[lhs if lhs in linear else rhs], Fold(type(op)))
        if fold is None:
            return False
        linear[op.results[0]] = fold
        return True
    if isinstance(op, arith.SelectOp):
        if op.cond in linear or op.lhs not in linear or op.rhs not in linear:
            return False
        fold = _merge(linear[op.lhs], linear[op.rhs])
        if fold is None:
            return False
        linear[op.result] = fold
        return True
    if isinstance(op, scf.ForOp):
        return _step_for(op, linear)
    return False


def _step_for(op: scf.ForOp, linear: dict[SSAValue, Fold]) -> bool:
    """An inner loop carrying the fold in one iter_arg."""
    if op.lb in linear or op.ub in linear or op.step in linear:
        return False
    carried = [k for k, init in enumerate(op.iter_args) if init in linear]
    if len(carried) != 1:
        return False
    (k,) = carried
    body = op.body.block
    yielded = body.last_op
    assert isinstance(yielded, scf.YieldOp)
    inner = _fold_in(body, body.args[1 + k], yielded.arguments[k], linear)
    if inner is None or any(
        v in linear for j, v in enumerate(yielded.arguments) if j != k
    ):
        return False
    fold = _merge(linear[op.iter_args[k]], inner)
    if fold is None:
        return False
    linear[op.results[k]] = fold
    return True


def _fold_in(
    block: Block,
    acc: SSAValue,
    result: SSAValue,
    outer: dict[SSAValue, Fold],
) -> Fold | None:
    """The fold `result` is of `acc` over `block`'s ops (its terminator aside);
    values of `outer` must not be used in the block (only `acc`)."""
    linear: dict[SSAValue, Fold] = {acc: _ANY}
    for op in block.ops:
        if op is block.last_op and op.has_trait(IsTerminator):
            continue
        if _derived(op, outer):
            return None
        if not _derived(op, linear):
            continue
        if not _step(op, linear):
            return None
    fold = linear.get(result)
    return None if fold is None or fold.op is Operation else fold


def fold_of(block: Block, acc: SSAValue, result: SSAValue) -> Fold | None:
    """The fold `result` computes from `acc` in `block` (see the module
    docstring), or None."""
    return _fold_in(block, acc, result, {})
