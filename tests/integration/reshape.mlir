// Reshape by level buffers: CSR collapsed into a sparse vector (positions
// gone, values kept), the vector expanded into CSR, DCSR and COO, a COO matrix
// expanded into a 3-D COO tensor and back, dense levels regrouped (a view). Every
// tensor is released at the end.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
#COO3 = #sparse_tensor.encoding<{
  map = (i, j, k) -> (i : compressed(nonunique), j : singleton, k : singleton)
}>
#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
#DDC = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : dense, j : dense, k : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

module {
  func.func @main() {
    %m = arith.constant dense<[[0.0, 1.5, 0.0, 0.0],
                               [0.0, 0.0, 0.0, 0.0],
                               [3.0, 0.0, 0.0, 4.0],
                               [0.0, 0.0, 5.0, 0.0],
                               [0.0, 0.0, 0.0, 0.0],
                               [6.0, 0.0, 0.0, 7.0]]> : tensor<6x4xf64>
    %a = sparse_tensor.convert %m : tensor<6x4xf64> to tensor<6x4xf64, #CSR>

    %v = tensor.collapse_shape %a [[0, 1]] : tensor<6x4xf64, #CSR> into tensor<24xf64, #SV>
    sparse_tensor.print %v : tensor<24xf64, #SV>
    %b = tensor.expand_shape %v [[0, 1]] output_shape [3, 8]
      : tensor<24xf64, #SV> into tensor<3x8xf64, #CSR>
    sparse_tensor.print %b : tensor<3x8xf64, #CSR>
    %d = tensor.expand_shape %v [[0, 1]] output_shape [8, 3]
      : tensor<24xf64, #SV> into tensor<8x3xf64, #DCSR>
    sparse_tensor.print %d : tensor<8x3xf64, #DCSR>
    %o = tensor.expand_shape %v [[0, 1]] output_shape [2, 12]
      : tensor<24xf64, #SV> into tensor<2x12xf64, #COO>
    sparse_tensor.print %o : tensor<2x12xf64, #COO>

    %ao = sparse_tensor.convert %m : tensor<6x4xf64> to tensor<6x4xf64, #COO>
    %o3 = tensor.expand_shape %ao [[0, 1], [2]] output_shape [2, 3, 4]
      : tensor<6x4xf64, #COO> into tensor<2x3x4xf64, #COO3>
    sparse_tensor.print %o3 : tensor<2x3x4xf64, #COO3>
    %o2 = tensor.collapse_shape %o3 [[0], [1, 2]]
      : tensor<2x3x4xf64, #COO3> into tensor<2x12xf64, #COO>
    sparse_tensor.print %o2 : tensor<2x12xf64, #COO>

    %t = tensor.expand_shape %a [[0, 1], [2]] output_shape [2, 3, 4]
      : tensor<6x4xf64, #CSR> into tensor<2x3x4xf64, #DDC>
    sparse_tensor.print %t : tensor<2x3x4xf64, #DDC>

    bufferization.dealloc_tensor %a : tensor<6x4xf64, #CSR>
    bufferization.dealloc_tensor %v : tensor<24xf64, #SV>
    bufferization.dealloc_tensor %b : tensor<3x8xf64, #CSR>
    bufferization.dealloc_tensor %d : tensor<8x3xf64, #DCSR>
    bufferization.dealloc_tensor %o : tensor<2x12xf64, #COO>
    bufferization.dealloc_tensor %ao : tensor<6x4xf64, #COO>
    bufferization.dealloc_tensor %o3 : tensor<2x3x4xf64, #COO3>
    bufferization.dealloc_tensor %o2 : tensor<2x12xf64, #COO>
    bufferization.dealloc_tensor %t : tensor<2x3x4xf64, #DDC>
    return
  }
}

// CHECK: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 24 )
// CHECK-NEXT: lvl = ( 24 )
// CHECK-NEXT: pos[0] : ( 0, 6 )
// CHECK-NEXT: crd[0] : ( 1, 8, 11, 14, 20, 23 )
// CHECK-NEXT: values : ( 1.5, 3, 4, 5, 6, 7 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 3, 8 )
// CHECK-NEXT: lvl = ( 3, 8 )
// CHECK-NEXT: pos[1] : ( 0, 1, 4, 6 )
// CHECK-NEXT: crd[1] : ( 1, 0, 3, 6, 4, 7 )
// CHECK-NEXT: values : ( 1.5, 3, 4, 5, 6, 7 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 8, 3 )
// CHECK-NEXT: lvl = ( 8, 3 )
// CHECK-NEXT: pos[0] : ( 0, 6 )
// CHECK-NEXT: crd[0] : ( 0, 2, 3, 4, 6, 7 )
// CHECK-NEXT: pos[1] : ( 0, 1, 2, 3, 4, 5, 6 )
// CHECK-NEXT: crd[1] : ( 1, 2, 2, 2, 2, 2 )
// CHECK-NEXT: values : ( 1.5, 3, 4, 5, 6, 7 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 2, 12 )
// CHECK-NEXT: lvl = ( 2, 12 )
// CHECK-NEXT: pos[0] : ( 0, 6 )
// CHECK-NEXT: crd[0] : ( 0, 1, 0, 8, 0, 11, 1, 2, 1, 8, 1, 11 )
// CHECK-NEXT: values : ( 1.5, 3, 4, 5, 6, 7 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 2, 3, 4 )
// CHECK-NEXT: lvl = ( 2, 3, 4 )
// CHECK-NEXT: pos[0] : ( 0, 6 )
// CHECK-NEXT: crd[0] : ( 0, 0, 1, 0, 2, 0, 0, 2, 3, 1, 0, 2, 1, 2, 0, 1, 2, 3 )
// CHECK-NEXT: values : ( 1.5, 3, 4, 5, 6, 7 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 2, 12 )
// CHECK-NEXT: lvl = ( 2, 12 )
// CHECK-NEXT: pos[0] : ( 0, 6 )
// CHECK-NEXT: crd[0] : ( 0, 1, 0, 8, 0, 11, 1, 2, 1, 8, 1, 11 )
// CHECK-NEXT: values : ( 1.5, 3, 4, 5, 6, 7 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 2, 3, 4 )
// CHECK-NEXT: lvl = ( 2, 3, 4 )
// CHECK-NEXT: pos[2] : ( 0, 1, 1, 3, 4, 4, 6 )
// CHECK-NEXT: crd[2] : ( 1, 0, 3, 2, 0, 3 )
// CHECK-NEXT: values : ( 1.5, 3, 4, 5, 6, 7 )
// CHECK-NEXT: ----
