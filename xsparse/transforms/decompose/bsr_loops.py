"""The loops of a product on one BSR part (seed 002, "Decompose Format").

A BSR part of b x b blocks is MLIR's block-map encoding
`(i floordiv b : dense, j floordiv b : compressed, i mod b : dense,
j mod b : dense)`; its buffers are the block rows' positions, the blocks'
column coordinates and the values, b * b per block, row-major.
`BsrProduct.emit` adds the part's share of `C += A @ B` or `y += A @ x`:

    scf.parallel %bi = 0 to M / b                    // block rows: threads
      SpMV: b accumulators of b lanes
        scf.for %p = pos[%bi] to pos[%bi + 1]
          %x = vector.load x[crd[%p] * b] : vector<b x T>   // no gather
          %acc_r = fma(vector.load vals[(%p * b + r) * b], %x, %acc_r)
        y[%bi * b + r] += vector.reduction <add> %acc_r
      SpMM: per tile of C's columns and row r of the block row
        scf.for %p = pos[%bi] to pos[%bi + 1]
          scf.for %c = 0 to b                        // b: a constant
            %acc = fma(broadcast vals[...], B[crd[%p] * b + %c, tile], %acc)

The coordinates are the sparse argument's, checked at every call by the
runtime's validation (in range, ordered), as for the sparsifier's kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, scf, vector
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import IndexType, VectorType
from xdsl.dialects.utils import FastMathFlag
from xdsl.ir import Block, Region, SSAValue

from xsparse.dialects.type_guards import is_memref_type
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.decompose.ell_loops import (
    VECTOR_BITS,
    column_tiles,
    element_type,
    float_bit_width,
)
from xsparse.transforms.decompose.two_four_loops import Tile

INDEX = IndexType()


@dataclass(frozen=True)
class BsrProduct:
    """`c += part @ b` for a BSR part given as its level buffers."""

    positions: SSAValue
    coordinates: SSAValue
    values: SSAValue
    block: int
    b: SSAValue
    c: SSAValue

    @property
    def is_matrix_product(self) -> bool:
        t = self.c.type
        assert is_memref_type(t)
        return t.get_num_dims() == 2

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
        if self.is_matrix_product:
            self._matrix_block_row(inner, bi, first, last)
        else:
            self._vector_block_row(inner, bi, first, last)
        body.add_op(scf.ReduceOp())
        e.op(scf.ParallelOp([e.index(0)], [block_rows], [e.index(1)], Region(body)))

    def _value_at(self, e: Emitter, p: SSAValue, r: int | SSAValue) -> SSAValue:
        """Offset of row r of block p in the values buffer."""
        b = e.index(self.block)
        row = e.index(r) if isinstance(r, int) else r
        return e.mul(e.add(e.mul(p, b), row), b)

    def _block_column(self, e: Emitter, p: SSAValue) -> SSAValue:
        """The first column of A block p covers."""
        return e.mul(e.to_index(e.load(self.coordinates, [p])), e.index(self.block))

    def _vector_block_row(
        self, e: Emitter, bi: SSAValue, first: SSAValue, last: SSAValue
    ) -> None:
        t = element_type(self.c)
        lanes = VectorType(t, [self.block])
        zero = e.value(vector.BroadcastOp(e.constant(0.0, t), lanes))

        def block(inner: Emitter, p: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
            x = inner.value(
                vector.LoadOp(self.b, [self._block_column(inner, p)], lanes)
            )
            return [
                inner.value(
                    vector.FMAOp(
                        inner.value(
                            vector.LoadOp(
                                self.values, [self._value_at(inner, p, r)], lanes
                            )
                        ),
                        x,
                        a,
                    )
                )
                for r, a in enumerate(acc)
            ]

        acc = e.loop(first, last, [zero] * self.block, block)
        base = e.mul(bi, e.index(self.block))
        for r, a in enumerate(acc):
            row = e.add(base, e.index(r))
            total = e.value(
                vector.ReductionOp.create(
                    operands=[a, e.load(self.c, [row])],
                    result_types=[t],
                    properties={
                        "kind": vector.CombiningKindAttr(vector.CombiningKindFlag.ADD),
                        "fastmath": FastMathFlagsAttr([FastMathFlag.REASSOC]),
                    },
                )
            )
            e.store(total, self.c, [row])

    def _matrix_block_row(
        self, e: Emitter, bi: SSAValue, first: SSAValue, last: SSAValue
    ) -> None:
        base = e.mul(bi, e.index(self.block))
        lanes = VECTOR_BITS // float_bit_width(self.c)

        def tile_rows(inner: Emitter, tile: Tile) -> None:
            def row(o: Emitter, r: SSAValue) -> None:
                self._tile_row(o, tile, o.add(base, r), r, first, last)

            inner.for_each(inner.index(0), inner.index(self.block), row)

        column_tiles(e, lanes, e.dim(self.c, 1), tile_rows)

    def _tile_row(
        self,
        e: Emitter,
        tile: Tile,
        row: SSAValue,
        r: SSAValue,
        first: SSAValue,
        last: SSAValue,
    ) -> None:
        """Row `row` (row r of its block row) of C at one tile."""

        def block(inner: Emitter, p: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
            column = self._block_column(inner, p)
            at = self._value_at(inner, p, r)

            def entry(o: Emitter, c: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
                value = o.load(self.values, [o.add(at, c)])
                return tile.multiply_add(o, acc, value, self.b, o.add(column, c))

            return inner.loop(inner.index(0), inner.index(self.block), acc, entry)

        acc = tile.load(e, self.c, row)
        tile.store(e, e.loop(first, last, acc, block), self.c, row)
