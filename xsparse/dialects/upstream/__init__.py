"""xDSL's dialects as MLIR 22 reads and writes them, for xsparse's contexts only.

Each module holds, for one of xDSL's dialects, the ops xDSL 0.74 lacks and
subclasses of xDSL's op classes (same op name) where MLIR 22 parses, prints
or verifies more: vector operands of casts and selects, MLIR's custom syntax
of `scf.parallel` and `memref.cast`, `linalg.generic`'s trait given as an
alias. Its dialect object (`Arith`, `LLVM`, ...) is a new `Dialect` of xDSL's
name with those ops in place of xDSL's; `xsparse.dialect_registry` registers
it in the contexts xsparse builds. xDSL's own classes and dialect objects are
never changed, so a context that does not load these sees plain xDSL.

xsparse's passes build their ops from these classes where an op needs what
xDSL's class lacks (a vector condition, MLIR's syntax), and match ops with
xDSL's classes (`isinstance` holds for both).
"""
