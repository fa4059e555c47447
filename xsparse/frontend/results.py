"""What `einsum` / `evaluate` return, and what they compute it in.

The result is what scipy returns for the same operation: a numpy array for
sparse @ dense, for any other sum over an index, and whenever a dense term is
added; a sparse result where every entry needs a sparse operand's entry:
each term has a sparse factor indexed by exactly the output's indices
(elementwise products, sampled products (SDDMM), transposes, sums of such
terms), or the right side is a product of sparse operands in which each
output index is in one operand and each summed index in two or more (SpGEMM,
outer products). A sparse result is in the family of the first sparse
operand: a scipy array or matrix of the same kind (2-D; CSR, or CSC where
the loops run column by column), or a `SparseTensor` (in the encoding of a
sparse operand indexed like the output, else CSR's generalization).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from xsparse.backend.sparse_storage import SparseTensor, parse_encoding
from xsparse.dialects.sparse_tensor.encoding import Encoding, SparseTensorEncodingAttr
from xsparse.frontend.expression import (
    Access,
    Assignment,
    Binary,
    Expr,
    Literal,
    Negate,
    has_division,
    literals,
    signed_terms,
    walk,
)
from xsparse.frontend.generic import groups
from xsparse.frontend.level_order import (
    LoopOrder,
    is_permutation,
    level_letters,
    permuted,
)
from xsparse.frontend.operands import SUPPORTED_DTYPES, OperandInfo

Format = str | Encoding | SparseTensorEncodingAttr | None
"""`format=`: None (as scipy would), 'dense', 'csr', 'csc', 'coo', or an encoding."""

SCIPY_FORMATS = ("csr", "csc", "coo")


def result_dtype(
    assignment: Assignment, operands: tuple[OperandInfo, ...], out: Any, where: str
) -> np.dtype[Any]:
    """numpy's result type of the operands and literals (`/` of integers is
    float64, as numpy's true division); `out`'s dtype when given, if the
    result casts to it safely."""
    dtype = np.result_type(*(o.dtype for o in operands), *literals(assignment.rhs))
    if has_division(assignment.rhs) and dtype.kind != "f":
        dtype = np.dtype(np.float64)
    if out is None:
        return dtype
    if not np.can_cast(dtype, out.dtype, "safe") or out.dtype not in SUPPORTED_DTYPES:
        raise TypeError(
            f"{where}: cannot write a {dtype} result into out of dtype {out.dtype}"
        )
    return out.dtype


def vanishes(expr: Expr, operands: tuple[OperandInfo, ...]) -> bool:
    """`expr` is zero wherever a sparse operand it reads stores nothing."""
    if isinstance(expr, Access):
        return operands[expr.operand].is_sparse
    if isinstance(expr, Literal):
        return expr.value == 0
    if isinstance(expr, Negate):
        return vanishes(expr.operand, operands)
    if isinstance(expr, Binary):
        lhs, rhs = vanishes(expr.lhs, operands), vanishes(expr.rhs, operands)
        return {"*": lhs or rhs, "/": lhs}.get(expr.op, lhs and rhs)
    return True


def check_divisions(
    assignment: Assignment, operands: tuple[OperandInfo, ...], where: str
) -> None:
    """Refuse a divisor that is zero where a sparse operand stores nothing
    (numpy would give inf or nan there; the kernel never visits them)."""
    for expr in walk(assignment.rhs):
        if isinstance(expr, Binary) and expr.op == "/" and vanishes(expr.rhs, operands):
            raise ValueError(
                f"{where}: division by a sparse operand (zero where it stores "
                "nothing); divide by a dense operand, or convert it with toarray()"
            )


def _sampled(expr: Expr, output: set[str], operands: tuple[OperandInfo, ...]) -> bool:
    """Zero unless a sparse operand indexed by exactly the output stores an entry."""
    if isinstance(expr, Access):
        return operands[expr.operand].is_sparse and set(expr.indices) == output
    if isinstance(expr, Negate):
        return _sampled(expr.operand, output, operands)
    if isinstance(expr, Binary):
        lhs = _sampled(expr.lhs, output, operands)
        rhs = _sampled(expr.rhs, output, operands)
        return {"*": lhs or rhs, "/": lhs}.get(expr.op, lhs and rhs)
    return False


def _factors(expr: Expr) -> list[Expr]:
    if isinstance(expr, Binary) and expr.op == "*":
        return _factors(expr.lhs) + _factors(expr.rhs)
    return [expr]


def _sparse_product(assignment: Assignment, operands: tuple[OperandInfo, ...]) -> bool:
    factors = _factors(assignment.rhs)
    reads = [f for f in factors if isinstance(f, Access)]
    if len(reads) < 2 or len(reads) + sum(
        isinstance(f, Literal) for f in factors
    ) < len(factors):
        return False
    if not all(operands[a.operand].is_sparse for a in reads):
        return False
    uses = Counter(x for a in reads for x in set(a.indices))
    return all((uses[x] == 1) == (x in assignment.output) for x in uses)


def sparse_by_default(
    assignment: Assignment, operands: tuple[OperandInfo, ...]
) -> bool:
    """Whether scipy would return this result sparse (module docstring)."""
    if not assignment.output or len(groups(assignment)) > 1:
        return False
    output = set(assignment.output)
    terms = signed_terms(assignment.rhs)
    if all(_sampled(term, output, operands) for _, term in terms):
        return True
    return _sparse_product(assignment, operands)


def family(operands: tuple[OperandInfo, ...]) -> str:
    """The first sparse operand's family ('sparray', 'spmatrix', 'tensor',
    'pydata'), else 'numpy'."""
    return next((o.family for o in operands if o.is_sparse), "numpy")


@dataclass(frozen=True)
class ResultPlan:
    """The kernel's output and how its result reaches the user."""

    output: Encoding | None
    """The kernel's sparse output encoding; None: dense."""
    final: Encoding | None
    """An encoding the kernel converts its sparse output to."""
    finish: Callable[[Any], Any]


