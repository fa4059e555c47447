"""The loops of a product on one ELL bucket (seed 002, "Decompose Format").

A bucket of width W holds R rows of A, each padded to W slots with explicit
zeros: `rows` (R, i32: the row of A each bucket row is), `cols` (R x W,
i32) and `vals` (R x W). `EllProduct.emit` adds the bucket's share of
`C += A @ B` (SpMM) or `y += A @ x` (SpMV) into C / y:

    scf.parallel %r = 0 to R                       // rows: the thread pool
      %row = min(rows[%r], M - 1)
      SpMM: per tile of C's columns, accumulators in registers
        scf.for %s = 0 to W                        // W: a constant
          %acc = fma(broadcast vals[%r, %s], B[cols[%r, %s], tile], %acc)
      SpMV: one vector of W lanes per row, no mask
        %v = vector.load vals[%r, 0] : vector<W x T>
        %x = vector.gather x[cols[%r, 0:W]]
        y[%row] = vector.reduction <add> (%v * %x), y[%row]

Every bucket row is a different row of A, so the iterations write disjoint
rows of C. Where no other part has entries in the bucket's rows
(`Write.OVERWRITE`, `output_writes`), a row starts from zero instead of C
and its final values are streamed. Coordinates are clamped into range (rows to M - 1, columns to
K - 1) before they are read with, so that arrays changed by hand cannot read
or write outside the operands. The caller checks the shapes (`shapes_agree`)
first and runs the loops only where they agree, else reports `SHAPE_ERROR`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith, scf, vector
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import AnyFloat, IndexType, VectorType, i1, i32
from xdsl.dialects.utils import FastMathFlag
from xdsl.ir import Attribute, Block, Region, SSAValue

from xsparse.dialects.type_guards import is_memref_type
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.dialects.upstream import scf as upstream_scf
from xsparse.dialects.upstream.vector import GatherOp
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.decompose.output_writes import Output, Write
from xsparse.transforms.decompose.two_four_loops import TILE_VECTORS, Tile

INDEX = IndexType()
VECTOR_BITS = 256
SPMV_ROW_BLOCK = 16
"""Bucket rows per parallel iteration of SpMV (each row is a few lanes)."""
SLOT_CHUNK = 16
"""Slots (rows of B) one pass over C's column tiles reads: 16 rows of B
(up to 16 KiB at 128 f64 columns) stay in L1 until the last tile."""
SHAPE_ERROR = (
    "ELL bucket: the shapes do not agree (rows R, cols R x W, vals R x W, "
    "B K (x N), C M (x N))"
)


def element_type(buffer: SSAValue) -> Attribute:
    """The element type of a memref value."""
    t = buffer.type
    assert is_memref_type(t)
    return t.element_type


def float_bit_width(buffer: SSAValue) -> int:
    """The bit width of a float memref's elements."""
    t = element_type(buffer)
    assert isinstance(t, AnyFloat)
    return t.bitwidth


def bucket_width(cols: SSAValue) -> int:
    """W, the static second size of a bucket's `cols` buffer."""
    t = cols.type
    assert is_memref_type(t)
    return t.get_shape()[1]


