"""Every dialect xsparse reads and writes, as lazy factories: xDSL's, those of
`xsparse.dialects.upstream` in place of xDSL's of the same name, and
xsparse's own.

A context built from these loads nothing until the IR names a dialect, so a
tool that parses a file without sparse tensors never imports xsparse's
dialects (about 0.2 s of start-up) and one without `gpu` ops never builds
MLIR's 32 sparse GPU ops. Nothing here changes xDSL's dialects: only the
contexts built from these factories see xsparse's ops.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects import get_all_dialects as get_xdsl_dialects
from xdsl.ir import Dialect


def get_arith() -> Dialect:
    from xsparse.dialects.upstream.arith import Arith

    return Arith


def get_builtin() -> Dialect:
    from xsparse.dialects.upstream.builtin import Builtin

    return Builtin


def get_bufferization() -> Dialect:
    from xsparse.dialects.upstream.bufferization import Bufferization

    return Bufferization


def get_gpu() -> Dialect:
    from xsparse.dialects.upstream.gpu import GPU

    return GPU


def get_linalg() -> Dialect:
    from xsparse.dialects.upstream.linalg import Linalg

    return Linalg


def get_llvm() -> Dialect:
    from xsparse.dialects.upstream.llvm import LLVM

    return LLVM


def get_memref() -> Dialect:
    from xsparse.dialects.upstream.memref import MemRef

    return MemRef


def get_scf() -> Dialect:
    from xsparse.dialects.upstream.scf import Scf

    return Scf


def get_tensor() -> Dialect:
    from xsparse.dialects.upstream.tensor import Tensor

    return Tensor


def get_vector() -> Dialect:
    from xsparse.dialects.upstream.vector import Vector

    return Vector


def get_upstream_dialects() -> dict[str, Callable[[], Dialect]]:
    """xDSL's dialects that MLIR 22 spells differently or has more of, as
    xsparse reads and writes them (`xsparse.dialects.upstream`)."""
    return {
        "arith": get_arith,
        "builtin": get_builtin,
        "bufferization": get_bufferization,
        "gpu": get_gpu,
        "linalg": get_linalg,
        "llvm": get_llvm,
        "memref": get_memref,
        "scf": get_scf,
        "tensor": get_tensor,
        "vector": get_vector,
    }


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


def get_xsparse_dialects() -> dict[str, Callable[[], Dialect]]:
    """xsparse's own dialects (none of them a name xDSL registers)."""
    return {
        "sparse_tensor": get_sparse_tensor,
        "indexing": get_indexing,
        "subset": get_subset,
        "jagged": get_jagged,
    }


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """xDSL's dialects (those MLIR 22 spells differently as xsparse's
    `upstream` versions) and xsparse's own."""
    return {
        **get_xdsl_dialects(),
        **get_upstream_dialects(),
        **get_xsparse_dialects(),
    }


def make_context(allow_unregistered: bool = False) -> Context:
    """A context that can load every dialect of `get_all_dialects()`."""
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx
