// REQUIRES: mlir-runner
// Every program of tests/integration prints under xsparse-run exactly what it prints
// under mlir-opt-22 --sparsifier | mlir-runner-22 (direct code, no runtime library).
// RUN: %mlir-opt --sparsifier %S/../../integration/sparse_constants.mlir | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.sparse_constants.mlir-runner
// RUN: xsparse-run %S/../../integration/sparse_constants.mlir > %t.sparse_constants.xsparse
// RUN: diff %t.sparse_constants.mlir-runner %t.sparse_constants.xsparse
// RUN: %mlir-opt --sparsifier %S/../../integration/add_union.mlir | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.add_union.mlir-runner
// RUN: xsparse-run %S/../../integration/add_union.mlir > %t.add_union.xsparse
// RUN: diff %t.add_union.mlir-runner %t.add_union.xsparse
// RUN: %mlir-opt --sparsifier %S/../../integration/print_formats.mlir | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.print_formats.mlir-runner
// RUN: xsparse-run %S/../../integration/print_formats.mlir > %t.print_formats.xsparse
// RUN: diff %t.print_formats.mlir-runner %t.print_formats.xsparse
// RUN: %mlir-opt --sparsifier %S/../../integration/sparse_dot.mlir | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.sparse_dot.mlir-runner
// RUN: xsparse-run %S/../../integration/sparse_dot.mlir > %t.sparse_dot.xsparse
// RUN: diff %t.sparse_dot.mlir-runner %t.sparse_dot.xsparse
// RUN: %mlir-opt --sparsifier %S/../../integration/spmm_csr.mlir | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.spmm_csr.mlir-runner
// RUN: xsparse-run %S/../../integration/spmm_csr.mlir > %t.spmm_csr.xsparse
// RUN: diff %t.spmm_csr.mlir-runner %t.spmm_csr.xsparse
// RUN: %mlir-opt --sparsifier %S/../../integration/spmv_bsr_24.mlir | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.spmv_bsr_24.mlir-runner
// RUN: xsparse-run %S/../../integration/spmv_bsr_24.mlir > %t.spmv_bsr_24.xsparse
// RUN: diff %t.spmv_bsr_24.mlir-runner %t.spmv_bsr_24.xsparse
// RUN: %mlir-opt --sparsifier %S/../../integration/spmm_24.mlir | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.spmm_24.mlir-runner
// RUN: xsparse-run %S/../../integration/spmm_24.mlir > %t.spmm_24.xsparse
// RUN: diff %t.spmm_24.mlir-runner %t.spmm_24.xsparse
// RUN: %mlir-opt --sparsifier %S/../../integration/spmv_csr.mlir | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.spmv_csr.mlir-runner
// RUN: xsparse-run %S/../../integration/spmv_csr.mlir > %t.spmv_csr.xsparse
// RUN: diff %t.spmv_csr.mlir-runner %t.spmv_csr.xsparse
// RUN: %mlir-opt --sparsifier %S/../../integration/convert_runtime.mlir | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.convert_runtime.mlir-runner
// RUN: xsparse-run %S/../../integration/convert_runtime.mlir > %t.convert_runtime.xsparse
// RUN: diff %t.convert_runtime.mlir-runner %t.convert_runtime.xsparse
// RUN: %mlir-opt --sparsifier %S/../../integration/sparse_outputs.mlir | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.sparse_outputs.mlir-runner
// RUN: xsparse-run %S/../../integration/sparse_outputs.mlir > %t.sparse_outputs.xsparse
// RUN: diff %t.sparse_outputs.mlir-runner %t.sparse_outputs.xsparse
// RUN: %mlir-opt --sparsifier %S/../../integration/concatenate.mlir | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.concatenate.mlir-runner
// RUN: xsparse-run %S/../../integration/concatenate.mlir > %t.concatenate.xsparse
// RUN: diff %t.concatenate.mlir-runner %t.concatenate.xsparse
// RUN: %mlir-opt --sparsifier %S/../../integration/reshape.mlir | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.reshape.mlir-runner
// RUN: xsparse-run %S/../../integration/reshape.mlir > %t.reshape.xsparse
// RUN: diff %t.reshape.mlir-runner %t.reshape.xsparse
