"""The front end as users call it: `xsparse.einsum`, `xsparse.evaluate` and
`SparseTensor`'s operators beside scipy, pydata `sparse` and Tensora (each
when importable), in one interleaved run.

Per operation and library, wall-clock time of the first call (compilation
included: run as a script, the kernel disk cache is a fresh temporary
directory, `XSPARSE_CACHE_DIR` set before xsparse is imported; each
candidate's first call gets another fresh one and the process's compiled
kernels forgotten, so that none finds another's kernel) and per repeated
call (median over interleaved rounds), each as a ratio to the reference:
scipy, or numpy's `einsum` on the dense tensor for the 3-tensor
contraction. Every result is checked against the reference's first.

- `spmv`: `A @ x`;  `spmm`: `A @ B`, B dense with `k` columns;
- `sddmm`: `A * (L R^T)` sampled on A's entries (the scipy reference gathers
  the rows of L and R at A's entries);
- `add`: `A + B`, both sparse (einsum has no sums: evaluate and `+` only);
- `spgemm`: `A @ B`, both sparse;
- `ttv`: `"ijk,k->ij"` on a 3-D COO `SparseTensor` (pydata: its COO array).

Candidates: `einsum` and `evaluate` on the scipy matrices themselves (int32
indices, read without a copy), `SparseTensor op` (`t @ x`, `t + u`) on
SparseTensors made once from them (64-bit indices), pydata `sparse.einsum`
on GCXS / COO arrays made once, Tensora's `evaluate` on Tensors made once.

    python tools/bench_einsum.py                # --size small: 20k x 20k, 200k nnz
    python tools/bench_einsum.py --size tiny    # seconds (the smoke test's size)
    python tools/bench_einsum.py --size large   # 200k x 200k, 2M nnz
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

if __name__ == "__main__":  # before xsparse is imported: nothing is compiled
    import atexit
    import shutil
    import tempfile

    _CACHE = tempfile.mkdtemp(prefix="xsparse-bench-einsum-")
    os.environ["XSPARSE_CACHE_DIR"] = _CACHE
    atexit.register(shutil.rmtree, _CACHE, True)

import argparse  # noqa: E402
import importlib  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Generator, Sequence  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import xsparse  # noqa: E402
from tools.bench import cache_directory  # noqa: E402
from tools.bench_boundary import per_call  # noqa: E402
from xsparse import SparseTensor  # noqa: E402
from xsparse.backend.kernel import clear_memory_caches  # noqa: E402

COO3 = (
    "#sparse_tensor.encoding<{ map = (i, j, k) -> "
    "(i : compressed(nonunique), j : singleton(nonunique), k : singleton) }>"
)


@dataclass(frozen=True)
class Size:
    n: int
    nnz: int
    k: int
    """Columns of the dense factors (SpMM, SDDMM)."""
    cube: int
    """Side of the 3-D tensor."""
    cube_nnz: int
    budget: float
    """Seconds of repeated calls per candidate and round."""


SIZES = {
    "tiny": Size(200, 2_000, 8, 20, 400, 0.005),
    "small": Size(20_000, 200_000, 16, 100, 10_000, 0.05),
    "large": Size(200_000, 2_000_000, 16, 200, 80_000, 0.3),
}


@dataclass(frozen=True)
class Expression:
    """One operation in each library's terms."""

    subscripts: str | None
    """einsum's (None for a sum, which einsum cannot write)."""
    assignment: str
    """evaluate's (and Tensora's)."""
    tensora_format: str
    """The result's format in Tensora's terms (`ds`: CSR)."""


EXPRESSIONS = {
    "spmv": Expression("ij,j->i", "y(i) = A(i,j) * x(j)", "d"),
    "spmm": Expression("ij,jk->ik", "C(i,k) = A(i,j) * B(j,k)", "dd"),
    "sddmm": Expression("ij,ik,jk->ij", "O(i,j) = A(i,j) * L(i,k) * R(j,k)", "ds"),
    "add": Expression(None, "C(i,j) = A(i,j) + B(i,j)", "ds"),
    "spgemm": Expression("ij,jk->ik", "C(i,k) = A(i,j) * B(j,k)", "ds"),
    "ttv": Expression("ijk,k->ij", "C(i,j) = T(i,j,k) * v(k)", "dd"),
}
OPERATIONS = tuple(EXPRESSIONS)


@dataclass
class Case:
    """One operation: its reference and candidates (name -> call)."""

    name: str
    shape: str
    reference: str
    calls: dict[str, Callable[[], Any]]


@dataclass(frozen=True)
class Row:
    operation: str
    library: str
    first: float
    first_ratio: float
    repeated: float
    repeated_ratio: float


