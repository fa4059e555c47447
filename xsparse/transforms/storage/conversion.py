"""Conversions of sparse storage by loops over entries: `sparse_tensor.convert`
between two sparse encodings (and of a dense buffer to a sparse encoding),
`sparse_tensor.reorder_coo` and `sparse_tensor.sort`. Part of
`sparse-tensor-codegen`.

MLIR 22 stages a sparse-to-sparse `convert` (StageSparseOperations.cpp,
SparseTensorRewriting.cpp) as a `foreach` inserting every entry into an
unordered COO tensor, `reorder_coo` (a quick sort, O(nnz log nnz)), then a
`foreach` inserting into the destination. xsparse converts directly, in
O(nnz + level sizes), without a dense intermediate:

1. *entries*: every stored entry of the source (explicit zeros included, as
   MLIR keeps them) in the source's storage order, with its coordinates in the
   target's level space (source levels -> dimensions -> target levels, one
   affine expression per target level) and its value cast to the target's
   element type;
2. *sort*: stable LSD counting sorts into the target's storage order, one pass
   per target level, least significant first. The passes that the source
   order makes unnecessary are skipped: when the source is sorted by the
   target's trailing levels, only the leading ones are sorted (CSR -> CSC: one
   pass, on columns, like scipy's `tocsc`); when it is sorted by all of them
   (CSR -> DCSR, CSR -> COO) there is none. One counting pass over the source
   gives the histograms of all passes (a histogram does not depend on order);
3. *build*: where each entry has a place of its own in the target (leading
   dense or compressed level, then one compressed level that cannot meet a
   duplicate, or a COO region), the last pass writes straight into the
   target's buffers and the leading level comes from its histogram (CSR, CSC,
   DCSR, DCSC, COO targets). Otherwise the sorted entries go through the level
   builders of `storage.level_buffers` (`storage_from_entries`: BSR, CSF, ...).

The large buffers that the passes write at random places ask for transparent
huge pages (`alloc_large`), as numpy's arrays do; with 4 KiB pages nearly every
scattered write misses the TLB.

Encodings with non-permutation maps (BSR, 2:4) reach this pass with their
mapped types (`sparse-reinterpret-map` demaps kernels, not conversions): their
entries are read through `lvl_to_dim` and placed through the target's
`dim_to_lvl`, so BSR -> CSR is two sort passes and CSR -> BSR goes through the
level builders (blocks filled with explicit zeros). A `structured[n, m]`
target (2:4) is built by those builders too: each block keeps its nonzeros,
padded with explicit zeros at its smallest free coordinates; a block with more
than n nonzeros is a run-time error (`Emitter.runtime_error`).

A dense tensor computed at run time converts the same way to the targets with
a direct layout: a vectorized sweep counts the nonzeros, a second one writes
each element at the next free slot without a branch (a sorted target) or
scatters the nonzeros (CSC). Other targets keep `ConvertDenseToSparse`.

Duplicates: a tensor repeats a coordinate tuple only where its last level is
nonunique (`singleton(nonunique)`); the default COO, `compressed(nonunique),
singleton`, promises distinct tuples, as MLIR's level properties say and as
`SparseTensor.from_coo` builds it (so CSR/CSC/COO targets of it are written
directly). Declared duplicates are summed where the target's last level is
unique (it stores each coordinate tuple once), as scipy and
`SparseTensor.from_coo` do, and kept where it is nonunique, as `reorder_coo`
keeps them.
MLIR 22 does neither: its insertion keeps the first coordinate but appends
every value, so values and coordinates fall out of step.

Between encodings that differ only in position/coordinate widths or element
type, `convert` copies every buffer with a cast (MLIR's "direct convertible"
case). Element types convert as MLIR's `genCast`: integers are signed
(`sitofp`, `fptosi`, `extsi`/`trunci`), floats `extf`/`truncf`.

`sparse_tensor.reorder_coo` is the conversion between its two COO types (the
stable counting sort satisfies every algorithm it names);
`sparse_tensor.sort` is a bottom-up merge sort (stable, so it too satisfies
every algorithm), as MLIR's `sparse-buffer-rewrite` lowers it to loops.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, bufferization, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IntegerType,
    MemRefType,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.sparse_tensor.encoding import Encoding
from xsparse.dialects.sparse_tensor.levels import (
    LevelType,
)
from xsparse.dialects.sparse_tensor.ops_conversion import ConvertOp, ReorderCOOOp
from xsparse.dialects.sparse_tensor.ops_insertion import SortOp
from xsparse.dialects.sparse_tensor.storage import sparse_encoding, storage_fields
from xsparse.dialects.sparse_tensor.types import SparseTensorType
from xsparse.dialects.type_guards import is_memref_type, is_tensor_type
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.dialects.upstream.memref import ReallocOp
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.codegen_utils.op_emitter import INDEX
from xsparse.transforms.codegen_utils.stored_entries import (
    level_extent,
)
from xsparse.transforms.errors import PassFailure
from xsparse.transforms.storage.conversion_entries import (
    DenseSource,
    Entry,
    EntryBody,
    Histogram,
    Sink,
    Source,
    SparseSource,
    StorageSink,
    as_index,
    cast_element,
    check_positions_width,
    field_types,
    prefix_sum,
    shrink,
    storage_fields_of,
)
from xsparse.transforms.storage.level_buffers import (
    Entries,
    alloc_large,
    buffer_of,
    copy_buffer,
    dense_constant_of,
    storage_from_entries,
    storage_of,
    storage_value,
)
from xsparse.transforms.storage.overhead_widths import (
    check_coordinate,
    overhead_bits,
    positions_fit,
)
from xsparse.transforms.storage.parallel_conversion import convert_on_threads
from xsparse.transforms.storage.sort import sort_coordinates

I1 = IntegerType(1)


# -- scalars -------------------------------------------------------------------


def _index_buffer(e: Emitter, size: SSAValue) -> SSAValue:
    return alloc_large(e, MemRefType(INDEX, [DYNAMIC_INDEX]), size)


def _free(e: Emitter, *buffers: SSAValue) -> None:
    for b in buffers:
        e.op(memref.DeallocOp.get(b))


# -- entries -------------------------------------------------------------------


def _walk_table(
    e: Emitter, table: Entries, inits: Sequence[SSAValue], body: EntryBody
) -> list[SSAValue]:
    """A loop over the entries of a table, in its order."""

    def visit(b: Emitter, k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        base = b.mul(k, b.index(table.rank))

        def coordinate(c: Emitter, level: int) -> SSAValue:
            return c.load(table.coords, [c.add(base, c.index(level))])

        entry = Entry(b, coordinate, lambda c: c.load(table.values, [k]), k)
        return body(b, entry, carried)

    return e.loop(e.index(0), table.nnz, inits, visit)


def _new_table(
    e: Emitter, nnz: SSAValue, rank: int, element_type: Attribute
) -> Entries:
    coords = _index_buffer(e, e.mul(nnz, e.index(rank)))
    values = alloc_large(e, MemRefType(element_type, [DYNAMIC_INDEX]), nnz)
    return Entries(nnz, coords, values, rank)


# -- where entries go ------------------------------------------------------------


@dataclass
class _TableSink(Sink):
    table: Entries

    def put(self, b: Emitter, at: SSAValue, entry: Entry) -> None:
        base = b.mul(at, b.index(self.table.rank))
        for level in range(self.table.rank):
            where = b.add(base, b.index(level))
            b.store(entry.coordinate(level), self.table.coords, [where])
        b.store(entry.value(), self.table.values, [at])


Walk = Callable[[Emitter, Sequence[SSAValue], EntryBody], list[SSAValue]]


def _scatter(
    e: Emitter,
    walk: Walk,
    indexed: bool,
    sink: Sink,
    cursor: tuple[int, Histogram] | None,
) -> None:
    """One pass over entries into `sink`: at the cursor of the entry's
    coordinate at a level (a counting sort pass; the cursor holds each bucket's
    next place), or in order."""
    if cursor is not None:
        level, next_place = cursor

        def sort(b: Emitter, entry: Entry, carried: list[SSAValue]) -> list[SSAValue]:
            sink.put(b, next_place.bump(b, entry.coordinate(level)), entry)
            return carried

        walk(e, [], sort)
    elif indexed:

        def copy(b: Emitter, entry: Entry, carried: list[SSAValue]) -> list[SSAValue]:
            assert entry.index is not None
            sink.put(b, entry.index, entry)
            return carried

        walk(e, [], copy)
    else:

        def append(b: Emitter, entry: Entry, n: list[SSAValue]) -> list[SSAValue]:
            sink.put(b, n[0], entry)
            return [b.add(n[0], b.index(1))]

        walk(e, [e.index(0)], append)


# -- the plan --------------------------------------------------------------------


def sort_passes(keys: Sequence[AffineExpr], sorted_levels: int) -> list[int]:
    """The target levels to counting-sort by, in pass order (least significant
    first), for entries sorted by their first `sorted_levels` source levels:
    the passes of the trailing target levels that are those source levels,
    in order, are skipped."""
    rank = len(keys)
    for first in range(rank + 1):
        tail = keys[first:]
        if len(tail) <= sorted_levels and all(
            x == AffineDimExpr(i) for i, x in enumerate(tail)
        ):
            return list(range(first - 1, -1, -1))
    raise AssertionError("unreachable: the empty tail is always sorted")


def _compressed(lt: LevelType) -> bool:
    return lt.format.has_positions and lt.format.is_compact


def _singletons(types: Sequence[LevelType]) -> bool:
    return all(lt.format.is_branchless for lt in types)


@dataclass(frozen=True)
class DirectLayout:
    """A target whose sorted entries each have a place of their own: the last
    sort pass writes them straight into its buffers."""

    head: str | None
    """Level 0 when it is built from its histogram ('dense' or 'compressed');
    None when every level holds one coordinate per entry."""
    entry_levels: tuple[int, ...]
    """The levels with one coordinate per entry."""


def direct_layout(enc: Encoding, may_repeat: bool) -> DirectLayout | None:
    """The direct layout of a target encoding, if it has one: a COO region
    (level 0 compressed and nonunique, or alone, then singletons), or a dense
    or unique compressed level 0 followed by such a region or by one
    compressed level. Entries that `may_repeat` have a place each only where
    the target keeps duplicates (its last level nonunique)."""
    types = enc.lvl_types
    rank = len(types)
    if not types or (may_repeat and types[-1].is_unique):
        return None
    first = types[0]
    coo = _compressed(first) and _singletons(types[1:])
    if coo and (first.nonunique or rank == 1):
        return DirectLayout(None, tuple(range(rank)))
    head = (
        "dense"
        if first.format.is_dense and not first.format.is_batched
        else "compressed"
        if _compressed(first) and first.is_unique
        else None
    )
    if (
        head is None
        or rank < 2
        or not _compressed(types[1])
        or not _singletons(types[2:])
        or (types[1].is_unique and rank > 2)
    ):
        return None
    return DirectLayout(head, tuple(range(1, rank)))


# -- building ----------------------------------------------------------------------


def _pair(
    e: Emitter, t: MemRefType[Attribute], first: SSAValue, second: SSAValue
) -> SSAValue:
    """A buffer of type `t` holding two index values."""
    buffer = e.alloc(t, [e.index(2)])
    e.store(e.from_index(first, t.element_type), buffer, [e.index(0)])
    e.store(e.from_index(second, t.element_type), buffer, [e.index(1)])
    return buffer


def _histograms(
    e: Emitter,
    levels: Sequence[int],
    sizes: Sequence[SSAValue],
    head: str | None,
    types: dict[tuple[str, int], MemRefType[Attribute]],
) -> dict[int, Histogram]:
    """Zeroed histograms of the levels. A dense level 0 counts straight into
    the positions of level 1 (coordinate c at c + 1; as scipy's `tocsc` does):
    after the prefix sum and the scatter pass, each holds its end."""
    found: dict[int, Histogram] = {}
    for level in levels:
        if level == 0 and head == "dense":
            size = e.add(sizes[0], e.index(1))
            h = Histogram(alloc_large(e, types["positions", 1], size), 1)
        else:
            h = Histogram(_index_buffer(e, sizes[level]))
        t = h.buffer.type
        assert is_memref_type(t)
        e.fill(h.buffer, e.constant(0, t.element_type))
        found[level] = h
    return found


def _build_head(
    e: Emitter,
    head: str,
    histogram: Histogram,
    size: SSAValue,
    nnz: SSAValue,
    sorted_by_head: bool,
    types: dict[tuple[str, int], MemRefType[Attribute]],
) -> dict[tuple[str, int], SSAValue]:
    """Level 0 (dense or compressed) and the positions of level 1, from the
    histogram of level-0 coordinates, which becomes each coordinate's start
    (the cursor of the last sort pass when `sorted_by_head`)."""
    if head == "dense":
        prefix_sum(e, histogram, size, inclusive=not sorted_by_head)
        return {("positions", 1): histogram.buffer}
    pos_type, crd_type = types["positions", 1], types["coordinates", 0]
    pos_elem = pos_type.element_type
    capacity = e.value(arith.MinUIOp(size, nnz))
    coordinates = e.alloc(crd_type, [capacity])
    positions = e.alloc(pos_type, [e.add(capacity, e.index(1))])
    e.store(e.from_index(e.index(0), pos_elem), positions, [e.index(0)])

    def nonempty(
        b: Emitter, i: SSAValue, at: SSAValue, count: SSAValue, carried: list[SSAValue]
    ) -> list[SSAValue]:
        nodes = carried[0]
        used = b.cmp(count, "ne", b.index(0))

        def record(c: Emitter) -> None:
            check_coordinate(c, i, crd_type.element_type, size)
            c.store(c.from_index(i, crd_type.element_type), coordinates, [nodes])
            end = c.from_index(c.add(at, count), pos_elem)
            c.store(end, positions, [c.add(nodes, c.index(1))])

        b.when(used, record)
        return [b.add(nodes, as_index(b, used))]

    nodes = prefix_sum(e, histogram, size, [e.index(0)], nonempty)[1]
    return {
        ("positions", 0): _pair(e, types["positions", 0], e.index(0), nodes),
        ("coordinates", 0): e.value(ReallocOp(coordinates, nodes, crd_type)),
        ("positions", 1): e.value(
            ReallocOp(positions, e.add(nodes, e.index(1)), pos_type)
        ),
    }


def _merge_duplicates(e: Emitter, table: Entries) -> Entries:
    """Sum the values of adjacent entries with equal coordinates (in place);
    the table of the merged entries."""
    rank = table.rank

    def at(b: Emitter, k: SSAValue, level: int) -> SSAValue:
        return b.add(b.mul(k, b.index(rank)), b.index(level))

    def visit(b: Emitter, k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        n = carried[0]
        last = b.value(arith.SubiOp(n, b.index(1)))

        def same(c: Emitter) -> list[SSAValue]:
            equal = c.constant(1, I1)
            for level in range(rank):
                mine = c.load(table.coords, [at(c, k, level)])
                theirs = c.load(table.coords, [at(c, last, level)])
                equal = c.value(arith.AndIOp(equal, c.cmp(mine, "eq", theirs)))
            return [equal]

        repeat = b.branch(
            b.cmp(n, "ne", b.index(0)), same, lambda c: [c.constant(0, I1)]
        )[0]

        def add(c: Emitter) -> list[SSAValue]:
            total = _add(c, c.load(table.values, [last]), c.load(table.values, [k]))
            c.store(total, table.values, [last])
            return [n]

        def keep(c: Emitter) -> list[SSAValue]:
            for level in range(rank):
                c.store(
                    c.load(table.coords, [at(c, k, level)]),
                    table.coords,
                    [at(c, n, level)],
                )
            c.store(c.load(table.values, [k]), table.values, [n])
            return [c.add(n, c.index(1))]

        return b.branch(repeat, add, keep)

    n = e.loop(e.index(0), table.nnz, [e.index(0)], visit)[0]
    return Entries(n, table.coords, table.values, rank)


def _add(e: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    if isinstance(a.type, AnyFloat):
        return e.value(arith.AddfOp(a, b))
    return e.add(a, b)


def convert_entries(
    e: Emitter,
    source: Source,
    tensor_type: TensorType[Attribute],
    parallel: bool = False,
) -> list[SSAValue]:
    """The storage fields of `tensor_type` holding the entries of `source`:
    counting pass, sort passes, then the target's levels (see the module
    docstring); by parallel loops where `parallel` and the conversion has a
    parallel form (`storage.parallel_conversion`)."""
    enc = sparse_encoding(tensor_type)
    assert enc is not None
    types = field_types(tensor_type)
    rank = enc.lvl_rank
    dims = source.dims(e)
    sizes = [level_extent(e, x, dims) for x in enc.dim_to_lvl.results]
    passes = sort_passes(source.keys, source.sorted_levels)
    direct = direct_layout(enc, source.may_repeat)
    head = direct.head if direct is not None else None
    if parallel:
        fields = convert_on_threads(e, source, tensor_type, passes, head)
        if fields is not None:
            return fields
    counted: list[int] = sorted({*passes, *([0] if head is not None else [])})
    histograms = _histograms(e, counted, sizes, head, types)
    nnz = _count(e, source, histograms, source.size(e))
    if direct is not None:  # (else storage_from_entries checks the merged)
        check_positions_width(e, tensor_type, nnz)
    built: dict[tuple[str, int], SSAValue] = {}
    for level, h in histograms.items():
        if level == 0 and head is not None:
            built |= _build_head(e, head, h, sizes[0], nnz, 0 in passes, types)
        else:
            prefix_sum(e, h, sizes[level])
    element = types["values", -1].element_type
    # A source that says where entries are not (a dense buffer) is copied
    # without a branch when nothing is sorted: every place is written at the
    # next free slot, which only an entry takes; one slot more for the places
    # after the last entry.
    branch_free = not passes and source.has_places
    capacity = e.add(nnz, e.index(1)) if branch_free else nnz
    table: Entries | None = None
    final: Sink
    if direct is not None:
        coordinates = {
            level: alloc_large(e, types["coordinates", level], capacity)
            for level in direct.entry_levels
        }
        values = alloc_large(e, types["values", -1], capacity)
        final = StorageSink(coordinates, values, sizes)
        if head is None:
            built["positions", 0] = _pair(e, types["positions", 0], e.index(0), nnz)
    else:
        table = _new_table(e, capacity, rank, element)
        final = _TableSink(table)
    walk: Walk = source.walk
    indexed = source.indexed
    read: Entries | None = None
    steps: list[int | None] = [*passes] or [None]
    for i, level in enumerate(steps):
        last = i == len(steps) - 1
        out = None if last else _new_table(e, nnz, rank, element)
        sink = final if out is None else _TableSink(out)
        if branch_free:
            _append_all(e, source, sink)
            continue
        cursor = None if level is None else (level, histograms[level])
        _scatter(e, walk, indexed, sink, cursor)
        if read is not None:
            _free(e, read.coords, read.values)
        if out is not None:
            walk, indexed, read = _table_walk(out), True, out
    if isinstance(final, StorageSink):
        for level, c in final.coordinates.items():
            built["coordinates", level] = shrink(e, c, nnz, branch_free)
        built["values", -1] = shrink(e, final.values, nnz, branch_free)
    if table is not None:
        table = Entries(nnz, table.coords, table.values, rank)
    _free(e, *(h.buffer for lvl, h in histograms.items() if lvl or head != "dense"))
    if table is None:
        return storage_fields_of(tensor_type, built, sizes)
    if source.may_repeat and enc.lvl_types[-1].is_unique:
        table = _merge_duplicates(e, table)
    fields = storage_from_entries(e, table, tensor_type, sizes)
    _free(e, table.coords, table.values)
    return fields


def _append_all(e: Emitter, source: Source, sink: Sink) -> None:
    """Write every place of the source at the next free slot of `sink`, which
    moves on past entries only."""

    def append(
        b: Emitter, entry: Entry, present: SSAValue, n: list[SSAValue]
    ) -> list[SSAValue]:
        sink.put(b, n[0], entry)
        return [b.add(n[0], as_index(b, present))]

    source.walk_all(e, [e.index(0)], append)


def _table_walk(table: Entries) -> Walk:
    def walk(e: Emitter, inits: Sequence[SSAValue], body: EntryBody) -> list[SSAValue]:
        return _walk_table(e, table, inits, body)

    return walk


def _count(
    e: Emitter,
    source: Source,
    histograms: dict[int, Histogram],
    size: SSAValue | None,
) -> SSAValue:
    """The number of entries (`size` where the storage says it) and the
    histogram of each level's coordinates: one pass over the source, unless
    there is nothing to count."""
    if not histograms:
        return source.count(e) if size is None else size
    count = size is None

    def body(b: Emitter, entry: Entry, carried: list[SSAValue]) -> list[SSAValue]:
        for level, h in histograms.items():
            h.bump(b, entry.coordinate(level))
        return [b.add(carried[0], b.index(1))] if count else carried

    if size is not None:
        if source.walk_keys(e, list(histograms), size, body) is None:
            source.walk(e, [], body)
        return size
    return source.walk(e, [e.index(0)], body)[0]


# -- sparse_tensor.sort ------------------------------------------------------------


@dataclass
class _Tuples:
    """The n tuples that `sparse_tensor.sort` sorts: tuple k is
    `xy[k * stride .. (k + 1) * stride)` and `ys[j][k]`."""

    xy: SSAValue
    ys: list[SSAValue]
    stride: int

    def move(self, e: Emitter, k: SSAValue, into: _Tuples, at: SSAValue) -> None:
        """Copy tuple k into tuple `at` of `into`."""
        for i in range(self.stride):
            x = e.load(self.xy, [e.add(e.mul(k, e.index(self.stride)), e.index(i))])
            e.store(x, into.xy, [e.add(e.mul(at, e.index(into.stride)), e.index(i))])
        for y, to in zip(self.ys, into.ys, strict=True):
            e.store(e.load(y, [k]), to, [at])


def _less(
    e: Emitter, t: _Tuples, keys: Sequence[int], a: SSAValue, b: SSAValue
) -> SSAValue:
    """Whether tuple a sorts before tuple b: x values compared unsigned,
    lexicographically in the order `keys`."""
    less = e.constant(0, I1)
    for key in reversed(keys):
        xa = e.load(t.xy, [e.add(e.mul(a, e.index(t.stride)), e.index(key))])
        xb = e.load(t.xy, [e.add(e.mul(b, e.index(t.stride)), e.index(key))])
        tie = e.value(arith.AndIOp(e.cmp(xa, "eq", xb), less))
        less = e.value(arith.OrIOp(e.cmp(xa, "ult", xb), tie))
    return less


def merge_sort(e: Emitter, n: SSAValue, data: _Tuples, keys: Sequence[int]) -> None:
    """Sort the first n tuples of `data` in place, stably: bottom-up merges of
    runs of 1, 2, 4, ... tuples into a scratch copy, copied back each round."""
    xy_type, ys_types = data.xy.type, [y.type for y in data.ys]
    assert is_memref_type(xy_type)
    scratch = _Tuples(
        e.alloc(
            MemRefType(xy_type.element_type, [DYNAMIC_INDEX]),
            [e.mul(n, e.index(data.stride))],
        ),
        [],
        data.stride,
    )
    for t in ys_types:
        assert is_memref_type(t)
        scratch.ys.append(e.alloc(MemRefType(t.element_type, [DYNAMIC_INDEX]), [n]))

    def merge(b: Emitter, lo: SSAValue, width: SSAValue) -> None:
        mid = b.value(arith.MinUIOp(b.add(lo, width), n))
        hi = b.value(arith.MinUIOp(b.add(mid, width), n))

        def take(c: Emitter, k: SSAValue, ij: list[SSAValue]) -> list[SSAValue]:
            i, j = ij
            left, right = c.cmp(i, "ult", mid), c.cmp(j, "ult", hi)

            def compare(d: Emitter) -> list[SSAValue]:
                after = _less(d, data, keys, j, i)
                return [d.value(arith.XOrIOp(after, d.constant(1, I1)))]

            both = c.value(arith.AndIOp(left, right))
            from_left = c.branch(both, compare, lambda _: [left])[0]
            data.move(c, c.value(upstream_arith.SelectOp(from_left, i, j)), scratch, k)
            step = as_index(c, from_left)
            return [c.add(i, step), c.add(j, c.value(arith.SubiOp(c.index(1), step)))]

        b.loop(lo, hi, [lo, mid], take)

    def round_(b: Emitter, carried: list[SSAValue]) -> list[SSAValue]:
        width = carried[0]
        twice = b.mul(width, b.index(2))

        def runs(c: Emitter, lo: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            merge(c, lo, width)
            return []

        b.loop(b.index(0), n, [], runs, step=twice)
        b.for_each(b.index(0), n, lambda c, k: scratch.move(c, k, data, k))
        return [twice]

    e.while_loop([e.index(1)], lambda b, w: b.cmp(w[0], "ult", n), round_)
    _free(e, scratch.xy, *scratch.ys)


# -- patterns ----------------------------------------------------------------------


def _same_levels(a: Encoding, b: Encoding) -> bool:
    return a.dim_to_lvl == b.dim_to_lvl and a.lvl_types == b.lvl_types


def _convert(
    op: ConvertOp | ReorderCOOOp,
    source: SSAValue,
    dest_type: Attribute,
    rewriter: PatternRewriter,
    parallel: bool = False,
) -> None:
    """Replace `op` by the storage of `source`'s entries in `dest_type`, once
    the source's storage is known."""
    stt = SparseTensorType.of(source.type)
    enc = sparse_encoding(dest_type)
    if stt is None or enc is None or storage_of(source) is None:
        return
    assert is_tensor_type(dest_type)
    at = InsertPoint.before(op)
    entries = SparseSource(source, stt, enc, dest_type.element_type)
    fields = convert_entries(Emitter(rewriter, at), entries, dest_type, parallel)
    rewriter.replace(op, [], [storage_value(fields, dest_type, rewriter, at)])


