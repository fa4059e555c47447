"""xsparse's dialects, as lazy factories (never names xDSL already registers)."""

from collections.abc import Callable

from xdsl.ir import Dialect

from xsparse.dialects.gpu_ext import extend_gpu
from xsparse.dialects.linalg_ext import extend_linalg
from xsparse.dialects.scf_ext import extend_scf
from xsparse.dialects.xdsl_ext import extend_xdsl_dialects

extend_linalg()
extend_scf()
extend_xdsl_dialects()
extend_gpu()


def get_sparse_tensor() -> Dialect:
    from xsparse.dialects.sparse_tensor import SparseTensor

    return SparseTensor


def get_indexing() -> Dialect:
    from xsparse.dialects.indexing import Indexing

    return Indexing


def get_subset() -> Dialect:
    from xsparse.dialects.subset import Subset

    return Subset


def get_jagged() -> Dialect:
    from xsparse.dialects.jagged import Jagged

    return Jagged


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    return {
        "sparse_tensor": get_sparse_tensor,
        "indexing": get_indexing,
        "subset": get_subset,
        "jagged": get_jagged,
    }
