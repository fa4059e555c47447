"""`sparse-reinterpret-map`: demap non-permutation encodings into level space.

Mirrors MLIR 22's `-sparse-reinterpret-map` (SparseReinterpretMap.cpp): a
`linalg.generic` whose sparse operand has a block encoding (BSR, 2:4, ...)
is rewritten to iterate the operand's levels. The operand is reinterpreted
(`sparse_tensor.reinterpret_map`, no data movement) as a tensor of its level
shape with the identity map; the generic gets one loop per level, followed
by the loops the operand does not index (SpMM's `j`), and the loops it
indexes become its level-to-dimension expressions in the maps of the other
operands (e.g. `x[j]` becomes `x[jb * 2 + jj]`). Several
block-encoded operands with the same block map and indexing (BSR + BSR into
BSR) are demapped together; a block-encoded result is reinterpreted back.

Then, as MLIR's `GenericOpScheduler` resolves cycles: a generic whose sparse
operands' level orders admit no loop order (`A(j,i)` read from CSR into a CSR
result) reads a copy of the fewest sparse inputs, converted
(`sparse_tensor.convert`) to levels in an order the others admit, and
released after it (`bufferization.dealloc_tensor`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    IndexType,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.tensor import EmptyOp as TensorEmptyOp
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.sparse_tensor import SparseTensorEncodingAttr
from xsparse.dialects.sparse_tensor.encoding import Encoding
from xsparse.dialects.sparse_tensor.ops_conversion import ConvertOp, ReinterpretMapOp
from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.dialects.upstream.bufferization import DeallocTensorOp
from xsparse.transforms.errors import PassFailure
from xsparse.transforms.sparsifier.iteration_graph import (
    Resolution,
    resolving_conversions,
    topological_order,
)
from xsparse.transforms.sparsifier.loop_emitter import (
    Operand,
    access_order,
    analyze_operands,
    constrains_order,
    is_sparse_generic,
)
from xsparse.transforms.sparsifier.merge_lattices import UnsupportedKernel
from xsparse.xdsl_adapter import IterativeRewriteWalker


def needs_demapping(enc: Encoding) -> bool:
    return not all(isinstance(r, AffineDimExpr) for r in enc.dim_to_lvl.results)


def demapped_encoding(enc: Encoding) -> SparseTensorEncodingAttr:
    """The same levels, addressed by level coordinates (identity map)."""
    return SparseTensorEncodingAttr.from_level_types(
        enc.lvl_types,
        None,
        enc.pos_width,
        enc.crd_width,
        enc.explicit_val,
        enc.implicit_val,
    )


def _static_extent(expr: AffineExpr, shape: tuple[int, ...]) -> int:
    """The static size of a level expression, or DYNAMIC_INDEX."""
    if isinstance(expr, AffineDimExpr):
        size = shape[expr.position]
        return size if size >= 0 else DYNAMIC_INDEX
    if isinstance(expr, AffineBinaryOpExpr) and isinstance(
        expr.rhs, AffineConstantExpr
    ):
        block = expr.rhs.value
        if expr.kind.name == "Mod":
            return block
        if expr.kind.name == "FloorDiv":
            inner = _static_extent(expr.lhs, shape)
            return inner // block if inner >= 0 else DYNAMIC_INDEX
    return DYNAMIC_INDEX


def level_shape_type(
    tensor_type: TensorType[Attribute], enc: Encoding
) -> TensorType[Attribute]:
    shape = tensor_type.get_shape()
    lvl_shape = [_static_extent(e, shape) for e in enc.dim_to_lvl.results]
    return TensorType(tensor_type.element_type, lvl_shape, demapped_encoding(enc))


def _level_sizes(
    rewriter: PatternRewriter,
    op: GenericOp,
    empty: TensorEmptyOp,
    enc: Encoding,
    lvl_type: TensorType[Attribute],
) -> list[SSAValue]:
    """The dynamic level sizes of an empty tensor from its dimension sizes:
    a level `d floordiv b` has size(d) / b."""
    t = empty.tensor.type
    assert is_tensor_type(t)
    dynamic = iter(empty.dynamic_sizes)
    dims = {d: next(dynamic) for d, n in enumerate(t.get_shape()) if n < 0}
    sizes: list[SSAValue] = []
    for expr, n in zip(enc.dim_to_lvl.results, lvl_type.get_shape(), strict=True):
        if n >= 0:
            continue
        if isinstance(expr, AffineDimExpr):
            sizes.append(dims[expr.position])
        elif (
            isinstance(expr, AffineBinaryOpExpr)
            and expr.kind.name == "FloorDiv"
            and isinstance(expr.lhs, AffineDimExpr)
            and isinstance(expr.rhs, AffineConstantExpr)
        ):
            block = arith.ConstantOp.from_int_and_width(expr.rhs.value, IndexType())
            size = arith.DivUIOp(dims[expr.lhs.position], block)
            rewriter.insert([block, size], InsertPoint.before(op))
            sizes.append(size.result)
        else:
            raise PassFailure(op, f"cannot size the output level {expr}")
    return sizes


_AFFINE_OPS: dict[AffineBinaryOpKind, type[arith.SignlessIntegerBinaryOperation]] = {
    AffineBinaryOpKind.Add: arith.AddiOp,
    AffineBinaryOpKind.Mul: arith.MuliOp,
    AffineBinaryOpKind.Mod: arith.RemSIOp,
    AffineBinaryOpKind.FloorDiv: arith.FloorDivSIOp,
    AffineBinaryOpKind.CeilDiv: arith.CeilDivSIOp,
}


def _emit_loop_expr(
    expr: AffineExpr, rewriter: PatternRewriter, at: Operation
) -> SSAValue:
    """`expr` over the loops of the generic, computed with `linalg.index` and
    arith ops before `at` (inside its body)."""
    if isinstance(expr, AffineDimExpr):
        op: Operation = IndexOp(expr.position)
    elif isinstance(expr, AffineConstantExpr):
        op = arith.ConstantOp.from_int_and_width(expr.value, IndexType())
    else:
        assert isinstance(expr, AffineBinaryOpExpr)
        lhs = _emit_loop_expr(expr.lhs, rewriter, at)
        rhs = _emit_loop_expr(expr.rhs, rewriter, at)
        op = _AFFINE_OPS[expr.kind](lhs, rhs)
    rewriter.insert(op, InsertPoint.before(at))
    return op.results[0]


def _remap_loop_indices(
    body: Region, substitution: list[AffineExpr], rewriter: PatternRewriter
) -> None:
    """`linalg.index d` of an original loop -> its expression over the new loops."""
    for index_op in [o for o in body.walk() if isinstance(o, IndexOp)]:
        value = _emit_loop_expr(
            substitution[index_op.dim.value.data], rewriter, index_op
        )
        rewriter.replace(index_op, [], [value])


class DemapGeneric(RewritePattern):
    """Rewrite a generic over a block-encoded operand into that operand's level space."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        operands = [*op.inputs, *op.outputs]
        maps = [m.data for m in op.indexing_maps.data]
        blocked = [
            i
            for i, v in enumerate(operands)
            if (enc := sparse_encoding(v.type)) is not None and needs_demapping(enc)
        ]
        if not blocked:
            return
        index = blocked[0]
        value = operands[index]
        enc = sparse_encoding(value.type)
        assert enc is not None and is_tensor_type(value.type)
        for other in blocked[1:]:
            other_enc = sparse_encoding(operands[other].type)
            assert other_enc is not None
            if other_enc.dim_to_lvl != enc.dim_to_lvl or maps[other] != maps[index]:
                raise PassFailure(
                    op,
                    "demapping block-encoded operands with different block maps "
                    "or indexing maps is not supported",
                )
        if enc.dim_to_lvl.num_symbols:
            raise PassFailure(
                op, "encodings with symbols (ELL's counting map) cannot be demapped"
            )
        amap = maps[index]
        covered = [r.position for r in amap.results if isinstance(r, AffineDimExpr)]
        if len(covered) != len(amap.results) or len(set(covered)) != len(covered):
            raise PassFailure(
                op,
                "demapping needs the block-encoded operand indexed by distinct loops",
            )
        # New loops: the operand's levels, then the loops it does not index
        # (SpMM's j), in their order. A loop the operand indexes becomes its
        # level-to-dimension expression: amap.results[d] = lvl_to_dim[d].
        lvl_rank = enc.lvl_rank
        num_loops = amap.num_dims
        kept = [loop for loop in range(num_loops) if loop not in covered]
        substitution: list[AffineExpr] = [AffineExpr.dimension(0)] * num_loops
        for dim, loop in enumerate(covered):
            substitution[loop] = enc.lvl_to_dim.results[dim]
        for k, loop in enumerate(kept):
            substitution[loop] = AffineExpr.dimension(lvl_rank + k)
        new_rank = lvl_rank + len(kept)
        to_levels = AffineMap(new_rank, 0, tuple(substitution))
        levels = AffineMap(
            new_rank, 0, tuple(AffineExpr.dimension(d) for d in range(lvl_rank))
        )
        new_maps = [
            levels if i in blocked else m.compose(to_levels) for i, m in enumerate(maps)
        ]
        old_iterators = [it.data for it in op.iterator_types.data]
        new_iterators: list[Attribute] = []
        for level_expr in enc.dim_to_lvl.results:
            loops = {
                covered[e.position]
                for e in level_expr.dfs()
                if isinstance(e, AffineDimExpr)
            }
            kind = (
                IteratorType.REDUCTION
                if any(old_iterators[loop] == IteratorType.REDUCTION for loop in loops)
                else IteratorType.PARALLEL
            )
            new_iterators.append(IteratorTypeAttr(kind))
        new_iterators += [op.iterator_types.data[loop] for loop in kept]
        new_operands: list[SSAValue] = list(operands)
        for i in blocked:
            original = operands[i].type
            own = sparse_encoding(original)  # same blocks, maybe other widths
            assert is_tensor_type(original) and own is not None
            lvl_type = level_shape_type(original, own)
            empty = operands[i].owner
            if i >= len(op.inputs) and isinstance(empty, TensorEmptyOp):
                # An output that starts empty starts empty in level space too.
                sizes = _level_sizes(rewriter, op, empty, own, lvl_type)
                demapped = TensorEmptyOp(sizes, lvl_type)
            else:
                demapped = ReinterpretMapOp(operands[i], lvl_type)
            rewriter.insert(demapped, InsertPoint.before(op))
            new_operands[i] = demapped.results[0]
        num_inputs = len(op.inputs)
        body = Region()
        op.body.clone_into(body)
        _remap_loop_indices(body, substitution, rewriter)
        new_generic = GenericOp(
            new_operands[:num_inputs],
            new_operands[num_inputs:],
            body,
            [AffineMapAttr(m) for m in new_maps],
            ArrayAttr(new_iterators),
            [new_operands[num_inputs + k].type for k in range(len(op.res))],
        )
        rewriter.insert(new_generic, InsertPoint.before(op))
        # A block-encoded result comes back in its own encoding (no data moves).
        results: list[SSAValue] = []
        for k, result in enumerate(new_generic.res):
            if num_inputs + k in blocked:
                back = ReinterpretMapOp(result, op.res[k].type)
                rewriter.insert(back, InsertPoint.before(op))
                result = back.results[0]
            results.append(result)
        rewriter.replace(op, [], results)


