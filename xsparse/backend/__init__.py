"""Native execution: llvm dialect -> LLVM IR -> llvmlite JIT, and the numpy ABI.

`lower_to_llvm` and `LoweredModule` load on first use: running a cached
kernel needs neither the compiler's stages nor xDSL's lowering."""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from xsparse.backend.lowering import LoweredModule, lower_to_llvm

__all__ = ["LoweredModule", "lower_to_llvm"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from xsparse.backend import lowering

        return getattr(lowering, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
