"""`tensor.extract_slice` of a sparse tensor, materialized as a copy.

MLIR 22 types a slice with an encoding whose dimensions carry
`#sparse_tensor<slice(offset, size, stride)>` and lets the sparsifier iterate
the source's storage through it (a view, SparseTensorLevel's slice
iterators). xsparse stores a value of such a type as a plain tensor of the
slice's shape in the same levels: `extract_slice` gathers the source's stored
entries that fall on the slice (offset <= c < offset + size * stride, c -
offset a multiple of the stride) into a dense staging buffer and a mask at
(c - offset) / stride, then builds the slice's levels from them, as the
general reshape does. Every consumer then reads an ordinary tensor; the
slice costs a copy and a staging buffer of the slice's size.

A slice of a dense tensor is copied into a fresh buffer of its shape
(one-shot bufferization gives a strided `memref.subview`; xsparse's dense
buffers have the identity layout).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerType
from xdsl.dialects.tensor import ExtractSliceOp
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.sparse_tensor.ops_storage import ToValuesOp
from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.dialects.sparse_tensor.types import SparseTensorType
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.codegen_utils.stored_entries import for_each_stored
from xsparse.transforms.storage.level_buffers import (
    as_tensor,
    buffer_of,
    dense_buffer_type,
    dense_staging,
    for_all,
    from_staging,
    storage_of,
)


def _mixed(
    e: Emitter, static: Sequence[int], dynamic: Sequence[SSAValue]
) -> list[SSAValue]:
    """Static values as constants, `?` ones from `dynamic` in order."""
    rest = iter(dynamic)
    return [next(rest) if n == DYNAMIC_INDEX else e.index(n) for n in static]


class CopySparseSlice(RewritePattern):
    """`tensor.extract_slice` of a lowered sparse tensor -> a new tensor of
    the slice's entries (see the module doc)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ExtractSliceOp, rewriter: PatternRewriter) -> None:
        source, result_type = op.source, op.result.type
        enc = sparse_encoding(source.type)
        stt = SparseTensorType.of(source.type)
        if enc is None or stt is None or storage_of(source) is None:
            return
        assert is_tensor_type(result_type)
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        offsets = _mixed(e, op.static_offsets.get_values(), op.offsets)
        sizes = _mixed(e, op.static_sizes.get_values(), op.sizes)
        strides = _mixed(e, op.static_strides.get_values(), op.strides)
        dense, mask = dense_staging(e, result_type, sizes)
        assert mask is not None
        values = e.value(ToValuesOp(source))
        one = e.constant(1, IntegerType(8))

        def entry(b: Emitter, lvl: list[SSAValue], p: SSAValue) -> None:
            dims = [b.affine(x, lvl) for x in enc.lvl_to_dim.results]
            inside: list[SSAValue] = []
            places: list[SSAValue] = []
            for c, offset, size, stride in zip(
                dims, offsets, sizes, strides, strict=True
            ):
                shifted = b.sub(c, offset)
                place = b.value(arith.DivUIOp(shifted, stride))
                on_grid = b.cmp(
                    b.value(arith.RemUIOp(shifted, stride)), "eq", b.index(0)
                )
                inside += [b.cmp(c, "uge", offset), b.cmp(place, "ult", size), on_grid]
                places.append(place)

            def put(w: Emitter) -> None:
                w.store(w.load(values, [p]), dense, places)
                w.store(one, mask, places)

            b.when(b.all_of(inside), put)

        for_each_stored(e, source, stt, entry)
        rewriter.replace(op, [], [from_staging(e, dense, mask, result_type, at)])


class CopyDenseSlice(RewritePattern):
    """`tensor.extract_slice` of a dense tensor -> a copy of the slice's
    elements into a fresh buffer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ExtractSliceOp, rewriter: PatternRewriter) -> None:
        source, result_type = op.source, op.result.type
        if sparse_encoding(source.type) is not None:
            return
        if sparse_encoding(result_type) is not None:
            return
        assert is_tensor_type(result_type) and is_tensor_type(source.type)
        if len(result_type.get_shape()) != len(source.type.get_shape()):
            return  # rank-reducing slices are left to the dense bufferization
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        offsets = _mixed(e, op.static_offsets.get_values(), op.offsets)
        sizes = _mixed(e, op.static_sizes.get_values(), op.sizes)
        strides = _mixed(e, op.static_strides.get_values(), op.strides)
        whole = buffer_of(source, rewriter, at)
        part = e.alloc(dense_buffer_type(result_type), sizes)

        def copy(b: Emitter, at_: list[SSAValue]) -> None:
            where = [
                b.add(o, b.mul(i, s))
                for i, o, s in zip(at_, offsets, strides, strict=True)
            ]
            b.store(b.load(whole, where), part, at_)

        for_all(e, sizes, copy)
        rewriter.replace(op, [], [as_tensor(part, result_type, rewriter, at)])
