// What `xsparse-opt --sparsifier` prints runs under mlir-runner-22 as under
// xsparse-run (issue 39, item 5): masked vector accesses are MLIR's
// `llvm.intr.masked.*` ops (not `llvm.call_intrinsic`, whose signature LLVM 22
// changed), a 0-d constant is a scalar global, and the report of bad run-time
// data (`xsparse_runtime_error`) is defined in the module. All twelve programs
// of tests/integration, vectorized (vl=8) or not, print what their CHECK lines
// expect.
// REQUIRES: mlir-runner
// RUN: xsparse-opt %S/../../integration/add_union.mlir --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/add_union.mlir
// RUN: xsparse-opt %S/../../integration/add_union.mlir --sparsifier="vl=8 enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/add_union.mlir
// RUN: xsparse-opt %S/../../integration/bsr_outputs.mlir --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/bsr_outputs.mlir
// RUN: xsparse-opt %S/../../integration/bsr_outputs.mlir --sparsifier="vl=8 enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/bsr_outputs.mlir
// RUN: xsparse-opt %S/../../integration/concatenate.mlir --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/concatenate.mlir
// RUN: xsparse-opt %S/../../integration/concatenate.mlir --sparsifier="vl=8 enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/concatenate.mlir
// RUN: xsparse-opt %S/../../integration/convert_runtime.mlir --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/convert_runtime.mlir
// RUN: xsparse-opt %S/../../integration/convert_runtime.mlir --sparsifier="vl=8 enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/convert_runtime.mlir
// RUN: xsparse-opt %S/../../integration/print_formats.mlir --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/print_formats.mlir
// RUN: xsparse-opt %S/../../integration/print_formats.mlir --sparsifier="vl=8 enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/print_formats.mlir
// RUN: xsparse-opt %S/../../integration/reshape.mlir --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/reshape.mlir
// RUN: xsparse-opt %S/../../integration/reshape.mlir --sparsifier="vl=8 enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/reshape.mlir
// RUN: xsparse-opt %S/../../integration/sparse_dot.mlir --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/sparse_dot.mlir
// RUN: xsparse-opt %S/../../integration/sparse_dot.mlir --sparsifier="vl=8 enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/sparse_dot.mlir
// RUN: xsparse-opt %S/../../integration/sparse_outputs.mlir --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/sparse_outputs.mlir
// RUN: xsparse-opt %S/../../integration/sparse_outputs.mlir --sparsifier="vl=8 enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/sparse_outputs.mlir
// RUN: xsparse-opt %S/../../integration/spmm_24.mlir --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/spmm_24.mlir
// RUN: xsparse-opt %S/../../integration/spmm_24.mlir --sparsifier="vl=8 enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/spmm_24.mlir
// RUN: xsparse-opt %S/../../integration/spmm_csr.mlir --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/spmm_csr.mlir
// RUN: xsparse-opt %S/../../integration/spmm_csr.mlir --sparsifier="vl=8 enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/spmm_csr.mlir
// RUN: xsparse-opt %S/../../integration/spmv_bsr_24.mlir --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/spmv_bsr_24.mlir
// RUN: xsparse-opt %S/../../integration/spmv_bsr_24.mlir --sparsifier="vl=8 enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/spmv_bsr_24.mlir
// RUN: xsparse-opt %S/../../integration/spmv_csr.mlir --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/spmv_csr.mlir
// RUN: xsparse-opt %S/../../integration/spmv_csr.mlir --sparsifier="vl=8 enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/spmv_csr.mlir

// Bad run-time data: the module's own report, then exit status 1.
// RUN: xsparse-opt %S/../integration/inputs/assemble_invalid.mlir --sparsifier | not %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils 2>&1 | filecheck %s --check-prefix=DATA
// RUN: xsparse-opt %S/../../integration/sparse_constants.mlir --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/sparse_constants.mlir
// RUN: xsparse-opt %S/../../integration/sparse_constants.mlir --sparsifier="vl=8 enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/sparse_constants.mlir
// DATA: error: sparse_tensor.assemble: level 1 (compressed): the positions buffer is shorter than its parents need
// DATA-NOT: values