def reordered_encoding(operand: Operand, order: list[int]) -> SparseTensorEncodingAttr:
    """The operand's encoding (level types, widths, values) with its levels on
    its dimensions sorted by where `order` puts their loops (MLIR's
    `withDimToLvl` of the permutation `resolveCycle` finds); ordered, as the
    conversion sorts the copy, so that the kernel co-iterates it."""
    enc = operand.encoding
    assert enc is not None
    loops = [r.position for r in operand.map.results if isinstance(r, AffineDimExpr)]
    dims = sorted(range(len(loops)), key=lambda d: order.index(loops[d]))
    dim_to_lvl = AffineMap(len(dims), 0, tuple(AffineExpr.dimension(d) for d in dims))
    return SparseTensorEncodingAttr.from_level_types(
        [replace(t, nonordered=False) for t in enc.lvl_types],
        dim_to_lvl,
        enc.pos_width,
        enc.crd_width,
        enc.explicit_val,
        enc.implicit_val,
    )


def _convertible(operand: Operand, generic: GenericOp) -> bool:
    """An input with one loop per dimension, whose levels may store any
    dimension (no batch levels, which lead, nor n:m blocks, which hold one
    dimension's blocks)."""
    enc = operand.encoding
    return (
        operand.index < len(generic.inputs)
        and enc is not None
        and len(operand.level_loops) == len(operand.map.results)
        and not any(t.format.is_batched or t.format.is_padded for t in enc.lvl_types)
    )


