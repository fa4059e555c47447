// `xsparse-run` reads a file, `-` or stdin, as mlir-runner-22 does; a file
// that cannot be opened is a one-line error; `--version` names xsparse's
// version and xDSL's.
// RUN: xsparse-run %s | filecheck %s
// RUN: xsparse-run - < %s | filecheck %s
// RUN: xsparse-run < %s | filecheck %s
// RUN: xsparse-run -e main -entry-point-result=void %s | filecheck %s
// RUN: %if mlir-runner %{ %mlir-opt --sparsifier %s | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils | filecheck %s %}

// CHECK: 42
func.func @main() {
  %c = arith.constant 42 : i64
  vector.print %c : i64
  return
}

// RUN: not xsparse-run %t.missing.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING:     {{^}}xsparse-run: error: cannot open input file '{{.*}}missing.mlir': No such file or directory{{$}}
// MISSING-NOT: {{.}}

// RUN: not xsparse-run --bogus-flag %s 2>&1 | filecheck %s --check-prefix=FLAG
// FLAG:     {{^}}xsparse-run: error: unrecognized arguments: --bogus-flag{{$}}
// FLAG-NOT: {{.}}

// RUN: xsparse-run --version | filecheck %s --check-prefix=VERSION
// VERSION:     {{^}}xsparse-run {{[0-9]+\.[0-9]+\.[0-9]+}} (xDSL {{[0-9]+\.[0-9]+\.[0-9]+}}){{$}}
// VERSION-NOT: {{.}}
