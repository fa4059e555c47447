// y = A * x with the same matrix A stored in BSR (2x2 blocks) and in 2:4
// structured sparsity; both results and both storages are printed.

#BSR = #sparse_tensor.encoding<{
  map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed,
                   i mod 2 : dense, j mod 2 : dense)
}>
#NV24 = #sparse_tensor.encoding<{
  map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]),
  crdWidth = 8
}>

#spmv = {
  indexing_maps = [
    affine_map<(i, j) -> (i, j)>,
    affine_map<(i, j) -> (j)>,
    affine_map<(i, j) -> (i)>
  ],
  iterator_types = ["parallel", "reduction"]
}

module {
  func.func @spmv_bsr(%a: tensor<4x8xf64, #BSR>, %x: tensor<8xf64>,
                      %y: tensor<4xf64>) -> tensor<4xf64> {
    %0 = linalg.generic #spmv
      ins(%a, %x : tensor<4x8xf64, #BSR>, tensor<8xf64>)
      outs(%y : tensor<4xf64>) {
    ^bb0(%av: f64, %xv: f64, %yv: f64):
      %m = arith.mulf %av, %xv : f64
      %s = arith.addf %yv, %m : f64
      linalg.yield %s : f64
    } -> tensor<4xf64>
    return %0 : tensor<4xf64>
  }

  func.func @spmv_24(%a: tensor<4x8xf64, #NV24>, %x: tensor<8xf64>,
                     %y: tensor<4xf64>) -> tensor<4xf64> {
    %0 = linalg.generic #spmv
      ins(%a, %x : tensor<4x8xf64, #NV24>, tensor<8xf64>)
      outs(%y : tensor<4xf64>) {
    ^bb0(%av: f64, %xv: f64, %yv: f64):
      %m = arith.mulf %av, %xv : f64
      %s = arith.addf %yv, %m : f64
      linalg.yield %s : f64
    } -> tensor<4xf64>
    return %0 : tensor<4xf64>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f64
    // Two nonzeros in every group of four columns of every row.
    %d = arith.constant dense<[[1.0, 0.0, 2.0, 0.0,  0.0, 3.0, 0.0, 4.0],
                               [0.0, 5.0, 6.0, 0.0,  7.0, 0.0, 8.0, 0.0],
                               [9.0, 1.0, 0.0, 0.0,  0.0, 0.0, 2.0, 3.0],
                               [0.0, 0.0, 4.0, 5.0,  6.0, 7.0, 0.0, 0.0]]> : tensor<4x8xf64>
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf64>
    %y = arith.constant dense<0.0> : tensor<4xf64>

    %a = sparse_tensor.convert %d : tensor<4x8xf64> to tensor<4x8xf64, #BSR>
    %r = call @spmv_bsr(%a, %x, %y)
      : (tensor<4x8xf64, #BSR>, tensor<8xf64>, tensor<4xf64>) -> tensor<4xf64>
    %v = vector.transfer_read %r[%c0], %pad : tensor<4xf64>, vector<4xf64>
    vector.print %v : vector<4xf64>
    sparse_tensor.print %a : tensor<4x8xf64, #BSR>

    %b = sparse_tensor.convert %d : tensor<4x8xf64> to tensor<4x8xf64, #NV24>
    %s = call @spmv_24(%b, %x, %y)
      : (tensor<4x8xf64, #NV24>, tensor<8xf64>, tensor<4xf64>) -> tensor<4xf64>
    %w = vector.transfer_read %s[%c0], %pad : tensor<4xf64>, vector<4xf64>
    vector.print %w : vector<4xf64>
    sparse_tensor.print %b : tensor<4x8xf64, #NV24>
    return
  }
}

// CHECK: ( 57, 119, 49, 104 )
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 32
// CHECK-NEXT: dim = ( 4, 8 )
// CHECK-NEXT: lvl = ( 2, 4, 2, 2 )
// CHECK-NEXT: pos[1] : ( 0, 4, 8 )
// CHECK-NEXT: crd[1] : ( 0, 1, 2, 3, 0, 1, 2, 3 )
// CHECK-NEXT: values : ( 1, 0, 0, 5, 2, 0, 6, 0, 0, 3, 7, 0, 0, 4, 8, 0, 9, 1, 0, 0, 0, 0, 4, 5, 0, 0, 6, 7, 2, 3, 0, 0 )
// CHECK-NEXT: ----
// CHECK-NEXT: ( 57, 119, 49, 104 )
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 16
// CHECK-NEXT: dim = ( 4, 8 )
// CHECK-NEXT: lvl = ( 4, 2, 4 )
// CHECK-NEXT: crd[2] : ( 0, 2, 1, 3, 1, 2, 0, 2, 0, 1, 2, 3, 2, 3, 0, 1 )
// CHECK-NEXT: values : ( 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7 )
// CHECK-NEXT: ----
