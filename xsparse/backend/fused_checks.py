"""The range check of coordinates a kernel only gathers with, done inside
the kernel instead of in a pass of its own before it.

A kernel such as SpMV reads x at each stored coordinate j of A. A separate
checker reads every coordinate once more before the kernel (4-8 bytes per
entry where the kernel reads 12-16): at memory speed that is a fifth to a
third of the kernel's time. Here, a loop that loads such coordinates at
its induction variable (SpMV's loop over a row) is preceded by a loop of its
own over the same positions folding the largest coordinate (vectorized by
LLVM; the coordinates are then in the cache for the loop that gathers), and
runs over no position when one is out of range:

    most = max(coordinates[lo:hi])
    bad  = most > limit - 1
    for p in lo .. (bad ? lo : hi): ...     the gathering loop, unchanged

Where that loop runs over one row, `pos[i] .. pos[i+1]`, of a loop over rows
at the function's top (SpMV's), the rows are taken in blocks of about
`BLOCK_ENTRIES` stored entries and the check is made once per block, over
the block's coordinates `pos[b] .. pos[e]` (contiguous: the positions have
been checked), before its rows run:

    for b in L .. H step B:                  (parallel as the row loop was)
        e = min(b + B, H)
        bad = max(coordinates[pos[b]:pos[e]]) > limit - 1
        for i in b .. (bad ? b : e): ...     the rows, unchanged

A check per row costs a short loop per row (its exit mispredicted, about as
much as the row's own loop for rows of ten entries: 10-20% of SpMV); per
block it is one long vectorized loop, which also brings the block's
coordinates into the cache ahead of the gathers (measured: SpMV with the
check faster than without any).

Any other load of such a coordinate (a `vector.load`/`vector.maskedload`,
or a scalar load at another position) is followed by

    safe = minui(j, limit - 1)       every use of j reads `safe` instead
    bad  = j > limit - 1             (`vector.reduction <maxui>` for a vector)

Either way no access leaves the gathered buffer whatever the data (memory
safety does not depend on the check), and `bad` is carried out of the loops
around the load or the guarded loop (an `i1` iter_arg of `scf.for`, a
result of `scf.if`, an `or` reduction of `scf.parallel`: per chunk on
threads, folded after them) to the function's end, where a set flag reports
through `xsparse_runtime_error` (the Python caller raises it as a ValueError
naming the argument).

The coordinates have been read while the kernel ran: its in-place outputs
hold whatever it computed with the clamped ones or without the bad rows,
unless it puts them back itself (`restore_outputs_on_failure`: a kernel
that writes each output row by row in one loop saves each row into a
`SCRATCH` buffer as it starts it). So the kernel's checked
entry keeps the full checker first, and the entry that relies on this check
(`Kernel` calls it when no output holds data of the caller's: results it
allocates, or outputs the caller declared scratch) runs a checker without the
range pass. A load under an op this does not know how to carry a value out
of (`scf.while`, unstructured control flow) leaves the coordinates to the
separate checker.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import cast

from xdsl.dialects import arith, func, memref, scf, vector
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    UnitAttr,
    i1,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue, Use
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from xsparse.dialects.sparse_tensor.ops_common import constant_int
from xsparse.dialects.type_guards import is_vector_type
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.dialects.upstream import scf as upstream_scf
from xsparse.dialects.upstream import vector as upstream_vector
from xsparse.transforms.codegen_utils.emitter import SCRATCH, Emitter
from xsparse.transforms.convert_to_llvm.threads import defined_inside, is_plus_step

COORDINATE_LOADS = (memref.LoadOp, vector.LoadOp, vector.MaskedLoadOp)
"""The ops that read a coordinates buffer in a kernel, scalar or vector."""

_READS = (*COORDINATE_LOADS, upstream_vector.GatherOp, memref.DimOp)
"""Ops that only read the buffer they are given; any other use of a buffer
(a store, a copy, a view, a call) may write it."""

_CARRIERS = (scf.ForOp, scf.IfOp, scf.ParallelOp, scf.WhileOp)
"""The ops a flag is carried out of."""

_CASTS = (arith.ExtUIOp, arith.IndexCastOp, upstream_arith.IndexCastUIOp)
"""The conversions between a loaded position and a loop bound."""

BLOCK_ENTRIES = 2048
"""Stored entries per block of rows checked at once (8 KiB of 32-bit
coordinates: in the first-level cache when the rows gather with them)."""

MAX_BLOCK_ROWS = 1024
"""The most rows in a block (blocks of sparse rows stay short enough to
balance across threads)."""

BLOCKED_ROWS = "xsparse.blocked_rows"
"""Marks the loop over the rows of one block (`_guard_blocks`)."""


def fuse_range_check(
    module: ModuleOp,
    function: func.FuncOp,
    coordinates: BlockArgument,
    limit: BlockArgument,
    message: str,
) -> SSAValue | None:
    """Check the range of the coordinates buffer `coordinates` (an argument
    of `function`, read only by loads whose values are gathered with) where
    the function loads it: each loaded coordinate is clamped below `limit`
    (an index argument), and the function reports `message` when one was
    not. The `i1` that says so, at the function's end; None, with nothing
    changed, where a load is under an op a flag cannot be carried out of."""
    loads = [use.operation for use in buffer_uses(coordinates)]
    if len(function.body.blocks) != 1 or not all(
        isinstance(load, COORDINATE_LOADS) and _carried_to(load, function)
        for load in loads
    ):
        return None
    entry = function.body.blocks[0]
    assert entry.first_op is not None
    start = Emitter(
        PatternRewriter(function), InsertPoint.before(entry.first_op), module
    )
    largest = _largest_allowed(start, limit)
    ret = entry.last_op
    assert isinstance(ret, func.ReturnOp)
    end = Emitter(PatternRewriter(function), InsertPoint.before(ret), module)
    # (ORed at once: a later load may rebuild the op a flag comes from)
    failed = end.constant(0, i1)
    guarded: set[Block] = set()
    for load in loads:
        assert isinstance(load, COORDINATE_LOADS)
        loop = _loop_reading(load)
        if loop is None:
            bad = _clamp(load, largest, module, function)
            failed = end.any_of([failed, _carry_out(load, bad, function)])
        elif loop.body.block not in guarded:
            guarded.add(loop.body.block)
            rows = _rows_of(loop, function)
            if rows is None:
                bad = _guard(loop, load, largest, module, function)
                failed = end.any_of([failed, _carry_out(loop, bad, function)])
            else:
                bad, at = _guard_blocks(rows, loop, load, largest, module, function)
                failed = end.any_of([failed, _carry_out(at, bad, function)])
    end.when(failed, lambda b: b.runtime_error(message))
    return failed


def restore_outputs_on_failure(
    module: ModuleOp, function: func.FuncOp, failures: Sequence[SSAValue]
) -> bool:
    """Make `function` put back the arguments it writes when one of
    `failures` (flags of `fuse_range_check`, at its end) is set, so that a
    caller loses nothing to a coordinate out of range without copying them
    first. Only where every argument it writes is a vector written row by
    row by one loop at the function's top (SpMV's y: iteration i loads and
    stores y[i] and nothing else touches it): each iteration first saves its
    row into a scratch buffer (a store per row, in the cache the loop then
    reads; for rows in blocks, each block saves its rows before it runs
    them), and the function copies the rows back when a flag is set.
    False, with nothing changed, for any other kernel."""
    entry = function.body.blocks[0]
    written = [
        a
        for a in entry.args
        if isinstance(a.type, MemRefType)
        and not all(isinstance(u.operation, _READS) for u in buffer_uses(a))
    ]
    found = _row_loop(written, function)
    if found is None or not failures:
        return False
    loop, rows = found
    ret = entry.last_op
    assert isinstance(ret, func.ReturnOp)
    before = Emitter(PatternRewriter(function), InsertPoint.before(rows), module)
    end = Emitter(PatternRewriter(function), InsertPoint.before(ret), module)
    scratches: list[SSAValue] = []
    for out in written:
        out_type = cast(MemRefType[Attribute], out.type)
        scratch_type = MemRefType(out_type.element_type, out_type.get_shape())
        scratch = before.alloc(scratch_type, [before.dim(out)])
        assert isinstance(scratch.owner, memref.AllocOp)
        scratch.owner.attributes[SCRATCH] = UnitAttr()
        scratches.append(scratch)
    saved = list(zip(written, scratches, strict=True))

    def save(b: Emitter, i: SSAValue) -> None:
        for out, scratch in saved:
            b.store(b.load(out, [i]), scratch, [i])

    if loop is rows:
        first = loop.body.block.first_op
        assert first is not None
        row = Emitter(PatternRewriter(function), InsertPoint.before(first), module)
        save(row, loop.body.block.args[0])
    else:  # a block's rows, all of them (it runs none when its check fails)
        assert isinstance(loop, scf.ForOp)
        upto = loop.ub.owner
        assert isinstance(upto, arith.SelectOp)
        block = Emitter(PatternRewriter(function), InsertPoint.before(loop), module)
        block.for_each(loop.lb, upto.rhs, save)

    def restore(e: Emitter) -> None:
        def back(b: Emitter, i: SSAValue) -> None:
            for out, scratch in saved:
                b.store(b.load(scratch, [i]), out, [i])

        e.for_each(_lower(rows), _upper(rows), back)

    end.when(end.any_of(list(failures)), restore)
    for _, scratch in saved:
        dealloc = end.op(memref.DeallocOp.get(scratch))
        dealloc.attributes[SCRATCH] = UnitAttr()
    return True


def _lower(loop: scf.ForOp | scf.ParallelOp) -> SSAValue:
    return loop.lb if isinstance(loop, scf.ForOp) else loop.lowerBound[0]


def _upper(loop: scf.ForOp | scf.ParallelOp) -> SSAValue:
    return loop.ub if isinstance(loop, scf.ForOp) else loop.upperBound[0]


def _row_loop(
    written: Sequence[BlockArgument], function: func.FuncOp
) -> tuple[scf.ForOp | scf.ParallelOp, scf.ForOp | scf.ParallelOp] | None:
    """The one loop over rows at `function`'s top, over one variable i with
    step 1, inside which every use of each of `written` (1-d memrefs) is a
    load or store at [i]; None when there is none (other uses count:
    returning the buffer aside). That loop, and the one at the top that runs
    over all the rows: the same, or, for rows taken in blocks
    (`_guard_blocks`), the loop over the blocks."""
    loop: scf.ForOp | scf.ParallelOp | None = None
    top: scf.ForOp | scf.ParallelOp | None = None
    for out in written:
        if cast(MemRefType[Attribute], out.type).get_num_dims() != 1:
            return None
        for use in buffer_uses(out):
            op = use.operation
            if isinstance(op, func.ReturnOp):
                continue
            if not isinstance(op, memref.LoadOp | memref.StoreOp) or use.index != (
                1 if isinstance(op, memref.StoreOp) else 0
            ):
                return None
            outer = _top_loop(op, function)
            found = outer
            if outer is not None and BLOCKED_ROWS in outer.attributes:
                found = _loop_in(op, outer)
            if found is None or (loop is not None and found is not loop):
                return None
            iv = found.body.block.args[0]
            if tuple(op.indices) != (iv,):
                return None
            loop, top = found, outer
    if loop is None or top is None:
        return None
    step = loop.step if isinstance(loop, scf.ForOp) else loop.step[0]
    if isinstance(loop, scf.ParallelOp) and len(loop.body.block.args) != 1:
        return None
    if not (
        isinstance(step.owner, arith.ConstantOp)
        and isinstance(step.owner.value, IntegerAttr)
        and step.owner.value.value.data == 1
    ):
        return None
    return loop, top


def _loop_in(op: Operation, outer: Operation) -> scf.ForOp | None:
    """The loop around `op` that is an op of `outer`'s body."""
    current: Operation | None = op
    while current is not None and current.parent_op() is not outer:
        current = current.parent_op()
    return current if isinstance(current, scf.ForOp) else None


