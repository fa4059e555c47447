"""Which entries a sparse result stores, for generated comparisons, selections
and concatenations: the values against numpy, and the printed storage (nse,
positions, coordinates, values) byte for byte against
`mlir-opt-22 --sparsifier | mlir-runner-22` where MLIR 22 is installed.

MLIR 22 stores a comparison's result where either operand is stored
(`disjSetWithZero`), an `arith.select`'s where its true or false value is
(GenSemiRingSelect), and a concatenation's nonzeros only (ConcatenateRewriter
skips zeros, explicit ones of sparse operands too)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray
from test_integration import mlir_runner, xsparse_run

HAVE_MLIR = bool(shutil.which("mlir-opt-22") and shutil.which("mlir-runner-22"))
DIRECT = "--sparsifier=enable-runtime-library=false"

ENCODINGS = {
    "DCSR": "(i, j) -> (i : compressed, j : compressed)",
    "CSR": "(i, j) -> (i : dense, j : compressed)",
    "CSC": "(i, j) -> (j : dense, i : compressed)",
    "CD": "(i, j) -> (i : compressed, j : dense)",
    "COO": "(i, j) -> (i : compressed(nonunique), j : singleton)",
}

NUMPY_CMP = {
    "ult": np.less,
    "ogt": np.greater,
    "une": np.not_equal,
    "slt": np.less,
    "ne": np.not_equal,
    "sle": np.less_equal,
    "oge": np.greater_equal,
}


def matrix(rng: np.random.Generator, shape: tuple[int, int], ints: bool) -> NDArray:
    """About a third of the places nonzero (small integers, as floats or not)."""
    values = rng.integers(-4, 5, size=shape) * (rng.random(shape) < 0.35)
    return values.astype(np.int32 if ints else np.float64)


def literal(a: NDArray) -> str:
    kind = "i32" if a.dtype == np.int32 else "i1" if a.dtype == bool else "f64"
    rows = ", ".join(
        "[" + ", ".join(str(int(v)) if kind != "f64" else f"{v:.1f}" for v in row) + "]"
        for row in a
    )
    return f"dense<[{rows}]> : tensor<{a.shape[0]}x{a.shape[1]}x{kind}>"


def header(formats: set[str]) -> str:
    return "".join(
        f"#{f} = #sparse_tensor.encoding<{{ map = {ENCODINGS[f]} }}>\n"
        for f in sorted(formats)
    )


ELEMENTWISE = (
    '#ew = {indexing_maps = [%s], iterator_types = ["parallel", "parallel"]}\n'
)


def maps(n: int) -> str:
    return ", ".join(["affine_map<(i, j) -> (i, j)>"] * n)


def parse_print(text: str, shape: tuple[int, int], fmt: str) -> tuple[int, NDArray]:
    """nse and the dense matrix that a `sparse_tensor.print` of a 2-d tensor
    in `fmt` (one of ENCODINGS) spells."""

    def field(name: str) -> list[float]:
        m = re.search(rf"^{re.escape(name)} : \( (.*) \)$", text, re.MULTILINE)
        assert m is not None, (name, text)
        return [float(x) for x in m.group(1).split(", ")]

    nse = int(re.search(r"^nse = (\d+)$", text, re.MULTILINE).group(1))  # type: ignore[union-attr]
    values = field("values")
    dense = np.zeros(shape)
    lvl = shape[::-1] if fmt == "CSC" else shape
    entries: list[tuple[int, int]] = []
    if fmt == "COO":
        pairs = [int(c) for c in field("crd[0]")]  # (i, j) pairs: AoS
        entries = list(zip(pairs[::2], pairs[1::2], strict=True))
    else:
        outer = (
            [int(c) for c in field("crd[0]")]
            if fmt in ("DCSR", "CD")
            else list(range(lvl[0]))
        )
        if fmt == "CD":
            entries = [(r, c) for r in outer for c in range(lvl[1])]
        else:
            pos = [int(p) for p in field("pos[1]")]
            crd = [int(c) for c in field("crd[1]")]
            entries = [
                (r, crd[k])
                for n, r in enumerate(outer)
                for k in range(pos[n], pos[n + 1])
            ]
    assert len(entries) == len(values) == nse
    for (a, b), v in zip(entries, values, strict=True):
        dense[(b, a) if fmt == "CSC" else (a, b)] = v
    return nse, dense


def run_both(tmp_path: Path, program: str, mlir_agrees: bool = True) -> str:
    """xsparse's output, equal to MLIR 22's where it is installed (and agrees)."""
    path = tmp_path / "program.mlir"
    path.write_text(program)
    ours = xsparse_run(path)
    if HAVE_MLIR and mlir_agrees:
        assert ours == mlir_runner(path, DIRECT)
    return ours


# ---------------------------------------------------------------------------
# Comparisons and selections
# ---------------------------------------------------------------------------


def cmp_program(pred: str, fmt: str, a: NDArray, b: NDArray) -> str:
    ints = a.dtype == np.int32
    t, op = ("i32", "cmpi") if ints else ("f64", "cmpf")
    m, n = a.shape
    st = f"tensor<{m}x{n}x{t}, #{fmt}>"
    out = f"tensor<{m}x{n}xi8, #{fmt}>"
    return f"""{header({fmt})}{ELEMENTWISE % maps(3)}
