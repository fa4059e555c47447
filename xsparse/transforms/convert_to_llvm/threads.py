"""The outermost `scf.parallel` of a function -> an outlined body called on
threads (the role of MLIR's `convert-scf-to-openmp`, with xsparse's runtime
instead of OpenMP's).

The loop's body becomes a private function `@<func>.parallel.<n>(ctx, lo,
hi, chunk)` that runs iterations `lo, lo + step, ...` below `hi`; the values the body uses from
outside (memrefs as their descriptors, scalars as they are) are stored in a
struct on the stack whose address is `ctx`, after an i64 that a chunk whose
allocation failed sets (`allocation_failures`); constants and `memref.cast`s are
done again in the body instead. The loop itself becomes a call of the runtime:

    i64 xsparse_parallel_for(ptr body, ptr ctx, i64 lo, i64 hi, ptr work, i64 width,
                             i64 step)

which runs `body` on the calling thread when the loop is small (or one
thread is wanted), and otherwise splits `[lo, hi)` into chunks run by a pool
of threads (`xsparse.backend.threads`); it returns how many chunks ran.
`work`, when not null, points to a positions buffer of `width` bytes per
entry such that iteration `i` touches `work[min(i+step, hi)] - work[i]`
stored entries: a loop over the rows of a compressed level (one row per
iteration, or a block of `step` rows), which the runtime splits by entries
rather than by rows, each chunk starting at an iteration; when null, `width` is the weight of one
iteration (1 for a body without loops, 64 otherwise). Reductions
(`scf.reduce`) are computed per chunk and folded by the caller in chunk
order (`_Outliner`). Parallel loops nested in another stay sequential.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, func, llvm, memref, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    UnitAttr,
    UnrealizedConversionCastOp,
    i64,
)
from xdsl.dialects.utils.fast_math import FastMathFlag
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter

from xsparse.dialects.sparse_tensor.ops_common import constant_int
from xsparse.dialects.type_guards import is_memref_type
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.dialects.upstream import llvm as upstream_llvm
from xsparse.transforms.codegen_utils.emitter import PER_CHUNK
from xsparse.transforms.convert_to_llvm.common import (
    NO_INLINE,
    PACKED,
    PTR,
    convert_type,
    descriptor_type,
    has_identity_layout,
)
from xsparse.transforms.errors import PassFailure
from xsparse.transforms.runtime_symbols import MAX_CHUNKS, PARALLEL_FOR
from xsparse.xdsl_adapter import IterativeRewriteWalker

OUTLINED = "xsparse.parallel_body"
"""Unit attribute of an outlined loop body (its own parallel loops stay
sequential)."""

_PARALLEL_FOR_TYPE = FunctionType.from_lists(
    [PTR, PTR, IndexType(), IndexType(), PTR, i64, IndexType()], [IndexType()]
)


def defined_inside(value: SSAValue, op: Operation) -> bool:
    """Whether `value` is defined in `op`'s regions (or is its result)."""
    owner = value.owner
    parent = owner.parent_op() if isinstance(owner, Block) else owner
    return parent is not None and op.is_ancestor(parent)


def _live_ins(op: scf.ParallelOp) -> list[SSAValue]:
    """The values `op`'s body uses from outside it, in order of first use."""
    seen: dict[SSAValue, None] = {}
    for inner in op.body.walk():
        for operand in inner.operands:
            if operand not in seen and not defined_inside(operand, op):
                seen[operand] = None
    return list(seen)


def _is_constant(value: SSAValue) -> bool:
    return isinstance(value.owner, arith.ConstantOp | llvm.ConstantOp)


def _same(a: SSAValue, b: SSAValue | int) -> bool:
    """The same value, or constants of the same value (`b` an int: a
    constant of that value)."""
    if isinstance(b, int):
        return constant_int(a) == b
    return a is b or (
        constant_int(a) is not None and constant_int(a) == constant_int(b)
    )


def is_plus_step(value: SSAValue, iv: SSAValue, step: SSAValue | int) -> bool:
    """Whether `value` is `iv + step`."""
    add = value.owner
    return isinstance(add, arith.AddiOp) and any(
        a is iv and _same(b, step) for a, b in ((add.lhs, add.rhs), (add.rhs, add.lhs))
    )


