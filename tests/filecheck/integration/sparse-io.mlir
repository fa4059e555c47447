// Tensors read with sparse_tensor.new from the files of tests/data (named by
// TENSOR<i>, as mlir-runner's getTensorFilename reads them), written with
// sparse_tensor.out, assembled from and disassembled into level buffers.
// RUN: env TENSOR0=%S/../../data/small.mtx TENSOR1=%t.tns TENSOR2=%S/../../data/symmetric.mtx TENSOR3=%S/../../data/pattern.mtx TENSOR4=%S/../../data/integer.mtx TENSOR5=%S/../../data/tensor3.tns xsparse-run %S/inputs/read_files.mlir | filecheck --strict-whitespace %S/inputs/read_files.mlir
// RUN: filecheck --check-prefix=OUT --input-file=%t.tns %s
// RUN: xsparse-run %S/inputs/assemble.mlir | filecheck --strict-whitespace %S/inputs/assemble.mlir
// RUN: not xsparse-run %S/inputs/assemble_invalid.mlir 2>&1 | filecheck %S/inputs/assemble_invalid.mlir

// The CSC tensor written by sparse_tensor.out: MLIR's extended FROSTT format,
// entries in storage (column) order, 1-based.
// OUT:      # extended FROSTT format
// OUT-NEXT: 2 6
// OUT-NEXT: 4 5
// OUT-NEXT: 1 1 1
// OUT-NEXT: 3 1 4.5
// OUT-NEXT: 4 2 0.007
// OUT-NEXT: 1 4 2.25
// OUT-NEXT: 3 5 -2.5
// OUT-NEXT: 4 5 1e+10
// OUT-EMPTY:

// Writing to an empty file name prints to stdout, after what the program
// printed before.
// RUN: env TENSOR0=%S/../../data/tensor3.tns TENSOR1= xsparse-run %S/inputs/write_stdout.mlir | filecheck --check-prefix=STDOUT %s
// STDOUT:      3
// STDOUT-NEXT: 4
// STDOUT-NEXT: 5
// STDOUT-NEXT: # extended FROSTT format
// STDOUT-NEXT: 3 5
// STDOUT-NEXT: 3 4 5
// STDOUT-NEXT: 1 1 1 1.5
// STDOUT-NEXT: 1 4 5 -2
// STDOUT-NEXT: 2 2 3 3.25
// STDOUT-NEXT: 3 1 2 4
// STDOUT-NEXT: 3 4 5 5
// STDOUT-NEXT: 42

// A file that is missing, malformed or of another shape stops the program
// with a located message, as MLIR's runtime does.
// RUN: env TENSOR0=%t.missing.mtx TENSOR1= not xsparse-run %S/inputs/write_stdout.mlir 2>&1 | filecheck --check-prefix=MISSING %s
// MISSING: xsparse-run: error: [Errno 2] No such file or directory: '{{.*}}missing.mtx'
// RUN: env TENSOR0=%S/../../data/small.mtx TENSOR1= not xsparse-run %S/inputs/write_stdout.mlir 2>&1 | filecheck --check-prefix=RANK %s
// RANK: xsparse-run: error: {{.*}}small.mtx: the file holds a rank-2 tensor, not tensor<?x?x?xf64,
// RUN: not xsparse-run %S/inputs/write_stdout.mlir 2>&1 | filecheck --check-prefix=UNSET %s
// UNSET: xsparse-run: error: environment variable TENSOR0 is not set
