"""`xsparse.einsum` and `xsparse.evaluate`: expressions on numpy / scipy /
`SparseTensor` operands, compiled once per signature and cached.

A call prepares its operands (`operands.prepare`: a few attribute reads),
looks its signature up in `_plans` (the expression's text; per operand its
type, dtype, index dtypes or encoding; `out`'s dtype and rank; `format`; the
compile options) and runs the plan: allocate the zero-filled output, call the
kernel, convert the result. Only a miss parses the expression, infers the
encodings, builds the MLIR (`generic.build_mlir`) and compiles it
(`xsparse.compile`, itself cached in memory and on disk).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from xsparse.backend.kernel import Kernel, compile
from xsparse.backend.sparse_storage import SparseTensor
from xsparse.errors import XSparseError
from xsparse.frontend.expression import (
    Access,
    Assignment,
    Binary,
    Delta,
    Expr,
    Negate,
    product,
    signed_terms,
    walk,
)
from xsparse.frontend.generic import KernelSpec, build_mlir
from xsparse.frontend.level_order import is_permutation, loop_order
from xsparse.frontend.notation import parse_assignment
from xsparse.frontend.operands import (
    Key,
    OperandInfo,
    describe,
    encoding_text,
    prepare,
    scipy_encoding,
)
from xsparse.frontend.results import (
    Format,
    ResultPlan,
    check_divisions,
    plan_result,
    result_dtype,
    sparse_by_default,
)
from xsparse.frontend.subscripts import parse_subscripts

plans_built: int = 0
"""How many plans (kernels) this process built: a repeated call builds none."""

_plans: dict[Key, Plan | _EvaluatePlan] = {}
_MAX_PLANS = 1024

Dim = tuple[int, int]
"""(operand position, dimension)."""


@dataclass(frozen=True)
class Plan:
    """A compiled kernel and what a call does around it."""

    kernel: Kernel
    where: str
    assignment: Assignment
    dims: tuple[Dim, ...]
    """Where each output dimension's size comes from."""
    dtype: np.dtype[Any]
    dense: bool
    finish: Callable[[Any], Any]
    converters: tuple[tuple[int, Callable[[Any], Any]], ...] = ()
    equal: tuple[tuple[Dim, Dim], ...] = ()
    """Sizes the kernel does not compare itself (sparse diagonals)."""

    def run(self, args: list[Any], out: Any) -> Any:
        for position, convert in self.converters:
            args[position] = convert(args[position])
        for (p, d), (q, e) in self.equal:
            if args[p].shape[d] != args[q].shape[e]:
                check_sizes(self.assignment, args, self.where)
        if not self.dense:
            return self.finish(self._call(args))
        if out is not None:
            return self._run_into(args, out)
        result = np.zeros([args[p].shape[d] for p, d in self.dims], self.dtype)
        args.append(result)
        self._call(args)
        return self.finish(result)

    def _call(self, args: list[Any]) -> Any:
        # The output is this call's own new array: nothing in it to keep.
        try:
            return self.kernel(*args, scratch_outputs=True)
        except ValueError:
            check_sizes(self.assignment, args, self.where)
            raise

    def _run_into(self, args: list[Any], out: np.ndarray[Any, Any]) -> Any:
        """Run into the user's `out`, zeroed once every check passed (through
        a new array when it shares memory with an operand): a refused call
        leaves it as it was."""
        shape = tuple(args[p].shape[d] for p, d in self.dims)
        if out.shape != shape:
            raise ValueError(
                f"{self.where}: out has shape {out.shape}, the result {shape}"
            )
        if any(_overlaps(a, out) for a in args):
            target = np.zeros(shape, self.dtype)
            self._call([*args, target])
            out[...] = target
            return out
        try:
            self.kernel.call_zeroed(*args, out)
        except ValueError:
            check_sizes(self.assignment, args, self.where)
            raise
        return out


def _overlaps(arg: Any, out: np.ndarray[Any, Any]) -> bool:
    return type(arg) is np.ndarray and bool(np.may_share_memory(arg, out))


def check_sizes(assignment: Assignment, args: list[Any], where: str) -> None:
    """ValueError naming the index used with two sizes, and where."""
    seen: dict[str, tuple[int, str]] = {}
    for access in (a for a in walk(assignment.rhs) if isinstance(a, Access)):
        shape = args[access.operand].shape
        for dim, letter in enumerate(access.indices):
            size = int(shape[dim])
            place = f"{assignment.names[access.operand]} (dimension {dim})"
            first = seen.setdefault(letter, (size, place))
            if first[0] != size:
                raise ValueError(
                    f"{where}: index {letter} has size {first[0]} in {first[1]} "
                    f"but {size} in {place}"
                )


def _check_ranks(
    assignment: Assignment, infos: tuple[OperandInfo, ...], where: str
) -> None:
    for access in (a for a in walk(assignment.rhs) if isinstance(a, Access)):
        info = infos[access.operand]
        if info.rank != len(access.indices):
            given = "".join(access.indices) or "none"
            raise ValueError(
                f"{where}: {info.name} has {info.rank} dimension(s) (shape "
                f"{info.shape}), the expression gives it {len(access.indices)} "
                f"index(es) ({given})"
            )


def _rewrite_diagonals(
    expr: Expr, infos: tuple[OperandInfo, ...], equal: list[tuple[Dim, Dim]]
) -> Expr:
    """A sparse operand read on a diagonal (`A(i,i)`) as `A(i,i') * delta(i,i')`
    summed over i': the sparsifier reads one level per loop."""
    if isinstance(expr, Access):
        if not infos[expr.operand].is_sparse or len(set(expr.indices)) == len(
            expr.indices
        ):
            return expr
        indices = list(expr.indices)
        deltas: list[Expr] = []
        for dim, letter in enumerate(expr.indices):
            first = expr.indices.index(letter)
            if first != dim:
                indices[dim] = f"{letter}#{dim}"
                deltas.append(Delta(letter, indices[dim]))
                equal.append(((expr.operand, first), (expr.operand, dim)))
        return product([Access(expr.operand, tuple(indices)), *deltas])
    if isinstance(expr, Negate):
        return Negate(_rewrite_diagonals(expr.operand, infos, equal))
    if isinstance(expr, Binary):
        lhs = _rewrite_diagonals(expr.lhs, infos, equal)
        return Binary(expr.op, lhs, _rewrite_diagonals(expr.rhs, infos, equal))
    return expr


_CSR = scipy_encoding("csr")


def _bsr_as_csr(matrix: Any) -> SparseTensor:
    """A BSR matrix (scipy's, or a block-encoded `SparseTensor`) as CSR, its
    buffers checked first (ValueError; scipy's conversion trusts them)."""
    if isinstance(matrix, SparseTensor):
        matrix.validate()
        matrix = matrix.to_scipy()
    else:
        _check_compressed(matrix)
    return SparseTensor.from_scipy(matrix.tocsr(), _CSR)


def _check_compressed(matrix: Any) -> None:
    """ValueError where a scipy CSR, CSC or BSR matrix's buffers are not what
    scipy's own conversions assume (they read out of bounds otherwise):
    positions from 0, never decreasing, within the buffers; indices in range.
    Reads only (scipy's `check_format` may replace the arrays)."""
    rows, columns = matrix.shape
    blocks = getattr(matrix, "blocksize", (1, 1))
    major, minor = rows // blocks[0], columns // blocks[1]
    if matrix.format == "csc":
        major, minor = minor, major
    indptr, indices = np.asarray(matrix.indptr), np.asarray(matrix.indices)
    stored = int(indptr[-1]) if indptr.shape[0] else -1
    if (
        indptr.shape[0] != major + 1
        or indptr[0] != 0
        or not 0 <= stored <= min(indices.shape[0], matrix.data.shape[0])
        or bool((indptr[1:] < indptr[:-1]).any())
        or (
            stored > 0
            and not 0 <= indices[:stored].min() <= indices[:stored].max() < minor
        )
    ):
        raise ValueError(
            f"a scipy {matrix.format} matrix whose indptr / indices are invalid "
            "(positions from 0, never decreasing, within the arrays; indices "
            f"below {minor})"
        )


@dataclass(frozen=True)
class _Design:
    """A plan before compilation: the kernel's text and the call's parts."""

    spec: KernelSpec
    assignment: Assignment
    """As written (`spec`'s has sparse diagonals rewritten)."""
    result: ResultPlan
    converters: tuple[tuple[int, Callable[[Any], Any]], ...]
    equal: tuple[tuple[Dim, Dim], ...]


