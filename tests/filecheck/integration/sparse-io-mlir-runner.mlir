// REQUIRES: mlir-runner
// The file I/O and (dis)assemble programs of sparse-io.mlir print under xsparse-run
// exactly what they print under mlir-opt-22 --sparsifier | mlir-runner-22, and
// sparse_tensor.out writes the same file.
// RUN: %mlir-opt --sparsifier %S/inputs/read_files.mlir | env TENSOR0=%S/../../data/small.mtx TENSOR1=%t.mlir-runner.tns TENSOR2=%S/../../data/symmetric.mtx TENSOR3=%S/../../data/pattern.mtx TENSOR4=%S/../../data/integer.mtx TENSOR5=%S/../../data/tensor3.tns %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.read.mlir-runner
// RUN: env TENSOR0=%S/../../data/small.mtx TENSOR1=%t.xsparse.tns TENSOR2=%S/../../data/symmetric.mtx TENSOR3=%S/../../data/pattern.mtx TENSOR4=%S/../../data/integer.mtx TENSOR5=%S/../../data/tensor3.tns xsparse-run %S/inputs/read_files.mlir > %t.read.xsparse
// RUN: diff %t.read.mlir-runner %t.read.xsparse
// RUN: diff %t.mlir-runner.tns %t.xsparse.tns
// RUN: %mlir-opt --sparsifier %S/inputs/write_stdout.mlir | env TENSOR0=%S/../../data/tensor3.tns TENSOR1= %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.stdout.mlir-runner
// RUN: env TENSOR0=%S/../../data/tensor3.tns TENSOR1= xsparse-run %S/inputs/write_stdout.mlir > %t.stdout.xsparse
// RUN: diff %t.stdout.mlir-runner %t.stdout.xsparse
// RUN: %mlir-opt --sparsifier %S/inputs/assemble.mlir | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.assemble.mlir-runner
// RUN: xsparse-run %S/inputs/assemble.mlir > %t.assemble.xsparse
// RUN: diff %t.assemble.mlir-runner %t.assemble.xsparse
