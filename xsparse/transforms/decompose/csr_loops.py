"""The loops of SpMM on the CSR remainder of a decomposition (seed 002).

The remainder holds the rows too long for any ELL bucket. Its SpMM runs
as the buckets' does: a chunk of a row's entries at a time, each tile of
C's row accumulated in registers over the chunk (loaded and stored once
per chunk, not at every entry), the chunk's rows of B staying in L1 from
one tile to the next:

    scf.parallel %i = 0 to M                        // rows: the thread pool
      scf.for %p0 = pos[%i] to pos[%i + 1] step 16
        per tile of C's columns (main tiles, single vectors, scalars)
          %acc = C[%i, tile]
          scf.for %p = %p0 to min(%p0 + 16, pos[%i + 1])
            %acc = fma(broadcast vals[%p], B[crd[%p], tile], %acc)
          C[%i, tile] = %acc

As the first part of `C = A @ B` (`Write.INITIALIZE`, `output_writes`) a
row's first chunk starts from zero instead of C (a row without entries
stores zeros) and a row of one chunk is stored once, streamed.

The buffers are the sparse argument's; the runtime validates them at every
call (positions monotone, coordinates in range), as for the sparsifier's
kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, Region, SSAValue

from xsparse.dialects.upstream import scf as upstream_scf
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.decompose.ell_loops import (
    SLOT_CHUNK,
    VECTOR_BITS,
    column_tiles,
    float_bit_width,
)
from xsparse.transforms.decompose.output_writes import Output, Write
from xsparse.transforms.decompose.two_four_loops import Tile

INDEX = IndexType()


@dataclass(frozen=True)
class CsrRowProduct:
    """`c += remainder @ b` (b, c matrices) on CSR level buffers."""

    positions: SSAValue
    coordinates: SSAValue
    values: SSAValue
    b: SSAValue
    c: SSAValue
    write: Write = Write.ACCUMULATE
    """`INITIALIZE`: C = remainder @ B, every row (the first part)."""
    streams: SSAValue | None = None
    """C's rows aligned for non-temporal stores (`output_writes`)."""

    @property
    def out(self) -> Output:
        return Output(self.c, self.write, self.streams)

    def emit(self, e: Emitter) -> None:
        body = Block(arg_types=[INDEX])
        inner = e.inside(body)
        row = body.args[0]
        first = inner.to_index(inner.load(self.positions, [row]))
        after = inner.add(row, inner.index(1))
        last = inner.to_index(inner.load(self.positions, [after]))
        chunk = inner.index(SLOT_CHUNK)
        out = self.out
        if out.write.reads:
            self._chunks(inner, out, row, first, last)
        else:
            # The first chunk starts from zero (an empty row stores zeros);
            # a row of one chunk is stored once, with its final values.
            stop = inner.value(arith.MinUIOp(inner.add(first, chunk), last))
            single = inner.cmp(stop, "eq", last)
            self._chunk(inner, out, row, (first, stop), first=True, final=single)
            self._chunks(inner, out, row, stop, last)
        body.add_op(scf.ReduceOp())
        rows = e.dim(self.c, 0)
        e.op(upstream_scf.ParallelOp([e.index(0)], [rows], [e.index(1)], Region(body)))

    def _chunks(
        self, e: Emitter, out: Output, row: SSAValue, first: SSAValue, last: SSAValue
    ) -> None:
        """The entries [first, last) of `row`, `SLOT_CHUNK` at a time, added
        to C's row."""
        chunk = e.index(SLOT_CHUNK)

        def entries(o: Emitter, start: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            stop = o.value(arith.MinUIOp(o.add(start, chunk), last))
            self._chunk(o, out, row, (start, stop), first=False, final=False)
            return []

        e.loop(first, last, [], entries, step=chunk)

    def _chunk(
        self,
        e: Emitter,
        out: Output,
        row: SSAValue,
        entries: tuple[SSAValue, SSAValue],
        first: bool,
        final: bool | SSAValue,
    ) -> None:
        """Every tile of C's row over one chunk of the row's entries."""
        lanes = VECTOR_BITS // float_bit_width(self.c)

        def tile(o: Emitter, tile: Tile) -> None:
            def entry(
                inner: Emitter, p: SSAValue, acc: list[SSAValue]
            ) -> list[SSAValue]:
                value = inner.load(self.values, [p])
                column = inner.to_index(inner.load(self.coordinates, [p]))
                return tile.multiply_add(inner, acc, value, self.b, column)

            places = tile.places(o, row)
            vector_type = tile.vector_type(out.element_type)
            acc = out.start(o, places, vector_type, first=first)
            acc = o.loop(entries[0], entries[1], acc, entry)
            out.finish(o, acc, places, final=final)

        column_tiles(e, lanes, e.dim(self.c, 1), tile)
