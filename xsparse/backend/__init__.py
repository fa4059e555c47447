"""Native execution: llvm dialect -> LLVM IR -> llvmlite JIT, and the numpy ABI."""

from xsparse.backend.lowering import LoweredModule, lower_to_llvm

__all__ = ["LoweredModule", "lower_to_llvm"]