def _inserts_in_order(output: Operand, order: list[int]) -> bool:
    """The loop order visits a sparse output's levels outermost first, all
    but the innermost at least (which the emitter may reach through an
    expanded workspace); a dense output takes any order."""
    outer = output.level_loops[:-1]
    return not output.is_sparse or order[: len(outer)] == outer


def loop_order_conversions(op: GenericOp, operands: list[Operand]) -> Resolution | None:
    """Which inputs to convert, and to which loop order, when the sparse
    operands' level orders admit none (None when they do, or no conversion
    gives one)."""
    required = {o.index: access_order(o) for o in operands if constrains_order(o)}
    num_loops = len(op.iterator_types.data)
    if topological_order(num_loops, list(required.values())) is not None:
        return None
    parallel = [
        loop
        for loop, it in enumerate(op.iterator_types.data)
        if it.data == IteratorType.PARALLEL
    ]
    return resolving_conversions(
        num_loops,
        required,
        [k for k in required if _convertible(operands[k], op)],
        [access_order(o) for o in operands if not constrains_order(o)],
        parallel,
        lambda order: _inserts_in_order(operands[-1], order),
    )


class ConvertForLoopOrder(RewritePattern):
    """A sparse generic whose sparse operands' level orders form a cycle ->
    the same generic on converted copies of the fewest sparse inputs that
    break it, each freed after the generic (MLIR's `resolveCycle`, which
    converts one input; the refusal in `sparsification` stays for kernels no
    conversion of inputs orders)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if not is_sparse_generic(op) or len(op.outputs) != 1:
            return
        try:
            operands = analyze_operands(op)
        except UnsupportedKernel:
            return  # sparsification reports it, located
        found = loop_order_conversions(op, operands)
        if found is None:
            return
        copies = [self._convert(operands[k], found.order) for k in found.converted]
        rewriter.insert(copies, InsertPoint.before(op))
        for k, copy in zip(found.converted, copies, strict=True):
            rewriter.replace_uses_with_if(
                operands[k].value,
                copy.dest,
                lambda use, k=k: use.operation is op and use.index == k,
            )
        frees = [DeallocTensorOp(copy.dest) for copy in copies]
        rewriter.insert(frees, InsertPoint.after(op))

    @staticmethod
    def _convert(operand: Operand, order: list[int]) -> ConvertOp:
        """The operand converted to levels in the loop order."""
        copy_type = TensorType(
            operand.type.element_type,
            operand.type.get_shape(),
            reordered_encoding(operand, order),
        )
        return ConvertOp(operand.value, copy_type)


@dataclass(frozen=True)
class SparseReinterpretMapPass(ModulePass):
    """MLIR's `sparse-reinterpret-map` for linalg.generic kernels."""

    name = "sparse-reinterpret-map"

    scope: Literal["all", "only-generic", "except-generic"] = "all"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        IterativeRewriteWalker(DemapGeneric(), apply_recursively=False).rewrite_module(
            op
        )
        IterativeRewriteWalker(
            ConvertForLoopOrder(), apply_recursively=False
        ).rewrite_module(op)