def _design(
    assignment: Assignment,
    args: list[Any],
    out: Any,
    format: Format,
    where: str,
) -> _Design:
    """Check the operands against the expression (ValueError / TypeError in
    the user's terms) and decide the kernel and its result."""
    infos = tuple(
        describe(a, where, n) for a, n in zip(args, assignment.names, strict=True)
    )
    _check_ranks(assignment, infos, where)
    check_sizes(assignment, args, where)
    dtype = result_dtype(assignment, infos, out, where)
    check_divisions(assignment, infos, where)
    if out is not None:
        if format not in (None, "dense"):
            raise ValueError(
                f"{where}: out= takes a dense result, not format={format!r}"
            )
        format = "dense"
    infos, converters = _blocks_as_csr(assignment, infos, format)
    infos, copies = _canonical_where_needed(assignment, infos, format)
    converters += copies
    equal: list[tuple[Dim, Dim]] = []
    rhs = _rewrite_diagonals(assignment.rhs, infos, equal)
    rewritten = Assignment(assignment.text, assignment.output, rhs, assignment.names)
    accesses = [a for a in walk(rhs) if isinstance(a, Access)]
    sparse = [(a, infos[a.operand].encoding) for a in accesses]
    sparse_accesses = [(a, e) for a, e in sparse if e is not None]
    priority = list(
        dict.fromkeys([*assignment.output, *(x for a in accesses for x in a.indices)])
    )
    order = loop_order(sparse_accesses, priority)
    sparse_positions = [p for p, (_, e) in enumerate(sparse) if e is not None]
    conversions = {sparse_positions[k]: enc for k, enc in order.conversions.items()}
    result = plan_result(assignment, infos, order, format, where)
    spec = KernelSpec(rewritten, infos, dtype, result.output, result.final, conversions)
    return _Design(spec, assignment, result, tuple(converters), tuple(equal))


def _reads_alone(
    assignment: Assignment, infos: tuple[OperandInfo, ...], format: Format
) -> bool:
    """The kernel reads one sparse operand, not on a diagonal, into a dense
    result: it visits the operand's entries in any order and co-iterates
    nothing."""
    sparse = [k for k, info in enumerate(infos) if info.is_sparse]
    diagonal = any(
        len(set(a.indices)) < len(a.indices)
        for a in walk(assignment.rhs)
        if isinstance(a, Access)
    )
    dense_result = format == "dense" or (
        format is None and not sparse_by_default(assignment, infos)
    )
    return len(sparse) == 1 and dense_result and not diagonal


def _blocks_as_csr(
    assignment: Assignment, infos: tuple[OperandInfo, ...], format: Format
) -> tuple[tuple[OperandInfo, ...], list[tuple[int, Callable[[Any], Any]]]]:
    """BSR operands keep their block encoding where the kernel reads only them
    into a dense result; elsewhere they are converted to CSR on each call."""
    blocks = [k for k, info in enumerate(infos) if _is_blocked(info)]
    if not blocks or _reads_alone(assignment, infos, format):
        return infos, []
    replaced = list(infos)
    for k in blocks:
        info = infos[k]
        replaced[k] = OperandInfo(info.name, info.dtype, info.shape, _CSR, info.family)
    return tuple(replaced), [(k, _bsr_as_csr) for k in blocks]


def _is_blocked(info: OperandInfo) -> bool:
    """A scipy BSR matrix, or a 2-D `SparseTensor` with block levels."""
    if info.scipy_format == "bsr":
        return True
    return (
        info.family == "tensor"
        and info.rank == 2
        and info.encoding is not None
        and not is_permutation(info.encoding)
        and not info.encoding.dim_slices
    )


def _canonical_where_needed(
    assignment: Assignment, infos: tuple[OperandInfo, ...], format: Format
) -> tuple[tuple[OperandInfo, ...], list[tuple[int, Callable[[Any], Any]]]]:
    """A CSR/CSC matrix that is not canonical (unsorted or repeated indices)
    is read as it is (`compressed(nonunique, nonordered)`) where the kernel
    reads it alone into a dense result; elsewhere (co-iteration, sparse
    results need sorted rows) a canonical copy is made on each call."""
    unordered = [k for k, info in enumerate(infos) if _unordered_scipy(info)]
    if not unordered or (
        _reads_alone(assignment, infos, format)
        and all(_once_per_term(assignment, k) for k in unordered)
    ):
        return infos, []
    return _made_canonical(infos, unordered)


