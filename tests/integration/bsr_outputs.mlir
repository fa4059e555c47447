// Kernels with a BSR (2x2 blocks) result built by insertion: C = A + B and
// C = A .* B on BSR operands, demapped together into block space
// (sparse-reinterpret-map), each block inserted with its dense 2x2 values.

#BSR = #sparse_tensor.encoding<{
  map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
}>

#elementwise = {
  indexing_maps = [
    affine_map<(i, j) -> (i, j)>,
    affine_map<(i, j) -> (i, j)>,
    affine_map<(i, j) -> (i, j)>
  ],
  iterator_types = ["parallel", "parallel"]
}

module {
  func.func @add(%a: tensor<4x6xf64, #BSR>, %b: tensor<4x6xf64, #BSR>) -> tensor<4x6xf64, #BSR> {
    %init = tensor.empty() : tensor<4x6xf64, #BSR>
    %0 = linalg.generic #elementwise
      ins(%a, %b : tensor<4x6xf64, #BSR>, tensor<4x6xf64, #BSR>)
      outs(%init : tensor<4x6xf64, #BSR>) {
    ^bb0(%x: f64, %y: f64, %o: f64):
      %s = arith.addf %x, %y : f64
      linalg.yield %s : f64
    } -> tensor<4x6xf64, #BSR>
    return %0 : tensor<4x6xf64, #BSR>
  }

  func.func @mul(%a: tensor<4x6xf64, #BSR>, %b: tensor<4x6xf64, #BSR>) -> tensor<4x6xf64, #BSR> {
    %init = tensor.empty() : tensor<4x6xf64, #BSR>
    %0 = linalg.generic #elementwise
      ins(%a, %b : tensor<4x6xf64, #BSR>, tensor<4x6xf64, #BSR>)
      outs(%init : tensor<4x6xf64, #BSR>) {
    ^bb0(%x: f64, %y: f64, %o: f64):
      %s = arith.mulf %x, %y : f64
      linalg.yield %s : f64
    } -> tensor<4x6xf64, #BSR>
    return %0 : tensor<4x6xf64, #BSR>
  }

  func.func @main() {
    %da = arith.constant dense<[
      [1.0, 0.0, 0.0, 0.0, 2.0, 0.0],
      [0.0, 3.0, 0.0, 0.0, 0.0, 0.0],
      [0.0, 0.0, 0.0, 0.0, 0.0, 4.0],
      [0.0, 0.0, 0.0, 0.0, 5.0, 0.0]
    ]> : tensor<4x6xf64>
    %db = arith.constant dense<[
      [0.0, 6.0, 0.0, 0.0, 0.0, 0.0],
      [0.0, 7.0, 0.0, 0.0, 0.0, 0.0],
      [0.0, 0.0, 8.0, 0.0, 0.0, 0.0],
      [0.0, 0.0, 0.0, 0.0, 0.0, 9.0]
    ]> : tensor<4x6xf64>
    %a = sparse_tensor.convert %da : tensor<4x6xf64> to tensor<4x6xf64, #BSR>
    %b = sparse_tensor.convert %db : tensor<4x6xf64> to tensor<4x6xf64, #BSR>
    %sum = call @add(%a, %b) : (tensor<4x6xf64, #BSR>, tensor<4x6xf64, #BSR>) -> tensor<4x6xf64, #BSR>
    %prod = call @mul(%a, %b) : (tensor<4x6xf64, #BSR>, tensor<4x6xf64, #BSR>) -> tensor<4x6xf64, #BSR>
    sparse_tensor.print %sum : tensor<4x6xf64, #BSR>
    sparse_tensor.print %prod : tensor<4x6xf64, #BSR>
    bufferization.dealloc_tensor %a : tensor<4x6xf64, #BSR>
    bufferization.dealloc_tensor %b : tensor<4x6xf64, #BSR>
    bufferization.dealloc_tensor %sum : tensor<4x6xf64, #BSR>
    bufferization.dealloc_tensor %prod : tensor<4x6xf64, #BSR>
    return
  }
}

// CHECK: ---- Sparse Tensor ----
// CHECK: nse = 16
// CHECK: dim = ( 4, 6 )
// CHECK: lvl = ( 2, 3, 2, 2 )
// CHECK: pos[1] : ( 0, 2, 4 )
// CHECK: crd[1] : ( 0, 2, 1, 2 )
// CHECK: values : ( 1, 6, 0, 10, 2, 0, 0, 0, 8, 0, 0, 0, 0, 4, 5, 9 )
// CHECK: ----
// CHECK: ---- Sparse Tensor ----
// CHECK: nse = 8
// CHECK: dim = ( 4, 6 )
// CHECK: lvl = ( 2, 3, 2, 2 )
// CHECK: pos[1] : ( 0, 1, 2 )
// CHECK: crd[1] : ( 0, 2 )
// CHECK: values : ( 0, 0, 0, 21, 0, 0, 0, 0 )
// CHECK: ----
