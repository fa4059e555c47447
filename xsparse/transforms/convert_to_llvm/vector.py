"""vector -> llvm (mirrors MLIR's `convert-vector-to-llvm` for 1-D vectors)."""

from __future__ import annotations

from xdsl.pattern_rewriter import RewritePattern

VECTOR_PATTERNS: tuple[RewritePattern, ...] = ()
