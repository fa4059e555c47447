"""Level formats of the sparse_tensor dialect, one class per format.

Mirrors MLIR's `LevelFormat` (SparseTensor/IR/Enums.h) and the level-type
documentation of `#sparse_tensor.encoding` (seed 000), with the shape of TACO's
mode formats (Chou et al., "Format Abstraction for Sparse Tensor Algebra
Compilers"): properties (`is_dense` = full and locatable, `is_branchless`,
`is_compact`) and capabilities over positions (`segment`, `children`,
`positions_length`). Every layer above asks these classes what a level is:
the parser and printer (its spelling), the sparsifier (how it is iterated and
located), codegen (which buffers it owns, how they are read and filled) and
the runtime (what a valid buffer looks like).

The capabilities are written once over an `Arithmetic` on positions, so the
same method emits IR (an emitter's `index` / `add` / `mul` build ops) and
computes on numpy arrays (the runtime's validation).
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

V = TypeVar("V")


class Arithmetic(Protocol[V]):
    """Index arithmetic on positions: IR values or numbers."""

    def index(self, n: int) -> V: ...

    def add(self, a: V, b: V) -> V: ...

    def mul(self, a: V, b: V) -> V: ...


@dataclass(frozen=True)
class LevelAccess(Generic[V]):
    """What a format reads to find positions: the arithmetic, the level's size
    (dense levels) and its positions buffer as indices (compressed levels)."""

    arith: Arithmetic[V]
    size: Callable[[], V]
    positions: Callable[[V], V]


def positionless_access(arith: Arithmetic[V], size: Callable[[], V]) -> LevelAccess[V]:
    """The access of a level without positions (reading one is a bug)."""
    return LevelAccess(arith, size, _no_positions)


def _no_positions(_: object) -> Any:
    raise AssertionError("a level without positions reads none")


class LevelFormat(ABC):
    """How one storage level is stored, iterated, located and appended to."""

    name: ClassVar[str]
    """The format's keyword in MLIR 22's encoding syntax."""

    has_positions: ClassVar[bool] = False
    """The level owns a positions buffer (compressed, loose_compressed)."""

    has_coordinates: ClassVar[bool] = False
    """The level owns a coordinates buffer (compressed, singleton, n:m...)."""

    is_dense: ClassVar[bool] = False
    """Every coordinate of the level is stored: iterated as a range, located
    by arithmetic (dense, batch)."""

    positions_per_parent: ClassVar[int] = 1
    """How many positions entries each parent position owns (loose_compressed
    stores a [lo, hi) pair per parent)."""

    insertable: ClassVar[bool] = False
    """A tensor with such a level can be built by insertion in level order
    (MLIR 22's codegen inserts into dense, compressed and singleton levels)."""

    is_branchless: ClassVar[bool] = False
    """Each parent position has exactly one entry, at the parent's own
    position (TACO's branchless: singleton)."""

    is_compact: ClassVar[bool] = True
    """The entries of the level are numbered 0, 1, ... in storage order, with
    no room between parents (loose_compressed is not)."""

    is_padded: ClassVar[bool] = False
    """Every block holds the same number of entries; zeros pad the blocks
    with fewer, so an explicit zero has no entry of its own (structured)."""

    is_batched: ClassVar[bool] = False
    """The level splits the tensor into batches whose buffers MLIR types with
    a leading batch dimension (batch)."""

    def children(
        self, lt: LevelType, a: LevelAccess[V], lo: V, hi: V
    ) -> tuple[V, V] | None:
        """[first, last): this level's positions under the parent positions
        [lo, hi), when they are one range (None otherwise)."""
        raise NotImplementedError

    def segment(self, lt: LevelType, a: LevelAccess[V], parent: V) -> tuple[V, V]:
        """[lo, hi): this level's positions under the parent position `parent`."""
        bounds = self.children(lt, a, parent, a.arith.add(parent, a.arith.index(1)))
        assert bounds is not None
        return bounds

    def positions_length(self, arith: Arithmetic[V], parents: V) -> V:
        """The length of the positions buffer under `parents` parent positions."""
        raise ValueError(f"level format {self.name} has no positions")

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other)

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class DenseFormat(LevelFormat):
    """`dense`: all coordinates of the level are stored (implicit, no buffer)."""

    name = "dense"
    insertable = True
    is_dense = True

    def children(
        self, lt: LevelType, a: LevelAccess[V], lo: V, hi: V
    ) -> tuple[V, V] | None:
        size = a.size()
        return a.arith.mul(lo, size), a.arith.mul(hi, size)


