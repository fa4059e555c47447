"""`sparsifier`: the whole chain from linalg on sparse tensors to the llvm dialect.

Mirrors MLIR 22's `--sparsifier` pipeline (SparseTensorPipelines.cpp) with the
stages that apply to xsparse: `convert-elementwise-to-linalg`,
`sparse-reinterpret-map`, `sparsification`,
`post-sparsification-rewrite`, `sparse-vectorization`, `sparse-tensor-codegen`,
then `convert-to-llvm`. It takes every option of MLIR 22's `--sparsifier`
(`SparsifierPass` says how each is served); xsparse always generates direct
code for sparse storage, also for MLIR's default `enable-runtime-library=true`.
"""

from __future__ import annotations

import platform
from dataclasses import dataclass
from typing import Literal

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from xsparse.transforms.convert_to_llvm import ConvertToLLVMPass
from xsparse.transforms.convert_to_llvm.standalone_errors import DefineRuntimeErrorPass
from xsparse.transforms.errors import PassFailure
from xsparse.transforms.sparsifier.elementwise_to_linalg import (
    ConvertElementwiseToLinalgPass,
)
from xsparse.transforms.sparsifier.iteration_to_indexing import (
    SparseIterationToIndexingPass,
)
from xsparse.transforms.sparsifier.lower_indexing import LowerIndexingPass
from xsparse.transforms.sparsifier.post_sparsification import (
    PostSparsificationRewritePass,
)
from xsparse.transforms.sparsifier.pre_sparsification import (
    PreSparsificationRewritePass,
)
from xsparse.transforms.sparsifier.reinterpret_map import SparseReinterpretMapPass
from xsparse.transforms.sparsifier.sparsification import (
    DenseLinalgToLoopsPass,
    GeneralizeNamedTensorOpsPass,
    SparsificationPass,
)
from xsparse.transforms.sparsifier.vectorization import (
    ReassociateFPReductionsPass,
    SparseVectorizationPass,
    SparseVectorPeelPass,
)
from xsparse.transforms.storage.codegen import SparseTensorCodegenPass
from xsparse.transforms.structured.bufferize_tiles import BufferizeTileLoopsPass
from xsparse.transforms.structured.lower_jagged import LowerJaggedPass
from xsparse.transforms.structured.lower_subset import LowerSubsetPass

