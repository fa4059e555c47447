"""Random decomposed products (`xsparse.composable`, the
`sparse-decompose-format` pass) against numpy.

Each seed draws a case: a matrix, a rule, a right-hand side, an output and a
thread count; `check_decomposed_case(seed)` decomposes the matrix and checks
`Decomposed.matmul` against numpy.

- The matrix: M x N (0 and 1 included), f32 or f64, of a `KINDS` kind:
  `uniform` entries, `power-law` row lengths (Zipf, a few rows longer than
  the widest bucket), `blocky` (dense blocks, a few entries dropped, plus
  scattered entries), `empty` (no entries), `duplicates` (repeated
  coordinates, which scipy sums); values small integers or normal; passed
  as a `FORMS` object (scipy CSR with int32 or int64 indices, COO, CSR with
  unsummed duplicates, a `SparseTensor`).
- The rule, shared by `RULE_RUN` consecutive seeds (its kernels compile
  once for them): None (`composable.choose_rule`) or 1-3 column
  partitions, an increasing subset of 1..64 as widths and/or BSR blocks
  from `BLOCKS`; the shape is a multiple of the blocks except in
  `MISFIT_SHARE` of the cases, which `decompose` must refuse with a
  ValueError naming the multiple.
- The right-hand side: a vector, or a matrix of 1-70 columns (multiples of
  8, of 4 and not 8, and neither), in C or Fortran order.
- The output (`OUTPUTS`): None (`matmul` allocates one, `ALIGNMENT`-aligned),
  full of NaN and aligned (C's rows streamed where whole vectors), full of
  NaN with its data 8 bytes off 32-byte alignment (stored as usual), a
  strided view full of NaN (written through a temporary), or b itself for
  a square A (read as if copied first): the product must not read `out`.
- 1 or 2 threads, grain 0 (every parallel loop on the pool).

Verdicts (`outcome`): OK; REFUSED for a shape that is not a multiple of a
block, refused with that ValueError; WRONG when the decomposition loses
entries or pads below 1, the product differs from numpy's (`A @ b` in
float64, within the dtype's rounding), is not written into `out`, or a
second call gives other bits; ERROR for an exception anywhere else.
Given a `Pool` of rules (the tests), the cases take their rules from it:
a few rules compiled however many seeds run.
"""

from __future__ import annotations

import math
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from xsparse.composable import ALIGNMENT, Decomposed, Rule, aligned_empty, decompose
from xsparse.testing.kernels import on_threads
from xsparse.testing.outcome import CaseOutcome, Verdict

Array = npt.NDArray[Any]
Coordinates = npt.NDArray[np.int64]
Pool = Sequence[Rule | None]
"""Rules the cases take theirs from (None: `choose_rule`)."""

KINDS = ("uniform", "power-law", "blocky", "empty", "duplicates")
FORMS = ("csr", "csr-int64", "csr-matrix", "coo", "tensor")
"""How a matrix without duplicates is passed; one with them is passed as
`coo` or `csr-unsummed` (rows in order, columns unsorted, repeats kept)."""
OUTPUTS = ("none", "aligned", "offset", "strided", "b")
"""The `out` passed (`call_arguments`); for "b" (b itself) A is square."""
BLOCKS = (2, 3, 4, 8)
MAX_WIDTH = 64
MAX_EXTENT = 240
"""The largest M or N drawn (before rounding to the blocks' multiple)."""
MAX_COLUMNS = 70
"""The most columns the right-hand side matrix has."""
MISFIT_SHARE = 0.1
"""Of the cases with blocks: those whose shape is not a multiple of one."""
OFFSET_BYTES = 8
"""How far the `offset` output's data is from an aligned address."""
CASE_STREAM = 20
RULE_STREAM = 21
"""The random streams of a case and of a rule (`default_rng([seed, 20])`)."""
RULE_RUN = 8
"""Consecutive seeds that share a random rule: its kernels (seconds to
compile) serve that many cases."""
DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
TOLERANCE = {np.dtype(np.float32): 1e-4, np.dtype(np.float64): 1e-12}
"""Error allowed per unit of `|A| @ |b|` (rounding of the dtype over rows of
up to a few hundred entries)."""


