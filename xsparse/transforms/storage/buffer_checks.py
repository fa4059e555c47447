"""Run-time checks of level buffers that come from outside the compiled code
(`sparse_tensor.assemble`), so that bad buffers are reported instead of read
or written out of bounds.

MLIR 22 trusts such buffers (a too-short positions buffer is undefined
behaviour); xsparse checks them as the Python runtime checks a
`SparseTensor` (`SparseTensor.validate`), in compiled code and over the same
level-format capabilities (`segment`, `children`, `positions_length`):

* a positions buffer holds `positions_length(parents)` entries, each segment
  [lo, hi) has lo <= hi, and a compact level's segments follow one another
  from 0;
* a coordinates buffer holds every entry the positions (or the format, for
  positionless levels) say the level has, each coordinate is below the level
  size (and the block size of `structured[n, m]`), sorted (and unique) within
  a segment where the level is ordered (and unique);
* the values buffer holds an entry for each entry of the last level.

Every read is guarded: a check runs only while the ones before it held.
Each failed check reports its own message (`Emitter.runtime_error`); the
conjunction says whether the buffers may be used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, MemRefType, i1
from xdsl.ir import Attribute, SSAValue

from xsparse.dialects.sparse_tensor.levels import (
    LevelAccess,
    LevelType,
    positionless_access,
)
from xsparse.dialects.sparse_tensor.types import SparseTensorType
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.transforms.codegen_utils.emitter import Emitter

CoordinateReader = Callable[[Emitter, SSAValue], SSAValue]
"""Reads coordinate k of a level (as an index) at an emitter's point."""


@dataclass(frozen=True)
class GivenLevel:
    """The buffers given for one storage level: its positions (a 1-D buffer)
    and how to read its coordinates (with how many there are)."""

    positions: SSAValue | None = None
    coordinates: CoordinateReader | None = None
    coordinates_length: SSAValue | None = None
    coordinates_read: bool = True
    """Whether the code given the buffers reads the coordinates: when not
    (a kernel summing the values), their range and order are not checked,
    only their length."""
    order_relied_on: bool = True
    """Whether the code given the buffers relies on the level's order and
    uniqueness: when not (a kernel that only gathers with the coordinates,
    as SpMV does from its vector), only their range is checked."""
    coordinates_buffer: SSAValue | None = None
    """The 1-D buffer `coordinates` reads, where there is one (the largest
    coordinate is found in its own integer type)."""
    range_checked_by_reader: bool = False
    """Whether the code given the buffers checks the coordinates' range
    itself as it reads them (`backend.fused_checks`): only a level size of 0
    under entries is refused here, no pass over the coordinates."""

    @staticmethod
    def of_buffers(
        e: Emitter,
        positions: SSAValue | None,
        coordinates: SSAValue | None,
        coordinates_read: bool = True,
        order_relied_on: bool = True,
        range_checked_by_reader: bool = False,
    ) -> GivenLevel:
        """A level given as 1-D buffers (either may be absent)."""
        if coordinates is None:
            return GivenLevel(positions)
        buffer = coordinates

        def read(b: Emitter, k: SSAValue) -> SSAValue:
            return b.to_index(b.load(buffer, [k]))

        return GivenLevel(
            positions,
            read,
            e.dim(buffer),
            coordinates_read,
            order_relied_on,
            buffer,
            range_checked_by_reader,
        )


@dataclass
class CheckedBuffers:
    """What the checks found: whether every check held, and how much of each
    buffer the tensor uses (meaningful only when `ok` holds)."""

    ok: SSAValue
    positions_used: dict[int, SSAValue] = field(default_factory=dict[int, SSAValue])
    coordinates_used: dict[int, SSAValue] = field(default_factory=dict[int, SSAValue])
    values_used: SSAValue | None = None


