"""The entries that a conversion moves: where they come from (the stored
entries of a sparse tensor, the nonzeros of a dense buffer), each with its
coordinates in the target's level space and its value cast to the target's
element type, and where they go; and the counting sort's histograms,
prefix sums and the buffers' final sizes. Shared by the sequential
conversions (`storage.conversion`) and those on threads
(`storage.parallel_conversion`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import AnyFloat, IndexType, MemRefType, TensorType, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

from xsparse.dialects.sparse_tensor.encoding import Encoding
from xsparse.dialects.sparse_tensor.ops_storage import ToCoordinatesOp, ToValuesOp
from xsparse.dialects.sparse_tensor.storage import sparse_encoding, storage_fields
from xsparse.dialects.sparse_tensor.types import SparseTensorType
from xsparse.dialects.type_guards import is_integer_type, is_memref_type
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.dialects.upstream.memref import ReallocOp
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.codegen_utils.op_emitter import INDEX
from xsparse.transforms.codegen_utils.stored_entries import (
    dim_sizes,
    level_sizes,
    walk_stored,
)
from xsparse.transforms.storage.level_buffers import is_nonzero, level_space_nest
from xsparse.transforms.storage.overhead_widths import (
    check_coordinate,
    positions_fit,
)


def cast_element(e: Emitter, v: SSAValue, to: Attribute) -> SSAValue:
    """`v` as element type `to`, as MLIR's `genCast` converts: integers are
    signed, floats extended or truncated."""
    src = v.type
    if src == to:
        return v
    if isinstance(src, IndexType) or isinstance(to, IndexType):
        return e.value(upstream_arith.IndexCastOp(v, to))
    if isinstance(to, AnyFloat):
        if isinstance(src, AnyFloat):
            wider = src.bitwidth < to.bitwidth
            return e.value(
                upstream_arith.ExtFOp(v, to)
                if wider
                else upstream_arith.TruncFOp(v, to)
            )
        return e.value(upstream_arith.SIToFPOp(v, to))
    assert is_integer_type(to)
    if isinstance(src, AnyFloat):
        return e.value(upstream_arith.FPToSIOp(v, to))
    assert is_integer_type(src)
    if src.width.data < to.width.data:
        return e.value(upstream_arith.ExtSIOp(v, to))
    return e.value(upstream_arith.TruncIOp(v, to))


def as_index(e: Emitter, flag: SSAValue) -> SSAValue:
    """An i1 as the index 0 or 1."""
    return e.value(
        upstream_arith.IndexCastOp(e.value(upstream_arith.ExtUIOp(flag, i64)), INDEX)
    )


@dataclass
class Entry:
    """One entry met by a loop over entries: its coordinates in the target's
    level space and its value, emitted on first use in the loop body."""

    emitter: Emitter
    coordinate_of: Callable[[Emitter, int], SSAValue]
    value_of: Callable[[Emitter], SSAValue]
    index: SSAValue | None
    """Its rank in the loop's order, where the loop knows it."""
    _seen: dict[int, SSAValue] = field(default_factory=dict[int, SSAValue])

    def coordinate(self, level: int) -> SSAValue:
        if level not in self._seen:
            self._seen[level] = self.coordinate_of(self.emitter, level)
        return self._seen[level]

    def value(self) -> SSAValue:
        if -1 not in self._seen:
            self._seen[-1] = self.value_of(self.emitter)
        return self._seen[-1]


EntryBody = Callable[[Emitter, Entry, list[SSAValue]], list[SSAValue]]
"""`body(emitter, entry, carried)` returns the carried values for the next entry."""
PresentBody = Callable[[Emitter, Entry, SSAValue, list[SSAValue]], list[SSAValue]]
"""`body(emitter, entry, present, carried)`: as an EntryBody, for an entry
that is there if the i1 `present` holds."""


