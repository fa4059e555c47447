"""`sparse-vectorization`: SIMD form of the innermost loops the sparsifier emits.

Mirrors MLIR 22's `-sparse-vectorization{vl=N enable-vla-vectorization=B
enable-simd-index32=B}` (SparseVectorization.cpp), with the same patterns:

- `ForOpRewriter`: a single-block `scf.for` with constant step 1 that carries
  the sparsifier's `{"Emitted from" = ...}` attribute is analysed, then
  rewritten, by the same walk (`_LoopVectorizer` with `codegen` false, then
  true). A reduction loop (one iter_arg combined by add/sub, mul, and, or or
  xor) becomes a loop over a vector accumulator, initialised by
  `vector.insert` into a zero (one) vector or by `vector.broadcast` (and/or),
  merged under the lane mask with `arith.select`, and reduced after the loop by
  `vector.reduction`. A parallel loop ending in `memref.store` keeps its body
  and gets step `vl` (times `vector.vscale` when VLA). Subscripts that are the
  loop index give `vector.maskedload`/`maskedstore`, subscripts loaded in the
  loop give `vector.gather`/`scatter` (narrow index vectors zero-extended, to
  i64 unless `enable-simd-index32`), invariants are broadcast and the loop
  index used as a value becomes `broadcast(i) + step`. Shifts vectorize by an
  amount the same in every lane only.
- `ReducChainInsertRewriter` / `ReducChainBroadcastRewriter`: a vector loop
  whose initial vector is built from the `vector.reduction` of another
  sparsifier loop starts from that loop's vector instead, so chains of loops
  (the trailing loops of a union) share one accumulator and one reduction.
- `StepToConstant`: `vector.step` of a fixed length becomes a constant, as
  MLIR's vector-step lowering does inside the pass.

The mask is all-true when the trip count is a known multiple of the vector
length, else `vector.create_mask (affine.min(step, hi - i))`. Under the
all-true mask the accesses are plain `vector.load`/`vector.store` and the
reduction needs no merge, as MLIR 22's rewrite driver folds them. Unlike
MLIR 22, `arith.divsi`/`divui` vectorize bare, with no other integer division
or remainder, nor any complex value: a masked-off lane divides by the zero
its masked load passed through, which the LLVM lowering's division guard
(numpy's `x / 0 == 0`) makes harmless.

Our sparsifier leaves in the loop body what MLIR's computes in front of the
loop: the constants (MLIR's driver hoists every constant) and the offset of a
dense level into a sparse tensor's own buffers (MLIR's LoopEmitter). Both count
as invariant and move out of the loop it vectorizes, so that the decisions are
MLIR's on MLIR's form of the same loop.

`sparse-vector-peel` (xsparse's own pass, run by the `sparsifier` pipeline
after this one) lowers that shape for speed: an unmasked vector main loop,
then a scalar epilogue (one lane of the vector body per step) or, for scalable
vectors, one masked step; the horizontal reduction is marked reassociable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.context import Context
from xdsl.dialects import affine, arith, math, memref, scf, vector
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    UnitAttr,
    VectorType,
    i1,
)
from xdsl.dialects.utils import FastMathFlag
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import (
    ConstantLike,
    IsTerminator,
    is_side_effect_free,
    is_speculatable,
)
from xdsl.transforms.dead_code_elimination import would_be_trivially_dead

from xsparse.dialects.sparse_tensor.ops_common import constant_int
from xsparse.dialects.sparse_tensor.ops_storage import ToBufferOp
from xsparse.dialects.type_guards import is_integer_type, is_vector_type
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.dialects.upstream.elementwise import ELEMENTWISE
from xsparse.dialects.upstream.vector import GatherOp, ScatterOp, StepOp, VectorScaleOp
from xsparse.transforms.codegen_utils.op_emitter import OpEmitter, OpT
from xsparse.xdsl_adapter import IterativeRewriteWalker

LOOP_ATTR = "Emitted from"
"""The attribute the sparsifier puts on the loops it emits (MLIR's LoopEmitter)."""

_UNARY_OPS: tuple[type[Operation], ...] = (
    math.AbsFOp,
    math.AbsIOp,
    math.CeilOp,
    math.FloorOp,
    math.SqrtOp,
    math.ExpM1Op,
    math.Log1pOp,
    math.SinOp,
    math.TanhOp,
    arith.NegfOp,
)
"""Unary ops whose result type is their operand's: vectorized as they are."""

_CAST_OPS: tuple[type[Operation], ...] = (
    arith.TruncFOp,
    arith.ExtFOp,
    arith.FPToSIOp,
    arith.FPToUIOp,
    arith.SIToFPOp,
    arith.UIToFPOp,
    arith.ExtSIOp,
    arith.ExtUIOp,
    arith.IndexCastOp,
    arith.TruncIOp,
    arith.BitcastOp,
)
"""Unary ops with a result type of their own: vectorized to a vector of it."""

_SHIFT_OPS: tuple[type[Operation], ...] = (arith.ShLIOp, arith.ShRUIOp, arith.ShRSIOp)

_BINARY_OPS: tuple[type[Operation], ...] = (
    arith.MulfOp,
    arith.MuliOp,
    arith.DivfOp,
    arith.DivSIOp,
    arith.DivUIOp,
    arith.AddfOp,
    arith.AddiOp,
    arith.SubfOp,
    arith.SubiOp,
    arith.AndIOp,
    arith.OrIOp,
    arith.XOrIOp,
    *_SHIFT_OPS,
)
"""Binary ops vectorized lane-wise (shifts only by a loop-invariant amount)."""

_REDUCTION_KINDS: dict[type[Operation], tuple[vector.CombiningKindFlag, bool]] = {
    # op: (combining kind, whether the iter_arg may be either operand)
    arith.AddfOp: (vector.CombiningKindFlag.ADD, True),
    arith.AddiOp: (vector.CombiningKindFlag.ADD, True),
    arith.SubfOp: (vector.CombiningKindFlag.ADD, False),
    arith.SubiOp: (vector.CombiningKindFlag.ADD, False),
    arith.MulfOp: (vector.CombiningKindFlag.MUL, True),
    arith.MuliOp: (vector.CombiningKindFlag.MUL, True),
    arith.AndIOp: (vector.CombiningKindFlag.AND, True),
    arith.OrIOp: (vector.CombiningKindFlag.OR, True),
    arith.XOrIOp: (vector.CombiningKindFlag.XOR, True),
}


@dataclass(frozen=True)
class VL:
    """Target SIMD properties (MLIR's `VL`)."""

    length: int
    """Elements per vector (`vector<16xf32>` has 16)."""
    scalable: bool = False
    """Scalable vectors (`vector<[16]xf32>`, ARM SVE): `length` times vscale lanes."""
    index32: bool = False
    """Keep 32-bit index vectors of gathers and scatters (no widening to i64)."""

    def of(self, element_type: Attribute) -> VectorType:
        """The vector type of `element_type` elements."""
        scalable = ArrayAttr([BoolAttr(self.scalable, i1)])
        return VectorType(element_type, [self.length], scalable)


def reduction_kind(
    red: SSAValue, iter_arg: SSAValue
) -> vector.CombiningKindFlag | None:
    """The combining kind of the reduction `red` of `iter_arg`, if it vectorizes."""
    owner = red.owner
    if not isinstance(owner, Operation) or type(owner) not in _REDUCTION_KINDS:
        return None
    kind, commutative = _REDUCTION_KINDS[type(owner)]
    lhs, rhs = owner.operands
    if lhs == iter_arg or (commutative and rhs == iter_arg):
        return kind
    return None


def is_sparsifier_loop(op: Operation) -> bool:
    """Whether `op` is a loop the sparsifier emitted (tagged with its attribute)."""
    return LOOP_ATTR in op.attributes


def _defined_in(value: SSAValue, block: Block) -> bool:
    owner = value.owner
    if isinstance(owner, Block):
        return owner is block
    return owner.parent_block() is block


def _is_invariant_value(value: SSAValue, block: Block) -> bool:
    """An op result that `block` does not change (MLIR's isInvariantValue).

    Defined outside `block`, or a constant in it: MLIR's rewrite driver hoists
    every constant out of the sparsifier's loops, `hoist_invariants` ours.
    """
    owner = value.owner
    if not isinstance(owner, Operation):
        return False
    return not _defined_in(value, block) or owner.has_trait(ConstantLike)


def _hoistable(op: Operation, block: Block) -> bool:
    """`op`, in `block`, is loop-invariant code that LICM would hoist: no
    region, no side effect, safe to speculate, operands from outside `block`
    or from ops of `block` hoistable themselves."""
    if op.regions or op.has_trait(IsTerminator):
        return False
    if not is_side_effect_free(op) or not is_speculatable(op):
        return False
    return all(
        not _defined_in(v, block)
        or (isinstance(v.owner, Operation) and _hoistable(v.owner, block))
        for v in op.operands
    )


def _is_storage_offset(value: SSAValue, mem: SSAValue, block: Block) -> bool:
    """`value` is the invariant offset of `mem[value + i]` as MLIR places it.

    Into a sparse tensor's own buffer, the offset is a dense level's parent
    position times its size: MLIR's LoopEmitter computes it in front of the
    loop, our sparsifier in the body (`_hoistable`, moved out by `hoist`). The
    offset into a dense operand located by a coordinate (`x[crd * 2 + i]` in
    BSR) both compute in the body: not invariant, the loop stays scalar.
    """
    if _is_invariant_value(value, block):
        return True
    owner = value.owner
    return (
        isinstance(mem.owner, ToBufferOp)
        and isinstance(owner, Operation)
        and _hoistable(owner, block)
    )


def _valid_element_type(t: Attribute) -> bool:
    return isinstance(t, IntegerType | IndexType | AnyFloat)


@dataclass
class _LoopVectorizer:
    """One analysis (`codegen` false) or rewrite (`codegen` true) of one loop.

    Both walks run the same code so that analysis and rewriting stay in sync
    (MLIR's vectorizeStmt / vectorizeExpr / vectorizeSubscripts). Not an
    `OpEmitter`: it builds vector ops (its `load`/`store` are masked vector
    accesses), and its constants, scalar or splat, are made once and hoisted
    in front of the loop.
    """

    rewriter: PatternRewriter
    loop: scf.ForOp
    vl: VL
    codegen: bool
    mask: SSAValue | None = None
    at: InsertPoint | None = None
    substitutes: dict[SSAValue, SSAValue] = field(
        default_factory=dict[SSAValue, SSAValue]
    )
    """Values replaced in the vector code (the scalar iter_arg by the vector one)."""
    constants: dict[tuple[Attribute, Attribute], SSAValue] = field(
        default_factory=dict[tuple[Attribute, Attribute], SSAValue]
    )
    """Constants made for this loop, hoisted in front of it (one per value)."""
    anchor: Operation | None = None
    """The loop in front of which invariant code goes (the new one for reductions)."""

    @property
    def block(self) -> Block:
        return self.loop.body.block

    def emit(self, op: Operation) -> Operation:
        assert self.at is not None
        self.rewriter.insert(op, self.at)
        return op

    def hoist_invariants(self) -> None:
        """Move the constants and the `scalar_read`s of the body in front of it."""
        for op in list(self.block.ops):
            if op.has_trait(ConstantLike) or (
                isinstance(op, memref.LoadOp) and self.scalar_read(op)
            ):
                op.detach()
                self.rewriter.insert(op, InsertPoint.before(self.loop))

    def hoist(self, value: SSAValue) -> None:
        """Move the ops of the body computing `value` (`_hoistable`) out of it."""
        op = value.owner
        if not isinstance(op, Operation) or not _defined_in(value, self.block):
            return
        for operand in op.operands:
            self.hoist(operand)
        op.detach()
        self.rewriter.insert(op, InsertPoint.before(self.anchor or self.loop))

    def emit_before_loop(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op, InsertPoint.before(self.anchor or self.loop))
        return op.results[0]

    def constant(
        self, attr: IntegerAttr | FloatAttr | DenseIntOrFPElementsAttr, t: Attribute
    ) -> SSAValue:
        key = (attr, t)
        if key not in self.constants:
            self.constants[key] = self.emit_before_loop(arith.ConstantOp(attr, t))
        return self.constants[key]

    def index_constant(self, value: int) -> SSAValue:
        return self.constant(IntegerAttr(value, IndexType()), IndexType())

    def splat_constant(self, vtype: VectorType, value: int | float) -> SSAValue:
        element = vtype.element_type
        attr: DenseIntOrFPElementsAttr
        if isinstance(element, IntegerType | IndexType):
            itype = cast(VectorType[IntegerType | IndexType], vtype)
            attr = DenseIntOrFPElementsAttr.from_list(itype, [int(value)])
        else:
            ftype = cast(VectorType[AnyFloat], vtype)
            attr = DenseIntOrFPElementsAttr.from_list(ftype, [float(value)])
        return self.constant(attr, vtype)

    # Statements -----------------------------------------------------------

    def statement(self) -> bool:
        """vectorizeStmt: the whole loop, a reduction or a parallel store."""
        block = self.block
        if len(block.ops) <= 1 or not _only_reads(block):
            return False
        yield_op = block.last_op
        assert isinstance(yield_op, scf.YieldOp)
        last = yield_op.prev_op
        new_loop: scf.ForOp | None = None
        if self.codegen:
            self.hoist_invariants()
            step = self.index_constant(self.vl.length)
            if self.vl.scalable:
                vscale = self.emit_before_loop(VectorScaleOp())
                step = self.emit_before_loop(arith.MuliOp(vscale, step))
            if yield_op.operands:
                init = self.loop.iter_args[0]
                vtype = self.vl.of(init.type)
                vinit = self.reduction_init(yield_op.operands[0], init, vtype)
                body = Block(arg_types=[IndexType(), vtype])
                new_loop = scf.ForOp(self.loop.lb, self.loop.ub, step, [vinit], body)
                new_loop.attributes[LOOP_ATTR] = self.loop.attributes[LOOP_ATTR]
                self.rewriter.insert(new_loop, InsertPoint.before(self.loop))
                self.anchor = new_loop
                self.at = InsertPoint.at_end(body)
                self.substitutes[self.block.args[0]] = body.args[0]
                self.substitutes[self.block.args[1]] = body.args[1]
                iv = body.args[0]
            else:
                self.loop.operands = [
                    self.loop.lb,
                    self.loop.ub,
                    step,
                    *self.loop.iter_args,
                ]
                self.rewriter.notify_op_modified(self.loop)
                self.at = InsertPoint.before(yield_op)
                iv = self.block.args[0]
            self.mask = self.vector_mask(iv, self.loop.lb, self.loop.ub, step)

        if yield_op.operands:
            if len(yield_op.operands) != 1:
                return False
            red = yield_op.operands[0]
            iter_arg = self.block.args[1]
            kind = reduction_kind(red, iter_arg)
            if kind is None:
                return False
            vrhs = self.expression(red)
            if vrhs is None:
                return False
            if self.codegen:
                assert new_loop is not None and self.mask is not None
                if not self.all_lanes:
                    viter = new_loop.body.block.args[1]
                    vrhs = self.emit(
                        upstream_arith.SelectOp(self.mask, vrhs, viter)
                    ).results[0]
                self.emit(scf.YieldOp(vrhs))
                reduction = vector.ReductionOp.create(
                    operands=[new_loop.results[0]],
                    result_types=[red.type],
                    properties={"kind": vector.CombiningKindAttr(kind)},
                )
                self.rewriter.insert(reduction, InsertPoint.after(new_loop))
                self.rewriter.replace_all_uses_with(
                    self.loop.results[0], reduction.results[0]
                )
                self.rewriter.erase(self.loop, safe_erase=False)
            return True

        if isinstance(last, memref.StoreOp):
            if not self.unit_stride(last.memref):
                return False
            idxs = self.subscripts(last.memref, last.indices)
            if idxs is None:
                return False
            vrhs = self.expression(last.value)
            if vrhs is None:
                return False
            if self.codegen:
                self.store(last.memref, idxs, vrhs)
                self.rewriter.erase(last)
                _erase_dead_ops(self.block, self.rewriter)
            return True
        assert not self.codegen, "codegen after a failed analysis"
        return False

    def reduction_init(
        self, red: SSAValue, init: SSAValue, vtype: VectorType
    ) -> SSAValue:
        """| 0 .. 0 r | (add, xor), | 1 .. 1 r | (mul) or | r .. r | (and, or)."""
        kind = reduction_kind(red, self.block.args[1])
        if kind in (vector.CombiningKindFlag.AND, vector.CombiningKindFlag.OR):
            return self.emit_before_loop(vector.BroadcastOp(init, vtype))
        neutral = 1 if kind == vector.CombiningKindFlag.MUL else 0
        base = self.splat_constant(vtype, neutral)
        return self.emit_before_loop(vector.InsertOp(init, base, [0]))

    def vector_mask(
        self, iv: SSAValue, lo: SSAValue, hi: SSAValue, step: SSAValue
    ) -> SSAValue:
        """genVectorMask: all-true for a known multiple trip count, else a prefix.

        (MLIR's rewrite driver folds the broadcast of `true` to a constant.)
        """
        mtype = self.vl.of(i1)
        lo_c, hi_c, step_c = constant_int(lo), constant_int(hi), constant_int(step)
        known = lo_c is not None and hi_c is not None and step_c is not None
        if known and (hi_c - lo_c) % step_c == 0:  # pyright: ignore[reportOperatorIssue]
            return self.splat_constant(mtype, 1)
        d0, d1, s0 = (
            AffineExpr.dimension(0),
            AffineExpr.dimension(1),
            AffineExpr.symbol(0),
        )
        first = AffineExpr.constant(step_c) if step_c is not None else s0
        bound = AffineMap(2, 1, (first, d0 - d1))
        end = self.emit(affine.MinOp([hi, iv, step], AffineMapAttr(bound)))
        return self.emit(vector.CreateMaskOp([end.results[0]], mtype)).results[0]

    @property
    def all_lanes(self) -> bool:
        """The mask is the all-true constant (a known multiple trip count)."""
        assert self.mask is not None
        return isinstance(self.mask.owner, arith.ConstantOp)

    # Memory ---------------------------------------------------------------

    def unit_stride(self, mem: SSAValue) -> bool:
        """Reject buffers whose innermost stride is a known constant other than 1.

        (A dynamic stride is accepted, as MLIR 22 does; convert-to-llvm lowers a
        contiguous vector access of a buffer with a dynamic stride to a gather.)
        """
        t = mem.type
        layout = getattr(t, "layout", None)
        get_strides = getattr(layout, "get_strides", None)
        if get_strides is None:
            return True
        strides = get_strides()
        return not strides or strides[-1] is None or strides[-1] == 1

    def load(self, mem: SSAValue, idxs: Sequence[SSAValue]) -> SSAValue:
        """genVectorLoad: a gather when the last subscript is a vector, a plain
        `vector.load` under the all-true mask (as MLIR's driver folds it)."""
        vtype = self.vl.of(mem.type.element_type)  # pyright: ignore[reportUnknownArgumentType, reportAttributeAccessIssue]
        assert self.mask is not None
        if self.all_lanes and not is_vector_type(idxs[-1].type):
            return self.emit(vector.LoadOp(mem, idxs, vtype)).results[0]
        zero = self.splat_constant(vtype, 0)
        if is_vector_type(idxs[-1].type):
            base = [*idxs[:-1], self.index_constant(0)]
            op: Operation = GatherOp(mem, base, idxs[-1], self.mask, zero)
        else:
            op = vector.MaskedLoadOp(mem, idxs, self.mask, zero, vtype)
        return self.emit(op).results[0]

    def scalar_read(self, load: memref.LoadOp) -> bool:
        """`load` reads a 0-d buffer (a scalar tensor operand) that the loop
        uses nowhere else: loop-invariant, read in front of the loop (where
        MLIR's sparsifier reads it) and broadcast."""
        return not load.indices and not any(
            use.operation is not load and self.loop.is_ancestor(use.operation)
            for use in load.memref.uses
        )

    def uniform(self, value: SSAValue) -> bool:
        """`value` is the same in every lane: a shift amount that vectorizes
        (MLIR's shift-by-invariant rule, with our sparsifier's scalar reads)."""
        load = value.owner
        if isinstance(load, memref.LoadOp) and self.scalar_read(load):
            return True
        return _is_invariant_value(value, self.block)

    def store(self, mem: SSAValue, idxs: Sequence[SSAValue], value: SSAValue) -> None:
        """genVectorStore: a scatter when the last subscript is a vector, a plain
        `vector.store` under the all-true mask."""
        assert self.mask is not None
        if is_vector_type(idxs[-1].type):
            base = [*idxs[:-1], self.index_constant(0)]
            self.emit(ScatterOp(mem, base, idxs[-1], self.mask, value))
        elif self.all_lanes:
            self.emit(vector.StoreOp(value, mem, idxs))
        else:
            self.emit(vector.MaskedStoreOp(mem, idxs, self.mask, value))

    def subscripts(
        self, mem: SSAValue, subs: Sequence[SSAValue]
    ) -> list[SSAValue] | None:
        """vectorizeSubscripts: the subscripts of a vector access to `mem`, or None."""
        block = self.block
        if not subs:
            return None  # a 0-d buffer: no lane dimension
        idxs: list[SSAValue] = []
        for d, sub in enumerate(subs):
            innermost = d == len(subs) - 1
            if _is_invariant_value(sub, block):
                # a[inv][i]: invariant outer subscripts pass through.
                if innermost:
                    return None
                idxs.append(sub)
                continue
            if isinstance(sub, BlockArgument):
                # a[i][j]: outer loop indices outside, this loop's index innermost.
                if (sub.block is not block) == innermost:
                    return None
                idxs.append(self.substitutes.get(sub, sub))
                continue
            cast = sub
            while isinstance(cast.owner, arith.IndexCastOp | arith.ExtUIOp):
                cast = cast.owner.input
            if isinstance(cast.owner, memref.LoadOp):
                # a[ind[i]]: an index vector, zero-extended when narrow.
                load = cast.owner
                if not innermost or not self.unit_stride(load.memref):
                    return None
                inner = self.subscripts(load.memref, load.indices)
                if inner is None:
                    return None
                if self.codegen:
                    vindex = self.load(load.memref, inner)
                    idxs.append(self.widen_index(vindex))
                else:
                    idxs.append(sub)
                continue
            if isinstance(cast.owner, arith.AddiOp):
                # a[inv + i] (after LICM).
                inv, idx = cast.owner.lhs, cast.owner.rhs
                if not _is_storage_offset(inv, mem, block):
                    inv, idx = idx, inv
                if (
                    _is_storage_offset(inv, mem, block)
                    and isinstance(idx, BlockArgument)
                    and idx.block is block
                    and innermost
                ):
                    if self.codegen:
                        self.hoist(inv)
                        add = arith.AddiOp(inv, self.substitutes.get(idx, idx))
                        idxs.append(self.emit(add).results[0])
                    else:
                        idxs.append(sub)
                    continue
            return None
        return idxs

    def widen_index(self, vindex: SSAValue) -> SSAValue:
        """Zero-extend index vectors narrower than 32 (or 64) bits."""
        vtype = vindex.type
        assert is_vector_type(vtype)
        element = vtype.element_type
        if is_integer_type(element):
            width = element.width.data
            target: int | None = None
            if width < 32:
                target = 32
            elif width < 64 and not self.vl.index32:
                target = 64
            if target is not None:
                # xDSL types `target_type` as a scalar; MLIR allows vectors.
                ext = upstream_arith.ExtUIOp(
                    vindex,
                    self.vl.of(IntegerType(target)),  # pyright: ignore[reportArgumentType]
                )
                return self.emit(ext).results[0]
        return vindex

    # Expressions ----------------------------------------------------------

    def invariant(self, value: SSAValue) -> SSAValue:
        """genVectorInvariantValue: a broadcast, or a splat for a constant.

        (MLIR's rewrite driver folds the broadcast of a constant into a splat
        constant: `x / 3` divides by `dense<3>` in its output.)
        """
        if value in self.substitutes:
            return self.substitutes[value]
        vtype = self.vl.of(value.type)
        owner = value.owner
        if isinstance(owner, arith.ConstantOp) and isinstance(
            owner.value, IntegerAttr | FloatAttr
        ):
            return self.splat_constant(vtype, owner.value.value.data)
        return self.emit(vector.BroadcastOp(value, vtype)).results[0]

    def expression(self, exp: SSAValue) -> SSAValue | None:
        """vectorizeExpr: the vector form of `exp` (analysis: `exp` itself), or None."""
        if not _valid_element_type(exp.type):
            return None
        block = self.block
        if isinstance(exp, BlockArgument):
            if exp.block is block and exp.index == 0:
                # The loop index as a value: [i, i+1, ...].
                if not self.codegen:
                    return exp
                vtype = self.vl.of(exp.type)
                iv = self.substitutes.get(exp, exp)
                splat = self.emit(vector.BroadcastOp(iv, vtype)).results[0]
                step = self.emit(StepOp(vtype)).results[0]
                return self.emit(arith.AddiOp(splat, step)).results[0]
            # An invariant or the reduction: a broadcast (or the vector iter_arg).
            return self.invariant(exp) if self.codegen else exp
        def_op = exp.owner
        assert isinstance(def_op, Operation)
        if _is_invariant_value(exp, block):
            return self.invariant(exp) if self.codegen else exp
        if isinstance(def_op, memref.LoadOp):
            if not def_op.indices:
                # Hoisted, then broadcast, by the rewrite (`hoist_invariants`).
                return exp if self.scalar_read(def_op) else None
            if not self.unit_stride(def_op.memref):
                return None
            idxs = self.subscripts(def_op.memref, def_op.indices)
            if idxs is None:
                return None
            return self.load(def_op.memref, idxs) if self.codegen else exp
        operands = def_op.operands
        if len(operands) == 1 and isinstance(def_op, _UNARY_OPS + _CAST_OPS):
            vx = self.expression(operands[0])
            if vx is None:
                return None
            return self.clone_lanewise(def_op, [vx]) if self.codegen else exp
        if len(operands) == 2 and isinstance(def_op, _BINARY_OPS):
            if isinstance(def_op, _SHIFT_OPS) and not self.uniform(operands[1]):
                return None
            vx = self.expression(operands[0])
            vy = self.expression(operands[1]) if vx is not None else None
            if vx is None or vy is None:
                return None
            return self.clone_lanewise(def_op, [vx, vy]) if self.codegen else exp
        return None

    def clone_lanewise(self, op: Operation, operands: list[SSAValue]) -> SSAValue:
        """`op` on vectors: same kind, properties and attributes, vector result."""
        # A cast of xDSL's class (built by one of xDSL's patterns) is
        # element-wise only as xsparse's subclass.
        op_type = ELEMENTWISE.get(type(op), type(op))
        new = op_type.create(
            operands=operands,
            result_types=[self.vl.of(op.results[0].type)],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        return self.emit(new).results[0]


def _only_reads(block: Block) -> bool:
    """The body writes nothing but (maybe) its last op, a `memref.store`.

    The vector code replaces the whole body of a reduction loop and the final
    store of a parallel loop; anything else with a side effect would be lost
    or run once per vector. (MLIR relies on the sparsifier never emitting it.)
    """
    ops = list(block.ops)[:-1]
    if ops and isinstance(ops[-1], memref.StoreOp):
        ops.pop()
    return all(_removable(op) for op in ops)


def _removable(op: Operation) -> bool:
    """No effect but its results (xDSL 0.74 misses `Pure` on some arith casts)."""
    vectorizable = (
        memref.LoadOp,
        arith.ConstantOp,
        *_UNARY_OPS,
        *_CAST_OPS,
        *_BINARY_OPS,
    )
    return isinstance(op, vectorizable) or would_be_trivially_dead(op)


def _used(op: Operation) -> bool:
    return any(result.uses for result in op.results)


def _erase_dead_ops(block: Block, rewriter: PatternRewriter) -> None:
    """Erase the scalar ops that the vector code left without users."""
    changed = True
    while changed:
        changed = False
        for op in reversed(list(block.ops)):
            if op is not block.last_op and not _used(op) and _removable(op):
                rewriter.erase(op)
                changed = True


@dataclass
class ForOpRewriter(RewritePattern):
    """Vectorizes a unit-stride sparsifier `scf.for` (analysis, then rewrite)."""

    vl: VL

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        if len(op.body.blocks) != 1 or constant_int(op.step) != 1:
            return
        if not is_sparsifier_loop(op):
            return
        if _LoopVectorizer(rewriter, op, self.vl, codegen=False).statement():
            _LoopVectorizer(rewriter, op, self.vl, codegen=True).statement()


def _is_splat(value: SSAValue, expected: float) -> bool:
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp):
        return False
    attr = owner.value
    if not isinstance(attr, DenseIntOrFPElementsAttr):
        return False
    values = attr.get_values()
    return all(v == expected for v in values)


def _chained_reduction(value: SSAValue) -> vector.ReductionOp | None:
    """The `vector.reduction` of a sparsifier loop's vector that defines `value`."""
    red = value.owner
    if not isinstance(red, vector.ReductionOp) or red.acc is not None:
        return None
    loop = red.vector.owner
    if isinstance(loop, scf.ForOp) and is_sparsifier_loop(loop):
        return red
    return None


def _loop_kind(loop: scf.ForOp, position: int) -> vector.CombiningKindFlag | None:
    """The combining kind of a vector reduction loop's iter_arg `position`."""
    yielded = loop.body.block.last_op
    if not isinstance(yielded, scf.YieldOp):
        return None
    merged = yielded.operands[position].owner
    if not isinstance(merged, arith.SelectOp):
        return None
    return reduction_kind(merged.lhs, loop.body.block.args[1 + position])


def _feeds_same_kind(value: SSAValue, kind: vector.CombiningKindFlag) -> bool:
    """`value` only initialises sparsifier vector loops that reduce by `kind`.

    (MLIR's rewriters do not check this; chaining an add loop into an xor loop,
    or an and loop into an or loop, would change the result.)
    """
    for use in value.uses:
        loop = use.operation
        if not isinstance(loop, scf.ForOp) or not is_sparsifier_loop(loop):
            return False
        position = use.index - 3  # lb, ub, step, then iter_args
        if position < 0 or _loop_kind(loop, position) != kind:
            return False
    return bool(value.uses)


def _replace_chain(
    op: Operation, red: vector.ReductionOp, rewriter: PatternRewriter
) -> None:
    rewriter.replace(op, [], [red.vector])
    if not red.results[0].uses:
        rewriter.erase(red)


class ReducChainInsertRewriter(RewritePattern):
    """`v = for {..}; s = reduction(v); u = insert(s, 0..0) ; for (u)` -> `for (v)`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.InsertOp, rewriter: PatternRewriter) -> None:
        red = _chained_reduction(op.source)
        if red is None or op.result.type != red.vector.type:
            return
        if op.dynamic_position or tuple(op.static_position.get_values()) != (0,):
            return
        kind = red.kind.data
        neutral = {
            vector.CombiningKindFlag.ADD: 0,
            vector.CombiningKindFlag.XOR: 0,
            vector.CombiningKindFlag.MUL: 1,
        }.get(kind)
        if neutral is None or not _is_splat(op.dest, neutral):
            return
        if not _feeds_same_kind(op.result, kind):
            return
        _replace_chain(op, red, rewriter)


class ReducChainBroadcastRewriter(RewritePattern):
    """`v = for {..}; s = reduction(v); u = broadcast(s); for (u)` -> `for (v)`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.BroadcastOp, rewriter: PatternRewriter
    ) -> None:
        red = _chained_reduction(op.source)
        if red is None or op.vector.type != red.vector.type:
            return
        kind = red.kind.data
        if kind not in (vector.CombiningKindFlag.AND, vector.CombiningKindFlag.OR):
            return
        if not _feeds_same_kind(op.vector, kind):
            return
        _replace_chain(op, red, rewriter)


