// C = A + B with A in DCSR and B in CSC: an element-wise union written into a
// dense matrix, printed row by row.

#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>

#add = {
  indexing_maps = [
    affine_map<(i, j) -> (i, j)>,
    affine_map<(i, j) -> (i, j)>,
    affine_map<(i, j) -> (i, j)>
  ],
  iterator_types = ["parallel", "parallel"]
}

module {
  func.func @add(%a: tensor<4x3xf64, #DCSR>, %b: tensor<4x3xf64, #DCSR>,
                 %c: tensor<4x3xf64>) -> tensor<4x3xf64> {
    %0 = linalg.generic #add
      ins(%a, %b : tensor<4x3xf64, #DCSR>, tensor<4x3xf64, #DCSR>)
      outs(%c : tensor<4x3xf64>) {
    ^bb0(%x: f64, %y: f64, %z: f64):
      %s = arith.addf %x, %y : f64
      linalg.yield %s : f64
    } -> tensor<4x3xf64>
    return %0 : tensor<4x3xf64>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %pad = arith.constant 0.0 : f64
    %da = arith.constant dense<[[1.0, 0.0, 2.0],
                                [0.0, 0.0, 0.0],
                                [0.0, 3.0, 0.0],
                                [4.0, 0.0, 0.0]]> : tensor<4x3xf64>
    %db = arith.constant dense<[[0.5, 0.0, 0.0],
                                [0.0, 7.0, 0.0],
                                [0.0, -3.0, 8.0],
                                [0.0, 0.0, 0.0]]> : tensor<4x3xf64>
    %a = sparse_tensor.convert %da : tensor<4x3xf64> to tensor<4x3xf64, #DCSR>
    %b = sparse_tensor.convert %db : tensor<4x3xf64> to tensor<4x3xf64, #DCSR>
    %zero = tensor.empty() : tensor<4x3xf64>
    %r = call @add(%a, %b, %zero)
      : (tensor<4x3xf64, #DCSR>, tensor<4x3xf64, #DCSR>, tensor<4x3xf64>) -> tensor<4x3xf64>
    %r0 = vector.transfer_read %r[%c0, %c0], %pad : tensor<4x3xf64>, vector<3xf64>
    %r1 = vector.transfer_read %r[%c1, %c0], %pad : tensor<4x3xf64>, vector<3xf64>
    %r2 = vector.transfer_read %r[%c2, %c0], %pad : tensor<4x3xf64>, vector<3xf64>
    %r3 = vector.transfer_read %r[%c3, %c0], %pad : tensor<4x3xf64>, vector<3xf64>
    vector.print %r0 : vector<3xf64>
    vector.print %r1 : vector<3xf64>
    vector.print %r2 : vector<3xf64>
    vector.print %r3 : vector<3xf64>

    // The same sum through a CSC copy of B, converted back to dense.
    %bc = sparse_tensor.convert %db : tensor<4x3xf64> to tensor<4x3xf64, #CSC>
    sparse_tensor.print %bc : tensor<4x3xf64, #CSC>
    %bd = sparse_tensor.convert %bc : tensor<4x3xf64, #CSC> to tensor<4x3xf64>
    %b2 = vector.transfer_read %bd[%c2, %c0], %pad : tensor<4x3xf64>, vector<3xf64>
    vector.print %b2 : vector<3xf64>
    return
  }
}

// CHECK: ( 1.5, 0, 2 )
// CHECK-NEXT: ( 0, 7, 0 )
// CHECK-NEXT: ( 0, 0, 8 )
// CHECK-NEXT: ( 4, 0, 0 )
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 4
// CHECK-NEXT: dim = ( 4, 3 )
// CHECK-NEXT: lvl = ( 3, 4 )
// CHECK-NEXT: pos[1] : ( 0, 1, 3, 4 )
// CHECK-NEXT: crd[1] : ( 0, 1, 2, 2 )
// CHECK-NEXT: values : ( 0.5, 7, -3, 8 )
// CHECK-NEXT: ----
// CHECK-NEXT: ( 0, -3, 8 )
