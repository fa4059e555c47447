// Concatenation by level buffers: CSR, CSC, COO and DCSR operands along
// either dimension (three operands, an all-zero one, empty rows), operands in
// another encoding than the result's, and a dense result. Every tensor is
// released at the end.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>

module {
  func.func @main() {
    %m = arith.constant dense<[[0.0, 1.5, 0.0, 0.0],
                               [0.0, 0.0, 0.0, 0.0],
                               [3.0, 0.0, 0.0, 4.0]]> : tensor<3x4xf64>
    %n = arith.constant dense<[[7.0, 0.0, 0.0, 8.0],
                               [0.0, 9.0, 0.0, 0.0],
                               [0.0, 0.0, 0.0, 0.0]]> : tensor<3x4xf64>
    %z = arith.constant dense<0.0> : tensor<2x4xf64>

    %a = sparse_tensor.convert %m : tensor<3x4xf64> to tensor<3x4xf64, #CSR>
    %b = sparse_tensor.convert %n : tensor<3x4xf64> to tensor<3x4xf64, #CSR>
    %e = sparse_tensor.convert %z : tensor<2x4xf64> to tensor<2x4xf64, #CSR>
    %c0 = sparse_tensor.concatenate %a, %e, %b {dimension = 0 : index}
      : tensor<3x4xf64, #CSR>, tensor<2x4xf64, #CSR>, tensor<3x4xf64, #CSR> to tensor<8x4xf64, #CSR>
    sparse_tensor.print %c0 : tensor<8x4xf64, #CSR>
    %c1 = sparse_tensor.concatenate %a, %b, %a {dimension = 1 : index}
      : tensor<3x4xf64, #CSR>, tensor<3x4xf64, #CSR>, tensor<3x4xf64, #CSR> to tensor<3x12xf64, #CSR>
    sparse_tensor.print %c1 : tensor<3x12xf64, #CSR>

    %ac = sparse_tensor.convert %m : tensor<3x4xf64> to tensor<3x4xf64, #CSC>
    %bc = sparse_tensor.convert %n : tensor<3x4xf64> to tensor<3x4xf64, #CSC>
    %c2 = sparse_tensor.concatenate %ac, %bc {dimension = 0 : index}
      : tensor<3x4xf64, #CSC>, tensor<3x4xf64, #CSC> to tensor<6x4xf64, #CSC>
    sparse_tensor.print %c2 : tensor<6x4xf64, #CSC>
    %c3 = sparse_tensor.concatenate %ac, %bc {dimension = 1 : index}
      : tensor<3x4xf64, #CSC>, tensor<3x4xf64, #CSC> to tensor<3x8xf64, #CSC>
    sparse_tensor.print %c3 : tensor<3x8xf64, #CSC>

    %ao = sparse_tensor.convert %m : tensor<3x4xf64> to tensor<3x4xf64, #COO>
    %bo = sparse_tensor.convert %n : tensor<3x4xf64> to tensor<3x4xf64, #COO>
    %c4 = sparse_tensor.concatenate %ao, %bo {dimension = 0 : index}
      : tensor<3x4xf64, #COO>, tensor<3x4xf64, #COO> to tensor<6x4xf64, #COO>
    sparse_tensor.print %c4 : tensor<6x4xf64, #COO>
    %c5 = sparse_tensor.concatenate %ao, %bo {dimension = 1 : index}
      : tensor<3x4xf64, #COO>, tensor<3x4xf64, #COO> to tensor<3x8xf64, #COO>
    sparse_tensor.print %c5 : tensor<3x8xf64, #COO>

    %ad = sparse_tensor.convert %m : tensor<3x4xf64> to tensor<3x4xf64, #DCSR>
    %bd = sparse_tensor.convert %n : tensor<3x4xf64> to tensor<3x4xf64, #DCSR>
    %c6 = sparse_tensor.concatenate %ad, %bd {dimension = 0 : index}
      : tensor<3x4xf64, #DCSR>, tensor<3x4xf64, #DCSR> to tensor<6x4xf64, #DCSR>
    sparse_tensor.print %c6 : tensor<6x4xf64, #DCSR>
    %c7 = sparse_tensor.concatenate %ad, %bd {dimension = 1 : index}
      : tensor<3x4xf64, #DCSR>, tensor<3x4xf64, #DCSR> to tensor<3x8xf64, #DCSR>
    sparse_tensor.print %c7 : tensor<3x8xf64, #DCSR>

    // Operands in other encodings than the result's: converted first.
    %c8 = sparse_tensor.concatenate %a, %bc, %ao {dimension = 0 : index}
      : tensor<3x4xf64, #CSR>, tensor<3x4xf64, #CSC>, tensor<3x4xf64, #COO> to tensor<9x4xf64, #CSR>
    sparse_tensor.print %c8 : tensor<9x4xf64, #CSR>

    // A dense result.
    %c9 = sparse_tensor.concatenate %a, %bd {dimension = 1 : index}
      : tensor<3x4xf64, #CSR>, tensor<3x4xf64, #DCSR> to tensor<3x8xf64>
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    %i3 = arith.constant 3 : index
    %f0 = arith.constant -1.0 : f64
    scf.for %i = %i0 to %i3 step %i1 {
      %v = vector.transfer_read %c9[%i, %i0], %f0 : tensor<3x8xf64>, vector<8xf64>
      vector.print %v : vector<8xf64>
    }

    bufferization.dealloc_tensor %a : tensor<3x4xf64, #CSR>
    bufferization.dealloc_tensor %b : tensor<3x4xf64, #CSR>
    bufferization.dealloc_tensor %e : tensor<2x4xf64, #CSR>
    bufferization.dealloc_tensor %ac : tensor<3x4xf64, #CSC>
    bufferization.dealloc_tensor %bc : tensor<3x4xf64, #CSC>
    bufferization.dealloc_tensor %ao : tensor<3x4xf64, #COO>
    bufferization.dealloc_tensor %bo : tensor<3x4xf64, #COO>
    bufferization.dealloc_tensor %ad : tensor<3x4xf64, #DCSR>
    bufferization.dealloc_tensor %bd : tensor<3x4xf64, #DCSR>
    bufferization.dealloc_tensor %c0 : tensor<8x4xf64, #CSR>
    bufferization.dealloc_tensor %c1 : tensor<3x12xf64, #CSR>
    bufferization.dealloc_tensor %c2 : tensor<6x4xf64, #CSC>
    bufferization.dealloc_tensor %c3 : tensor<3x8xf64, #CSC>
    bufferization.dealloc_tensor %c4 : tensor<6x4xf64, #COO>
    bufferization.dealloc_tensor %c5 : tensor<3x8xf64, #COO>
    bufferization.dealloc_tensor %c6 : tensor<6x4xf64, #DCSR>
    bufferization.dealloc_tensor %c7 : tensor<3x8xf64, #DCSR>
    bufferization.dealloc_tensor %c8 : tensor<9x4xf64, #CSR>
    return
  }
}

