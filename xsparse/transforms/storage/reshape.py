"""Reshape of sparse tensors by rewriting level buffers (part of `sparse-tensor-codegen`).

MLIR 22 accepts `tensor.collapse_shape` and `tensor.expand_shape` on sparse
tensors and lowers them in `lower-sparse-ops-to-foreach`
(SparseTensorRewriting.cpp, Sparse2SparseReshapeRewriter): a `foreach` over the
source inserts every entry at its reshaped coordinates into a fresh tensor.
The RFC "Structured Codegen Beyond Rectangular Arrays" (seed 003, "collapse_shape
and expand_shape") asks for reshapes that view rather than copy where the
layout allows. xsparse rewrites the level buffers
(`xsparse.dialects.sparse_tensor.storage`) instead:

* a reshape that only regroups dense levels (CSR 6x4 <-> dense-dense-compressed
  2x3x4) keeps every buffer: a view (`ReshapeDenseLevels`);
* into a coordinate list (COO, a sparse vector) from an ordered source with the
  identity map, every stored entry keeps its place (row-major order is the same
  before and after a reshape), so the values buffer is kept and only the
  coordinates are computed (`ReshapeToCoordinateList`: CSR collapsed into a
  sparse vector loses its positions, coordinates become row * ncols + col);
* into another ordered identity-map encoding, the entries with their reshaped
  coordinates are already sorted for the result, whose levels are built from
  them as a conversion builds them (`ReshapeThroughEntries`);
* anything else (permuted or blocked maps, a dense result, a dense source):
  every entry is scattered into a dense buffer of the result's shape and a mask
  of the places stored, then converted (`ReshapeThroughDense`).

Kept buffers are shared between the source and the result: where either is
released by `bufferization.dealloc_tensor`, they are copied instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, bufferization, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IntegerAttr,
    MemRefType,
    TensorType,
)
from xdsl.dialects.tensor import CollapseShapeOp, ExpandShapeOp
from xdsl.dialects.tensor import ReshapeOp as TensorReshapeOp
from xdsl.ir import Attribute, BlockArgument, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.sparse_tensor.encoding import Encoding, parse_encoding
from xsparse.dialects.sparse_tensor.levels import (
    LevelType,
)
from xsparse.dialects.sparse_tensor.ops_conversion import ConvertOp
from xsparse.dialects.sparse_tensor.storage import sparse_encoding, storage_fields
from xsparse.dialects.sparse_tensor.types import SparseTensorType, is_identity_map
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.dialects.upstream.bufferization import DeallocTensorOp
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.codegen_utils.op_emitter import INDEX
from xsparse.transforms.codegen_utils.stored_entries import for_each_stored
from xsparse.transforms.errors import PassFailure
from xsparse.transforms.storage.level_buffers import (
    Entries,
    FieldKey,
    LevelStorage,
    alloc_large,
    buffer_type,
    buffer_type_of,
    copy_buffer,
    dense_staging,
    from_staging,
    operand_dims,
    scatter_entries,
    storage_from_entries,
    storage_of,
    storage_result,
)
from xsparse.transforms.storage.overhead_widths import check_coordinate, positions_fit

AnyReshape = CollapseShapeOp | ExpandShapeOp


def reassociation(op: AnyReshape) -> list[list[int]]:
    """Which source dimensions make each result one (collapse), or which result
    dimensions split each source one (expand)."""
    return [[int(x.value.data) for x in g] for g in op.reassociation.data]


def source_ready(op: AnyReshape) -> bool:
    """The source is lowered: its storage (sparse) or its buffer (dense)."""
    if sparse_encoding(op.src.type) is not None:
        return storage_of(op.src) is not None
    return isinstance(op.src.owner, bufferization.ToTensorOp)


@dataclass
class Reshape:
    """The rewrite of a collapse or expand whose source is lowered: the emitter
    before it and the dimension sizes of the source and the result."""

    op: AnyReshape
    groups: list[list[int]]
    e: Emitter
    at: InsertPoint
    source_sizes: list[SSAValue]
    sizes: list[SSAValue]

    @staticmethod
    def start(op: AnyReshape, rewriter: PatternRewriter) -> Reshape:
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        source_sizes = operand_dims(e, op.src)
        assert source_sizes is not None
        groups = reassociation(op)
        if isinstance(op, ExpandShapeOp):
            dynamic = iter(op.dynamic_output_shape)
            sizes = [
                next(dynamic) if n == DYNAMIC_INDEX else e.index(n)
                for n in op.static_output_shape.get_values()
            ]
        else:
            sizes = []
            for n, group in zip(op.result.type.get_shape(), groups, strict=True):
                if n != DYNAMIC_INDEX:
                    sizes.append(e.index(n))
                    continue
                size = source_sizes[group[0]]
                for d in group[1:]:
                    size = e.mul(size, source_sizes[d])
                sizes.append(size)
        return Reshape(op, groups, e, at, source_sizes, sizes)

    @property
    def result_type(self) -> TensorType[Attribute]:
        t = self.op.result.type
        assert is_tensor_type(t)
        return t

    def coordinates(self, b: Emitter, x: Sequence[SSAValue]) -> list[SSAValue]:
        """The result's coordinates of the entry at source coordinates `x`
        (row-major linearization within each group)."""
        if isinstance(self.op, CollapseShapeOp):
            out: list[SSAValue] = []
            for group in self.groups:
                c = x[group[0]]
                for d in group[1:]:
                    c = b.add(b.mul(c, self.source_sizes[d]), x[d])
                out.append(c)
            return out
        y: dict[int, SSAValue] = {}
        for d, group in enumerate(self.groups):
            rest = x[d]
            for r in reversed(group[1:]):
                y[r] = b.value(arith.RemUIOp(rest, self.sizes[r]))
                rest = b.value(arith.DivUIOp(rest, self.sizes[r]))
            y[group[0]] = rest
        return [y[r] for r in range(len(self.sizes))]

    def for_each_entry(
        self, body: Callable[[Emitter, list[SSAValue], SSAValue], None]
    ) -> None:
        """`body(emitter, result coordinates, value position)` for each stored
        entry of the sparse source, in storage order."""
        stt = SparseTensorType.of(self.op.src.type)
        assert stt is not None

        def visit(b: Emitter, x: list[SSAValue], p: SSAValue) -> None:
            body(b, self.coordinates(b, x), p)

        for_each_stored(self.e, self.op.src, stt, visit)

    def kept(self, buffers: list[SSAValue]) -> list[SSAValue]:
        """The source's buffers for the result: themselves (a view) unless the
        source or the result is released by `dealloc_tensor`, or crosses the
        boundary of a function this module calls (the caller may release
        both; a caller from Python tracks the shared buffers), then copies."""
        values = [self.op.src, self.op.result]
        released = (
            any(
                isinstance(use.operation, DeallocTensorOp)
                for v in values
                for use in v.uses
            )
            or any(
                isinstance(use.operation, memref.DeallocOp)
                for b in buffers
                for use in b.uses
            )
            or (_crosses_function(self.op) and _called_in_module(self.op))
        )
        return [copy_buffer(self.e, b) for b in buffers] if released else buffers

    def finish(self, fields: dict[FieldKey, SSAValue]) -> None:
        """Replace the reshape by the sparse result made of `fields` (the level
        sizes added here)."""
        fields.update({("level_size", lvl): s for lvl, s in enumerate(self.sizes)})
        rewriter = self.e.rewriter
        result = storage_result(fields, self.result_type, rewriter, self.at)
        rewriter.replace(self.op, [], [result])


def _crosses_function(op: AnyReshape) -> bool:
    """Whether the source is its function's argument (or the cast standing
    for one's storage fields) or the result leaves the function."""
    fields = storage_of(op.src) or [op.src]
    return any(
        isinstance(v, BlockArgument) and isinstance(v.owner.parent_op(), func.FuncOp)
        for v in fields
    ) or any(
        isinstance(use.operation, func.ReturnOp | func.CallOp) for use in op.result.uses
    )


