"""Sparse outputs built row by row, in parallel (issue 15; MLIR's sparsifier
refuses to parallelize any loop that inserts into a sparse output).

With access-pattern expansion (SpGEMM), the sparsifier emits a loop over the
rows of a `(dense, compressed)` output that fills a dense workspace per row
and ends in `sparse_tensor.compress ... into %C[%i]`; the rows are appended in
order, so the loop is sequential. `ParallelizeRowCompress` rewrites it into
two parallel phases over the rows and assembles the result:

1. count: each row's distinct coordinates into `positions[i+1]`, the body
   cloned without the values (stores into the values workspace dropped, what
   only fed them dies) and columns marked with the row's tag (`tags[j] ==
   i + 1`, as scipy's symbolic pass), so that no row clears anything;
2. a prefix sum over `positions` (sequential: one pass over the rows; 32-bit
   or narrower positions that cannot hold a row's count or the total report
   an error, `storage.overhead_widths`, and nothing is filled);
3. coordinates and values allocated with the exact number of entries;
4. fill: the row computed again into the workspace, its added coordinates
   sorted and written at `positions[i]` with their values (the workspace
   cleared as `compress` leaves it);
5. `jagged.to_sparse` of the three buffers (`sparse_tensor.assemble` needs
   a static shape).

A row loop that inserts in order (sparse add, elementwise products: the
output threaded through `scf.for`/`while`/`if` to `tensor.insert`s at row
`i`) goes through the same phases (`ParallelizeRowInsert`): the body cloned
with the output replaced by a running count of the row's entries, which the
count phase stores and the fill phase uses as the offset after
`positions[i]`.

Each phase's workspace is allocated per chunk of rows, not per row: the
allocations (zeroed by `calloc`) and deallocations carry `PER_CHUNK`, and the
lowering of the parallel loop (sequential or on threads) moves them out of
the loop. The result is the sequential loop's, bit for bit: each row's
entries are summed in the same order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith, bufferization, func, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    TensorType,
    UnitAttr,
)
from xdsl.dialects.tensor import InsertOp as TensorInsertOp
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import is_trivially_dead, region_dce

from xsparse.dialects.jagged import ToSparseOp
from xsparse.dialects.sparse_tensor.ops_common import constant_int
from xsparse.dialects.sparse_tensor.ops_conversion import LoadOp
from xsparse.dialects.sparse_tensor.ops_insertion import (
    CompressOp,
    ExpandOp,
    SortOp,
)
from xsparse.dialects.sparse_tensor.storage import storage_fields
from xsparse.dialects.sparse_tensor.types import SortAlgorithm, SparseTensorType
from xsparse.dialects.type_guards import is_memref_type, is_tensor_type
from xsparse.dialects.upstream import scf as upstream_scf
from xsparse.transforms.codegen_utils.emitter import PER_CHUNK, Emitter
from xsparse.transforms.storage.overhead_widths import (
    check_coordinate,
    overhead_bits,
    positions_fit,
    positions_message,
)


@dataclass
class _RowLoop:
    """A loop over the rows of a `(dense, compressed)` output that starts
    empty (`alloc_tensor`), threaded through the loop and finished by
    `sparse_tensor.load ... hasInserts` after it."""

    loop: scf.ForOp
    load: LoadOp
    alloc: bufferization.AllocTensorOp
    tensor_type: TensorType[Attribute]


@dataclass
class _RowCompress(_RowLoop):
    """A row loop ending in `compress` (see the module doc)."""

    expand: ExpandOp
    compress: CompressOp


def _row_loop(loop: scf.ForOp, init: SSAValue) -> _RowLoop | None:
    """`loop` as a row loop whose output starts as `init`, or None."""
    block = loop.body.block
    if len(loop.iter_args) != 1 or len(block.args) != 2:
        return None
    if not isinstance(loop.parent_op(), func.FuncOp):
        return None
    alloc = init.owner
    load = _only_use(loop.res[0])
    t = loop.res[0].type
    if not (
        isinstance(alloc, bufferization.AllocTensorOp)
        and isinstance(load, LoadOp)
        and is_tensor_type(t)
    ):
        return None
    stt = SparseTensorType(t)
    levels = [str(lt) for lt in stt.lvl_types]
    if levels[:1] != ["dense"] or levels[1:] not in (
        ["compressed"],
        ["compressed(nonordered)"],
    ):
        return None
    if not stt.is_permutation:
        return None
    return _RowLoop(loop, load, alloc, t)


def _only_use(value: SSAValue) -> Operation | None:
    uses = list(value.uses)
    return uses[0].operation if len(uses) == 1 else None


def _writes_only(block: Block, buffers: set[SSAValue], compress: CompressOp) -> bool:
    """Whether every op in `block` but `compress` that may write memory
    stores into `buffers`."""
    for inner in block.walk():
        if inner is compress:
            continue
        if isinstance(inner, memref.StoreOp):
            if inner.memref not in buffers:
                return False
        elif isinstance(
            inner, func.CallOp | CompressOp | memref.DeallocOp | memref.AllocOp
        ):
            return False
    return True


def _row_compress(loop: scf.ForOp) -> _RowCompress | None:
    block = loop.body.block
    if len(block.args) != 2:
        return None
    yielded = block.last_op
    compress = yielded.prev_op if yielded is not None else None
    if not (
        isinstance(yielded, scf.YieldOp)
        and isinstance(compress, CompressOp)
        and list(yielded.operands) == [compress.result]
        and compress.tensor is block.args[1]
        and list(compress.lvl_coords) == [block.args[0]]
        and _only_use(block.args[1]) is compress
    ):
        return None
    expand = compress.values.owner
    if not (
        isinstance(expand, ExpandOp)
        and compress.filled is expand.filled
        and compress.added is expand.added
        and expand.tensor is loop.iter_args[0]
    ):
        return None
    row_loop = _row_loop(loop, expand.tensor)
    if row_loop is None:
        return None
    for result in (expand.values, expand.filled, expand.added, expand.count):
        for use in result.uses:
            user = use.operation
            if not (loop.is_ancestor(user) or isinstance(user, memref.DeallocOp)):
                return None
    workspace: set[SSAValue] = {expand.values, expand.filled, expand.added}
    if not _writes_only(block, workspace, compress):
        return None
    return _RowCompress(
        loop, row_loop.load, row_loop.alloc, row_loop.tensor_type, expand, compress
    )


@dataclass
class Workspace:
    """A row's expansion in a parallel phase: values, flags, added list, the
    count of added columns, and whether row tags replaced the flags (nothing
    to clear)."""

    values: SSAValue
    filled: SSAValue
    added: SSAValue
    count: SSAValue
    tagged: bool


def _dim_sizes(e: Emitter, parts: _RowLoop) -> list[SSAValue]:
    """The output's dimension sizes, from its `alloc_tensor`."""
    dynamic = iter(parts.alloc.dynamic_sizes)
    return [
        next(dynamic) if n == DYNAMIC_INDEX else e.index(n)
        for n in parts.tensor_type.get_shape()
    ]


