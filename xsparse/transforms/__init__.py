"""xsparse's passes, as lazy factories keyed by their MLIR-style names."""

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_sparsification() -> type[ModulePass]:
    from xsparse.transforms.sparsifier.sparsification import SparsificationPass

    return SparsificationPass


def get_sparse_tensor_codegen() -> type[ModulePass]:
    from xsparse.transforms.storage.codegen import SparseTensorCodegenPass

    return SparseTensorCodegenPass


def get_post_sparsification_rewrite() -> type[ModulePass]:
    from xsparse.transforms.sparsifier.post_sparsification import (
        PostSparsificationRewritePass,
    )

    return PostSparsificationRewritePass


def get_lower_indexing() -> type[ModulePass]:
    from xsparse.transforms.sparsifier.lower_indexing import LowerIndexingPass

    return LowerIndexingPass


def _convert_to_llvm(name: str) -> Callable[[], type[ModulePass]]:
    def factory() -> type[ModulePass]:
        from xsparse.transforms import convert_to_llvm

        return getattr(convert_to_llvm, name)

    return factory


def get_convert_elementwise_to_linalg() -> type[ModulePass]:
    from xsparse.transforms.sparsifier.elementwise_to_linalg import (
        ConvertElementwiseToLinalgPass,
    )

    return ConvertElementwiseToLinalgPass


def get_sparse_reinterpret_map() -> type[ModulePass]:
    from xsparse.transforms.sparsifier.reinterpret_map import SparseReinterpretMapPass

    return SparseReinterpretMapPass


def get_sparse_vectorization() -> type[ModulePass]:
    from xsparse.transforms.sparsifier.vectorization import SparseVectorizationPass

    return SparseVectorizationPass


def get_sparse_vector_peel() -> type[ModulePass]:
    from xsparse.transforms.sparsifier.vectorization import SparseVectorPeelPass

    return SparseVectorPeelPass


def get_pre_sparsification_rewrite() -> type[ModulePass]:
    from xsparse.transforms.sparsifier.pre_sparsification import (
        PreSparsificationRewritePass,
    )

    return PreSparsificationRewritePass


def get_reassociate_fp_reductions() -> type[ModulePass]:
    from xsparse.transforms.sparsifier.vectorization import ReassociateFPReductionsPass

    return ReassociateFPReductionsPass


def get_dense_linalg_to_loops() -> type[ModulePass]:
    from xsparse.transforms.sparsifier.sparsification import DenseLinalgToLoopsPass

    return DenseLinalgToLoopsPass


def get_sparsifier() -> type[ModulePass]:
    from xsparse.transforms.pipeline import SparsifierPass

    return SparsifierPass


def get_sparse_iteration_to_indexing() -> type[ModulePass]:
    from xsparse.transforms.sparsifier.iteration_to_indexing import (
        SparseIterationToIndexingPass,
    )

    return SparseIterationToIndexingPass


def get_lower_subset() -> type[ModulePass]:
    from xsparse.transforms.structured.lower_subset import LowerSubsetPass

    return LowerSubsetPass


def get_lower_jagged() -> type[ModulePass]:
    from xsparse.transforms.structured.lower_jagged import LowerJaggedPass

    return LowerJaggedPass


def get_bufferize_tile_loops() -> type[ModulePass]:
    from xsparse.transforms.structured.bufferize_tiles import BufferizeTileLoopsPass

    return BufferizeTileLoopsPass


def get_fuse_through_gather() -> type[ModulePass]:
    from xsparse.transforms.structured.fuse_through_gather import FuseThroughGatherPass

    return FuseThroughGatherPass


def get_sparse_decompose_tensors() -> type[ModulePass]:
    from xsparse.transforms.decompose.decompose_tensors import (
        SparseDecomposeTensorsPass,
    )

    return SparseDecomposeTensorsPass


def get_sparse_decompose_format() -> type[ModulePass]:
    from xsparse.transforms.decompose.decompose_format import (
        SparseDecomposeFormatPass,
    )

    return SparseDecomposeFormatPass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {
        "convert-to-llvm": _convert_to_llvm("ConvertToLLVMPass"),
        "convert-arith-to-llvm": _convert_to_llvm("ConvertArithToLLVMPass"),
        "convert-func-to-llvm": _convert_to_llvm("ConvertFuncToLLVMPass"),
        "convert-cf-to-llvm": _convert_to_llvm("ConvertCfToLLVMPass"),
        "finalize-memref-to-llvm": _convert_to_llvm("FinalizeMemRefToLLVMPass"),
        "convert-vector-to-llvm": _convert_to_llvm("ConvertVectorToLLVMPass"),
        "convert-math-to-llvm": _convert_to_llvm("ConvertMathToLLVMPass"),
        "convert-complex-to-standard": _convert_to_llvm("ConvertComplexToStandardPass"),
        "convert-complex-to-llvm": _convert_to_llvm("ConvertComplexToLLVMPass"),
        "lower-indexing": get_lower_indexing,
        "lower-subset": get_lower_subset,
        "lower-jagged": get_lower_jagged,
        "fuse-through-gather": get_fuse_through_gather,
        "bufferize-tile-loops": get_bufferize_tile_loops,
        "sparse-iteration-to-indexing": get_sparse_iteration_to_indexing,
        "sparse-decompose-tensors": get_sparse_decompose_tensors,
        "sparse-decompose-format": get_sparse_decompose_format,
        "sparse-reinterpret-map": get_sparse_reinterpret_map,
        "convert-elementwise-to-linalg": get_convert_elementwise_to_linalg,
        "sparsification": get_sparsification,
        "sparsifier": get_sparsifier,
        "dense-linalg-to-loops": get_dense_linalg_to_loops,
        "post-sparsification-rewrite": get_post_sparsification_rewrite,
        "sparse-tensor-codegen": get_sparse_tensor_codegen,
        "sparse-vectorization": get_sparse_vectorization,
        "sparse-vector-peel": get_sparse_vector_peel,
        "reassociate-fp-reductions": get_reassociate_fp_reductions,
        "pre-sparsification-rewrite": get_pre_sparsification_rewrite,
    }