def _called_in_module(op: AnyReshape) -> bool:
    """Whether a call in the module calls the function around `op`."""
    function = op.parent_op()
    while function is not None and not isinstance(function, func.FuncOp):
        function = function.parent_op()
    module = function.parent_op() if function is not None else None
    if function is None or module is None:
        return False
    name = function.sym_name.data
    return any(
        isinstance(o, func.CallOp) and o.callee.root_reference.data == name
        for o in module.walk()
    )


def _unbatched_dense(lt: LevelType) -> bool:
    return lt.format.is_dense and not lt.format.is_batched


def plain(enc: Encoding | None) -> bool:
    """An encoding whose levels are the dimensions in order, not sliced."""
    return enc is not None and not enc.dim_slices and is_identity_map(enc.dim_to_lvl)


def row_major_source(enc: Encoding | None) -> bool:
    """Stored entries come in row-major order, once each, at value positions
    0, 1, 2, ... (`for_each_stored` visits them in that order)."""
    return (
        enc is not None
        and plain(enc)
        and enc.lvl_types[-1].is_unique
        and all(
            lt.is_ordered
            and lt.format.is_compact
            and not lt.format.is_batched
            and not lt.format.is_padded
            for lt in enc.lvl_types
        )
    )


class ReshapeDenseLevels(RewritePattern):
    """A reshape that only regroups dense levels (identity maps, the other levels
    alike on both sides): the same buffers, new level sizes (a view)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AnyReshape, rewriter: PatternRewriter) -> None:
        src_enc = sparse_encoding(op.src.type)
        res_enc = sparse_encoding(op.result.type)
        if not (plain(src_enc) and plain(res_enc)) or not source_ready(op):
            return
        assert src_enc is not None and res_enc is not None
        if (src_enc.pos_width, src_enc.crd_width) != (
            res_enc.pos_width,
            res_enc.crd_width,
        ):
            return
        coarse, fine = (
            (res_enc.lvl_types, src_enc.lvl_types)
            if isinstance(op, CollapseShapeOp)
            else (src_enc.lvl_types, res_enc.lvl_types)
        )
        if not regroups_dense_levels(reassociation(op), coarse, fine):
            return
        reshape = Reshape.start(op, rewriter)
        source = LevelStorage.of(op.src)
        assert source is not None
        buffers = [v for (kind, _), v in source.fields.items() if kind != "level_size"]
        keys = [
            (f.kind, f.level)
            for f in storage_fields(reshape.result_type)
            if f.kind != "level_size"
        ]
        reshape.finish(dict(zip(keys, reshape.kept(buffers), strict=True)))


def regroups_dense_levels(
    groups: Sequence[Sequence[int]],
    coarse: Sequence[LevelType],
    fine: Sequence[LevelType],
) -> bool:
    """Each group of fine levels is one level alike, or only dense levels that
    make one dense level."""
    for level, group in zip(coarse, groups, strict=True):
        if len(group) == 1:
            if fine[group[0]] != level:
                return False
        elif not _unbatched_dense(level) or not all(
            _unbatched_dense(fine[d]) for d in group
        ):
            return False
    return True


def coordinate_list(enc: Encoding | None) -> bool:
    """A compressed level over singletons (a sparse vector, COO): one entry
    per position, in the order they are stored."""
    if not plain(enc):
        return False
    assert enc is not None
    first, *rest = enc.lvl_types
    return (
        first.format.has_positions
        and first.format.is_compact
        and (first.nonunique or not rest)
        and all(lt.format.is_branchless for lt in rest)
    )


class ReshapeToCoordinateList(RewritePattern):
    """A reshape of a row-major source into a coordinate list (COO, a sparse
    vector): every entry keeps its place, so the values buffer is the source's
    and each coordinates buffer is computed in one pass over the entries."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AnyReshape, rewriter: PatternRewriter) -> None:
        if (
            not row_major_source(sparse_encoding(op.src.type))
            or not coordinate_list(sparse_encoding(op.result.type))
            or not source_ready(op)
        ):
            return
        reshape = Reshape.start(op, rewriter)
        e, result_type = reshape.e, reshape.result_type
        source = LevelStorage.of(op.src)
        assert source is not None
        (values,) = reshape.kept([source.values])
        nnz = e.dim(values)
        crds = [
            alloc_large(e, buffer_type(result_type, ("coordinates", level)), nnz)
            for level in range(len(reshape.sizes))
        ]
        pos_type = buffer_type(result_type, ("positions", 0))
        pos = e.alloc(pos_type, [e.index(2)])
        e.store(e.from_index(e.index(0), pos_type.element_type), pos, [e.index(0)])
        e.store(e.from_index(nnz, pos_type.element_type), pos, [e.index(1)])
        positions_fit(e, nnz, pos_type.element_type)

        def place(b: Emitter, y: list[SSAValue], p: SSAValue) -> None:
            for crd, c, size in zip(crds, y, reshape.sizes, strict=True):
                element = buffer_type_of(crd).element_type
                check_coordinate(b, c, element, size)
                b.store(b.from_index(c, element), crd, [p])

        reshape.for_each_entry(place)
        fields = {("coordinates", level): c for level, c in enumerate(crds)}
        fields.update({("values", -1): values, ("positions", 0): pos})
        reshape.finish(fields)