def plan_result(
    assignment: Assignment,
    operands: tuple[OperandInfo, ...],
    order: LoopOrder,
    format: Format,
    where: str,
) -> ResultPlan:
    """The result for `format` (module docstring; `out=` asks for 'dense')."""
    rank = len(assignment.output)
    dense = _scalar if rank == 0 else _same
    kind = family(operands)
    natural = sparse_by_default(assignment, operands)
    if kind in ("sparray", "spmatrix") and rank != 2:
        natural = False
    if format is None:
        if not natural:
            return ResultPlan(None, None, dense)
        if kind == "tensor":
            return ResultPlan(_tensor_output(assignment, operands, order), None, _same)
        if kind == "pydata":
            output = _tensor_output(assignment, operands, order)
            return ResultPlan(output, None, _to_pydata)
        fmt = _natural_scipy(assignment, order)
        output = _as_scipy_builds(scipy_output(fmt), assignment, operands, order)
        return ResultPlan(output, None, _to_scipy(fmt, fmt, kind))
    if format == "dense":
        return ResultPlan(None, None, dense)
    if isinstance(format, str) and format in SCIPY_FORMATS:
        if rank != 2:
            raise ValueError(
                f"{where}: format={format!r} needs a 2-D result, not {rank}-D"
            )
        scipy_kind = "spmatrix" if kind == "spmatrix" else "sparray"
        if not natural:
            return ResultPlan(None, None, _dense_to_scipy(format, scipy_kind))
        fmt = _natural_scipy(assignment, order)
        output = _as_scipy_builds(scipy_output(fmt), assignment, operands, order)
        return ResultPlan(output, None, _to_scipy(fmt, format, scipy_kind))
    try:
        target = parse_encoding(format)
    except Exception as error:
        raise ValueError(
            f"{where}: format={format!r} is neither 'dense', 'csr', 'csc', 'coo' "
            f"nor an encoding ({error})"
        ) from None
    if target.dim_rank != rank:
        raise ValueError(
            f"{where}: format's encoding has {target.dim_rank} dimensions, the result {rank}"
        )
    if not natural:
        return ResultPlan(
            None, None, lambda dense: SparseTensor.from_dense(dense, target)
        )
    if kind == "tensor":
        output = _tensor_output(assignment, operands, order)
    else:
        output = scipy_output(_natural_scipy(assignment, order))
    return ResultPlan(output, None if output == target else target, _same)


def _natural_scipy(assignment: Assignment, order: LoopOrder) -> str:
    """CSR, or CSC where the loops visit the second output index first."""
    return "csr" if order.sorted(assignment.output) == assignment.output else "csc"