def optional(module: str) -> Any:
    """The module if importable, else None."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def random_csr(n: int, nnz: int, seed: int) -> Any:
    rng = np.random.default_rng(seed)
    rows, cols = rng.integers(0, n, nnz), rng.integers(0, n, nnz)
    a = sp.csr_array((rng.random(nnz), (rows, cols)), shape=(n, n))
    a.sum_duplicates()
    return a


def comparable(result: Any) -> Any:
    """Any library's result as a scipy CSR array (sparse results) or a numpy
    array, for checking without making large sparse results dense."""
    if isinstance(result, SparseTensor):
        result = result.to_scipy()
    elif hasattr(result, "to_scipy_sparse") and len(result.shape) == 2:  # pydata
        result = result.to_scipy_sparse()
    if sp.issparse(result):
        return sp.csr_array(result)
    for method in ("to_numpy", "todense", "toarray"):  # Tensora, pydata
        if hasattr(result, method):
            return np.asarray(getattr(result, method)())
    return np.asarray(result)


def check(got: Any, want: Any, where: str) -> None:
    """`got` equals `want` to rounding (sparse results compared sparsely)."""
    if sp.issparse(got) != sp.issparse(want):
        got, want = (r.toarray() if sp.issparse(r) else r for r in (got, want))
    if sp.issparse(got):
        error = float(abs(got - want).max()) if got.shape == want.shape else np.inf
        scale = float(abs(want).max()) if want.nnz else 1.0
        assert error <= 1e-9 * scale, f"{where}: off by {error}"
    else:
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12, err_msg=where)


def scipy_sddmm(a: Any, left: Any, right: Any) -> Callable[[], Any]:
    """scipy's SDDMM: the rows of L and R gathered at A's entries."""
    rows: np.ndarray[Any, Any] = np.repeat(
        np.arange(int(a.shape[0])), np.diff(a.indptr)
    )
    cols = a.indices

    def sampled() -> Any:
        values = a.data * np.einsum("ik,ik->i", left[rows], right[cols])
        return sp.csr_array((values, a.indices, a.indptr), shape=a.shape)

    return sampled


@dataclass
class Libraries:
    """The optional peers (None when not importable)."""

    pydata: Any
    tensora: Any


def candidates(
    op: str, operands: dict[str, Any], libraries: Libraries
) -> dict[str, Callable[[], Any]]:
    """einsum, evaluate, pydata's einsum (or `+`) and Tensora's evaluate on
    `operands` (scipy matrices, SparseTensors, numpy arrays), each library's
    sparse operands made from them once."""
    expression = EXPRESSIONS[op]
    given = list(operands.values())
    calls: dict[str, Callable[[], Any]] = {}
    subscripts, assignment = expression.subscripts, expression.assignment
    if subscripts is not None:
        calls["xsparse.einsum"] = lambda: xsparse.einsum(subscripts, *given)
    calls["xsparse.evaluate"] = lambda: xsparse.evaluate(assignment, **operands)
    pydata, tensora = libraries.pydata, libraries.tensora
    if pydata is not None:
        theirs = [pydata_operand(pydata, o) for o in given]
        calls["pydata sparse"] = (
            (lambda: theirs[0] + theirs[1])
            if subscripts is None
            else (lambda: pydata.einsum(subscripts, *theirs))
        )
    if tensora is not None:
        named = {n: tensora_operand(tensora, o) for n, o in operands.items()}
        fmt = expression.tensora_format
        calls["Tensora"] = lambda: tensora.evaluate(assignment, fmt, **named)
    return calls


def pydata_operand(pydata: Any, operand: Any) -> Any:
    if isinstance(operand, SparseTensor):
        coords, values = operand.to_coo()
        return pydata.COO(coords.T, values, shape=operand.shape)
    if sp.issparse(operand):
        return pydata.GCXS.from_scipy_sparse(operand)
    return operand


def tensora_operand(tensora: Any, operand: Any) -> Any:
    if isinstance(operand, SparseTensor):
        coords, values = operand.to_coo()
        return tensora.Tensor.from_aos(
            [tuple(c) for c in coords.tolist()],
            values.tolist(),
            dimensions=operand.shape,
            format="s" * operand.ndim,
        )
    if sp.issparse(operand):
        return tensora.Tensor.from_scipy_sparse(operand, format="ds")
    return tensora.Tensor.from_numpy(operand)


def matrix_cases(size: Size, libraries: Libraries) -> list[Case]:
    n, k = size.n, size.k
    a, b = random_csr(n, size.nnz, 0), random_csr(n, size.nnz, 1)
    rng = np.random.default_rng(2)
    x, dense_b = rng.random(n), rng.random((n, k))
    left, right = rng.random((n, k)), rng.random((n, k))
    ta, tb = SparseTensor.from_scipy(a), SparseTensor.from_scipy(b)
    setups: dict[str, tuple[Callable[[], Any], dict[str, Any], Any]] = {
        # op: (scipy's call, the operands, SparseTensor's operator call or None)
        "spmv": (lambda: a @ x, {"A": a, "x": x}, lambda: ta @ x),
        "spmm": (lambda: a @ dense_b, {"A": a, "B": dense_b}, lambda: ta @ dense_b),
        "sddmm": (scipy_sddmm(a, left, right), {"A": a, "L": left, "R": right}, None),
        "add": (lambda: a + b, {"A": a, "B": b}, lambda: ta + tb),
        "spgemm": (lambda: a @ b, {"A": a, "B": b}, lambda: ta @ tb),
    }
    cases: list[Case] = []
    for op, (reference, operands, operator) in setups.items():
        calls = {"scipy": reference, **candidates(op, operands, libraries)}
        if operator is not None:
            calls["SparseTensor op"] = operator
        cases.append(Case(op, f"{n}x{n}, {a.nnz} nnz", "scipy", calls))
    return cases


def tensor_case(size: Size, libraries: Libraries) -> Case:
    """`"ijk,k->ij"` on a 3-D COO tensor, numpy's einsum on its dense form the reference."""
    side = size.cube
    rng = np.random.default_rng(3)
    flat = rng.choice(side**3, size.cube_nnz, replace=False)
    coords = np.stack(np.unravel_index(np.sort(flat), (side,) * 3), axis=1)
    t = SparseTensor.from_coo(coords, rng.random(size.cube_nnz), (side,) * 3, COO3)
    full, v = t.toarray(), rng.random(side)
    calls: dict[str, Callable[[], Any]] = {
        "numpy": lambda: np.einsum("ijk,k->ij", full, v),
        **candidates("ttv", {"T": t, "v": v}, libraries),
    }
    return Case("ttv", f"{side}^3, {t.nnz} nnz", "numpy", calls)