def _once_per_term(assignment: Assignment, operand: int) -> bool:
    """Every term of the right side reads `operand` exactly once, as a factor
    (not under a division): the result is linear in each of its stored
    entries, so repeated coordinates read as they are sum as scipy sums them."""
    return all(
        _factor_count(term, operand) == 1 for _, term in signed_terms(assignment.rhs)
    )


def _factor_count(expr: Expr, operand: int) -> int | None:
    """How many times a product reads `operand` (None: not as a plain factor)."""
    if isinstance(expr, Access):
        return 1 if expr.operand == operand else 0
    if isinstance(expr, Negate):
        return _factor_count(expr.operand, operand)
    if isinstance(expr, Binary):
        left = _factor_count(expr.lhs, operand)
        right = _factor_count(expr.rhs, operand)
        if left is None or right is None:
            return None
        if expr.op == "*":
            return left + right
        if expr.op == "/":
            return left if right == 0 else None
        return left if left == right == 0 else None  # a sum inside a product
    return 0


def _unordered_scipy(info: OperandInfo) -> bool:
    return (
        info.encoding is not None
        and info.scipy_format in ("csr", "csc")
        and not info.encoding.lvl_types[-1].is_ordered
    )


def _made_canonical(
    infos: tuple[OperandInfo, ...], positions: list[int]
) -> tuple[tuple[OperandInfo, ...], list[tuple[int, Callable[[Any], Any]]]]:
    """The scipy matrices at `positions` copied into canonical form on each
    call, with the ordered encoding of their format."""
    replaced = list(infos)
    for k in positions:
        info = infos[k]
        assert info.scipy_format is not None and info.encoding is not None
        encoding = scipy_encoding(info.scipy_format, width=info.encoding.crd_width)
        replaced[k] = dataclasses.replace(info, encoding=encoding)
    return tuple(replaced), [(k, _canonical_copy) for k in positions]


def _canonical_copy(matrix: Any) -> Any:
    """A canonical copy of a CSR/CSC matrix, its buffers checked first
    (ValueError; scipy's `sum_duplicates` trusts them)."""
    _check_compressed(matrix)
    canonical = matrix.copy()
    canonical.sum_duplicates()
    return canonical


def _compile(design: _Design, where: str, options: Mapping[str, Any]) -> Plan:
    global plans_built
    kernel, first_error = None, None
    for attempt in _fallbacks(design):
        try:
            kernel = compile(build_mlir(attempt.spec), "kernel", **options)
        except XSparseError as error:
            first_error = first_error or error
            continue
        design = attempt
        break
    if kernel is None:
        assert first_error is not None
        raise first_error
    spec = design.spec
    plans_built += 1
    equal = design.equal + _unchecked_sizes(design.assignment, kernel)
    dims = tuple(
        _size_source(spec.assignment, letter) for letter in spec.assignment.output
    )
    return Plan(
        kernel,
        where,
        design.assignment,
        dims,
        spec.compute,
        spec.output is None,
        design.result.finish,
        design.converters,
        equal,
    )


def _unchecked_sizes(
    assignment: Assignment, kernel: Kernel
) -> tuple[tuple[Dim, Dim], ...]:
    """Pairs of operand dimensions that one index gives one size and that the
    kernel does not compare (`Kernel.shared_sizes`: a sparse operand the
    kernel converts to another level order before its loops read it), for
    `Plan.run` to compare on each call."""
    leader: dict[Dim, Dim] = {}

    def find(dim: Dim) -> Dim:
        while leader.get(dim, dim) != dim:
            dim = leader[dim]
        return dim

    for group in kernel.shared_sizes:
        first = find(group[0])
        for dim in group[1:]:
            leader[find(dim)] = first
    first_use: dict[str, Dim] = {}
    pairs: list[tuple[Dim, Dim]] = []
    for access in (a for a in walk(assignment.rhs) if isinstance(a, Access)):
        for d, letter in enumerate(access.indices):
            dim = (access.operand, d)
            first = first_use.setdefault(letter, dim)
            if find(first) != find(dim):
                pairs.append((first, dim))
                leader[find(dim)] = find(first)
    return tuple(pairs)


