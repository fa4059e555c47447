"""The iteration graph of a kernel: the loop orders its operands admit.

Mirrors MLIR 22's `IterationGraphSorter` (SparseTensor/Transforms/Utils/
IterationGraphSorter.cpp): each operand's access order (its levels'
loops, outermost first) is a chain of edges between loops, and a loop order
is a topological order of their union. `resolving_conversions` is the last
resort of MLIR's `GenericOpScheduler` (`resolveCycle` in
SparseReinterpretMap.cpp): which operands to leave out of the graph, and
convert to the order the others then admit, when the required chains form a
cycle.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations


def topological_order(
    num_loops: int, orders: Sequence[Sequence[int]]
) -> list[int] | None:
    """Loops sorted so that each sequence in `orders` is visited in order, the
    generic's own order where free; None when the constraints form a cycle."""
    before: dict[int, set[int]] = {i: set() for i in range(num_loops)}
    for order in orders:
        for outer, inner in zip(order, order[1:], strict=False):
            if outer != inner:
                before[inner].add(outer)
    result: list[int] = []
    while len(result) < num_loops:
        ready = [
            i for i in range(num_loops) if i not in result and before[i] <= set(result)
        ]
        if not ready:
            return None
        result.append(ready[0])
    return result


@dataclass(frozen=True)
class Resolution:
    """Operands to convert, and the loop order the kernel then takes."""

    converted: tuple[int, ...]
    order: list[int]


def resolving_conversions(
    num_loops: int,
    required: Mapping[int, Sequence[int]],
    convertible: Collection[int],
    preferred: Sequence[Sequence[int]] = (),
) -> Resolution | None:
    """The fewest `convertible` operands (earliest first, in the order MLIR
    tries its inputs) whose `required` orders, left out, leave the others'
    acyclic, with the loop order these admit (following `preferred` too
    where that is also possible); None when no choice does."""
    for size in range(1, len(convertible) + 1):
        for left_out in combinations(convertible, size):
            kept = [order for k, order in required.items() if k not in left_out]
            order = topological_order(num_loops, [*kept, *preferred])
            order = order or topological_order(num_loops, kept)
            if order is not None:
                return Resolution(left_out, order)
    return None
