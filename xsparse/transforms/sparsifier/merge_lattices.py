"""Tensor expressions and the set algebra of sparsification (merge lattices).

Mirrors the role of MLIR's `Merger` (SparseTensor/Utils/Merger.cpp) and the
lattice construction of Kjolstad et al. ("The Tensor Algebra Compiler"), in a
form that emits the set expressions of the `indexing` dialect directly:

* the body of a `linalg.generic` becomes a `TensorExpr` tree whose leaves are
  operands, loop indices and invariants;
* for one loop, `loop_set` builds the set expression over the sparse levels
  iterated by that loop: products intersect (zero annihilates), sums unite,
  so do comparisons (`disjSetWithZero`) and `arith.select` over its true and
  false values (MLIR's GenSemiRingSelect makes it a `binary`), anything that
  does not preserve zero needs the full dense range;
* `simplify` specializes the expression to one presence case (the operands
  absent in that case are zero), which gives each case region its body.

The semiring ops of the sparse_tensor dialect (`binary`, `unary`, `select`,
`reduce`; MLIR's `kBinary`, `kUnary`, `kSelect`, `kReduce`) say themselves
what they compute where an operand is absent: `semiring_branch` reads that off
their regions, which gives their sets (a `binary` unites where its `left` or
`right` case yields, a `unary` with an `absent` value is dense) and their
simplification (an empty case is absent, like zero). A `select` keeps its
operand where a predicate holds, so its presence is only known at run time
(`may_be_absent`); a semiring op over such a value is left for the loop
emitter to dispatch on it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from xdsl.dialects import arith
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Operation, Region, SSAValue

from xsparse.dialects.sparse_tensor.ops_semiring import (
    BinaryOp,
    ReduceOp,
    SelectOp,
    UnaryOp,
)

# ---------------------------------------------------------------------------
# Tensor expressions
# ---------------------------------------------------------------------------


class TensorExpr:
    """A node of the expression computed by a linalg.generic body."""


@dataclass(frozen=True, eq=False)
class OperandLeaf(TensorExpr):
    """The element of operand `operand` (index into ins + outs)."""

    operand: int


@dataclass(frozen=True, eq=False)
class IndexLeaf(TensorExpr):
    """`linalg.index dim`: the coordinate of loop `dim`."""

    dim: int
    op: Operation


@dataclass(frozen=True, eq=False)
class InvariantLeaf(TensorExpr):
    """A value defined outside the generic, or an op without operands inside."""

    value: SSAValue | None
    op: Operation | None = None


@dataclass(frozen=True, eq=False)
class OpNode(TensorExpr):
    """An operation of the body applied to sub-expressions."""

    op: Operation
    children: tuple[TensorExpr, ...]


@dataclass(frozen=True, eq=False)
class NegNode(TensorExpr):
    """`0 - child`, produced when the left side of a subtraction is absent."""

    child: TensorExpr


@dataclass(frozen=True, eq=False)
class SemiringNode(TensorExpr):
    """A semiring op of the body (`sparse_tensor.binary`, `unary`, `select`,
    `reduce`) applied to sub-expressions, one per operand.

    `captures` gives the expression of each value of the body that its regions
    use besides their own arguments (indices and invariants only)."""

    op: Operation
    children: tuple[TensorExpr, ...]
    captures: tuple[tuple[SSAValue, TensorExpr], ...] = ()

    @property
    def cased(self) -> tuple[TensorExpr, ...]:
        """The children whose presence chooses the case (not `reduce`'s identity)."""
        return self.children[:2]


@dataclass(frozen=True, eq=False)
class ZeroExpr(TensorExpr):
    """The zero of the element type: an absent operand after simplification."""


ZERO = ZeroExpr()


class OpKind:
    """How an operation treats a zero operand."""

    CONJUNCTION = "conjunction"  # x * 0 = 0 * x = 0
    LEFT_ANNIHILATED = "left"  # 0 / x = 0
    DISJUNCTION = "disjunction"  # x + 0 = 0 + x = x
    SUBTRACTION = "subtraction"  # x - 0 = x, 0 - x = -x
    ZERO_PRESERVING = "unary"  # f(0) = 0
    COMPARISON = "comparison"  # cmp(x, 0), cmp(0, y); cmp(0, 0) where it is false
    SELECT = "select"  # select(c, x, 0), select(c, 0, y); select(c, 0, 0) = 0
    OTHER = "other"


_OP_KINDS: dict[str, str] = {
    **dict.fromkeys(
        ("arith.mulf", "arith.muli", "arith.andi", "complex.mul"), OpKind.CONJUNCTION
    ),
    **dict.fromkeys(
        (
            "arith.divf",
            "complex.div",
            "arith.divsi",
            "arith.divui",
            "arith.remsi",
            "arith.remui",
            "arith.shli",
            "arith.shrsi",
            "arith.shrui",
        ),
        OpKind.LEFT_ANNIHILATED,
    ),
    **dict.fromkeys(
        ("arith.addf", "arith.addi", "arith.ori", "arith.xori", "complex.add"),
        OpKind.DISJUNCTION,
    ),
    **dict.fromkeys(("arith.subf", "arith.subi", "complex.sub"), OpKind.SUBTRACTION),
    **dict.fromkeys(
        (
            "arith.negf",
            "arith.extf",
            "arith.truncf",
            "arith.sitofp",
            "arith.uitofp",
            "arith.fptosi",
            "arith.fptoui",
            "arith.extsi",
            "arith.extui",
            "arith.trunci",
            "arith.index_cast",
            "arith.index_castui",
            "arith.bitcast",
            "math.absf",
            "math.absi",
            "math.sqrt",
            "math.sin",
            "math.tan",
            "math.tanh",
            "math.sinh",
            "math.asin",
            "math.atan",
            "math.erf",
            "math.expm1",
            "math.log1p",
            "math.ceil",
            "math.floor",
            "math.round",
            "math.roundeven",
            "math.trunc",
            "math.cbrt",
            # MLIR's Merger: kAbsC, kSqrtC, kExpm1C, kLog1pC, kSinC, kTanhC,
            # kNegC, kCRe, kCIm; and conj(0) = 0, tan(0) = 0
            "complex.abs",
            "complex.sqrt",
            "complex.expm1",
            "complex.log1p",
            "complex.sin",
            "complex.tan",
            "complex.tanh",
            "complex.neg",
            "complex.conj",
            "complex.re",
            "complex.im",
        ),
        OpKind.ZERO_PRESERVING,
    ),
    **dict.fromkeys(("arith.cmpf", "arith.cmpi"), OpKind.COMPARISON),
    "arith.select": OpKind.SELECT,
}


def op_kind(op: Operation) -> str:
    return _OP_KINDS.get(op.name, OpKind.OTHER)


HOLDS_AT_EQUAL = frozenset(
    ("oeq", "oge", "ole", "ord", "ueq", "uge", "ule", "true", "eq", "sle", "sge")
)
"""The `arith.cmpf`/`cmpi` predicates that hold for equal (ordered) operands."""


def holds_at_zeros(op: Operation) -> bool:
    """Whether a comparison is true for two zeros. MLIR 22's Merger unites the
    operands' sets for every predicate (`disjSetWithZero`), so where both are
    absent the result is left out even when `0 <= 0` holds; here such a
    comparison needs the dense range, as its value there is not zero."""
    assert isinstance(op, arith.CmpfOp | arith.CmpiOp)
    names = (
        arith.CMPF_COMPARISON_OPERATIONS
        if isinstance(op, arith.CmpfOp)
        else arith.CMPI_COMPARISON_OPERATIONS
    )
    return names[op.predicate.value.data] in HOLDS_AT_EQUAL


SEMIRING_OPS = (BinaryOp, UnaryOp, SelectOp, ReduceOp)


@dataclass(frozen=True)
class Branch:
    """What a semiring op computes for one presence pattern of its operands:
    `region` inlined with the children `args` as its block arguments, or,
    without a region, child `args[0]` itself (`identity`)."""

    region: Region | None
    args: tuple[int, ...]


def _branch(region: Region, args: tuple[int, ...]) -> Branch | None:
    """The branch of a region, None where the region is empty (no value)."""
    return Branch(region, args) if region.blocks else None


def semiring_branch(op: Operation, present: tuple[bool, ...]) -> Branch | None:
    """The branch a semiring op takes where its operands' presence is `present`;
    None where it has no value (an empty region, or no operand present).

    `select`'s branch is its predicate; a `reduce` combines present values
    only (an absent side is its identity)."""
    if isinstance(op, UnaryOp):
        if present[0]:
            return _branch(op.present_region, (0,))
        return _branch(op.absent_region, ())
    if isinstance(op, SelectOp):
        return Branch(op.region, (0,)) if present[0] else None
    left, right = present
    if isinstance(op, ReduceOp):
        if left and right:
            return Branch(op.region, (0, 1))
        return Branch(None, (0,) if left else (1,)) if left or right else None
    assert isinstance(op, BinaryOp)
    if left and right:
        return _branch(op.overlap_region, (0, 1))
    if left:
        identity = op.left_identity is not None
        return Branch(None, (0,)) if identity else _branch(op.left_region, (0,))
    if right:
        identity = op.right_identity is not None
        return Branch(None, (1,)) if identity else _branch(op.right_region, (1,))
    return None


class UnsupportedKernel(Exception):
    """The generic cannot be sparsified; the message says why."""


def build_expr(
    yielded: SSAValue,
    operand_of_arg: Callable[[SSAValue], int | None],
    is_inside: Callable[[Operation], bool],
) -> TensorExpr:
    """The expression tree of the value a linalg body yields."""
    memo: dict[SSAValue, TensorExpr] = {}

    def visit(value: SSAValue) -> TensorExpr:
        if value in memo:
            return memo[value]
        operand = operand_of_arg(value)
        owner = value.owner
        if operand is not None:
            expr: TensorExpr = OperandLeaf(operand)
        elif not isinstance(owner, Operation) or not is_inside(owner):
            expr = InvariantLeaf(value)
        elif isinstance(owner, IndexOp):
            expr = IndexLeaf(owner.dim.value.data, owner)
        elif isinstance(owner, SEMIRING_OPS):
            children = tuple(visit(v) for v in owner.operands)
            expr = SemiringNode(owner, children, captures(owner))
        elif owner.regions:
            raise UnsupportedKernel(
                f"'{owner.name}' with regions in a sparse kernel body"
            )
        elif not owner.operands:
            expr = InvariantLeaf(None, owner)
        else:
            expr = OpNode(owner, tuple(visit(v) for v in owner.operands))
        memo[value] = expr
        return expr

    def captures(op: Operation) -> tuple[tuple[SSAValue, TensorExpr], ...]:
        """The body values a semiring op's regions use: indices and
        invariants (MLIR's admissible branch expressions), not operands."""
        found: dict[SSAValue, TensorExpr] = {}
        for region in op.regions:
            for inner in region.walk():
                for v in inner.operands:
                    owner = v.owner
                    inside = isinstance(owner, Operation) and is_inside(owner)
                    if operand_of_arg(v) is None and not inside:
                        continue
                    expr = visit(v)
                    if operands_used(expr):
                        raise UnsupportedKernel(
                            f"a '{op.name}' region uses an operand of the kernel "
                            "other than its own arguments"
                        )
                    found[v] = expr
        return tuple(found.items())

    return visit(yielded)


def children_of(expr: TensorExpr) -> tuple[TensorExpr, ...]:
    """The sub-expressions of one node (a semiring op's captures included)."""
    if isinstance(expr, OpNode):
        return expr.children
    if isinstance(expr, SemiringNode):
        return expr.children + tuple(captured for _, captured in expr.captures)
    if isinstance(expr, NegNode):
        return (expr.child,)
    return ()


def operands_used(expr: TensorExpr) -> set[int]:
    """The operands `expr` reads: one visit per node of its DAG (a body
    value used twice is one node), without recursion."""
    used: set[int] = set()
    seen: set[int] = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, OperandLeaf):
            used.add(node.operand)
        stack.extend(children_of(node))
    return used


