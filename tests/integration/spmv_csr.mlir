// y = A * x + y with A in CSR, converted from a dense constant; prints the
// result, one element of it, the number of entries and A's storage.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

#spmv = {
  indexing_maps = [
    affine_map<(i, j) -> (i, j)>,
    affine_map<(i, j) -> (j)>,
    affine_map<(i, j) -> (i)>
  ],
  iterator_types = ["parallel", "reduction"]
}

module {
  func.func @spmv(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>,
                  %y: tensor<?xf64>) -> tensor<?xf64> {
    %0 = linalg.generic #spmv
      ins(%a, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>)
      outs(%y : tensor<?xf64>) {
    ^bb0(%av: f64, %xv: f64, %yv: f64):
      %m = arith.mulf %av, %xv : f64
      %s = arith.addf %yv, %m : f64
      linalg.yield %s : f64
    } -> tensor<?xf64>
    return %0 : tensor<?xf64>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %pad = arith.constant -1.0 : f64
    %d = arith.constant dense<[[1.0, 0.0, 0.0, 2.5, 0.0],
                               [0.0, 0.0, 3.0, 0.0, 0.0],
                               [0.0, 0.0, 0.0, 0.0, 0.0],
                               [4.0, 0.0, 0.0, 5.0, 6.0]]> : tensor<4x5xf64>
    %a = sparse_tensor.convert %d : tensor<4x5xf64> to tensor<?x?xf64, #CSR>
    %x0 = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf64>
    %x = tensor.cast %x0 : tensor<5xf64> to tensor<?xf64>
    %y0 = arith.constant dense<[0.5, 0.0, 0.0, -1.0]> : tensor<4xf64>
    %y = tensor.cast %y0 : tensor<4xf64> to tensor<?xf64>
    %r = call @spmv(%a, %x, %y)
      : (tensor<?x?xf64, #CSR>, tensor<?xf64>, tensor<?xf64>) -> tensor<?xf64>

    %v = vector.transfer_read %r[%c0], %pad : tensor<?xf64>, vector<4xf64>
    vector.print %v : vector<4xf64>
    %e = tensor.extract %r[%c3] : tensor<?xf64>
    vector.print %e : f64
    %n = sparse_tensor.number_of_entries %a : tensor<?x?xf64, #CSR>
    vector.print %n : index
    sparse_tensor.print %a : tensor<?x?xf64, #CSR>
    return
  }
}

// CHECK: ( 11.5, 9, 0, 53 )
// CHECK-NEXT: 53
// CHECK-NEXT: 6
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 5 )
// CHECK-NEXT: lvl = ( 4, 5 )
// CHECK-NEXT: pos[1] : ( 0, 2, 3, 3, 6 )
// CHECK-NEXT: crd[1] : ( 0, 3, 2, 0, 3, 4 )
// CHECK-NEXT: values : ( 1, 2.5, 3, 4, 5, 6 )
// CHECK-NEXT: ----