class StepToConstant(RewritePattern):
    """`vector.step : vector<Nxindex>` -> `arith.constant dense<[0, .., N-1]>`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: StepOp, rewriter: PatternRewriter) -> None:
        vtype = op.result.type
        assert is_vector_type(vtype)
        if vtype.get_num_scalable_dims():
            return
        (n,) = vtype.get_shape()
        itype = cast(VectorType[IndexType], vtype)  # vector.step yields indices
        attr = DenseIntOrFPElementsAttr.from_list(itype, list(range(n)))
        rewriter.replace(op, arith.ConstantOp(attr, vtype))


def vectorization_patterns(vl: VL) -> list[RewritePattern]:
    """MLIR's populateSparseVectorizationPatterns."""
    return [
        StepToConstant(),
        ForOpRewriter(vl),
        ReducChainInsertRewriter(),
        ReducChainBroadcastRewriter(),
    ]


@dataclass(frozen=True)
class SparseVectorizationPass(ModulePass):
    """MLIR's `sparse-vectorization`."""

    name = "sparse-vectorization"

    vl: int = 1
    enable_vla_vectorization: bool = False
    enable_simd_index32: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.vl < 1:
            raise ValueError("sparse-vectorization: vl must be positive")
        vl = VL(self.vl, self.enable_vla_vectorization, self.enable_simd_index32)
        IterativeRewriteWalker(
            GreedyRewritePatternApplier(vectorization_patterns(vl)),
            apply_recursively=True,
        ).rewrite_module(op)


