// MLIR's pipeline shape: `xsparse-opt --sparsifier` prints LLVM-dialect IR and
// `xsparse-run -e main -entry-point-result=void` runs it (as `mlir-opt |
// mlir-runner`), printing what the program's CHECK lines expect.
// RUN: xsparse-opt %S/../../integration/sparse_dot.mlir --sparsifier | xsparse-run -e main -entry-point-result=void | filecheck --strict-whitespace %S/../../integration/sparse_dot.mlir
// RUN: xsparse-opt %S/../../integration/sparse_outputs.mlir --sparsifier | xsparse-run -e main -entry-point-result=void | filecheck --strict-whitespace %S/../../integration/sparse_outputs.mlir
// RUN: xsparse-opt %S/../../integration/spmm_24.mlir --sparsifier | xsparse-run -e main -entry-point-result=void | filecheck --strict-whitespace %S/../../integration/spmm_24.mlir
// RUN: xsparse-opt %S/../../integration/print_formats.mlir --sparsifier | xsparse-run -e main -entry-point-result=void | filecheck --strict-whitespace %S/../../integration/print_formats.mlir
// RUN: xsparse-opt %S/../../integration/sparse_constants.mlir --sparsifier | xsparse-run -e main -entry-point-result=void | filecheck --strict-whitespace %S/../../integration/sparse_constants.mlir

// A lowered module's entry must still take and return nothing.
// RUN: not xsparse-run %s -e f 2>&1 | filecheck %s --check-prefix=ARGS
// ARGS: error: '@f' must take no arguments and return nothing (-entry-point-result=void)
llvm.func @f(%x: i64) -> i64 {
  llvm.return %x : i64
}