@dataclass(frozen=True)
class EllProduct:
    """`c += bucket @ b` for one ELL bucket given as memrefs."""

    rows: SSAValue
    cols: SSAValue
    vals: SSAValue
    b: SSAValue
    c: SSAValue
    write: Write = Write.ACCUMULATE
    """`OVERWRITE`: no other part has entries in the bucket's rows."""
    streams: SSAValue | None = None
    """C's rows aligned for non-temporal stores (`output_writes`)."""

    @property
    def out(self) -> Output:
        return Output(self.c, self.write, self.streams)

    @property
    def width(self) -> int:
        return bucket_width(self.cols)

    @property
    def is_matrix_product(self) -> bool:
        t = self.c.type
        assert is_memref_type(t)
        return t.get_num_dims() == 2

    @property
    def lanes(self) -> int:
        return VECTOR_BITS // float_bit_width(self.c)

    def emit(self, e: Emitter) -> None:
        """The product, where the shapes agree (`shapes_agree`: the caller
        checks them first, before any part writes C); nothing when A has no
        rows or no columns (nothing to clamp into)."""
        zero = e.index(0)
        rows, k = e.dim(self.c, 0), e.dim(self.b, 0)
        nonempty = e.all_of([e.cmp(rows, "ugt", zero), e.cmp(k, "ugt", zero)])
        e.when(nonempty, self._emit_rows)

    def shapes_agree(self, e: Emitter) -> SSAValue:
        """Whether the bucket's arrays agree with each other, B and C (an i1)."""
        count = e.dim(self.rows, 0)
        expected = [
            (e.dim(self.cols, 0), count),
            (e.dim(self.vals, 0), count),
            (e.dim(self.vals, 1), e.index(self.width)),
        ]
        if self.is_matrix_product:
            expected.append((e.dim(self.b, 1), e.dim(self.c, 1)))
        return e.all_of([e.cmp(got, "eq", want) for got, want in expected])

    def _emit_rows(self, e: Emitter) -> None:
        """One parallel loop over the bucket's rows (SpMV: blocks of rows)."""
        count = e.dim(self.rows, 0)
        block = 1 if self.is_matrix_product else SPMV_ROW_BLOCK
        body = Block(arg_types=[INDEX])
        inner = e.inside(body)
        first = inner.mul(body.args[0], inner.index(block))
        if block == 1:
            self._row(inner, first)
        else:
            last = inner.value(
                arith.MinUIOp(inner.add(first, inner.index(block)), count)
            )
            inner.for_each(first, last, self._row)
        body.add_op(scf.ReduceOp())
        blocks = e.value(arith.CeilDivUIOp(count, e.index(block)))
        e.op(
            upstream_scf.ParallelOp([e.index(0)], [blocks], [e.index(1)], Region(body))
        )

    def _row(self, e: Emitter, r: SSAValue) -> None:
        last_row = e.sub(e.dim(self.c, 0), e.index(1))
        row = e.value(arith.MinUIOp(e.to_index(e.load(self.rows, [r])), last_row))
        if self.is_matrix_product:
            self._matrix_row(e, r, row)
        else:
            self._vector_row(e, r, row)

    def _column(self, e: Emitter, r: SSAValue, s: SSAValue) -> SSAValue:
        """Column of slot `s` of bucket row `r`, clamped to K - 1."""
        last = e.sub(e.dim(self.b, 0), e.index(1))
        return e.value(arith.MinUIOp(e.to_index(e.load(self.cols, [r, s])), last))

    def _vector_row(self, e: Emitter, r: SSAValue, row: SSAValue) -> None:
        """SpMV: the row's W slots in vectors of the machine's width (a
        constant number of them), then one narrower vector for the rest."""
        lanes = min(self.lanes, self.width)
        whole, rest = divmod(self.width, lanes)
        t = element_type(self.c)
        zero = e.value(vector.BroadcastOp(e.constant(0.0, t), VectorType(t, [lanes])))

        def chunk(inner: Emitter, k: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
            start = inner.mul(k, inner.index(lanes))
            product = self._slots(inner, r, start, lanes)
            return [inner.value(arith.AddfOp(acc[0], product))]

        (acc,) = e.loop(e.index(0), e.index(whole), [zero], chunk)
        (initial,) = self.out.start(e, [[row]], None)
        total = add_lanes(e, acc, initial)
        if rest:
            tail = self._slots(e, r, e.index(whole * lanes), rest)
            total = add_lanes(e, tail, total)
        e.store(total, self.c, [row])

    def _slots(self, e: Emitter, r: SSAValue, start: SSAValue, lanes: int) -> SSAValue:
        """`vals[r, start:start+lanes] * x[cols[r, start:start+lanes]]`."""
        t = element_type(self.c)
        values = e.value(vector.LoadOp(self.vals, [r, start], VectorType(t, [lanes])))
        columns = e.value(
            vector.LoadOp(self.cols, [r, start], VectorType(i32, [lanes]))
        )
        last = e.value(
            upstream_arith.IndexCastOp(e.sub(e.dim(self.b, 0), e.index(1)), i32)
        )
        bound = e.value(vector.BroadcastOp(last, VectorType(i32, [lanes])))
        columns = e.value(arith.MinUIOp(columns, bound))
        mask = e.value(vector.BroadcastOp(e.constant(1, i1), VectorType(i1, [lanes])))
        pass_thru = e.value(
            vector.BroadcastOp(e.constant(0.0, t), VectorType(t, [lanes]))
        )
        zero = e.index(0)
        gathered = e.value(GatherOp(self.b, [zero], columns, mask, pass_thru))
        return e.value(arith.MulfOp(values, gathered))

    def _matrix_row(self, e: Emitter, r: SSAValue, row: SSAValue) -> None:
        """SpMM: the W slots in chunks of at most `SLOT_CHUNK` (their rows
        of B stay in L1 across the tiles), each chunk at every tile of C's
        columns."""
        for start in range(0, self.width, SLOT_CHUNK):
            stop = min(start + SLOT_CHUNK, self.width)
            column_tiles(
                e,
                self.lanes,
                e.dim(self.c, 1),
                lambda o, tile, start=start, stop=stop: self._tile(
                    o, tile, r, row, (start, stop)
                ),
            )

    def _tile(
        self,
        e: Emitter,
        tile: Tile,
        r: SSAValue,
        row: SSAValue,
        slots: tuple[int, int],
    ) -> None:
        """One tile of C's row `row`, accumulated in registers over the
        slots [start, stop) (constants): it starts from C (or from zero at
        the first slot of a row the bucket overwrites) and is stored, at
        the last slot of such a row, as the row's final values."""

        def slot(inner: Emitter, s: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
            value = inner.load(self.vals, [r, s])
            return tile.multiply_add(
                inner, acc, value, self.b, self._column(inner, r, s)
            )

        places = tile.places(e, row)
        vector_type = tile.vector_type(element_type(self.c))
        acc = self.out.start(e, places, vector_type, first=slots[0] == 0)
        acc = e.loop(e.index(slots[0]), e.index(slots[1]), acc, slot)
        self.out.finish(e, acc, places, final=slots[1] == self.width)


def add_lanes(e: Emitter, v: SSAValue, acc: SSAValue) -> SSAValue:
    """`acc + sum(v)`, the lanes summed in any order."""
    return e.value(
        vector.ReductionOp.create(
            operands=[v, acc],
            result_types=[acc.type],
            properties={
                "kind": vector.CombiningKindAttr(vector.CombiningKindFlag.ADD),
                "fastmath": FastMathFlagsAttr([FastMathFlag.REASSOC]),
            },
        )
    )


def column_tiles(
    e: Emitter, lanes: int, columns: SSAValue, body: Callable[[Emitter, Tile], None]
) -> None:
    """`body` on every tile of C's columns: main tiles of `TILE_VECTORS`
    vectors, then single vectors, then scalars (no masks)."""
    start = e.index(0)
    for width, count in ((lanes, TILE_VECTORS), (lanes, 1), (0, 1)):
        step = max(width, 1) * count
        whole = e.sub(
            columns, e.value(arith.RemUIOp(e.sub(columns, start), e.index(step)))
        )

        def tile(
            inner: Emitter, column: SSAValue, width: int = width, count: int = count
        ) -> None:
            body(inner, Tile(width, count, column))

        e.for_each(start, whole, tile, e.index(step))
        start = whole
