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

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, i1
from xdsl.ir import SSAValue

from xsparse.dialects.sparse_tensor.levels import (
    LevelAccess,
    LevelType,
    positionless_access,
)
from xsparse.dialects.sparse_tensor.types import SparseTensorType
from xsparse.transforms.sparsifier.post_sparsification import Emitter

CoordinateReader = Callable[[Emitter, SSAValue], SSAValue]
"""Reads coordinate k of a level (as an index) at an emitter's point."""


@dataclass(frozen=True)
class GivenLevel:
    """The buffers given for one storage level: its positions (a 1-D buffer)
    and how to read its coordinates (with how many there are)."""

    positions: SSAValue | None = None
    coordinates: CoordinateReader | None = None
    coordinates_length: SSAValue | None = None


@dataclass
class CheckedBuffers:
    """What the checks found: whether every check held, and how much of each
    buffer the tensor uses (meaningful only when `ok` holds)."""

    ok: SSAValue
    positions_used: dict[int, SSAValue] = field(default_factory=dict[int, SSAValue])
    coordinates_used: dict[int, SSAValue] = field(default_factory=dict[int, SSAValue])
    values_used: SSAValue | None = None


def _true(e: Emitter) -> SSAValue:
    return e.value(arith.ConstantOp(IntegerAttr(1, i1)))


def _and(e: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    return e.value(arith.AndIOp(a, b))


@dataclass
class _Checks:
    e: Emitter
    what: str
    """Names the buffers' source in each message (e.g. 'sparse_tensor.assemble')."""
    ok: SSAValue

    def require(self, holds: SSAValue, message: str) -> None:
        """Report `message` at run time unless `holds`; `ok` keeps the rest."""
        text = f"{self.what}: {message}"
        self.e.when(
            self.e.value(arith.XOrIOp(holds, _true(self.e))),
            lambda b: b.runtime_error(text),
        )
        self.ok = _and(self.e, self.ok, holds)

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
) -> CheckedBuffers:
    """Emit the checks of the module docstring for buffers of type `stt`,
    after `preconditions` (flags and messages) that the reads rely on."""
    checks = _Checks(e, what, _true(e))
    for holds, message in preconditions:
        checks.require(holds, message)
    result = CheckedBuffers(checks.ok)
    parents = e.index(1)
    for level, lt in enumerate(stt.lvl_types):
        size = level_sizes[level]
        if lt.format.is_dense:
            parents = e.mul(parents, size)
            continue
        level_checks = _LevelChecks(checks, lt, f"level {level} ({lt})", size)
        parents = level_checks.check(levels[level], parents, result, level)
    checks.require(
        e.cmp(parents, "ule", values_length),
        "the values buffer is shorter than the levels say",
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
        self, given: GivenLevel, parents: SSAValue, result: CheckedBuffers, level: int
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
            e.cmp(entries, "ule", given.coordinates_length),
            f"{self.where}: the coordinates buffer is shorter than the positions say",
        )
        result.coordinates_used[level] = entries
        read, positions = given.coordinates, given.positions
        in_range, ordered = checks.guarded(
            lambda b: self._check_coordinates(b, positions, read, parents),
            lambda b: [_true(b), _true(b)],
        )
        checks.require(in_range, f"{self.where}: a coordinate is out of range")
        if self.lt.is_ordered and not fmt.is_branchless:  # (one entry per parent)
            kind = "sorted and unique" if self.lt.is_unique else "sorted"
            checks.require(
                ordered, f"{self.where}: coordinates must be {kind} within each parent"
            )
        return entries

    def _check_positions(
        self, positions: SSAValue, parents: SSAValue
    ) -> tuple[SSAValue, SSAValue]:
        """Check a positions buffer; how many positions the level uses and how
        many entries they give it."""
        checks, e, fmt = self.checks, self.checks.e, self.lt.format
        count = fmt.positions_length(e, parents)
        checks.require(
            e.cmp(count, "ule", e.dim(positions)),
            f"{self.where}: the positions buffer is shorter than its parents need",
        )
        segments_ok, entries = checks.guarded(
            lambda b: self._check_segments(b, positions, parents),
            lambda b: [_true(b), b.index(0)],
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

        def step(b: Emitter, p: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            ok, end = carried
            lo, hi = lt.format.segment(lt, _access(b, size, positions), p)
            holds = b.cmp(lo, "ule", hi)
            if lt.format.is_compact:
                holds = _and(b, holds, b.cmp(lo, "eq", end))
            return [_and(b, ok, holds), b.value(arith.MaxUIOp(end, hi))]

        return e.loop(e.index(0), parents, [_true(e), e.index(0)], step)

    def _check_coordinates(
        self,
        e: Emitter,
        positions: SSAValue | None,
        read: CoordinateReader,
        parents: SSAValue,
    ) -> list[SSAValue]:
        """Every coordinate is below the level size (and the block size), and
        in order within its segment; the two flags."""
        lt, size = self.lt, self.size
        limit = size
        if lt.format.is_padded:
            limit = e.value(arith.MinUIOp(limit, e.index(lt.m)))
        gap = 1 if lt.is_unique else 0

        def segment(b: Emitter, p: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            lo, hi = lt.format.segment(lt, _access(b, size, positions), p)

            def entry(c: Emitter, k: SSAValue, inner: list[SSAValue]) -> list[SSAValue]:
                in_range, ordered, least = inner
                x = read(c, k)
                in_range = _and(c, in_range, c.cmp(x, "ult", limit))
                ordered = _and(c, ordered, c.cmp(x, "uge", least))
                return [in_range, ordered, c.add(x, c.index(gap))]

            return b.loop(lo, hi, [*carried, b.index(0)], entry)[:2]

        return e.loop(e.index(0), parents, [_true(e), _true(e)], segment)


def _access(
    b: Emitter, size: SSAValue, positions: SSAValue | None
) -> LevelAccess[SSAValue]:
    if positions is None:
        return positionless_access(b, lambda: size)
    buffer = positions
    return LevelAccess(b, lambda: size, lambda k: b.to_index(b.load(buffer, [k])))
