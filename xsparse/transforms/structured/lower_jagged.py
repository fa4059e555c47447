"""`lower-jagged`: jagged buffers -> memref views and descriptor arrays; -> llvm.

Mirrors the RFC "Structured Codegen Beyond Rectangular Arrays" (seed 003),
section "First-Class Jagged Buffer": "the in-place aspect ... involves some
runtime computation of the start address (i.e. inspector-executor style) or
iterating through pointers and performing pointer copies".

`lower-jagged` (before `convert-to-llvm`):

* a jagged *view* is folded into its accesses where possible: an ELL view
  (`jagged.from_ell`, every inner size static and equal) is the plain strided
  memref it came from, so `get` is a `memref.subview`, `load`/`store` are
  `memref.load`/`memref.store` and `size` is a constant; a CSR view
  (`jagged.from_positions`) computes each start address from the positions;
* a view used in any other way (`jagged.set`, an escaping value) is
  materialized: the outer array is allocated and each inner descriptor set to
  a subview (pointer copies, no value moves);
* `load`, `store` and `size` on other jagged buffers become `jagged.get` and
  memref ops.

What remains (`alloc`, `dealloc`, `get`, `set`, `dim`) lowers to the llvm
dialect within `convert-to-llvm` (`JAGGED_PATTERNS`): a jagged buffer is an
MLIR memref descriptor over an array of inner memref descriptors. That one
struct is what a jagged value becomes everywhere (`convert_type`): function
arguments and results (not expanded into fields, unlike memrefs: no C caller
sees them), `scf.for` iter_args and `scf.if` results once they are blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects import jagged
from xsparse.dialects.jagged import JaggedBufferType, memref_strides
from xsparse.dialects.subset import strided_type
from xsparse.dialects.type_guards import is_memref_type
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.dialects.upstream import memref as upstream_memref
from xsparse.transforms.convert_to_llvm.common import (
    DYNAMIC,
    PTR,
    Descriptor,
    const,
    declare_function,
    descriptor_type,
    element_address,
    lowered,
    lowering,
    replace_with,
)
from xsparse.transforms.convert_to_llvm.memref import (
    allocation_bytes,
    allocation_call,
    identity_sizes_and_strides,
)
from xsparse.transforms.structured.lower_subset import NestEmitter
from xsparse.xdsl_adapter import IterativeRewriteWalker

INDEX = IndexType()
Access = jagged.GetOp | jagged.LoadOp | jagged.StoreOp | jagged.SizeOp | jagged.DimOp


def _jagged_type(value: SSAValue) -> JaggedBufferType:
    t = value.type
    assert isinstance(t, JaggedBufferType)
    return t


def _outer_indices(op: Access) -> Sequence[SSAValue]:
    if isinstance(op, jagged.LoadOp | jagged.StoreOp):
        return op.outer
    if isinstance(op, jagged.DimOp):
        return []
    return op.indices


def _as_view_type(value: SSAValue, t: JaggedBufferType, e: NestEmitter) -> SSAValue:
    """`value` cast to the type `jagged.get` returns, when it differs."""
    want = t.inner_view_type()
    if value.type == want:
        return value
    return e.value(upstream_memref.CastOp(value, want))


class FoldEllAccess(RewritePattern):
    """An access to an ELL view (`jagged.from_ell`) -> the same access to the
    strided memref it views (RFC: fold to dense when inner sizes are static)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Access, rewriter: PatternRewriter) -> None:
        ell = op.buffer.owner
        if not isinstance(ell, jagged.FromEllOp):
            return
        values = ell.values
        t = _jagged_type(op.buffer)
        e = NestEmitter(InsertPoint.before(op))
        outer = list(_outer_indices(op))
        inner_shape = t.inner.get_shape()
        if isinstance(op, jagged.DimOp):
            rewriter.replace(op, [], [e.size(values, op.dimension.value.data)])
        elif isinstance(op, jagged.SizeOp):
            rewriter.replace(op, [], [e.index(inner_shape[op.dimension.value.data])])
        elif isinstance(op, jagged.LoadOp):
            rewriter.replace(op, memref.LoadOp.get(values, [*outer, *op.inner]))
        elif isinstance(op, jagged.StoreOp):
            rewriter.replace(
                op, memref.StoreOp.get(op.value, values, [*outer, *op.inner])
            )
        else:
            vt = values.type
            assert is_memref_type(vt)
            n, r = len(outer), len(inner_shape)
            strides = memref_strides(vt)
            assert strides is not None
            view = memref.SubviewOp(
                values,
                outer,
                [],
                [],
                [DYNAMIC] * n + [0] * r,
                [1] * n + list(inner_shape),
                [1] * (n + r),
                strided_type(vt.element_type, inner_shape, strides[n:]),
            )
            rewriter.replace(op, [], [_as_view_type(e.value(view), t, e)])