def _top_loop(
    op: Operation, function: func.FuncOp
) -> scf.ForOp | scf.ParallelOp | None:
    """The loop around `op` that is an op of `function`'s own block."""
    current: Operation | None = op
    while current is not None and current.parent_op() is not function:
        current = current.parent_op()
    if isinstance(current, scf.ForOp | scf.ParallelOp):
        return current
    return None


def buffer_uses(buffer: SSAValue) -> Iterator[Use]:
    """The uses of `buffer`, through `memref.cast`s (a cast is not one)."""
    for use in buffer.uses:
        if isinstance(use.operation, memref.CastOp):
            yield from buffer_uses(use.operation.results[0])
        else:
            yield use


def _carried_to(op: Operation, function: func.FuncOp) -> bool:
    """Whether every op between `op` and `function` can carry a flag out."""
    parent = op.parent_op()
    while parent is not function:
        if not isinstance(parent, _CARRIERS):
            return False
        parent = parent.parent_op()
    return True


def _largest_allowed(e: Emitter, limit: SSAValue) -> SSAValue:
    """`limit - 1` (0 when the limit is 0: a kernel with entries then never
    runs, its checker refuses them)."""
    zero = e.index(0)
    is_empty = e.cmp(limit, "eq", zero)
    return e.select(is_empty, zero, e.sub(limit, e.index(1)))