@dataclass
class ConvertSparseToSparse(RewritePattern):
    """`sparse_tensor.convert` between sparse encodings with other levels ->
    the source's entries counting-sorted into the target's storage order and
    the target's levels built from them (by parallel loops where `parallel`
    and the conversion has a parallel form)."""

    parallel: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertOp, rewriter: PatternRewriter) -> None:
        src, dst = sparse_encoding(op.source.type), sparse_encoding(op.dest.type)
        if src is not None and dst is not None and not _same_levels(src, dst):
            _convert(op, op.source, op.dest.type, rewriter, self.parallel)


@dataclass
class ConvertDenseToSparseDirect(RewritePattern):
    """`sparse_tensor.convert` of a dense tensor computed at run time to an
    encoding with a direct layout (CSR, CSC, DCSR, DCSC, COO, sparse vectors)
    -> a sweep of the dense buffer counting the nonzeros (and the histograms
    of the sort passes, none for a row-major target), then sweeps writing each
    nonzero straight into its place (other encodings: `ConvertDenseToSparse`
    of storage.level_buffers); by parallel loops over the rows where
    `parallel` and the target is row-major."""

    parallel: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertOp, rewriter: PatternRewriter) -> None:
        source, dest_type = op.source, op.dest.type
        enc = sparse_encoding(dest_type)
        if enc is None or sparse_encoding(source.type) is not None:
            return
        if direct_layout(enc, False) is None:
            return
        if not isinstance(source.owner, bufferization.ToTensorOp):
            return  # once the source is bufferized
        if dense_constant_of(source) is not None:
            return  # built at compile time
        assert is_tensor_type(dest_type)
        at = InsertPoint.before(op)
        dense = DenseSource(
            buffer_of(source, rewriter, at), enc, dest_type.element_type
        )
        fields = convert_entries(Emitter(rewriter, at), dense, dest_type, self.parallel)
        rewriter.replace(op, [], [storage_value(fields, dest_type, rewriter, at)])


