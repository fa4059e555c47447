"""The data movement of a format decomposition, as its own function (seed 002).

SparseTIR's DecomposeFormat generates "sparse iterations for data movement
that copies data from the original format to composable formats", which
for a stationary matrix "we can lift ... outside the kernel and reuse". For a CSR operand A and the rule `hyb(c, widths)`,
`HybMovement.emit` fills, from A's coordinates and values:

- every ELL bucket (`rows` given; `cols` and `vals` written): bucket row r
  gets the entries of A's row `rows[r]` in column partition p, those between
  `bounds[rows[r], p]` and `bounds[rows[r], p + 1]`, padded to W slots with
  zeros at the segment's last column;
- the CSR remainder (`rem_pos` given; `rem_crd` and `rem_vals` written): row
  i gets its segments longer than the widest bucket, in partition order.

`bounds` (M x (c + 1)) and the bucket rows are the plan (from the
row-length histogram: `xsparse.composable`); the entries move here, in
parallel loops over bucket rows and over A's rows.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, i32
from xdsl.ir import Block, Region, SSAValue

from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.decompose.ell_loops import bucket_width, element_type

INDEX = IndexType()


@dataclass(frozen=True)
class BucketBuffers:
    """One ELL bucket's memrefs and the column partition it holds."""

    partition: int
    rows: SSAValue
    cols: SSAValue
    vals: SSAValue


@dataclass(frozen=True)
class HybMovement:
    """CSR buffers of A (`crd`, `values`) -> buckets and remainder."""

    crd: SSAValue
    values: SSAValue
    bounds: SSAValue
    buckets: Sequence[BucketBuffers]
    remainder: tuple[SSAValue, SSAValue, SSAValue]
    """`rem_pos`, `rem_crd`, `rem_vals`."""
    widest: int

    def emit(self, e: Emitter) -> None:
        for bucket in self.buckets:
            _parallel(
                e,
                e.dim(bucket.rows, 0),
                functools.partial(self._fill_row, bucket=bucket),
            )
        _parallel(e, e.dim(self.bounds, 0), self._remainder_row)

    def _segment(
        self, e: Emitter, row: SSAValue, partition: SSAValue
    ) -> tuple[SSAValue, SSAValue]:
        """[start, end) of A's row `row` in column partition `partition`."""
        after = e.add(partition, e.index(1))
        start = e.to_index(e.load(self.bounds, [row, partition]))
        return start, e.to_index(e.load(self.bounds, [row, after]))

    def _fill_row(self, e: Emitter, r: SSAValue, *, bucket: BucketBuffers) -> None:
        """Bucket row r: the segment's entries, then padding (zero values at
        the segment's last column)."""
        row = e.to_index(e.load(bucket.rows, [r]))
        start, end = self._segment(e, row, e.index(bucket.partition))
        length = e.value(arith.MaxUIOp(e.sub(end, start), e.index(1)))
        last = e.sub(length, e.index(1))
        t = element_type(bucket.vals)
        zero = e.constant(0.0, t)

        def slot(inner: Emitter, s: SSAValue) -> None:
            source = inner.add(start, inner.value(arith.MinUIOp(s, last)))
            column = inner.from_index(
                inner.to_index(inner.load(self.crd, [source])), i32
            )
            value = inner.load(self.values, [source])
            stored = inner.cmp(s, "ult", inner.sub(end, start))
            inner.store(column, bucket.cols, [r, s])
            inner.store(inner.select(stored, value, zero), bucket.vals, [r, s])

        e.for_each(e.index(0), e.index(bucket_width(bucket.cols)), slot)

    def _remainder_row(self, e: Emitter, row: SSAValue) -> None:
        """Row `row` of the remainder: its segments longer than the widest
        bucket, one after the other from `rem_pos[row]`."""
        pos, crd, vals = self.remainder
        partitions = e.sub(e.dim(self.bounds, 1), e.index(1))
        first = e.to_index(e.load(pos, [row]))

        def partition(
            inner: Emitter, p: SSAValue, at: list[SSAValue]
        ) -> list[SSAValue]:
            start, end = self._segment(inner, row, p)
            length = inner.sub(end, start)
            long = inner.cmp(length, "ugt", inner.index(self.widest))

            def copy(o: Emitter) -> list[SSAValue]:
                def entry(c: Emitter, q: SSAValue) -> None:
                    target = c.add(at[0], c.sub(q, start))
                    column = c.to_index(c.load(self.crd, [q]))
                    c.store(c.from_index(column, element_type(crd)), crd, [target])
                    c.store(c.load(self.values, [q]), vals, [target])

                o.for_each(start, end, entry)
                return [o.add(at[0], length)]

            return inner.branch(long, copy, lambda o: [at[0]])

        e.loop(e.index(0), partitions, [first], partition)


def _parallel(
    e: Emitter, count: SSAValue, body: Callable[[Emitter, SSAValue], None]
) -> None:
    """`scf.parallel` over [0, count), `body(emitter, iv)`."""
    block = Block(arg_types=[INDEX])
    body(e.inside(block), block.args[0])
    block.add_op(scf.ReduceOp())
    e.op(scf.ParallelOp([e.index(0)], [count], [e.index(1)], Region(block)))