def built_from_sorted(enc: Encoding | None) -> bool:
    """`storage_from_entries` builds these levels from entries in row-major order."""
    return (
        enc is not None
        and plain(enc)
        and all(lt.is_ordered and lt.n == 0 for lt in enc.lvl_types)
    )


class ReshapeThroughEntries(RewritePattern):
    """A reshape of a row-major source into another ordered identity-map
    encoding: the entries (reshaped coordinates, the source's values in place)
    are sorted for the result, whose levels are built from them."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AnyReshape, rewriter: PatternRewriter) -> None:
        if (
            not row_major_source(sparse_encoding(op.src.type))
            or not built_from_sorted(sparse_encoding(op.result.type))
            or not source_ready(op)
        ):
            return
        reshape = Reshape.start(op, rewriter)
        e = reshape.e
        source = LevelStorage.of(op.src)
        assert source is not None
        rank = len(reshape.sizes)
        nnz = e.dim(source.values)
        table = e.alloc(MemRefType(INDEX, [DYNAMIC_INDEX]), [e.mul(nnz, e.index(rank))])

        def place(b: Emitter, y: list[SSAValue], p: SSAValue) -> None:
            base = b.mul(p, b.index(rank))
            for level, c in enumerate(y):
                b.store(c, table, [b.add(base, b.index(level))])

        reshape.for_each_entry(place)
        entries = Entries(nnz, table, source.values, rank)
        built = storage_from_entries(e, entries, reshape.result_type, reshape.sizes)
        e.op(memref.DeallocOp.get(table))
        keys = [(f.kind, f.level) for f in storage_fields(reshape.result_type)]
        reshape.finish(dict(zip(keys, built, strict=True)))


class ReshapeThroughDense(RewritePattern):
    """Any other reshape with a sparse side (the general path): every stored
    entry of the source (a dense source's nonzeros) scattered at its reshaped
    coordinates into a dense buffer of the result's shape, and a mask of the
    places stored for a sparse result, whose storage is built from both."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AnyReshape, rewriter: PatternRewriter) -> None:
        if not any(sparse_encoding(v.type) for v in (op.src, op.result)):
            return
        if not source_ready(op):
            return
        reshape = Reshape.start(op, rewriter)
        e, result_type = reshape.e, reshape.result_type
        dense, mask = dense_staging(e, result_type, reshape.sizes)
        scatter_entries(e, op.src, reshape.coordinates, dense, mask)
        result = from_staging(e, dense, mask, result_type, reshape.at)
        rewriter.replace(op, [], [result])


LINEAR = parse_encoding("<{ map = (i) -> (i : compressed) }>")
"""The encoding of the sparse vector a `tensor.reshape` passes through."""


class SplitTensorReshape(RewritePattern):
    """`tensor.reshape` of static shapes with a sparse side -> a collapse into
    a sparse vector of the row-major positions, then an expand into the
    result: the same entries in the same row-major order (MLIR's
    `TensorReshapeRewriter` linearizes and delinearizes each coordinate in a
    `foreach`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TensorReshapeOp, rewriter: PatternRewriter) -> None:
        source, result = op.source.type, op.result.type
        if sparse_encoding(source) is None and sparse_encoding(result) is None:
            return
        assert is_tensor_type(source) and is_tensor_type(result)
        shapes = [*source.get_shape(), *result.get_shape()]
        if DYNAMIC_INDEX in shapes:
            raise PassFailure(
                op, "of a sparse tensor needs static source and result shapes"
            )
        size = math.prod(source.get_shape())
        linear = TensorType(source.element_type, [size], LINEAR)
        value = op.source
        if source.get_num_dims() != 1 or sparse_encoding(source) is None:
            groups = [list(range(source.get_num_dims()))]
            collapse = CollapseShapeOp(
                operands=[value],
                result_types=[linear],
                properties={"reassociation": _groups_attr(groups)},
            )
            rewriter.insert(collapse, InsertPoint.before(op))
            value = collapse.result
        if value.type == result:
            rewriter.replace(op, [], [value])
            return
        if result.get_num_dims() == 1:
            rewriter.replace(op, ConvertOp(value, result))
            return
        groups = [list(range(result.get_num_dims()))]
        expand = ExpandShapeOp(
            value, [], _groups_attr(groups), result.get_shape(), result
        )
        rewriter.replace(op, expand)


def _groups_attr(groups: Sequence[Sequence[int]]) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    return ArrayAttr(
        [ArrayAttr([IntegerAttr(d, 64) for d in group]) for group in groups]
    )


RESHAPE_PATTERNS: tuple[RewritePattern, ...] = (
    SplitTensorReshape(),
    ReshapeDenseLevels(),
    ReshapeToCoordinateList(),
    ReshapeThroughEntries(),
    ReshapeThroughDense(),
)
"""The patterns `sparse-tensor-codegen` runs for reshapes, in order of preference."""
