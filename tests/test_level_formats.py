"""What each level format answers (`dialects/sparse_tensor/levels.py`): where
its entries under a parent are, as positions computed by the format itself on
numbers (the runtime's arithmetic; the sparsifier runs the same methods on IR)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from xsparse.backend.sparse_storage import NUMPY_ARITHMETIC
from xsparse.dialects.sparse_tensor.levels import (
    BATCH,
    COMPRESSED,
    DENSE,
    LOOSE_COMPRESSED,
    SINGLETON,
    STRUCTURED,
    LevelAccess,
    LevelFormat,
    LevelType,
)

POSITIONS: dict[LevelFormat, Any] = {
    COMPRESSED: np.array([0, 2, 2, 5]),  # parents 0, 1, 2 own [0, 2), [2, 2), [2, 5)
    LOOSE_COMPRESSED: np.array([0, 2, 4, 4, 6, 9]),  # pairs, room after parent 0
}


def access(fmt: LevelFormat) -> LevelAccess[Any]:
    positions = POSITIONS.get(fmt)
    return LevelAccess(
        NUMPY_ARITHMETIC,
        lambda: np.int64(4),  # the level size of dense levels
        lambda k: positions[k] if positions is not None else pytest.fail("read"),
    )


@pytest.mark.parametrize(
    "lt, expected",
    [
        (LevelType(DENSE), [(0, 4), (4, 8), (8, 12)]),
        (LevelType(BATCH), [(0, 4), (4, 8), (8, 12)]),
        (LevelType(COMPRESSED), [(0, 2), (2, 2), (2, 5)]),
        (LevelType(LOOSE_COMPRESSED), [(0, 2), (4, 4), (6, 9)]),
        (LevelType(SINGLETON), [(0, 1), (1, 2), (2, 3)]),
        (LevelType(STRUCTURED, n=2, m=4), [(0, 2), (2, 4), (4, 6)]),
    ],
    ids=str,
)
def test_segment_of_each_parent(lt: LevelType, expected: list[tuple[int, int]]) -> None:
    a = access(lt.format)
    got = [
        tuple(int(x) for x in lt.format.segment(lt, a, np.int64(p))) for p in range(3)
    ]
    assert got == expected
    # vectorized over all parents at once, as the runtime's validation calls it
    parents: Any = np.arange(3)
    lo, hi = lt.format.segment(lt, a, parents)
    assert list(zip(lo.tolist(), hi.tolist(), strict=True)) == expected


@pytest.mark.parametrize(
    "lt, expected",
    [
        (LevelType(DENSE), (4, 12)),
        (LevelType(COMPRESSED), (2, 5)),
        (LevelType(SINGLETON), (1, 3)),
        (LevelType(STRUCTURED, n=2, m=4), (2, 6)),
        (LevelType(LOOSE_COMPRESSED), None),  # each parent's pair stands apart
    ],
    ids=str,
)
def test_children_of_a_range_of_parents(
    lt: LevelType, expected: tuple[int, int] | None
) -> None:
    got = lt.format.children(lt, access(lt.format), np.int64(1), np.int64(3))
    assert (None if got is None else tuple(int(x) for x in got)) == expected


def test_positions_length() -> None:
    assert int(COMPRESSED.positions_length(NUMPY_ARITHMETIC, np.int64(3))) == 4
    assert int(LOOSE_COMPRESSED.positions_length(NUMPY_ARITHMETIC, np.int64(3))) == 6
    with pytest.raises(ValueError, match="no positions"):
        SINGLETON.positions_length(NUMPY_ARITHMETIC, np.int64(3))


def test_properties_answer_for_the_format() -> None:
    assert [f.name for f in (SINGLETON,) if f.is_branchless] == ["singleton"]
    assert [f.is_compact for f in (COMPRESSED, LOOSE_COMPRESSED)] == [True, False]
    assert STRUCTURED.is_padded and not COMPRESSED.is_padded
    assert BATCH.is_batched and BATCH.is_dense and not DENSE.is_batched