@dataclass
class _Checks:
    e: Emitter
    what: str
    """Names the buffers' source in each message (e.g. 'sparse_tensor.assemble')."""
    ok: SSAValue
    exact: bool

    def fits(self, used: SSAValue, length: SSAValue, compact: bool = True) -> SSAValue:
        """`used` entries fit a buffer of `length` (fill it, when exact)."""
        return self.e.cmp(used, "eq" if self.exact and compact else "ule", length)

    def require(self, holds: SSAValue, message: str) -> None:
        """Report `message` at run time unless `holds`; `ok` keeps the rest."""
        text = f"{self.what}: {message}"
        self.e.when(
            self.e.value(arith.XOrIOp(holds, self.e.constant(1, i1))),
            lambda b: b.runtime_error(text),
        )
        self.ok = self.e.all_of([self.ok, holds])

    def guarded(
        self,
        body: Callable[[Emitter], Sequence[SSAValue]],
        skipped: Callable[[Emitter], Sequence[SSAValue]],
    ) -> list[SSAValue]:
        """`body` only while every check so far holds (its reads are in
        bounds then); `skipped` otherwise."""
        return self.e.branch(self.ok, body, skipped)


def check_given_buffers(
    e: Emitter,
    what: str,
    stt: SparseTensorType,
    level_sizes: Sequence[SSAValue],
    levels: Sequence[GivenLevel],
    values_length: SSAValue,
    preconditions: Sequence[tuple[SSAValue, str]] = (),
    *,
    exact: bool = False,
) -> CheckedBuffers:
    """Emit the checks of the module docstring for buffers of type `stt`,
    after `preconditions` (flags and messages) that the reads rely on.
    `exact`: each buffer must be as long as what it holds (a tensor's own
    storage, as `SparseTensor.validate` requires), not merely long enough
    (assemble's buffers); a level with room between segments
    (loose_compressed) may still have coordinates past the last segment."""
    checks = _Checks(e, what, e.constant(1, i1), exact)
    for holds, message in preconditions:
        checks.require(holds, message)
    result = CheckedBuffers(checks.ok)
    parents = e.index(1)
    chain: _Chain | None = None
    for level, lt in enumerate(stt.lvl_types):
        size, given, fmt = level_sizes[level], levels[level], lt.format
        if fmt.is_dense:
            parents = e.mul(parents, size)
            chain = None
            continue
        level_checks = _LevelChecks(checks, lt, f"level {level} ({lt})", size)
        # Only the last level of a COO region makes its tuples unique: above
        # it, equal prefixes may repeat (told apart by the levels below).
        below = stt.lvl_types[level + 1 :]
        ends_region = not (below and below[0].format.is_branchless)
        entries = level_checks.check(given, parents, result, level, chain, ends_region)
        assert given.coordinates is not None
        if fmt.has_positions and not lt.is_unique:  # a COO region starts
            segments = _Segments(lt, size, given.positions, parents)
            chain = _Chain(segments, [given.coordinates])
        elif fmt.is_branchless and chain is not None:
            chain.readers.append(given.coordinates)
        else:
            chain = None
        parents = entries
    checks.require(
        checks.fits(parents, values_length),
        "the values buffer's length differs from what the levels say"
        if exact
        else "the values buffer is shorter than the levels say",
    )
    result.values_used = parents
    result.ok = checks.ok
    return result