def _mask_of_loop(loop: scf.ForOp) -> vector.CreateMaskOp | None:
    """The `create_mask(affine.min(step, hi - iv))` that ForOpRewriter put in `loop`."""
    block = loop.body.block
    for op in block.ops:
        if not isinstance(op, vector.CreateMaskOp) or len(op.mask_dim_sizes) != 1:
            continue
        bound = op.mask_dim_sizes[0].owner
        if (
            isinstance(bound, affine.MinOp)
            and len(bound.arguments) == 3
            and bound.arguments[0] == loop.ub
            and bound.arguments[1] == block.args[0]
            and bound.arguments[2] == loop.step
        ):
            return op
    return None


class _CannotScalarize(Exception):
    pass


@dataclass
class _Scalarizer(OpEmitter):
    """One lane of a vector loop body as scalar code (the loop's scalar epilogue).

    Knows the ops ForOpRewriter emits: masks vanish (the lane is on), masked
    loads and gathers become `memref.load`, masked stores and scatters
    `memref.store`, broadcasts their scalar, constants their lane 0, lane-wise
    ops their scalar op.
    """

    block: Block
    mapping: dict[SSAValue, SSAValue] = field(default_factory=dict[SSAValue, SSAValue])
    masks: set[SSAValue] = field(default_factory=set[SSAValue])
    ops: list[Operation] = field(default_factory=list[Operation])

    def op(self, op: OpT) -> OpT:
        """Append `op` to the lane's ops (inserted by the caller)."""
        self.ops.append(op)
        return op

    def lane(self, value: SSAValue) -> SSAValue:
        if value in self.mapping:
            return self.mapping[value]
        if not is_vector_type(value.type):
            if _defined_in(value, self.block):
                raise _CannotScalarize
            return value
        owner = value.owner
        if isinstance(owner, arith.ConstantOp) and isinstance(
            owner.value, DenseIntOrFPElementsAttr
        ):
            element = value.type.element_type
            # No complex vectors here: the lane is an int or a float.
            first = cast(int | float, owner.value.get_values()[0])
            attr: Attribute = (
                IntegerAttr(int(first), element)
                if is_integer_type(element) or isinstance(element, IndexType)
                else FloatAttr(float(first), element)  # pyright: ignore[reportCallIssue, reportArgumentType]
            )
            return self.value(arith.ConstantOp(attr, element))
        raise _CannotScalarize

    def subscripts(self, indices: Sequence[SSAValue], last: SSAValue) -> list[SSAValue]:
        idxs = [self.lane(i) for i in indices]
        offset = self.to_index(self.lane(last))
        if constant_int(idxs[-1]) != 0:
            offset = self.add(idxs[-1], offset)
        return [*idxs[:-1], offset]

    def run(self) -> list[Operation]:
        """The scalar ops of one lane (ending with the scalar `scf.yield`)."""
        for op in self.block.ops:
            self.scalarize(op)
        return self.ops

    def scalarize(self, op: Operation) -> None:
        if isinstance(op, scf.YieldOp):
            self.op(scf.YieldOp(*(self.lane(v) for v in op.operands)))
        elif isinstance(op, affine.MinOp):
            pass
        elif isinstance(op, vector.CreateMaskOp):
            self.masks.add(op.results[0])
        elif isinstance(op, arith.ConstantOp) and op.result.type == self.vl_mask(op):
            self.masks.add(op.result)
        elif isinstance(op, arith.ConstantOp) and is_vector_type(op.result.type):
            pass  # its lane 0 is made where it is used (`lane`)
        elif isinstance(op, vector.BroadcastOp):
            self.mapping[op.vector] = self.lane(op.source)
        elif isinstance(op, StepOp):
            self.mapping[op.result] = self.index(0)
        elif isinstance(op, vector.MaskedLoadOp):
            idxs = [self.lane(i) for i in op.indices]
            self.mapping[op.result] = self.load(op.base, idxs)
        elif isinstance(op, GatherOp):
            idxs = self.subscripts(op.indices, op.index_vec)
            self.mapping[op.result] = self.load(op.base, idxs)
        elif isinstance(op, vector.MaskedStoreOp):
            idxs = [self.lane(i) for i in op.indices]
            self.store(self.lane(op.value_to_store), op.base, idxs)
        elif isinstance(op, ScatterOp):
            idxs = self.subscripts(op.indices, op.index_vec)
            self.store(self.lane(op.value_to_store), op.base, idxs)
        elif isinstance(op, arith.SelectOp) and op.cond in self.masks:
            self.mapping[op.result] = self.lane(op.lhs)
        elif isinstance(op, _UNARY_OPS + _CAST_OPS + _BINARY_OPS + (arith.SelectOp,)):
            result = op.results[0]
            t = result.type
            new = type(op).create(
                operands=[self.lane(v) for v in op.operands],
                result_types=[t.element_type if is_vector_type(t) else t],
                properties=dict(op.properties),
                attributes=dict(op.attributes),
            )
            self.mapping[result] = self.value(new)
        else:
            raise _CannotScalarize

    @staticmethod
    def vl_mask(op: arith.ConstantOp) -> Attribute | None:
        t = op.result.type
        if is_vector_type(t) and t.element_type == i1:
            return t
        return None


