// Files as mlir-opt names them: `-` (or no file) is stdin, `-o -` is stdout,
// any extension is MLIR; a file that cannot be opened is a one-line error.
// mlir-opt-22 takes the same command lines.
// RUN: xsparse-opt - < %s | filecheck %s
// RUN: xsparse-opt < %s | filecheck %s
// RUN: xsparse-opt --split-input-file - < %s | filecheck %s
// RUN: xsparse-opt %s -o - | filecheck %s
// RUN: xsparse-opt %s -o %t.out.mlir
// RUN: filecheck %s --input-file %t.out.mlir
// RUN: cp %s %t.txt
// RUN: xsparse-opt %t.txt | filecheck %s
// RUN: %if mlir-opt %{ %mlir-opt - < %s | filecheck %s %}
// RUN: %if mlir-opt %{ %mlir-opt %s -o - | filecheck %s %}

// CHECK-LABEL: func.func @identity(%{{.*}}: i32) -> i32 {
// CHECK-NEXT:    {{(func\.)?}}return %{{.*}} : i32
func.func @identity(%a: i32) -> i32 {
  return %a : i32
}

// RUN: not xsparse-opt %t.missing.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: %if mlir-opt %{ not %mlir-opt %t.missing.mlir 2>&1 | filecheck %s --check-prefix=MISSING %}
// MISSING:     {{^(xsparse-opt: error: )?}}cannot open input file '{{.*}}missing.mlir': No such file or directory{{$}}
// MISSING-NOT: {{.}}

// RUN: not xsparse-opt %s -o %t.missing/out.mlir 2>&1 | filecheck %s --check-prefix=OUTPUT
// OUTPUT:     {{^}}xsparse-opt: error: cannot open output file '{{.*}}out.mlir': No such file or directory{{$}}
// OUTPUT-NOT: {{.}}

// Diagnostics name stdin `<stdin>`, as mlir-opt-22's do.
// RUN: not xsparse-opt - < %S/inputs/verify-no-annotations.mlir 2>&1 | filecheck %s --check-prefix=STDIN
// RUN: %if mlir-opt %{ not %mlir-opt - < %S/inputs/verify-no-annotations.mlir 2>&1 | filecheck %s --check-prefix=STDIN %}
// STDIN: {{^}}<stdin>:2:21: error: unexpected coordinate bitwidth: 128