def simplify(expr: TensorExpr, absent: frozenset[int]) -> TensorExpr:
    """`expr` where the operands in `absent` are zero, with zeros folded away."""
    return _simplify(expr, absent, settled=False)


def settle(expr: TensorExpr) -> TensorExpr:
    """A simplified `expr` where every operand left is present (all loops are
    entered): each semiring op takes the branch of its operands' presence."""
    return _simplify(expr, frozenset(), settled=True)


def _simplify(expr: TensorExpr, absent: frozenset[int], settled: bool) -> TensorExpr:
    if isinstance(expr, OperandLeaf):
        return ZERO if expr.operand in absent else expr
    if isinstance(expr, NegNode):
        child = _simplify(expr.child, absent, settled)
        return ZERO if child is ZERO else NegNode(child)
    if isinstance(expr, SemiringNode):
        return _simplify_semiring(expr, absent, settled)
    if not isinstance(expr, OpNode):
        return expr
    children = tuple(_simplify(c, absent, settled) for c in expr.children)
    kind = op_kind(expr.op)
    zero = [c is ZERO for c in children]
    if kind == OpKind.CONJUNCTION and any(zero):
        return ZERO
    if kind == OpKind.LEFT_ANNIHILATED and zero[0]:
        return ZERO
    if kind == OpKind.ZERO_PRESERVING and zero[0]:
        return ZERO
    if kind == OpKind.DISJUNCTION and any(zero):
        return children[1] if zero[0] else children[0]
    if kind == OpKind.COMPARISON and all(zero) and not holds_at_zeros(expr.op):
        return ZERO
    if kind == OpKind.SELECT and zero[1] and zero[2]:
        return ZERO
    if kind == OpKind.SUBTRACTION and any(zero):
        if zero[1]:
            return children[0]
        return NegNode(children[1])
    if all(new is old for new, old in zip(children, expr.children, strict=True)):
        return expr
    return OpNode(expr.op, children)


