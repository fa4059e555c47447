"""Conversions whose passes run on threads
(`sparse-tensor-codegen{parallel-conversions=true}`, on when the sparsifier
parallelizes). MLIR 22 converts sequentially under every strategy; these are
the count / prefix sum / fill scheme of xsparse's parallel sparse outputs
applied to `sparse_tensor.convert`, with the same result as the sequential
conversion of `storage.conversion`, bit for bit.

Two conversions have a parallel form here; the others stay sequential:

- *Dense to a row-major target* (CSR, `(dense, compressed(nonunique),
  singleton)`, ...): a parallel loop over the rows counts each row's nonzeros
  into the target's positions (`positions[i + 1]`), a sequential prefix sum
  makes them the rows' ends, and a second parallel loop writes each row's
  elements at its next free slot without a branch, as the sequential sweep
  does. A row's places after its last nonzero write the spare slot at `nnz`
  (the sequential sweep writes them at the next row's first slot, which
  another thread may have filled already).
- *Transposition* (CSR -> CSC, CSC -> CSR): a counting sort by the target's
  leading coordinate with per-block histograms, as parallel transposes do.
  The source's entries are cut into K blocks of equal size (K = nnz / m, 1
  to 64, for a target with m leading coordinates: the histograms take at
  most as many index slots as there are entries). Block k counts its
  entries' coordinates into histogram k; a parallel loop over the
  coordinates turns the K counts of coordinate j into each block's offset
  within j's segment and the segment's size (the target's
  `positions[j + 1]`); a sequential prefix sum over j gives the segments'
  ends; a parallel loop adds each segment's start to its blocks' offsets;
  block k then writes its entries at its own cursors. Blocks are in storage
  order and each writes its part of a segment in order, so the result is the
  stable sort that the sequential pass computes.

The block loops read their bounds at `starts[k]`, `starts[k + 1]`, so the
runtime weighs them by entries (`convert_to_llvm.threads.work_positions`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineDimExpr

from xsparse.dialects.sparse_tensor.encoding import Encoding
from xsparse.dialects.sparse_tensor.ops_storage import (
    ToCoordinatesOp,
    ToPositionsOp,
    ToValuesOp,
)
from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.dialects.type_guards import is_memref_type
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.codegen_utils.op_emitter import INDEX
from xsparse.transforms.codegen_utils.stored_entries import (
    level_extent,
    level_sizes,
)
from xsparse.transforms.storage.conversion_entries import (
    DenseSource,
    Histogram,
    Source,
    SparseSource,
    StorageSink,
    as_index,
    check_positions_width,
    field_types,
    prefix_sum,
    shrink,
    storage_fields_of,
)
from xsparse.transforms.storage.level_buffers import (
    alloc_large,
    is_nonzero,
    level_space_nest,
)
from xsparse.transforms.storage.overhead_widths import positions_fit

MAX_BLOCKS = 64
"""The most blocks (and histograms) a transposition cuts its entries into."""
ENTRIES_PER_SLOT = 4
"""A transposition takes at most one histogram slot per this many entries,
so that the histograms' passes (clearing, offsets) stay small beside the
entries' own."""


def convert_on_threads(
    e: Emitter,
    source: Source,
    tensor_type: TensorType[Attribute],
    passes: Sequence[int],
    head: str | None,
) -> list[SSAValue] | None:
    """The storage fields of `tensor_type` holding `source`'s entries, built by
    parallel loops, where the conversion has a parallel form (`passes`: the
    counting sorts it needs; `head`: its direct layout's level 0); else None."""
    enc = sparse_encoding(tensor_type)
    assert enc is not None
    if head != "dense":
        return None
    if isinstance(source, DenseSource) and not passes:
        return _dense_by_rows(e, source, tensor_type, enc)
    if isinstance(source, SparseSource) and passes == [0] and _transposes(source):
        return _transpose_by_blocks(e, source, tensor_type)
    return None


def _transposes(source: SparseSource) -> bool:
    """Whether the source is a compact `(dense, compressed)` matrix whose
    target swaps its two levels."""
    types = source.stt.lvl_types
    return (
        len(types) == 2
        and not source.loose
        and types[0].format.is_dense
        and not types[0].format.is_batched
        and types[1].format.has_positions
        and source.keys == [AffineDimExpr(1), AffineDimExpr(0)]
    )


def _load_index(e: Emitter, buffer: SSAValue, at: SSAValue) -> SSAValue:
    return e.to_index(e.load(buffer, [at]))


def _store_index(e: Emitter, v: SSAValue, buffer: SSAValue, at: SSAValue) -> None:
    t = buffer.type
    assert is_memref_type(t)
    e.store(e.from_index(v, t.element_type), buffer, [at])


# -- dense -> row-major ------------------------------------------------------------


