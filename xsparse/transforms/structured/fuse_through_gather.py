"""`fuse-through-gather`: fuse an elementwise `linalg.generic` through a gather.

Mirrors the RFC "Structured Codegen Beyond Rectangular Arrays" (seed 003),
section "Fusing through Gather": the consumer is tiled by 1 on the gathered
(batch) dimensions and keeps its structure on the others. Per index tuple,
the gathered operand's tile is the input's slice at that tuple
(`tensor.extract_slice` at the coordinates read with `tensor.extract`), so the
gather itself disappears from the consumer's operands:

    scf.for %i = 0 to 5 iter_args(%acc = %out) {
      %index = tensor.extract %indices[%i, 0]
      %a = tensor.extract_slice %input[%index, 0] [1, 64] [1, 1] : tensor<64xf32>
      %b = tensor.extract_slice %rhs[%i, 0] [1, 64] [1, 1] : tensor<1x64xf32>
      %c = tensor.extract_slice %acc[%i, 0] [1, 64] [1, 1] : tensor<1x64xf32>
      %d = linalg.generic ins(%a, %b) outs(%c)     // %a indexed by (i, j) -> (j)
      %e = tensor.insert_slice %d into %acc[%i, 0] [1, 64] [1, 1]
      scf.yield %e
    }

A named elementwise consumer (`linalg.add`, `linalg.sub`, `linalg.mul`,
`linalg.div`, ...) is generalized to its `linalg.generic` first. A consumer
qualifies when all its loops are parallel, every indexing map is
the identity and it has one tensor result; the gather must have no
`out_of_bounds` value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter

from xsparse.dialects.subset import GatherOp, slice_dims
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.transforms.sparsifier.sparsification import generic_of
from xsparse.transforms.structured.lower_subset import NestEmitter
from xsparse.xdsl_adapter import IterativeRewriteWalker

INDEX = IndexType()
DYNAMIC = DYNAMIC_INDEX


def _elementwise(op: GenericOp) -> bool:
    rank = len(op.iterator_types)
    identity = AffineMap.identity(rank)
    return (
        len(op.res) == 1
        and len(op.outputs) == 1
        and all(
            # Defensive on unverified IR, where the array may hold anything.
            isinstance(it, IteratorTypeAttr)  # pyright: ignore[reportUnnecessaryIsInstance]
            and it.data == IteratorType.PARALLEL
            for it in op.iterator_types
        )
        and all(m.data == identity for m in op.indexing_maps)
    )


def _tensor_type(value: SSAValue) -> TensorType[Attribute]:
    t = value.type
    assert is_tensor_type(t)
    return t


def _size(b: NestEmitter, value: SSAValue, d: int) -> SSAValue | int:
    """Size `d` of a tensor: an int when static."""
    static = _tensor_type(value).get_shape()[d]
    if static != DYNAMIC:
        return static
    return b.value(tensor.DimOp(value, b.index(d)))


def _tile(
    b: NestEmitter, value: SSAValue, batch: Sequence[SSAValue]
) -> tuple[list[SSAValue | int], list[SSAValue | int]]:
    """Offsets and sizes of the tile at `batch` (1 on batch dims, full elsewhere)."""
    rank = _tensor_type(value).get_num_dims()
    offsets: list[SSAValue | int] = [*batch] + [0] * (rank - len(batch))
    sizes: list[SSAValue | int] = [1] * len(batch) + [
        _size(b, value, d) for d in range(len(batch), rank)
    ]
    return offsets, sizes


def _tile_type(value: SSAValue, batch_rank: int) -> TensorType[Attribute]:
    t = _tensor_type(value)
    return TensorType(
        t.element_type, [1] * batch_rank + list(t.get_shape()[batch_rank:])
    )


class GeneralizeElementwiseGatherConsumer(RewritePattern):
    """A named elementwise linalg op on tensors (`linalg.add`, `linalg.sub`, ...)
    reading a tensor gather -> its `linalg.generic`, which the fusion matches."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: NamedOperation, rewriter: PatternRewriter) -> None:
        if not any(
            isinstance(v.owner, GatherOp) and is_tensor_type(v.type) for v in op.inputs
        ):
            return
        generic = generic_of(op)
        if _elementwise(generic):
            rewriter.replace(op, generic)


