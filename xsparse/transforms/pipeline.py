"""`sparsifier`: the whole chain from linalg on sparse tensors to the llvm dialect.

Mirrors MLIR 22's `--sparsifier` pipeline (SparseTensorPipelines.cpp) with the
options that apply to xsparse: `sparse-reinterpret-map`, `sparsification`,
`post-sparsification-rewrite`, `sparse-tensor-codegen`, then `convert-to-llvm`.
xsparse always generates direct code for sparse storage (MLIR's
`enable-runtime-library=false`); the option is accepted for compatibility and
`true` is rejected with a message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from xsparse.transforms.convert_to_llvm import ConvertToLLVMPass
from xsparse.transforms.errors import PassFailure
from xsparse.transforms.sparsifier.iteration_to_indexing import (
    SparseIterationToIndexingPass,
)
from xsparse.transforms.sparsifier.lower_indexing import LowerIndexingPass
from xsparse.transforms.sparsifier.post_sparsification import (
    PostSparsificationRewritePass,
)
from xsparse.transforms.sparsifier.reinterpret_map import SparseReinterpretMapPass
from xsparse.transforms.sparsifier.sparsification import (
    DenseLinalgToLoopsPass,
    GeneralizeNamedTensorOpsPass,
    SparsificationPass,
)
from xsparse.transforms.sparsifier.vectorization import (
    SparseVectorizationPass,
    SparseVectorPeelPass,
)
from xsparse.transforms.storage.codegen import SparseTensorCodegenPass
from xsparse.transforms.structured.bufferize_tiles import BufferizeTileLoopsPass
from xsparse.transforms.structured.lower_jagged import LowerJaggedPass
from xsparse.transforms.structured.lower_subset import LowerSubsetPass

ParallelizationStrategy = Literal[
    "none",
    "dense-outer-loop",
    "any-storage-outer-loop",
    "dense-any-loop",
    "any-storage-any-loop",
]


def sparsifier_passes(
    parallelization_strategy: ParallelizationStrategy = "none",
    sparse_emit_strategy: Literal["functional", "sparse-iterator"] = "functional",
    vl: int = 1,
    enable_simd_index32: bool = False,
    enable_vla_vectorization: bool = False,
) -> list[ModulePass]:
    """The passes from linalg on sparse tensors to buffers, before convert-to-llvm.

    With `vl > 1`, `sparse-vectorization` runs before codegen (as in MLIR's
    pipeline), then xsparse's `sparse-vector-peel` (unmasked main loops).
    With a parallelization strategy, conversions with a parallel form run on
    threads too (`sparse-tensor-codegen{parallel-conversions=true}`).
    """
    passes: list[ModulePass] = [
        GeneralizeNamedTensorOpsPass(),
        BufferizeTileLoopsPass(),
        LowerSubsetPass(),
        LowerJaggedPass(),
        SparseReinterpretMapPass(),
        SparsificationPass(parallelization_strategy, sparse_emit_strategy),
        DenseLinalgToLoopsPass(),
        # Loops the user wrote with sparse_tensor.iterate / coiterate.
        SparseIterationToIndexingPass(),
        LowerIndexingPass(),
        PostSparsificationRewritePass(),
    ]
    if vl > 1:
        passes += [
            SparseVectorizationPass(vl, enable_vla_vectorization, enable_simd_index32),
            SparseVectorPeelPass(),
        ]
    parallel = parallelization_strategy != "none"
    return [*passes, SparseTensorCodegenPass(parallel_conversions=parallel)]


@dataclass(frozen=True)
class SparsifierPass(ModulePass):
    """MLIR's `sparsifier` pipeline."""

    name = "sparsifier"

    parallelization_strategy: ParallelizationStrategy = "none"
    vl: int = 1
    enable_simd_index32: bool = False
    enable_vla_vectorization: bool = False
    enable_runtime_library: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.enable_runtime_library:
            raise PassFailure(
                op,
                "sparsifier: xsparse generates direct code for sparse storage; "
                "enable-runtime-library=true is not supported",
            )
        for p in sparsifier_passes(
            self.parallelization_strategy,
            vl=self.vl,
            enable_simd_index32=self.enable_simd_index32,
            enable_vla_vectorization=self.enable_vla_vectorization,
        ):
            p.apply(ctx, op)
        ConvertToLLVMPass().apply(ctx, op)
