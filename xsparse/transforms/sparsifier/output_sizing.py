"""Size hints for sparse outputs that the sparsifier fills by insertion.

A kernel inserting into an empty sparse output (`tensor.empty` or
`bufferization.alloc_tensor` without a hint) lets its buffers grow by doubling,
which on large results costs more than the kernel (reallocation copies and
page faults). Where the kernel's expression bounds the number of entries by
its sparse inputs', the allocation gets that bound as its `size_hint`
(MLIR's `bufferization.alloc_tensor ... size_hint = %n`, which MLIR 22's
codegen also uses to size the buffers): every entry of the output comes from
an entry of a sparse input whose coordinates determine the output's, so a
union (`a + b`) has at most the sum of its inputs' entries and an
intersection (`a * b`) at most the smallest, as scipy sizes its sparse sums.
The bound is capped by the output's linear size; `sparse_tensor.load
hasInserts` gives back what was not used.

MLIR 22's sparsifier does not compute such hints; this is xsparse's addition,
and the IR stays MLIR 22's.
"""

from __future__ import annotations

from math import prod

from xdsl.builder import Builder
from xdsl.dialects import arith, bufferization, memref, scf
from xdsl.dialects.builtin import IndexType, UnitAttr
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.dialects.tensor import EmptyOp as TensorEmptyOp
from xdsl.ir import Block, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.sparse_tensor.ops_storage import (
    NumberOfEntriesOp,
    ToCoordinatesOp,
    ToPositionsOp,
)
from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.dialects.upstream.arith import IndexCastUIOp
from xsparse.transforms.codegen_utils.op_emitter import constant_index
from xsparse.transforms.errors import check_insertable
from xsparse.transforms.sparsifier.loop_emitter import (
    Operand,
    SparseKernelEmitter,
    is_sparse_generic,
)
from xsparse.transforms.sparsifier.merge_lattices import (
    IntersectSet,
    LevelSet,
    SetExpr,
    UnionSet,
    UnsupportedKernel,
    loop_set,
)