func.func @cmp(%a: {st}, %b: {st}) -> {out} {{
  %x = tensor.empty() : {out}
  %0 = linalg.generic #ew ins(%a, %b : {st}, {st}) outs(%x : {out}) {{
  ^bb0(%av: {t}, %bv: {t}, %xv: i8):
    %c = arith.{op} {pred}, %av, %bv : {t}
    %e = arith.extui %c : i1 to i8
    linalg.yield %e : i8
  }} -> {out}
  return %0 : {out}
}}
func.func @main() {{
  %da = arith.constant {literal(a)}
  %db = arith.constant {literal(b)}
  %a = sparse_tensor.convert %da : tensor<{m}x{n}x{t}> to {st}
  %b = sparse_tensor.convert %db : tensor<{m}x{n}x{t}> to {st}
  %r = call @cmp(%a, %b) : ({st}, {st}) -> {out}
  sparse_tensor.print %r : {out}
  return
}}
"""


@pytest.mark.parametrize(
    ("pred", "fmt", "seed"),
    [
        ("ult", "DCSR", 1),
        ("ogt", "CSR", 2),
        ("une", "CSC", 3),
        ("slt", "DCSR", 4),
        ("ne", "CSR", 5),
    ],
)
def test_comparison_stores_where_either_side_is(
    tmp_path: Path, pred: str, fmt: str, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    ints = pred in ("slt", "ne", "sle")
    a, b = matrix(rng, (5, 6), ints), matrix(rng, (5, 6), ints)
    text = run_both(tmp_path, cmp_program(pred, fmt, a, b))
    nse, dense = parse_print(text, a.shape, fmt)
    assert nse == np.count_nonzero((a != 0) | (b != 0))
    np.testing.assert_array_equal(dense, NUMPY_CMP[pred](a, b))


@pytest.mark.parametrize(("pred", "seed"), [("sle", 6), ("oge", 7)])
def test_comparison_true_for_two_zeros_stores_every_place(
    tmp_path: Path, pred: str, seed: int
) -> None:
    """`0 <= 0` holds: the result is dense (MLIR 22 leaves these places out,
    and reads 0 there; here numpy's answer)."""
    rng = np.random.default_rng(seed)
    a, b = matrix(rng, (4, 5), pred == "sle"), matrix(rng, (4, 5), pred == "sle")
    text = run_both(tmp_path, cmp_program(pred, "DCSR", a, b), mlir_agrees=False)
    nse, dense = parse_print(text, a.shape, "DCSR")
    assert nse == a.size
    np.testing.assert_array_equal(dense, NUMPY_CMP[pred](a, b))


def select_program(fmt: str, c: NDArray, a: NDArray, b: NDArray) -> str:
    m, n = a.shape
    st = f"tensor<{m}x{n}xf64, #{fmt}>"
    ct = f"tensor<{m}x{n}xi1>"
    return f"""{header({fmt})}{ELEMENTWISE % maps(4)}
func.func @sel(%c: {ct}, %a: {st}, %b: {st}) -> {st} {{
  %x = tensor.empty() : {st}
  %0 = linalg.generic #ew ins(%c, %a, %b : {ct}, {st}, {st}) outs(%x : {st}) {{
  ^bb0(%cv: i1, %av: f64, %bv: f64, %xv: f64):
    %s = arith.select %cv, %av, %bv : f64
    linalg.yield %s : f64
  }} -> {st}
  return %0 : {st}
}}
func.func @main() {{
  %c = arith.constant {literal(c)}
  %da = arith.constant {literal(a)}
  %db = arith.constant {literal(b)}
  %a = sparse_tensor.convert %da : tensor<{m}x{n}xf64> to {st}
  %b = sparse_tensor.convert %db : tensor<{m}x{n}xf64> to {st}
  %r = call @sel(%c, %a, %b) : ({ct}, {st}, {st}) -> {st}
  sparse_tensor.print %r : {st}
  return
}}
"""


@pytest.mark.parametrize(("fmt", "seed"), [("DCSR", 11), ("CSR", 12), ("CSC", 13)])
def test_select_with_a_dense_condition_stores_where_a_value_is(
    tmp_path: Path, fmt: str, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    a, b = matrix(rng, (5, 4), False), matrix(rng, (5, 4), False)
    c = rng.random(a.shape) < 0.5
    text = run_both(tmp_path, select_program(fmt, c, a, b))
    nse, dense = parse_print(text, a.shape, fmt)
    assert nse == np.count_nonzero((a != 0) | (b != 0))
    np.testing.assert_array_equal(dense, np.where(c, a, b))


# ---------------------------------------------------------------------------
# Concatenations
# ---------------------------------------------------------------------------


def concat_program(
    dim: int, result: str, formats: list[str | None], mats: list[NDArray]
) -> str:
    """Concatenate `mats` (dense constants converted to `formats`, None for a
    dense operand) along `dim` into `result`, and print the result."""
    shapes = [m.shape for m in mats]
    total = list(shapes[0])
    total[dim] = sum(s[dim] for s in shapes)
    used = {f for f in formats if f is not None} | {result}

    def ty(shape: Sequence[int], fmt: str | None) -> str:
        enc = "" if fmt is None else f", #{fmt}"
        return f"tensor<{shape[0]}x{shape[1]}xf64{enc}>"

    out = ty(total, result)
    lines = []
    names = []
    for k, (m, fmt) in enumerate(zip(mats, formats, strict=True)):
        lines.append(f"  %d{k} = arith.constant {literal(m)}")
        if fmt is None:
            names.append(f"%d{k}")
            continue
        lines.append(
            f"  %s{k} = sparse_tensor.convert %d{k} : {ty(m.shape, None)} to "
            f"{ty(m.shape, fmt)}"
        )
        names.append(f"%s{k}")
    types = ", ".join(ty(m.shape, f) for m, f in zip(mats, formats, strict=True))
    body = "\n".join(lines)
    return f"""{header(used)}
func.func @main() {{
{body}
  %r = sparse_tensor.concatenate {", ".join(names)} {{dimension = {dim} : index}}
    : {types} to {out}
  sparse_tensor.print %r : {out}
  return
}}
"""


CONCATS = [
    # (dim, result, operand formats): operands whose stored entries include
    # zeros (a dense level's, a dense operand's) and ones that do not.
    (0, "DCSR", ["DCSR", "CD", "CSR"]),
    (0, "CSR", [None, "CD", "CSC"]),
    (1, "CSR", ["CSR", "CD", None]),
    (1, "DCSR", ["CD", "DCSR"]),
    (0, "CD", ["CD", "CSR", None]),
    (1, "CSC", ["CSC", "CD"]),
    (0, "COO", ["COO", "CD"]),
]


@pytest.mark.parametrize(("dim", "result", "formats"), CONCATS)
def test_concatenation_stores_the_nonzeros(
    tmp_path: Path, dim: int, result: str, formats: list[str | None]
) -> None:
    rng = np.random.default_rng(len(formats) * 10 + dim)
    shapes = [(3 + k, 4) if dim == 0 else (4, 2 + k) for k in range(len(formats))]
    mats = [matrix(rng, s, False) for s in shapes]
    mats[0][0, :] = 0  # a row without nonzeros
    text = run_both(tmp_path, concat_program(dim, result, formats, mats))
    expected = np.concatenate(mats, axis=dim)
    nse, dense = parse_print(text, expected.shape, result)
    np.testing.assert_array_equal(dense, expected)
    if result == "CD":  # rows with a nonzero, whole
        assert nse == np.count_nonzero(expected.any(axis=1)) * expected.shape[1]
    else:
        assert nse == np.count_nonzero(expected)


def select_on_sign_program(fmt: str, a: NDArray, b: NDArray) -> str:
    """`select(a > 0, a, b)`: the condition compares a sparse value with an
    invariant (MLIR's GenSemiRingSelect admits it, but mlir-opt-22 then fails
    with "operand #1 does not dominate this use": numpy only)."""
    m, n = a.shape
    st = f"tensor<{m}x{n}xf64, #{fmt}>"
    return f"""{header({fmt})}{ELEMENTWISE % maps(3)}
func.func @sel(%a: {st}, %b: {st}) -> {st} {{
  %x = tensor.empty() : {st}
  %zero = arith.constant 0.0 : f64
  %0 = linalg.generic #ew ins(%a, %b : {st}, {st}) outs(%x : {st}) {{
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %c = arith.cmpf ogt, %av, %zero : f64
    %s = arith.select %c, %av, %bv : f64
    linalg.yield %s : f64
  }} -> {st}
  return %0 : {st}
}}
func.func @main() {{
  %da = arith.constant {literal(a)}
  %db = arith.constant {literal(b)}
  %a = sparse_tensor.convert %da : tensor<{m}x{n}xf64> to {st}
  %b = sparse_tensor.convert %db : tensor<{m}x{n}xf64> to {st}
  %r = call @sel(%a, %b) : ({st}, {st}) -> {st}
  sparse_tensor.print %r : {st}
  return
}}
"""


@pytest.mark.parametrize(("fmt", "seed"), [("DCSR", 21), ("CSR", 22)])
def test_select_on_a_comparison_stores_where_a_value_is(
    tmp_path: Path, fmt: str, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    a, b = matrix(rng, (5, 4), False), matrix(rng, (5, 4), False)
    text = run_both(tmp_path, select_on_sign_program(fmt, a, b), mlir_agrees=False)
    nse, dense = parse_print(text, a.shape, fmt)
    assert nse == np.count_nonzero((a != 0) | (b != 0))
    np.testing.assert_array_equal(dense, np.where(a > 0, a, b))
