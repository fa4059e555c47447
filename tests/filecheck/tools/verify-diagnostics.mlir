// `--verify-diagnostics` as mlir-opt checks it: every diagnostic is expected
// by an `expected-error` annotation on its line (or `@+N`, `@-N`, `@above`,
// `@below` it), every annotation is met, and then the exit code is 0. With
// `--split-input-file`, each chunk is checked on its own and lines are lines
// of the whole file. mlir-opt-22 checks the same files the same way.
// RUN: xsparse-opt --split-input-file --verify-diagnostics %s | filecheck %s
// RUN: %if mlir-opt %{ %mlir-opt --split-input-file --verify-diagnostics %s | filecheck %s %}
// RUN: xsparse-opt -split-input-file -verify-diagnostics=all %s | filecheck %s

// A diagnostic nothing expects, an annotation nothing meets (or met on
// another line, by another message or severity): exit 1, each reported on
// stderr as mlir-opt-22 reports it, unmet annotations last.
// RUN: not xsparse-opt --split-input-file --verify-diagnostics %S/inputs/verify-failures.mlir 2> %t.xsparse
// RUN: filecheck %s --check-prefix=FAIL --input-file %t.xsparse
// RUN: %if mlir-opt %{ not %mlir-opt --split-input-file --verify-diagnostics %S/inputs/verify-failures.mlir 2> %t.mlir %}
// RUN: %if mlir-opt %{ filecheck %s --check-prefix=FAIL --input-file %t.mlir %}
// FAIL:      verify-failures.mlir:12:21: error: unexpected error: unexpected coordinate bitwidth: 128
// FAIL:      verify-failures.mlir:18:21: error: unexpected error: unexpected coordinate bitwidth: 2
// FAIL:      verify-failures.mlir:24:21: error: unexpected error: unexpected coordinate bitwidth: 3
// FAIL:      verify-failures.mlir:29:4: error: 'error' diagnostic emitted when expecting a 'warning'
// FAIL:      verify-failures.mlir:4:4: error: expected error "never emitted" was not produced
// FAIL-NEXT: // expected-error@+1 {{.}}{{.}}never emitted
// FAIL:      verify-failures.mlir:17:4: error: expected error "unexpected coordinate bitwidth: 2" was not produced
// FAIL:      verify-failures.mlir:23:4: error: expected error "some other message" was not produced
// FAIL:      verify-failures.mlir:29:4: error: expected warning "unknown level format: sparse" was not produced

// `=only-expected`: the annotations are met; other diagnostics are ignored.
// RUN: xsparse-opt --split-input-file --verify-diagnostics=only-expected %S/inputs/verify-only-expected.mlir
// RUN: %if mlir-opt %{ %mlir-opt --split-input-file --verify-diagnostics=only-expected %S/inputs/verify-only-expected.mlir %}

// An input without any annotation: each diagnostic is unexpected, exit 1 (as
// in mlir-opt-22; `--parsing-diagnostics` prints them on stdout instead).
// RUN: not xsparse-opt --verify-diagnostics %S/inputs/verify-no-annotations.mlir 2>&1 | filecheck %s --check-prefix=PRINT
// RUN: %if mlir-opt %{ not %mlir-opt --verify-diagnostics %S/inputs/verify-no-annotations.mlir 2>&1 | filecheck %s --check-prefix=PRINT %}
// PRINT: verify-no-annotations.mlir:2:21: error: unexpected error: unexpected coordinate bitwidth: 128

// On the line of the diagnostic.
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : singleton, d1 : compressed) }> // expected-error {{expected compressed or loose_compressed level before singleton level}}

// -----

// expected-error@+1 {{unexpected coordinate bitwidth: 128}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), crdWidth = 128 }>

// -----

#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), crdWidth = 2 }>
// expected-error@-1 {{unexpected coordinate bitwidth: 2}}

// -----

#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : sparse) }>
// expected-error@above {{unknown level format: sparse}}

// -----

// `@below` and `@above` skip the lines of other annotations.
// expected-error@below {{unknown level property: foo}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed(foo)) }>

// -----

// `expected-error-re`: `{{...}}` in the message are regular expressions.
// expected-error-re@+1 {{unknown level {{[a-z]+}}: high}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : dense(high)) }>

// -----

// An op's verifier.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @positions(%t: tensor<8x8xf64, #CSR>) -> memref<?xindex> {
  // expected-error@+1 {{requested level is out of bounds}}
  %0 = sparse_tensor.positions %t { level = 2 : index } : tensor<8x8xf64, #CSR> to memref<?xindex>
  return %0 : memref<?xindex>
}

// -----

// A chunk without diagnostics prints its output.
// CHECK: func.func @valid()
func.func @valid() {
  return
}
