"""`sparsification`: linalg.generic on sparse tensors -> set loops -> scf.

Mirrors MLIR 22's `-sparsification` (SparseTensor/Transforms/Sparsification.cpp)
and its options. The loops are the set loops of the `indexing` dialect (RFC
seed 003): with `sparse-emit-strategy=sparse-iterator` the pass stops there;
the default, `functional`, also runs `lower-indexing`, so that
`sparse-reinterpret-map,sparsification` gives scf code shaped like MLIR 22's.
"""

from dataclasses import dataclass
from typing import Literal

from xdsl.context import Context
from xdsl.dialects import arith, bufferization, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.ops import FillOp, GenericOp
from xdsl.dialects.tensor import PadOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xsparse.dialects.type_guards import is_tensor_type
from xsparse.transforms.errors import PassFailure
from xsparse.transforms.sparsifier.loop_emitter import (
    SparseKernelEmitter,
    is_sparse_generic,
)
from xsparse.transforms.sparsifier.lower_indexing import LowerIndexingPass
from xsparse.transforms.sparsifier.merge_lattices import UnsupportedKernel
from xsparse.transforms.sparsifier.output_sizing import HintSparseOutputSize
from xsparse.transforms.sparsifier.parallel_insertion import (
    ParallelizeRowCompress,
    ParallelizeRowInsert,
)
from xsparse.transforms.sparsifier.scalar_operands import InlineScalarOperands
from xsparse.xdsl_adapter import IterativeRewriteWalker


class GeneralizeNamedOp(RewritePattern):
    """A named linalg op on tensors (`linalg.matmul`, `linalg.sub`, ...) ->
    its `linalg.generic`, as MLIR's sparsifier pipeline starts with
    `linalg-generalize-named-ops` (`linalg.fill` keeps its own lowering)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: NamedOperation, rewriter: PatternRewriter) -> None:
        if isinstance(op, FillOp) or not all(
            not isinstance(v.type, MemRefType) for v in [*op.inputs, *op.outputs]
        ):
            return  # on memrefs; scalar operands (zero points) are taken
        rewriter.replace(op, generic_of(op))


def generic_of(op: NamedOperation) -> GenericOp:
    """The `linalg.generic` a named linalg op stands for."""
    return GenericOp(
        op.inputs,
        op.outputs,
        op.body.clone(),
        op.get_indexing_maps(),
        op.get_iterator_types(),
        op.result_types,
    )


def generalize_named_ops(module: ModuleOp) -> None:
    for pattern in (GeneralizeNamedOp(), InlineScalarOperands()):
        IterativeRewriteWalker(pattern, apply_recursively=False).rewrite_module(module)


@dataclass(frozen=True)
class GeneralizeNamedTensorOpsPass(ModulePass):
    """The first step of the `sparsifier` pipeline, as MLIR's starts with
    `linalg-generalize-named-ops` (here for ops on tensors only, xDSL's own
    pass of that name also rewrites memref ops nothing lowers)."""

    name = "xsparse-generalize-named-tensor-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        generalize_named_ops(op)


class SparsifyGeneric(RewritePattern):
    """Replace a linalg.generic with sparse operands by the set loops computing it."""

    def __init__(self, parallelization_strategy: str = "none") -> None:
        self.parallelization_strategy = parallelization_strategy

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if not is_sparse_generic(op):
            return
        try:
            result = SparseKernelEmitter(op, self.parallelization_strategy).emit()
        except UnsupportedKernel as e:
            raise PassFailure(op, f"cannot be sparsified: {e}") from None
        inputs = list(op.inputs)
        rewriter.replace(op, [], [result] if op.res else [])
        for value in inputs:
            # A zero-padded sparse input, read through its source now.
            if isinstance(value.owner, PadOp) and not value.uses:
                rewriter.erase_op(value.owner)


class LowerDenseGeneric(RewritePattern):
    """A linalg.generic on dense tensors -> the same (all dense) loop nest."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        operands = [*op.inputs, *op.outputs]
        if is_sparse_generic(op) or not all(
            isinstance(v.type, TensorType) for v in operands
        ):
            return
        try:
            result = SparseKernelEmitter(op).emit()
        except UnsupportedKernel as e:
            raise PassFailure(op, f"cannot be lowered to loops: {e}") from None
        rewriter.replace(op, [], [result] if op.res else [])


