// RUN: xsparse-opt %s --sparsifier | xsparse-run -e main -entry-point-result=void | filecheck %s
// RUN: %if mlir-runner %{ %mlir-opt %s --sparsifier="enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck %s %}

// Dense reshapes in a callee (views of the argument's buffer), a dense tensor
// carried by scf.for, and a sparse reshape in a callee whose caller releases
// both the argument and the result (the result owns its buffers).

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

func.func @flatten(%a: tensor<2x3xf64>) -> tensor<6xf64> {
  %b = tensor.collapse_shape %a [[0, 1]] : tensor<2x3xf64> into tensor<6xf64>
  return %b : tensor<6xf64>
}

func.func @unflatten(%a: tensor<?xf64>, %n: index) -> tensor<?x2xf64> {
  %b = tensor.expand_shape %a [[0, 1]] output_shape [%n, 2] : tensor<?xf64> into tensor<?x2xf64>
  return %b : tensor<?x2xf64>
}

func.func @flatten_sparse(%a: tensor<2x3xf64, #CSR>) -> tensor<6xf64, #SV> {
  %b = tensor.collapse_shape %a [[0, 1]] : tensor<2x3xf64, #CSR> into tensor<6xf64, #SV>
  return %b : tensor<6xf64, #SV>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %f0 = arith.constant -1.0 : f64
  %a = arith.constant dense<[[1.0, 0.0, 2.0], [0.0, 3.0, 4.0]]> : tensor<2x3xf64>
  %flat = call @flatten(%a) : (tensor<2x3xf64>) -> tensor<6xf64>
  %v0 = vector.transfer_read %flat[%c0], %f0 : tensor<6xf64>, vector<6xf64>
  vector.print %v0 : vector<6xf64>
  %dyn = tensor.cast %flat : tensor<6xf64> to tensor<?xf64>
  %pairs = call @unflatten(%dyn, %c3) : (tensor<?xf64>, index) -> tensor<?x2xf64>
  %v1 = vector.transfer_read %pairs[%c0, %c0], %f0 : tensor<?x2xf64>, vector<3x2xf64>
  vector.print %v1 : vector<3x2xf64>
  %sum = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %flat) -> tensor<6xf64> {
    %x = tensor.extract %t[%i] : tensor<6xf64>
    %y = arith.addf %x, %x : f64
    %u = tensor.insert %y into %t[%i] : tensor<6xf64>
    scf.yield %u : tensor<6xf64>
  }
  %v2 = vector.transfer_read %sum[%c0], %f0 : tensor<6xf64>, vector<6xf64>
  vector.print %v2 : vector<6xf64>
  %s = sparse_tensor.convert %a : tensor<2x3xf64> to tensor<2x3xf64, #CSR>
  %sv = call @flatten_sparse(%s) : (tensor<2x3xf64, #CSR>) -> tensor<6xf64, #SV>
  bufferization.dealloc_tensor %s : tensor<2x3xf64, #CSR>
  %values = sparse_tensor.values %sv : tensor<6xf64, #SV> to memref<?xf64>
  %v3 = vector.transfer_read %values[%c0], %f0 : memref<?xf64>, vector<4xf64>
  vector.print %v3 : vector<4xf64>
  bufferization.dealloc_tensor %sv : tensor<6xf64, #SV>
  return
}

// CHECK:      ( 1, 0, 2, 0, 3, 4 )
// CHECK-NEXT: ( ( 1, 0 ), ( 2, 0 ), ( 3, 4 ) )
// CHECK-NEXT: ( 2, 0, 4, 0, 3, 4 )
// CHECK-NEXT: ( 1, 2, 3, 4 )
