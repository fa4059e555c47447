"""Refused calls leave every argument as it was (issue 37, "no data loss on
refusal").

A case is a call drawn from the generated einsum calls (`einsum_cases`),
kernels (`kernel_cases`) and decomposed products (`decomposed_cases`) that
runs on good data, made once (so that the refused call takes the cached
plan, the repeated-call path) and then again with one argument corrupted:

- `shape`: a dimension one larger (einsum: one whose index another operand
  or `out=` shares; a decomposed product's b);
- `range`: a stored coordinate at its level's size or at its type's largest;
- `positions`: a level's positions made to decrease (past its buffers);
- `order`, `duplicate`: two coordinates of a segment swapped, or made equal;
- `dtype`: a dense argument (a compiled kernel's) or the `out` of a
  decomposed product of another type.

`check_refusal` compares checksums of every buffer of every argument
(inputs, outputs, each buffer of a sparse one, each part of a
decomposition) before and after the call: a call that raises ValueError or
TypeError must change nothing. `shape`, `positions` and `dtype` must be
refused; `range`, `order` and `duplicate` may be accepted where the kernel
never relies on what was broken (coordinates it does not read, an order
that cannot change a sum).
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]

ALWAYS_REFUSED = ("shape", "positions", "dtype")
"""Corruptions every call must refuse (the others may be harmless)."""


@dataclass(frozen=True)
class RefusedCall:
    """A call with one argument corrupted, and everything it is given."""

    name: str
    """Where it comes from: `einsum 12 range (operand 1)`."""
    corruption: str
    arguments: tuple[Any, ...]
    """Every object the call reads or writes (their buffers are checksummed)."""
    call: Callable[[], Any]
    must_raise: bool
    """The call must be refused (ALWAYS_REFUSED; a dimension grown that a
    kernel's loops may not share is not)."""


def arrays_of(value: Any) -> Iterator[Array]:
    """Every numpy array `value` holds: itself, a `SparseTensor`'s buffers,
    a scipy or pydata matrix's, a decomposition's parts', a sequence's."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind != "O":
            yield value
        return
    if isinstance(value, list | tuple):
        for item in value:
            yield from arrays_of(item)
        return
    names = (
        "positions",
        "coordinates",
        "values",
        "indptr",
        "indices",
        "data",
        "row",
        "col",
        "coords",
        "parts",
        "vector_parts",
        "arrays",
    )
    for name in names:
        found = getattr(value, name, None)
        if isinstance(found, np.ndarray | list | tuple):
            yield from arrays_of(found)


def checksums(arguments: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """Per array of the arguments: its shape, dtype and a hash of its bytes."""
    return [
        (
            a.shape,
            str(a.dtype),
            hashlib.sha256(a.tobytes()).hexdigest(),
        )
        for a in arrays_of(arguments)
    ]


def check_refusal(case: RefusedCall) -> tuple[bool, str | None]:
    """Whether the call was refused, and what is wrong with it (None:
    nothing): an argument changed by a refused call, or a call accepted that
    must be refused. An exception other than ValueError / TypeError
    propagates."""
    before = checksums(case.arguments)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            case.call()
    except (ValueError, TypeError) as error:
        after = checksums(case.arguments)
        if after != before:
            changed = sum(a != b for a, b in zip(before, after, strict=False))
            return (
                True,
                f"{case.name}: refused ({error}) but {changed} array(s) changed",
            )
        return True, None
    return False, f"{case.name}: accepted" if case.must_raise else None


def all_calls(
    einsum_seeds: Iterable[int],
    kernel_seeds: Iterable[int],
    decomposed_seeds: Iterable[int],
    pool: Any,
) -> Iterator[RefusedCall]:
    """The corrupted calls of the seeds of each generator."""
    for seed in einsum_seeds:
        yield from einsum_calls(seed)
    for seed in kernel_seeds:
        yield from kernel_calls(seed)
    for seed in decomposed_seeds:
        yield from decomposed_calls(seed, pool)


def check_all(calls: Iterable[RefusedCall]) -> dict[str, Any]:
    """Each call checked: how many were made and refused per corruption, and
    the problems found."""
    made: dict[str, int] = {}
    refused: dict[str, int] = {}
    problems: list[str] = []
    for case in calls:
        was_refused, problem = check_refusal(case)
        made[case.corruption] = made.get(case.corruption, 0) + 1
        refused[case.corruption] = refused.get(case.corruption, 0) + was_refused
        if problem is not None:
            problems.append(problem)
    return {"made": made, "refused": refused, "problems": problems}


# -- corruptions of one sparse or dense argument ---------------------------------


def _sparse_buffers(arg: Any) -> tuple[list[Array], list[tuple[Array, int]]]:
    """A sparse argument's position buffers, and its coordinate buffers with
    the size their entries must stay below."""
    from xsparse.backend.sparse_storage import SparseTensor

    if isinstance(arg, SparseTensor):
        positions = [p for p in arg.positions if p is not None]
        coordinates = [
            (c, int(arg.level_sizes[level]))
            for level, c in enumerate(arg.coordinates)
            if c is not None
        ]
        return positions, coordinates
    fmt = getattr(arg, "format", None)
    shape = getattr(arg, "shape", ())
    if fmt == "csr":
        return [arg.indptr], [(arg.indices, int(shape[1]))]
    if fmt == "csc":
        return [arg.indptr], [(arg.indices, int(shape[0]))]
    if fmt == "coo" and hasattr(arg, "row"):
        return [], [(arg.row, int(shape[0])), (arg.col, int(shape[1]))]
    return [], []


def corrupt(arg: Any, kind: str, rng: np.random.Generator) -> bool:
    """Corrupt a sparse argument's buffers in place as `kind` says; False
    when it has no buffer to corrupt that way."""
    positions, coordinates = _sparse_buffers(arg)
    positions = [w for w in map(_writable, positions) if w is not None]
    coordinates = [
        (w, n) for c, n in coordinates if c.size and (w := _writable(c)) is not None
    ]
    if kind == "range" and coordinates:
        c, size = coordinates[int(rng.integers(len(coordinates)))]
        largest = np.iinfo(c.dtype).max if c.dtype.kind in "iu" else size
        c[int(rng.integers(c.size))] = size if rng.random() < 0.5 else largest
        return True
    if kind == "positions":
        usable = [p for p in positions if p.size >= 2]
        if not usable:
            return False
        p = usable[int(rng.integers(len(usable)))]
        k = int(rng.integers(p.size - 1))
        p[k] = p[-1] + 1  # above what follows it, and past the buffers
        return True
    if kind in ("order", "duplicate") and coordinates:
        c, _ = coordinates[int(rng.integers(len(coordinates)))]
        pairs = np.flatnonzero(c[:-1] != c[1:]) if c.size >= 2 else np.empty(0, int)
        if not pairs.size:
            return False
        k = int(pairs[int(rng.integers(pairs.size))])
        if kind == "order":
            c[k], c[k + 1] = c[k + 1], c[k]
        else:
            c[k + 1] = c[k]
        return True
    return False


def _writable(buffer: Array) -> Array | None:
    """`buffer`, or a writable view of it: a `SparseTensor` shows read-only
    views of the arrays it was built from, which whoever holds those arrays
    can still change (the case its checks on every call are for)."""
    view = buffer.view()
    try:
        view.flags.writeable = True
    except ValueError:  # memory nobody may write
        return None
    return view


def grown(arg: Any, dim: int) -> Any:
    """`arg` with dimension `dim` one larger (zeros in the new slice), of the
    same kind: a numpy array, scipy matrix or `SparseTensor`."""
    from xsparse.backend.sparse_storage import SparseTensor

    if isinstance(arg, np.ndarray):
        widths = [(0, int(d == dim)) for d in range(arg.ndim)]
        return np.pad(arg, widths)
    if isinstance(arg, SparseTensor):
        dense = np.pad(
            arg.to_dense(), [(0, int(d == dim)) for d in range(len(arg.shape))]
        )
        return SparseTensor.from_dense(dense, arg.encoding)
    shape = list(arg.shape)
    shape[dim] += 1
    copy = arg.copy()
    copy.resize(tuple(shape))
    return copy


# -- calls from the generators ---------------------------------------------------

KINDS = ("shape", "range", "positions", "order", "duplicate")


def einsum_calls(seed: int) -> list[RefusedCall]:
    """The corrupted calls of einsum case `seed` (none if it is refused as
    drawn): each kind of corruption on each operand it applies to, `out=`
    given when the result is a dense array."""
    import xsparse
    from xsparse.testing.einsum_cases import make_operand, random_einsum_case
    from xsparse.testing.kernels import on_threads

    case = random_einsum_case(seed)
    options: dict[str, Any] = {} if case.format is None else {"format": case.format}
    names = [f"T{k}" for k in range(len(case.operands))]
    expression = case.expression
    if case.notation:
        names = _notation_names(expression)

    def run(args: list[Any], out: Any) -> Any:
        extra = dict(options) if out is None else {"out": out}
        with on_threads(case.threads):
            return run_here(args, extra)

    def run_here(args: list[Any], extra: dict[str, Any]) -> Any:
        if case.notation:
            return xsparse.evaluate(
                expression, **dict(zip(names, args, strict=True)), **extra
            )
        return xsparse.einsum(expression, *args, **extra)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = run([make_operand(p) for p in case.operands], None)
            out = None
            if (
                type(result) is np.ndarray
                and result.ndim
                and case.format in (None, "dense")
            ):
                out = np.full(result.shape, 7, result.dtype)
                run([make_operand(p) for p in case.operands], out)
    except (ValueError, TypeError, xsparse.XSparseError):
        return []
    rng = np.random.default_rng([seed, 37])
    shared = _shared_letters(case, out is not None)
    calls: list[RefusedCall] = []
    for kind in KINDS:
        for position in range(len(case.operands)):
            args = [make_operand(p) for p in case.operands]
            arg = args[position]
            if kind == "shape":
                indices = case.operands[position].indices
                dims = [d for d, x in enumerate(indices) if x in shared]
                if not dims or _is_pydata(arg):
                    continue
                args[position] = grown(arg, dims[int(rng.integers(len(dims)))])
            elif not corrupt(arg, kind, rng):
                continue
            target = None if out is None else np.full(out.shape, 7, out.dtype)
            calls.append(
                RefusedCall(
                    f"einsum seed {seed} {kind} (operand {position}): {expression}",
                    kind,
                    (args, target),
                    lambda args=args, target=target: run(args, target),
                    kind in ALWAYS_REFUSED,
                )
            )
    return calls


def _is_pydata(arg: Any) -> bool:
    return type(arg).__module__.startswith("sparse")


def _notation_names(assignment: str) -> list[str]:
    from xsparse.frontend.notation import parse_assignment

    return list(parse_assignment(assignment).names)


def _shared_letters(case: Any, with_out: bool) -> set[str]:
    """The indices whose size two operands (or an operand and `out`) share:
    growing a dimension of one of them must be refused."""
    counts: dict[str, int] = {}
    for plan in case.operands:
        for letter in plan.indices:
            counts[letter] = counts.get(letter, 0) + 1
    if with_out:
        for letter in _output_letters(case):
            counts[letter] = counts.get(letter, 0) + 1
    return {letter for letter, n in counts.items() if n >= 2}


def _output_letters(case: Any) -> str:
    expression: str = case.expression
    if case.notation:
        lhs = expression.split("=", 1)[0]
        return "".join(x for x in lhs[lhs.find("(") + 1 :] if x.isalpha())
    if "->" in expression:
        return expression.split("->")[1]
    letters = expression.replace(",", "")
    return "".join(sorted(x for x in set(letters) if letters.count(x) == 1))


def kernel_calls(seed: int) -> list[RefusedCall]:
    """The corrupted calls of generated kernel `seed` (none if it is refused
    as drawn): a dense argument of another dtype or one dimension larger,
    and each corruption of a sparse argument's buffers (in-place outputs
    included), the outputs written in place not declared scratch."""
    import xsparse
    from xsparse.testing.kernel_cases import random_case
    from xsparse.testing.kernels import arguments, kernel_text

    case = random_case(seed)
    try:
        kernel = xsparse.compile(kernel_text(case), **dict(case.options))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            kernel(*arguments(case)[0])
    except (ValueError, TypeError, xsparse.XSparseError):
        return []
    rng = np.random.default_rng([seed, 37])
    calls: list[RefusedCall] = []
    count = len(arguments(case)[0])
    for kind in ("dtype", "shape", *KINDS[1:]):
        for position in range(count):
            args = arguments(case)[0]
            arg = args[position]
            dense = type(arg) is np.ndarray and arg.ndim > 0
            if kind == "dtype" and dense:
                other = np.float32 if arg.dtype != np.float32 else np.float64
                args[position] = arg.astype(other)
            elif kind == "shape" and dense:
                args[position] = grown(arg, int(rng.integers(arg.ndim)))
            elif kind in ("dtype", "shape") or dense or not corrupt(arg, kind, rng):
                continue
            calls.append(
                RefusedCall(
                    f"kernel seed {seed} {kind} (argument {position})",
                    kind,
                    tuple(args),
                    lambda args=args: _on_threads(case.threads, kernel, args),
                    kind in ALWAYS_REFUSED and kind != "shape",
                )
            )
    return calls


def _on_threads(count: int, kernel: Any, args: list[Any]) -> Any:
    from xsparse.testing.kernels import on_threads

    with on_threads(count):
        return kernel(*args)


def decomposed_calls(seed: int, pool: Any) -> list[RefusedCall]:
    """The corrupted calls of decomposed product `seed`: b one row larger,
    an `out` of the other float type, and a coordinate out of range or
    positions that decrease in the CSR or BSR parts the product reads."""
    from xsparse.composable import decompose
    from xsparse.testing.decomposed_cases import (
        call_arguments,
        matrix_input,
        random_decomposed_case,
    )

    case = random_decomposed_case(seed, pool)
    if case.misfit is not None:
        return []
    rng = np.random.default_rng([seed, 37])
    calls: list[RefusedCall] = []
    for kind in ("shape", "dtype", "range", "positions"):
        d = decompose(matrix_input(case), case.rule)
        b, out = call_arguments(case)
        if out is None:
            out = np.full((case.shape[0], *b.shape[1:]), 7, case.dtype)
        d.matmul(b, out=out)  # compiled and cached: the refused call repeats it
        out[...] = 7
        parts = (
            d.vector_parts if b.ndim == 1 and d.vector_parts is not None else d.parts
        )
        if kind == "shape":
            b = grown(b, 0)
        elif kind == "dtype":
            out = out.astype(np.float32 if case.dtype == np.float64 else np.float64)
        else:
            sparse = [
                a
                for p in parts
                if p.kind in ("csr", "bsr")
                for a in p.arrays
                if not isinstance(a, np.ndarray)
            ]
            order = rng.permutation(len(sparse))
            if not any(corrupt(sparse[int(k)], kind, rng) for k in order):
                continue
        calls.append(
            RefusedCall(
                f"decomposed seed {seed} {kind} ({case.rule})",
                kind,
                (d, b, out),
                lambda d=d, b=b, out=out: d.matmul(b, out=out),
                kind in ALWAYS_REFUSED,
            )
        )
    return calls
