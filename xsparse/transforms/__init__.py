"""xsparse's passes, as lazy factories keyed by their MLIR-style names."""

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_sparsification() -> type[ModulePass]:
    from xsparse.transforms.sparsification import SparsificationPass

    return SparsificationPass


def get_sparse_tensor_codegen() -> type[ModulePass]:
    from xsparse.transforms.sparse_tensor_codegen import SparseTensorCodegenPass

    return SparseTensorCodegenPass


def get_lower_indexing() -> type[ModulePass]:
    from xsparse.transforms.lower_indexing import LowerIndexingPass

    return LowerIndexingPass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {
        "lower-indexing": get_lower_indexing,
        "sparsification": get_sparsification,
        "sparse-tensor-codegen": get_sparse_tensor_codegen,
    }