@dataclass(frozen=True)
class DecomposedCase:
    """One decomposed product: the matrix's entries (COO coordinates,
    repeats allowed), how it is passed, the rule, b, the output, threads."""

    seed: int
    kind: str
    form: str
    shape: tuple[int, int]
    rows: Coordinates
    columns: Coordinates
    values: Array
    rule: Rule | None
    """None: `choose_rule` picks it."""
    misfit: int | None
    """The first block of the rule that the shape is not a multiple of
    (decompose must refuse it), or None."""
    b: Array
    output: str
    threads: int

    @property
    def dtype(self) -> np.dtype[Any]:
        return self.values.dtype


def random_decomposed_case(seed: int, pool: Pool | None = None) -> DecomposedCase:
    """The case of `seed`. Its rule is rule k: `pool[k]` for k = seed %
    len(pool), else random, for k = seed // `RULE_RUN`; its dtype is f32
    for an even k, f64 for an odd one (each rule compiled for one)."""
    rng = np.random.default_rng([seed, CASE_STREAM])
    k = seed // RULE_RUN if pool is None else seed % len(pool)
    dtype = DTYPES[k % 2]
    if pool is None:
        rule = random_rule(np.random.default_rng([k, RULE_STREAM]))
    else:
        rule = pool[k]
    output = str(rng.choice(OUTPUTS, p=[0.25, 0.3, 0.25, 0.1, 0.1]))
    shape = random_shape(rng, () if rule is None else rule.blocks, output == "b")
    kind = str(rng.choice(KINDS, p=[0.3, 0.25, 0.2, 0.05, 0.2]))
    rows, columns = random_entries(rng, kind, shape, rule or Rule())
    values = random_values(rng, rows.size, dtype)
    forms = ("coo", "csr-unsummed") if kind == "duplicates" else FORMS
    return DecomposedCase(
        seed=seed,
        kind=kind,
        form=str(rng.choice(forms)),
        shape=shape,
        rows=rows,
        columns=columns,
        values=values,
        rule=rule,
        misfit=misfit(shape, () if rule is None else rule.blocks),
        b=random_rhs(rng, shape[1], dtype),
        output=output,
        threads=int(rng.integers(1, 3)),
    )


def random_rule(rng: np.random.Generator) -> Rule | None:
    """None (a fifth of the time), else partitions, widths and blocks."""
    if rng.random() < 0.2:
        return None
    partitions = int(rng.integers(1, 4))
    widths: tuple[int, ...] = ()
    if rng.random() < 0.85:
        count = int(rng.integers(1, 6))
        drawn = rng.choice(np.arange(1, MAX_WIDTH + 1), count, replace=False)
        widths = tuple(sorted(int(w) for w in drawn))
    blocks: tuple[int, ...] = ()
    if rng.random() < 0.3:
        count = int(rng.integers(1, 3))
        blocks = tuple(int(b) for b in rng.choice(BLOCKS, count, replace=False))
    return Rule(partitions=partitions, widths=widths, blocks=blocks)


def random_shape(
    rng: np.random.Generator, blocks: tuple[int, ...], square: bool
) -> tuple[int, int]:
    """M x N (`square`: M = N), multiples of every block, except
    (`MISFIT_SHARE`) one extent made a non-multiple of a block."""
    step = math.lcm(*blocks) if blocks else 1
    extents = [random_extent(rng, step), random_extent(rng, step)]
    if square:
        extents[1] = extents[0]
    if blocks and rng.random() < MISFIT_SHARE:
        block = int(rng.choice(blocks))
        extents[int(rng.integers(0, 2))] += int(rng.integers(1, block))
    return extents[0], extents[1]