def _loop_reading(load: Operation) -> scf.ForOp | None:
    """The `scf.for` whose body `load` is in, loading a scalar at the loop's
    induction variable (as a kernel reads a row's coordinates), or None."""
    loop = load.parent_op()
    if (
        not isinstance(load, memref.LoadOp)
        or not isinstance(loop, scf.ForOp)
        or tuple(load.indices) != (loop.body.block.args[0],)
    ):
        return None
    return loop


def _guard(
    loop: scf.ForOp,
    load: Operation,
    largest: SSAValue,
    module: ModuleOp,
    function: func.FuncOp,
) -> SSAValue:
    """Check the coordinates `loop` loads (through `load`, at its induction
    variable) in a loop of their own before it, and run `loop` over none of
    them when one is out of range: the `i1` that says so, in `loop`'s block.

    The coordinates are read twice, the second time from the cache, and the
    loop that gathers with them reads them unchanged: cheaper than clamping
    each one in a memory-bound loop, where the clamp delays every gather."""
    e = Emitter(PatternRewriter(function), InsertPoint.before(loop), module)
    bad = _any_above(e, load, largest, loop.lb, loop.ub)
    upper = e.select(bad, loop.lb, loop.ub)
    loop.operands[1] = upper
    return bad


def _any_above(
    e: Emitter, load: Operation, largest: SSAValue, lo: SSAValue, hi: SSAValue
) -> SSAValue:
    """Whether a coordinate of the buffer `load` reads, at positions `lo` to
    `hi`, is above `largest`: a loop folding the largest (unsigned, in the
    buffer's own type, which LLVM vectorizes)."""
    element: Attribute = load.results[0].type
    bound = _in_type(e, largest, element)
    buffer = load.operands[0]

    def fold(b: Emitter, at: SSAValue, most: list[SSAValue]) -> list[SSAValue]:
        coordinate = b.value(memref.LoadOp.get(buffer, [at]))
        return [b.value(arith.MaxUIOp(most[0], coordinate))]

    (most,) = e.loop(lo, hi, [e.constant(0, element)], fold)
    return e.cmp(most, "ugt", bound)