class Source(ABC):
    """Where the entries of a conversion come from, in the source's storage
    order, with coordinates in the target's level space."""

    keys: list[AffineExpr]
    """Each target level's coordinate as an expression of the source's level
    coordinates."""
    target_element: Attribute
    sorted_levels: int
    """The entries come sorted lexicographically by this many leading source
    levels."""
    may_repeat: bool
    """Whether two entries may have equal coordinates."""
    indexed: bool
    """Whether the walk knows each entry's rank (else a pass counts)."""
    has_places: bool = False
    """Whether `walk_all` walks the places that may hold entries."""

    @abstractmethod
    def dims(self, e: Emitter) -> list[SSAValue]:
        """The dimension sizes."""

    @abstractmethod
    def size(self, e: Emitter) -> SSAValue | None:
        """The number of entries, where the storage says it."""

    @abstractmethod
    def walk(
        self, e: Emitter, inits: Sequence[SSAValue], body: EntryBody
    ) -> list[SSAValue]:
        """A loop nest over the entries in storage order."""

    def walk_keys(
        self, e: Emitter, levels: Sequence[int], size: SSAValue, body: EntryBody
    ) -> list[SSAValue] | None:
        """A cheaper loop over the `size` entries for bodies that read only the
        target coordinates of `levels` (no value, no rank), if there is one."""
        return None

    def walk_all(
        self, e: Emitter, inits: Sequence[SSAValue], body: PresentBody
    ) -> list[SSAValue]:
        """A loop over every place that may hold an entry, where the body is
        told whether one is there (so that it can do without a branch); for
        sources that `has_places`."""
        raise NotImplementedError

    def count(self, e: Emitter) -> SSAValue:
        """The number of entries, by a pass."""

        def step(b: Emitter, entry: Entry, n: list[SSAValue]) -> list[SSAValue]:
            return [b.add(n[0], b.index(1))]

        return self.walk(e, [e.index(0)], step)[0]

    def entry(
        self,
        b: Emitter,
        coords: Sequence[SSAValue],
        value: Callable[[Emitter], SSAValue],
        index: SSAValue | None,
    ) -> Entry:
        keys = self.keys

        def coordinate(c: Emitter, level: int) -> SSAValue:
            return c.affine(keys[level], coords)

        def cast_value(c: Emitter) -> SSAValue:
            return cast_element(c, value(c), self.target_element)

        return Entry(b, coordinate, cast_value, index)


def target_keys(target: Encoding, lvl_to_dim: AffineMap) -> list[AffineExpr]:
    return list(target.dim_to_lvl.compose(lvl_to_dim).results)


