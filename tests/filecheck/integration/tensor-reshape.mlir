// tensor.reshape with a sparse side (static shapes): the entries keep their
// row-major order; functions return the reshapes of their arguments and
// main releases the arguments and the results (no buffer is shared between
// them, so nothing is released twice).
// RUN: xsparse-run %s | filecheck %s
// RUN: xsparse-opt %s --sparsifier="enable-runtime-library=false" | xsparse-run -e main -entry-point-result=void | filecheck %s
// RUN: %if mlir-runner %{ xsparse-opt %s --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck %s %}
// RUN: %if mlir-runner %{ %mlir-opt %s --sparsifier="enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck %s %}

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed(nonunique), j : singleton(nonunique), k : singleton) }>
#Vec = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

module {
  func.func @to_3d(%a: tensor<2x6xf32, #CSR>) -> tensor<3x2x2xf32, #COO> {
    %shape = arith.constant dense<[3, 2, 2]> : tensor<3xi64>
    %r = tensor.reshape %a(%shape) : (tensor<2x6xf32, #CSR>, tensor<3xi64>) -> tensor<3x2x2xf32, #COO>
    return %r : tensor<3x2x2xf32, #COO>
  }
  func.func @to_vector(%a: tensor<2x6xf32, #CSR>) -> tensor<12xf32, #Vec> {
    %shape = arith.constant dense<[12]> : tensor<1xindex>
    %r = tensor.reshape %a(%shape) : (tensor<2x6xf32, #CSR>, tensor<1xindex>) -> tensor<12xf32, #Vec>
    return %r : tensor<12xf32, #Vec>
  }
  func.func @from_vector(%v: tensor<12xf32, #Vec>) -> tensor<4x3xf32, #CSR> {
    %shape = arith.constant dense<[4, 3]> : tensor<2xi32>
    %r = tensor.reshape %v(%shape) : (tensor<12xf32, #Vec>, tensor<2xi32>) -> tensor<4x3xf32, #CSR>
    return %r : tensor<4x3xf32, #CSR>
  }
  func.func @main() {
    %d = arith.constant dense<[[0.0, 1.0, 0.0, 0.0, 2.0, 0.0], [3.0, 0.0, 0.0, 4.0, 0.0, 5.0]]> : tensor<2x6xf32>
    %a = sparse_tensor.convert %d : tensor<2x6xf32> to tensor<2x6xf32, #CSR>
    %t = call @to_3d(%a) : (tensor<2x6xf32, #CSR>) -> tensor<3x2x2xf32, #COO>
    %v = call @to_vector(%a) : (tensor<2x6xf32, #CSR>) -> tensor<12xf32, #Vec>
    %m = call @from_vector(%v) : (tensor<12xf32, #Vec>) -> tensor<4x3xf32, #CSR>
    // CHECK:      ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 5
    // CHECK-NEXT: dim = ( 3, 2, 2 )
    // CHECK-NEXT: lvl = ( 3, 2, 2 )
    // CHECK-NEXT: pos[0] : ( 0, 5 )
    // CHECK-NEXT: crd[0] : ( 0, 0, 1, 1, 0, 0, 1, 1, 0, 2, 0, 1, 2, 1, 1 )
    // CHECK-NEXT: values : ( 1, 2, 3, 4, 5 )
    // CHECK-NEXT: ----
    // CHECK-NEXT: ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 5
    // CHECK-NEXT: dim = ( 12 )
    // CHECK-NEXT: lvl = ( 12 )
    // CHECK-NEXT: pos[0] : ( 0, 5 )
    // CHECK-NEXT: crd[0] : ( 1, 4, 6, 9, 11 )
    // CHECK-NEXT: values : ( 1, 2, 3, 4, 5 )
    // CHECK-NEXT: ----
    // CHECK-NEXT: ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 5
    // CHECK-NEXT: dim = ( 4, 3 )
    // CHECK-NEXT: lvl = ( 4, 3 )
    // CHECK-NEXT: pos[1] : ( 0, 1, 2, 3, 5 )
    // CHECK-NEXT: crd[1] : ( 1, 1, 0, 0, 2 )
    // CHECK-NEXT: values : ( 1, 2, 3, 4, 5 )
    // CHECK-NEXT: ----
    sparse_tensor.print %t : tensor<3x2x2xf32, #COO>
    sparse_tensor.print %v : tensor<12xf32, #Vec>
    sparse_tensor.print %m : tensor<4x3xf32, #CSR>
    bufferization.dealloc_tensor %a : tensor<2x6xf32, #CSR>
    bufferization.dealloc_tensor %t : tensor<3x2x2xf32, #COO>
    bufferization.dealloc_tensor %v : tensor<12xf32, #Vec>
    bufferization.dealloc_tensor %m : tensor<4x3xf32, #CSR>
    return
  }
}