class BufferizeTensorFill(RewritePattern):
    """`linalg.fill` of a tensor -> the same fill on its buffer (codegen lowers
    the memref form to loops); on a fresh buffer where the tensor has other
    uses, which read its value before the fill."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: FillOp, rewriter: PatternRewriter) -> None:
        if not op.res or len(op.outputs) != 1:
            return
        target = op.outputs[0]
        target_type = target.type
        if not is_tensor_type(target_type) or is_sparse_generic(op):
            return
        shared = target.has_more_than_one_use()
        memref_type = MemRefType(target_type.element_type, target_type.get_shape())
        buffer = bufferization.ToBufferOp.create(
            operands=[target], result_types=[memref_type]
        )
        ops: list[Operation] = [buffer]
        if shared:
            sizes: list[SSAValue] = []
            for d, n in enumerate(target_type.get_shape()):
                if n == DYNAMIC_INDEX:
                    index = arith.ConstantOp(IntegerAttr(d, IndexType()))
                    dim = memref.DimOp(buffer.results[0], index)
                    ops += [index, dim]
                    sizes.append(dim.result)
            buffer = memref.AllocOp(sizes, [], memref_type)
            ops.append(buffer)
        fill = FillOp(list(op.inputs), [buffer.results[0]], res=())
        result = bufferization.ToTensorOp.create(
            operands=[buffer.results[0]], result_types=[op.res[0].type]
        )
        rewriter.replace(op, [*ops, fill, result])


@dataclass(frozen=True)
class DenseLinalgToLoopsPass(ModulePass):
    """Dense linalg.generic / linalg.fill on tensors -> loops on their buffers, in the
    sparsifier pipeline (MLIR bufferizes and runs convert-linalg-to-loops;
    sparsification itself, as MLIR's, leaves dense kernels alone)."""

    name = "dense-linalg-to-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        generalize_named_ops(op)
        IterativeRewriteWalker(
            GreedyRewritePatternApplier([LowerDenseGeneric(), BufferizeTensorFill()]),
            apply_recursively=False,
        ).rewrite_module(op)
        LowerIndexingPass().apply(ctx, op)


@dataclass(frozen=True)
class SparsificationPass(ModulePass):
    """MLIR's `sparsification` pass. With a parallelization strategy, a row
    loop that builds a sparse output (by expand/compress, or inserting in
    order) also becomes parallel (`parallel_insertion`), which MLIR refuses."""

    name = "sparsification"

    parallelization_strategy: Literal[
        "none",
        "dense-outer-loop",
        "any-storage-outer-loop",
        "dense-any-loop",
        "any-storage-any-loop",
    ] = "none"
    sparse_emit_strategy: Literal["functional", "sparse-iterator"] = "functional"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        IterativeRewriteWalker(
            GreedyRewritePatternApplier(
                [InlineScalarOperands(), HintSparseOutputSize()]
            ),
            apply_recursively=False,
        ).rewrite_module(op)
        IterativeRewriteWalker(
            SparsifyGeneric(self.parallelization_strategy), apply_recursively=False
        ).rewrite_module(op)
        if self.sparse_emit_strategy == "functional":
            LowerIndexingPass().apply(ctx, op)
            if self.parallelization_strategy != "none":
                IterativeRewriteWalker(
                    GreedyRewritePatternApplier(
                        [ParallelizeRowCompress(), ParallelizeRowInsert()]
                    ),
                    apply_recursively=False,
                ).rewrite_module(op)