class LowerReorderCOO(RewritePattern):
    """`sparse_tensor.reorder_coo` -> the conversion between its two COO types:
    a copy when the input is ordered, else stable counting sorts."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReorderCOOOp, rewriter: PatternRewriter) -> None:
        _convert(op, op.input_coo, op.result_coo.type, rewriter)


def _cast_buffer(
    e: Emitter, buffer: SSAValue, t: MemRefType[Attribute], kind: str
) -> SSAValue:
    """A fresh buffer of type `t` holding the elements of `buffer`, converted:
    values as `cast_element`, positions and coordinates as unsigned; into a
    narrower type, the largest is checked against it (`overhead_widths`)."""
    if buffer.type == t:
        return copy_buffer(e, buffer)
    source = buffer.type
    assert is_memref_type(source)
    size = e.dim(buffer)
    fresh = e.alloc(t, [size])
    elem = t.element_type
    if kind == "values" or overhead_bits(elem) >= overhead_bits(source.element_type):

        def move(b: Emitter, i: SSAValue) -> None:
            v = b.load(buffer, [i])
            if kind == "values":
                v = cast_element(b, v, elem)
            else:
                v = b.from_index(b.to_index(v), elem)
            b.store(v, fresh, [i])

        e.for_each(e.index(0), size, move)
        return fresh

    def narrow(b: Emitter, i: SSAValue, largest: list[SSAValue]) -> list[SSAValue]:
        v = b.to_index(b.load(buffer, [i]))
        b.store(b.from_index(v, elem), fresh, [i])
        return [b.value(arith.MaxUIOp(largest[0], v))]

    largest = e.loop(e.index(0), size, [e.index(0)], narrow)[0]
    if kind == "positions":
        positions_fit(e, largest, elem)
    else:
        check_coordinate(e, largest, elem, None)
    return fresh


class CastSparseStorage(RewritePattern):
    """`sparse_tensor.convert` between encodings with the same levels stored in
    other types (position or coordinate widths, element type) -> a copy of
    every buffer, cast elementwise."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertOp, rewriter: PatternRewriter) -> None:
        source, dest_type = op.source, op.dest.type
        src, dst = sparse_encoding(source.type), sparse_encoding(dest_type)
        if src is None or dst is None or not _same_levels(src, dst):
            return
        assert is_tensor_type(source.type) and is_tensor_type(dest_type)
        if src == dst and source.type.element_type == dest_type.element_type:
            return  # the same storage (another shape at most)
        storage = storage_of(source)
        if storage is None:
            return
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        fields: list[SSAValue] = []
        for value, f in zip(storage, storage_fields(dest_type), strict=True):
            if is_memref_type(f.type):
                value = _cast_buffer(e, value, f.type, f.kind)
            fields.append(value)
        rewriter.replace(op, [], [storage_value(fields, dest_type, rewriter, at)])