def _segment(
    e: NestEmitter, positions: SSAValue, row: SSAValue
) -> tuple[SSAValue, SSAValue]:
    """Start and size of row `row` of a CSR view."""
    pt = positions.type
    assert is_memref_type(pt)
    lo = e.load(positions, [row])
    hi = e.load(positions, [e.add(row, e.index(1))])
    if isinstance(pt.element_type, IntegerType):
        lo = e.value(upstream_arith.IndexCastOp(lo, INDEX))
        hi = e.value(upstream_arith.IndexCastOp(hi, INDEX))
    return lo, e.sub(hi, lo)


def _csr_row(e: NestEmitter, view: jagged.FromPositionsOp, row: SSAValue) -> SSAValue:
    """Inner buffer `row` of a CSR view: a subview of the values."""
    lo, size = _segment(e, view.positions, row)
    vt = view.values.type
    assert is_memref_type(vt)
    strides = memref_strides(vt)
    assert strides is not None
    t = _jagged_type(view.result)
    sub = memref.SubviewOp(
        view.values,
        [lo],
        [size] if t.inner.get_shape()[0] == DYNAMIC else [],
        [],
        [DYNAMIC],
        [t.inner.get_shape()[0]],
        [1],
        strided_type(vt.element_type, t.inner.get_shape(), strides),
    )
    return _as_view_type(e.value(sub), t, e)


class FoldPositionsAccess(RewritePattern):
    """An access to a CSR view (`jagged.from_positions`) -> start addresses
    computed from the positions (RFC: inspector-executor, no descriptor array)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Access, rewriter: PatternRewriter) -> None:
        view = op.buffer.owner
        if not isinstance(view, jagged.FromPositionsOp):
            return
        e = NestEmitter(InsertPoint.before(op))
        if isinstance(op, jagged.DimOp):
            n = e.size(view.positions, 0)
            rewriter.replace(op, [], [e.sub(n, e.index(1))])
            return
        (row,) = _outer_indices(op)
        if isinstance(op, jagged.GetOp):
            rewriter.replace(op, [], [_csr_row(e, view, row)])
            return
        lo, size = _segment(e, view.positions, row)
        if isinstance(op, jagged.SizeOp):
            rewriter.replace(op, [], [size])
        elif isinstance(op, jagged.LoadOp):
            (k,) = op.inner
            rewriter.replace(op, memref.LoadOp.get(view.values, [e.add(lo, k)]))
        else:
            (k,) = op.inner
            rewriter.replace(
                op, memref.StoreOp.get(op.value, view.values, [e.add(lo, k)])
            )


class MaterializeView(RewritePattern):
    """A CSR or ELL view still used (set into, returned) -> the outer array of
    descriptors, each set to a subview of the values (pointer copies only)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: jagged.FromPositionsOp | jagged.FromEllOp, rewriter: PatternRewriter
    ) -> None:
        if not op.result.uses:
            rewriter.erase(op)
            return
        t = _jagged_type(op.result)
        e = NestEmitter(InsertPoint.before(op))
        if isinstance(op, jagged.FromPositionsOp):
            sizes = [e.sub(e.size(op.positions, 0), e.index(1))]
        else:
            sizes = e.sizes(op.values, range(t.get_num_dims()))
        dynamic = [s for s, d in zip(sizes, t.get_shape(), strict=True) if d == DYNAMIC]
        out = e.value(jagged.AllocOp(dynamic, t))
        with e.loops(sizes) as ivs:
            get = jagged.GetOp(op.result, ivs)
            e.op(get)
            e.op(jagged.SetOp(get.result, out, ivs))
        op.result.replace_uses_with_if(out, lambda use: use.operation is not get)
        # the get just built reads the view: fold it like any other access
        fold = (
            FoldPositionsAccess()
            if isinstance(op, jagged.FromPositionsOp)
            else FoldEllAccess()
        )
        fold.match_and_rewrite(get, rewriter)
        rewriter.erase(op)