def _simplify_semiring(
    expr: SemiringNode, absent: frozenset[int], settled: bool
) -> TensorExpr:
    """A semiring op over simplified children. Unless `settled`, a child that
    is not zero may still turn out absent in an inner loop, so the op folds
    only where that cannot matter: to zero where no presence of those children
    gives a value, to its one such child where that is `identity`."""
    children = tuple(_simplify(c, absent, settled) for c in expr.children)
    node = SemiringNode(expr.op, children, expr.captures)
    cased = node.cased
    if any(may_be_absent(c) for c in cased):
        return node  # dispatched at run time
    unknown = [i for i, c in enumerate(cased) if c is not ZERO]
    if settled:
        patterns = [tuple(c is not ZERO for c in cased)]
    else:
        patterns = [
            tuple(i in chosen for i in range(len(cased)))
            for size in range(len(unknown) + 1)
            for chosen in combinations(unknown, size)
        ]
    branches = [semiring_branch(expr.op, p) for p in patterns]
    if all(b is None for b in branches):
        return ZERO
    full = branches[-1]  # every child that is not zero present
    if (settled or len(unknown) == 1) and full is not None and full.region is None:
        return cased[full.args[0]]
    return node


def reduction_identity(expr: TensorExpr, output: int) -> TensorExpr | None:
    """Where `expr` is a custom reduction into the output (a
    `sparse_tensor.reduce` with the output as an operand), its identity: the
    reduction starts there, not at the output's value (as in MLIR)."""
    if not isinstance(expr, SemiringNode) or not isinstance(expr.op, ReduceOp):
        return None
    if any(isinstance(c, OperandLeaf) and c.operand == output for c in expr.cased):
        return expr.children[2]
    return None


def may_be_absent(expr: TensorExpr) -> bool:
    """Whether a simplified expression may have no value where its operands
    are present (a `select` whose predicate fails, and what has no value
    without it): its presence is a run-time flag."""
    if isinstance(expr, SemiringNode):
        cased = expr.cased
        full = tuple(c is not ZERO for c in cased)
        return (
            isinstance(expr.op, SelectOp)
            or any(may_be_absent(c) for c in cased)
            or semiring_branch(expr.op, full) is None
        )
    if isinstance(expr, NegNode):
        return may_be_absent(expr.child)
    if not isinstance(expr, OpNode):
        return False
    flags = [may_be_absent(c) for c in expr.children]
    kind = op_kind(expr.op)
    if kind == OpKind.CONJUNCTION:
        return any(flags)
    if kind in (OpKind.LEFT_ANNIHILATED, OpKind.ZERO_PRESERVING):
        return flags[0]
    if kind in (OpKind.DISJUNCTION, OpKind.SUBTRACTION):
        return all(flags)
    return False


# ---------------------------------------------------------------------------
# Set expressions over the sparse levels of one loop
# ---------------------------------------------------------------------------


class SetExpr:
    """An index-set expression over the levels iterated by one loop."""


@dataclass(frozen=True)
class FullSet(SetExpr):
    """The whole dense range of the loop."""


@dataclass(frozen=True)
class LevelSet(SetExpr):
    """The coordinates stored in the current level of a sparse operand."""

    operand: int


@dataclass(frozen=True)
class NoSet(SetExpr):
    """Neutral: puts no constraint on the iteration (the output being updated)."""


@dataclass(frozen=True)
class UnionSet(SetExpr):
    lhs: SetExpr
    rhs: SetExpr


@dataclass(frozen=True)
class IntersectSet(SetExpr):
    lhs: SetExpr
    rhs: SetExpr


FULL = FullSet()
NONE = NoSet()


def _union(a: SetExpr, b: SetExpr) -> SetExpr:
    if isinstance(a, NoSet):
        return b
    if isinstance(b, NoSet) or a == b:
        return a
    if isinstance(a, FullSet) and isinstance(b, FullSet):
        return FULL
    return UnionSet(a, b)


def _intersect(a: SetExpr, b: SetExpr) -> SetExpr:
    if isinstance(a, NoSet | FullSet):
        return b if not isinstance(b, NoSet) else a
    if isinstance(b, NoSet | FullSet) or a == b:
        return a
    return IntersectSet(a, b)


def set_leaves(s: SetExpr) -> list[SetExpr]:
    """Leaves left to right, depth first (the numbering of `indexing` cases)."""
    found: list[SetExpr] = []
    stack = [s]
    while stack:
        node = stack.pop()
        if isinstance(node, UnionSet | IntersectSet):
            stack += [node.rhs, node.lhs]
        else:
            found.append(node)
    return found


def is_present(s: SetExpr, present: frozenset[SetExpr]) -> bool:
    if isinstance(s, UnionSet):
        return is_present(s.lhs, present) or is_present(s.rhs, present)
    if isinstance(s, IntersectSet):
        return is_present(s.lhs, present) and is_present(s.rhs, present)
    return s in present


@dataclass
class LoopSets:
    """The iteration of one loop: its set expression and the presence cases."""

    set_expr: SetExpr
    cases: list[frozenset[SetExpr]] = field(default_factory=list[frozenset[SetExpr]])


def loop_set(
    expr: TensorExpr,
    sparse_here: Callable[[int], bool],
    output: int,
    is_identity: Callable[[TensorExpr], bool],
) -> LoopSets:
    """The set one loop iterates for `expr`, and its presence cases.

    `sparse_here(operand)` tells whether that operand's level for this loop is
    sparse (iterated from storage). `is_identity(e)` tells whether leaving the
    output untouched where `e` is the value is correct (`e` is the output
    itself, or zero with a zero-initialized output).
    """

    def build(e: TensorExpr) -> SetExpr:
        if isinstance(e, OperandLeaf):
            if e.operand == output:
                return NONE
            return LevelSet(e.operand) if sparse_here(e.operand) else FULL
        if isinstance(e, NegNode):
            return build(e.child)
        if isinstance(e, SemiringNode):
            sets = [None if c is ZERO else build(c) for c in e.cased]
            return _semiring_set(e.op, sets)
        if isinstance(e, OpNode):
            kind = op_kind(e.op)
            sets = [build(c) for c in e.children]
            if kind == OpKind.CONJUNCTION:
                return _intersect(sets[0], sets[1])
            if kind == OpKind.LEFT_ANNIHILATED:
                # Visited where the left side is; the right side is read
                # where it is stored too (its zero elsewhere), never alone.
                return _union(sets[0], _intersect(sets[0], sets[1]))
            if kind in (OpKind.DISJUNCTION, OpKind.SUBTRACTION, OpKind.COMPARISON):
                # A comparison true for two zeros is made dense below: the
                # output is not left as is where both sides are absent.
                return _union(sets[0], sets[1])
            if kind == OpKind.SELECT:
                # Where a true or false value is; the condition is read there
                # (its zero elsewhere), as `arith.select` becomes MLIR's
                # `sparse_tensor.binary` of the two values (GenSemiRingSelect).
                chosen = _union(sets[1], sets[2])
                return _union(chosen, _intersect(chosen, sets[0]))
            if kind == OpKind.ZERO_PRESERVING:
                return sets[0]
            result: SetExpr = FULL
            for s in sets:
                result = _union(result, s) if not isinstance(s, FullSet) else result
            return result
        return FULL  # indices, invariants

    s = build(expr)
    if isinstance(s, NoSet):
        s = FULL
    sparse_leaves = list(
        dict.fromkeys(leaf for leaf in set_leaves(s) if isinstance(leaf, LevelSet))
    )
    covers_all = is_present(s, frozenset[SetExpr]([FULL]))
    if not covers_all and not _rest_is_identity(s, expr, sparse_leaves, is_identity):
        s = _union(FULL, s)
    full = frozenset[SetExpr]([FULL]) if _has_full(s) else frozenset[SetExpr]()
    cases: list[frozenset[SetExpr]] = []
    for size in range(len(sparse_leaves), -1, -1):
        for present in combinations(sparse_leaves, size):
            if is_present(s, frozenset(present) | full):
                cases.append(frozenset(present) | full)
    once = _read_once(s, sparse_leaves, bool(full))
    if _has_full(once) and not full:  # a leaf known present became the full range
        cases = [case | {FULL} for case in cases]
    return LoopSets(once, cases)


