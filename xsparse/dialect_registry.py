"""Every dialect xsparse reads and writes, as lazy factories: xDSL's, with
xsparse's additions applied when one is first loaded, and xsparse's own.

A context built from these loads nothing until the IR names a dialect, so a
tool that parses a file without sparse tensors never imports xsparse's
dialects (about 0.2 s of start-up) and one without `gpu` ops never builds
MLIR's 32 sparse GPU ops. Importing `xsparse.dialects` applies the
additions to xDSL's `arith`, `bufferization`, `memref`, `llvm`, `vector`,
`linalg` and `scf`; `gpu`'s are applied by its factory here and by
`xsparse.universe`.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects import get_all_dialects as get_xdsl_dialects
from xdsl.ir import Dialect

from xsparse.shaped_types import check_shaped_types_when_parsed

EXTENDED_XDSL_DIALECTS = frozenset(
    {"arith", "bufferization", "memref", "llvm", "vector", "linalg", "scf"}
)
"""xDSL's dialects that importing `xsparse.dialects` adds ops or syntax to."""


def extended(xdsl_factory: Callable[[], Dialect]) -> Callable[[], Dialect]:
    """`xdsl_factory`, after xsparse's additions to xDSL's dialects."""

    def load() -> Dialect:
        from xsparse.dialects import extend_xdsl

        extend_xdsl()
        return xdsl_factory()

    return load


def get_gpu() -> Dialect:
    """xDSL's `gpu` dialect with the ops MLIR's sparse GPU codegen prints."""
    from xdsl.dialects.gpu import GPU

    from xsparse.dialects.gpu_ext import extend_gpu

    extend_gpu()
    return GPU


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
    """xDSL's dialects (those xsparse extends, extended) and xsparse's own;
    a context made from them parses tensor and memref types with MLIR's
    checks (`shaped_types`)."""
    check_shaped_types_when_parsed()
    dialects = {
        name: extended(factory) if name in EXTENDED_XDSL_DIALECTS else factory
        for name, factory in get_xdsl_dialects().items()
    }
    dialects["gpu"] = get_gpu
    dialects.update(get_xsparse_dialects())
    return dialects


def make_context(allow_unregistered: bool = False) -> Context:
    """A context that can load every dialect of `get_all_dialects()`."""
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx
