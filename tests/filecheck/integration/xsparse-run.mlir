// Every program of tests/integration runs under xsparse-run and prints its CHECK lines.
// RUN: xsparse-run %S/../../integration/convert_runtime.mlir | filecheck --strict-whitespace %S/../../integration/convert_runtime.mlir
// RUN: xsparse-run %S/../../integration/add_union.mlir | filecheck --strict-whitespace %S/../../integration/add_union.mlir
// RUN: xsparse-run %S/../../integration/print_formats.mlir | filecheck --strict-whitespace %S/../../integration/print_formats.mlir
// RUN: xsparse-run %S/../../integration/sparse_dot.mlir | filecheck --strict-whitespace %S/../../integration/sparse_dot.mlir
// RUN: xsparse-run %S/../../integration/spmm_csr.mlir | filecheck --strict-whitespace %S/../../integration/spmm_csr.mlir
// RUN: xsparse-run %S/../../integration/spmv_bsr_24.mlir | filecheck --strict-whitespace %S/../../integration/spmv_bsr_24.mlir
// RUN: xsparse-run %S/../../integration/spmm_24.mlir | filecheck --strict-whitespace %S/../../integration/spmm_24.mlir
// RUN: xsparse-run %S/../../integration/spmv_csr.mlir | filecheck --strict-whitespace %S/../../integration/spmv_csr.mlir
// RUN: xsparse-run %S/../../integration/concatenate.mlir | filecheck --strict-whitespace %S/../../integration/concatenate.mlir
// RUN: xsparse-run %S/../../integration/reshape.mlir | filecheck --strict-whitespace %S/../../integration/reshape.mlir
// RUN: xsparse-run %S/../../integration/sparse_constants.mlir | filecheck --strict-whitespace %S/../../integration/sparse_constants.mlir