def _level_sizes(parts: _RowLoop, dims: list[SSAValue]) -> list[SSAValue]:
    """The output's level sizes from its dimension sizes (its map permutes)."""
    stt = SparseTensorType(parts.tensor_type)
    sizes: list[SSAValue] = []
    for result in stt.dim_to_lvl.results:
        assert isinstance(result, AffineDimExpr)
        sizes.append(dims[result.position])
    return sizes


def _parallel_rows(
    e: Emitter,
    parts: _RowCompress,
    row_size: SSAValue,
    with_values: bool,
    finish: Callable[[Emitter, SSAValue, Workspace], None],
) -> None:
    """`scf.parallel` over the loop's rows: a per-chunk workspace, the row
    loop's body computed into it (without the values unless `with_values`,
    columns then marked by row tags where `_tag_rows` can: no flags or added
    list to clear), then `finish(emitter, row, workspace)`."""
    loop = parts.loop
    block = Block(arg_types=[IndexType()])
    inner = e.inside(block)
    workspace: list[SSAValue] = []
    for result in (parts.expand.values, parts.expand.filled, parts.expand.added):
        t = result.type
        assert is_memref_type(t)
        alloc = memref.AllocOp([row_size], [], t)
        alloc.attributes[PER_CHUNK] = UnitAttr()
        workspace.append(inner.value(alloc))
    values, filled, added = workspace
    tagged = False
    mapping: dict[SSAValue, SSAValue] = {
        loop.body.block.args[0]: block.args[0],
        parts.expand.values: values,
        parts.expand.filled: filled,
        parts.expand.added: added,
        parts.expand.count: inner.index(0),
    }
    for op in loop.body.block.ops:
        if op is parts.compress:
            break
        block.add_op(op.clone(mapping))
    count = mapping.get(parts.compress.count, parts.compress.count)
    if not with_values:
        for op in list(block.walk()):
            if isinstance(op, memref.StoreOp) and op.memref is values:
                op.detach()
                op.erase()
        tagged = _tag_rows(block, filled, added, row_size)
    finish(inner, block.args[0], Workspace(values, filled, added, count, tagged))
    for op in list(block.ops):
        if isinstance(op, memref.AllocOp) and PER_CHUNK in op.attributes:
            dealloc = memref.DeallocOp.get(op.memref)
            dealloc.attributes[PER_CHUNK] = UnitAttr()
            block.add_op(dealloc)
    block.add_op(scf.ReduceOp())
    parallel = upstream_scf.ParallelOp(
        [loop.lb], [loop.ub], [loop.step], Region(block), []
    )
    if not with_values:
        region_dce(parallel.body)
        _drop_unused_workspaces(block)
    e.op(parallel)


