// sparse_tensor.foreach visits the stored entries of a sparse tensor in
// storage order with their dimension coordinates (permuted and
// loose_compressed formats, a carried count and sum), every element of a
// dense tensor, and the listed elements of a sparse<...> constant (sorted by
// an `order` if one is given).
// RUN: xsparse-run %s | filecheck %s
// RUN: xsparse-opt %s --sparsifier="enable-runtime-library=false" | xsparse-run -e main -entry-point-result=void | filecheck %s
// RUN: %if mlir-runner %{ xsparse-opt %s --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck %s %}
// RUN: %if mlir-runner %{ %mlir-opt %s --sparsifier="enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck %s %}

#DCSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : compressed, i : compressed) }>
#Loose = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>

module {
  func.func @coords(%t: tensor<3x4xi32, #DCSC>) {
    sparse_tensor.foreach in %t : tensor<3x4xi32, #DCSC> do {
      ^bb0(%i: index, %j: index, %v: i32):
        vector.print %i : index
        vector.print %j : index
        vector.print %v : i32
    }
    return
  }

  func.func @count_and_sum(%t: tensor<2x5xf64, #Loose>) -> (index, f64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0.0 : f64
    %n, %s = sparse_tensor.foreach in %t init(%c0, %z) : tensor<2x5xf64, #Loose>, index, f64 -> index, f64 do {
      ^bb0(%i: index, %j: index, %v: f64, %k: index, %acc: f64):
        %k1 = arith.addi %k, %c1 : index
        %a1 = arith.addf %acc, %v : f64
        sparse_tensor.yield %k1, %a1 : index, f64
    }
    return %n, %s : index, f64
  }

  func.func @main() {
    %d = arith.constant dense<[[0, 7, 0, 0], [5, 0, 0, 9], [0, 8, 0, 6]]> : tensor<3x4xi32>
    %t = sparse_tensor.convert %d : tensor<3x4xi32> to tensor<3x4xi32, #DCSC>
    // Column by column (the levels' order).
    // CHECK:      1
    // CHECK-NEXT: 0
    // CHECK-NEXT: 5
    // CHECK-NEXT: 0
    // CHECK-NEXT: 1
    // CHECK-NEXT: 7
    // CHECK-NEXT: 2
    // CHECK-NEXT: 1
    // CHECK-NEXT: 8
    // CHECK-NEXT: 1
    // CHECK-NEXT: 3
    // CHECK-NEXT: 9
    // CHECK-NEXT: 2
    // CHECK-NEXT: 3
    // CHECK-NEXT: 6
    call @coords(%t) : (tensor<3x4xi32, #DCSC>) -> ()

    // Row 0 holds [0, 2) of its interval [0, 3), row 1 [3, 4): the entry at
    // position 2 is a hole, not visited.
    %pos = arith.constant dense<[0, 2, 3, 4]> : tensor<4xindex>
    %crd = arith.constant dense<[1, 4, 0, 2]> : tensor<4xindex>
    %val = arith.constant dense<[1.5, 2.5, 100.0, 4.0]> : tensor<4xf64>
    %l = sparse_tensor.assemble (%pos, %crd), %val : (tensor<4xindex>, tensor<4xindex>), tensor<4xf64> to tensor<2x5xf64, #Loose>
    %n, %s = call @count_and_sum(%l) : (tensor<2x5xf64, #Loose>) -> (index, f64)
    // CHECK-NEXT: 3
    // CHECK-NEXT: 8
    vector.print %n : index
    vector.print %s : f64

    // Every element of a dense tensor, row by row.
    %small = arith.constant dense<[[1.0, 0.0], [0.0, 2.0]]> : tensor<2x2xf64>
    // CHECK-NEXT: 0
    // CHECK-NEXT: 0
    // CHECK-NEXT: 0
    // CHECK-NEXT: 1
    sparse_tensor.foreach in %small : tensor<2x2xf64> do {
      ^bb0(%i: index, %j: index, %v: f64):
        %ij = arith.muli %i, %j : index
        vector.print %ij : index
    }

    // Only the listed elements of a sparse constant (an explicit zero too).
    %sc = arith.constant sparse<[[2, 1], [0, 3], [1, 1]], [4.0, 0.0, 6.0]> : tensor<4x5xf32>
    // CHECK-NEXT: 0
    // CHECK-NEXT: 3
    // CHECK-NEXT: 0
    // CHECK-NEXT: 1
    // CHECK-NEXT: 1
    // CHECK-NEXT: 6
    // CHECK-NEXT: 2
    // CHECK-NEXT: 1
    // CHECK-NEXT: 4
    sparse_tensor.foreach in %sc : tensor<4x5xf32> do {
      ^bb0(%i: index, %j: index, %v: f32):
        vector.print %i : index
        vector.print %j : index
        vector.print %v : f32
    }

    // An order sorts a sparse constant's elements (here column-major); a
    // sparse tensor is still visited in storage order.
    // CHECK-NEXT: 6
    // CHECK-NEXT: 4
    // CHECK-NEXT: 0
    sparse_tensor.foreach in %sc {order = affine_map<(i, j) -> (j, i)>} : tensor<4x5xf32> do {
      ^bb0(%i: index, %j: index, %v: f32):
        vector.print %v : f32
    }
    // CHECK-NEXT: 5
    // CHECK-NEXT: 7
    // CHECK-NEXT: 8
    // CHECK-NEXT: 9
    // CHECK-NEXT: 6
    sparse_tensor.foreach in %t {order = affine_map<(i, j) -> (i, j)>} : tensor<3x4xi32, #DCSC> do {
      ^bb0(%i: index, %j: index, %v: i32):
        vector.print %v : i32
    }
    bufferization.dealloc_tensor %t : tensor<3x4xi32, #DCSC>
    return
  }
}