def _as_scipy_builds(
    encoding: Encoding,
    assignment: Assignment,
    operands: tuple[OperandInfo, ...],
    order: LoopOrder,
) -> Encoding:
    """A CSR/CSC output built as scipy builds its own product: 32-bit
    positions and coordinates where every sparse operand has them (the
    kernel reports a result too large for them), and each row left in the
    order its entries were found where a summed loop runs between the
    output's two (SpGEMM's expansion: no sort per row; scipy's `A @ B`
    does not sort either)."""
    sparse = [op.encoding for op in operands if op.encoding is not None]
    if sparse and all(e.pos_width == 32 and e.crd_width == 32 for e in sparse):
        encoding = dataclasses.replace(encoding, pos_width=32, crd_width=32)
    outer, inner = order.sorted(assignment.output)
    between = order.letters[order.letters.index(outer) + 1 : order.letters.index(inner)]
    if any(letter not in assignment.output for letter in between):
        outer_level, inner_level = encoding.lvl_types
        encoding = dataclasses.replace(
            encoding,
            lvl_types=(outer_level, dataclasses.replace(inner_level, nonordered=True)),
        )
    return encoding


def scipy_output(fmt: str) -> Encoding:
    return permuted(parse_encoding(_CSR), [0, 1] if fmt == "csr" else [1, 0])


_CSR = "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>"


def _tensor_output(
    assignment: Assignment, operands: tuple[OperandInfo, ...], order: LoopOrder
) -> Encoding:
    """A sparse operand's encoding when one is indexed like the output (its
    levels in the output's dimensions), else dense-then-compressed levels in
    the loops' order."""
    output = assignment.output
    for access in walk(assignment.rhs):
        if not isinstance(access, Access):
            continue
        encoding = operands[access.operand].encoding
        if (
            encoding is not None
            and sorted(access.indices) == sorted(output)
            and is_permutation(encoding)
        ):
            levels = [output.index(x) for x in level_letters(encoding, access.indices)]
            if order.sorted(output) == tuple(output[d] for d in levels):
                widths = {
                    "pos_width": encoding.pos_width,
                    "crd_width": encoding.crd_width,
                }
                return dataclasses.replace(permuted(encoding, levels), **widths)
    levels = [output.index(x) for x in order.sorted(output)]
    base = parse_encoding("#sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>")
    return base if len(output) == 1 else permuted(parse_encoding(_CSR), levels)


def _to_pydata(tensor: SparseTensor) -> Any:
    """A `SparseTensor` result as a pydata/sparse COO array (the package is
    there: an operand came from it)."""
    import sparse  # pyright: ignore[reportMissingImports]

    coords, values = tensor.to_coo()
    return sparse.COO(coords.T, values, shape=tensor.shape)  # pyright: ignore


def _scalar(result: Any) -> Any:
    return result[()]


def _same(result: Any) -> Any:
    return result


def _writeable(array: Any) -> Any:
    try:
        array.flags.writeable = True
        return array
    except ValueError:
        return array.copy()


_SCIPY_CONSTRUCTORS: dict[tuple[str, str], Any] = {
    ("csr", "sparray"): sp.csr_array,
    ("csc", "sparray"): sp.csc_array,
    ("coo", "sparray"): sp.coo_array,
    ("csr", "spmatrix"): sp.csr_matrix,
    ("csc", "spmatrix"): sp.csc_matrix,
    ("coo", "spmatrix"): sp.coo_matrix,
}


def _to_scipy(fmt: str, wanted: str, kind: str) -> Callable[[Any], Any]:
    """A CSR/CSC `SparseTensor` as the scipy array or matrix of format `wanted`."""
    constructor = _SCIPY_CONSTRUCTORS[fmt, kind]

    def convert(tensor: SparseTensor) -> Any:
        pos, crd = tensor.positions[1], tensor.coordinates[1]
        # 32-bit indices as int32 views: scipy would copy unsigned ones to int64.
        crd, pos = (
            tensor.scipy_index(_writeable(crd)),
            tensor.scipy_index(_writeable(pos)),
        )
        buffers = (_writeable(tensor.values), crd, pos)
        matrix = constructor(buffers, shape=tensor.shape)
        return matrix if wanted == fmt else matrix.asformat(wanted)

    return convert


def _dense_to_scipy(fmt: str, kind: str) -> Callable[[Any], Any]:
    constructor = _SCIPY_CONSTRUCTORS[fmt, kind]
    return lambda dense: constructor(dense)