@dataclass(frozen=True)
class _LevelChecks:
    """The checks of one stored level."""

    checks: _Checks
    lt: LevelType
    where: str
    size: SSAValue

    def check(
        self,
        given: GivenLevel,
        parents: SSAValue,
        result: CheckedBuffers,
        level: int,
        chain: _Chain | None,
        ends_region: bool = True,
    ) -> SSAValue:
        """Check the level's buffers under `parents` parent positions, record
        their used lengths in `result`; the number of the level's entries."""
        checks, e, fmt = self.checks, self.checks.e, self.lt.format
        if given.positions is not None:
            count, entries = self._check_positions(given.positions, parents)
            result.positions_used[level] = count
        else:
            access = positionless_access(e, lambda: self.size)
            bounds = fmt.children(self.lt, access, e.index(0), parents)
            assert bounds is not None, "a positionless level's entries are one range"
            entries = bounds[1]
        assert given.coordinates is not None and given.coordinates_length is not None
        checks.require(
            checks.fits(entries, given.coordinates_length, fmt.is_compact),
            f"{self.where}: the coordinates buffer's length differs from what the "
            "positions say"
            if checks.exact and fmt.is_compact
            else f"{self.where}: the coordinates buffer is shorter than the "
            "positions say",
        )
        result.coordinates_used[level] = entries
        if not given.coordinates_read:
            return entries
        read, positions = given.coordinates, given.positions
        relied_on = given.order_relied_on
        if given.range_checked_by_reader and not relied_on:
            no_entries = e.cmp(entries, "eq", e.index(0))
            sized = e.cmp(self.size, "ugt", e.index(0))
            checks.require(
                e.any_of([no_entries, sized]),
                f"{self.where}: a coordinate is out of range",
            )
            return entries
        in_range, ordered = checks.guarded(
            lambda b: self._check_coordinates(b, given, parents, entries, relied_on),
            lambda b: [b.constant(1, i1), b.constant(1, i1)],
        )
        checks.require(in_range, f"{self.where}: a coordinate is out of range")
        if not relied_on:
            return entries
        kind = "sorted and unique" if self.lt.is_unique else "sorted"
        if self.lt.is_ordered and not fmt.is_branchless:  # (one entry per parent)
            checks.require(
                ordered, f"{self.where}: coordinates must be {kind} within each parent"
            )
        if self.lt.is_ordered and fmt.is_branchless and chain is not None:
            unique = self.lt.is_unique and ends_region
            in_order = checks.guarded(
                lambda b: [self._check_chain_order(b, chain, read, entries, unique)],
                lambda b: [b.constant(1, i1)],
            )[0]
            checks.require(
                in_order,
                f"{self.where}: coordinates must be "
                f"{'sorted and unique' if unique else 'sorted'} where the "
                "coordinates of the levels above are equal",
            )
        if self.lt.is_unique and not self.lt.is_ordered and not fmt.is_branchless:
            distinct = checks.guarded(
                lambda b: [self._check_distinct(b, positions, read, parents)],
                lambda b: [b.constant(1, i1)],
            )[0]
            checks.require(
                distinct, f"{self.where}: coordinates must be unique within each parent"
            )
        return entries

    def _check_chain_order(
        self,
        e: Emitter,
        chain: _Chain,
        read: CoordinateReader,
        entries: SSAValue,
        unique: bool,
    ) -> SSAValue:
        """A singleton level under a nonunique one (COO): entries whose
        coordinates above are equal are in order at this level (increasing,
        when `unique`), unless a segment of the region's first level starts
        between them."""
        out_of_order = "ule" if unique else "ult"
        one = e.index(1)

        def step(b: Emitter, k: SSAValue) -> SSAValue:
            before = b.sub(k, one)
            tie = b.constant(1, i1)
            for above in chain.readers:
                tie = b.all_of([tie, b.cmp(above(b, k), "eq", above(b, before))])
            down = b.cmp(read(b, k), out_of_order, read(b, before))
            return b.value(
                upstream_arith.SelectOp(b.all_of([tie, down]), one, b.index(0))
            )

        def count(b: Emitter, k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            return [b.add(carried[0], step(b, k))]

        wrong = e.loop(one, entries, [e.index(0)], count)[0]
        return _only_at_starts(e, wrong, chain.segments, entries, step)

    def _check_distinct(
        self,
        e: Emitter,
        positions: SSAValue | None,
        read: CoordinateReader,
        parents: SSAValue,
    ) -> SSAValue:
        """An unordered unique level: no coordinate twice in a segment (each
        coordinate stamped with its segment's number + 1 in a scratch buffer
        as large as the level)."""
        lt, size = self.lt, self.size
        stamps = e.alloc(MemRefType(IndexType(), [DYNAMIC_INDEX]), [size])
        e.fill(stamps, e.index(0))
        segments = _Segments(lt, size, positions, parents)

        def segment(b: Emitter, p: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            lo, hi = segments.bounds(b, p)
            stamp = b.add(p, b.index(1))

            def entry(c: Emitter, k: SSAValue, inner: list[SSAValue]) -> list[SSAValue]:
                x = read(c, k)
                seen = c.cmp(c.load(stamps, [x]), "eq", stamp)
                c.store(stamp, stamps, [x])
                return [c.value(arith.OrIOp(inner[0], seen))]

            return b.loop(lo, hi, carried, entry)

        twice = e.loop(e.index(0), parents, [e.constant(0, i1)], segment)[0]
        e.op(memref.DeallocOp.get(stamps))
        return e.value(arith.XOrIOp(twice, e.constant(1, i1)))

    def _check_positions(
        self, positions: SSAValue, parents: SSAValue
    ) -> tuple[SSAValue, SSAValue]:
        """Check a positions buffer; how many positions the level uses and how
        many entries they give it."""
        checks, e, fmt = self.checks, self.checks.e, self.lt.format
        count = fmt.positions_length(e, parents)
        checks.require(
            checks.fits(count, e.dim(positions)),
            f"{self.where}: the positions buffer's length differs from what its "
            "parents need"
            if checks.exact
            else f"{self.where}: the positions buffer is shorter than its parents need",
        )
        segments_ok, entries = checks.guarded(
            lambda b: self._check_segments(b, positions, parents),
            lambda b: [b.constant(1, i1), b.index(0)],
        )
        checks.require(
            segments_ok,
            f"{self.where}: positions must start at 0 and never decrease"
            if fmt.is_compact
            else f"{self.where}: each [lo, hi) pair of positions needs lo <= hi",
        )
        return count, entries

    def _check_segments(
        self, e: Emitter, positions: SSAValue, parents: SSAValue
    ) -> list[SSAValue]:
        """Every segment [lo, hi) has lo <= hi, and a compact level's follow
        one another from 0; the flag and the number of entries (the largest hi)."""
        lt, size = self.lt, self.size
        if lt.format.is_compact:
            return self._check_compact_segments(e, positions, parents)

        def step(b: Emitter, p: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            ok, end = carried
            lo, hi = lt.format.segment(lt, _access(b, size, positions), p)
            holds = b.cmp(lo, "ule", hi)
            if lt.format.is_compact:
                holds = b.all_of([holds, b.cmp(lo, "eq", end)])
            return [b.all_of([ok, holds]), b.value(arith.MaxUIOp(end, hi))]

        return e.loop(e.index(0), parents, [e.constant(1, i1), e.index(0)], step)

    def _check_compact_segments(
        self, e: Emitter, positions: SSAValue, parents: SSAValue
    ) -> list[SSAValue]:
        """`_check_segments` of a compact level, whose segment p must start
        where segment p - 1 ends (at 0 for p = 0): the first segment apart,
        then one pass with no carried value but the flag (vectorizable); the
        entries end the last segment."""
        lt, size = self.lt, self.size
        zero, one = e.index(0), e.index(1)

        def first(b: Emitter) -> list[SSAValue]:
            lo, hi = lt.format.segment(lt, _access(b, size, positions), zero)
            return [b.all_of([b.cmp(lo, "eq", zero), b.cmp(lo, "ule", hi)])]

        def step(b: Emitter, p: SSAValue) -> list[SSAValue]:
            access = _access(b, size, positions)
            lo, hi = lt.format.segment(lt, access, p)
            _, end = lt.format.segment(lt, access, b.sub(p, one))
            return [b.all_of([b.cmp(lo, "ule", hi), b.cmp(lo, "eq", end)])]

        has_parents = e.cmp(parents, "ugt", zero)
        starts = e.branch(has_parents, first, lambda b: [b.constant(1, i1)])[0]
        ok = e.reduce_loop(one, parents, [starts], step, [_both])[0]

        def last_end(b: Emitter) -> list[SSAValue]:
            access = _access(b, size, positions)
            return [lt.format.segment(lt, access, b.sub(parents, one))[1]]

        entries = e.branch(has_parents, last_end, lambda b: [b.index(0)])[0]
        return [ok, entries]

    def _check_coordinates(
        self,
        e: Emitter,
        given: GivenLevel,
        parents: SSAValue,
        entries: SSAValue,
        ordered: bool,
    ) -> list[SSAValue]:
        """Every coordinate is below the level size (and the block size), and
        in order within its segment (only when `ordered`); the two flags.
        `entries`: how many the level has."""
        lt, size = self.lt, self.size
        read, positions = given.coordinates, given.positions
        assert read is not None
        limit = size
        if lt.format.is_padded:
            limit = e.value(arith.MinUIOp(limit, e.index(lt.m)))
        ordered = ordered and lt.is_ordered and not lt.format.is_branchless
        if lt.format.is_compact:
            return self._check_compact_coordinates(
                e, given, parents, limit, entries, ordered
            )
        gap = 1 if lt.is_unique else 0

        def segment(b: Emitter, p: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            lo, hi = lt.format.segment(lt, _access(b, size, positions), p)

            def entry(c: Emitter, k: SSAValue, inner: list[SSAValue]) -> list[SSAValue]:
                in_range, sorted_so_far, least = inner
                x = read(c, k)
                in_range = c.all_of([in_range, c.cmp(x, "ult", limit)])
                if not ordered:  # (LLVM drops the unused carried values)
                    return [in_range, sorted_so_far, least]
                sorted_so_far = c.all_of([sorted_so_far, c.cmp(x, "uge", least)])
                return [in_range, sorted_so_far, c.add(x, c.index(gap))]

            return b.loop(lo, hi, [*carried, b.index(0)], entry)[:2]

        return e.loop(
            e.index(0), parents, [e.constant(1, i1), e.constant(1, i1)], segment
        )

    def _check_compact_coordinates(
        self,
        e: Emitter,
        given: GivenLevel,
        parents: SSAValue,
        limit: SSAValue,
        entries: SSAValue,
        ordered: bool,
    ) -> list[SSAValue]:
        """`_check_coordinates` of a compact level, whose entries are
        0, 1, ... with no room between segments: one flat pass finds the
        largest coordinate (compared with the limit once) and, when `ordered`,
        counts the steps down (or, unique, not up) between neighbours; the
        order holds when each such step is where a segment starts (a second
        pass, over the segments)."""
        lt, size = self.lt, self.size
        zero, one = e.index(0), e.index(1)
        out_of_order = "ule" if lt.is_unique else "ult"
        read, positions = given.coordinates, given.positions
        assert read is not None
        # The largest coordinate in the buffer's own type where there is one
        # (narrower vectors than the index type's).
        stored: CoordinateReader = read
        stored_type: Attribute = IndexType()
        buffer = given.coordinates_buffer
        if buffer is not None:
            stored_type = cast(MemRefType[Attribute], buffer.type).element_type

            def load_stored(b: Emitter, k: SSAValue) -> SSAValue:
                return b.load(buffer, [k])

            stored = load_stored

        def descent(b: Emitter, k: SSAValue) -> SSAValue:
            """Entry k (>= 1) steps down from entry k - 1 (as an index 0/1)."""
            x, previous = read(b, k), read(b, b.sub(k, one))
            down = b.cmp(x, out_of_order, previous)
            return b.value(upstream_arith.SelectOp(down, b.index(1), b.index(0)))

        def entry(b: Emitter, k: SSAValue) -> list[SSAValue]:
            return [stored(b, k), descent(b, k)] if ordered else [stored(b, k)]

        # The first entry starts the fold (no step into it): the pass runs
        # from 1, or from 0 when there is no step to count.
        start = one if ordered else zero
        nothing = e.constant(0, stored_type)
        inits = [nothing]
        if ordered:
            has_entries = e.cmp(entries, "ugt", zero)
            first = e.branch(has_entries, lambda b: [stored(b, zero)], lambda b: inits)
            inits = [*first, zero]
        folds = [_largest, _sum] if ordered else [_largest]
        flat = e.reduce_loop(start, entries, inits, entry, folds)  # (none if empty)
        below = e.cmp(e.to_index(flat[0]), "ult", limit)
        in_range = e.value(arith.OrIOp(below, e.cmp(entries, "eq", zero)))
        if not ordered:
            return [in_range, e.constant(1, i1)]
        segments = _Segments(lt, size, positions, parents)
        return [in_range, _only_at_starts(e, flat[1], segments, entries, descent)]


@dataclass(frozen=True)
class _Segments:
    """The segments of a level: [lo, hi) of each of its parent positions."""

    lt: LevelType
    size: SSAValue
    positions: SSAValue | None
    parents: SSAValue

    def bounds(self, b: Emitter, p: SSAValue) -> tuple[SSAValue, SSAValue]:
        return self.lt.format.segment(self.lt, _access(b, self.size, self.positions), p)


@dataclass(frozen=True)
class _Chain:
    """The levels of a COO region checked so far: the segments of its first
    (nonunique) level and how to read each level's coordinates."""

    segments: _Segments
    readers: list[CoordinateReader]


Step = Callable[[Emitter, SSAValue], SSAValue]
"""Whether entry k (>= 1) steps out of order from entry k - 1 (index 0 or 1)."""


def _only_at_starts(
    e: Emitter, wrong: SSAValue, segments: _Segments, entries: SSAValue, step: Step
) -> SSAValue:
    """Whether the `wrong` steps counted over all neighbouring entries are
    all where a segment starts (between segments, order does not matter):
    one pass over the segments counts those, without a carried position."""
    zero, one = e.index(0), e.index(1)

    def at_starts(b: Emitter) -> list[SSAValue]:
        def start(c: Emitter, p: SSAValue) -> list[SSAValue]:
            lo, hi = segments.bounds(c, p)
            counts = c.all_of([c.cmp(lo, "ugt", zero), c.cmp(lo, "ult", hi)])
            safe = c.value(upstream_arith.SelectOp(counts, lo, one))  # in [1, entries)
            return [c.value(upstream_arith.SelectOp(counts, step(c, safe), c.index(0)))]

        return b.reduce_loop(b.index(0), segments.parents, [b.index(0)], start, [_sum])

    two_or_more = e.cmp(entries, "uge", e.index(2))
    allowed = e.branch(two_or_more, at_starts, lambda b: [b.index(0)])[0]
    return e.cmp(wrong, "eq", allowed)


def _both(b: Emitter, x: SSAValue, y: SSAValue) -> SSAValue:
    return b.all_of([x, y])


def _largest(b: Emitter, x: SSAValue, y: SSAValue) -> SSAValue:
    return b.value(arith.MaxUIOp(x, y))


def _sum(b: Emitter, x: SSAValue, y: SSAValue) -> SSAValue:
    return b.add(x, y)


def _access(
    b: Emitter, size: SSAValue, positions: SSAValue | None
) -> LevelAccess[SSAValue]:
    if positions is None:
        return positionless_access(b, lambda: size)
    buffer = positions
    return LevelAccess(b, lambda: size, lambda k: b.to_index(b.load(buffer, [k])))
