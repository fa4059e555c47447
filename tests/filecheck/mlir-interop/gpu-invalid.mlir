// REQUIRES: mlir-opt
//
// mlir-opt-22 rejects every case of dialects/gpu/invalid.mlir with the
// message xsparse gives (xsparse prefixes every verifier message with
// `'<op>' op`, which MLIR does only for emitOpError; both are stripped here).
//
// RUN: not %mlir-opt --split-input-file %S/../dialects/gpu/invalid.mlir 2> %t.err
// RUN: grep -o "error: .*" %t.err | sed -E "s/^error: ('[a-z_.]*' op )?//; s/ *$//" > %t.mlir
// RUN: xsparse-opt --split-input-file --verify-diagnostics --parsing-diagnostics %S/../dialects/gpu/invalid.mlir | grep -o "error: .*" | sed -E "s/^error: ('[a-z_.]*' op )?//; s/ *$//" > %t.xsparse
// RUN: diff %t.mlir %t.xsparse
// RUN: test -s %t.mlir
