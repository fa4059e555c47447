"""An order of the loops that every sparse operand can be read in.

The sparsifier visits each sparse operand's levels in order, so the loops of
its letters must nest as its levels do (CSR: rows outside columns; CSC: the
reverse). Operands whose level orders conflict (a CSR times a CSC, `A(i,j) *
A(j,i)`) cannot be co-iterated: the later one is converted inside the kernel
(`sparse_tensor.convert`) to its letters in the order the others fix. A
sparse result is built in that order too, so it is a CSC matrix where the
loops run column by column (the transpose of a CSR matrix).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir.affine import AffineBinaryOpExpr, AffineDimExpr, AffineExpr

from xsparse.backend.sparse_storage import parse_encoding
from xsparse.dialects.sparse_tensor.encoding import Encoding
from xsparse.frontend.expression import Access


def _dims(expr: AffineExpr) -> list[int]:
    if isinstance(expr, AffineDimExpr):
        return [expr.position]
    if isinstance(expr, AffineBinaryOpExpr):
        return _dims(expr.lhs) + _dims(expr.rhs)
    return []


def level_letters(encoding: Encoding, indices: tuple[str, ...]) -> list[str]:
    """The letters of an access in the order its encoding's levels use them."""
    seen: dict[str, None] = {}
    for expr in encoding.dim_to_lvl.results:
        seen.update(dict.fromkeys(indices[d] for d in _dims(expr)))
    return list(seen)


def is_permutation(encoding: Encoding) -> bool:
    """Each level is one dimension (no blocks, slices or symbols)."""
    results = encoding.dim_to_lvl.results
    return (
        len(results) == encoding.dim_rank
        and encoding.dim_to_lvl.num_symbols == 0
        and all(isinstance(r, AffineDimExpr) for r in results)
        and not encoding.dim_slices
    )


def permuted(encoding: Encoding, levels: list[int]) -> Encoding:
    """`encoding` with level l on dimension `levels[l]`: the same level types
    when it is a permutation of as many levels, else CSR's generalization
    (dense, then compressed levels); widths left at index."""
    rank = len(levels)
    if is_permutation(encoding) and encoding.lvl_rank == rank:
        types = [str(t) for t in encoding.lvl_types]
    else:
        types = ["dense", *(["compressed"] * (rank - 1))]
    dims = ", ".join(f"d{d}" for d in range(rank))
    body = ", ".join(f"d{d} : {t}" for d, t in zip(levels, types, strict=True))
    return parse_encoding(f"#sparse_tensor.encoding<{{ map = ({dims}) -> ({body}) }}>")


@dataclass(frozen=True)
class LoopOrder:
    """Every letter in an order all sparse operands accept, and the accesses
    (by position among the sparse accesses given) to convert, with the
    encoding each is converted to."""

    letters: tuple[str, ...]
    conversions: dict[int, Encoding]

    def sorted(self, letters: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(letters, key=self.letters.index))


def loop_order(sparse: list[tuple[Access, Encoding]], priority: list[str]) -> LoopOrder:
    """Add each sparse access's level order to the constraints, converting
    the accesses whose order would close a cycle; `priority` (every letter)
    breaks ties, so loops follow the output's order where nothing else
    decides."""
    edges: set[tuple[str, str]] = set()
    conversions: dict[int, Encoding] = {}
    for position, (access, encoding) in enumerate(sparse):
        order = level_letters(encoding, access.indices)
        added = set(zip(order, order[1:], strict=False))
        if _topological(edges | added, priority) is not None:
            edges |= added
            continue
        current = _topological(edges, priority)
        assert current is not None
        fixed = sorted(dict.fromkeys(access.indices), key=current.index)
        levels = [access.indices.index(letter) for letter in fixed]
        conversions[position] = permuted(encoding, levels)
        edges |= set(zip(fixed, fixed[1:], strict=False))
    final = _topological(edges, priority)
    assert final is not None
    return LoopOrder(tuple(final), conversions)


def _topological(edges: set[tuple[str, str]], priority: list[str]) -> list[str] | None:
    """Kahn's order of `priority`'s letters under `edges`, earliest in
    `priority` first among the free ones; None on a cycle."""
    pending = {letter: 0 for letter in priority}
    for _, after in edges:
        pending[after] += 1
    order: list[str] = []
    while len(order) < len(priority):
        free = [x for x in priority if pending.get(x) == 0]
        if not free:
            return None
        letter = free[0]
        del pending[letter]
        order.append(letter)
        for before, after in edges:
            if before == letter:
                pending[after] -= 1
    return order
