"""How a sparse tensor is stored: the level buffers that codegen and the runtime share.

A sparse tensor of encoding E is passed around (function arguments and results
after `sparse-tensor-codegen`, and the runtime's calling convention) as:
for each level l in order, its positions buffer (if the level format has one)
then its coordinates buffer (if it has one), then the values buffer, then the
size of every level (index). This mirrors the storage scheme of MLIR's
`sparse-tensor-codegen` (SparseTensorStorageLayout), with one coordinates
buffer per level (structure of arrays).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)

from xsparse.dialects.sparse_tensor.encoding import Encoding, SparseTensorEncodingAttr

FieldKind = Literal["positions", "coordinates", "values", "level_size"]


@dataclass(frozen=True)
class StorageField:
    """One buffer (or size) of a sparse tensor's storage."""

    kind: FieldKind
    level: int
    """The level the field belongs to; -1 for the values."""
    type: Attribute


def overhead_type(width: int) -> Attribute:
    """The element type of a positions/coordinates buffer of bit width `width`
    (0: index; 2: `i2`, the 2:4 metadata the lowering to LLVM packs four per
    byte, `convert_to_llvm.packed`)."""
    if width == 0:
        return IndexType()
    return IntegerType(width)


def sparse_encoding(tensor_type: Attribute) -> Encoding | None:
    if isinstance(tensor_type, TensorType) and isinstance(
        tensor_type.encoding, SparseTensorEncodingAttr
    ):
        return tensor_type.encoding.data
    return None


def storage_fields(tensor_type: TensorType[Attribute]) -> list[StorageField]:
    """The storage of a sparse tensor type, in calling-convention order."""
    enc = sparse_encoding(tensor_type)
    assert enc is not None, "storage_fields expects a sparse tensor type"
    fields: list[StorageField] = []
    for level, lt in enumerate(enc.lvl_types):
        if lt.format.has_positions:
            fields.append(
                StorageField(
                    "positions",
                    level,
                    MemRefType(overhead_type(enc.pos_width), [DYNAMIC_INDEX]),
                )
            )
        if lt.format.has_coordinates:
            fields.append(
                StorageField(
                    "coordinates",
                    level,
                    MemRefType(overhead_type(enc.crd_width), [DYNAMIC_INDEX]),
                )
            )
    fields.append(
        StorageField(
            "values", -1, MemRefType(tensor_type.element_type, [DYNAMIC_INDEX])
        )
    )
    fields.extend(
        StorageField("level_size", level, IndexType()) for level in range(enc.lvl_rank)
    )
    return fields


# ---------------------------------------------------------------------------
# Building level buffers from coordinates (numpy), for the runtime and for
# constants that codegen stores at compile time.
# ---------------------------------------------------------------------------

IntArray = npt.NDArray[np.int64]
AnyArray = npt.NDArray[Any]


@dataclass
class LevelBuffers:
    """A sparse tensor's storage as numpy arrays: per level its positions and
    coordinates (None where the format has none; int64), the values and the
    level sizes."""

    positions: list[IntArray | None]
    coordinates: list[IntArray | None]
    values: AnyArray
    level_sizes: list[int]

    def field(self, kind: FieldKind, level: int) -> AnyArray:
        if kind == "values":
            return self.values
        found = (self.positions if kind == "positions" else self.coordinates)[level]
        assert found is not None, f"level {level} has no {kind}"
        return found