class FuseElementwiseThroughGather(RewritePattern):
    """An elementwise consumer of a tensor gather -> a loop over the index tuples
    computing one slice each, reading the gathered slice from the input."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if not _elementwise(op):
            return
        position = next(
            (
                i
                for i, v in enumerate(op.inputs)
                if isinstance(v.owner, GatherOp)
                and is_tensor_type(v.type)
                and v.owner.padding is None
            ),
            None,
        )
        if position is None:
            return
        gather = op.inputs[position].owner
        assert isinstance(gather, GatherOp)
        batch_rank = _tensor_type(gather.indices).get_num_dims() - 1
        b = NestEmitter(InsertPoint.before(op))
        bounds = [_size(b, op.outputs[0], d) for d in range(batch_rank)]
        result = self._nest(b, op, gather, position, bounds, [], op.outputs[0])
        rewriter.replace(op, [], [result])
        if not gather.result.uses:
            rewriter.erase(gather)

    def _nest(
        self,
        b: NestEmitter,
        op: GenericOp,
        gather: GatherOp,
        position: int,
        bounds: Sequence[SSAValue | int],
        batch: list[SSAValue],
        acc: SSAValue,
    ) -> SSAValue:
        """One `scf.for` per batch dimension, the tile computation innermost."""
        if len(batch) == len(bounds):
            return self._tile_body(b, op, gather, position, batch, acc)
        bound = bounds[len(batch)]
        upper = b.index(bound) if isinstance(bound, int) else bound
        body = Block(arg_types=[INDEX, acc.type])
        loop = scf.ForOp(b.index(0), upper, b.index(1), [acc], Region(body))
        b.op(loop)
        inner = b.at(InsertPoint.at_end(body))
        value = self._nest(
            inner, op, gather, position, bounds, [*batch, body.args[0]], body.args[1]
        )
        Rewriter.insert_op(scf.YieldOp(value), InsertPoint.at_end(body))
        return loop.results[0]

    def _tile_body(
        self,
        b: NestEmitter,
        op: GenericOp,
        gather: GatherOp,
        position: int,
        batch: Sequence[SSAValue],
        acc: SSAValue,
    ) -> SSAValue:
        source = gather.input
        src_type = _tensor_type(source)
        rank = src_type.get_num_dims()
        coordinates = gather.coordinate_dims(rank)
        kept = slice_dims(rank, coordinates)
        coords: dict[int, SSAValue] = {}
        for j, d in enumerate(coordinates):
            c = b.value(
                tensor.ExtractOp(
                    gather.indices,
                    [*batch, b.index(j)],
                    _tensor_type(gather.indices).element_type,
                )
            )
            if not isinstance(c.type, IndexType):
                c = b.value(upstream_arith.IndexCastOp(c, INDEX))
            coords[d] = c
        shape = src_type.get_shape()
        gathered = b.value(
            tensor.ExtractSliceOp(
                source,
                [coords.get(d, 0) for d in range(rank)],
                [1 if d in coords else _size(b, source, d) for d in range(rank)],
                [1] * rank,
                TensorType(src_type.element_type, [shape[d] for d in kept]),
            )
        )
        batch_rank = len(batch)
        loops = len(op.iterator_types)
        tiles: list[SSAValue] = []
        maps: list[AffineMapAttr] = []
        for i, v in enumerate(op.inputs):
            if i == position:
                tiles.append(gathered)
                maps.append(
                    AffineMapAttr(
                        AffineMap(
                            loops,
                            0,
                            tuple(AffineDimExpr(d) for d in range(batch_rank, loops)),
                        )
                    )
                )
                continue
            offsets, sizes = _tile(b, v, batch)
            tiles.append(
                b.value(
                    tensor.ExtractSliceOp(
                        v, offsets, sizes, [1] * loops, _tile_type(v, batch_rank)
                    )
                )
            )
            maps.append(AffineMapAttr(AffineMap.identity(loops)))
        offsets, sizes = _tile(b, acc, batch)
        out_tile = b.value(
            tensor.ExtractSliceOp(
                acc, offsets, sizes, [1] * loops, _tile_type(acc, batch_rank)
            )
        )
        maps.append(AffineMapAttr(AffineMap.identity(loops)))
        tile_op = GenericOp(
            tiles,
            [out_tile],
            op.body.clone(),
            maps,
            op.iterator_types,
            [out_tile.type],
        )
        computed = b.value(tile_op)
        static_sizes = [s if isinstance(s, int) else DYNAMIC for s in sizes]
        static_offsets = [o if isinstance(o, int) else DYNAMIC for o in offsets]
        insert = tensor.InsertSliceOp.get(
            computed,
            acc,
            static_sizes,
            static_offsets,
            [1] * loops,
            offsets=[o for o in offsets if not isinstance(o, int)],
            sizes=[s for s in sizes if not isinstance(s, int)],
            result_type=acc.type,
        )
        return b.value(insert)


@dataclass(frozen=True)
class FuseThroughGatherPass(ModulePass):
    """Fuse elementwise consumers through tensor gathers (tile by 1 on the gather)."""

    name = "fuse-through-gather"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for pattern in (
            GeneralizeElementwiseGatherConsumer(),
            FuseElementwiseThroughGather(),
        ):
            IterativeRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
