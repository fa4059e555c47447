// RUN: xsparse-run %s | filecheck %s
// RUN: %if mlir-runner %{ %mlir-opt %s --sparsifier="enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck %s %}

// tensor.pad of a dense tensor by dynamic and static amounts, the padding
// computed from the indices; tensor.insert into a dense tensor that is read
// again afterwards (the insertion writes a copy).

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f0 = arith.constant -1.0 : f32
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %d = tensor.cast %a : tensor<2x2xf32> to tensor<?x?xf32>
  %p = tensor.pad %d low[%c1, 0] high[0, 2] {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    %t = arith.index_cast %s : index to i32
    %f = arith.sitofp %t : i32 to f32
    tensor.yield %f : f32
  } : tensor<?x?xf32> to tensor<?x?xf32>
  %v0 = vector.transfer_read %p[%c0, %c0], %f0 : tensor<?x?xf32>, vector<4xf32>
  vector.print %v0 : vector<4xf32>
  %v1 = vector.transfer_read %p[%c1, %c0], %f0 : tensor<?x?xf32>, vector<4xf32>
  vector.print %v1 : vector<4xf32>
  %c2 = arith.constant 2 : index
  %v2 = vector.transfer_read %p[%c2, %c0], %f0 : tensor<?x?xf32>, vector<4xf32>
  vector.print %v2 : vector<4xf32>
  %x = tensor.insert %f0 into %a[%c0, %c1] : tensor<2x2xf32>
  %e0 = tensor.extract %x[%c0, %c1] : tensor<2x2xf32>
  %e1 = tensor.extract %a[%c0, %c1] : tensor<2x2xf32>
  vector.print %e0 : f32
  vector.print %e1 : f32
  return
}

// CHECK:      ( 0, 1, 2, 3 )
// CHECK-NEXT: ( 1, 2, 3, 4 )
// CHECK-NEXT: ( 3, 4, 4, 5 )
// CHECK-NEXT: -1
// CHECK-NEXT: 2
