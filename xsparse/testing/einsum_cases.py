"""Random `xsparse.einsum` / `xsparse.evaluate` calls against numpy.

Each seed draws an expression (numpy subscripts, or TACO index notation with
`+`, `-`, `*` and literals), index sizes (0 included), and for each operand an
object as users have them: a numpy array, a scipy.sparse array or matrix of
any format (COO with duplicates, int32 or int64 indices), or a `SparseTensor`
in a random encoding of its rank with random index widths; values are small
integers in every supported dtype, so results are exact. Some calls ask for a
`format=`, some run on 2 threads with every parallel loop on the pool. The
verdict compares the result, as a dense array, with `numpy.einsum` on the
dense operands (or the same expression evaluated by numpy): OK, REFUSED (a
ValueError/TypeError naming the expression: the front end says what it does
not support), WRONG, or ERROR (anything else).
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from xsparse.testing.outcome import CaseOutcome, Verdict

LETTERS = "ijkl"
DTYPES = ("float64", "float32", "int64", "int32")
SCIPY_FORMATS = ("csr", "csc", "coo", "bsr", "dia", "lil", "dok")
ENCODINGS: dict[int, tuple[str, ...]] = {
    1: ("(i) -> (i : compressed)", "(i) -> (i : dense)"),
    2: (
        "(i, j) -> (i : dense, j : compressed)",
        "(i, j) -> (j : dense, i : compressed)",
        "(i, j) -> (i : compressed, j : compressed)",
        "(i, j) -> (j : compressed, i : compressed)",
        "(i, j) -> (i : compressed(nonunique), j : singleton)",
    ),
    3: (
        "(i, j, k) -> (i : dense, j : compressed, k : compressed)",
        "(i, j, k) -> (i : compressed(nonunique), j : singleton(nonunique), k : singleton)",
        "(i, j, k) -> (i : dense, j : dense, k : compressed)",
    ),
}


@dataclass(frozen=True)
class OperandPlan:
    """How one operand is made: its indices, dense data and the object kind."""

    indices: str
    data: np.ndarray[Any, Any]
    kind: str
    """'numpy', 'pydata', 'scipy|<format>|<array or matrix>|<int32 or
    int64>|<sorted or unsorted>', or
    'tensor|<encoding map>|<width>'."""


@dataclass(frozen=True)
class EinsumCase:
    seed: int
    expression: str
    """Subscripts (einsum) or an assignment (evaluate)."""
    notation: bool
    """Whether `expression` is TACO notation (`evaluate`)."""
    operands: tuple[OperandPlan, ...]
    format: str | None
    threads: int


def random_einsum_case(seed: int) -> EinsumCase:
    rng = np.random.default_rng([seed, 16])
    sizes = {
        letter: int(rng.choice([0, 1, 2, 3, 4, 5, 6], p=[0.05, *[0.95 / 6] * 6]))
        for letter in LETTERS
    }
    dtype = str(rng.choice(DTYPES))
    notation = bool(rng.random() < 0.3)
    if notation:
        expression, accesses = _random_assignment(rng)
    else:
        expression, accesses = _random_subscripts(rng)
    operands = tuple(_random_operand(rng, a, sizes, dtype) for a in accesses)
    output = expression.split("->")[-1] if "->" in expression else ""
    format = None
    if rng.random() < 0.2:
        format = str(rng.choice(["dense", "csr", "coo", "csc"]))
        if format != "dense" and (notation or len(output) != 2):
            format = "dense"
    threads = 2 if rng.random() < 0.3 else 0
    return EinsumCase(seed, expression, notation, operands, format, threads)


def _random_subscripts(rng: np.random.Generator) -> tuple[str, list[str]]:
    count = int(rng.integers(1, 4))
    accesses: list[str] = []
    for _ in range(count):
        rank = int(rng.choice([0, 1, 2, 2, 2, 3], p=[0.05, 0.25, 0.2, 0.2, 0.15, 0.15]))
        letters = [str(rng.choice(list(LETTERS))) for _ in range(rank)]
        if rank >= 2 and rng.random() > 0.15:  # mostly distinct (diagonals are rare)
            letters = [str(x) for x in rng.permutation(list(LETTERS))[:rank]]
        accesses.append("".join(letters))
    used = sorted(set("".join(accesses)))
    if rng.random() < 0.25:
        return ",".join(accesses), accesses  # numpy's implicit output
    kept = [x for x in used if rng.random() < 0.6]
    output = "".join(str(x) for x in rng.permutation(kept)) if kept else ""
    return ",".join(accesses) + "->" + output, accesses


def _random_assignment(rng: np.random.Generator) -> tuple[str, list[str]]:
    """`y(i,j) = A(i,j) * x(j) - B(i,j) + 2 * ...`: terms of one or two
    factors, each factor indexed by the output's indices or with one summed
    index, TACO's convention (each term sums its own indices)."""
    rank = int(rng.integers(0, 3))
    out = [str(x) for x in rng.permutation(list(LETTERS[:3]))[:rank]]
    accesses: list[str] = []
    terms: list[str] = []
    names = iter("ABCDEFG")
    for _ in range(int(rng.integers(1, 4))):
        factors: list[str] = []
        summed = [x for x in LETTERS if x not in out]
        extra = [str(rng.choice(summed))] if rng.random() < 0.4 else []
        for f in range(int(rng.integers(1, 3))):
            letters = list(out) if f == 0 else [x for x in out if rng.random() < 0.5]
            letters += extra if f == 0 or extra else []
            name = next(names)
            accesses.append("".join(letters))
            factors.append(f"{name}({','.join(letters)})" if letters else name)
        if rng.random() < 0.2:
            factors.insert(0, str(int(rng.integers(2, 4))))
        sign = " - " if terms and rng.random() < 0.4 else " + "
        terms.append((sign if terms else "") + " * ".join(factors))
    lhs = f"y({','.join(out)})" if out else "y"
    return f"{lhs} = {''.join(terms)}", accesses


