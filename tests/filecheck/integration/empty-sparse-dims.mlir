// The sizes of new sparse tensors nothing is inserted into: tensor.dim of a
// tensor.empty with static and dynamic sizes, in a format whose levels are
// not its dimensions (2x3 blocks), then the tensors released.
// RUN: xsparse-run %s | filecheck %s
// RUN: xsparse-opt %s --sparsifier="enable-runtime-library=false vl=2" | xsparse-run -e main -entry-point-result=void | filecheck %s
// RUN: %if mlir-runner %{ xsparse-opt %s --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck %s %}
// RUN: %if mlir-runner %{ %mlir-opt %s --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck %s %}

#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
#BSR = #sparse_tensor.encoding<{
  map = (i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed,
                   i mod 2 : dense, j mod 3 : dense)
}>

module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c9 = arith.constant 9 : index
    %a = tensor.empty() : tensor<3x5xf32, #DCSR>
    %b = tensor.empty(%c7) : tensor<?x4xi64, #DCSR>
    %c = tensor.empty(%c8, %c9) : tensor<?x?xf64, #BSR>
    %a0 = tensor.dim %a, %c0 : tensor<3x5xf32, #DCSR>
    %a1 = tensor.dim %a, %c1 : tensor<3x5xf32, #DCSR>
    %b0 = tensor.dim %b, %c0 : tensor<?x4xi64, #DCSR>
    %b1 = tensor.dim %b, %c1 : tensor<?x4xi64, #DCSR>
    %d0 = tensor.dim %c, %c0 : tensor<?x?xf64, #BSR>
    %d1 = tensor.dim %c, %c1 : tensor<?x?xf64, #BSR>
    // CHECK:      3
    // CHECK-NEXT: 5
    // CHECK-NEXT: 7
    // CHECK-NEXT: 4
    // CHECK-NEXT: 8
    // CHECK-NEXT: 9
    vector.print %a0 : index
    vector.print %a1 : index
    vector.print %b0 : index
    vector.print %b1 : index
    vector.print %d0 : index
    vector.print %d1 : index
    bufferization.dealloc_tensor %a : tensor<3x5xf32, #DCSR>
    bufferization.dealloc_tensor %b : tensor<?x4xi64, #DCSR>
    bufferization.dealloc_tensor %c : tensor<?x?xf64, #BSR>
    return
  }
}