def _is_next_iteration(value: SSAValue, op: scf.ParallelOp) -> bool:
    """`iv + step`, or `min(iv + step, ub)`: the start of the next iteration."""
    iv, step, upper = op.body.block.args[0], op.step[0], op.upperBound[0]
    if is_plus_step(value, iv, step):
        return True
    least = value.owner
    return isinstance(least, arith.MinSIOp | arith.MinUIOp) and any(
        is_plus_step(a, iv, step) and b is upper
        for a, b in ((least.lhs, least.rhs), (least.rhs, least.lhs))
    )


def work_positions(op: scf.ParallelOp) -> SSAValue | None:
    """A positions buffer `p` that the body reads at `p[iv]` and at the next
    iteration's start (`p[iv + 1]`; `p[min(iv + step, ub)]` for a loop over
    blocks of rows): the loop runs over the rows of a compressed level. None
    for any other loop."""
    iv = op.body.block.args[0]
    at_iv: set[SSAValue] = set()
    at_next: set[SSAValue] = set()
    for inner in op.body.block.ops:
        if not isinstance(inner, memref.LoadOp) or len(inner.indices) != 1:
            continue
        t = inner.memref.type
        if not (
            is_memref_type(t)
            and len(t.get_shape()) == 1
            and isinstance(t.element_type, IntegerType | IndexType)
            and has_identity_layout(t)
            and not defined_inside(inner.memref, op)
        ):
            continue
        index = inner.indices[0]
        if index is iv:
            at_iv.add(inner.memref)
        elif _is_next_iteration(index, op):
            at_next.add(inner.memref)
    both = [m for m in at_iv if m in at_next]
    return both[0] if both else None


def _element_width(t: MemRefType[Attribute]) -> int:
    element = t.element_type
    return 8 if isinstance(element, IndexType) else element.width.data // 8  # pyright: ignore


def _index_constant(value: int, block: Block) -> SSAValue:
    constant = arith.ConstantOp.from_int_and_width(value, IndexType())
    block.add_op(constant)
    return constant.result


def _cast(value: SSAValue, t: Attribute, block: Block) -> SSAValue:
    """`value` seen as type `t` (a cast at the end of `block` where the types
    differ): a source-level value as the llvm type a context or partial
    field holds, or a loaded field as its source-level type."""
    if value.type == t:
        return value
    cast = UnrealizedConversionCastOp.get([value], [t])
    block.add_op(cast)
    return cast.results[0]


def _field(
    base: SSAValue,
    struct: llvm.LLVMStructType,
    k: int,
    block: Block,
    at: SSAValue | None = None,
) -> SSAValue:
    """The address of field `k` of `base[at]` (`base[0]` when `at` is None)."""
    if at is None:
        gep = upstream_llvm.GEPOp(base, [0, k], struct)
    else:
        gep = upstream_llvm.GEPOp(
            base, [llvm.GEP_USE_SSA_VAL, k], struct, ssa_indices=[at]
        )
    block.add_op(gep)
    return gep.result


def _combine(
    reduce: scf.ReduceOp,
    accumulators: Sequence[SSAValue],
    operands: Sequence[SSAValue],
    block: Block,
    *,
    reassociate: bool = False,
) -> list[SSAValue]:
    """The reductions of `reduce` applied to each (accumulator, operand),
    their ops cloned at the end of `block`. `reassociate`: float sums and
    products may be regrouped (`reassoc`), so that LLVM vectorizes a chunk's
    fold; the order is still the same on every run."""
    combined: list[SSAValue] = []
    for region, acc, operand in zip(
        reduce.reductions, accumulators, operands, strict=True
    ):
        mapper: dict[SSAValue, SSAValue] = {
            region.block.args[0]: acc,
            region.block.args[1]: operand,
        }
        for inner in region.block.ops:
            if isinstance(inner, scf.ReduceReturnOp):
                combined.append(mapper.get(inner.result, inner.result))
            else:
                clone = inner.clone(mapper)
                if reassociate and isinstance(clone, arith.AddfOp | arith.MulfOp):
                    flags = {
                        FastMathFlag(getattr(f, "value", f))
                        for f in clone.fastmath.data
                    }
                    clone.fastmath = arith.FastMathFlagsAttr(
                        flags | {FastMathFlag.REASSOC}
                    )
                block.add_op(clone)
    return combined