def _tag_rows(
    block: Block, filled: SSAValue, added: SSAValue, row_size: SSAValue
) -> bool:
    """In a count phase's body, the expansion's flags -> a row tag per column
    (`tags[j] == i + 1`: column j is set in row i), as scipy's symbolic pass
    marks columns, so that no row clears them; the added list is dropped.
    False (nothing changed) where the body sets flags to other than true."""
    flag_stores = [
        op
        for op in block.walk()
        if isinstance(op, memref.StoreOp) and op.memref is filled
    ]
    if any(constant_int(op.value) not in (1, -1) for op in flag_stores):
        return False
    first = next(op for op in block.ops if PER_CHUNK not in op.attributes)
    index = IndexType()
    tags = memref.AllocOp([row_size], [], MemRefType(index, [DYNAMIC_INDEX]))
    tags.attributes[PER_CHUNK] = UnitAttr()
    one = arith.ConstantOp(IntegerAttr(1, index))
    tag = arith.AddiOp(block.args[0], one)
    block.insert_ops_before([tags, one, tag], first)
    for op in list(block.walk()):
        if isinstance(op, memref.LoadOp) and op.memref is filled:
            load = memref.LoadOp.get(tags, list(op.indices))
            same = arith.CmpiOp(load, tag, "eq")
            Rewriter.replace_op(op, [load, same])
        elif isinstance(op, memref.StoreOp) and op.memref is filled:
            Rewriter.replace_op(op, memref.StoreOp.get(tag, tags, list(op.indices)))
        elif isinstance(op, memref.StoreOp) and op.memref is added:
            Rewriter.erase_op(op)
    return True


def _drop_unused_workspaces(block: Block) -> None:
    """Erase the per-chunk workspaces that only their deallocation uses."""
    for op in list(block.ops):
        if not (isinstance(op, memref.AllocOp) and PER_CHUNK in op.attributes):
            continue
        users = [use.operation for use in op.memref.uses]
        if all(isinstance(user, memref.DeallocOp) for user in users):
            for user in users:
                Rewriter.erase_op(user)
            Rewriter.erase_op(op)


