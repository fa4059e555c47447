// Conversions of tensors computed at run time: the dense result of a kernel
// converted to CSR (32-bit overheads), CSC, DCSR, COO and BSR, a BSR
// tensor converted to DCSR (its explicit zeros stay stored, as in MLIR),
// and the transpositions CSR -> CSC and CSC -> CSR (on threads under a
// parallelization strategy).

#CSR = #sparse_tensor.encoding<{
  map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32
}>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
#BSR = #sparse_tensor.encoding<{
  map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed,
                   i mod 2 : dense, j mod 2 : dense)
}>

#scale = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
  iterator_types = ["parallel", "parallel"]
}

module {
  // out = 2 * a, dense.
  func.func @scale(%a: tensor<4x6xf64, #CSR>, %out: tensor<4x6xf64>) -> tensor<4x6xf64> {
    %0 = linalg.generic #scale ins(%a : tensor<4x6xf64, #CSR>) outs(%out : tensor<4x6xf64>) {
    ^bb0(%x: f64, %o: f64):
      %two = arith.constant 2.0 : f64
      %m = arith.mulf %x, %two : f64
      linalg.yield %m : f64
    } -> tensor<4x6xf64>
    return %0 : tensor<4x6xf64>
  }

  func.func @main() {
    %m = arith.constant dense<[[0.0, 1.5, 0.0, 0.0, 0.0, 2.0],
                               [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                               [3.0, 0.0, 0.0, 4.0, 0.0, 0.0],
                               [0.0, 0.0, 5.0, 0.0, 0.0, 6.0]]> : tensor<4x6xf64>
    %a = sparse_tensor.convert %m : tensor<4x6xf64> to tensor<4x6xf64, #CSR>
    %z = tensor.empty() : tensor<4x6xf64>
    %d = call @scale(%a, %z) : (tensor<4x6xf64, #CSR>, tensor<4x6xf64>) -> tensor<4x6xf64>

    %s1 = sparse_tensor.convert %d : tensor<4x6xf64> to tensor<4x6xf64, #CSR>
    sparse_tensor.print %s1 : tensor<4x6xf64, #CSR>
    %s2 = sparse_tensor.convert %d : tensor<4x6xf64> to tensor<4x6xf64, #CSC>
    sparse_tensor.print %s2 : tensor<4x6xf64, #CSC>
    %s3 = sparse_tensor.convert %d : tensor<4x6xf64> to tensor<4x6xf64, #DCSR>
    sparse_tensor.print %s3 : tensor<4x6xf64, #DCSR>
    %s4 = sparse_tensor.convert %d : tensor<4x6xf64> to tensor<4x6xf64, #COO>
    sparse_tensor.print %s4 : tensor<4x6xf64, #COO>
    %s5 = sparse_tensor.convert %d : tensor<4x6xf64> to tensor<4x6xf64, #BSR>
    sparse_tensor.print %s5 : tensor<4x6xf64, #BSR>
    %s6 = sparse_tensor.convert %s5 : tensor<4x6xf64, #BSR> to tensor<4x6xf64, #DCSR>
    sparse_tensor.print %s6 : tensor<4x6xf64, #DCSR>
    %s7 = sparse_tensor.convert %s1 : tensor<4x6xf64, #CSR> to tensor<4x6xf64, #CSC>
    sparse_tensor.print %s7 : tensor<4x6xf64, #CSC>
    %s8 = sparse_tensor.convert %s2 : tensor<4x6xf64, #CSC> to tensor<4x6xf64, #CSR>
    sparse_tensor.print %s8 : tensor<4x6xf64, #CSR>
    return
  }
}

// CHECK: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 4, 6 )
// CHECK-NEXT: pos[1] : ( 0, 2, 2, 4, 6 )
// CHECK-NEXT: crd[1] : ( 1, 5, 0, 3, 2, 5 )
// CHECK-NEXT: values : ( 3, 4, 6, 8, 10, 12 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 6, 4 )
// CHECK-NEXT: pos[1] : ( 0, 1, 2, 3, 4, 4, 6 )
// CHECK-NEXT: crd[1] : ( 2, 0, 3, 2, 0, 3 )
// CHECK-NEXT: values : ( 6, 3, 10, 8, 4, 12 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 4, 6 )
// CHECK-NEXT: pos[0] : ( 0, 3 )
// CHECK-NEXT: crd[0] : ( 0, 2, 3 )
// CHECK-NEXT: pos[1] : ( 0, 2, 4, 6 )
// CHECK-NEXT: crd[1] : ( 1, 5, 0, 3, 2, 5 )
// CHECK-NEXT: values : ( 3, 4, 6, 8, 10, 12 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 4, 6 )
// CHECK-NEXT: pos[0] : ( 0, 6 )
// CHECK-NEXT: crd[0] : ( 0, 1, 0, 5, 2, 0, 2, 3, 3, 2, 3, 5 )
// CHECK-NEXT: values : ( 3, 4, 6, 8, 10, 12 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 20
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 2, 3, 2, 2 )
// CHECK-NEXT: pos[1] : ( 0, 2, 5 )
// CHECK-NEXT: crd[1] : ( 0, 2, 0, 1, 2 )
// CHECK-NEXT: values : ( 0, 3, 0, 0, 0, 4, 0, 0, 6, 0, 0, 0, 0, 8, 10, 0, 0, 0, 0, 12 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 20
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 4, 6 )
// CHECK-NEXT: pos[0] : ( 0, 4 )
// CHECK-NEXT: crd[0] : ( 0, 1, 2, 3 )
// CHECK-NEXT: pos[1] : ( 0, 4, 8, 14, 20 )
// CHECK-NEXT: crd[1] : ( 0, 1, 4, 5, 0, 1, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5 )
// CHECK-NEXT: values : ( 0, 3, 0, 4, 0, 0, 0, 0, 6, 0, 0, 8, 0, 0, 0, 0, 10, 0, 0, 12 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 6, 4 )
// CHECK-NEXT: pos[1] : ( 0, 1, 2, 3, 4, 4, 6 )
// CHECK-NEXT: crd[1] : ( 2, 0, 3, 2, 0, 3 )
// CHECK-NEXT: values : ( 6, 3, 10, 8, 4, 12 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 4, 6 )
// CHECK-NEXT: pos[1] : ( 0, 2, 2, 4, 6 )
// CHECK-NEXT: crd[1] : ( 1, 5, 0, 3, 2, 5 )
// CHECK-NEXT: values : ( 3, 4, 6, 8, 10, 12 )
// CHECK-NEXT: ----
