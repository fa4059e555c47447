"""Executes `lower-indexing`'s loops on random sets and checks them against Python sets.

Each kernel is one `indexing.foreach` whose cases record, per coordinate, the
presence pattern that ran (a bit mask), how often it ran and the position of
every present leaf, and sum the masks in an iter_arg. The reference computes
the same from Python sets. The loops run in xDSL's interpreter, extended here
with the few ops it lacks (dynamic memref.alloc, arith.extui/divui/remui/maxui).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, memref, scf
from xdsl.dialects.builtin import (
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
)
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.arith import ArithFunctions
from xdsl.ir import Attribute

try:  # xDSL 0.75: the interpreter's scalars are attributes
    from xdsl.interpreters.builtin import scalar_attr
except ImportError:  # xDSL 0.73-0.74: Python numbers
    scalar_attr = None
from xdsl.interpreters.func import FuncFunctions
from xdsl.interpreters.memref import MemRefFunctions
from xdsl.interpreters.scf import ScfFunctions
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.interpreters.utils.ptr import TypedPtr
from xdsl.parser import Parser

from xsparse.dialects.indexing import Indexing
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.transforms.sparsifier.lower_indexing import EMITTED_FROM, LowerIndexingPass

UNIVERSE = 24
"""Coordinates are below this; stored leaves may hold coordinates outside ranges."""


def _number(value: Any) -> Any:
    """The Python number of an interpreter scalar (xDSL 0.75 keeps scalars as
    attributes, 0.73-0.74 as Python numbers)."""
    return value.value.data if isinstance(value, IntegerAttr | FloatAttr) else value


def _scalar(value: int, value_type: Attribute) -> Any:
    """An interpreter scalar of `value` (see `_number`)."""
    return value if scalar_attr is None else scalar_attr(value, value_type, 64)


def _extui(op: arith.ExtUIOp, args: PythonValues) -> PythonValues:
    input_type = op.input.type
    assert isinstance(input_type, IntegerType)
    value = _number(args[0]) % (1 << input_type.bitwidth)
    return (_scalar(value, op.result.type),)


@register_impls
class _MissingFunctions(InterpreterFunctions):
    """Interpreter implementations of the ops xDSL's interpreter lacks."""

    @impl(memref.AllocOp)
    def run_alloc(
        self, interpreter: Interpreter, op: memref.AllocOp, args: PythonValues
    ) -> PythonValues:
        size = _number(args[0]) if args else op.memref.type.get_shape()[0]
        return (ShapedArray(TypedPtr.new_index([0] * size, 64), [size]),)

    @impl(arith.ExtUIOp)
    def run_extui(
        self, interpreter: Interpreter, op: arith.ExtUIOp, args: PythonValues
    ) -> PythonValues:
        return _extui(op, args)

    # xDSL's interpreter looks an op's class up exactly: the subclasses the
    # lowering builds (`xsparse.dialects.upstream`) are registered apart.
    @impl(upstream_arith.ExtUIOp)
    def run_upstream_extui(
        self, interpreter: Interpreter, op: arith.ExtUIOp, args: PythonValues
    ) -> PythonValues:
        return _extui(op, args)

    @impl(upstream_arith.IndexCastOp)
    def run_upstream_index_cast(
        self, interpreter: Interpreter, op: arith.IndexCastOp, args: PythonValues
    ) -> PythonValues:
        return (_scalar(_number(args[0]), op.result.type),)

    @impl(upstream_arith.SelectOp)
    def run_upstream_select(
        self, interpreter: Interpreter, op: arith.SelectOp, args: PythonValues
    ) -> PythonValues:
        condition, if_true, if_false = args
        return (if_true if _number(condition) else if_false,)

    @impl(arith.DivUIOp)
    def run_divui(
        self, interpreter: Interpreter, op: arith.DivUIOp, args: PythonValues
    ) -> PythonValues:
        return (_scalar(_number(args[0]) // _number(args[1]), op.result.type),)

    @impl(arith.RemUIOp)
    def run_remui(
        self, interpreter: Interpreter, op: arith.RemUIOp, args: PythonValues
    ) -> PythonValues:
        return (_scalar(_number(args[0]) % _number(args[1]), op.result.type),)

    @impl(arith.MaxUIOp)
    def run_maxui(
        self, interpreter: Interpreter, op: arith.MaxUIOp, args: PythonValues
    ) -> PythonValues:
        return (_scalar(max(_number(args[0]), _number(args[1])), op.result.type),)


def _context() -> Context:
    ctx = Context()
    for dialect in (
        builtin.Builtin,
        func.Func,
        arith.Arith,
        scf.Scf,
        memref.MemRef,
        Indexing,
    ):
        ctx.load_dialect(dialect)
    return ctx


def _run(module: ModuleOp, name: str, args: Sequence[Any]) -> PythonValues:
    interpreter = Interpreter(module)
    for impls in (FuncFunctions(), ArithFunctions(), ScfFunctions(), MemRefFunctions()):
        interpreter.register_implementations(impls)
    interpreter.register_implementations(_MissingFunctions(), override=True)
    scalars = (_scalar(a, IndexType()) if isinstance(a, int) else a for a in args)
    return tuple(_number(r) for r in interpreter.call_op(name, tuple(scalars)))


def _index_array(values: Sequence[int]) -> ShapedArray[int]:
    return ShapedArray(TypedPtr.new_index(list(values), 64), [len(values)])


# ---------------------------------------------------------------------------
# Set expressions
# ---------------------------------------------------------------------------

Expr = tuple[Any, ...]
"""("stored",) | ("range",) | (op, lhs, rhs) with op in union/intersect/difference."""


def _leaf_kinds(expr: Expr) -> list[str]:
    if expr[0] in ("stored", "range"):
        return [expr[0]]
    return _leaf_kinds(expr[1]) + _leaf_kinds(expr[2])


def _holds(expr: Expr, present: Sequence[bool]) -> bool:
    def walk(e: Expr, first: int) -> tuple[bool, int]:
        if e[0] in ("stored", "range"):
            return present[first], first + 1
        lhs, first = walk(e[1], first)
        rhs, first = walk(e[2], first)
        ops = {
            "union": lhs or rhs,
            "intersect": lhs and rhs,
            "difference": lhs and not rhs,
        }
        return ops[e[0]], first

    return walk(expr, 0)[0]


def _patterns(expr: Expr) -> list[tuple[int, ...]]:
    """The satisfiable presence patterns of `expr`, as present leaf tuples."""
    n = len(_leaf_kinds(expr))
    return [
        tuple(i for i in range(n) if bits[i])
        for bits in product([False, True], repeat=n)
        if _holds(expr, bits)
    ]


@dataclass
class _Leaf:
    kind: str
    lo: int
    hi: int
    crd: list[int]  # stored: the whole buffer; positions lo..hi-1 are the set
    dtype: str  # element type of the coordinates buffer

    def positions(self) -> dict[int, int]:
        if self.kind == "range":
            return {c: c for c in range(self.lo, self.hi)}
        return {self.crd[p]: p for p in range(self.lo, self.hi)}


def _kernel(
    expr: Expr, leaves: Sequence[_Leaf], cases: Sequence[tuple[int, ...]]
) -> str:
    """MLIR text of @kernel over `expr` with the given cases."""
    args: list[str] = []
    ops: list[str] = []
    leaf_counter, node_counter = iter(range(1000)), iter(range(1000))

    def emit(e: Expr) -> str:
        if e[0] in ("stored", "range"):
            i = next(leaf_counter)
            args.extend([f"%lo{i}: index", f"%hi{i}: index"])
            if e[0] == "range":
                ops.append(f"%s{i} = indexing.range %lo{i} to %hi{i} : !indexing.set")
            else:
                t = f"memref<?x{leaves[i].dtype}>"
                args.append(f"%crd{i}: {t}")
                ops.append(
                    f"%s{i} = indexing.stored %crd{i}[%lo{i} to %hi{i}] : {t} -> !indexing.set"
                )
            return f"%s{i}"
        lhs, rhs = emit(e[1]), emit(e[2])
        name = f"%e{next(node_counter)}"
        ops.append(f"{name} = indexing.{e[0]} {lhs}, {rhs} : !indexing.set")
        return name

    root = emit(expr)
    n = len(leaves)
    args += ["%code: memref<?xindex>", "%visits: memref<?xindex>"]
    args += [f"%pos{i}: memref<?xindex>" for i in range(n)]
    args.append("%init: index")
    text = [
        f"func.func @kernel({', '.join(args)}) -> index {{",
        "%one = arith.constant 1 : index",
    ]
    text += ops
    text.append(
        f"%r = indexing.foreach {root} iter_args(%init) : !indexing.set -> (index)"
    )
    for case in cases:
        slots = ", ".join(f"%p{i}" if i in case else "_" for i in range(n))
        mask = sum(1 << i for i in case)
        text.append(f"case {slots} at(%c) (%acc: index) {{")
        text.append(f"  %m = arith.constant {mask} : index")
        text.append("  memref.store %m, %code[%c] : memref<?xindex>")
        text.append("  %v = memref.load %visits[%c] : memref<?xindex>")
        text.append("  %v1 = arith.addi %v, %one : index")
        text.append("  memref.store %v1, %visits[%c] : memref<?xindex>")
        for i in case:
            text.append(f"  memref.store %p{i}, %pos{i}[%c] : memref<?xindex>")
        text.append("  %a = arith.addi %acc, %m : index")
        text.append("  indexing.yield %a : index")
        text.append("}")
    text += ["func.return %r : index", "}"]
    return "\n".join(text)


def _random_leaf(kind: str, rng: random.Random, shape: str, dtype: str) -> _Leaf:
    if kind == "range":
        lo = rng.randrange(0, UNIVERSE // 2)
        return _Leaf("range", lo, rng.randrange(lo, UNIVERSE + 1), [], "index")
    density = {"empty": 0.0, "full": 1.0}.get(shape, rng.random())
    coords = sorted(c for c in range(UNIVERSE) if rng.random() < density)
    pad = rng.randrange(0, 3)
    garbage = [rng.randrange(UNIVERSE) for _ in range(pad)]
    return _Leaf("stored", pad, pad + len(coords), garbage + coords + garbage, dtype)


def _check(
    expr: Expr,
    leaves: Sequence[_Leaf],
    cases: Sequence[tuple[int, ...]],
    strategy: str = "merge",
) -> None:
    ctx = _context()
    module = Parser(ctx, _kernel(expr, leaves, cases)).parse_module()
    LowerIndexingPass(strategy=strategy).apply(ctx, module)
    module.verify()
    assert "indexing." not in str(module)

    args: list[Any] = []
    for leaf in leaves:
        args += [leaf.lo, leaf.hi]
        if leaf.kind == "stored":
            if leaf.dtype == "i32":
                args.append(ShapedArray(TypedPtr.new_int32(leaf.crd), [len(leaf.crd)]))
            else:
                args.append(_index_array(leaf.crd))
    code, visits = _index_array([0] * UNIVERSE), _index_array([0] * UNIVERSE)
    pos = [_index_array([-1] * UNIVERSE) for _ in leaves]
    (total,) = _run(module, "kernel", [*args, code, visits, *pos, 7])

    positions = [leaf.positions() for leaf in leaves]
    want_code = [0] * UNIVERSE
    want_pos = [[-1] * UNIVERSE for _ in leaves]
    for c in range(UNIVERSE):
        present = tuple(i for i, p in enumerate(positions) if c in p)
        if present in cases:
            want_code[c] = sum(1 << i for i in present)
            for i in present:
                want_pos[i][c] = positions[i][c]
    assert code.data == want_code
    assert visits.data == [1 if m else 0 for m in want_code]
    for i in range(len(leaves)):
        assert pos[i].data == want_pos[i], f"positions of leaf {i}"
    assert total == 7 + sum(want_code)


STORED: Expr = ("stored",)
RANGE: Expr = ("range",)

EXPRESSIONS: dict[str, Expr] = {
    "range": RANGE,
    "stored": STORED,
    "intersect": ("intersect", STORED, STORED),
    "union": ("union", STORED, STORED),
    "difference": ("difference", STORED, STORED),
    "union3": ("union", ("union", STORED, STORED), STORED),
    "intersect3": ("intersect", STORED, ("intersect", STORED, STORED)),
    "range_intersect": ("intersect", RANGE, STORED),
    "range_union": ("union", STORED, RANGE),
    "union_minus": ("difference", ("union", STORED, STORED), STORED),
    "mixed": ("intersect", ("union", STORED, STORED), RANGE),
}


@pytest.mark.parametrize("name", sorted(EXPRESSIONS))
@pytest.mark.parametrize("shape", ["random", "empty", "full"])
def test_all_cases(name: str, shape: str) -> None:
    """Every satisfiable case listed: each coordinate of the set runs its own case once."""
    expr = EXPRESSIONS[name]
    kinds = _leaf_kinds(expr)
    for seed in range(6):
        rng = random.Random(seed)
        leaves = [
            _random_leaf(
                kind, rng, shape if i == seed % len(kinds) else "random", dtype
            )
            for i, (kind, dtype) in enumerate(
                zip(kinds, ["index", "i32"] * len(kinds), strict=False)
            )
        ]
        _check(expr, leaves, _patterns(expr))


@pytest.mark.parametrize("name", ["union", "union3", "range_union", "mixed"])
def test_some_cases(name: str) -> None:
    """Unlisted cases leave the iter_args and memory unchanged."""
    expr = EXPRESSIONS[name]
    kinds = _leaf_kinds(expr)
    patterns = _patterns(expr)
    for seed in range(8):
        rng = random.Random(100 + seed)
        leaves = [_random_leaf(kind, rng, "random", "index") for kind in kinds]
        cases = [p for p in patterns if rng.random() < 0.5] or patterns[:1]
        _check(expr, leaves, cases)


def test_no_overlap_and_all_overlap() -> None:
    disjoint = [
        _Leaf("stored", 0, 3, [0, 2, 4], "index"),
        _Leaf("stored", 0, 3, [1, 3, 5], "index"),
    ]
    same = [
        _Leaf("stored", 0, 3, [1, 3, 5], "index"),
        _Leaf("stored", 1, 4, [9, 1, 3, 5], "i32"),
    ]
    for leaves in (disjoint, same):
        for name in ("intersect", "union", "difference"):
            expr = EXPRESSIONS[name]
            _check(expr, leaves, _patterns(expr))


@pytest.mark.parametrize("name", ["intersect", "union"])
def test_dense_expansion(name: str) -> None:
    """strategy=dense-expansion visits the same elements (in another order)."""
    expr = EXPRESSIONS[name]
    for seed in range(8):
        rng = random.Random(200 + seed)
        shapes = [
            "empty" if seed == 1 else "random",
            "empty" if seed == 2 else "random",
        ]
        leaves = [_random_leaf("stored", rng, s, "index") for s in shapes]
        _check(expr, leaves, _patterns(expr), strategy="dense-expansion")


# ---------------------------------------------------------------------------
# Kernels: sparse dot, sparse add, difference (numpy references)
# ---------------------------------------------------------------------------

DOT = """
func.func @dot(%ca: memref<?xindex>, %va: memref<?xf64>, %na: index,
               %cb: memref<?xi32>, %vb: memref<?xf64>, %nb: index) -> f64 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f64
  %a = indexing.stored %ca[%c0 to %na] : memref<?xindex> -> !indexing.set
  %b = indexing.stored %cb[%c0 to %nb] : memref<?xi32> -> !indexing.set
  %ab = indexing.intersect %a, %b : !indexing.set
  %r = indexing.foreach %ab iter_args(%zero) : !indexing.set -> (f64)
  case %pa, %pb at(%i) (%acc: f64) {
    %x = memref.load %va[%pa] : memref<?xf64>
    %y = memref.load %vb[%pb] : memref<?xf64>
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %acc, %m : f64
    indexing.yield %s : f64
  }
  func.return %r : f64
}

func.func @add(%ca: memref<?xindex>, %va: memref<?xf64>, %na: index,
               %cb: memref<?xi32>, %vb: memref<?xf64>, %nb: index,
               %out: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %a = indexing.stored %ca[%c0 to %na] : memref<?xindex> -> !indexing.set
  %b = indexing.stored %cb[%c0 to %nb] : memref<?xi32> -> !indexing.set
  %ab = indexing.union %a, %b : !indexing.set
  indexing.foreach %ab : !indexing.set
  case %pa, %pb at(%i) {
    %x = memref.load %va[%pa] : memref<?xf64>
    %y = memref.load %vb[%pb] : memref<?xf64>
    %s = arith.addf %x, %y : f64
    memref.store %s, %out[%i] : memref<?xf64>
    indexing.yield
  }
  case %pa, _ at(%i) {
    %x = memref.load %va[%pa] : memref<?xf64>
    memref.store %x, %out[%i] : memref<?xf64>
    indexing.yield
  }
  case _, %pb at(%i) {
    %y = memref.load %vb[%pb] : memref<?xf64>
    memref.store %y, %out[%i] : memref<?xf64>
    indexing.yield
  }
  func.return
}

func.func @sub(%ca: memref<?xindex>, %va: memref<?xf64>, %na: index,
               %cb: memref<?xi32>, %vb: memref<?xf64>, %nb: index,
               %out: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %a = indexing.stored %ca[%c0 to %na] : memref<?xindex> -> !indexing.set
  %b = indexing.stored %cb[%c0 to %nb] : memref<?xi32> -> !indexing.set
  %ab = indexing.difference %a, %b : !indexing.set
  indexing.foreach %ab : !indexing.set
  case %pa, _ at(%i) {
    %x = memref.load %va[%pa] : memref<?xf64>
    memref.store %x, %out[%i] : memref<?xf64>
    indexing.yield
  }
  func.return
}
"""


def _sparse(rng: np.random.Generator, n: int, density: float) -> np.ndarray:
    dense = rng.standard_normal(n)
    dense[rng.random(n) >= density] = 0.0
    return dense


@pytest.mark.parametrize("strategy", ["merge", "dense-expansion"])
@pytest.mark.parametrize("densities", [(0.3, 0.5), (0.0, 0.5), (0.4, 0.0), (1.0, 1.0)])
def test_dot_add_sub(strategy: str, densities: tuple[float, float]) -> None:
    ctx = _context()
    module = Parser(ctx, DOT).parse_module()
    LowerIndexingPass(strategy=strategy).apply(ctx, module)
    assert f'"{EMITTED_FROM}" = "linalg.generic"' in str(module)
    rng = np.random.default_rng(sum(int(d * 10) for d in densities))
    n = 30
    a, b = _sparse(rng, n, densities[0]), _sparse(rng, n, densities[1])

    def operand(x: np.ndarray, i32: bool) -> list[Any]:
        crd = [int(c) for c in np.flatnonzero(x)]
        buffer = TypedPtr.new_int32(crd) if i32 else TypedPtr.new_index(crd, 64)
        values = ShapedArray(
            TypedPtr.new_float64([float(v) for v in x[crd]]), [len(crd)]
        )
        return [ShapedArray(buffer, [len(crd)]), values, len(crd)]

    args = operand(a, False) + operand(b, True)
    (dot,) = _run(module, "dot", args)
    assert dot == pytest.approx(float(a @ b))

    out = ShapedArray(TypedPtr.new_float64([0.0] * n), [n])
    _run(module, "add", [*args, out])
    np.testing.assert_allclose(out.data, a + b)

    if strategy == "merge":
        out = ShapedArray(TypedPtr.new_float64([0.0] * n), [n])
        _run(module, "sub", [*args, out])
        np.testing.assert_allclose(out.data, np.where(b != 0, 0.0, a))


LINEARIZE = """
func.func @roundtrip(%i: index, %j: index, %k: index, %n0: index, %n1: index, %n2: index)
    -> (index, index, index, index) {
  %l = indexing.linearize %i, %j, %k by (%n0, %n1, %n2) : index
  %m:3 = indexing.delinearize %l by (%n0, %n1, %n2) : index, index, index
  func.return %l, %m#0, %m#1, %m#2 : index, index, index, index
}
"""


def test_linearize_delinearize() -> None:
    ctx = _context()
    module = Parser(ctx, LINEARIZE).parse_module()
    LowerIndexingPass().apply(ctx, module)
    assert "indexing." not in str(module)
    shape = (3, 4, 5)
    for index in np.ndindex(*shape):
        result = _run(module, "roundtrip", [*index, *shape])
        assert result == (int(np.ravel_multi_index(index, shape)), *index)