def _position_read(value: SSAValue) -> tuple[memref.LoadOp, list[Operation]] | None:
    """The load of a 1-d buffer that `value` is (through conversions), and
    those conversions in order; None for any other value."""
    conversions: list[Operation] = []
    while isinstance(value.owner, _CASTS):
        conversions.insert(0, value.owner)
        value = value.owner.operands[0]
    load = value.owner
    if isinstance(load, memref.LoadOp) and len(load.indices) == 1:
        return load, conversions
    return None


def _rows_of(
    loop: scf.ForOp, function: func.FuncOp
) -> tuple[scf.ForOp | scf.ParallelOp, memref.LoadOp, list[Operation]] | None:
    """Where `loop` runs over one row of a loop over rows at `function`'s top
    (`pos[i] .. pos[i+1]`, i that loop's variable, step 1, nothing carried):
    that loop, the load of `pos[i]` and the conversions of it to `loop`'s
    lower bound. None for any other loop."""
    rows = loop.parent_op()
    if (
        not isinstance(rows, scf.ForOp | scf.ParallelOp)
        or rows.parent_op() is not function
    ):
        return None
    if isinstance(rows, scf.ParallelOp):
        if len(rows.lowerBound) != 1 or rows.initVals:
            return None
        step = rows.step[0]
    else:
        if rows.iter_args:
            return None
        step = rows.step
    if constant_int(step) != 1 or BLOCKED_ROWS in rows.attributes:
        return None
    row = rows.body.block.args[0]
    first, last = _position_read(loop.lb), _position_read(loop.ub)
    if first is None or last is None:
        return None
    (first_load, first_casts), (last_load, last_casts) = first, last
    positions = first_load.memref
    if not (
        last_load.memref is positions
        and first_load.indices[0] is row
        and is_plus_step(last_load.indices[0], row, 1)
        and [type(c) for c in first_casts] == [type(c) for c in last_casts]
        and not defined_inside(positions, rows)
    ):
        return None
    return rows, first_load, first_casts


