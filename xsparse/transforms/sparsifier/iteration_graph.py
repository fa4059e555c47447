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

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, islice


def topological_order(
    num_loops: int, orders: Sequence[Sequence[int]], first: Collection[int] = ()
) -> list[int] | None:
    """Loops sorted so that each sequence in `orders` is visited in order, the
    loops in `first` before the others and the generic's own order where
    free; None when the constraints form a cycle."""
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
        result.append(min(ready, key=lambda i: (i not in first, i)))
    return result


@dataclass(frozen=True)
class Resolution:
    """Operands to convert, and the loop order the kernel then takes."""

    converted: tuple[int, ...]
    order: list[int]


MAX_CHOICES = 256
"""How many sets of operands to leave out `resolving_conversions` tries
(fewest first) before it leaves out every convertible one: a bound on the
time a kernel with many sparse inputs takes."""


def _choices(
    num_loops: int,
    required: Mapping[int, Sequence[int]],
    convertible: Sequence[int],
    preferred: Sequence[Sequence[int]],
    parallel: Collection[int],
) -> Iterator[Resolution]:
    """Each set of convertible operands, fewest first (then every one), that
    leaves the other required orders acyclic, with the order these admit."""
    subsets = (
        subset
        for size in range(1, len(convertible) + 1)
        for subset in combinations(convertible, size)
    )
    for left_out in [*islice(subsets, MAX_CHOICES), tuple(convertible)]:
        kept = [order for k, order in required.items() if k not in left_out]
        order = topological_order(num_loops, [*kept, *preferred], parallel)
        order = order or topological_order(num_loops, kept, parallel)
        if order is not None:
            yield Resolution(left_out, order)


def resolving_conversions(
    num_loops: int,
    required: Mapping[int, Sequence[int]],
    convertible: Sequence[int],
    preferred: Sequence[Sequence[int]] = (),
    parallel: Collection[int] = (),
    admissible: Callable[[list[int]], bool] = lambda order: True,
) -> Resolution | None:
    """The fewest `convertible` operands (earliest first, in the order MLIR
    tries its inputs) whose `required` orders, left out, leave the others'
    acyclic, with the loop order these admit (following `preferred` too
    where that is also possible; `parallel` loops before reductions where
    free, as MLIR's sorter takes them). The first choice whose order is
    `admissible` (a sparse result's outer levels outermost), else the first
    choice; None when none gives an order."""
    choices = _choices(num_loops, required, convertible, preferred, parallel)
    first = next(choices, None)
    if first is None or admissible(first.order):
        return first
    return next((c for c in choices if admissible(c.order)), first)
