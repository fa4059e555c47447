"""xsparse's dialects (`sparse_tensor`, `indexing`, `subset`, `jagged`) and,
in `upstream`, xDSL's dialects as MLIR 22 spells them.

Nothing here changes xDSL: `xsparse.dialect_registry` registers these in the
contexts xsparse builds.
"""
