// The convolutions program in MLIR's pipeline shape: `xsparse-opt --sparsifier`
// then `xsparse-run -e main -entry-point-result=void`, as `mlir-opt | mlir-runner`;
// with vectorization and a parallelization strategy, the same output.
// RUN: xsparse-opt %S/../../integration/convolutions.mlir --sparsifier | xsparse-run -e main -entry-point-result=void | filecheck --strict-whitespace %S/../../integration/convolutions.mlir
// RUN: xsparse-opt %S/../../integration/convolutions.mlir --sparsifier="enable-runtime-library=false vl=4 parallelization-strategy=any-storage-any-loop" | xsparse-run -e main -entry-point-result=void | filecheck --strict-whitespace %S/../../integration/convolutions.mlir
// RUN: %if mlir-runner %{ %mlir-opt %S/../../integration/convolutions.mlir --sparsifier="enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %S/../../integration/convolutions.mlir %}