class SparseSource(Source):
    """The stored entries of a sparse tensor value."""

    def __init__(
        self,
        tensor: SSAValue,
        stt: SparseTensorType,
        target: Encoding,
        target_element: Attribute,
    ) -> None:
        enc = sparse_encoding(tensor.type)
        assert enc is not None
        self.tensor, self.stt = tensor, stt
        self.keys = target_keys(target, enc.lvl_to_dim)
        self.target_element = target_element
        types = enc.lvl_types
        ordered = [lt.is_ordered for lt in types]
        self.sorted_levels = ordered.index(False) if False in ordered else len(types)
        # Coordinate tuples repeat only under a nonunique last level: a COO
        # of `compressed(nonunique), singleton` promises distinct tuples.
        self.may_repeat = bool(types) and not types[-1].is_unique
        self.loose = any(not lt.format.is_compact for lt in types)
        # Without loose levels, the value positions are 0, 1, ... in storage order.
        self.indexed = not self.loose

    def dims(self, e: Emitter) -> list[SSAValue]:
        return dim_sizes(
            e, self.tensor, self.stt, level_sizes(e, self.tensor, self.stt)
        )

    def size(self, e: Emitter) -> SSAValue | None:
        if self.loose:
            return None
        return e.dim(e.value(ToValuesOp(self.tensor)))

    def walk(
        self, e: Emitter, inits: Sequence[SSAValue], body: EntryBody
    ) -> list[SSAValue]:
        values = e.value(ToValuesOp(self.tensor))

        def visit(
            b: Emitter, coords: list[SSAValue], p: SSAValue, carried: list[SSAValue]
        ) -> list[SSAValue]:
            entry = self.entry(
                b, coords, lambda c: c.load(values, [p]), p if self.indexed else None
            )
            return body(b, entry, carried)

        return walk_stored(e, self.tensor, self.stt, inits, visit)

    def walk_keys(
        self, e: Emitter, levels: Sequence[int], size: SSAValue, body: EntryBody
    ) -> list[SSAValue] | None:
        """One loop over a coordinates buffer with an entry per position, when
        the keys of `levels` read only the coordinate of that source level."""
        used = {
            x.position
            for level in levels
            for x in self.keys[level].dfs()
            if isinstance(x, AffineDimExpr)
        }
        types = self.stt.lvl_types
        if self.loose or len(used) != 1:
            return None
        (source_level,) = used
        if not types[source_level].format.has_coordinates or not all(
            lt.format.is_branchless for lt in types[source_level + 1 :]
        ):
            return None
        crd = e.value(ToCoordinatesOp(self.tensor, source_level))

        def no_value(_: Emitter) -> SSAValue:
            raise AssertionError("walk_keys bodies read no value")

        def visit(b: Emitter, p: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            c = b.to_index(b.load(crd, [p]))
            coords = [c] * len(types)  # only `source_level` is read
            return body(b, self.entry(b, coords, no_value, None), carried)

        return e.loop(e.index(0), size, [], visit)


class DenseSource(Source):
    """The nonzeros of a dense buffer, in row-major order."""

    def __init__(
        self, buffer: SSAValue, target: Encoding, target_element: Attribute
    ) -> None:
        t = buffer.type
        assert is_memref_type(t)
        self.buffer = buffer
        self.keys = list(target.dim_to_lvl.results)
        self.target_element = target_element
        self.sorted_levels = t.get_num_dims()
        self.may_repeat = False
        self.indexed = False
        self.has_places = True

    def dims(self, e: Emitter) -> list[SSAValue]:
        return e.sizes(self.buffer)

    def size(self, e: Emitter) -> SSAValue | None:
        return None

    def walk(
        self, e: Emitter, inits: Sequence[SSAValue], body: EntryBody
    ) -> list[SSAValue]:
        """Every element, the body under `scf.if` its value is nonzero."""

        def guarded(
            b: Emitter, entry: Entry, present: SSAValue, carried: list[SSAValue]
        ) -> list[SSAValue]:
            return b.branch(
                present, lambda c: body(c, entry, carried), lambda _: carried
            )

        return self.walk_all(e, inits, guarded)

    def walk_all(
        self, e: Emitter, inits: Sequence[SSAValue], body: PresentBody
    ) -> list[SSAValue]:
        def visit(
            b: Emitter, coords: list[SSAValue], carried: list[SSAValue]
        ) -> list[SSAValue]:
            v = b.load(self.buffer, coords)
            entry = self.entry(b, coords, lambda _: v, None)
            return body(b, entry, is_nonzero(b, v), carried)

        return level_space_nest(e, self.dims(e), inits, visit)

    def count(self, e: Emitter) -> SSAValue:
        """Branch-free: the count grows by each element's `!= 0`."""

        def step(
            b: Emitter, entry: Entry, present: SSAValue, n: list[SSAValue]
        ) -> list[SSAValue]:
            return [b.add(n[0], as_index(b, present))]

        return self.walk_all(e, [e.index(0)], step)[0]


class Sink(ABC):
    """Where a pass writes each entry."""

    @abstractmethod
    def put(self, b: Emitter, at: SSAValue, entry: Entry) -> None: ...


@dataclass
class StorageSink(Sink):
    """The target's coordinates buffers of the levels with one coordinate per
    entry, and its values."""

    coordinates: dict[int, SSAValue]
    values: SSAValue
    sizes: Sequence[SSAValue]
    """The target's level sizes (a coordinate its `crdWidth` cannot hold is
    reported)."""

    def put(self, b: Emitter, at: SSAValue, entry: Entry) -> None:
        for level, crd in self.coordinates.items():
            t = crd.type
            assert is_memref_type(t)
            check_coordinate(
                b, entry.coordinate(level), t.element_type, self.sizes[level]
            )
            b.store(b.from_index(entry.coordinate(level), t.element_type), crd, [at])
        b.store(entry.value(), self.values, [at])


# -- storage fields -------------------------------------------------------------


def field_types(
    tensor_type: TensorType[Attribute],
) -> dict[tuple[str, int], MemRefType[Attribute]]:
    """The types of the memref fields of `tensor_type`'s storage, by (kind, level)."""
    types: dict[tuple[str, int], MemRefType[Attribute]] = {}
    for f in storage_fields(tensor_type):
        if is_memref_type(f.type):
            types[f.kind, f.level] = f.type
    return types


def storage_fields_of(
    tensor_type: TensorType[Attribute],
    built: dict[tuple[str, int], SSAValue],
    sizes: Sequence[SSAValue],
) -> list[SSAValue]:
    """The storage fields of `tensor_type` from its buffers `built` (by kind
    and level) and its level sizes."""
    return [
        sizes[f.level] if f.kind == "level_size" else built[f.kind, f.level]
        for f in storage_fields(tensor_type)
    ]


def check_positions_width(
    e: Emitter, tensor_type: TensorType[Attribute], nnz: SSAValue
) -> None:
    """Report a run-time error where the target's positions cannot hold its
    `nnz` entries (a `posWidth` narrower than the data; read as unsigned, as
    MLIR does). Writes stay in bounds all the same: a wrapped count is below
    nnz."""
    for f in storage_fields(tensor_type):
        if f.kind == "positions" and is_memref_type(f.type):
            positions_fit(e, nnz, f.type.element_type)  # one posWidth for all
            return


# -- counting sorts ---------------------------------------------------------------


@dataclass
class Histogram:
    """The number of entries at each coordinate of a level, then (after a
    prefix sum) the next place of each coordinate's entries: a counting sort's
    cursor. Coordinate c is at `buffer[c + offset]`."""

    buffer: SSAValue
    offset: int = 0

    def at(self, e: Emitter, c: SSAValue) -> SSAValue:
        """The place of coordinate c in the buffer."""
        return e.add(c, e.index(self.offset)) if self.offset else c

    def read(self, e: Emitter, at: SSAValue) -> SSAValue:
        return e.to_index(e.load(self.buffer, [at]))

    def write(self, e: Emitter, at: SSAValue, v: SSAValue) -> None:
        t = self.buffer.type
        assert is_memref_type(t)
        e.store(e.from_index(v, t.element_type), self.buffer, [at])

    def bump(self, e: Emitter, c: SSAValue) -> SSAValue:
        """Add one at coordinate c; returns the old value."""
        at = self.at(e, c)
        old = self.read(e, at)
        self.write(e, at, e.add(old, e.index(1)))
        return old


PrefixStep = Callable[
    [Emitter, SSAValue, SSAValue, SSAValue, list[SSAValue]], list[SSAValue]
]
"""`step(emitter, coordinate, start, count, carried)` for each coordinate of a
prefix sum."""


def prefix_sum(
    e: Emitter,
    histogram: Histogram,
    size: SSAValue,
    inits: Sequence[SSAValue] = (),
    step: PrefixStep | None = None,
    inclusive: bool = False,
) -> list[SSAValue]:
    """Turn the counts into each coordinate's start (or end, if `inclusive`),
    in place; returns the total and the values `step` carried."""

    def visit(b: Emitter, i: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        start, rest = carried[0], carried[1:]
        at = histogram.at(b, i)
        count = histogram.read(b, at)
        end = b.add(start, count)
        histogram.write(b, at, end if inclusive else start)
        if step is not None:
            rest = step(b, i, start, count, rest)
        return [end, *rest]

    return e.loop(e.index(0), size, [e.index(0), *inits], visit)


def shrink(e: Emitter, buffer: SSAValue, size: SSAValue, needed: bool) -> SSAValue:
    """`buffer` cut to `size` elements if `needed`."""
    if not needed:
        return buffer
    t = buffer.type
    assert is_memref_type(t)
    return e.value(ReallocOp(buffer, size, t))