def _random_operand(
    rng: np.random.Generator, indices: str, sizes: dict[str, int], dtype: str
) -> OperandPlan:
    shape = tuple(sizes[x] for x in indices)
    density = float(rng.choice([0.0, 0.2, 0.5, 0.8], p=[0.05, 0.45, 0.3, 0.2]))
    values = rng.integers(-3, 4, shape) * (rng.random(shape) < density)
    if len(shape) >= 2 and shape[0] > 1 and rng.random() < 0.3:
        values[int(rng.integers(0, shape[0]))] = 0  # an empty row
    data = values.astype(dtype)
    rank = len(shape)
    draw = rng.random()
    if rank == 2 and draw < 0.45:
        fmt = str(rng.choice(SCIPY_FORMATS))
        family = "array" if rng.random() < 0.6 else "matrix"
        width = "int32" if rng.random() < 0.6 else "int64"
        order = "unsorted" if fmt in ("csr", "csc") and rng.random() < 0.6 else "sorted"
        return OperandPlan(indices, data, f"scipy|{fmt}|{family}|{width}|{order}")
    if rank >= 1 and draw > 0.92:
        return OperandPlan(indices, data, "pydata")
    if rank >= 1 and draw < 0.8:
        encoding = str(rng.choice(ENCODINGS[rank]))
        width = int(rng.choice([0, 32]))
        return OperandPlan(indices, data, f"tensor|{encoding}|{width}")
    return OperandPlan(indices, data, "numpy")