@contextmanager
def cold_kernel_caches() -> Generator[None]:
    """No kernel compiled yet: a fresh, empty disk cache (`XSPARSE_CACHE_DIR`)
    and the process's kernels forgotten (plans already built keep theirs)."""
    with (
        tempfile.TemporaryDirectory(prefix="xsparse-bench-einsum-") as fresh,
        cache_directory(fresh),
    ):
        clear_memory_caches()
        yield


def first_calls(case: Case) -> dict[str, float]:
    """Each candidate's first call, with cold kernel caches (so that one
    candidate does not find another's kernel compiled), its result checked
    against the reference's."""
    firsts: dict[str, float] = {}
    want: Any = None
    for name, fn in case.calls.items():
        with cold_kernel_caches():
            start = time.perf_counter()
            result = fn()
            firsts[name] = time.perf_counter() - start
        got = comparable(result)
        if want is None:
            want = got
        check(got, want, f"{case.name}: {name}")
    return firsts


def measure(case: Case, rounds: int, budget: float) -> list[Row]:
    firsts = first_calls(case)
    times: dict[str, list[float]] = {name: [] for name in case.calls}
    for _ in range(rounds):  # interleaved
        for name, fn in case.calls.items():
            times[name].append(per_call(fn, budget))
    repeated = {name: statistics.median(t) for name, t in times.items()}
    base_first, base = firsts[case.reference], repeated[case.reference]
    return [
        Row(
            case.name,
            name,
            firsts[name],
            firsts[name] / base_first,
            repeated[name],
            repeated[name] / base,
        )
        for name in case.calls
    ]


def print_rows(case: Case, rows: Sequence[Row]) -> None:
    for k, row in enumerate(rows):
        label = f"{case.name:6} {case.shape:24}" if k == 0 else " " * 31
        print(
            f"{label} {row.library:17} {row.first * 1e3:10.2f} ms {row.first_ratio:9.1f}x"
            f" {row.repeated * 1e6:12.1f} us {row.repeated_ratio:7.2f}x",
            flush=True,
        )


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--size", choices=sorted(SIZES), default="small")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=xsparse.get_num_threads())
    args = parser.parse_args(argv)
    xsparse.set_num_threads(args.threads)
    size = SIZES[args.size]
    libraries = Libraries(optional("sparse"), optional("tensora"))
    print(
        f"xsparse on {xsparse.get_num_threads()} thread(s) (xsparse.get_num_threads()), "
        f"scipy / numpy / pydata on one; {args.rounds} interleaved rounds; wall clock; "
        "ratios to scipy (numpy for ttv); first calls with empty kernel caches"
    )
    for label, module in (
        ("pydata sparse", libraries.pydata),
        ("Tensora", libraries.tensora),
    ):
        version = getattr(module, "__version__", "?")
        print(f"{label}: {'not installed' if module is None else version}")
    print(
        f"{'op':6} {'size':24} {'library':17} {'first call':>13} {'ratio':>10}"
        f" {'repeated call':>15} {'ratio':>8}"
    )
    rows: list[Row] = []
    for case in [*matrix_cases(size, libraries), tensor_case(size, libraries)]:
        case_rows = measure(case, args.rounds, size.budget)
        print_rows(case, case_rows)
        rows += case_rows
    return rows


if __name__ == "__main__":
    main()
