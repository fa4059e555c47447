// REQUIRES: mlir-opt
//
// `#sparse_tensor.encoding` against mlir-opt-22, on every round-trip case of
// dialects/sparse_tensor/encoding.mlir (up to its LEGACY-SPELLINGS section,
// which MLIR 22 rejects) and every invalid case of encoding-invalid.mlir.
//
// RUN: sed '/LEGACY-SPELLINGS/,$d' %S/../dialects/sparse_tensor/encoding.mlir > %t.in.mlir
//
// mlir-opt-22 reads xsparse's output and prints what it prints for the input:
// RUN: xsparse-opt --split-input-file %t.in.mlir | %mlir-opt --split-input-file --mlir-print-local-scope > %t.a
// RUN: %mlir-opt --split-input-file --mlir-print-local-scope %t.in.mlir > %t.b
// RUN: diff %t.a %t.b
//
// xsparse prints each encoding byte for byte as mlir-opt-22 prints it:
// RUN: xsparse-opt --split-input-file %t.in.mlir | grep -o '#sparse_tensor\.encoding<{[^}]*}>' > %t.xsparse
// RUN: grep -o '#sparse_tensor\.encoding<{[^}]*}>' %t.b > %t.mlir
// RUN: diff %t.xsparse %t.mlir
// RUN: test -s %t.mlir
//
// Printing is a fixpoint: xsparse's output read back prints the same.
// RUN: xsparse-opt --split-input-file %t.in.mlir > %t.once.mlir
// RUN: xsparse-opt --split-input-file %t.once.mlir > %t.twice
// RUN: diff %t.once.mlir %t.twice
//
// mlir-opt-22 reports every invalid case with the message (and line) that
// xsparse reports, per the expected-error annotations.
// RUN: %mlir-opt --split-input-file --verify-diagnostics %S/../dialects/sparse_tensor/encoding-invalid.mlir > /dev/null
//
// And xsparse's line:column of each of them is mlir-opt-22's.
// RUN: xsparse-opt --split-input-file --parsing-diagnostics %S/../dialects/sparse_tensor/encoding-invalid.mlir | grep -o ':[0-9]*:[0-9]*: error: .*' > %t.xerr
// RUN: not %mlir-opt --split-input-file %S/../dialects/sparse_tensor/encoding-invalid.mlir 2> %t.merr.all > /dev/null
// RUN: grep -v 'expected error "' %t.merr.all | grep -o ':[0-9]*:[0-9]*: error: .*' > %t.merr
// RUN: diff %t.xerr %t.merr