def _read_at(
    e: Emitter, load: memref.LoadOp, conversions: Sequence[Operation], at: SSAValue
) -> SSAValue:
    """`load` at index `at`, converted as `conversions` convert it."""
    value = e.value(memref.LoadOp.get(load.memref, [at]))
    for conversion in conversions:
        value = e.value(conversion.clone({conversion.operands[0]: value}))
    return value


def _block_rows(
    e: Emitter, lower: SSAValue, upper: SSAValue, first: SSAValue, last: SSAValue
) -> SSAValue:
    """Rows per block: about `BLOCK_ENTRIES` entries at the rows' mean
    length (`last - first` entries in `upper - lower` rows), 1 to
    `MAX_BLOCK_ROWS`."""
    rows = e.value(arith.MaxSIOp(e.sub(upper, lower), e.index(0)))
    entries = e.value(arith.MaxSIOp(e.sub(last, first), e.index(1)))
    even = e.value(arith.DivUIOp(e.mul(rows, e.index(BLOCK_ENTRIES)), entries))
    capped = e.value(arith.MinSIOp(even, e.index(MAX_BLOCK_ROWS)))
    return e.value(arith.MaxSIOp(capped, e.index(1)))


def _guard_blocks(
    found: tuple[scf.ForOp | scf.ParallelOp, memref.LoadOp, list[Operation]],
    loop: scf.ForOp,
    load: Operation,
    largest: SSAValue,
    module: ModuleOp,
    function: func.FuncOp,
) -> tuple[SSAValue, Operation]:
    """Take the rows of `found`'s loop in blocks and check the coordinates
    `loop` (one row's) loads once per block, before the block's rows run
    (over none of them when one is out of range): the `i1` that says so
    and an op beside it, in the loop over blocks."""
    rows, position, conversions = found
    e = Emitter(PatternRewriter(function), InsertPoint.before(rows), module)
    lower, upper = _lower(rows), _upper(rows)
    # (Read only when there are rows: an empty loop may have no positions.)
    (size,) = e.branch(
        e.cmp(lower, "slt", upper),
        lambda b: [
            _block_rows(
                b,
                lower,
                upper,
                _read_at(b, position, conversions, lower),
                _read_at(b, position, conversions, upper),
            )
        ],
        lambda b: [b.index(1)],
    )
    body = Block(arg_types=[IndexType()])
    start = body.args[0]
    b = e.inside(body)
    end = b.value(arith.MinSIOp(b.add(start, size), upper))
    first = _read_at(b, position, conversions, start)
    last = _read_at(b, position, conversions, end)
    bad = _any_above(b, load, largest, first, last)
    upto = b.select(bad, start, end)
    inner = rows.detach_region(rows.body)
    if isinstance(rows, scf.ParallelOp):
        terminator = inner.block.last_op
        assert isinstance(terminator, scf.ReduceOp)
        Rewriter.replace_op(terminator, scf.YieldOp())
    block_rows = scf.ForOp(start, upto, b.index(1), [], inner)
    block_rows.attributes[BLOCKED_ROWS] = UnitAttr()
    b.op(block_rows)
    if isinstance(rows, scf.ParallelOp):
        body.add_op(scf.ReduceOp())
        blocks: Operation = upstream_scf.ParallelOp(
            [lower], [upper], [size], Region(body)
        )
    else:
        body.add_op(scf.YieldOp())
        blocks = scf.ForOp(lower, upper, size, [], Region(body))
    blocks.attributes.update(rows.attributes)
    blocks.attributes[BLOCKED_ROWS] = UnitAttr()
    Rewriter.replace_op(rows, blocks, [])
    return bad, block_rows