def make_operand(plan: OperandPlan) -> Any:
    """The object a user would pass for `plan`."""
    from xsparse import SparseTensor

    kind = plan.kind.split("|")
    if kind[0] == "numpy":
        return plan.data.copy()
    if kind[0] == "pydata":  # a pydata/sparse COO array (a SparseTensor without it)
        try:
            import sparse  # pyright: ignore[reportMissingImports]
        except ImportError:
            text = "#sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>"
            if plan.data.ndim > 1:
                dims = ", ".join(f"d{k}" for k in range(plan.data.ndim))
                levels = ", ".join(f"d{k} : compressed" for k in range(plan.data.ndim))
                text = f"#sparse_tensor.encoding<{{ map = ({dims}) -> ({levels}) }}>"
            return SparseTensor.from_dense(plan.data, text)
        return sparse.COO.from_numpy(plan.data)  # pyright: ignore
    if kind[0] == "tensor":
        width = int(kind[2])
        widths = f", posWidth = {width}, crdWidth = {width}" if width else ""
        text = f"#sparse_tensor.encoding<{{ map = {kind[1]}{widths} }}>"
        return SparseTensor.from_dense(plan.data, text)
    fmt, family, width = kind[1], kind[2], kind[3]
    coo: Any = sp.coo_array(plan.data)
    if fmt == "coo" and coo.nnz:  # duplicates: a stored entry split in two
        values: np.ndarray[Any, Any] = np.asarray(coo.data)
        half = (values // 2).astype(plan.data.dtype)
        rows = np.concatenate([coo.row, coo.row])
        cols = np.concatenate([coo.col, coo.col])
        coo = sp.coo_array(
            (np.concatenate([half, values - half]), (rows, cols)), shape=coo.shape
        )
    matrix: Any = coo.asformat(fmt)
    if family == "matrix":
        matrix = sp.coo_matrix(matrix).asformat(fmt)
    for name in ("indices", "indptr", "row", "col", "coords"):
        if hasattr(matrix, name) and isinstance(getattr(matrix, name), np.ndarray):
            setattr(matrix, name, getattr(matrix, name).astype(width))
    if kind[4] == "unsorted":
        matrix = _unsorted(matrix)
    return matrix


def _unsorted(matrix: Any) -> Any:
    """The same CSR/CSC matrix with each row's (column's) entries in reverse
    order and its first entry split in two: not canonical, as scipy's own
    products leave their results."""
    indptr, indices = np.asarray(matrix.indptr), np.asarray(matrix.indices)
    data = np.asarray(matrix.data)
    segment = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    order = np.lexsort((-np.arange(len(indices)), segment))
    indices, data = indices[order], data[order]
    if len(data):
        half = (data[:1] // 2).astype(data.dtype)
        data = np.concatenate([half, data[:1] - half, data[1:]])
        indices = np.concatenate([indices[:1], indices])
        indptr = indptr + (np.arange(len(indptr)) > segment[order][0])
    result = matrix.__class__(
        (
            data,
            indices.astype(matrix.indices.dtype),
            indptr.astype(matrix.indptr.dtype),
        ),
        shape=matrix.shape,
    )
    result.has_sorted_indices = False  # scipy would otherwise assume sorted
    return result


def expected_result(case: EinsumCase) -> np.ndarray[Any, Any]:
    """numpy's answer, in int64/float64 (exact for the small integers drawn)."""
    data = [p.data for p in case.operands]
    if not case.notation:
        wide = [d.astype(np.float64 if d.dtype.kind == "f" else np.int64) for d in data]
        return np.asarray(np.einsum(case.expression, *wide))
    return _evaluate_with_numpy(case.expression, data)


def _evaluate_with_numpy(
    assignment: str, data: list[np.ndarray[Any, Any]]
) -> np.ndarray[Any, Any]:
    lhs, rhs = (s.strip() for s in assignment.split("="))
    out = lhs[2:-1].split(",") if "(" in lhs else []
    out = [x for x in out if x]
    total: Any = 0
    operands = iter(data)
    for sign, term in _terms(rhs):
        factors = [f.strip() for f in term.split("*")]
        literal = 1
        subscripts: list[str] = []
        arrays: list[np.ndarray[Any, Any]] = []
        for f in factors:
            if f.isdigit():
                literal *= int(f)
                continue
            d = next(operands)
            arrays.append(d.astype(np.float64 if d.dtype.kind == "f" else np.int64))
            subscripts.append("".join(f[2:-1].split(",")) if "(" in f else "")
        spec = ",".join(subscripts) + "->" + "".join(out)
        total = total + sign * literal * np.einsum(spec, *arrays)
    return np.asarray(total)


def _terms(rhs: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    sign, start, depth = 1, 0, 0
    for k, c in enumerate(rhs):
        depth += c == "("
        depth -= c == ")"
        if depth == 0 and c in "+-" and k > 0:
            out.append((sign, rhs[start:k]))
            sign, start = (1 if c == "+" else -1), k + 1
    out.append((sign, rhs[start:]))
    return out


def as_dense(result: Any) -> np.ndarray[Any, Any]:
    from xsparse import SparseTensor

    if isinstance(result, SparseTensor):
        return result.to_dense()
    if type(result).__module__.startswith("sparse"):  # pydata/sparse
        return np.asarray(result.todense())
    if sp.issparse(result):
        return np.asarray(result.toarray())
    return np.asarray(result)


def check_einsum_case(seed: int) -> CaseOutcome:
    """The verdict on seed's call."""
    try:
        case = random_einsum_case(seed)
    except Exception:
        return CaseOutcome(Verdict.ERROR, traceback.format_exc(), "")
    return check(case)


def check(case: EinsumCase) -> CaseOutcome:
    from xsparse.testing.kernels import on_threads

    reproducer = einsum_reproducer(case)
    try:
        args = [make_operand(p) for p in case.operands]
        expected = expected_result(case)
        with on_threads(case.threads):
            got = as_dense(_call(case, args))
    except (ValueError, TypeError) as error:
        if case.expression in str(error):
            return CaseOutcome(Verdict.REFUSED, str(error), reproducer)
        return CaseOutcome(Verdict.ERROR, traceback.format_exc(), reproducer)
    except Exception:
        return CaseOutcome(Verdict.ERROR, traceback.format_exc(), reproducer)
    if got.shape != expected.shape:
        detail = f"shape {got.shape}, numpy's {expected.shape}"
        return CaseOutcome(Verdict.WRONG, detail, reproducer)
    exact = all(p.data.dtype.kind == "i" for p in case.operands)
    tolerance = 0.0 if exact else 1e-4
    if not np.allclose(got, expected, rtol=tolerance, atol=tolerance):
        detail = f"got\n{got}\nnumpy\n{expected}"
        return CaseOutcome(Verdict.WRONG, detail, reproducer)
    return CaseOutcome(Verdict.OK, "", reproducer)


def _call(case: EinsumCase, args: list[Any]) -> Any:
    import xsparse

    options: dict[str, Any] = {} if case.format is None else {"format": case.format}
    if case.notation:
        names = _names(case.expression)
        named = dict(zip(names, args, strict=True))
        return xsparse.evaluate(case.expression, **named, **options)
    return xsparse.einsum(case.expression, *args, **options)


def _names(assignment: str) -> list[str]:
    rhs = assignment.split("=", 1)[1]
    return [c for c in rhs if c.isupper()]


def einsum_reproducer(case: EinsumCase) -> str:
    lines = [
        f'"""Generated einsum case, seed {case.seed}."""',
        "from xsparse.testing.einsum_cases import check_einsum_case",
        f"print(check_einsum_case({case.seed}))",
        f"# expression: {case.expression!r}, format={case.format!r}, "
        f"threads={case.threads}",
    ]
    for k, p in enumerate(case.operands):
        lines.append(f"# operand {k} ({p.indices}): {p.kind}, {p.data.dtype}")
        lines.append(
            f"#   {np.array2string(p.data, separator=', ')}".replace("\n", "\n#   ")
        )
    return "\n".join(lines) + "\n"
