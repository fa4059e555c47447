// REQUIRES: mlir-opt
//
// The sparse_tensor ops against mlir-opt-22, on every round-trip case of
// dialects/sparse_tensor/ops-{storage,conversion,insertion,semiring,iteration}.mlir.
// For each file:
//  1. mlir-opt-22 reads xsparse's custom output and prints what it prints for the input;
//  2. the same for xsparse's generic output;
//  3. xsparse reads mlir-opt-22's generic output (properties, segment sizes) back;
//  4. every sparse_tensor op line xsparse prints is byte for byte the line
//     mlir-opt-22 prints without aliases (SSA names aside).
//
// RUN: xsparse-opt --split-input-file %S/../dialects/sparse_tensor/ops-storage.mlir | %mlir-opt --split-input-file > %t.storage.a
// RUN: %mlir-opt --split-input-file %S/../dialects/sparse_tensor/ops-storage.mlir > %t.storage.b
// RUN: diff %t.storage.a %t.storage.b
// RUN: xsparse-opt --split-input-file --print-op-generic %S/../dialects/sparse_tensor/ops-storage.mlir | %mlir-opt --split-input-file | diff - %t.storage.b
// RUN: %mlir-opt --split-input-file --mlir-print-op-generic %S/../dialects/sparse_tensor/ops-storage.mlir | xsparse-opt --split-input-file | %mlir-opt --split-input-file | diff - %t.storage.b
// RUN: xsparse-opt --split-input-file %S/../dialects/sparse_tensor/ops-storage.mlir | grep -oE '(^ *|= )sparse_tensor\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' > %t.storage.x
// RUN: %mlir-opt --split-input-file --mlir-print-local-scope %S/../dialects/sparse_tensor/ops-storage.mlir | grep -oE '(^ *|= )sparse_tensor\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' > %t.storage.m
// RUN: diff %t.storage.x %t.storage.m
// RUN: test -s %t.storage.m
// RUN: xsparse-opt --split-input-file %S/../dialects/sparse_tensor/ops-conversion.mlir | %mlir-opt --split-input-file > %t.conversion.a
// RUN: %mlir-opt --split-input-file %S/../dialects/sparse_tensor/ops-conversion.mlir > %t.conversion.b
// RUN: diff %t.conversion.a %t.conversion.b
// RUN: xsparse-opt --split-input-file --print-op-generic %S/../dialects/sparse_tensor/ops-conversion.mlir | %mlir-opt --split-input-file | diff - %t.conversion.b
// RUN: %mlir-opt --split-input-file --mlir-print-op-generic %S/../dialects/sparse_tensor/ops-conversion.mlir | xsparse-opt --split-input-file | %mlir-opt --split-input-file | diff - %t.conversion.b
// RUN: xsparse-opt --split-input-file %S/../dialects/sparse_tensor/ops-conversion.mlir | grep -oE '(^ *|= )sparse_tensor\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' > %t.conversion.x
// RUN: %mlir-opt --split-input-file --mlir-print-local-scope %S/../dialects/sparse_tensor/ops-conversion.mlir | grep -oE '(^ *|= )sparse_tensor\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' > %t.conversion.m
// RUN: diff %t.conversion.x %t.conversion.m
// RUN: test -s %t.conversion.m
// RUN: xsparse-opt --split-input-file %S/../dialects/sparse_tensor/ops-insertion.mlir | %mlir-opt --split-input-file > %t.insertion.a
// RUN: %mlir-opt --split-input-file %S/../dialects/sparse_tensor/ops-insertion.mlir > %t.insertion.b
// RUN: diff %t.insertion.a %t.insertion.b
// RUN: xsparse-opt --split-input-file --print-op-generic %S/../dialects/sparse_tensor/ops-insertion.mlir | %mlir-opt --split-input-file | diff - %t.insertion.b
// RUN: %mlir-opt --split-input-file --mlir-print-op-generic %S/../dialects/sparse_tensor/ops-insertion.mlir | xsparse-opt --split-input-file | %mlir-opt --split-input-file | diff - %t.insertion.b
// RUN: xsparse-opt --split-input-file %S/../dialects/sparse_tensor/ops-insertion.mlir | grep -oE '(^ *|= )sparse_tensor\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' > %t.insertion.x
// RUN: %mlir-opt --split-input-file --mlir-print-local-scope %S/../dialects/sparse_tensor/ops-insertion.mlir | grep -oE '(^ *|= )sparse_tensor\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' > %t.insertion.m
// RUN: diff %t.insertion.x %t.insertion.m
// RUN: test -s %t.insertion.m
// RUN: xsparse-opt --split-input-file %S/../dialects/sparse_tensor/ops-semiring.mlir | %mlir-opt --split-input-file > %t.semiring.a
// RUN: %mlir-opt --split-input-file %S/../dialects/sparse_tensor/ops-semiring.mlir > %t.semiring.b
// RUN: diff %t.semiring.a %t.semiring.b
// RUN: xsparse-opt --split-input-file --print-op-generic %S/../dialects/sparse_tensor/ops-semiring.mlir | %mlir-opt --split-input-file | diff - %t.semiring.b
// RUN: %mlir-opt --split-input-file --mlir-print-op-generic %S/../dialects/sparse_tensor/ops-semiring.mlir | xsparse-opt --split-input-file | %mlir-opt --split-input-file | diff - %t.semiring.b
// RUN: xsparse-opt --split-input-file %S/../dialects/sparse_tensor/ops-semiring.mlir | grep -oE '(^ *|= )sparse_tensor\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' > %t.semiring.x
// RUN: %mlir-opt --split-input-file --mlir-print-local-scope %S/../dialects/sparse_tensor/ops-semiring.mlir | grep -oE '(^ *|= )sparse_tensor\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' > %t.semiring.m
// RUN: diff %t.semiring.x %t.semiring.m
// RUN: test -s %t.semiring.m
// RUN: xsparse-opt --split-input-file %S/../dialects/sparse_tensor/ops-iteration.mlir | %mlir-opt --split-input-file > %t.iteration.a
// RUN: %mlir-opt --split-input-file %S/../dialects/sparse_tensor/ops-iteration.mlir > %t.iteration.b
// RUN: diff %t.iteration.a %t.iteration.b
// RUN: xsparse-opt --split-input-file --print-op-generic %S/../dialects/sparse_tensor/ops-iteration.mlir | %mlir-opt --split-input-file | diff - %t.iteration.b
// RUN: %mlir-opt --split-input-file --mlir-print-op-generic %S/../dialects/sparse_tensor/ops-iteration.mlir | xsparse-opt --split-input-file | %mlir-opt --split-input-file | diff - %t.iteration.b
// RUN: xsparse-opt --split-input-file %S/../dialects/sparse_tensor/ops-iteration.mlir | grep -oE '(^ *|= )sparse_tensor\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' > %t.iteration.x
// RUN: %mlir-opt --split-input-file --mlir-print-local-scope %S/../dialects/sparse_tensor/ops-iteration.mlir | grep -oE '(^ *|= )sparse_tensor\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' > %t.iteration.m
// RUN: diff %t.iteration.x %t.iteration.m
// RUN: test -s %t.iteration.m