def _clamp(
    load: Operation, largest: SSAValue, module: ModuleOp, function: func.FuncOp
) -> SSAValue:
    """Make every use of `load`'s value read it clamped to `largest`; the
    `i1` that says some value was larger, in `load`'s block."""
    value = load.results[0]
    e = Emitter(PatternRewriter(function), InsertPoint.after(load), module)
    element = value.type.element_type if is_vector_type(value.type) else value.type
    bound = _in_type(e, largest, element)
    if is_vector_type(value.type):
        lanes = e.value(vector.BroadcastOp(bound, value.type))
        safe = e.value(arith.MinUIOp(value, lanes))
        kind = vector.CombiningKindAttr(vector.CombiningKindFlag.MAXUI)
        most = e.value(
            vector.ReductionOp.create(
                operands=[value], result_types=[element], properties={"kind": kind}
            )
        )
        bad = e.cmp(most, "ugt", bound)
        readers = {safe.owner, most.owner}
    else:
        safe = e.value(arith.MinUIOp(value, bound))
        bad = e.cmp(value, "ugt", bound)
        readers = {safe.owner, bad.owner}
    value.replace_uses_with_if(safe, lambda use: use.operation not in readers)
    return bad


def _in_type(e: Emitter, largest: SSAValue, coordinate_type: Attribute) -> SSAValue:
    """`largest` (an index) as a value of the coordinates' type, saturated at
    the type's largest (unsigned) value."""
    integer = coordinate_type
    if not isinstance(integer, IntegerType):
        return largest  # (index coordinates)
    bits: int = integer.bitwidth
    saturated = e.value(arith.MinUIOp(largest, e.index(2**bits - 1)))
    return e.from_index(saturated, coordinate_type)


def _carry_out(op: Operation, bad: SSAValue, function: func.FuncOp) -> SSAValue:
    """Carry `bad` (in `op`'s block) out of every op around it: the `i1`
    in the function's block that says it was ever true."""
    flag, block = bad, op.parent_block()
    assert block is not None
    while (owner := block.parent_op()) is not function:
        assert isinstance(owner, _CARRIERS)
        flag = _carry(owner, block, flag)
        block = flag.owner.parent_block() if isinstance(flag.owner, Operation) else None
        assert block is not None
    return flag


def _carry(
    op: scf.ForOp | scf.IfOp | scf.ParallelOp | scf.WhileOp,
    block: Block,
    flag: SSAValue,
) -> SSAValue:
    """Rebuild `op` (whose region holds `block`, where `flag` is defined)
    with one more result: whether `flag` was ever true in it."""
    if isinstance(op, scf.ForOp):
        return _carry_for(op, block, flag)
    if isinstance(op, scf.IfOp):
        return _carry_if(op, block, flag)
    if isinstance(op, scf.WhileOp):
        return _carry_while(op, block, flag)
    return _carry_parallel(op, block, flag)


def _false_before(op: Operation) -> SSAValue:
    false = arith.ConstantOp.from_int_and_width(0, 1)
    Rewriter.insert_op(false, InsertPoint.before(op))
    return false.result