def _dense_by_rows(
    e: Emitter,
    source: DenseSource,
    tensor_type: TensorType[Attribute],
    enc: Encoding,
) -> list[SSAValue]:
    types = field_types(tensor_type)
    dims = source.dims(e)
    sizes = [level_extent(e, x, dims) for x in enc.dim_to_lvl.results]
    rows, inner = dims[0], dims[1:]
    positions = alloc_large(e, types["positions", 1], e.add(rows, e.index(1)))
    _store_index(e, e.index(0), positions, e.index(0))

    def count(b: Emitter, i: SSAValue) -> None:
        def step(
            c: Emitter, coords: list[SSAValue], n: list[SSAValue]
        ) -> list[SSAValue]:
            present = is_nonzero(c, c.load(source.buffer, [i, *coords]))
            return [c.add(n[0], as_index(c, present))]

        n = level_space_nest(b, inner, [b.index(0)], step)[0]
        # A row's count wrapped here would let the total fit: checked first.
        positions_fit(b, n, types["positions", 1].element_type)
        _store_index(b, n, positions, b.add(i, b.index(1)))

    e.parallel_for(e.index(0), rows, count)
    nnz = prefix_sum(e, Histogram(positions, 1), rows, inclusive=True)[0]
    check_positions_width(e, tensor_type, nnz)
    capacity = e.add(nnz, e.index(1))  # the spare slot at nnz
    levels = range(1, enc.lvl_rank)
    sink = StorageSink(
        {lvl: alloc_large(e, types["coordinates", lvl], capacity) for lvl in levels},
        alloc_large(e, types["values", -1], capacity),
        sizes,
    )

    def fill(b: Emitter, i: SSAValue) -> None:
        start = _load_index(b, positions, i)
        end = _load_index(b, positions, b.add(i, b.index(1)))

        def write(
            c: Emitter, coords: list[SSAValue], cursor: list[SSAValue]
        ) -> list[SSAValue]:
            full = [i, *coords]
            v = c.load(source.buffer, full)
            at = c.select(c.cmp(cursor[0], "ult", end), cursor[0], nnz)
            sink.put(c, at, source.entry(c, full, lambda _: v, None))
            return [c.add(cursor[0], as_index(c, is_nonzero(c, v)))]

        level_space_nest(b, inner, [start], write)

    e.parallel_for(e.index(0), rows, fill)
    built = {
        ("coordinates", lvl): shrink(e, c, nnz, True)
        for lvl, c in sink.coordinates.items()
    }
    built["values", -1] = shrink(e, sink.values, nnz, True)
    built["positions", 1] = positions
    return storage_fields_of(tensor_type, built, sizes)


# -- transposition ---------------------------------------------------------------


def _first_index(
    e: Emitter,
    buffer: SSAValue,
    size: SSAValue,
    before: Callable[[Emitter, SSAValue], SSAValue],
) -> SSAValue:
    """The first k in [0, size) where `before(buffer[k])` no longer holds
    (size if it holds everywhere): a binary search of a sorted buffer."""

    def test(b: Emitter, bounds: list[SSAValue]) -> SSAValue:
        return b.cmp(bounds[0], "ult", bounds[1])

    def halve(b: Emitter, bounds: list[SSAValue]) -> list[SSAValue]:
        lo, hi = bounds
        mid = b.add(lo, b.value(arith.ShRUIOp(b.sub(hi, lo), b.index(1))))
        go_right = before(b, _load_index(b, buffer, mid))
        return [
            b.select(go_right, b.add(mid, b.index(1)), lo),
            b.select(go_right, hi, mid),
        ]

    return e.while_loop([e.index(0), size], test, halve)[0]


@dataclass
class _Histograms:
    """One histogram of the target's leading coordinates per block of
    entries, in the target's position type: block k's count (then cursor)
    of coordinate j is at `buffer[k * width + j]`, so each block's
    histogram is a range of its own (no two threads write one cache line
    but at its ends)."""

    buffer: SSAValue
    width: SSAValue

    def slot(self, e: Emitter, k: SSAValue, j: SSAValue) -> SSAValue:
        return e.add(e.mul(k, self.width), j)

    def read(self, e: Emitter, at: SSAValue) -> SSAValue:
        return _load_index(e, self.buffer, at)

    def write(self, e: Emitter, at: SSAValue, v: SSAValue) -> None:
        _store_index(e, v, self.buffer, at)

    def bump(self, e: Emitter, k: SSAValue, j: SSAValue) -> SSAValue:
        """Add one at block k's coordinate j; returns the old value."""
        at = self.slot(e, k, j)
        old = self.read(e, at)
        self.write(e, at, e.add(old, e.index(1)))
        return old


def _block_count(e: Emitter, nnz: SSAValue, width: SSAValue) -> SSAValue:
    """How many blocks a transposition of `nnz` entries into `width` leading
    coordinates cuts them into: one histogram slot per `ENTRIES_PER_SLOT`
    entries at most, 1 to `MAX_BLOCKS` blocks."""
    one = e.index(1)
    slots = e.mul(e.value(arith.MaxUIOp(width, one)), e.index(ENTRIES_PER_SLOT))
    per_slots = e.value(arith.DivUIOp(nnz, slots))
    return e.value(
        arith.MinUIOp(e.value(arith.MaxUIOp(per_slots, one)), e.index(MAX_BLOCKS))
    )


def _transpose_by_blocks(
    e: Emitter, source: SparseSource, tensor_type: TensorType[Attribute]
) -> list[SSAValue]:
    types = field_types(tensor_type)
    tensor = source.tensor
    pos = e.value(ToPositionsOp(tensor, 1))
    crd = e.value(ToCoordinatesOp(tensor, 1))
    values = e.value(ToValuesOp(tensor))
    # the source's level sizes; the target's are (width, rows)
    rows, width = level_sizes(e, tensor, source.stt)
    nnz = _load_index(e, pos, rows)
    check_positions_width(e, tensor_type, nnz)
    one = e.index(1)
    blocks = _block_count(e, nnz, width)
    starts = e.alloc(MemRefType(INDEX, [DYNAMIC_INDEX]), [e.add(blocks, one)])

    def start(b: Emitter, k: SSAValue) -> None:
        b.store(b.value(arith.DivUIOp(b.mul(k, nnz), blocks)), starts, [k])

    e.for_each(e.index(0), e.add(blocks, one), start)
    histograms = _Histograms(
        alloc_large(e, types["positions", 1], e.mul(blocks, width)), width
    )

    def count(b: Emitter, k: SSAValue) -> None:
        lo, hi = b.load(starts, [k]), b.load(starts, [b.add(k, one)])

        def clear(c: Emitter, j: SSAValue) -> None:
            histograms.write(c, histograms.slot(c, k, j), c.index(0))

        def bump(c: Emitter, p: SSAValue) -> None:
            histograms.bump(c, k, _load_index(c, crd, p))

        b.for_each(b.index(0), width, clear)
        b.for_each(lo, hi, bump)

    e.parallel_for(e.index(0), blocks, count)
    positions = alloc_large(e, types["positions", 1], e.add(width, one))
    _store_index(e, e.index(0), positions, e.index(0))

    def offsets(b: Emitter, j: SSAValue) -> None:
        def visit(c: Emitter, k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            at = histograms.slot(c, k, j)
            counted = histograms.read(c, at)
            histograms.write(c, at, carried[0])
            return [c.add(carried[0], counted)]

        total = b.loop(b.index(0), blocks, [b.index(0)], visit)[0]
        _store_index(b, total, positions, b.add(j, one))

    e.parallel_for(e.index(0), width, offsets)
    prefix_sum(e, Histogram(positions, 1), width, inclusive=True)

    def shift(b: Emitter, j: SSAValue) -> None:
        begin = _load_index(b, positions, j)

        def add(c: Emitter, k: SSAValue) -> None:
            at = histograms.slot(c, k, j)
            histograms.write(c, at, c.add(histograms.read(c, at), begin))

        b.for_each(b.index(0), blocks, add)

    e.parallel_for(e.index(0), width, shift)
    sink = StorageSink(
        {1: alloc_large(e, types["coordinates", 1], nnz)},
        alloc_large(e, types["values", -1], nnz),
        [width, rows],
    )

    def scatter(b: Emitter, k: SSAValue) -> None:
        lo, hi = b.load(starts, [k]), b.load(starts, [b.add(k, one)])
        ends = b.add(rows, one)
        after = _first_index(b, pos, ends, lambda c, p: c.cmp(p, "ule", lo))
        last = _first_index(b, pos, ends, lambda c, p: c.cmp(p, "ult", hi))

        def row(c: Emitter, i: SSAValue) -> None:
            begin = c.value(arith.MaxUIOp(_load_index(c, pos, i), lo))
            end = c.value(arith.MinUIOp(_load_index(c, pos, c.add(i, one)), hi))

            def entry(d: Emitter, p: SSAValue) -> None:
                j = _load_index(d, crd, p)
                at = histograms.bump(d, k, j)
                value = source.entry(d, [i, j], lambda f: f.load(values, [p]), p)
                sink.put(d, at, value)

            c.for_each(begin, end, entry)

        b.for_each(b.sub(after, one), last, row)

    e.parallel_for(e.index(0), blocks, scatter)
    e.op(memref.DeallocOp.get(histograms.buffer))
    e.op(memref.DeallocOp.get(starts))
    built = {
        ("positions", 1): positions,
        ("coordinates", 1): sink.coordinates[1],
        ("values", -1): sink.values,
    }
    return storage_fields_of(tensor_type, built, [width, rows])
