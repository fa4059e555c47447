// REQUIRES: mlir-opt
//
// The storage accessors on tensors of complex, i1, index, bf16 and f16
// elements (dialects/sparse_tensor/ops-storage-element-types.mlir) against
// mlir-opt-22, as ops-roundtrip.mlir checks the other sparse_tensor ops:
//  1. mlir-opt-22 reads xsparse's custom output and prints what it prints for the input;
//  2. the same for xsparse's generic output;
//  3. xsparse reads mlir-opt-22's generic output (properties) back;
//  4. every sparse_tensor op line xsparse prints is byte for byte the line
//     mlir-opt-22 prints without aliases (SSA names aside).
// Then mlir-opt-22 rejects every case of dialects/sparse_tensor/ops-level-invalid.mlir
// (negative levels and dimensions) with the message xsparse gives, as
// ops-invalid.mlir checks the other verifier rules.
//
// RUN: xsparse-opt --split-input-file %S/../dialects/sparse_tensor/ops-storage-element-types.mlir | %mlir-opt --split-input-file > %t.types.a
// RUN: %mlir-opt --split-input-file %S/../dialects/sparse_tensor/ops-storage-element-types.mlir > %t.types.b
// RUN: diff %t.types.a %t.types.b
// RUN: xsparse-opt --split-input-file --print-op-generic %S/../dialects/sparse_tensor/ops-storage-element-types.mlir | %mlir-opt --split-input-file | diff - %t.types.b
// RUN: %mlir-opt --split-input-file --mlir-print-op-generic %S/../dialects/sparse_tensor/ops-storage-element-types.mlir | xsparse-opt --split-input-file | %mlir-opt --split-input-file | diff - %t.types.b
// RUN: xsparse-opt --split-input-file %S/../dialects/sparse_tensor/ops-storage-element-types.mlir | grep -oE '(^ *|= )sparse_tensor\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' > %t.types.x
// RUN: %mlir-opt --split-input-file --mlir-print-local-scope %S/../dialects/sparse_tensor/ops-storage-element-types.mlir | grep -oE '(^ *|= )sparse_tensor\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' > %t.types.m
// RUN: diff %t.types.x %t.types.m
// RUN: test -s %t.types.m
//
// RUN: not %mlir-opt --split-input-file %S/../dialects/sparse_tensor/ops-level-invalid.mlir 2> %t.err
// RUN: grep -o "error: .*" %t.err | grep -v "failed to infer returned types" | sed -E "s/^error: ('[a-z_.]*' op )?//; s/ *$//" > %t.invalid.m
// RUN: xsparse-opt --split-input-file --verify-diagnostics --parsing-diagnostics %S/../dialects/sparse_tensor/ops-level-invalid.mlir | grep -o "error: .*" | sed -E "s/^error: ('[a-z_.]*' op )?//; s/ *$//" > %t.invalid.x
// RUN: diff %t.invalid.m %t.invalid.x
// RUN: test -s %t.invalid.m