def per_chunk_ops(block: Block) -> tuple[list[Operation], list[Operation]]:
    """The ops of a parallel loop's body marked `PER_CHUNK`: those at its
    start and those at its end, detached from it."""
    ops = list(block.ops)
    start = list(itertools.takewhile(lambda o: PER_CHUNK in o.attributes, ops))
    end = list(
        itertools.takewhile(lambda o: PER_CHUNK in o.attributes, reversed(ops[:-1]))
    )[::-1]
    for inner in [*start, *end]:
        inner.detach()
    return start, end


def _is_flat(op: scf.ParallelOp) -> bool:
    """Whether the body holds no loop (its iterations are cheap and even)."""
    return not any(
        isinstance(inner, scf.ForOp | scf.WhileOp | scf.ParallelOp)
        for inner in op.body.walk()
    )


@dataclass
class _Outliner:
    """Builds the body function of one parallel loop and the call replacing it.

    The body function is `(ctx, lo, hi, chunk)`. With reductions, it runs the
    first iteration of `[lo, hi)` alone, folds the others into its operands
    with the loop's reductions, and stores the result in `partials[chunk]`
    (a buffer of `MAX_CHUNKS` structs on the caller's stack, its address in
    the context); the caller then folds the init values and the partials of
    the chunks that ran (the runtime's result), in chunk order: the same
    bits on every run for a given split."""

    op: scf.ParallelOp
    rewriter: PatternRewriter
    name: str

    def run(self, module: ModuleOp) -> None:
        used = _live_ins(self.op)
        step = self.op.step[0]
        if step not in used:  # (the chunk's loop steps by it)
            used.append(step)
        constants = [v for v in used if _is_constant(v)]
        # A cast is redone in the body from its source (whose descriptor the
        # lowering of memref.cast keeps as it is).
        casts = [v for v in used if isinstance(v.owner, memref.CastOp)]
        live_ins = list(
            dict.fromkeys(
                [v for v in used if v not in constants and v not in casts]
                + [cast.owner.source for cast in casts]  # pyright: ignore
            )
        )
        reduce = self.op.body.block.last_op
        assert isinstance(reduce, scf.ReduceOp)
        partial_type = llvm.LLVMStructType.from_type_list(
            [convert_type(v.type) for v in self.op.initVals] or [i64]
        )
        # field 0: set by a chunk whose allocation failed (allocation_failures)
        fields = [i64] + [convert_type(v.type) for v in live_ins] + [PTR]
        context_type = llvm.LLVMStructType.from_type_list(fields)
        positions = work_positions(self.op)
        weight = 1 if _is_flat(self.op) else 64
        body = self._body_function(
            live_ins, constants + casts, context_type, partial_type, reduce
        )
        Rewriter.insert_op(body, InsertPoint.at_end(module.body.block))
        self._call(live_ins, context_type, partial_type, reduce, positions, weight)

    def _body_function(
        self,
        live_ins: list[SSAValue],
        recomputed: list[SSAValue],
        context_type: llvm.LLVMStructType,
        partial_type: llvm.LLVMStructType,
        reduce: scf.ReduceOp,
    ) -> func.FuncOp:
        entry = Block(arg_types=[PTR, IndexType(), IndexType(), IndexType()])
        context, lo, hi, chunk = entry.args
        mapping: dict[SSAValue, SSAValue] = {}
        for value in recomputed:
            constant = value.owner
            if _is_constant(value):
                assert isinstance(constant, Operation)
                clone = constant.clone()
                entry.add_op(clone)
                mapping[value] = clone.results[0]
        for k, value in enumerate(live_ins):
            load = llvm.LoadOp(
                _field(context, context_type, k + 1, entry), convert_type(value.type)
            )
            entry.add_op(load)
            mapping[value] = _cast(load.dereferenced_value, value.type, entry)
        for value in recomputed:
            cast = value.owner
            if isinstance(cast, memref.CastOp):
                clone = cast.clone(dict(mapping))
                entry.add_op(clone)
                mapping[value] = clone.results[0]
        loop_body = Block(arg_types=[IndexType(), *(v.type for v in self.op.initVals)])
        old = self.op.body.block
        old.args[0].replace_all_uses_with(loop_body.args[0])
        chunk_start, chunk_end = per_chunk_ops(old)
        for inner in list(old.ops)[:-1]:
            inner.detach()
            loop_body.add_op(inner)
        entry.add_ops(chunk_start)
        for inner in [*loop_body.walk(), *chunk_start, *chunk_end]:
            for i, operand in enumerate(inner.operands):
                if operand in mapping:
                    inner.operands[i] = mapping[operand]
        for i, operand in enumerate(reduce.operands):
            if operand in mapping:
                reduce.operands[i] = mapping[operand]
        step = mapping[self.op.step[0]]
        if not self.op.initVals:
            loop_body.add_op(scf.YieldOp())
            entry.add_op(scf.ForOp(lo, hi, step, [], loop_body))
        else:
            partials_field = _field(context, context_type, len(live_ins) + 1, entry)
            partials = llvm.LoadOp(partials_field, PTR)
            nonempty = arith.CmpiOp(lo, hi, "slt")
            entry.add_ops([partials, nonempty])
            then = Block()
            first = self._first_iteration(loop_body, lo, reduce, then)
            carried = list(loop_body.args[1:])
            operands = list(reduce.operands)
            loop_body.add_op(
                scf.YieldOp(
                    *_combine(reduce, carried, operands, loop_body, reassociate=True)
                )
            )
            second = arith.AddiOp(lo, step)
            then.add_op(second)
            rest = scf.ForOp(second, hi, step, first, loop_body)
            at = upstream_arith.IndexCastOp(chunk, i64)
            then.add_ops([rest, at])
            for j, result in enumerate(rest.results):
                address = _field(
                    partials.dereferenced_value, partial_type, j, then, at.result
                )
                then.add_op(
                    llvm.StoreOp(
                        _cast(result, convert_type(result.type), then), address
                    )
                )
            then.add_op(scf.YieldOp())
            entry.add_op(scf.IfOp(nonempty, [], Region(then)))
        entry.add_ops(chunk_end)
        entry.add_op(func.ReturnOp())
        outlined = func.FuncOp(
            self.name,
            FunctionType.from_lists(list(entry.arg_types), []),
            Region(entry),
            visibility="private",
        )
        outlined.attributes[OUTLINED] = UnitAttr()
        # The same code on the calling thread as on the pool's: inlined
        # into `xsparse_parallel_for`'s inline path, LLVM optimized some
        # bodies 10x worse (the 2:4 checker's loops over 2-bit coordinates).
        outlined.attributes[NO_INLINE] = UnitAttr()
        return outlined

    @staticmethod
    def _first_iteration(
        loop_body: Block, lo: SSAValue, reduce: scf.ReduceOp, block: Block
    ) -> list[SSAValue]:
        """The loop body's ops cloned for iteration `lo` into `block`; the
        reduction operands they give."""
        mapper: dict[SSAValue, SSAValue] = {loop_body.args[0]: lo}
        for inner in loop_body.ops:
            block.add_op(inner.clone(mapper))
        return [mapper.get(v, v) for v in reduce.operands]

    def _call(
        self,
        live_ins: list[SSAValue],
        context_type: llvm.LLVMStructType,
        partial_type: llvm.LLVMStructType,
        reduce: scf.ReduceOp,
        positions: SSAValue | None,
        weight: int,
    ) -> None:
        here = Block()
        entry = self._entry_block()
        count = arith.ConstantOp.from_int_and_width(1, 64)
        chunks = arith.ConstantOp.from_int_and_width(MAX_CHUNKS, 64)
        context = llvm.AllocaOp(count, context_type)
        partials = llvm.AllocaOp(chunks, partial_type)
        Rewriter.insert_op(
            [count, chunks, context, partials], InsertPoint.at_start(entry)
        )
        no_failure = arith.ConstantOp.from_int_and_width(0, 64)
        here.add_op(no_failure)
        stored = [no_failure.result]
        stored += [_cast(v, convert_type(v.type), here) for v in live_ins]
        stored.append(partials.res)
        for k, value in enumerate(stored):
            here.add_op(llvm.StoreOp(value, _field(context.res, context_type, k, here)))
        address = llvm.AddressOfOp(self.name, PTR)
        here.add_op(address)
        work, width = self._work_pointer(positions, weight, here)
        call = func.CallOp(
            PARALLEL_FOR,
            [
                address,
                context.res,
                self.op.lowerBound[0],
                self.op.upperBound[0],
                work,
                width,
                self.op.step[0],
            ],
            [IndexType()],
        )
        here.add_op(call)
        results = self._fold_partials(
            call.res[0], partials.res, partial_type, reduce, here
        )
        ops = list(here.ops)
        for inner in ops:
            inner.detach()
        self.rewriter.insert(ops, InsertPoint.before(self.op))
        self.rewriter.replace(self.op, [], results)

    def _fold_partials(
        self,
        count: SSAValue,
        partials: SSAValue,
        partial_type: llvm.LLVMStructType,
        reduce: scf.ReduceOp,
        block: Block,
    ) -> list[SSAValue]:
        """The init values folded with the partials of the chunks that ran."""
        inits = list(self.op.initVals)
        if not inits:
            return []
        zero, one = _index_constant(0, block), _index_constant(1, block)
        fold = Block(arg_types=[IndexType(), *(v.type for v in inits)])
        at = upstream_arith.IndexCastOp(fold.args[0], i64)
        fold.add_op(at)
        loaded: list[SSAValue] = []
        for j, value in enumerate(inits):
            load = llvm.LoadOp(
                _field(partials, partial_type, j, fold, at.result),
                convert_type(value.type),
            )
            fold.add_op(load)
            loaded.append(_cast(load.dereferenced_value, value.type, fold))
        folded = _combine(reduce, list(fold.args[1:]), loaded, fold)
        fold.add_op(scf.YieldOp(*folded))
        loop = scf.ForOp(zero, count, one, inits, fold)
        block.add_op(loop)
        return list(loop.results)

    def _entry_block(self) -> Block:
        function = self.op.parent_op()
        while not isinstance(function, func.FuncOp):
            assert function is not None
            function = function.parent_op()
        return function.body.blocks[0]

    @staticmethod
    def _work_pointer(
        positions: SSAValue | None, weight: int, block: Block
    ) -> tuple[SSAValue, SSAValue]:
        """The positions buffer that weighs the iterations and its element
        width, or null and the weight of one iteration."""
        if positions is None:
            null = llvm.ZeroOp(result_types=[PTR])
            scale = arith.ConstantOp.from_int_and_width(weight, 64)
            block.add_ops([null, scale])
            return null.res, scale.result
        t = positions.type
        assert is_memref_type(t)
        cast = UnrealizedConversionCastOp.get([positions], [descriptor_type(1)])
        aligned = llvm.ExtractValueOp(
            DenseArrayBase.from_list(i64, [1]), cast.results[0], PTR
        )
        width = arith.ConstantOp.from_int_and_width(_element_width(t), 64)
        block.add_ops([cast, aligned, width])
        return aligned.res, width.result