def random_extent(rng: np.random.Generator, step: int) -> int:
    """0, one step, or log-uniform up to `MAX_EXTENT`, a multiple of `step`."""
    draw = rng.random()
    if draw < 0.06:
        return 0
    if draw < 0.14:
        return step
    size = int(np.exp(rng.uniform(0.0, math.log(MAX_EXTENT))))
    return max(step, size // step * step)


def misfit(shape: tuple[int, int], blocks: tuple[int, ...]) -> int | None:
    """The first of `blocks` that `shape` is not a multiple of."""
    return next((b for b in blocks if shape[0] % b or shape[1] % b), None)


def random_entries(
    rng: np.random.Generator, kind: str, shape: tuple[int, int], rule: Rule
) -> tuple[Coordinates, Coordinates]:
    """The COO coordinates of a matrix of `kind` (repeats for `duplicates`):
    power-law rows past `rule`'s widest bucket, blocks of its block sizes."""
    if kind == "empty" or 0 in shape:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    if kind == "power-law":
        return power_law_entries(rng, shape, max(rule.widths, default=MAX_WIDTH))
    if kind == "blocky":
        return blocky_entries(rng, shape, int(rng.choice(rule.blocks or BLOCKS)))
    rows, columns = uniform_entries(rng, shape, float(rng.uniform(0.0, 0.3)))
    if kind == "duplicates":
        return repeated(rng, rows, columns)
    return rows, columns


def uniform_entries(
    rng: np.random.Generator, shape: tuple[int, int], density: float
) -> tuple[Coordinates, Coordinates]:
    """Each position kept with probability `density`, in row-major order."""
    mask = rng.random(shape) < density
    rows, columns = np.nonzero(mask)
    return rows.astype(np.int64), columns.astype(np.int64)


def power_law_entries(
    rng: np.random.Generator, shape: tuple[int, int], widest: int
) -> tuple[Coordinates, Coordinates]:
    """Zipf row lengths (many short rows, some empty) and a few rows longer
    than `widest`, columns uniform."""
    m, n = shape
    lengths = np.minimum(rng.zipf(1.8, m) - 1, n)
    long = rng.choice(m, min(m, int(rng.integers(1, 4))), replace=False)
    lengths[long] = min(n, widest + int(rng.integers(1, 20)))
    columns = [np.sort(rng.choice(n, int(k), replace=False)) for k in lengths]
    rows = np.repeat(np.arange(m, dtype=np.int64), lengths)
    return rows, np.concatenate([np.zeros(0, np.int64), *columns]).astype(np.int64)


def blocky_entries(
    rng: np.random.Generator, shape: tuple[int, int], block: int
) -> tuple[Coordinates, Coordinates]:
    """Dense `block` x `block` blocks on the block grid (clipped at the
    edges, a tenth of their entries dropped) plus scattered entries."""
    grid = (-(-shape[0] // block), -(-shape[1] // block))
    chosen = rng.random(grid) < float(rng.uniform(0.05, 0.4))
    tiles = np.kron(chosen, np.ones((block, block))).astype(bool)
    mask = tiles[: shape[0], : shape[1]]
    mask &= rng.random(shape) > 0.1
    mask |= rng.random(shape) < 0.02
    rows, columns = np.nonzero(mask)
    return rows.astype(np.int64), columns.astype(np.int64)


def repeated(
    rng: np.random.Generator, rows: Coordinates, columns: Coordinates
) -> tuple[Coordinates, Coordinates]:
    """The coordinates with some repeated (up to three times), shuffled."""
    again = rng.random(rows.size) < 0.4
    twice = rng.random(rows.size) < 0.1
    rows = np.concatenate([rows, rows[again], rows[twice]])
    columns = np.concatenate([columns, columns[again], columns[twice]])
    order = rng.permutation(rows.size)
    return rows[order], columns[order]


def random_values(rng: np.random.Generator, count: int, dtype: np.dtype[Any]) -> Array:
    """Small nonzero integers (exact products) or standard normal values."""
    if rng.random() < 0.4:
        signs = rng.choice(np.array([-1, 1]), count)
        return (rng.integers(1, 5, count) * signs).astype(dtype)
    return rng.standard_normal(count).astype(dtype)


def random_rhs(rng: np.random.Generator, n: int, dtype: np.dtype[Any]) -> Array:
    """A vector of `n`, or an `n` x k matrix (k a multiple of 8, of 4 and not
    8, or any of 1..`MAX_COLUMNS`), in C or Fortran order."""
    values = random_values(rng, n * MAX_COLUMNS, dtype)
    draw = rng.random()
    if draw < 0.25:
        return values[:n].copy()
    if draw < 0.45:
        k = 8 * int(rng.integers(1, MAX_COLUMNS // 8 + 1))
    elif draw < 0.6:
        k = 8 * int(rng.integers(0, MAX_COLUMNS // 8)) + 4
    else:
        k = int(rng.integers(1, MAX_COLUMNS + 1))
    order = "F" if rng.random() < 0.15 else "C"
    return np.asarray(values[: n * k].reshape(n, k), order=order)


def reference_matrix(case: DecomposedCase) -> Any:
    """The matrix as scipy sums it: canonical CSR of the case's dtype."""
    coo: Any = sp.coo_array((case.values, (case.rows, case.columns)), shape=case.shape)
    csr: Any = coo.tocsr()
    csr.sum_duplicates()
    return csr


def matrix_input(case: DecomposedCase) -> Any:
    """The object passed to `decompose`, as `case.form` says."""
    coordinates = (case.rows, case.columns)
    if case.form == "coo":
        return sp.coo_array((case.values, coordinates), shape=case.shape)
    if case.form == "csr-unsummed":
        return unsummed_csr(case)
    csr = reference_matrix(case)
    if case.form == "csr-int64":
        csr.indices = csr.indices.astype(np.int64)
        csr.indptr = csr.indptr.astype(np.int64)
    elif case.form == "csr-matrix":
        return sp.csr_matrix(csr)
    elif case.form == "tensor":
        from xsparse import SparseTensor

        return SparseTensor.from_scipy(csr)
    return csr


def unsummed_csr(case: DecomposedCase) -> Any:
    """CSR whose rows keep their repeated, unsorted columns."""
    order = np.argsort(case.rows, kind="stable")
    indptr = np.zeros(case.shape[0] + 1, np.int64)
    np.cumsum(np.bincount(case.rows, minlength=case.shape[0]), out=indptr[1:])
    buffers = (case.values[order], case.columns[order], indptr)
    csr: Any = sp.csr_array(buffers, shape=case.shape)
    csr.has_canonical_format = False
    return csr


def call_arguments(case: DecomposedCase) -> tuple[Array, Array | None]:
    """A new b (a copy of the case's) and `out` of `case.output`: None, b
    itself, or full of NaN: aligned, `OFFSET_BYTES` off, or every other
    element of an aligned array."""
    b = case.b.copy(order="K")
    shape = (case.shape[0], *b.shape[1:])
    if case.output in ("none", "b"):
        return b, None if case.output == "none" else b
    if case.output == "strided":
        wide = aligned_empty((*shape[:-1], 2 * shape[-1]), case.dtype)
        wide[...] = np.nan
        return b, wide[..., ::2]
    skip = 0 if case.output == "aligned" else OFFSET_BYTES // case.dtype.itemsize
    size = math.prod(shape)
    out = aligned_empty((size + skip,), case.dtype)[skip:].reshape(shape)
    out[...] = np.nan
    return b, out


def check_decomposed_case(seed: int, pool: Pool | None = None) -> CaseOutcome:
    """The verdict on the case of `seed` (`random_decomposed_case`)."""
    try:
        case = random_decomposed_case(seed, pool)
    except Exception:
        detail = f"generating seed {seed} failed:\n{traceback.format_exc()}"
        return CaseOutcome(Verdict.ERROR, detail, rerun_text(seed, pool))
    return check(case, pool)


def check(case: DecomposedCase, pool: Pool | None = None) -> CaseOutcome:
    """The verdict on one case (`pool`: for the reproducer)."""
    reproducer = decomposed_reproducer(case, pool)
    try:
        with on_threads(case.threads):
            problem = (
                check_refusal(case) if case.misfit is not None else check_product(case)
            )
    except Exception:
        return CaseOutcome(Verdict.ERROR, traceback.format_exc(), reproducer)
    if problem is None:
        verdict = Verdict.OK if case.misfit is None else Verdict.REFUSED
        detail = "" if case.misfit is None else f"blocks of {case.misfit} refused"
        return CaseOutcome(verdict, detail, reproducer)
    return CaseOutcome(Verdict.WRONG, problem, reproducer)


def check_refusal(case: DecomposedCase) -> str | None:
    """None when `decompose` refuses the misfit block with a ValueError
    naming the multiple; what happened instead otherwise (another
    exception propagates: an ERROR)."""
    expected = f"multiples of {case.misfit}"
    try:
        decompose(matrix_input(case), case.rule)
    except ValueError as error:
        if expected in str(error) and str(case.shape) in str(error):
            return None
        return f"ValueError without {expected!r} and {case.shape}: {error}"
    return f"decompose accepted blocks of {case.misfit} for a {case.shape} matrix"


def check_product(case: DecomposedCase) -> str | None:
    """None when the decomposition holds the matrix's entries and its
    products equal numpy's; the first problem otherwise."""
    a = reference_matrix(case)
    d = decompose(matrix_input(case), case.rule)
    problem = check_decomposition(d, a)
    if problem is not None:
        return problem
    first = product_into(d, case)
    if isinstance(first, str):
        return first
    problem = compare(first, a, case)
    if problem is not None:
        return problem
    second = product_into(d, case)
    if isinstance(second, str):
        return second
    if not np.array_equal(first, second):
        return f"a second call gave other values:\n{first}\nthen\n{second}"
    return None


def check_decomposition(d: Decomposed, a: Any) -> str | None:
    """The entries kept (nnz), padding at least 1, `describe` readable."""
    if d.nnz != a.nnz:
        return f"the parts hold {d.nnz} entries, the matrix {a.nnz}"
    if d.padding_ratio < 1.0 or any(p.stored < p.nnz for p in d.parts):
        return f"padding below 1:\n{d.describe()}"
    if str(d.rule) not in d.describe():
        return f"describe() does not name the rule {d.rule}:\n{d.describe()}"
    return None


def product_into(d: Decomposed, case: DecomposedCase) -> Array | str:
    """`d.matmul(b, out)` with a new b and `out` of the case's kind; a
    problem with where it went, as a string."""
    shape = (case.shape[0], *case.b.shape[1:])
    b, out = call_arguments(case)
    got = d.matmul(b, out=out)
    if out is not None and got is not out:
        return "matmul did not return the `out` it was given"
    if out is None and got.size and got.ctypes.data % ALIGNMENT:
        return f"matmul's own output is not {ALIGNMENT}-byte aligned"
    if got.shape != shape or got.dtype != case.dtype:
        return f"result {got.shape} {got.dtype}, expected {shape} {case.dtype}"
    return got


def compare(got: Array, a: Any, case: DecomposedCase) -> str | None:
    """None when `got` is `A @ b` within the dtype's rounding (per unit of
    `|A| @ |b|`, so an empty row must give exactly 0)."""
    dense = a.toarray().astype(np.float64)
    b = case.b.astype(np.float64)
    expected = dense @ b
    bound = np.abs(dense) @ np.abs(b)
    error = np.abs(got.astype(np.float64) - expected)
    bad = ~(error <= TOLERANCE[case.dtype] * bound)
    if not bad.any():
        return None
    where = tuple(int(i[0]) for i in np.nonzero(bad))
    return (
        f"wrong result: {int(bad.sum())} of {bad.size} values differ from numpy's; "
        f"first at {where}: {got[where]} instead of {expected[where]}\n"
        f"got\n{got}\nnumpy\n{expected}"
    )


def rerun_text(seed: int, pool: Pool | None) -> str:
    """The Python lines that rerun `seed`."""
    if pool is None:
        return (
            "from xsparse.testing.decomposed_cases import check_decomposed_case\n"
            f"print(check_decomposed_case({seed}))\n"
        )
    return (
        "from xsparse.composable import Rule\n"
        "from xsparse.testing.decomposed_cases import check_decomposed_case\n"
        f"print(check_decomposed_case({seed}, {tuple(pool)!r}))\n"
    )


def decomposed_reproducer(case: DecomposedCase, pool: Pool | None = None) -> str:
    """A script rerunning the case, with the case described in comments."""
    rule = "None (choose_rule)" if case.rule is None else repr(case.rule)
    rhs = "a vector" if case.b.ndim == 1 else f"{case.b.shape[1]} columns"
    order = "F" if case.b.ndim == 2 and not case.b.flags.c_contiguous else "C"
    return (
        f'"""Generated decomposed product, seed {case.seed}."""\n'
        + rerun_text(case.seed, pool)
        + f"# matrix: {case.shape} {case.dtype}, {case.kind}, {case.rows.size} "
        f"entries given as {case.form}\n"
        f"# rule: {rule}; misfit block: {case.misfit}\n"
        f"# b: {rhs} ({order} order); out: {case.output}; threads: {case.threads}\n"
    )