@dataclass
class _Output:
    """The buffers of the output being built, and their element types."""

    positions: SSAValue
    coordinates: SSAValue
    values: SSAValue
    pos_type: Attribute
    crd_type: Attribute
    columns: SSAValue
    """The size of the column level (every coordinate is below it)."""
    overflow: SSAValue | None
    """A `memref<1xi1>` a row sets when its count does not fit `pos_type`
    (its position would wrap), or None (64-bit positions)."""

    def store_count(self, e: Emitter, count: SSAValue, row: SSAValue) -> None:
        """`positions[row + 1] = count`; a count the positions cannot hold is
        reported and marks the output as overflowing (nothing is filled)."""
        e.store(
            e.from_index(count, self.pos_type), self.positions, [e.add(row, e.index(1))]
        )
        overflow = self.overflow
        if overflow is None:
            return
        width = overhead_bits(self.pos_type)

        def report(b: Emitter) -> None:
            b.runtime_error(positions_message(width))
            b.store(b.constant(1, IntegerType(1)), overflow, [b.index(0)])

        e.when(e.cmp(count, "ugt", e.index(2**width - 1)), report)

    def store_coordinate(self, e: Emitter, column: SSAValue, at: SSAValue) -> None:
        """`coordinates[at] = column`, reported if the coordinates cannot hold it."""
        check_coordinate(e, column, self.crd_type, self.columns)
        e.store(e.from_index(column, self.crd_type), self.coordinates, [at])


RowPhase = Callable[[Emitter, _Output], None]
"""Emits one parallel phase over the rows, given the output's buffers (in
the count phase, only the positions exist yet)."""


def _build_rows(
    e: Emitter,
    parts: _RowLoop,
    dims: list[SSAValue],
    values_type: MemRefType[Attribute],
    count_phase: RowPhase,
    fill_phase: RowPhase,
) -> SSAValue:
    """The output by count, prefix sum and fill (the module doc), replacing
    the row loop and its `load`; `dims`: the output's dimension sizes."""
    rows, columns = _level_sizes(parts, dims)
    layout = {f.kind: f.type for f in storage_fields(parts.tensor_type)}
    positions_type = layout["positions"]
    coordinates_type = layout["coordinates"]
    assert is_memref_type(positions_type) and is_memref_type(coordinates_type)
    pos_type, crd_type = positions_type.element_type, coordinates_type.element_type
    one = e.index(1)
    positions = e.alloc(positions_type, [e.add(rows, one)])
    e.fill(positions, e.constant(0, pos_type))
    overflow: SSAValue | None = None
    if overhead_bits(pos_type) < 64:
        overflow = e.alloc(MemRefType(IntegerType(1), [1]), [])
        e.fill(overflow, e.constant(0, IntegerType(1)))
    counted = _Output(
        positions, positions, positions, pos_type, crd_type, columns, overflow
    )
    count_phase(e, counted)

    def accumulate(b: Emitter, row: SSAValue, total: list[SSAValue]) -> list[SSAValue]:
        following = b.add(row, one)
        running = b.add(total[0], b.to_index(b.load(positions, [following])))
        b.store(b.from_index(running, pos_type), positions, [following])
        return [running]

    (entries,) = e.loop(e.index(0), rows, [e.index(0)], accumulate)
    fits = positions_fit(e, entries, pos_type)
    if fits is not None:
        assert overflow is not None  # (both for narrow positions)
        row_overflow = e.load(overflow, [e.index(0)])
        no_row_overflow = e.cmp(row_overflow, "eq", e.constant(0, IntegerType(1)))
        fits = e.value(arith.AndIOp(fits, no_row_overflow))
        e.op(memref.DeallocOp.get(overflow))
        entries = e.select(fits, entries, e.index(0))
    output = _Output(
        positions,
        e.alloc(coordinates_type, [entries]),
        e.alloc(values_type, [entries]),
        pos_type,
        crd_type,
        columns,
        None,
    )
    if fits is None:
        fill_phase(e, output)
    else:
        e.when(fits, lambda b: fill_phase(b, output))
    built = ToSparseOp(
        dims,
        output.positions,
        output.coordinates,
        output.values,
        parts.tensor_type,
    )
    e.op(built)
    e.rewriter.replace(parts.load, [], [built.result])
    e.rewriter.erase(parts.loop)
    return built.result


def _erase_alloc(parts: _RowLoop, rewriter: PatternRewriter) -> None:
    """Erase the output's `alloc_tensor` and its size hint, now unused."""
    if parts.alloc.tensor.first_use is None:
        operands = [v.owner for v in parts.alloc.operands]
        rewriter.erase(parts.alloc)
        for owner in operands:
            if isinstance(owner, Operation):
                _erase_if_dead(owner, rewriter)


class ParallelizeRowCompress(RewritePattern):
    """A row loop ending in `sparse_tensor.compress` -> count, prefix sum,
    fill and `jagged.to_sparse` (the module doc)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        parts = _row_compress(op)
        if parts is None:
            return
        e = Emitter(rewriter, InsertPoint.before(op))
        dims = _dim_sizes(e, parts)
        row_size = _level_sizes(parts, dims)[1]
        ordered = SparseTensorType(parts.tensor_type).lvl_types[1].is_ordered
        values_type = parts.expand.values.type
        assert is_memref_type(values_type)

        def count_phase(b: Emitter, output: _Output) -> None:
            def count_row(c: Emitter, row: SSAValue, ws: Workspace) -> None:
                if not ws.tagged:
                    false = c.constant(0, IntegerType(1))
                    c.for_each(
                        c.index(0),
                        ws.count,
                        lambda d, k: d.store(
                            false, ws.filled, [d.to_index(d.load(ws.added, [k]))]
                        ),
                    )
                output.store_count(c, ws.count, row)

            _parallel_rows(b, parts, row_size, False, count_row)

        def fill_phase(b: Emitter, output: _Output) -> None:
            def fill_row(c: Emitter, row: SSAValue, ws: Workspace) -> None:
                if ordered:
                    identity = AffineMapAttr(AffineMap.identity(1))
                    c.op(
                        SortOp(
                            SortAlgorithm.HYBRID_QUICK_SORT,
                            ws.count,
                            ws.added,
                            [],
                            identity,
                        )
                    )
                start = c.to_index(c.load(output.positions, [row]))
                zero = c.constant(0, values_type.element_type)
                false = c.constant(0, IntegerType(1))

                def move(d: Emitter, k: SSAValue) -> None:
                    column = d.to_index(d.load(ws.added, [k]))
                    at = d.add(start, k)
                    output.store_coordinate(d, column, at)
                    d.store(d.load(ws.values, [column]), output.values, [at])
                    d.store(zero, ws.values, [column])
                    d.store(false, ws.filled, [column])

                c.for_each(c.index(0), ws.count, move)

            _parallel_rows(b, parts, row_size, True, fill_row)

        _build_rows(e, parts, dims, values_type, count_phase, fill_phase)
        for result in (
            parts.expand.values,
            parts.expand.filled,
            parts.expand.added,
        ):
            for use in list(result.uses):
                rewriter.erase(use.operation)
        rewriter.erase(parts.expand)
        _erase_alloc(parts, rewriter)


def _row_inserts(loop: scf.ForOp) -> _RowLoop | None:
    """`loop` as a row loop whose body only inserts into the output, in row
    `i` (the loop's index), threading it through `scf.for`, `scf.while` and
    `scf.if` (sparse add, elementwise products: insertion in order), and
    writes no memory; else None."""
    if len(loop.iter_args) != 1:
        return None
    parts = _row_loop(loop, loop.iter_args[0])
    if parts is None:
        return None
    t = parts.tensor_type
    row_dim = SparseTensorType(t).dim_to_lvl.results[0]
    assert isinstance(row_dim, AffineDimExpr)
    block = loop.body.block
    inserts = 0
    for inner in block.walk():
        if isinstance(
            inner,
            memref.StoreOp | func.CallOp | CompressOp | ExpandOp | memref.AllocOp,
        ):
            return None
        carriers = scf.ForOp | scf.WhileOp | scf.IfOp | scf.YieldOp | scf.ConditionOp
        if isinstance(inner, TensorInsertOp) and inner.dest.type == t:
            if inner.indices[row_dim.position] is not block.args[0]:
                return None
            inserts += 1
            continue
        touches = any(v.type == t for v in (*inner.operands, *inner.results))
        if touches and not isinstance(inner, carriers):
            return None
    return parts if inserts else None


def _counting_row(
    parts: _RowLoop, block: Block, row: SSAValue
) -> tuple[SSAValue, list[TensorInsertOp]]:
    """The row loop's body cloned into `block` for `row`, the output replaced
    by the number of entries inserted so far (an `index`): the row's count,
    and the clone's inserts (into that number, still to be rewritten)."""
    loop = parts.loop
    t = parts.tensor_type
    zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
    block.add_op(zero)
    mapping: dict[SSAValue, SSAValue] = {
        loop.body.block.args[0]: row,
        loop.body.block.args[1]: zero.result,
    }
    yielded = loop.body.block.last_op
    assert isinstance(yielded, scf.YieldOp)
    for op in loop.body.block.ops:
        if op is yielded:
            break
        block.add_op(op.clone(mapping))
    count = mapping.get(yielded.operands[0], yielded.operands[0])
    count_at = (count.op, count.index) if isinstance(count, OpResult) else None
    for inner in list(block.walk()):
        for result in list(inner.results):
            if result.type == t:
                Rewriter.replace_value_with_new_type(result, IndexType())
        for region in inner.regions:
            for region_block in region.blocks:
                for arg in list(region_block.args):
                    if arg.type == t:
                        Rewriter.replace_value_with_new_type(arg, IndexType())
    if count_at is not None:
        count = count_at[0].results[count_at[1]]
    inserts = [op for op in block.walk() if isinstance(op, TensorInsertOp)]
    return count, inserts


class ParallelizeRowInsert(RewritePattern):
    """A row loop inserting into the output in order (sparse add,
    elementwise products) -> count, prefix sum, fill and `jagged.to_sparse`:
    each phase runs the row's loops with a running count in place of the
    output (the count phase adds one per insertion; the fill phase writes
    each entry at `positions[i]` plus that count)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        parts = _row_inserts(op)
        if parts is None:
            return
        e = Emitter(rewriter, InsertPoint.before(op))
        t = parts.tensor_type
        column_dim = SparseTensorType(t).dim_to_lvl.results[1]
        assert isinstance(column_dim, AffineDimExpr)
        values_type = MemRefType(t.element_type, [DYNAMIC_INDEX])

        def phase(b: Emitter, output: _Output, fill: bool) -> None:
            block = Block(arg_types=[IndexType()])
            row = block.args[0]
            count, inserts = _counting_row(parts, block, row)
            inner = b.inside(block)
            start: SSAValue | None = None  # the row's first entry, when filling
            if fill:
                top = Emitter(b.rewriter, InsertPoint.at_start(block), b.module())
                start = top.to_index(top.load(output.positions, [row]))
            for insert in inserts:
                at = InsertPoint.before(insert)
                c = Emitter(b.rewriter, at, b.module())
                following = c.add(insert.dest, c.index(1))
                if start is not None:
                    offset = c.add(start, insert.dest)
                    column = insert.indices[column_dim.position]
                    output.store_coordinate(c, column, offset)
                    c.store(insert.scalar, output.values, [offset])
                Rewriter.replace_op(insert, [], [following])
            if not fill:
                output.store_count(inner, count, row)
            block.add_op(scf.ReduceOp())
            loop = parts.loop
            parallel = upstream_scf.ParallelOp(
                [loop.lb], [loop.ub], [loop.step], Region(block), []
            )
            region_dce(parallel.body)
            b.op(parallel)

        _build_rows(
            e,
            parts,
            _dim_sizes(e, parts),
            values_type,
            lambda b, output: phase(b, output, False),
            lambda b, output: phase(b, output, True),
        )
        _erase_alloc(parts, rewriter)


def _erase_if_dead(op: Operation, rewriter: PatternRewriter) -> None:
    """Erase `op` if nothing uses it and it has no effect, then the same for
    the ops defining its operands (the output's size hint, no longer read)."""
    if not is_trivially_dead(op):
        return
    operands = [v.owner for v in op.operands]
    rewriter.erase(op)
    for owner in operands:
        if isinstance(owner, Operation) and owner.parent is not None:
            _erase_if_dead(owner, rewriter)