def _replace(old: Operation, new: Operation) -> SSAValue:
    """Put `new` (with one more result than `old`) in `old`'s place; its last result."""
    new.attributes.update(old.attributes)
    Rewriter.insert_op(new, InsertPoint.before(old))
    for before, after in zip(old.results, new.results, strict=False):
        before.replace_all_uses_with(after)
    Rewriter.erase_op(old)
    return new.results[-1]


def _end_with(block: Block, terminator: Operation) -> None:
    last = block.last_op
    assert last is not None
    Rewriter.replace_op(last, terminator)


def _carry_for(op: scf.ForOp, block: Block, flag: SSAValue) -> SSAValue:
    carried = block.insert_arg(i1, len(block.args))
    either = arith.OrIOp(carried, flag)
    yield_op = block.last_op
    assert isinstance(yield_op, scf.YieldOp)
    Rewriter.insert_op(either, InsertPoint.before(yield_op))
    _end_with(block, scf.YieldOp(*yield_op.arguments, either.result))
    init = _false_before(op)
    body = op.detach_region(op.body)
    return _replace(op, scf.ForOp(op.lb, op.ub, op.step, [*op.iter_args, init], body))


def _carry_if(op: scf.IfOp, block: Block, flag: SSAValue) -> SSAValue:
    # (both found before either is detached: detaching renumbers the regions)
    then_region, else_region = op.true_region, op.false_region
    op.detach_region(then_region)
    op.detach_region(else_region)
    if not else_region.blocks:
        else_region.add_block(Block([scf.YieldOp()]))
    for region in (then_region, else_region):
        branch = region.blocks[0]
        yield_op = branch.last_op
        assert isinstance(yield_op, scf.YieldOp)
        value = flag
        if branch is not block:
            false = arith.ConstantOp.from_int_and_width(0, 1)
            Rewriter.insert_op(false, InsertPoint.before(yield_op))
            value = false.result
        _end_with(branch, scf.YieldOp(*yield_op.arguments, value))
    types: Sequence[Attribute] = [*op.result_types, i1]
    return _replace(op, scf.IfOp(op.cond, types, then_region, else_region))


def _carry_parallel(op: scf.ParallelOp, block: Block, flag: SSAValue) -> SSAValue:
    reduce = block.last_op
    assert isinstance(reduce, scf.ReduceOp)
    pair = Block(arg_types=[i1, i1])
    either = arith.OrIOp(pair.args[0], pair.args[1])
    pair.add_ops([either, scf.ReduceReturnOp(either)])
    regions = [reduce.detach_region(r) for r in list(reduce.reductions)]
    _end_with(block, scf.ReduceOp([*reduce.args, flag], [*regions, Region(pair)]))
    init = _false_before(op)
    body = op.detach_region(op.body)
    return _replace(
        op,
        upstream_scf.ParallelOp(
            op.lowerBound, op.upperBound, op.step, body, [*op.initVals, init]
        ),
    )


def _carry_while(op: scf.WhileOp, block: Block, flag: SSAValue) -> SSAValue:
    """The flag goes around the loop: an argument of both regions, forwarded
    by `scf.condition` (the loop's last result) and `scf.yield`."""
    before, after = op.before_region, op.after_region
    op.detach_region(before)
    op.detach_region(after)
    for region in (before, after):
        branch = region.blocks[0]
        carried = branch.insert_arg(i1, len(branch.args))
        terminator = branch.last_op
        assert isinstance(terminator, scf.ConditionOp | scf.YieldOp)
        value: SSAValue = carried
        if branch is block:
            either = arith.OrIOp(carried, flag)
            Rewriter.insert_op(either, InsertPoint.before(terminator))
            value = either.result
        if isinstance(terminator, scf.ConditionOp):
            _end_with(
                branch, scf.ConditionOp(terminator.condition, *terminator.args, value)
            )
        else:
            _end_with(branch, scf.YieldOp(*terminator.arguments, value))
    init = _false_before(op)
    types: Sequence[Attribute] = [*op.result_types, i1]
    return _replace(op, scf.WhileOp([*op.arguments, init], types, before, after))