MAX_SORT_FIELDS = 256


class LowerSort(RewritePattern):
    """`sparse_tensor.sort` -> a bottom-up merge sort of the tuples (stable,
    so it satisfies every algorithm the op names); a buffer of single keys
    sorted alone goes to the sort of `compress`'s coordinates (`sort.py`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SortOp, rewriter: PatternRewriter) -> None:
        perm = op.perm_map.data
        keys = [x.position for x in perm.results if isinstance(x, AffineDimExpr)]
        ny = 0 if op.ny is None else op.ny.value.data
        if perm.num_dims == 1 and keys == [0] and ny == 0 and not op.ys:
            sort_coordinates(Emitter(rewriter, InsertPoint.before(op)), op.xy, op.n)
            rewriter.erase(op)
            return
        if perm.num_dims + ny > MAX_SORT_FIELDS:
            raise PassFailure(
                op,
                f"sorting tuples of {perm.num_dims + ny} fields is not supported "
                f"(at most {MAX_SORT_FIELDS}: each field's moves are unrolled)",
            )
        data = _Tuples(op.xy, list(op.ys), perm.num_dims + ny)
        merge_sort(Emitter(rewriter, InsertPoint.before(op)), op.n, data, keys)
        rewriter.erase(op)


def conversion_patterns(parallel: bool = False) -> tuple[RewritePattern, ...]:
    """The patterns of this module, for `sparse-tensor-codegen`; conversions
    with a parallel form run on threads where `parallel`."""
    return (
        ConvertDenseToSparseDirect(parallel),
        CastSparseStorage(),
        ConvertSparseToSparse(parallel),
        LowerReorderCOO(),
        LowerSort(),
    )