def _fallbacks(design: _Design) -> Iterator[_Design]:
    """The design, then what the sparsifier may accept where it refuses it:
    canonical copies of the scipy matrices read as they are (an unordered
    level the loops turn out to co-iterate: a union with a dense operand),
    then a sparse result computed dense and converted."""
    yield design
    unordered = [
        k for k, info in enumerate(design.spec.operands) if _unordered_scipy(info)
    ]
    if unordered:
        infos, copies = _made_canonical(design.spec.operands, unordered)
        spec = dataclasses.replace(design.spec, operands=infos)
        design = dataclasses.replace(
            design, spec=spec, converters=(*design.converters, *copies)
        )
        yield design
    if design.spec.output is not None:
        yield _through_dense(design)


def _through_dense(design: _Design) -> _Design:
    """The design with a dense output converted to the sparse result after
    the kernel: for a sparse result the sparsifier cannot insert into in
    the loops' order (a reduction loop outside the output's, fixed by the
    operands' level orders)."""
    spec, result = design.spec, design.result
    target = spec.final or spec.output
    assert target is not None
    finish = result.finish

    def convert(dense: Any) -> Any:
        return finish(SparseTensor.from_dense(dense, target))

    dense_spec = dataclasses.replace(spec, output=None, final=None)
    dense_result = dataclasses.replace(result, output=None, final=None, finish=convert)
    return dataclasses.replace(design, spec=dense_spec, result=dense_result)


def _size_source(assignment: Assignment, letter: str) -> Dim:
    access = next(
        a for a in walk(assignment.rhs) if isinstance(a, Access) and letter in a.indices
    )
    return access.operand, access.indices.index(letter)


def _format_key(format: Format) -> Any:
    if format is None or isinstance(format, str):
        return format
    return encoding_text(format.data if hasattr(format, "data") else format)  # type: ignore[union-attr]


def _remember(key: Key, plan: Plan | _EvaluatePlan) -> None:
    if len(_plans) >= _MAX_PLANS:
        _plans.clear()
    _plans[key] = plan


def _prepared(
    operands: Any, function: str, text: str, names: Any
) -> tuple[list[Any], Key]:
    """The operands as the kernel takes them, and their keys; `names` (an
    iterable, read only on error) says which operand could not be taken,
    the call being `function(text, ...)`."""
    args: list[Any] = []
    keys: list[Key] = []
    try:
        for operand in operands:
            arg, key = prepare(operand)
            args.append(arg)
            keys.append(key)
    except TypeError as error:
        name = list(names)[len(args)]
        raise TypeError(f"{function} {text!r}: {name}: {error}") from None
    return args, tuple(keys)


def _out_key(out: Any) -> Any:
    if out is None:
        return None
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy array, got {type(out).__name__}")
    return (out.dtype, out.ndim)


def _operand_names(count: int) -> Iterator[str]:
    return (f"operand {k}" for k in range(count))


def einsum(
    subscripts: str,
    *operands: Any,
    out: np.ndarray[Any, Any] | None = None,
    format: Format = None,
    **compile_options: Any,
) -> Any:
    """numpy's `einsum` on numpy arrays, scipy.sparse arrays and matrices and
    `xsparse.SparseTensor`s, compiled by the sparsifier (once per signature).

    Subscripts follow numpy (explicit `->` or implicit output, diagonals,
    transposes, sums, 0-d operands; no ellipsis). The result is what scipy
    returns for the same operation (`xsparse.frontend.results`): a numpy
    array for sparse @ dense and reductions (a numpy scalar for a full
    one), a sparse result of the first sparse operand's family for
    elementwise, sampled and sparse-sparse products. `format=` asks for
    'dense', 'csr', 'csc', 'coo' (scipy) or an encoding (a `SparseTensor`);
    `out=` writes a dense result into an array (its old contents are
    ignored; a refused call, ValueError or TypeError, leaves it as it was)
    and returns it.
    Operands keep their dtypes; the kernel casts
    them to numpy's result type. `compile_options` go to `xsparse.compile`.
    `xsparse.frontend.einsum_mlir` returns the MLIR instead of running it.
    """
    if type(subscripts) is not str:
        raise TypeError(
            f"einsum subscripts must be a str, got {type(subscripts).__name__}"
        )
    args, keys = _prepared(
        operands, "einsum", subscripts, _operand_names(len(operands))
    )
    options = tuple(compile_options.items()) if compile_options else ()
    out_key = None if out is None else _out_key(out)
    format_key = (
        format if format is None or type(format) is str else _format_key(format)
    )
    key = ("einsum", subscripts, keys, out_key, format_key, options)
    plan = _plans.get(key)
    if plan is None:
        where = f"einsum {subscripts!r}"
        design = _einsum_design(subscripts, args, out, format, where)
        plan = _compile(design, where, compile_options)
        _remember(key, plan)
    return plan.run(args, out)