class OutlineParallelLoop(RewritePattern):
    """An outermost 1-d `scf.parallel` -> its body outlined, called through
    `xsparse_parallel_for`."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.counter = itertools.count()

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ParallelOp, rewriter: PatternRewriter) -> None:
        if len(op.lowerBound) != 1:
            return
        parent = op.parent_op()
        while parent is not None and not isinstance(parent, func.FuncOp):
            if isinstance(parent, scf.ParallelOp):
                return
            parent = parent.parent_op()
        if parent is None or OUTLINED in parent.attributes:
            return
        _refuse_packed_stores(op)
        name = f"{parent.sym_name.data}.parallel.{next(self.counter)}"
        _declare_runtime(self.module)
        _Outliner(op, rewriter, name).run(self.module)


def _refuse_packed_stores(loop: scf.ParallelOp) -> None:
    """A store of a packed `i2` element rewrites its whole byte (`packed`):
    threads could write neighbours in one byte at once."""
    for op in loop.walk():
        if isinstance(op, memref.StoreOp) and op.value.type == PACKED:
            raise PassFailure(
                op,
                f"into {op.memref.type} in a loop run on threads: i2 elements "
                "are packed four per byte, and a store rewrites its whole byte",
            )


def _declare_runtime(module: ModuleOp) -> None:
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == PARALLEL_FOR:
            return
    declaration = func.FuncOp.external(
        PARALLEL_FOR, _PARALLEL_FOR_TYPE.inputs.data, _PARALLEL_FOR_TYPE.outputs.data
    )
    Rewriter.insert_op(declaration, InsertPoint.at_end(module.body.block))


def outline_parallel_loops(module: ModuleOp) -> None:
    """Outline every outermost parallel loop of `module` (see the module doc)."""
    IterativeRewriteWalker(
        OutlineParallelLoop(module), apply_recursively=False
    ).rewrite_module(module)