SparseEmitStrategy = Literal["functional", "sparse-iterator", "debug-interface"]

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
    reassociate_fp_reductions: bool = False,
) -> list[ModulePass]:
    """The passes from linalg on sparse tensors to buffers, before convert-to-llvm.

    With `vl > 1`, `sparse-vectorization` runs before codegen (as in MLIR's
    pipeline), then xsparse's `sparse-vector-peel` (unmasked main loops).
    With a parallelization strategy, conversions with a parallel form run on
    threads too (`sparse-tensor-codegen{parallel-conversions=true}`).
    """
    passes: list[ModulePass] = [
        ConvertElementwiseToLinalgPass(),
        GeneralizeNamedTensorOpsPass(),
        PreSparsificationRewritePass(),
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
    if reassociate_fp_reductions:
        passes.append(ReassociateFPReductionsPass())
    parallel = parallelization_strategy != "none"
    return [*passes, SparseTensorCodegenPass(parallel_conversions=parallel)]


@dataclass(frozen=True)
class SparsifierPass(ModulePass):
    """MLIR 22's `sparsifier` pipeline, with every option of its `--help`.

    Options with MLIR's meaning, as xsparse serves them:
    - `enable-runtime-library` (MLIR's default true): xsparse always generates
      direct code for sparse storage; `true` is served by the same code, with
      the same observable results (printing, `sparse_tensor.new`/`out` files).
    - `vl` (default 0: no vectorization; 1 is the same), `enable-arm-sve`
      (scalable vectors, as MLIR's pipeline passes it to sparse-vectorization;
      refused on a host without SVE, where MLIR 22's output stops LLVM),
      `enable-index-optimizations` (default true: 32-bit vector indices where
      the coordinates are at most 32 bits wide), `reassociate-fp-reductions`
      (every float `vector.reduction` may run as a tree).
    - `parallelization-strategy`, `sparse-emit-strategy` (`functional` or
      `sparse-iterator`; `debug-interface` prints code that cannot run, and is
      refused).
    - `enable-buffer-initialization`: accepted; no view of a sparse storage
      buffer reaches past its stored entries, so zeroing the rest changes
      nothing a program can observe.
    - `create-sparse-deallocs` (default true): accepted; `false` leaves
      temporaries to a later deallocation pass in MLIR, which xsparse does not
      have, so xsparse still frees them (only memory use can differ).
    - `enable-amx`, `enable-arm-neon`, `enable-x86vector`: accepted; they let
      convert-vector-to-llvm lower those dialects' ops, which the sparsifier
      never creates.
    - GPU: `enable-gpu-libgen=true` or a `gpu-triple` (GPU code generation)
      is refused with a one-line error; `gpu-chip`, `gpu-features` and
      `gpu-format` only matter with a triple.
    - `test-bufferization-analysis-only` is refused (MLIR's test hook).
    xsparse's own: `enable-simd-index32` and `enable-vla-vectorization`
    (sparse-vectorization's spellings of the two above).
    """

    name = "sparsifier"

    parallelization_strategy: ParallelizationStrategy = "none"
    """Set the parallelization strategy."""
    sparse_emit_strategy: SparseEmitStrategy = "functional"
    """Emit functional code (scf.for/while) or (experimental) sparse
    iterators; debug-interface is refused."""
    enable_runtime_library: bool = True
    """MLIR's runtime library for sparse tensors; xsparse's direct code
    serves both values."""
    enable_buffer_initialization: bool = False
    """Enable zero-initialization of memory buffers (nothing observable
    changes in xsparse)."""
    vl: int = 0
    """Set the vector length (0 disables vectorization)."""
    enable_arm_sve: bool = False
    """Scalable vectors for ARM SVE (refused on other hosts)."""
    enable_index_optimizations: bool = True
    """Allows compiler to assume indices fit in 32-bit if that yields faster
    code."""
    reassociate_fp_reductions: bool = False
    """Allows llvm to reassociate floating-point reductions for speed."""
    create_sparse_deallocs: bool = True
    """Deallocate the sparsifier's temporary buffers (xsparse always does)."""
    enable_amx: bool = False
    """Enables the use of AMX dialect while lowering the vector dialect."""
    enable_arm_neon: bool = False
    """Enables the use of ArmNeon dialect while lowering the vector dialect."""
    enable_x86vector: bool = False
    """Enables the use of X86Vector dialect while lowering the vector
    dialect."""
    enable_gpu_libgen: bool = False
    """GPU acceleration by library calls (like cuSPARSE): refused."""
    gpu_triple: str | None = None
    """GPU target triple: GPU code generation, refused."""
    gpu_chip: str | None = None
    """GPU target architecture."""
    gpu_features: str | None = None
    """GPU target features."""
    gpu_format: str | None = None
    """GPU compilation format."""
    test_bufferization_analysis_only: bool = False
    """MLIR's test hook (run only the inplacability analysis): refused."""
    enable_simd_index32: bool = False
    """xsparse's spelling of enable-index-optimizations for vectorization."""
    enable_vla_vectorization: bool = False
    """xsparse's spelling of enable-arm-sve for vectorization."""

    def refusal(self) -> str | None:
        """Why these options cannot be served here, naming the option; or None."""
        if self.vl < 0:
            return f"vl={self.vl}: the vector length must be 0 (off) or positive"
        if (self.enable_arm_sve or self.enable_vla_vectorization) and (
            platform.machine().lower() not in ("aarch64", "arm64")
        ):
            option = (
                "enable-arm-sve" if self.enable_arm_sve else "enable-vla-vectorization"
            )
            return (
                f"{option}=true: scalable vectors need ARM SVE, and this host is "
                f"{platform.machine()}"
            )
        if self.sparse_emit_strategy == "debug-interface":
            return (
                "sparse-emit-strategy=debug-interface emits code that cannot run; "
                "use functional or sparse-iterator"
            )
        if self.enable_gpu_libgen:
            return "enable-gpu-libgen=true: xsparse has no GPU library path (cuSPARSE)"
        if self.gpu_triple is not None:
            return (
                f"gpu-triple={self.gpu_triple}: xsparse generates CPU code only "
                "(no GPU code generation)"
            )
        if self.test_bufferization_analysis_only:
            return "test-bufferization-analysis-only=true is MLIR's test hook; not supported"
        return None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        refusal = self.refusal()
        if refusal is not None:
            raise PassFailure(op, f"sparsifier: {refusal}")
        iterators = self.sparse_emit_strategy == "sparse-iterator"
        for p in sparsifier_passes(
            self.parallelization_strategy,
            "sparse-iterator" if iterators else "functional",
            vl=max(self.vl, 1),
            enable_simd_index32=self.enable_simd_index32
            or self.enable_index_optimizations,
            enable_vla_vectorization=self.enable_vla_vectorization
            or self.enable_arm_sve,
            reassociate_fp_reductions=self.reassociate_fp_reductions,
        ):
            p.apply(ctx, op)
        ConvertToLLVMPass().apply(ctx, op)
        DefineRuntimeErrorPass().apply(ctx, op)
