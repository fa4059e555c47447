"""Run-time checks that positions and coordinates fit the narrow integers
(`posWidth`, `crdWidth`) a sparse result stores them in.

MLIR's runtime asserts the same in its storage (`SparseTensorStorage`'s
"Coordinate is too large for the C type" / "Position is too large");
its codegen truncates silently. Here every path that writes positions or
coordinates of a result reports a value that does not fit through the
run-time error channel (`Emitter.runtime_error`: a ValueError in Python) and
keeps its writes in bounds. Widths are read as unsigned, as MLIR does:
`posWidth = 8` holds up to 255 entries.

* positions are checked once per level, against the level's entry count
  (the last position, every other one is below it);
* coordinates are checked per entry only where the level's size does not
  show that every coordinate fits (a constant size of at most 2^crdWidth:
  no check at all).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute, SSAValue

from xsparse.dialects.sparse_tensor.ops_common import constant_int
from xsparse.transforms.codegen_utils.emitter import Emitter


def overhead_bits(element_type: Attribute) -> int:
    """The width of a positions/coordinates element type (index: 64)."""
    return element_type.bitwidth if isinstance(element_type, IntegerType) else 64


def positions_message(width: int) -> str:
    """The error of a result whose entries its positions cannot count."""
    return f"the result has more entries than its {width}-bit positions hold"


def coordinates_message(width: int) -> str:
    """The error of a result with a coordinate its coordinates cannot hold."""
    return f"the result has a coordinate that its {width}-bit coordinates cannot hold"


def constant_overflow(kind: str, largest: int, element_type: Attribute) -> str | None:
    """The error of a `kind` ('positions' / 'coordinates') buffer built at
    compile time whose `largest` element `element_type` cannot hold; None
    where it fits."""
    width = overhead_bits(element_type)
    if width >= 64 or largest <= 2**width - 1:
        return None
    if kind == "positions":
        return positions_message(width)
    return coordinates_message(width)


def positions_fit(
    e: Emitter, entries: SSAValue, element_type: Attribute
) -> SSAValue | None:
    """Whether `entries` (an index) fit positions of `element_type`; where not,
    an error is reported. None where they always do (64 bits)."""
    width = overhead_bits(element_type)
    if width >= 64:
        return None
    fits = e.cmp(entries, "ule", e.index(2**width - 1))
    e.when(
        e.cmp(fits, "eq", e.constant(0, IntegerType(1))),
        lambda b: b.runtime_error(positions_message(width)),
    )
    return fits


def coordinates_may_overflow(
    element_type: Attribute, level_size: SSAValue | int | None
) -> bool:
    """Whether a coordinate below `level_size` may not fit `element_type`
    (None: no size known)."""
    width = overhead_bits(element_type)
    if width >= 64:
        return False
    if isinstance(level_size, SSAValue):
        level_size = constant_int(level_size)
    return level_size is None or level_size > 2**width


def check_coordinate(
    e: Emitter,
    coordinate: SSAValue,
    element_type: Attribute,
    level_size: SSAValue | int | None,
) -> None:
    """Report a `coordinate` (an index) that `element_type` cannot hold,
    unless every coordinate below `level_size` fits (no check emitted)."""
    if not coordinates_may_overflow(element_type, level_size):
        return
    width = overhead_bits(element_type)
    too_large = e.cmp(coordinate, "ugt", e.index(2**width - 1))
    e.when(too_large, lambda b: b.runtime_error(coordinates_message(width)))
