"""xsparse's dialects (`sparse_tensor`, `indexing`, `subset`, `jagged`).

Importing this package adds to xDSL's `arith`, `bufferization`, `memref`,
`llvm`, `vector`, `linalg` and `scf` what xsparse's IR needs (ops xDSL lacks,
MLIR's custom syntax, vector operands): every module that builds or reads
xsparse's IR imports it first, so the additions are always there. The `gpu`
ops (`gpu_ext`) are added by the `gpu` factory of `xsparse.dialect_registry`,
which holds the lazy factories for contexts.
"""

import functools

from xsparse.dialects.linalg_ext import extend_linalg
from xsparse.dialects.scf_ext import extend_scf
from xsparse.dialects.xdsl_ext import extend_xdsl_dialects


@functools.cache
def extend_xdsl() -> None:
    """Add xsparse's ops and syntax to xDSL's dialects, once per process (some
    additions wrap xDSL's methods: a second wrap would nest)."""
    extend_linalg()
    extend_scf()
    extend_xdsl_dialects()


extend_xdsl()
