"""Reading a sparse tensor's storage through `sparse_tensor.positions`,
`coordinates`, `values` and `lvl` (which `sparse-tensor-codegen` then resolves
to the storage fields): its level and dimension sizes, and loop nests over its
stored entries in storage order (as MLIR's CodegenUtils `sizesFromSrc` and
`SparseTensorLevel` iteration do). Used by the post-sparsification rewrites
and by the storage code generation alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)

from xsparse.dialects.sparse_tensor.levels import LevelAccess
from xsparse.dialects.sparse_tensor.ops_storage import (
    LvlOp,
    ToCoordinatesOp,
    ToPositionsOp,
)
from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.dialects.sparse_tensor.types import SparseTensorType
from xsparse.transforms.codegen_utils.emitter import Emitter


def level_sizes(e: Emitter, tensor: SSAValue, stt: SparseTensorType) -> list[SSAValue]:
    """The level sizes of a sparse tensor value."""
    return [e.value(LvlOp(tensor, e.index(level))) for level in range(stt.lvl_rank)]


def level_extent(e: Emitter, expr: AffineExpr, dims: Sequence[SSAValue]) -> SSAValue:
    """The size of a level whose coordinate is `expr` of the dimensions."""
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineBinaryOpExpr) and isinstance(
        expr.rhs, AffineConstantExpr
    ):
        block = e.index(expr.rhs.value)
        if expr.kind == AffineBinaryOpKind.Mod:
            return block
        if expr.kind in (AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.CeilDiv):
            inner = level_extent(e, expr.lhs, dims)
            return e.value(arith.CeilDivUIOp(inner, block))
    raise ValueError(f"cannot size a level of expression {expr}")


def dim_sizes(
    e: Emitter, tensor: SSAValue, stt: SparseTensorType, lvl: Sequence[SSAValue]
) -> list[SSAValue]:
    """The dimension sizes: static ones from the type, the others from the
    level sizes through the encoding's lvl-to-dim map."""
    enc = sparse_encoding(tensor.type)
    assert enc is not None
    if all(s != DYNAMIC_INDEX for s in stt.dim_shape):
        return [e.index(s) for s in stt.dim_shape]
    one = e.index(1)
    last = [e.value(arith.SubiOp(s, one)) for s in lvl]
    return [
        e.index(s)
        if s != DYNAMIC_INDEX
        else e.add(e.affine(enc.lvl_to_dim.results[d], last), one)
        for d, s in enumerate(stt.dim_shape)
    ]


def for_each_stored(
    e: Emitter,
    tensor: SSAValue,
    stt: SparseTensorType,
    body: Callable[[Emitter, list[SSAValue], SSAValue], None],
) -> None:
    """A loop nest over the stored entries of a sparse tensor in storage order;
    `body(emitter, level_coordinates, value_position)`."""

    def wrapped(
        b: Emitter, coords: list[SSAValue], p: SSAValue, _: list[SSAValue]
    ) -> list[SSAValue]:
        body(b, coords, p)
        return []

    walk_stored(e, tensor, stt, [], wrapped)


StoredBody = Callable[
    [Emitter, list[SSAValue], SSAValue, list[SSAValue]], Sequence[SSAValue]
]


def walk_stored(
    e: Emitter,
    tensor: SSAValue,
    stt: SparseTensorType,
    inits: Sequence[SSAValue],
    body: StoredBody,
) -> list[SSAValue]:
    """`for_each_stored` carrying `inits` through the loop nest:
    `body(emitter, level_coordinates, value_position, carried)` returns the
    carried values for the next entry; the last ones are returned."""
    sizes = level_sizes(e, tensor, stt)

    def level(
        b: Emitter,
        lvl: int,
        parent: SSAValue,
        coords: list[SSAValue],
        carried: list[SSAValue],
    ) -> list[SSAValue]:
        if lvl == stt.lvl_rank:
            return list(body(b, coords, parent, carried))
        lt = stt.lvl_types[lvl]
        fmt = lt.format
        if fmt.is_dense:

            def dense(c: Emitter, i: SSAValue, args: list[SSAValue]) -> list[SSAValue]:
                at = c.add(c.mul(parent, sizes[lvl]), i)
                return level(c, lvl + 1, at, [*coords, i], args)

            return b.loop(b.index(0), sizes[lvl], carried, dense)
        crd = b.value(ToCoordinatesOp(tensor, lvl))

        def at(c: Emitter, p: SSAValue, args: list[SSAValue]) -> list[SSAValue]:
            crd_p = c.to_index(c.load(crd, [p]))
            return level(c, lvl + 1, p, [*coords, crd_p], args)

        if fmt.is_branchless:
            return at(b, parent, carried)
        pos = b.value(ToPositionsOp(tensor, lvl)) if fmt.has_positions else None

        def position(k: SSAValue) -> SSAValue:
            assert pos is not None
            return b.to_index(b.load(pos, [k]))

        lo, hi = fmt.segment(lt, LevelAccess(b, lambda: sizes[lvl], position), parent)
        return b.loop(lo, hi, carried, at)

    return level(e, 0, e.index(0), [], list(inits))
