"""The loops of a product on one BSR part (seed 002, "Decompose Format").

A BSR part of b x b blocks is MLIR's block-map encoding
`(i floordiv b : dense, j floordiv b : compressed, i mod b : dense,
j mod b : dense)`; its buffers are the block rows' positions, the blocks'
column coordinates and the values, b * b per block, row-major.
`BsrProduct.emit` adds the part's share of `C += A @ B` or `y += A @ x`,
register-blocked: a group of rows of a block row accumulates in registers
over all the row's blocks, each slice of x or B loaded once per block for
the whole group, C read and written once per block row:

    scf.parallel %bi = 0 to M / b                    // block rows: threads
      SpMV, per group of `SPMV_ROW_GROUP` rows: an accumulator of L lanes each
        scf.for %p = pos[%bi] to pos[%bi + 1]
          %x_q = vector.load x[crd[%p] * b + q * L]   // b / L slices, no gather
          %acc_r = fma(vector.load vals[(%p * b + r) * b + q * L], %x_q, %acc_r)
        y[%bi * b + r] += vector.reduction <add> %acc_r
      SpMM, per tile of C's columns (V vectors), per group of R rows
        %acc_r = C[%bi * b + r, tile]                // R x V vectors
        scf.for %p = pos[%bi] to pos[%bi + 1]
          scf.for %c = 0 to b                        // b: a constant
            %b_row = B[crd[%p] * b + %c, tile]       // V vectors, loaded once
            %acc_r = fma(broadcast vals[(%p * b + r) * b + %c], %b_row, %acc_r)
        C[%bi * b + r, tile] = %acc_r

L is the machine's vector (256 bits) where b is a multiple of it. SpMM
groups R = `SPMM_ROW_GROUP` rows (a loop over the groups) with V =
`TILE_VECTORS` vectors: the tile's slice of B (128 bytes of each row of B
the block row's blocks cover, at f64) stays in L1 from one group to the
next. On a block-structured matrix larger than the caches the product is
bound by the traffic of B (4 KiB per 8 x 8 block at 64 f64 columns), which
this order keeps at one pass; taller groups (8 rows of one vector) read B
in 32-byte strips and ran 1.3x slower there; one row at a time (the loop
before these groups) ran 1.6x slower where B stays in cache.

Each (tile, group) step also prefetches its share of the B slab (a block's
b rows of B, contiguous) of the block at the same place
`PREFETCH_DISTANCE` block rows later, in address order, so that the
slabs of random block columns arrive while this block row computes: the
decomposed SpMM 1.1-1.2x faster on a block matrix whose B (51 MB) is
larger than the caches (the BSR part alone 1.2-1.4x), no slower where B
mostly stays in cache. (The prefetches add register pressure: LLVM spills
a few of the unrolled loop's loaded B vectors to the stack, L1 traffic.)

As the first part of `C = A @ B` (`Write.INITIALIZE`, `output_writes`),
the block row's accumulators start from zero instead of C and are
streamed (a block row without blocks stores zeros).

The coordinates are the sparse argument's, checked at every call by the
runtime's validation (in range, ordered), as for the sparsifier's kernels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, scf, vector
from xdsl.dialects.builtin import IndexType, VectorType
from xdsl.ir import Block, Region, SSAValue

from xsparse.dialects.type_guards import is_memref_type
from xsparse.dialects.upstream import scf as upstream_scf
from xsparse.dialects.upstream.memref import PrefetchOp
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.decompose.ell_loops import (
    VECTOR_BITS,
    add_lanes,
    column_tiles,
    element_type,
    float_bit_width,
)
from xsparse.transforms.decompose.output_writes import Output, Write
from xsparse.transforms.decompose.two_four_loops import Tile

INDEX = IndexType()
SPMV_ROW_GROUP = 8
"""SpMV: rows of a block row accumulated together (larger blocks: in groups)."""
SPMM_ROW_GROUP = 2
"""SpMM: rows of a block row accumulated together, per tile of C (with
`TILE_VECTORS` vectors each: 8 accumulators, 4 loads of B, 2 broadcasts and
8 FMAs per column of a block, in 13 of AVX2's 16 vector registers)."""
PREFETCH_DISTANCE = 1
"""SpMM: how many block rows ahead the blocks' rows of B are prefetched (0:
none). A block's b rows of B are one contiguous slab (4 KiB at b = 8 and 64
f64 columns); each (tile, group) step prefetches its share of the slab of
the block at the same place that many block rows later, in address order
(1 and 2 measured alike at 64 columns; 1 was 1.02-1.08x faster at 128;
3 was slower)."""
CACHE_LINE = 64


def row_groups(block: int, size: int) -> list[range]:
    """The rows of a block in groups of at most `size`."""
    return [range(r, min(r + size, block)) for r in range(0, block, size)]


@dataclass(frozen=True)
class BsrProduct:
    """`c += part @ b` for a BSR part given as its level buffers."""

    positions: SSAValue
    coordinates: SSAValue
    values: SSAValue
    block: int
    b: SSAValue
    c: SSAValue
    write: Write = Write.ACCUMULATE
    """`INITIALIZE`: C = part @ B, every row (the first part)."""
    streams: SSAValue | None = None
    """C's rows aligned for non-temporal stores (`output_writes`)."""

    @property
    def out(self) -> Output:
        return Output(self.c, self.write, self.streams)

    @property
    def is_matrix_product(self) -> bool:
        t = self.c.type
        assert is_memref_type(t)
        return t.get_num_dims() == 2

    @property
    def lanes(self) -> int:
        return VECTOR_BITS // float_bit_width(self.c)

    def emit(self, e: Emitter) -> None:
        """One parallel loop over the block rows."""
        block_rows = e.value(arith.DivUIOp(e.dim(self.c, 0), e.index(self.block)))
        body = Block(arg_types=[INDEX])
        inner = e.inside(body)
        bi = body.args[0]
        first = inner.to_index(inner.load(self.positions, [bi]))
        last = inner.to_index(
            inner.load(self.positions, [inner.add(bi, inner.index(1))])
        )
        base = inner.mul(bi, inner.index(self.block))
        if self.is_matrix_product:
            ahead = self._ahead(inner, bi, block_rows, first)
            self._matrix_block_row(inner, base, first, last, ahead)
        else:
            for rows in row_groups(self.block, SPMV_ROW_GROUP):
                self._vector_group(inner, rows, base, first, last)
        body.add_op(scf.ReduceOp())
        e.op(
            upstream_scf.ParallelOp(
                [e.index(0)], [block_rows], [e.index(1)], Region(body)
            )
        )

    def _ahead(
        self, e: Emitter, bi: SSAValue, block_rows: SSAValue, first: SSAValue
    ) -> Ahead | None:
        """Where block row bi prefetches (see `PREFETCH_DISTANCE`)."""
        if not PREFETCH_DISTANCE:
            return None
        distance = e.index(PREFETCH_DISTANCE)
        later = e.value(arith.MinUIOp(e.add(bi, distance), block_rows))
        total = e.to_index(e.load(self.positions, [block_rows]))
        return Ahead(
            e.sub(e.to_index(e.load(self.positions, [later])), first),
            e.sub(total, e.index(1)),
        )

    def _value_at(self, e: Emitter, p: SSAValue, r: int | SSAValue) -> SSAValue:
        """Offset of row r of block p in the values buffer."""
        b = e.index(self.block)
        row = e.index(r) if isinstance(r, int) else r
        return e.mul(e.add(e.mul(p, b), row), b)

    def _block_column(self, e: Emitter, p: SSAValue) -> SSAValue:
        """The first column of A block p covers."""
        return e.mul(e.to_index(e.load(self.coordinates, [p])), e.index(self.block))

    def _slice_lanes(self) -> int:
        """Lanes of SpMV's vectors: the machine's (b a multiple of them),
        else the whole block row (LLVM splits it)."""
        lanes = min(self.lanes, self.block)
        return lanes if self.block % lanes == 0 else self.block

    def _vector_group(
        self,
        e: Emitter,
        rows: range,
        base: SSAValue,
        first: SSAValue,
        last: SSAValue,
    ) -> None:
        """SpMV on rows `rows` of the block row at `base`."""
        t = element_type(self.c)
        lanes = self._slice_lanes()
        vector_type = VectorType(t, [lanes])
        zero = e.value(vector.BroadcastOp(e.constant(0.0, t), vector_type))
        starts = range(0, self.block, lanes)

        def block(inner: Emitter, p: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
            column = self._block_column(inner, p)
            xs = [
                inner.value(
                    vector.LoadOp(
                        self.b, [inner.add(column, inner.index(s))], vector_type
                    )
                )
                for s in starts
            ]
            sums: list[SSAValue] = []
            for r, a in zip(rows, acc, strict=True):
                at = self._value_at(inner, p, r)
                for s, x in zip(starts, xs, strict=True):
                    offset = inner.add(at, inner.index(s))
                    v = inner.value(vector.LoadOp(self.values, [offset], vector_type))
                    a = inner.value(vector.FMAOp(v, x, a))
                sums.append(a)
            return sums

        acc = e.loop(first, last, [zero] * len(rows), block)
        for r, a in zip(rows, acc, strict=True):
            row = e.add(base, e.index(r))
            (initial,) = self.out.start(e, [[row]], None)
            e.store(add_lanes(e, a, initial), self.c, [row])

    def _matrix_block_row(
        self,
        e: Emitter,
        base: SSAValue,
        first: SSAValue,
        last: SSAValue,
        ahead: Ahead | None,
    ) -> None:
        """SpMM on the block row at `base`: per tile of C's columns, its
        groups of rows (a loop over the whole groups, then the rest), the
        tile's slice of B staying in L1 from one group to the next."""
        size = min(SPMM_ROW_GROUP, self.block)
        whole = self.block - self.block % size

        def tile(inner: Emitter, tile: Tile) -> None:
            def group(o: Emitter, r: SSAValue) -> None:
                self._tile(o, tile, base, r, size, (first, last), ahead)

            inner.for_each(inner.index(0), inner.index(whole), group, inner.index(size))
            if whole < self.block:
                rest = self.block - whole
                at = inner.index(whole)
                self._tile(inner, tile, base, at, rest, (first, last), ahead)

        column_tiles(e, self.lanes, e.dim(self.c, 1), tile)

    def _tile(
        self,
        e: Emitter,
        tile: Tile,
        base: SSAValue,
        r: SSAValue,
        count: int,
        blocks: tuple[SSAValue, SSAValue],
        ahead: Ahead | None,
    ) -> None:
        """One tile of C on `count` rows from row r of the block row at
        `base`, accumulated in registers over the block row's blocks."""
        row = e.add(base, r)
        c_rows = [e.add(row, e.index(n)) for n in range(count)]
        width = tile.count

        def block(inner: Emitter, p: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
            column = self._block_column(inner, p)
            first = self._value_at(inner, p, r)
            b = inner.index(self.block)
            at = [inner.add(first, inner.mul(inner.index(n), b)) for n in range(count)]

            def entry(o: Emitter, c: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
                b_row = tile.load(o, self.b, o.add(column, c))
                sums: list[SSAValue] = []
                for n, offset in enumerate(at):
                    value = o.load(self.values, [o.add(offset, c)])
                    sums += _multiply_add(
                        o, value, b_row, acc[n * width : (n + 1) * width]
                    )
                return sums

            if ahead is not None and tile.lanes and tile.count > 1:
                self._prefetch(inner, ahead, p, r, count, tile)
            return inner.loop(inner.index(0), b, acc, entry)

        places = [at for c_row in c_rows for at in tile.places(e, c_row)]
        vector_type = tile.vector_type(element_type(self.c))
        acc = self.out.start(e, places, vector_type)
        acc = e.loop(blocks[0], blocks[1], acc, block)
        self.out.finish(e, acc, places)

    def _prefetch(
        self, e: Emitter, ahead: Ahead, p: SSAValue, r: SSAValue, count: int, tile: Tile
    ) -> None:
        """Prefetch the share of this (tile, group) step in the B slab of
        block p's counterpart `PREFETCH_DISTANCE` block rows later: `count`
        x W elements from column x b + r x W of the b x N slab, W the tile's
        width (the steps of all main tiles and groups cover the slab once),
        one `memref.prefetch` per cache line. Each is indexed from the slab's
        first row: its column runs on into the slab's next rows (B's rows are
        contiguous; a prefetch never faults, and its address is B's)."""
        assert tile.column is not None
        q = e.value(arith.MinUIOp(e.add(p, ahead.shift), ahead.last))
        slab = self._block_column(e, q)
        width = tile.count * tile.lanes
        column = e.mul(tile.column, e.index(self.block))
        start = e.add(column, e.mul(r, e.index(width)))
        line = CACHE_LINE // (float_bit_width(self.c) // 8)
        for offset in range(0, count * width, line):
            at = e.add(start, e.index(offset))
            e.op(PrefetchOp(self.b, [slab, at]))


@dataclass(frozen=True)
class Ahead:
    """What a block row needs to prefetch the B slabs of a later one."""

    shift: SSAValue
    """From a block of this block row to its counterpart in the later one."""
    last: SSAValue
    """The last block of the part (counterparts are clamped to it)."""


def _multiply_add(
    e: Emitter, value: SSAValue, b_row: Sequence[SSAValue], acc: Sequence[SSAValue]
) -> list[SSAValue]:
    """`acc += value * b_row`, elementwise (vectors: one broadcast, FMAs)."""
    t = b_row[0].type
    if not isinstance(t, VectorType):
        return [
            e.value(arith.AddfOp(a, e.value(arith.MulfOp(value, r))))
            for a, r in zip(acc, b_row, strict=True)
        ]
    splat = e.value(vector.BroadcastOp(value, VectorType(value.type, t.get_shape())))
    return [e.value(vector.FMAOp(splat, r, a)) for a, r in zip(acc, b_row, strict=True)]
