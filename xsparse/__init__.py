"""xsparse: a sparse tensor compiler on xDSL.

`xsparse.einsum("ij,j->i", A, x)` and `xsparse.evaluate("y(i) = A(i,j) *
x(j)", A=A, x=x)` (`xsparse.frontend`) compile an expression on numpy /
scipy / SparseTensor operands once and run it; `xsparse.compile(source,
entry=...)` turns MLIR text (linalg.generic on tensors
with `#sparse_tensor.encoding`) into a native kernel called on numpy arrays,
scipy.sparse matrices and `xsparse.SparseTensor`s; `xsparse.read_mtx` /
`write_mtx` / `read_tns` / `write_tns` (`xsparse.io`) move sparse tensors
through files. `xsparse.clear_cache()` empties the kernel cache (on disk and
in the process). The `xsparse` logger (`xsparse.logs`) reports the compile
stages and their times; `python -m xsparse --version` prints the versions.

The stages, in the order a kernel goes through them (ARCHITECTURE.md draws it):
`diagnostics` (parsing, located errors) -> `dialects` -> `transforms.sparsifier`
(linalg on sparse tensors -> loops) -> `transforms.structured` (the RFC's
gather/scatter/jagged) -> `transforms.storage` (sparse tensors -> level
buffers) -> `transforms.convert_to_llvm` -> `backend` (LLVM IR, JIT, runtime).
"""

import importlib
from typing import TYPE_CHECKING, Any

from xsparse.version import __version__ as __version__

if TYPE_CHECKING:
    from xsparse.backend.kernel import Kernel, compile
    from xsparse.backend.sparse_storage import SparseTensor
    from xsparse.backend.threads import get_num_threads, set_num_threads
    from xsparse.errors import ConversionWarning, UncheckedMemrefWarning, XSparseError
    from xsparse.frontend import einsum, evaluate
    from xsparse.io import FileFormatError, read_mtx, read_tns, write_mtx, write_tns

__all__ = [
    "ConversionWarning",
    "FileFormatError",
    "Kernel",
    "SparseTensor",
    "UncheckedMemrefWarning",
    "XSparseError",
    "clear_cache",
    "compile",
    "einsum",
    "evaluate",
    "get_num_threads",
    "read_mtx",
    "read_tns",
    "set_num_threads",
    "write_mtx",
    "write_tns",
]


def clear_cache() -> int:
    """Empty the kernel cache: forget the kernels compiled in this process and
    remove the entries of the disk cache (`xsparse.backend.disk_cache`); the
    number of files removed. The next `compile` of any source compiles again."""
    from xsparse.backend import disk_cache, kernel

    kernel.clear_memory_caches()
    return disk_cache.clear()


_IO = ("FileFormatError", "read_mtx", "read_tns", "write_mtx", "write_tns")
_SUBMODULES = ("composable", "dask", "two_four")
"""Modules of the Python API beside the names above, loaded on first use
(`xsparse.dask` needs the `dask` extra)."""


def __dir__() -> list[str]:
    # The lazily bound names too, before their first use.
    return sorted({*globals(), *__all__, *_SUBMODULES})


def __getattr__(name: str) -> Any:
    # Lazy, so that `import xsparse.dialects` does not load the backend; the
    # name is then bound in the module, so later lookups skip this function
    # (`xsparse.einsum(...)` in a loop).
    value = _load(name)
    globals()[name] = value
    return value


def _load(name: str) -> Any:
    if name in ("compile", "Kernel"):
        from xsparse.backend import kernel

        return getattr(kernel, name)
    if name in ("einsum", "evaluate"):
        from xsparse import frontend

        return getattr(frontend, name)
    if name == "SparseTensor":
        from xsparse.backend.sparse_storage import SparseTensor

        return SparseTensor
    if name in _IO:
        from xsparse import io

        return getattr(io, name)
    if name in ("get_num_threads", "set_num_threads"):
        from xsparse.backend import threads

        return getattr(threads, name)
    if name in ("XSparseError", "ConversionWarning", "UncheckedMemrefWarning"):
        from xsparse import errors

        return getattr(errors, name)
    if name in _SUBMODULES:
        return importlib.import_module(f"xsparse.{name}")
    raise AttributeError(f"module 'xsparse' has no attribute {name!r}")