def _scalar_epilogue(
    loop: scf.ForOp, start: SSAValue, inits: Sequence[SSAValue]
) -> scf.ForOp | None:
    """`for i = start to hi step 1` running one lane of `loop`'s body per step."""
    block = loop.body.block
    body = Block(arg_types=[IndexType(), *(v.type for v in inits)])
    scalarizer = _Scalarizer(block)
    scalarizer.mapping[block.args[0]] = body.args[0]
    for vector_arg, scalar_arg in zip(block.args[1:], body.args[1:], strict=True):
        scalarizer.mapping[vector_arg] = scalar_arg
    try:
        ops = scalarizer.run()
    except _CannotScalarize:
        for op in reversed(scalarizer.ops):  # built, never inserted: drop their uses
            op.erase(safe_erase=False)
        return None
    body.add_ops(ops)
    one = arith.ConstantOp(IntegerAttr(1, IndexType()))
    epilogue = scf.ForOp(start, loop.ub, one.result, list(inits), body)
    epilogue.attributes["xsparse.epilogue"] = UnitAttr()
    return epilogue


class PeelVectorLoop(RewritePattern):
    """Splits a masked vector loop into an unmasked main loop and one masked step.

    `for i = lo to hi step vl { m = create_mask(min(vl, hi - i)) ... }` becomes
    `for i = lo to hi - (hi - lo) % vl step vl { m = true ... }` followed by
    `if (hi' < hi) { m = create_mask(hi - hi') ... }` on the loop's results, so
    that LLVM sees plain vector loads, stores and adds in the hot loop.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        if not is_sparsifier_loop(op) or len(op.body.blocks) != 1:
            return
        mask = _mask_of_loop(op)
        if mask is None:
            return
        before = InsertPoint.before(op)
        span = rewriter.insert(arith.SubiOp(op.ub, op.lb), before)
        rest = rewriter.insert(arith.RemSIOp(span.result, op.step), before)
        main_hi = rewriter.insert(arith.SubiOp(op.ub, rest.result), before)
        if not self.scalar_epilogue(op, main_hi.result, rewriter):
            self.masked_remainder(op, main_hi.result, rewriter)
        # The main loop: up to hi', all lanes on.
        op.operands = [op.lb, main_hi.result, op.step, *op.iter_args]
        mtype = mask.mask_vector.type
        assert is_vector_type(mtype)
        true = DenseIntOrFPElementsAttr.from_list(
            cast(VectorType[IntegerType], mtype),
            [1],  # a mask: vector of i1
        )
        bound = mask.mask_dim_sizes[0].owner
        rewriter.replace(mask, arith.ConstantOp(true, mtype))
        if isinstance(bound, Operation) and not bound.results[0].uses:
            rewriter.erase(bound)
        rewriter.notify_op_modified(op)

    @staticmethod
    def scalar_epilogue(
        op: scf.ForOp, main_hi: SSAValue, rewriter: PatternRewriter
    ) -> bool:
        """A scalar loop after the vector one (fixed-length vectors only).

        For a reduction, the loop's vector must feed one `vector.reduction`,
        whose scalar then starts the epilogue.
        """
        for inner in op.body.block.ops:
            for value in inner.results:
                t = value.type
                if is_vector_type(t) and t.get_num_scalable_dims():
                    return False
        if _mask_of_loop(op) is None:
            return False
        if not op.results:
            epilogue = _scalar_epilogue(op, main_hi, [])
            if epilogue is None:
                return False
            rewriter.insert(epilogue, InsertPoint.after(op))
            rewriter.insert(epilogue.step.owner, InsertPoint.before(epilogue))  # pyright: ignore[reportArgumentType]
            return True
        if len(op.results) != 1:
            return False
        uses = list(op.results[0].uses)
        if len(uses) != 1 or not isinstance(uses[0].operation, vector.ReductionOp):
            return False
        red = uses[0].operation
        if red.acc is not None:
            return False
        epilogue = _scalar_epilogue(op, main_hi, [red.results[0]])
        if epilogue is None:
            return False
        rewriter.insert(epilogue, InsertPoint.after(red))
        rewriter.insert(epilogue.step.owner, InsertPoint.before(epilogue))  # pyright: ignore[reportArgumentType]
        red.results[0].replace_uses_with_if(
            epilogue.results[0], lambda use: use.operation is not epilogue
        )
        return True

    @staticmethod
    def masked_remainder(
        op: scf.ForOp, main_hi: SSAValue, rewriter: PatternRewriter
    ) -> None:
        """One masked step at i = hi' on the main loop's results."""
        block = op.body.block
        mapping: dict[SSAValue, SSAValue] = {block.args[0]: main_hi}
        for arg, result in zip(block.args[1:], op.results, strict=True):
            mapping[arg] = result
        then_block = Block()
        for body_op in block.ops:
            if isinstance(body_op, scf.YieldOp):
                then_block.add_op(
                    scf.YieldOp(*(mapping.get(v, v) for v in body_op.operands))
                )
            else:
                then_block.add_op(body_op.clone(value_mapper=mapping))
        has_rest = arith.CmpiOp(main_hi, op.ub, "slt")
        else_block = Block([scf.YieldOp(*op.results)])
        remainder = scf.IfOp(
            has_rest.result, [r.type for r in op.results], [then_block], [else_block]
        )
        after = InsertPoint.after(op)
        rewriter.insert(has_rest, after)
        rewriter.insert(remainder, InsertPoint.after(has_rest))
        for result, final in zip(op.results, remainder.results, strict=True):
            result.replace_uses_with_if(
                final,
                lambda use: (
                    use.operation.parent_op() is not remainder
                    and not _inside(use.operation, remainder)
                ),
            )


def _inside(op: Operation, ancestor: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if parent is ancestor:
            return True
        parent = parent.parent_op()
    return False


def _from_sparsifier_loop(value: SSAValue) -> bool:
    """`value` is a result of a sparsifier loop, or of the remainder after one."""
    owner = value.owner
    if isinstance(owner, scf.ForOp):
        return is_sparsifier_loop(owner)
    if isinstance(owner, scf.IfOp) and isinstance(value, OpResult):
        else_yield = owner.false_region.block.last_op
        if isinstance(else_yield, scf.YieldOp):
            return _from_sparsifier_loop(else_yield.operands[value.index])
    return False


def mark_reassociable(op: vector.ReductionOp, rewriter: PatternRewriter) -> None:
    """Adds `reassoc` to the reduction's fast-math flags, unless implied."""
    flags = op.fastmath.data
    if "reassoc" not in flags and "fast" not in flags:
        op.fastmath = FastMathFlagsAttr([*flags, FastMathFlag.REASSOC])
        rewriter.notify_op_modified(op)


class ReassociateLoopReduction(RewritePattern):
    """Marks the final `vector.reduction` of a vector loop `fastmath<reassoc>`.

    The vector loop has already summed its lanes apart, so the horizontal
    reduction may run as a tree (convert-to-llvm then emits log2(vl) shuffles
    instead of vl dependent scalar adds).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.ReductionOp, rewriter: PatternRewriter
    ) -> None:
        if _from_sparsifier_loop(op.vector):
            mark_reassociable(op, rewriter)


class ReassociateFloatReduction(RewritePattern):
    """Marks every float `add`/`mul` `vector.reduction` `fastmath<reassoc>`:
    the `reassociate-fp-reductions` option of MLIR's pipeline (its
    convert-vector-to-llvm then reduces a vector as a tree)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.ReductionOp, rewriter: PatternRewriter
    ) -> None:
        if op.kind.data.value in ("add", "mul") and isinstance(op.dest.type, AnyFloat):
            mark_reassociable(op, rewriter)


@dataclass(frozen=True)
class ReassociateFPReductionsPass(ModulePass):
    """MLIR's `reassociate-fp-reductions` (an option of its pipeline and of
    convert-vector-to-llvm), as a pass of its own before xsparse's lowering."""

    name = "reassociate-fp-reductions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        IterativeRewriteWalker(ReassociateFloatReduction()).rewrite_module(op)


@dataclass(frozen=True)
class SparseVectorPeelPass(ModulePass):
    """xsparse's `sparse-vector-peel`: unmasked main loops for `sparse-vectorization`."""

    name = "sparse-vector-peel"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        IterativeRewriteWalker(
            GreedyRewritePatternApplier([PeelVectorLoop(), ReassociateLoopReduction()]),
            apply_recursively=False,
        ).rewrite_module(op)


__all__ = [
    "VL",
    "ForOpRewriter",
    "ReducChainBroadcastRewriter",
    "ReducChainInsertRewriter",
    "PeelVectorLoop",
    "ReassociateFPReductionsPass",
    "ReassociateLoopReduction",
    "SparseVectorPeelPass",
    "SparseVectorizationPass",
    "StepToConstant",
]
