"""Sparse outputs built row by row, in parallel (issue 15; MLIR's sparsifier
refuses to parallelize any loop that inserts into a sparse output).

With access-pattern expansion (SpGEMM), the sparsifier emits a loop over the
rows of a `(dense, compressed)` output that fills a dense workspace per row
and ends in `sparse_tensor.compress ... into %C[%i]`; the rows are appended in
order, so the loop is sequential. `ParallelizeRowCompress` rewrites it into
two parallel phases over the rows and assembles the result:

1. count: each row's distinct coordinates, found with the workspace's flags
   and added list (the values are not computed: stores into the values
   workspace are dropped and what only fed them dies), into `positions[i+1]`;
2. a prefix sum over `positions` (sequential: one pass over the rows);
3. coordinates and values allocated with the exact number of entries;
4. fill: the row computed again into the workspace, its added coordinates
   sorted and written at `positions[i]` with their values (the workspace
   cleared as `compress` leaves it);
5. `jagged.to_sparse` of the three buffers (`sparse_tensor.assemble` needs
   a static shape).

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
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
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
from xsparse.transforms.codegen_utils.emitter import PER_CHUNK, Emitter


@dataclass
class _RowCompress:
    """The parts of a row loop ending in `compress` (see the module doc)."""

    loop: scf.ForOp
    expand: ExpandOp
    compress: CompressOp
    load: LoadOp
    alloc: bufferization.AllocTensorOp
    tensor_type: TensorType[Attribute]


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
    if len(loop.iter_args) != 1 or len(block.args) != 2:
        return None
    if not isinstance(loop.parent_op(), func.FuncOp):
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
    alloc = expand.tensor.owner
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
    for result in (expand.values, expand.filled, expand.added, expand.count):
        for use in result.uses:
            user = use.operation
            if not (loop.is_ancestor(user) or isinstance(user, memref.DeallocOp)):
                return None
    workspace: set[SSAValue] = {expand.values, expand.filled, expand.added}
    if not _writes_only(block, workspace, compress):
        return None
    return _RowCompress(loop, expand, compress, load, alloc, t)


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


def _dim_sizes(e: Emitter, parts: _RowCompress) -> list[SSAValue]:
    """The output's dimension sizes, from its `alloc_tensor`."""
    dynamic = iter(parts.alloc.dynamic_sizes)
    return [
        next(dynamic) if n == DYNAMIC_INDEX else e.index(n)
        for n in parts.tensor_type.get_shape()
    ]


def _level_sizes(e: Emitter, parts: _RowCompress) -> list[SSAValue]:
    """The output's level sizes (its dimension-to-level map permutes)."""
    dims = _dim_sizes(e, parts)
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
    parallel = scf.ParallelOp([loop.lb], [loop.ub], [loop.step], Region(block), [])
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


class ParallelizeRowCompress(RewritePattern):
    """A row loop ending in `sparse_tensor.compress` -> count, prefix sum,
    fill and assemble (the module doc)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        parts = _row_compress(op)
        if parts is None:
            return
        e = Emitter(rewriter, InsertPoint.before(op))
        rows, row_size = _level_sizes(e, parts)
        ordered = SparseTensorType(parts.tensor_type).lvl_types[1].is_ordered
        layout = {f.kind: f.type for f in storage_fields(parts.tensor_type)}
        positions_type = layout["positions"]
        coordinates_type = layout["coordinates"]
        assert is_memref_type(positions_type) and is_memref_type(coordinates_type)
        pos_type, crd_type = positions_type.element_type, coordinates_type.element_type
        values_type = parts.expand.values.type
        assert is_memref_type(values_type)
        one = e.index(1)
        positions = e.alloc(positions_type, [e.add(rows, one)])
        e.fill(positions, e.constant(0, pos_type))

        def count_row(b: Emitter, row: SSAValue, ws: Workspace) -> None:
            if not ws.tagged:
                false = b.constant(0, IntegerType(1))
                b.for_each(
                    b.index(0),
                    ws.count,
                    lambda c, k: c.store(
                        false, ws.filled, [c.to_index(c.load(ws.added, [k]))]
                    ),
                )
            b.store(b.from_index(ws.count, pos_type), positions, [b.add(row, one)])

        _parallel_rows(e, parts, row_size, False, count_row)

        def accumulate(b: Emitter, row: SSAValue) -> None:
            following = b.add(row, one)
            total = b.add(b.load(positions, [row]), b.load(positions, [following]))
            b.store(total, positions, [following])

        e.for_each(e.index(0), rows, accumulate)
        entries = e.to_index(e.load(positions, [rows]))
        coordinates = e.alloc(coordinates_type, [entries])
        values = e.alloc(values_type, [entries])

        def fill_row(b: Emitter, row: SSAValue, ws: Workspace) -> None:
            row_values, filled, added, count = ws.values, ws.filled, ws.added, ws.count
            identity = AffineMapAttr(AffineMap.identity(1))
            if ordered:
                b.op(
                    SortOp(SortAlgorithm.HYBRID_QUICK_SORT, count, added, [], identity)
                )
            start = b.to_index(b.load(positions, [row]))
            zero = b.constant(0, values_type.element_type)
            false = b.constant(0, IntegerType(1))

            def move(c: Emitter, k: SSAValue) -> None:
                column = c.to_index(c.load(added, [k]))
                at = c.add(start, k)
                c.store(c.from_index(column, crd_type), coordinates, [at])
                c.store(c.load(row_values, [column]), values, [at])
                c.store(zero, row_values, [column])
                c.store(false, filled, [column])

            b.for_each(b.index(0), count, move)

        _parallel_rows(e, parts, row_size, True, fill_row)
        dims = _dim_sizes(e, parts)
        built = ToSparseOp(dims, positions, coordinates, values, parts.tensor_type)
        e.op(built)
        rewriter.replace(parts.load, [], [built.result])
        rewriter.erase(op)
        for result in (
            parts.expand.values,
            parts.expand.filled,
            parts.expand.added,
        ):
            for use in list(result.uses):
                rewriter.erase(use.operation)
        rewriter.erase(parts.expand)
        if parts.alloc.tensor.first_use is None:
            operands = [v.owner for v in parts.alloc.operands]
            rewriter.erase(parts.alloc)
            for owner in operands:
                if isinstance(owner, Operation):
                    _erase_if_dead(owner, rewriter)


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
