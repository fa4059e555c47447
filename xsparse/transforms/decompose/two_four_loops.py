"""The loops of a 2:4 matrix product on the decomposed arrays (seed 004).

`TwoFourProduct.emit` computes `C += A @ B` (SpMM, B a matrix) or
`y += A @ x` (SpMV) where A is given as its values (M x 2*ceil(K/4)) and
packed metadata (M x ceil(K/16) 16-bit words, `xsparse.two_four` documents
the bits) buffers:

    %packed = B's columns, tile by tile                // SpMM: few TLB pages
    scf.parallel %p = 0 to row blocks * column slots   // on the thread pool
      (block of ROW_BLOCK rows, slot: a main tile of C's columns or the rest)
      scf.for %w0 = 0 to K floordiv 16 step K_CHUNK    // B's panel stays in L1
        scf.for %i = rows of the block
          %acc = vector.load C[%i, tile]               // kept in registers
          scf.for %w = %w0 to min(%w0 + K_CHUNK, K floordiv 16)
            %word = memref.load meta[%i, %w]           // 8 positions, decoded
            8 x (broadcast value, vector.load B row, vector.fma)  // by shifts
          vector.store %acc, C[%i, tile]
      (the blocks after the last whole word, their rows of B clamped)

A main tile is `TILE_VECTORS` vectors of 256 bits (4 x f64, 8 x f32); the
columns after the main tiles take single vectors, then scalars, reading B
itself. Vector tiles accumulate with `vector.fma` (one rounding per
product-sum), scalars with `arith.mulf` + `arith.addf` as the linalg body
does; either way the sum over k runs in the order of k. Blocks of rows and
slots of columns are flattened into one parallel loop so that it has
iterations enough for the thread runtime to split it.

The arrays' shapes are checked first: where they disagree, the kernel
reports it (`runtime_error`: the Python caller raises ValueError) and reads
and writes nothing: a refused call leaves C as it was, with no copy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, memref, scf, vector
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IndexType,
    MemRefType,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, Block, Region, SSAValue

from xsparse.dialects.type_guards import is_memref_type
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.dialects.upstream import scf as upstream_scf
from xsparse.transforms.codegen_utils.emitter import Emitter

INDEX = IndexType()

ROW_BLOCK = 32
"""Rows of A per parallel iteration of SpMM: they share the cached panel of B."""
SPMV_ROW_BLOCK = 8
"""Rows of A per parallel iteration of SpMV (x is small: the block only
makes the iterations worth the runtime's while)."""
K_CHUNK = 8
"""Metadata words (16 columns of A each) per panel of B (128 rows of B):
small enough that the panel's pages stay in the TLB."""
TILE_VECTORS = 4
"""Accumulator vectors per row in the main column tiles."""
VECTOR_BITS = 256
SHAPE_ERROR = (
    "2:4 product: the shapes do not agree (values M x 2*ceil(K/4), "
    "metadata M x ceil(K/16), B K x N, C M x N)"
)
BLOCKS_PER_WORD = 4
"""2:4 blocks per 16-bit metadata word (two 2-bit positions each)."""


@dataclass(frozen=True)
class Tile:
    """`count` accumulators of `lanes` elements (0: scalars) per row of C, at
    column `column` (None for SpMV, whose operands have no column)."""

    lanes: int
    count: int
    column: SSAValue | None
    packed: SSAValue | None = None
    """For a main tile: its index into the packed copy of B."""

    def _at(self, e: Emitter, row: SSAValue, u: int) -> list[SSAValue]:
        if self.packed is not None:
            return [self.packed, row, e.index(u * self.lanes)]
        if self.column is None:
            return [row]
        return [row, e.add(self.column, e.index(u * max(self.lanes, 1)))]

    def _vector_type(self, element: Attribute) -> VectorType[Attribute]:
        return VectorType(element, [self.lanes])

    def places(self, e: Emitter, row: SSAValue) -> list[list[SSAValue]]:
        """The indices of the tile's accumulators in row `row` of C."""
        return [self._at(e, row, u) for u in range(self.count)]

    def vector_type(self, element: Attribute) -> VectorType[Attribute] | None:
        """The accumulators' type: vectors of `element`, None for scalars."""
        return self._vector_type(element) if self.lanes else None

    def load(self, e: Emitter, buffer: SSAValue, row: SSAValue) -> list[SSAValue]:
        """The accumulators (or B's entries) at `row`."""
        element = _element_type(buffer)
        return [
            e.value(vector.LoadOp(buffer, at, self._vector_type(element)))
            if self.lanes
            else e.load(buffer, at)
            for at in (self._at(e, row, u) for u in range(self.count))
        ]

    def store(
        self, e: Emitter, values: Sequence[SSAValue], buffer: SSAValue, row: SSAValue
    ) -> None:
        for u, v in enumerate(values):
            at = self._at(e, row, u)
            if self.lanes:
                e.op(vector.StoreOp(v, buffer, at))
            else:
                e.store(v, buffer, at)

    def multiply_add(
        self,
        e: Emitter,
        accumulators: Sequence[SSAValue],
        value: SSAValue,
        b: SSAValue,
        b_row: SSAValue,
    ) -> list[SSAValue]:
        """`acc += value * B[b_row, columns]` for each accumulator (B packed
        where this tile reads a packed copy)."""
        rows = self.load(e, b, b_row)
        if not self.lanes:
            return [
                e.value(arith.AddfOp(acc, e.value(arith.MulfOp(value, r))))
                for acc, r in zip(accumulators, rows, strict=True)
            ]
        splat = e.value(vector.BroadcastOp(value, self._vector_type(value.type)))
        return [
            e.value(vector.FMAOp(splat, r, acc))
            for acc, r in zip(accumulators, rows, strict=True)
        ]


def _element_type(buffer: SSAValue) -> Attribute:
    t = buffer.type
    assert is_memref_type(t)
    return t.element_type


def _position(e: Emitter, word: SSAValue, shift: SSAValue) -> SSAValue:
    """The 2-bit position at bit `shift` of `word` (an i32), as an index."""
    bits = e.value(arith.ShRUIOp(word, shift))
    two_bits = e.value(arith.AndIOp(bits, e.constant(3, i32)))
    return e.value(upstream_arith.IndexCastOp(two_bits, INDEX))


@dataclass(frozen=True)
class ColumnTile:
    """A tile of C's columns (`c`) and where it reads B: tile `b` of
    `b_buffer`, B itself at the same columns or the packed copy."""

    c: Tile
    b: Tile
    b_buffer: SSAValue


Accumulate = Callable[[Emitter, SSAValue, list[SSAValue]], list[SSAValue]]
"""`(emitter, row, accumulators) -> accumulators`."""


@dataclass(frozen=True)
class TwoFourProduct:
    """`c += A @ b` with A as `values` and `metadata` buffers (memrefs)."""

    values: SSAValue
    metadata: SSAValue
    b: SSAValue
    c: SSAValue

    @property
    def is_matrix_product(self) -> bool:
        c_type = self.c.type
        assert is_memref_type(c_type)
        return c_type.get_num_dims() == 2

    @property
    def lanes(self) -> int:
        return VECTOR_BITS // _bit_width(_element_type(self.c))

    def emit(self, e: Emitter) -> None:
        """The product where the shapes agree, else a run-time error: one
        `scf.if` whose branches either write C or report, so that a refused
        call changed nothing (`native_checks.reports_while_running`)."""

        def product(inner: Emitter) -> list[SSAValue]:
            self._emit_product(inner)
            return []

        def report(inner: Emitter) -> list[SSAValue]:
            inner.runtime_error(SHAPE_ERROR)
            return []

        e.branch(self._shapes_agree(e), product, report)

    def _shapes_agree(self, e: Emitter) -> SSAValue:
        """values M x 2*ceil(K/4), metadata M x ceil(K/16), B K (x N), C M (x N)."""
        rows, k = e.dim(self.c, 0), e.dim(self.b, 0)
        blocks = e.value(arith.CeilDivUIOp(k, e.index(4)))
        expected = [
            (e.dim(self.values, 0), rows),
            (e.dim(self.metadata, 0), rows),
            (e.dim(self.values, 1), e.mul(blocks, e.index(2))),
            (e.dim(self.metadata, 1), e.value(arith.CeilDivUIOp(k, e.index(16)))),
        ]
        if self.is_matrix_product:
            expected.append((e.dim(self.b, 1), e.dim(self.c, 1)))
        return e.all_of([e.cmp(got, "eq", want) for got, want in expected])

    def _emit_product(self, e: Emitter) -> None:
        """B packed (SpMM), then one parallel loop over (block of rows, slot of
        columns) pairs, slots fastest: the main tiles of C's columns and,
        last, the narrower columns after them (SpMV: one slot)."""
        packed = self._pack_b(e) if self.is_matrix_product else None
        rows = e.dim(self.c, 0)
        row_block = ROW_BLOCK if packed is not None else SPMV_ROW_BLOCK
        blocks = e.value(arith.CeilDivUIOp(e.dim(self.values, 1), e.index(2)))
        row_blocks = e.value(arith.CeilDivUIOp(rows, e.index(row_block)))
        tiles = e.index(0) if packed is None else self._main_tiles(e)
        slots = e.add(tiles, e.index(1))
        body = Block(arg_types=[INDEX])
        inner = e.inside(body)
        which = body.args[0]
        block = inner.value(arith.DivUIOp(which, slots))
        first = inner.mul(block, inner.index(row_block))
        last = inner.value(
            arith.MinUIOp(inner.add(first, inner.index(row_block)), rows)
        )
        slot = inner.value(arith.RemUIOp(which, slots))
        self._slot(inner, packed, slot, tiles, (first, last, blocks))
        body.add_op(scf.ReduceOp())
        count = e.mul(row_blocks, slots)
        e.op(upstream_scf.ParallelOp([e.index(0)], [count], [e.index(1)], Region(body)))
        if packed is not None:
            e.op(memref.DeallocOp.get(packed))

    def _main_tiles(self, e: Emitter) -> SSAValue:
        """How many whole main tiles C's columns hold."""
        width = e.index(self.lanes * TILE_VECTORS)
        return e.value(arith.DivUIOp(e.dim(self.c, 1), width))

    def _pack_b(self, e: Emitter) -> SSAValue:
        """B's whole main tiles, tile by tile (`tiles x K x TILE`): the rows a
        block of A's rows reads then lie in few pages."""
        width = self.lanes * TILE_VECTORS
        tiles = self._main_tiles(e)
        k = e.dim(self.b, 0)
        t = MemRefType(_element_type(self.b), [DYNAMIC_INDEX, DYNAMIC_INDEX, width])
        packed = e.alloc(t, [tiles, k])

        def row(inner: Emitter, b_row: SSAValue, tile: SSAValue) -> None:
            column = inner.mul(tile, inner.index(width))
            source = Tile(self.lanes, TILE_VECTORS, column)
            target = Tile(self.lanes, TILE_VECTORS, None, tile)
            target.store(inner, source.load(inner, self.b, b_row), packed, b_row)

        e.for_each(
            e.index(0),
            tiles,
            lambda o, tile: o.for_each(o.index(0), k, lambda i, r: row(i, r, tile)),
        )
        return packed

    def _slot(
        self,
        e: Emitter,
        packed: SSAValue | None,
        slot: SSAValue,
        tiles: SSAValue,
        rows: tuple[SSAValue, SSAValue, SSAValue],
    ) -> None:
        """Rows [first, last) of C at one slot of columns: main tile `slot`
        (reading the packed B), or the narrower columns after the main tiles
        (SpMV: the row itself)."""
        if packed is None:
            tile = Tile(0, 1, None)
            self._tile_rows(e, ColumnTile(tile, tile, self.b), *rows)
            return
        width = e.index(self.lanes * TILE_VECTORS)

        def main_tile(inner: Emitter) -> list[SSAValue]:
            column = inner.mul(slot, width)
            c = Tile(self.lanes, TILE_VECTORS, column)
            b = Tile(self.lanes, TILE_VECTORS, None, slot)
            self._tile_rows(inner, ColumnTile(c, b, packed), *rows)
            return []

        def narrow_columns(inner: Emitter) -> list[SSAValue]:
            start = inner.mul(tiles, width)
            columns = inner.dim(self.c, 1)
            for lanes in (self.lanes, 0):
                start = self._column_loop(inner, lanes, start, columns, rows)
            return []

        e.branch(e.cmp(slot, "ult", tiles), main_tile, narrow_columns)

    def _column_loop(
        self,
        e: Emitter,
        lanes: int,
        start: SSAValue,
        columns: SSAValue,
        rows: tuple[SSAValue, SSAValue, SSAValue],
    ) -> SSAValue:
        """Single vectors of `lanes` columns (scalars for 0) from `start`
        while whole ones fit, reading B itself; the column where they stop."""
        width = e.index(max(lanes, 1))
        whole = e.sub(columns, e.value(arith.RemUIOp(e.sub(columns, start), width)))

        def body(inner: Emitter, column: SSAValue) -> None:
            tile = Tile(lanes, 1, column)
            self._tile_rows(inner, ColumnTile(tile, tile, self.b), *rows)

        e.for_each(start, whole, body, width)
        return whole

    def _tile_rows(
        self,
        e: Emitter,
        tile: ColumnTile,
        first: SSAValue,
        last: SSAValue,
        blocks: SSAValue,
    ) -> None:
        """One tile of columns for rows [first, last): the whole words of
        metadata in chunks, then the blocks after them."""
        words = e.value(arith.DivUIOp(e.dim(self.b, 0), e.index(16)))
        chunk = e.index(K_CHUNK)

        def chunk_body(inner: Emitter, w0: SSAValue) -> None:
            w1 = inner.value(arith.MinUIOp(inner.add(w0, chunk), words))
            self._rows(
                inner,
                tile,
                first,
                last,
                lambda r, i, acc: self._words(r, tile, i, acc, w0, w1),
            )

        e.for_each(e.index(0), words, chunk_body, chunk)
        tail = e.mul(words, e.index(BLOCKS_PER_WORD))
        self._rows(
            e,
            tile,
            first,
            last,
            lambda r, i, acc: self._blocks(r, tile, i, acc, tail, blocks),
        )

    def _rows(
        self,
        e: Emitter,
        tile: ColumnTile,
        first: SSAValue,
        last: SSAValue,
        accumulate: Accumulate,
    ) -> None:
        def body(inner: Emitter, row: SSAValue) -> None:
            acc = tile.c.load(inner, self.c, row)
            tile.c.store(inner, accumulate(inner, row, acc), self.c, row)

        e.for_each(first, last, body)

    def _words(
        self,
        e: Emitter,
        tile: ColumnTile,
        row: SSAValue,
        acc: list[SSAValue],
        w0: SSAValue,
        w1: SSAValue,
    ) -> list[SSAValue]:
        """Whole metadata words [w0, w1) of `row`: 8 values each, unrolled."""

        def body(inner: Emitter, w: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
            word = self._word(inner, row, w)
            b_base = inner.mul(w, inner.index(16))
            v_base = inner.mul(w, inner.index(8))
            for s in range(8):
                position = _position(inner, word, inner.constant(2 * s, i32))
                b_row = inner.total([b_base, inner.index(4 * (s // 2)), position])
                value = inner.load(
                    self.values, [row, inner.add(v_base, inner.index(s))]
                )
                acc = tile.b.multiply_add(inner, acc, value, tile.b_buffer, b_row)
            return acc

        return e.loop(w0, w1, acc, body)

    def _blocks(
        self,
        e: Emitter,
        tile: ColumnTile,
        row: SSAValue,
        acc: list[SSAValue],
        first: SSAValue,
        last: SSAValue,
    ) -> list[SSAValue]:
        """Blocks [first, last) of `row` one by one; rows of B past its end
        (padding of a partial last block, whose values are zero) are clamped."""
        final = e.sub(e.dim(self.b, 0), e.index(1))

        def body(
            inner: Emitter, block: SSAValue, acc: list[SSAValue]
        ) -> list[SSAValue]:
            word = self._word(
                inner, row, inner.value(arith.DivUIOp(block, inner.index(4)))
            )
            in_word = inner.value(arith.RemUIOp(block, inner.index(4)))
            shift = inner.value(
                upstream_arith.IndexCastOp(inner.mul(in_word, inner.index(4)), i32)
            )
            b_base = inner.mul(block, inner.index(4))
            for s in range(2):
                at = inner.value(arith.AddiOp(shift, inner.constant(2 * s, i32)))
                b_row = inner.add(b_base, _position(inner, word, at))
                b_row = inner.value(arith.MinUIOp(b_row, final))
                v_at = inner.add(inner.mul(block, inner.index(2)), inner.index(s))
                value = inner.load(self.values, [row, v_at])
                acc = tile.b.multiply_add(inner, acc, value, tile.b_buffer, b_row)
            return acc

        return e.loop(first, last, acc, body)

    def _word(self, e: Emitter, row: SSAValue, w: SSAValue) -> SSAValue:
        """Metadata word `w` of `row`, zero-extended to i32."""
        return e.value(upstream_arith.ExtUIOp(e.load(self.metadata, [row, w]), i32))


def _bit_width(t: Attribute) -> int:
    assert isinstance(t, AnyFloat)
    return t.bitwidth