class HintSparseOutputSize(RewritePattern):
    """The empty sparse output of an in-order inserting kernel -> the same
    allocation with a `size_hint` bounding its entries by the inputs'."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if not is_sparse_generic(op) or len(op.outputs) != 1:
            return
        empty = op.outputs[0].owner
        if not isinstance(empty, TensorEmptyOp | bufferization.AllocTensorOp):
            return
        if isinstance(empty, bufferization.AllocTensorOp) and (
            empty.copy is not None or empty.size_hint is not None
        ):
            return
        if not op.outputs[0].has_one_use():
            return
        try:
            kernel = SparseKernelEmitter(op)
        except UnsupportedKernel:
            return  # sparsification reports it
        if not kernel.inserting:
            return
        enc = sparse_encoding(op.outputs[0].type)
        assert enc is not None
        check_insertable(empty, enc)  # here, while `empty` is the user's op
        builder = Builder(InsertPoint.before(op))
        if kernel.expand_depth is None:
            bound = entries_bound(kernel)
            if bound is None:
                return
            value = build_bound(builder, kernel, bound)
        else:
            product = product_operands(kernel)
            if product is None:
                return
            value = build_products_bound(builder, kernel, *product)
        hint = _capped(builder, value, empty)
        alloc = builder.insert(
            bufferization.AllocTensorOp(
                op.outputs[0].type, list(empty.dynamic_sizes), size_hint=hint
            )
        )
        op.operands[len(op.inputs)] = alloc.tensor
        rewriter.erase(empty)


def entries_bound(kernel: SparseKernelEmitter) -> SetExpr | None:
    """Where the output has entries, as a set expression over the sparse
    inputs whose coordinates determine the output's (None when a dense input
    or a value where every input is absent can give an entry anywhere)."""
    out_loops = set(kernel.output.level_loops)
    determines = {
        o.index
        for o in kernel.operands[:-1]
        if _counted(o) and out_loops <= set(o.level_loops)
    }
    s = loop_set(
        kernel.expr,
        lambda o: o in determines,
        kernel.output.index,
        kernel.is_identity,
    ).set_expr
    return s if _only_inputs(s) else None


def _counted(operand: Operand) -> bool:
    """A sparse operand whose stored entries the hint can count: not one
    located by search (it drives no loop), nor one with `batch` levels, whose buffers are batched memrefs (`memref<4x?xf64>`:
    their first size is the batch count, not the number of entries)."""
    enc = operand.encoding
    return (
        enc is not None
        and not operand.searched
        and not any(lt.format.is_batched for lt in enc.lvl_types)
    )


def _only_inputs(s: SetExpr) -> bool:
    if isinstance(s, UnionSet | IntersectSet):
        return _only_inputs(s.lhs) and _only_inputs(s.rhs)
    return isinstance(s, LevelSet)


def build_bound(builder: Builder, kernel: SparseKernelEmitter, s: SetExpr) -> SSAValue:
    """The bound's value: entries of an input, summed over a union, the least
    over an intersection."""
    if isinstance(s, UnionSet):
        lhs, rhs = (
            build_bound(builder, kernel, s.lhs),
            build_bound(builder, kernel, s.rhs),
        )
        return builder.insert(arith.AddiOp(lhs, rhs)).result
    if isinstance(s, IntersectSet):
        lhs, rhs = (
            build_bound(builder, kernel, s.lhs),
            build_bound(builder, kernel, s.rhs),
        )
        return builder.insert(arith.MinUIOp(lhs, rhs)).result
    assert isinstance(s, LevelSet)
    return builder.insert(NumberOfEntriesOp(kernel.operands[s.operand].value)).result


SIZE_HINT_ATTR = "xsparse.size_hint"
"""Marks the loops that only compute a size hint (not MLIR 22's loops)."""
MAX_PRODUCTS_HINT = 1 << 27
"""The largest hint from a count of products (entries; beyond it the buffers
grow as usual): the count can exceed the result's entries many times."""


def product_operands(kernel: SparseKernelEmitter) -> tuple[int, int] | None:
    """For out-of-order insertion of C(i, j) = sum_k A(i, k) B(k, j) (SpGEMM):
    the operands A and B when every product comes from a stored entry of A,
    whose last level is k, times a stored entry of B in the row of a dense k
    level followed by a compressed j level. C's row i then gets at most
    sum over the entries (i, k) of A of |B(k, :)| entries."""
    inner = kernel.output.level_loops[-1]
    others = [loop for loop in kernel.order if loop != inner]

    def only(loop: int, operand: int) -> bool:
        s = loop_set(
            kernel.expr,
            lambda o: o == operand,
            kernel.output.index,
            kernel.is_identity,
        ).set_expr
        return s == LevelSet(operand)

    for a in kernel.operands[:-1]:
        if not _counted(a) or sorted(a.level_loops) != sorted(others):
            continue
        k = a.level_loops[-1]
        for b in kernel.operands[:-1]:
            if b is a or not _counted(b) or b.level_loops != [k, inner]:
                continue
            dense_k = b.level_type(0).format.is_dense
            compressed_j = b.level_type(1).format.has_positions
            if dense_k and compressed_j and only(k, a.index) and only(inner, b.index):
                return a.index, b.index
    return None


def build_products_bound(
    builder: Builder, kernel: SparseKernelEmitter, a: int, b: int
) -> SSAValue:
    """sum over the stored entries p of A of |B(crd_A[p], :)|, capped at
    MAX_PRODUCTS_HINT: one pass over A's last coordinates."""
    lhs, rhs = kernel.operands[a], kernel.operands[b]
    last = len(lhs.level_loops) - 1
    crd = builder.insert(ToCoordinatesOp(lhs.value, last)).results[0]
    pos = builder.insert(ToPositionsOp(rhs.value, 1)).results[0]
    entries = builder.insert(NumberOfEntriesOp(lhs.value)).result

    def index(value: int) -> SSAValue:
        return constant_index(builder, value)

    zero, one = index(0), index(1)

    def as_index(b: Builder, value: SSAValue) -> SSAValue:
        if isinstance(value.type, IndexType):
            return value
        return b.insert(IndexCastUIOp(value, IndexType())).result

    body = Block(arg_types=[IndexType(), IndexType()])
    inside = Builder(InsertPoint.at_end(body))
    k = as_index(inside, inside.insert(memref.LoadOp.get(crd, [body.args[0]])).res)
    after = inside.insert(arith.AddiOp(k, one)).result
    lo = as_index(inside, inside.insert(memref.LoadOp.get(pos, [k])).res)
    hi = as_index(inside, inside.insert(memref.LoadOp.get(pos, [after])).res)
    row = inside.insert(arith.SubiOp(hi, lo)).result
    total = inside.insert(arith.AddiOp(body.args[1], row)).result
    inside.insert(scf.YieldOp(total))
    loop = builder.insert(scf.ForOp(zero, entries, one, [zero], body))
    loop.attributes[SIZE_HINT_ATTR] = UnitAttr()
    return builder.insert(
        arith.MinUIOp(loop.results[0], index(MAX_PRODUCTS_HINT))
    ).result


def _capped(
    builder: Builder,
    bound: SSAValue,
    empty: TensorEmptyOp | bufferization.AllocTensorOp,
) -> SSAValue:
    """max(1, min(bound, the output's linear size)): the hint's valid range.
    Dynamic sizes multiply in without overflow: once the product would pass
    the bound, the bound is the answer."""

    def index(value: int) -> SSAValue:
        return constant_index(builder, value)

    t = empty.results[0].type
    assert is_tensor_type(t)
    static = prod(n for n in t.get_shape() if n >= 0)
    one = index(1)
    if static >= 2**63:
        return builder.insert(arith.MaxUIOp(bound, one)).result
    linear = one if static == 1 else index(static)
    for size in empty.dynamic_sizes:
        room = builder.insert(
            arith.DivUIOp(bound, builder.insert(arith.MaxUIOp(size, one)).result)
        ).result
        fits = builder.insert(arith.CmpiOp(linear, room, "ule")).result
        grown = builder.insert(arith.MuliOp(linear, size)).result
        linear = builder.insert(upstream_arith.SelectOp(fits, grown, bound)).result
    result = builder.insert(arith.MinUIOp(linear, bound)).result
    return builder.insert(arith.MaxUIOp(result, one)).result