def _semiring_set(op: Operation, sets: Sequence[SetExpr | None]) -> SetExpr:
    """Where a semiring op has a value, from its operands' sets (None: an
    absent operand), as MLIR's `combiSet`: a case with a value adds its
    operands' set, and a `unary` with an absent value is dense (it still needs
    its operand's presence)."""
    if isinstance(op, UnaryOp | SelectOp):
        absent = semiring_branch(op, (False,)) is not None
        if sets[0] is None:
            return FULL
        return _union(FULL, sets[0]) if absent else sets[0]
    lhs, rhs = sets
    if lhs is None or rhs is None:  # the other side's set, where it has a value
        other = lhs or rhs
        return FULL if other is None else other
    left = semiring_branch(op, (True, False)) is not None
    right = semiring_branch(op, (False, True)) is not None
    both = _intersect(lhs, rhs)
    if left and right:
        return _union(lhs, rhs)
    if left:  # co-iterates the right operand to know where it is present
        return _union(lhs, both)
    if right:
        return _union(both, rhs)
    return both


def _required(s: SetExpr) -> frozenset[SetExpr]:
    """The leaves present wherever `s` holds."""
    if isinstance(s, IntersectSet):
        return _required(s.lhs) | _required(s.rhs)
    if isinstance(s, UnionSet):
        return _required(s.lhs) & _required(s.rhs)
    return frozenset([s]) if isinstance(s, LevelSet) else frozenset()


def _drop_known(s: SetExpr, known: frozenset[SetExpr]) -> SetExpr:
    """`s` where the leaves in `known` are present anyway: an intersection
    does not need them again, and a union can take the full range instead
    (their positions come from where they are required)."""
    if isinstance(s, IntersectSet):
        # The side that requires more keeps its leaves; the other side then
        # knows them present.
        first, second = s.lhs, s.rhs
        if len(_required(second)) > len(_required(first)):
            first, second = second, first
        kept = _drop_known(first, known)
        return _intersect(kept, _drop_known(second, known | _required(kept)))
    if isinstance(s, UnionSet):
        return _union(_drop_known(s.lhs, known), _drop_known(s.rhs, known))
    if s in known:
        return FULL
    return s


def _read_once(s: SetExpr, leaves: Sequence[SetExpr], has_full: bool) -> SetExpr:
    """A set expression with each leaf once (the `indexing` dialect numbers
    leaves): the same support with duplicates dropped where another occurrence
    already requires them, else the union of all leaves (a superset: the
    presence cases of `loop_set` still select what runs)."""
    s = _drop_known(s, frozenset())
    found = set_leaves(s)
    if len(found) == len(set(found)):
        return s
    result: SetExpr = FULL if has_full else NONE
    for leaf in leaves:
        result = _union(result, leaf)
    return result


def _has_full(s: SetExpr) -> bool:
    return any(isinstance(leaf, FullSet) for leaf in set_leaves(s))


def _rest_is_identity(
    s: SetExpr,
    expr: TensorExpr,
    sparse_leaves: Sequence[SetExpr],
    is_identity: Callable[[TensorExpr], bool],
) -> bool:
    """Whether every presence pattern that `s` skips leaves the output as is."""
    for size in range(len(sparse_leaves) + 1):
        for present in combinations(sparse_leaves, size):
            if is_present(s, frozenset([*present, FULL])):
                continue
            absent = frozenset(
                leaf.operand
                for leaf in sparse_leaves
                if isinstance(leaf, LevelSet) and leaf not in present
            )
            if not is_identity(simplify(expr, absent)):
                return False
    return True
