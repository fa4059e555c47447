"""Differential fuzzing of the sparsifier: random element-wise and reduction
kernels over random encodings compute what numpy computes on the dense arrays.

Each kernel combines two 2-D operands A and B (each dense or in one of several
sparse encodings) with a random expression tree of arith/math ops, some zero-
preserving (products, sums, negation, abs) and some not (exp, adding a
constant), and writes C(i,j) = e(A, B) or reduces y(i) += e(A, B) over j.
Kernels whose operands have incompatible level orders must be refused with a
located diagnostic instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

import xsparse
from xsparse import SparseTensor, XSparseError

ENCODINGS = {
    "dense": None,
    "CSR": "(i, j) -> (i : dense, j : compressed)",
    "CSC": "(i, j) -> (j : dense, i : compressed)",
    "DCSR": "(i, j) -> (i : compressed, j : compressed)",
    "COO": "(i, j) -> (i : compressed(nonunique), j : singleton)",
    "DCSC": "(i, j) -> (j : compressed, i : compressed)",
}
ROW_MAJOR = {"dense", "CSR", "DCSR", "COO"}


@dataclass
class Expr:
    text: list[str]
    """The body ops, one per line."""
    value: str
    """The SSA name of the result."""
    reference: Callable[[np.ndarray, np.ndarray], np.ndarray]


def random_expr(rng: random.Random, depth: int, counter: list[int]) -> Expr:
    def fresh() -> str:
        counter[0] += 1
        return f"%t{counter[0]}"

    if depth == 0 or rng.random() < 0.25:
        leaf = rng.choice(["a", "b", "a", "b", "c"])
        if leaf == "c":
            name = fresh()
            return Expr(
                [f"{name} = arith.constant 1.5 : f64"],
                name,
                lambda a, b: np.full_like(a, 1.5),
            )
        return Expr(
            [], f"%{leaf}v", (lambda a, b: a) if leaf == "a" else (lambda a, b: b)
        )
    kind = rng.choice(["addf", "subf", "mulf", "mulf", "negf", "absf", "exp"])
    if kind in ("negf", "absf", "exp"):
        inner = random_expr(rng, depth - 1, counter)
        name = fresh()
        op = {"negf": "arith.negf", "absf": "math.absf", "exp": "math.exp"}[kind]
        fn = {"negf": np.negative, "absf": np.abs, "exp": np.exp}[kind]
        ref = inner.reference
        return Expr(
            [*inner.text, f"{name} = {op} {inner.value} : f64"],
            name,
            lambda a, b: fn(ref(a, b)),
        )
    lhs = random_expr(rng, depth - 1, counter)
    rhs = random_expr(rng, depth - 1, counter)
    name = fresh()
    fn2 = {"addf": np.add, "subf": np.subtract, "mulf": np.multiply}[kind]
    lref, rref = lhs.reference, rhs.reference
    return Expr(
        [*lhs.text, *rhs.text, f"{name} = arith.{kind} {lhs.value}, {rhs.value} : f64"],
        name,
        lambda a, b: fn2(lref(a, b), rref(a, b)),
    )


def tensor_type(encoding: str) -> str:
    if ENCODINGS[encoding] is None:
        return "tensor<?x?xf64>"
    return (
        f"tensor<?x?xf64, #sparse_tensor.encoding<{{ map = {ENCODINGS[encoding]} }}>>"
    )


def kernel_text(expr: Expr, enc_a: str, enc_b: str, reduce: bool) -> str:
    ta, tb = tensor_type(enc_a), tensor_type(enc_b)
    out = "tensor<?xf64>" if reduce else "tensor<?x?xf64>"
    out_map = "affine_map<(i, j) -> (i)>" if reduce else "affine_map<(i, j) -> (i, j)>"
    iterators = '["parallel", "reduction"]' if reduce else '["parallel", "parallel"]'
    body = "\n    ".join(expr.text)
    result = expr.value
    if reduce:
        body += f"\n    %sum = arith.addf %cv, {expr.value} : f64"
        result = "%sum"
    return f"""
func.func @kernel(%a: {ta}, %b: {tb}, %c: {out}) -> {out} {{
  %0 = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, {out_map}], iterator_types = {iterators}}}
      ins(%a, %b : {ta}, {tb}) outs(%c : {out}) {{
  ^bb0(%av: f64, %bv: f64, %cv: f64):
    {body}
    linalg.yield {result} : f64
  }} -> {out}
  return %0 : {out}
}}
"""


def operand(array: np.ndarray, encoding: str) -> object:
    if ENCODINGS[encoding] is None:
        return array
    return SparseTensor.from_dense(
        array, f"#sparse_tensor.encoding<{{ map = {ENCODINGS[encoding]} }}>"
    )


@pytest.mark.parametrize("seed", range(100))
def test_random_kernel(seed: int) -> None:
    rng = random.Random(seed)
    expr = random_expr(rng, rng.randint(1, 3), [0])
    enc_a, enc_b = rng.choice(list(ENCODINGS)), rng.choice(list(ENCODINGS))
    reduce = rng.random() < 0.4
    text = kernel_text(expr, enc_a, enc_b, reduce)
    data = np.random.default_rng(seed)
    shape = (7, 9)
    a = np.where(data.random(shape) < 0.3, data.standard_normal(shape), 0.0)
    b = np.where(data.random(shape) < 0.3, data.standard_normal(shape), 0.0)
    a[2] = 0.0  # an empty row
    sparse = {e for e in (enc_a, enc_b) if ENCODINGS[e] is not None}
    try:
        kernel = xsparse.compile(text)
    except XSparseError as e:
        # Only a row-major and a column-major sparse operand together have no loop order.
        assert sparse & ROW_MAJOR and sparse - ROW_MAJOR, f"{e}\n{text}"
        assert "no loop order" in str(e)
        return
    values = expr.reference(a, b)
    if reduce:
        y0 = data.standard_normal(shape[0])
        result = kernel(operand(a, enc_a), operand(b, enc_b), y0.copy())
        expected = y0 + values.sum(axis=1)
    else:
        result = kernel(operand(a, enc_a), operand(b, enc_b), np.full(shape, 99.0))
        expected = values
    np.testing.assert_allclose(result, expected, rtol=1e-10, atol=1e-10, err_msg=text)
