"""Level formats of the sparse_tensor dialect, one class per format.

Mirrors MLIR's `LevelFormat` (SparseTensor/IR/Enums.h) and the level-type
documentation of `#sparse_tensor.encoding` (seed 000). Every layer above asks
these classes what a level is: the parser and printer (its spelling), the
sparsifier (how it is iterated and located), codegen and the runtime (which
buffers it owns and how they are filled).
"""

from __future__ import annotations

from abc import ABC
from dataclasses import dataclass
from typing import ClassVar


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


class BatchFormat(LevelFormat):
    """`batch`: a leading dense level whose slices are stored as separate
    batches (MLIR 22 `batch`)."""

    name = "batch"
    insertable = True
    is_dense = True


class CompressedFormat(LevelFormat):
    """`compressed`: stored coordinates under parent p are
    coordinates[positions[p] : positions[p + 1]]."""

    name = "compressed"
    insertable = True
    has_positions = True
    has_coordinates = True


class LooseCompressedFormat(LevelFormat):
    """`loose_compressed`: stored coordinates under parent p are
    coordinates[positions[2p] : positions[2p + 1]], with room between parents."""

    name = "loose_compressed"
    has_positions = True
    has_coordinates = True
    positions_per_parent = 2


class SingletonFormat(LevelFormat):
    """`singleton`: exactly one coordinate per parent position, at the parent's
    position (the inner levels of COO)."""

    name = "singleton"
    insertable = True
    has_coordinates = True


class StructuredFormat(LevelFormat):
    """`structured[n, m]`: n stored coordinates in every block of m (2:4)."""

    name = "structured"
    has_coordinates = True


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
