// C = A * B with A in 2:4 structured sparsity, as written: A does not index
// B's columns (loop j), so sparse-reinterpret-map iterates A's three levels
// and keeps j as a loop of its own (as MLIR 22's pass does).

#NV24 = #sparse_tensor.encoding<{
  map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]),
  crdWidth = 8
}>

#spmm = {
  indexing_maps = [
    affine_map<(i, j, k) -> (i, k)>,
    affine_map<(i, j, k) -> (k, j)>,
    affine_map<(i, j, k) -> (i, j)>
  ],
  iterator_types = ["parallel", "parallel", "reduction"]
}

module {
  func.func @spmm_24(%a: tensor<4x8xf64, #NV24>, %b: tensor<8x3xf64>,
                     %c: tensor<4x3xf64>) -> tensor<4x3xf64> {
    %0 = linalg.generic #spmm
      ins(%a, %b : tensor<4x8xf64, #NV24>, tensor<8x3xf64>)
      outs(%c : tensor<4x3xf64>) {
    ^bb0(%av: f64, %bv: f64, %cv: f64):
      %m = arith.mulf %av, %bv : f64
      %s = arith.addf %cv, %m : f64
      linalg.yield %s : f64
    } -> tensor<4x3xf64>
    return %0 : tensor<4x3xf64>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f64
    // Two nonzeros in every group of four columns of every row.
    %d = arith.constant dense<[[1.0, 0.0, 2.0, 0.0,  0.0, 3.0, 0.0, 4.0],
                               [0.0, 5.0, 6.0, 0.0,  7.0, 0.0, 8.0, 0.0],
                               [9.0, 1.0, 0.0, 0.0,  0.0, 0.0, 2.0, 3.0],
                               [0.0, 0.0, 4.0, 5.0,  6.0, 7.0, 0.0, 0.0]]> : tensor<4x8xf64>
    %b = arith.constant dense<[[1.0, 0.0, -1.0], [2.0, 1.0, 0.0], [3.0, -2.0, 1.0],
                               [4.0, 0.0, 2.0], [5.0, 1.0, -3.0], [6.0, 0.0, 1.0],
                               [7.0, 2.0, 0.0], [8.0, -1.0, 1.0]]> : tensor<8x3xf64>
    // C starts at 1: the kernel adds A * B to it.
    %c = arith.constant dense<1.0> : tensor<4x3xf64>
    %a = sparse_tensor.convert %d : tensor<4x8xf64> to tensor<4x8xf64, #NV24>
    %r = call @spmm_24(%a, %b, %c)
      : (tensor<4x8xf64, #NV24>, tensor<8x3xf64>, tensor<4x3xf64>) -> tensor<4x3xf64>
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %v = vector.transfer_read %r[%i, %c0], %pad : tensor<4x3xf64>, vector<3xf64>
      vector.print %v : vector<3xf64>
    }
    return
  }
}

// CHECK: ( 58, -7, 9 )
// CHECK-NEXT: ( 120, 17, -14 )
// CHECK-NEXT: ( 50, 3, -5 )
// CHECK-NEXT: ( 105, -1, 4 )