def eval_affine(expr: AffineExpr, dims: Sequence[IntArray]) -> IntArray:
    """An affine expression evaluated elementwise on coordinate arrays."""
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return np.full_like(dims[0] if dims else np.zeros(0, np.int64), expr.value)
    if isinstance(expr, AffineBinaryOpExpr):
        lhs, rhs = eval_affine(expr.lhs, dims), eval_affine(expr.rhs, dims)
        if expr.kind == AffineBinaryOpKind.Add:
            return lhs + rhs
        if expr.kind == AffineBinaryOpKind.Mul:
            return lhs * rhs
        if expr.kind == AffineBinaryOpKind.FloorDiv:
            return lhs // rhs
        if expr.kind == AffineBinaryOpKind.Mod:
            return lhs % rhs
        return -(-lhs // rhs)
    raise ValueError(f"encodings with symbols are not supported by the runtime: {expr}")


def level_extent(expr: AffineExpr, shape: Sequence[int]) -> int:
    """The size of a level whose coordinate is `expr` of the dimensions."""
    if isinstance(expr, AffineDimExpr):
        return shape[expr.position]
    if isinstance(expr, AffineBinaryOpExpr) and isinstance(
        expr.rhs, AffineConstantExpr
    ):
        block = expr.rhs.value
        if expr.kind == AffineBinaryOpKind.Mod:
            return block
        if expr.kind == AffineBinaryOpKind.FloorDiv:
            return -(-level_extent(expr.lhs, shape) // block)
    raise ValueError(f"cannot size a level of expression {expr}")


def _pad_structured(
    enc: Encoding, sizes: Sequence[int], lvl: list[IntArray], vals: AnyArray
) -> tuple[list[IntArray], AnyArray]:
    """Give every block of a trailing structured[n, m] level exactly n entries,
    adding explicit zeros (the levels above it are dense: every block exists)."""
    last = enc.lvl_types[-1]
    if not last.n:
        return lvl, vals
    n, m = last.n, last.m
    if sizes[-1] != m:
        raise ValueError(
            f"a structured[{n}, {m}] level has {m} coordinates, this one {sizes[-1]}"
        )
    outer = tuple(sizes[:-1])
    block = (
        np.ravel_multi_index(tuple(lvl[:-1]), outer)
        if outer
        else np.zeros_like(lvl[-1])
    )
    num_blocks = int(np.prod(outer)) if outer else 1
    used = np.zeros((num_blocks, m), bool)
    used[block, lvl[-1]] = True
    counts = used.sum(axis=1)
    if counts.size and counts.max() > n:
        raise ValueError(f"a block holds more than {n} nonzeros: not {n}:{m} sparse")
    free_rank = np.cumsum(~used, axis=1)
    add = (~used) & (free_rank <= (n - counts)[:, None])
    extra_block, extra_crd = np.nonzero(add)
    extra_outer = np.unravel_index(extra_block, outer) if outer else ()
    new_lvl = [
        np.concatenate([c, e]) for c, e in zip(lvl[:-1], extra_outer, strict=True)
    ]
    new_lvl.append(np.concatenate([lvl[-1], extra_crd]))
    return new_lvl, np.concatenate([vals, np.zeros(extra_crd.shape[0], vals.dtype)])


def build_level_buffers(
    enc: Encoding, shape: Sequence[int], coords: IntArray, values: AnyArray
) -> LevelBuffers:
    """The storage of the entries at dimension coordinates `coords` (nnz x rank)
    with `values`, in encoding `enc`. Duplicates are summed, except at a
    nonunique level (COO), which keeps each entry. A trailing structured[n, m]
    level gets explicit zeros so that every block holds n entries."""
    sizes = [level_extent(e, shape) for e in enc.dim_to_lvl.results]
    dims = [coords[:, d] for d in range(len(shape))]
    lvl = [eval_affine(e, dims) for e in enc.dim_to_lvl.results]
    vals = values
    if lvl and _kept_as_given(enc):
        # One segment of every entry at the first level, as they come.
        kept: list[IntArray | None] = [None] * len(lvl)
        kept[0] = np.array([0, vals.shape[0]], np.int64)
        return LevelBuffers(kept, list(lvl), vals, sizes)
    if lvl:
        lvl, vals = _pad_structured(enc, sizes, lvl, vals)
        order = _level_order(lvl, sizes)
        lvl = [c[order] for c in lvl]
        vals = vals[order]
        if enc.lvl_types[-1].is_unique and vals.shape[0] > 1:
            # Equal coordinates are one entry (their sum) unless the last
            # level stores duplicates.
            new = np.ones(vals.shape[0], bool)
            new[1:] = np.any(np.stack([c[1:] != c[:-1] for c in lvl]), axis=0)
            starts = np.flatnonzero(new)
            vals = np.add.reduceat(vals, starts, dtype=vals.dtype)
            lvl = [c[starts] for c in lvl]
    positions: list[IntArray | None] = []
    coordinates: list[IntArray | None] = []
    # parent[k]: the position of entry k at the level above; num_parents: how many.
    parent = cast(IntArray, np.zeros(vals.shape[0], np.int64))
    num_parents = 1
    node: IntArray  # the position of each entry at this level
    for level, lt in enumerate(enc.lvl_types):
        c, size = lvl[level], sizes[level]
        fmt = lt.format
        if fmt.is_dense:
            node, num_nodes = parent * size + c, num_parents * size
            positions.append(None)
            coordinates.append(None)
        elif fmt.has_positions:
            first = np.ones(c.shape[0], bool)
            if lt.is_unique:
                first[1:] = (parent[1:] != parent[:-1]) | (c[1:] != c[:-1])
            node = np.cumsum(first) - 1
            num_nodes = int(first.sum())
            counts = np.bincount(parent[first], minlength=num_parents)
            bounds = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
            if fmt.positions_per_parent == 2:
                bounds = np.stack([bounds[:-1], bounds[1:]], axis=1).reshape(-1)
            positions.append(bounds)
            coordinates.append(c[first])
        elif lt.n:  # structured[n, m]: exactly n entries per parent
            node, num_nodes = cast(IntArray, np.arange(c.shape[0])), num_parents * lt.n
            positions.append(None)
            coordinates.append(c)
        else:  # singleton: one coordinate at the parent's position
            # parent never decreases (entries are in level order): a
            # repeated position is one beside its equal.
            if np.any(parent[1:] == parent[:-1]):
                raise ValueError(
                    "a singleton level needs one entry per parent position"
                )
            node, num_nodes = parent, num_parents
            stored = np.zeros(num_parents, np.int64)
            stored[parent] = c
            positions.append(None)
            coordinates.append(stored)
        parent, num_parents = node, num_nodes
    return LevelBuffers(
        positions, coordinates, _sum_at(parent, vals, num_parents), sizes
    )


def _kept_as_given(enc: Encoding) -> bool:
    """Whether the encoding stores entries in any order, duplicates included:
    a COO whose levels are all `nonordered` and `nonunique` (`scipy.io.mmread`'s
    layout), where the entries are stored as they come, without a sort."""
    first, *rest = enc.lvl_types
    return (
        first.format.has_positions
        and not first.is_ordered
        and not first.is_unique
        and all(
            lt.format.is_branchless
            and not lt.n
            and not lt.is_ordered
            and not lt.is_unique
            for lt in rest
        )
    )


def _level_order(lvl: list[IntArray], sizes: Sequence[int]) -> IntArray:
    """The stable lexicographic order of the entries' level coordinates: one
    argsort of a combined key (about 3x faster than `np.lexsort`) where the
    product of the level sizes fits in 63 bits."""
    if math.prod(sizes) >= 1 << 63:
        return np.lexsort(tuple(reversed(lvl)))
    key = lvl[0].astype(np.int64)
    for c, size in zip(lvl[1:], sizes[1:], strict=True):
        key = key * size + c
    return cast(IntArray, np.argsort(key, kind="stable"))


def _sum_at(parent: IntArray, vals: AnyArray, size: int) -> AnyArray:
    """`size` values, each the sum of `vals` at its position in `parent`
    (which never decreases): one pass where `np.add.at` takes many."""
    result = np.zeros(size, vals.dtype)
    if parent.shape[0] == 0:
        return result
    new = np.ones(parent.shape[0], bool)
    new[1:] = parent[1:] != parent[:-1]
    starts = np.flatnonzero(new)
    if starts.shape[0] == parent.shape[0]:
        result[parent] = vals
    else:
        result[parent[starts]] = np.add.reduceat(vals, starts, dtype=vals.dtype)
    return result