// CHECK: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 8, 4 )
// CHECK-NEXT: lvl = ( 8, 4 )
// CHECK-NEXT: pos[1] : ( 0, 1, 1, 3, 3, 3, 5, 6, 6 )
// CHECK-NEXT: crd[1] : ( 1, 0, 3, 0, 3, 1 )
// CHECK-NEXT: values : ( 1.5, 3, 4, 7, 8, 9 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 9
// CHECK-NEXT: dim = ( 3, 12 )
// CHECK-NEXT: lvl = ( 3, 12 )
// CHECK-NEXT: pos[1] : ( 0, 4, 5, 9 )
// CHECK-NEXT: crd[1] : ( 1, 4, 7, 9, 5, 0, 3, 8, 11 )
// CHECK-NEXT: values : ( 1.5, 7, 8, 1.5, 9, 3, 4, 3, 4 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 6, 4 )
// CHECK-NEXT: lvl = ( 4, 6 )
// CHECK-NEXT: pos[1] : ( 0, 2, 4, 4, 6 )
// CHECK-NEXT: crd[1] : ( 2, 3, 0, 4, 2, 3 )
// CHECK-NEXT: values : ( 3, 7, 1.5, 9, 4, 8 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 3, 8 )
// CHECK-NEXT: lvl = ( 8, 3 )
// CHECK-NEXT: pos[1] : ( 0, 1, 2, 2, 3, 4, 5, 5, 6 )
// CHECK-NEXT: crd[1] : ( 2, 0, 2, 0, 1, 0 )
// CHECK-NEXT: values : ( 3, 1.5, 4, 7, 9, 8 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 6, 4 )
// CHECK-NEXT: lvl = ( 6, 4 )
// CHECK-NEXT: pos[0] : ( 0, 6 )
// CHECK-NEXT: crd[0] : ( 0, 1, 2, 0, 2, 3, 3, 0, 3, 3, 4, 1 )
// CHECK-NEXT: values : ( 1.5, 3, 4, 7, 8, 9 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 3, 8 )
// CHECK-NEXT: lvl = ( 3, 8 )
// CHECK-NEXT: pos[0] : ( 0, 6 )
// CHECK-NEXT: crd[0] : ( 0, 1, 0, 4, 0, 7, 1, 5, 2, 0, 2, 3 )
// CHECK-NEXT: values : ( 1.5, 7, 8, 9, 3, 4 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 6, 4 )
// CHECK-NEXT: lvl = ( 6, 4 )
// CHECK-NEXT: pos[0] : ( 0, 4 )
// CHECK-NEXT: crd[0] : ( 0, 2, 3, 4 )
// CHECK-NEXT: pos[1] : ( 0, 1, 3, 5, 6 )
// CHECK-NEXT: crd[1] : ( 1, 0, 3, 0, 3, 1 )
// CHECK-NEXT: values : ( 1.5, 3, 4, 7, 8, 9 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 3, 8 )
// CHECK-NEXT: lvl = ( 3, 8 )
// CHECK-NEXT: pos[0] : ( 0, 3 )
// CHECK-NEXT: crd[0] : ( 0, 1, 2 )
// CHECK-NEXT: pos[1] : ( 0, 3, 4, 6 )
// CHECK-NEXT: crd[1] : ( 1, 4, 7, 5, 0, 3 )
// CHECK-NEXT: values : ( 1.5, 7, 8, 9, 3, 4 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 9
// CHECK-NEXT: dim = ( 9, 4 )
// CHECK-NEXT: lvl = ( 9, 4 )
// CHECK-NEXT: pos[1] : ( 0, 1, 1, 3, 5, 6, 6, 7, 7, 9 )
// CHECK-NEXT: crd[1] : ( 1, 0, 3, 0, 3, 1, 1, 0, 3 )
// CHECK-NEXT: values : ( 1.5, 3, 4, 7, 8, 9, 1.5, 3, 4 )
// CHECK-NEXT: ----
// CHECK-NEXT: ( 0, 1.5, 0, 0, 7, 0, 0, 8 )
// CHECK-NEXT: ( 0, 0, 0, 0, 0, 9, 0, 0 )
// CHECK-NEXT: ( 3, 0, 0, 4, 0, 0, 0, 0 )