class AccessThroughGet(RewritePattern):
    """`jagged.load/store/size` -> `jagged.get` of the inner buffer + a memref op."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: jagged.LoadOp | jagged.StoreOp | jagged.SizeOp,
        rewriter: PatternRewriter,
    ) -> None:
        if isinstance(op.buffer.owner, jagged.FromPositionsOp | jagged.FromEllOp):
            return
        e = NestEmitter(InsertPoint.before(op))
        inner = e.value(jagged.GetOp(op.buffer, list(_outer_indices(op))))
        if isinstance(op, jagged.SizeOp):
            rewriter.replace(op, [], [e.size(inner, op.dimension.value.data)])
        elif isinstance(op, jagged.LoadOp):
            rewriter.replace(op, memref.LoadOp.get(inner, op.inner))
        else:
            rewriter.replace(op, memref.StoreOp.get(op.value, inner, op.inner))


@dataclass(frozen=True)
class LowerJaggedPass(ModulePass):
    """Fold jagged views into memref accesses; reduce the rest to alloc/get/set/dim."""

    name = "lower-jagged"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        IterativeRewriteWalker(
            GreedyRewritePatternApplier(
                [FoldEllAccess(), FoldPositionsAccess(), AccessThroughGet()]
            ),
        ).rewrite_module(op)
        IterativeRewriteWalker(
            MaterializeView(), apply_recursively=False
        ).rewrite_module(op)


# ---------------------------------------------------------------------------
# jagged -> llvm (run by convert-to-llvm)
# ---------------------------------------------------------------------------


def _lowered_jagged(value: SSAValue, rewriter: PatternRewriter) -> SSAValue:
    """The outer descriptor standing for a jagged buffer value."""
    return lowered(value, rewriter)


def _outer_memref(t: JaggedBufferType) -> MemRefType[Attribute]:
    """The outer array seen as a memref of inner descriptors (for addressing)."""
    return MemRefType(t.inner, t.get_shape())


def _descriptor_bytes(t: JaggedBufferType) -> int:
    return 8 * (3 + 2 * t.inner.get_num_dims())


class JaggedAllocToLLVM(RewritePattern):
    """`jagged.alloc` -> `malloc` of the outer array of inner descriptors."""

    @lowering
    def match_and_rewrite(self, op: jagged.AllocOp, rewriter: PatternRewriter) -> None:
        t = _jagged_type(op.result)
        declare_function(op, "malloc", llvm.LLVMFunctionType([i64], PTR))
        sizes, strides, _ = identity_sizes_and_strides(
            _outer_memref(t), op.dynamic_sizes, rewriter
        )
        size = allocation_bytes(sizes, _descriptor_bytes(t), 0, rewriter)
        block = allocation_call("malloc", [size], 0, rewriter)
        desc = Descriptor.build(
            rewriter,
            len(sizes),
            block,
            block,
            const(0, rewriter),
            sizes,
            strides,
        )
        replace_with(op, [], [desc], rewriter)


class JaggedDeallocToLLVM(RewritePattern):
    """`jagged.dealloc` -> `free` of the outer array (inner buffers are not owned)."""

    @lowering
    def match_and_rewrite(
        self, op: jagged.DeallocOp, rewriter: PatternRewriter
    ) -> None:
        declare_function(op, "free", llvm.LLVMFunctionType([PTR]))
        outer = Descriptor(_lowered_jagged(op.buffer, rewriter), rewriter)
        rewriter.replace(op, llvm.CallOp("free", outer.allocated()))


def _slot(
    buffer: SSAValue, indices: Sequence[SSAValue], rewriter: PatternRewriter
) -> SSAValue:
    """Address of the inner descriptor at `indices`."""
    t = _jagged_type(buffer)
    return element_address(
        _outer_memref(t),
        _lowered_jagged(buffer, rewriter),
        [lowered(i, rewriter) for i in indices],
        rewriter,
    )


class JaggedGetToLLVM(RewritePattern):
    """`jagged.get` -> load of the inner descriptor."""

    @lowering
    def match_and_rewrite(self, op: jagged.GetOp, rewriter: PatternRewriter) -> None:
        t = _jagged_type(op.buffer)
        address = _slot(op.buffer, op.indices, rewriter)
        load = llvm.LoadOp(address, descriptor_type(t.inner.get_num_dims()))
        replace_with(op, [load], [load.dereferenced_value], rewriter)


class JaggedSetToLLVM(RewritePattern):
    """`jagged.set` -> store of the memref's descriptor (a pointer copy)."""

    @lowering
    def match_and_rewrite(self, op: jagged.SetOp, rewriter: PatternRewriter) -> None:
        address = _slot(op.buffer, op.indices, rewriter)
        rewriter.replace(op, llvm.StoreOp(lowered(op.value, rewriter), address))


class JaggedDimToLLVM(RewritePattern):
    """`jagged.dim` -> a constant or the outer descriptor's size."""

    @lowering
    def match_and_rewrite(self, op: jagged.DimOp, rewriter: PatternRewriter) -> None:
        t = _jagged_type(op.buffer)
        d = op.dimension.value.data
        static = t.get_shape()[d]
        if static != DYNAMIC_INDEX:
            value = const(static, rewriter)
        else:
            value = Descriptor(_lowered_jagged(op.buffer, rewriter), rewriter).size(d)
        replace_with(op, [], [value], rewriter)


JAGGED_PATTERNS: tuple[RewritePattern, ...] = (
    JaggedAllocToLLVM(),
    JaggedDeallocToLLVM(),
    JaggedGetToLLVM(),
    JaggedSetToLLVM(),
    JaggedDimToLLVM(),
)
