"""The data movement of a format decomposition, as its own function (seed 002).

SparseTIR's DecomposeFormat generates "sparse iterations for data movement
that copies data from the original format to composable formats", which
for a stationary matrix "we can lift ... outside the kernel and reuse".
For a CSR operand A and the rule `hyb(c, widths)`, `HybMovement.emit`
fills, from A's coordinates and values:

- every ELL bucket (`rows` given; `cols` and `vals` written): bucket row r
  gets the entries of A's row `rows[r]` in column partition p, those between
  `bounds[rows[r], p]` and `bounds[rows[r], p + 1]`, padded to W slots with
  zeros at the segment's last column;
- the CSR remainder (`rem_pos` given; `rem_crd` and `rem_vals` written): row
  i gets its segments longer than the widest bucket, in partition order.

`bounds` (M x (c + 1)) and the bucket rows are the plan (from the
row-length histogram: `xsparse.composable`); the entries move here, in
parallel loops over bucket rows and over A's rows.

For a BSR part of b x b blocks, `BsrMovement` counts, per block row, the
blocks dense enough to keep and the entries left to the remainder
(`emit_count`); the prefix sums of the counts are the plan; `emit_fill`
then writes the part's block columns and blocks and the remainder.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, i32
from xdsl.ir import Block, Region, SSAValue

from xsparse.dialects.upstream import scf as upstream_scf
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
    e.op(upstream_scf.ParallelOp([e.index(0)], [count], [e.index(1)], Region(block)))


@dataclass(frozen=True)
class BsrMovement:
    """A's CSR buffers -> the b x b blocks holding at least `threshold`
    entries (a BSR part, blocks row-major) and the other entries (a CSR
    remainder), in two parallel loops over block rows, each walking a block
    row's block columns in order (a b-way merge of its b sorted rows):

    - `emit_count`: per block row, the blocks kept (`kept[bi]`), per row,
      the entries left to the remainder (`rest[i]`); their prefix sums are
      the plan (`xsparse.composable`);
    - `emit_fill`: from `bsr_pos` and `rem_pos`, the kept blocks' columns
      and values (zero where A has no entry), the remainder's entries."""

    positions: SSAValue
    crd: SSAValue
    values: SSAValue
    block: int
    threshold: SSAValue
    """Entries a block needs to be kept (an index)."""

    def _rows(self, e: Emitter, bi: SSAValue) -> list[tuple[SSAValue, SSAValue]]:
        """[start, end) of the entries of each row of block row bi."""
        base = e.mul(bi, e.index(self.block))
        bounds: list[tuple[SSAValue, SSAValue]] = []
        for r in range(self.block):
            row = e.add(base, e.index(r))
            start = e.to_index(e.load(self.positions, [row]))
            end = e.to_index(e.load(self.positions, [e.add(row, e.index(1))]))
            bounds.append((start, end))
        return bounds

    def _column(self, e: Emitter, q: SSAValue, valid: SSAValue) -> SSAValue:
        """Column of entry q where `valid`, else of entry 0 (A has entries
        wherever a cursor is valid)."""
        return e.to_index(e.load(self.crd, [e.select(valid, q, e.index(0))]))

    def _advance(
        self, e: Emitter, cursor: SSAValue, end: SSAValue, limit: SSAValue
    ) -> SSAValue:
        """The first entry from `cursor` at or past column `limit` (or end)."""

        def more(o: Emitter, args: list[SSAValue]) -> SSAValue:
            valid = o.cmp(args[0], "ult", end)
            before = o.cmp(self._column(o, args[0], valid), "ult", limit)
            return o.all_of([valid, before])

        (after,) = e.while_loop(
            [cursor], more, lambda o, args: [o.add(args[0], o.index(1))]
        )
        return after

    def _merge(
        self,
        e: Emitter,
        bi: SSAValue,
        state: list[SSAValue],
        on_block: Callable[
            [Emitter, SSAValue, list[tuple[SSAValue, SSAValue]], list[SSAValue]],
            list[SSAValue],
        ],
    ) -> list[SSAValue]:
        """`state = on_block(emitter, block column, [(first, after)] per row,
        state)` for each block column of block row bi, in order."""
        rows = self._rows(e, bi)
        ends = [end for _, end in rows]
        b = self.block
        none = e.index(2**62)

        def pending(o: Emitter, args: list[SSAValue]) -> SSAValue:
            cursors = zip(args[:b], ends, strict=True)
            return o.any_of([o.cmp(c, "ult", end) for c, end in cursors])

        def step(o: Emitter, args: list[SSAValue]) -> list[SSAValue]:
            cursors = args[:b]
            heads: list[SSAValue] = []
            for c, end in zip(cursors, ends, strict=True):
                valid = o.cmp(c, "ult", end)
                heads.append(o.select(valid, self._column(o, c, valid), none))
            least = heads[0]
            for h in heads[1:]:
                least = o.value(arith.MinUIOp(least, h))
            column = o.value(arith.DivUIOp(least, o.index(b)))
            limit = o.mul(o.add(column, o.index(1)), o.index(b))
            after = [
                self._advance(o, c, end, limit)
                for c, end in zip(cursors, ends, strict=True)
            ]
            spans = list(zip(cursors, after, strict=True))
            return [*after, *on_block(o, column, spans, list(args[b:]))]

        starts = [start for start, _ in rows]
        return e.while_loop([*starts, *state], pending, step)[b:]

    def _kept(self, e: Emitter, spans: list[tuple[SSAValue, SSAValue]]) -> SSAValue:
        counts = [e.sub(after, first) for first, after in spans]
        return e.cmp(e.total(counts), "uge", self.threshold)

    def emit_count(self, e: Emitter, kept: SSAValue, rest: SSAValue) -> None:
        """`kept[bi]`: blocks kept in block row bi; `rest[i]`: entries of
        row i left to the remainder (both i64)."""
        b = self.block

        def block_row(o: Emitter, bi: SSAValue) -> None:
            def on_block(
                p: Emitter,
                _: SSAValue,
                spans: list[tuple[SSAValue, SSAValue]],
                state: list[SSAValue],
            ) -> list[SSAValue]:
                keep = self._kept(p, spans)
                one = p.select(keep, p.index(1), p.index(0))
                left = [
                    p.add(n, p.select(keep, p.index(0), p.sub(after, first)))
                    for n, (first, after) in zip(state[1:], spans, strict=True)
                ]
                return [p.add(state[0], one), *left]

            zero = o.index(0)
            counts = self._merge(o, bi, [zero] * (b + 1), on_block)
            o.store(o.from_index(counts[0], element_type(kept)), kept, [bi])
            base = o.mul(bi, o.index(b))
            for r, n in enumerate(counts[1:]):
                row = o.add(base, o.index(r))
                o.store(o.from_index(n, element_type(rest)), rest, [row])

        _parallel(e, e.dim(kept, 0), block_row)

    def emit_fill(
        self,
        e: Emitter,
        bsr: tuple[SSAValue, SSAValue, SSAValue],
        remainder: tuple[SSAValue, SSAValue, SSAValue],
    ) -> None:
        """The BSR part (`bsr_pos` given; `bsr_crd`, `bsr_vals` written) and
        the remainder (`rem_pos` given; `rem_crd`, `rem_vals` written)."""
        b = self.block

        def block_row(o: Emitter, bi: SSAValue) -> None:
            base = o.mul(bi, o.index(b))
            rows = [o.add(base, o.index(r)) for r in range(b)]
            first = o.to_index(o.load(bsr[0], [bi]))
            written = [o.to_index(o.load(remainder[0], [row])) for row in rows]

            def on_block(
                p: Emitter,
                column: SSAValue,
                spans: list[tuple[SSAValue, SSAValue]],
                state: list[SSAValue],
            ) -> list[SSAValue]:
                return p.branch(
                    self._kept(p, spans),
                    lambda q: self._fill_block(q, bsr, column, spans, state),
                    lambda q: self._fill_rest(q, remainder, spans, state),
                )

            self._merge(o, bi, [first, *written], on_block)

        _parallel(e, e.sub(e.dim(bsr[0], 0), e.index(1)), block_row)

    def _fill_block(
        self,
        e: Emitter,
        bsr: tuple[SSAValue, SSAValue, SSAValue],
        column: SSAValue,
        spans: list[tuple[SSAValue, SSAValue]],
        state: list[SSAValue],
    ) -> list[SSAValue]:
        """Block number state[0] of the part: its column, zeros, then A's
        entries at their places."""
        _, crd, vals = bsr
        b = self.block
        k = state[0]
        e.store(e.from_index(column, element_type(crd)), crd, [k])
        at = e.mul(k, e.index(b * b))
        zero = e.constant(0.0, element_type(vals))
        e.for_each(
            e.index(0),
            e.index(b * b),
            lambda o, s: o.store(zero, vals, [o.add(at, s)]),
        )
        left = e.mul(column, e.index(b))
        for r, (first, after) in enumerate(spans):
            row_at = e.add(at, e.index(r * b))

            def entry(o: Emitter, q: SSAValue, row_at: SSAValue = row_at) -> None:
                offset = o.sub(o.to_index(o.load(self.crd, [q])), left)
                o.store(o.load(self.values, [q]), vals, [o.add(row_at, offset)])

            e.for_each(first, after, entry)
        return [e.add(k, e.index(1)), *state[1:]]

    def _fill_rest(
        self,
        e: Emitter,
        remainder: tuple[SSAValue, SSAValue, SSAValue],
        spans: list[tuple[SSAValue, SSAValue]],
        state: list[SSAValue],
    ) -> list[SSAValue]:
        """The block's entries appended to their rows of the remainder."""
        _, crd, vals = remainder
        written: list[SSAValue] = []
        for (first, after), at in zip(spans, state[1:], strict=True):

            def entry(
                o: Emitter, q: SSAValue, first: SSAValue = first, at: SSAValue = at
            ) -> None:
                target = o.add(at, o.sub(q, first))
                column = o.to_index(o.load(self.crd, [q]))
                o.store(o.from_index(column, element_type(crd)), crd, [target])
                o.store(o.load(self.values, [q]), vals, [target])

            e.for_each(first, after, entry)
            written.append(e.add(at, e.sub(after, first)))
        return [state[0], *written]
