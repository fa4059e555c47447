"""`xsparse.evaluate`: TACO's index notation against numpy on the dense
equivalents: sums and differences of sparse operands (unions), products,
division by dense operands, literals and unary minus, TACO's summation
convention, results as scipy would return them, the cache, the MLIR, and
errors in the user's terms."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
from test_einsum import dense

import xsparse
from xsparse import SparseTensor
from xsparse.frontend import api, evaluate_mlir

DCSR = "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>"


def operands(seed: int) -> dict[str, Any]:
    """A, B: sparse 7 x 5 (with an empty row); x, b: dense vectors; D: dense."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((7, 5)) * (rng.random((7, 5)) < 0.35)
    a[3] = 0
    b = rng.standard_normal((7, 5)) * (rng.random((7, 5)) < 0.35)
    return {
        "A": sp.csr_array(a),
        "B": sp.csr_array(b),
        "x": rng.standard_normal(5) + 3.0,  # no zeros: a divisor
        "b": rng.standard_normal(7),
        "D": rng.standard_normal((7, 5)),
    }


Operands = dict[str, Any]

CASES: list[tuple[str, str, Callable[[Operands], Any], type]] = [
    (
        "y(i) = A(i,j) * x(j) + b(i)",
        "Axb",
        lambda o: o["A"] @ o["x"] + o["b"],
        np.ndarray,
    ),
    ("C(i,j) = A(i,j) + B(i,j)", "AB", lambda o: o["A"] + o["B"], sp.csr_array),
    ("C(i,j) = A(i,j) - B(i,j)", "AB", lambda o: o["A"] - o["B"], sp.csr_array),
    ("s = A(i,j) * B(i,j)", "AB", lambda o: (o["A"] * o["B"]).sum(), np.float64),
    ("C(i,j) = A(i,j) / x(j)", "Ax", lambda o: o["A"] / o["x"], sp.csr_array),
    (
        "C(i,j) = -A(i,j) * 2.5 + D(i,j)",
        "AD",
        lambda o: -o["A"] * 2.5 + o["D"],
        np.ndarray,
    ),
    (
        "y(i) = (A(i,j) + B(i,j)) * x(j)",
        "ABx",
        lambda o: (o["A"] + o["B"]) @ o["x"],
        np.ndarray,
    ),
    (
        "y(i) = A(i,j) * x(j) - 2 * b(i) + 1",
        "Axb",
        lambda o: o["A"] @ o["x"] - 2 * o["b"] + 1,
        np.ndarray,
    ),
    ("s = A(i,j) + 1e-1", "A", lambda o: o["A"].sum() + 0.1, np.float64),
]


@pytest.mark.parametrize(
    ("text", "names", "numpy", "kind"), CASES, ids=[c[0] for c in CASES]
)
def test_matches_numpy(
    text: str, names: str, numpy: Callable[[Operands], Any], kind: type
) -> None:
    given = operands(20)
    used = {n: given[n] for n in names}
    result = xsparse.evaluate(text, **used)
    expected = numpy({n: dense(v) for n, v in used.items()})
    assert type(result) is kind
    np.testing.assert_allclose(dense(result), expected, rtol=1e-12, atol=1e-12)


def test_sums_of_sparse_operands_stay_in_their_family() -> None:
    given = operands(21)
    a: Any = given["A"]
    b: Any = given["B"]
    expected = dense(a) + dense(b)
    as_matrices = xsparse.evaluate(
        "C(i,j) = A(i,j) + B(i,j)", A=sp.csr_matrix(a), B=sp.csr_matrix(b)
    )
    assert type(as_matrices) is sp.csr_matrix
    np.testing.assert_allclose(dense(as_matrices), expected)
    ta, tb = SparseTensor.from_scipy(a, DCSR), SparseTensor.from_scipy(b, DCSR)
    tensor = xsparse.evaluate("C(i,j) = A(i,j) + B(i,j)", A=ta, B=tb)
    assert isinstance(tensor, SparseTensor) and tensor.encoding == ta.encoding
    np.testing.assert_allclose(tensor.to_dense(), expected)
    with_dense = xsparse.evaluate("C(i,j) = A(i,j) + D(i,j)", A=a, D=given["D"])
    assert type(with_dense) is np.ndarray  # as scipy's a + dense
    np.testing.assert_allclose(with_dense, dense(a) + given["D"])