def _einsum_design(
    subscripts: str, args: list[Any], out: Any, format: Format, where: str
) -> _Design:
    return _design(parse_subscripts(subscripts, len(args)), args, out, format, where)


def einsum_mlir(
    subscripts: str,
    *operands: Any,
    out: np.ndarray[Any, Any] | None = None,
    format: Format = None,
) -> str:
    """The MLIR `einsum` compiles for these operands (for `xsparse-opt`, bug
    reports), without compiling or running it. Its function is `@kernel`:
    the operands, then `out` for a dense result."""
    where = f"einsum {subscripts!r}"
    _out_key(out)
    args, _ = _prepared(operands, "einsum", subscripts, _operand_names(len(operands)))
    return build_mlir(_einsum_design(subscripts, args, out, format, where).spec)


def evaluate(
    assignment: str,
    *,
    out: np.ndarray[Any, Any] | None = None,
    format: Format = None,
    compile_options: Mapping[str, Any] | None = None,
    **operands: Any,
) -> Any:
    """TACO's index notation, `"y(i) = A(i,j) * x(j) + b(i)"`, on operands
    given by name: `+ - * /`, parentheses, unary minus, numbers. An index
    that is not on the left is summed over each term of the outermost sum
    or difference that uses it (TACO's convention; the example is
    `A @ x + b`); `xsparse.frontend.notation` says more. Operands, results,
    `format=`, `out=` and caching as `einsum`; `compile_options` go to
    `xsparse.compile` (operands cannot be named `out`, `format` or
    `compile_options`). A division by a sparse operand is refused; a dense
    divisor's zeros give 0 where the numerator stores nothing (numpy: nan).
    `xsparse.frontend.evaluate_mlir` returns the MLIR instead of running it.
    """
    if type(assignment) is not str:
        raise TypeError(
            f"evaluate needs the assignment as a str, got {type(assignment).__name__}"
        )
    names = tuple(operands)
    args, keys = _prepared(operands.values(), "evaluate", assignment, names)
    options = tuple(compile_options.items()) if compile_options else ()
    out_key = None if out is None else _out_key(out)
    format_key = (
        format if format is None or type(format) is str else _format_key(format)
    )
    key = ("evaluate", assignment, names, keys, out_key, format_key, options)
    plan = _plans.get(key)
    if plan is None:
        where = f"evaluate {assignment!r}"
        design, order = _evaluate_design(
            assignment, dict(zip(names, args, strict=True)), out, format
        )
        plan = _EvaluatePlan(_compile(design, where, compile_options or {}), order)
        _remember(key, plan)
    return plan.run(args, out)


@dataclass(frozen=True)
class _EvaluatePlan:
    """A plan whose operands come by name: `order` picks them from the call's."""

    plan: Plan
    order: tuple[int, ...]

    def run(self, args: list[Any], out: Any) -> Any:
        return self.plan.run([args[k] for k in self.order], out)


def _evaluate_design(
    text: str, operands: dict[str, Any], out: Any, format: Format
) -> tuple[_Design, tuple[int, ...]]:
    where = f"evaluate {text!r}"
    assignment = parse_assignment(text)
    missing = [n for n in assignment.names if n not in operands]
    if missing:
        raise ValueError(
            f"{where}: no operand named {missing[0]!r} (pass {missing[0]}=...)"
        )
    unused = [n for n in operands if n not in assignment.names]
    if unused:
        raise ValueError(
            f"{where}: operand {unused[0]!r} is not used by the expression"
        )
    given = list(operands)
    order = tuple(given.index(n) for n in assignment.names)
    args = [operands[n] for n in assignment.names]
    return _design(assignment, args, out, format, where), order


def evaluate_mlir(
    assignment: str,
    *,
    out: np.ndarray[Any, Any] | None = None,
    format: Format = None,
    **operands: Any,
) -> str:
    """The MLIR `evaluate` compiles for these operands, without running it."""
    _out_key(out)
    args, _ = _prepared(operands.values(), "evaluate", assignment, operands)
    prepared = dict(zip(operands, args, strict=True))
    return build_mlir(_evaluate_design(assignment, prepared, out, format)[0].spec)
