"""The sort in `sparse_tensor.compress` (xsparse/transforms/storage/sort.py):
its pieces on their own (each sorts on its own, on a sub-range, for index and
i32 elements), then through SpGEMM into CSR against scipy: rows of the product
whose added coordinates number 0, 1, 2, around the insertion-sort cutoff and
many, arrive in random, descending and clustered orders, in narrow and very
wide rows."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np
import pytest
import scipy.sparse as sp
from test_backend_kernels import compile_mlir
from test_sparse_outputs import SPGEMM, assert_canonical_csr
from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.parser import Parser
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

import xsparse
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.storage.sort import (
    SORT_CUTOFF,
    heap_sort,
    insertion_sort,
    sort_coordinates,
)

COUNTS = [
    0,
    1,
    2,
    3,
    SORT_CUTOFF - 1,
    SORT_CUTOFF,
    SORT_CUTOFF + 1,
    SORT_CUTOFF + 2,
    2 * SORT_CUTOFF,
    100,
    257,
    1000,
]


def _product_rows(
    rng: np.random.Generator, rows: list[np.ndarray], width: int, pieces: int
) -> tuple[sp.csr_array, sp.csr_array]:
    """A and B such that row i of A @ B holds the columns rows[i]: each row's
    columns are cut into `pieces` random chunks, one row of B each, and row i
    of A sums those rows of B in a random order (so the kernel adds the
    coordinates chunk after chunk, out of order)."""
    a_rows: list[list[int]] = []
    b_rows: list[np.ndarray] = []
    for columns in rows:
        shuffled = rng.permutation(columns)
        chunks = [c for c in np.array_split(shuffled, pieces) if c.size]
        picked = list(range(len(b_rows), len(b_rows) + len(chunks)))
        b_rows.extend(np.sort(c) for c in chunks)
        a_rows.append([int(k) for k in rng.permutation(picked)])
    inner = max(len(b_rows), 1)
    a = sp.lil_array((len(rows), inner))
    for i, ks in enumerate(a_rows):
        for k in ks:
            a[i, k] = rng.random() + 0.5
    b = sp.lil_array((inner, width))
    for k, columns in enumerate(b_rows):
        b[k, columns] = rng.random(columns.size) + 0.5
    return sp.csr_array(a), sp.csr_array(b)


def _product(a: sp.csr_array, b: sp.csr_array) -> sp.csr_array:
    return cast(sp.csr_array, a @ b)


Pattern = Callable[[np.random.Generator, int, int], np.ndarray]


def _spread(rng: np.random.Generator, count: int, width: int) -> np.ndarray:
    return rng.choice(width, count, replace=False)


def _clustered(rng: np.random.Generator, count: int, width: int) -> np.ndarray:
    """Most coordinates in a narrow range and a few far away: one bucket gets
    nearly all of them (the heap-sorted case)."""
    far = min(count, 3)
    near = rng.choice(min(width // 2, 4 * count), count - far, replace=False)
    away = width - 1 - rng.choice(width // 4, far, replace=False)
    return np.concatenate([near, away])


def _dense(_: np.random.Generator, count: int, width: int) -> np.ndarray:
    """Every coordinate of a range: as many buckets as entries."""
    start = (width - count) // 3
    return np.arange(start, start + count)


@pytest.mark.parametrize("pattern", [_spread, _clustered, _dense])
@pytest.mark.parametrize("width", [2500, 3_000_000])
@pytest.mark.parametrize("pieces", [1, 3, 50])
def test_spgemm_rows_of_every_count(pattern: Pattern, width: int, pieces: int) -> None:
    rng = np.random.default_rng(width + pieces)
    rows = [pattern(rng, count, width) for count in COUNTS for _ in range(2)]
    order = rng.permutation(len(rows))
    a, b = _product_rows(rng, [rows[i] for i in order], width, pieces)
    result = xsparse.compile(SPGEMM)(a, b)
    assert_canonical_csr(result, _product(a, b))
    got = result.to_scipy()
    np.testing.assert_array_equal(np.diff(got.indptr), [rows[i].size for i in order])


def test_spgemm_descending_columns() -> None:
    """Each row of B holds one column, larger for earlier rows: every product
    row adds its coordinates in descending order."""
    rng = np.random.default_rng(7)
    width = 5000
    for count in COUNTS:
        b = sp.csr_array(
            (np.ones(count), width - 1 - 3 * np.arange(count), np.arange(count + 1)),
            shape=(count, width),
        )
        a = (
            sp.csr_array(rng.random((2, count)) + 0.5)
            if count
            else sp.csr_array((2, 0))
        )
        result = xsparse.compile(SPGEMM)(a, b)
        assert_canonical_csr(result, _product(a, b))


PIECES = """
func.func @heap(%b: memref<?xELEM>, %lo: index, %hi: index) {
  func.return
}
func.func @insertion(%b: memref<?xELEM>, %lo: index, %hi: index) {
  func.return
}
func.func @whole(%b: memref<?xELEM>, %n: index) {
  func.return
}
"""


def _pieces(elem: str) -> ModuleOp:
    """PIECES with each body emitted by the sort piece of its name."""
    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    module = Parser(ctx, PIECES.replace("ELEM", elem)).parse_module()
    for f in list(module.ops):
        assert isinstance(f, FuncOp)
        ret = f.body.block.last_op
        assert isinstance(ret, ReturnOp)
        e = Emitter(PatternRewriter(ret), InsertPoint.before(ret), module)
        args = f.body.block.args
        if f.sym_name.data == "heap":
            heap_sort(e, args[0], args[1], args[2])
        elif f.sym_name.data == "insertion":
            insertion_sort(e, args[0], args[1], args[2])
        else:
            sort_coordinates(e, args[0], args[1])
    return module


@pytest.mark.parametrize("elem", ["index", "i32"])
def test_sort_pieces(elem: str) -> None:
    module = compile_mlir(str(_pieces(elem)))
    dtype = np.int64 if elem == "index" else np.int32
    rng = np.random.default_rng(3)
    for count in [*COUNTS, 5000]:
        for name in ("heap", "insertion", "whole"):
            if name == "insertion" and count > 1000:
                continue
            keys = rng.choice(10 * count + 10, count, replace=False)
            if name == "whole" and count % 2:
                keys = np.sort(keys)[::-1]  # descending
            lead = [] if name == "whole" else [-1, -2]
            data = np.concatenate([lead, keys, [-3]]).astype(dtype)
            want = np.concatenate([lead, np.sort(keys), [-3]]).astype(dtype)
            if name == "whole":
                module.function("whole")(data, count)
            else:
                module.function(name)(data, 2, 2 + count)
            np.testing.assert_array_equal(data, want, err_msg=f"{name} {count}")
