// What `mlir-opt-22 --sparsifier` prints runs under xsparse-run as under
// mlir-runner-22 (issue 39): GEPs with MLIR 22's no-wrap flags
// (`inbounds|nuw`), `llvm.intr.memcpy`, `llvm.intr.ctlz` (the sort),
// `llvm.intr.masked.load` (vectorized dense loops), an `llvm.cond_br` that
// reaches one block with arguments on both edges. All twelve programs of
// tests/integration print the same this way as from their source.
// REQUIRES: mlir-opt
// RUN: %mlir-opt %S/../../integration/sparse_dot.mlir --sparsifier="enable-runtime-library=false" | xsparse-run -e main -entry-point-result=void | filecheck --strict-whitespace %S/../../integration/sparse_dot.mlir
// RUN: %mlir-opt %S/../../integration/spmm_csr.mlir --sparsifier="enable-runtime-library=false" | xsparse-run -e main -entry-point-result=void | filecheck --strict-whitespace %S/../../integration/spmm_csr.mlir
// RUN: %mlir-opt %S/../../integration/sparse_outputs.mlir --sparsifier="enable-runtime-library=false" | xsparse-run -e main -entry-point-result=void | filecheck --strict-whitespace %S/../../integration/sparse_outputs.mlir
// RUN: %mlir-opt %S/../../integration/concatenate.mlir --sparsifier="enable-runtime-library=false" | xsparse-run -e main -entry-point-result=void | filecheck --strict-whitespace %S/../../integration/concatenate.mlir
// RUN: %mlir-opt %S/../../integration/sparse_constants.mlir --sparsifier="enable-runtime-library=false" | xsparse-run -e main -entry-point-result=void | filecheck --strict-whitespace %S/../../integration/sparse_constants.mlir

// With MLIR's runtime library (mlir-opt's default), the program runs with
// the library loaded as mlir-runner loads it (-shared-libs); without it, the
// calls into it are refused before anything runs, naming both ways out.
// RUN: %if mlir-runner %{ %mlir-opt %S/../../integration/sparse_dot.mlir --sparsifier | xsparse-run -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/sparse_dot.mlir %}
// RUN: %if mlir-runner %{ %mlir-opt %S/../../integration/convert_runtime.mlir --sparsifier | xsparse-run -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/convert_runtime.mlir %}
// RUN: %if mlir-runner %{ %mlir-opt %S/../../integration/spmm_24.mlir --sparsifier | xsparse-run -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/spmm_24.mlir %}
// RUN: %mlir-opt %S/../../integration/sparse_dot.mlir --sparsifier | not xsparse-run -e main -entry-point-result=void 2>&1 | filecheck %s
// CHECK: <stdin>: error: the module calls functions that nothing defines: @{{.*}}; MLIR's sparse runtime library (`enable-runtime-library=true`) is not part of xsparse: load it as mlir-runner does (`-shared-libs=` MLIR's libmlir_c_runner_utils), or lower with `--sparsifier="enable-runtime-library=false"`
// RUN: not xsparse-run %s -shared-libs=/no/such/library.so 2>&1 | filecheck %s --check-prefix=NOLIB
// NOLIB: xsparse-run: error: cannot load shared library '/no/such/library.so': {{.+}}

// A declared function that nothing defines, in our own LLVM dialect input.
// RUN: not xsparse-run %s -e main 2>&1 | filecheck %s --check-prefix=UNDEFINED
// UNDEFINED: mlir-opt-pipe-run.mlir: error: the module calls functions that nothing defines: @no_such_function{{$}}
llvm.func @no_such_function()
llvm.func @main() {
  llvm.call @no_such_function() : () -> ()
  llvm.return
}