class BatchFormat(LevelFormat):
    """`batch`: a leading dense level whose slices are stored as separate
    batches (MLIR 22 `batch`)."""

    name = "batch"
    insertable = True
    is_dense = True
    is_batched = True

    children = DenseFormat.children  # located like dense


class CompressedFormat(LevelFormat):
    """`compressed`: stored coordinates under parent p are
    coordinates[positions[p] : positions[p + 1]]."""

    name = "compressed"
    insertable = True
    has_positions = True
    has_coordinates = True

    def children(
        self, lt: LevelType, a: LevelAccess[V], lo: V, hi: V
    ) -> tuple[V, V] | None:
        return a.positions(lo), a.positions(hi)

    def positions_length(self, arith: Arithmetic[V], parents: V) -> V:
        return arith.add(parents, arith.index(1))


class LooseCompressedFormat(LevelFormat):
    """`loose_compressed`: stored coordinates under parent p are
    coordinates[positions[2p] : positions[2p + 1]], with room between parents."""

    name = "loose_compressed"
    has_positions = True
    has_coordinates = True
    positions_per_parent = 2
    is_compact = False

    def children(
        self, lt: LevelType, a: LevelAccess[V], lo: V, hi: V
    ) -> tuple[V, V] | None:
        return None  # each parent's [lo, hi) pair stands apart

    def segment(self, lt: LevelType, a: LevelAccess[V], parent: V) -> tuple[V, V]:
        first = a.arith.mul(parent, a.arith.index(2))
        second = a.arith.add(first, a.arith.index(1))
        return a.positions(first), a.positions(second)

    def positions_length(self, arith: Arithmetic[V], parents: V) -> V:
        return arith.mul(parents, arith.index(2))


class SingletonFormat(LevelFormat):
    """`singleton`: exactly one coordinate per parent position, at the parent's
    position (the inner levels of COO)."""

    name = "singleton"
    insertable = True
    has_coordinates = True
    is_branchless = True

    def children(
        self, lt: LevelType, a: LevelAccess[V], lo: V, hi: V
    ) -> tuple[V, V] | None:
        return lo, hi


class StructuredFormat(LevelFormat):
    """`structured[n, m]`: n stored coordinates in every block of m (2:4)."""

    name = "structured"
    has_coordinates = True
    is_padded = True

    def children(
        self, lt: LevelType, a: LevelAccess[V], lo: V, hi: V
    ) -> tuple[V, V] | None:
        n = a.arith.index(lt.n)
        return a.arith.mul(lo, n), a.arith.mul(hi, n)

    def segment(self, lt: LevelType, a: LevelAccess[V], parent: V) -> tuple[V, V]:
        n = a.arith.index(lt.n)
        lo = a.arith.mul(parent, n)
        return lo, a.arith.add(lo, n)


DENSE = DenseFormat()
BATCH = BatchFormat()
COMPRESSED = CompressedFormat()
LOOSE_COMPRESSED = LooseCompressedFormat()
SINGLETON = SingletonFormat()
STRUCTURED = StructuredFormat()

LEVEL_FORMATS: dict[str, LevelFormat] = {
    f.name: f
    for f in (DENSE, BATCH, COMPRESSED, LOOSE_COMPRESSED, SINGLETON, STRUCTURED)
}


@dataclass(frozen=True)
class LevelType:
    """A level format with its properties (MLIR's `LevelType`)."""

    format: LevelFormat
    nonunique: bool = False
    nonordered: bool = False
    soa: bool = False
    n: int = 0
    """For `structured[n, m]`: stored entries per block."""
    m: int = 0
    """For `structured[n, m]`: the block size."""

    @property
    def is_unique(self) -> bool:
        return not self.nonunique

    @property
    def is_ordered(self) -> bool:
        return not self.nonordered

    def __str__(self) -> str:
        """MLIR 22's spelling, e.g. `compressed(nonunique)`, `structured[2, 4]`."""
        text = self.format.name
        if isinstance(self.format, StructuredFormat):
            text += f"[{self.n}, {self.m}]"
        props = [
            p
            for p, on in (
                ("nonunique", self.nonunique),
                ("nonordered", self.nonordered),
                ("soa", self.soa),
            )
            if on
        ]
        if props:
            text += "(" + ", ".join(props) + ")"
        return text