def test_integer_and_float32_operands() -> None:
    given = operands(22)
    ints = sp.csr_array((dense(given["A"]) * 10).astype(np.int64))
    other = sp.csr_array((dense(given["B"]) * 10).astype(np.int64))
    result = xsparse.evaluate("C(i,j) = -A(i,j) * 3 - B(i,j)", A=ints, B=other)
    assert result.dtype == np.int64
    np.testing.assert_array_equal(result.toarray(), -dense(ints) * 3 - dense(other))
    halves = xsparse.evaluate("C(i,j) = A(i,j) / 2", A=ints)  # true division: float64
    np.testing.assert_allclose(halves.toarray(), dense(ints) / 2)
    f32 = sp.csr_array(dense(given["A"]).astype(np.float32))
    scaled = xsparse.evaluate("C(i,j) = A(i,j) * 0.1", A=f32)
    assert scaled.dtype == np.float32
    np.testing.assert_allclose(scaled.toarray(), dense(f32) * np.float32(0.1))


def test_out_and_format() -> None:
    given = operands(23)
    out = np.full(7, 5.0)
    args = {"A": given["A"], "x": given["x"], "b": given["b"]}
    text = "y(i) = A(i,j) * x(j) + b(i)"
    assert xsparse.evaluate(text, out=out, **args) is out
    np.testing.assert_allclose(out, given["A"] @ given["x"] + given["b"])
    total = xsparse.evaluate(
        "C(i,j) = A(i,j) + B(i,j)", format="dense", A=given["A"], B=given["B"]
    )
    assert type(total) is np.ndarray
    np.testing.assert_allclose(total, dense(given["A"]) + dense(given["B"]))


def test_cache_and_operand_order() -> None:
    given = operands(24)
    text = "C(i,j) = A(i,j) + B(i,j)"
    xsparse.evaluate(text, A=given["A"], B=given["B"])
    before = api.plans_built
    swapped = xsparse.evaluate(text, B=given["A"], A=given["B"])
    again = xsparse.evaluate(text, B=given["A"], A=given["B"])
    assert api.plans_built == before + 1  # keyword order is in the key...
    np.testing.assert_allclose(swapped.toarray(), again.toarray())
    xsparse.evaluate(text, A=given["B"], B=given["A"])
    assert api.plans_built == before + 1  # ...and nothing else recompiles


def test_mlir_of_a_sum_of_two_kinds_of_terms() -> None:
    given = operands(25)
    text = evaluate_mlir(
        "y(i) = A(i,j) * x(j) + b(i)", A=given["A"], x=given["x"], b=given["b"]
    )
    assert text.count("linalg.generic") == 2  # A @ x, then + b into the same output
    assert '"parallel", "reduction"' in text


@pytest.mark.parametrize(
    ("text", "names", "message"),
    [
        ("y(i) = A(i,j) *", "Ax", "an operand, a number .* at column 16"),
        ("y(i) = A(i,j) x(j)", "Ax", "expected an operator at column 15"),
        ("y(i) A(i,j)", "A", "expected '=' at column 6"),
        ("y(i) = A(i,j) $ x(j)", "Ax", "unexpected '\\$' at column 15"),
        ("y(i) = A(i,j) * z(j)", "Ax", "no operand named 'z'"),
        ("y(i) = A(i,j)", "Ax", "operand 'x' is not used"),
        ("y(i) = A(i) * x(i)", "Ax", "A has 2 dimension.*gives it 1 index"),
        ("y(i) = A(j,i) * x(j)", "Ax", r"j has size 7 in A \(dimension 0\) but 5 in x"),
        ("y(k) = A(i,j) * x(j)", "Ax", "index k of the left appears on no operand"),
        ("C(i,i) = A(i,i)", "A", "index i appears twice on the left"),
        ("y(i) = (A(i,j) * x(j) + b(i)) * b(i)", "Axb", "sum over j wraps"),
        ("C(i,j) = D(i,j) / A(i,j)", "AD", "division by a sparse operand"),
        ("s = 2", "", "reads no operand"),
    ],
)
def test_errors_name_the_expression_and_operand(
    text: str, names: str, message: str
) -> None:
    given = operands(26)
    before = api.plans_built
    with pytest.raises(ValueError, match=message) as raised:
        xsparse.evaluate(text, **{n: given[n] for n in names})
    assert f"evaluate {text!r}" in str(raised.value)
    assert api.plans_built == before


def test_unsupported_operands_are_type_errors() -> None:
    with pytest.raises(
        TypeError, match="evaluate 's = a\\(i\\)': a: cannot take a set"
    ):
        xsparse.evaluate("s = a(i)", a={1, 2})
    with pytest.raises(TypeError, match="a has dtype complex128"):
        xsparse.evaluate("s = a(i)", a=np.ones(3, complex))
