"""xsparse's dialects, as lazy factories (never names xDSL already registers)."""

from collections.abc import Callable

from xdsl.ir import Dialect


def get_sparse_tensor() -> Dialect:
    from xsparse.dialects.sparse_tensor import SparseTensor

    return SparseTensor


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    return {
        "sparse_tensor": get_sparse_tensor,
    }
