// REQUIRES: mlir-opt
//
// memref.prefetch against mlir-opt-22, on dialects/memref/prefetch.mlir (as
// ops-roundtrip.mlir does for the sparse_tensor ops): each reads the other's
// custom and generic output, the op lines are byte for byte MLIR's, and the
// cases of prefetch-invalid.mlir fail with MLIR's messages (MLIR prefixes
// its parse errors with `custom op '<op>'`, stripped here).
//
// RUN: xsparse-opt %S/../dialects/memref/prefetch.mlir | %mlir-opt > %t.a
// RUN: %mlir-opt %S/../dialects/memref/prefetch.mlir > %t.b
// RUN: diff %t.a %t.b
// RUN: xsparse-opt --print-op-generic %S/../dialects/memref/prefetch.mlir | %mlir-opt | diff - %t.b
// RUN: %mlir-opt --mlir-print-op-generic %S/../dialects/memref/prefetch.mlir | xsparse-opt | %mlir-opt | diff - %t.b
// RUN: xsparse-opt %S/../dialects/memref/prefetch.mlir | grep -oE 'memref\.prefetch.*' | sed -E 's/%%[A-Za-z0-9_-]+/%%/g' > %t.x
// RUN: grep -oE 'memref\.prefetch.*' %t.b | sed -E 's/%%[A-Za-z0-9_-]+/%%/g' > %t.m
// RUN: diff %t.x %t.m
// RUN: test -s %t.m
// RUN: not %mlir-opt --split-input-file %S/../dialects/memref/prefetch-invalid.mlir 2>&1 | grep -o "error: .*" | sed -E "s/^error: (custom op '[a-z.]*' )?//" > %t.err.m
// RUN: xsparse-opt --split-input-file --verify-diagnostics --parsing-diagnostics %S/../dialects/memref/prefetch-invalid.mlir | grep -o "error: .*" | sed -E "s/^error: //" > %t.err.x
// RUN: diff %t.err.m %t.err.x
// RUN: test -s %t.err.m
