// Kernels with sparse results built by insertion: C = A + B (CSR), C = A .* B
// (CSR times DCSR into DCSR), SpGEMM C = A * B (CSR, through an expanded
// workspace) and a scaling into a new CSR matrix, each printed with
// sparse_tensor.print.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>

#elementwise = {
  indexing_maps = [
    affine_map<(i, j) -> (i, j)>,
    affine_map<(i, j) -> (i, j)>,
    affine_map<(i, j) -> (i, j)>
  ],
  iterator_types = ["parallel", "parallel"]
}

#matmul = {
  indexing_maps = [
    affine_map<(i, j, k) -> (i, k)>,
    affine_map<(i, j, k) -> (k, j)>,
    affine_map<(i, j, k) -> (i, j)>
  ],
  iterator_types = ["parallel", "parallel", "reduction"]
}

#unary = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
  iterator_types = ["parallel", "parallel"]
}

module {
  func.func @add(%a: tensor<4x5xf64, #CSR>, %b: tensor<4x5xf64, #CSR>) -> tensor<4x5xf64, #CSR> {
    %init = tensor.empty() : tensor<4x5xf64, #CSR>
    %0 = linalg.generic #elementwise
      ins(%a, %b : tensor<4x5xf64, #CSR>, tensor<4x5xf64, #CSR>)
      outs(%init : tensor<4x5xf64, #CSR>) {
    ^bb0(%x: f64, %y: f64, %o: f64):
      %s = arith.addf %x, %y : f64
      linalg.yield %s : f64
    } -> tensor<4x5xf64, #CSR>
    return %0 : tensor<4x5xf64, #CSR>
  }

  func.func @mul(%a: tensor<4x5xf64, #CSR>, %b: tensor<4x5xf64, #DCSR>) -> tensor<4x5xf64, #DCSR> {
    %init = tensor.empty() : tensor<4x5xf64, #DCSR>
    %0 = linalg.generic #elementwise
      ins(%a, %b : tensor<4x5xf64, #CSR>, tensor<4x5xf64, #DCSR>)
      outs(%init : tensor<4x5xf64, #DCSR>) {
    ^bb0(%x: f64, %y: f64, %o: f64):
      %s = arith.mulf %x, %y : f64
      linalg.yield %s : f64
    } -> tensor<4x5xf64, #DCSR>
    return %0 : tensor<4x5xf64, #DCSR>
  }

  func.func @spgemm(%a: tensor<4x5xf64, #CSR>, %b: tensor<5x4xf64, #CSR>) -> tensor<4x4xf64, #CSR> {
    %init = tensor.empty() : tensor<4x4xf64, #CSR>
    %0 = linalg.generic #matmul
      ins(%a, %b : tensor<4x5xf64, #CSR>, tensor<5x4xf64, #CSR>)
      outs(%init : tensor<4x4xf64, #CSR>) {
    ^bb0(%x: f64, %y: f64, %o: f64):
      %m = arith.mulf %x, %y : f64
      %s = arith.addf %o, %m : f64
      linalg.yield %s : f64
    } -> tensor<4x4xf64, #CSR>
    return %0 : tensor<4x4xf64, #CSR>
  }

  func.func @scale(%a: tensor<4x5xf64, #CSR>) -> tensor<4x5xf64, #CSR> {
    %c = arith.constant 3.0 : f64
    %init = bufferization.alloc_tensor() : tensor<4x5xf64, #CSR>
    %0 = linalg.generic #unary
      ins(%a : tensor<4x5xf64, #CSR>)
      outs(%init : tensor<4x5xf64, #CSR>) {
    ^bb0(%x: f64, %o: f64):
      %s = arith.mulf %x, %c : f64
      linalg.yield %s : f64
    } -> tensor<4x5xf64, #CSR>
    return %0 : tensor<4x5xf64, #CSR>
  }

  func.func @main() {
    %da = arith.constant dense<[[1.0, 0.0, 2.0, 0.0, 0.0],
                                [0.0, 0.0, 0.0, 0.0, 0.0],
                                [0.0, 3.0, 0.0, 4.0, 0.0],
                                [5.0, 0.0, 0.0, 0.0, 6.0]]> : tensor<4x5xf64>
    %db = arith.constant dense<[[0.5, 0.0, 2.0, 0.0, 0.0],
                                [0.0, 0.0, 0.0, 0.0, 0.0],
                                [0.0, 0.0, 0.0, 0.0, 7.0],
                                [0.0, 0.0, 1.0, 0.0, 8.0]]> : tensor<4x5xf64>
    %dc = arith.constant dense<[[1.0, 0.0, 0.0, 2.0],
                                [0.0, 3.0, 0.0, 0.0],
                                [0.0, 0.0, 0.0, 0.0],
                                [4.0, 0.0, 5.0, 0.0],
                                [0.0, 0.0, 0.0, 6.0]]> : tensor<5x4xf64>
    %a = sparse_tensor.convert %da : tensor<4x5xf64> to tensor<4x5xf64, #CSR>
    %b = sparse_tensor.convert %db : tensor<4x5xf64> to tensor<4x5xf64, #CSR>
    %bd = sparse_tensor.convert %db : tensor<4x5xf64> to tensor<4x5xf64, #DCSR>
    %c = sparse_tensor.convert %dc : tensor<5x4xf64> to tensor<5x4xf64, #CSR>

    %sum = call @add(%a, %b) : (tensor<4x5xf64, #CSR>, tensor<4x5xf64, #CSR>) -> tensor<4x5xf64, #CSR>
    sparse_tensor.print %sum : tensor<4x5xf64, #CSR>
    %product = call @mul(%a, %bd) : (tensor<4x5xf64, #CSR>, tensor<4x5xf64, #DCSR>) -> tensor<4x5xf64, #DCSR>
    sparse_tensor.print %product : tensor<4x5xf64, #DCSR>
    %gemm = call @spgemm(%a, %c) : (tensor<4x5xf64, #CSR>, tensor<5x4xf64, #CSR>) -> tensor<4x4xf64, #CSR>
    sparse_tensor.print %gemm : tensor<4x4xf64, #CSR>
    %scaled = call @scale(%a) : (tensor<4x5xf64, #CSR>) -> tensor<4x5xf64, #CSR>
    sparse_tensor.print %scaled : tensor<4x5xf64, #CSR>

    bufferization.dealloc_tensor %a : tensor<4x5xf64, #CSR>
    bufferization.dealloc_tensor %b : tensor<4x5xf64, #CSR>
    bufferization.dealloc_tensor %bd : tensor<4x5xf64, #DCSR>
    bufferization.dealloc_tensor %c : tensor<5x4xf64, #CSR>
    bufferization.dealloc_tensor %sum : tensor<4x5xf64, #CSR>
    bufferization.dealloc_tensor %product : tensor<4x5xf64, #DCSR>
    bufferization.dealloc_tensor %gemm : tensor<4x4xf64, #CSR>
    bufferization.dealloc_tensor %scaled : tensor<4x5xf64, #CSR>
    return
  }
}

// The whole output (also what mlir-opt-22 --sparsifier | mlir-runner-22 prints):
// CHECK: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 8
// CHECK-NEXT: dim = ( 4, 5 )
// CHECK-NEXT: lvl = ( 4, 5 )
// CHECK-NEXT: pos[1] : ( 0, 2, 2, 5, 8 )
// CHECK-NEXT: crd[1] : ( 0, 2, 1, 3, 4, 0, 2, 4 )
// CHECK-NEXT: values : ( 1.5, 4, 3, 4, 7, 5, 1, 14 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 3
// CHECK-NEXT: dim = ( 4, 5 )
// CHECK-NEXT: lvl = ( 4, 5 )
// CHECK-NEXT: pos[0] : ( 0, 2 )
// CHECK-NEXT: crd[0] : ( 0, 3 )
// CHECK-NEXT: pos[1] : ( 0, 2, 3 )
// CHECK-NEXT: crd[1] : ( 0, 2, 4 )
// CHECK-NEXT: values : ( 0.5, 4, 48 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 7
// CHECK-NEXT: dim = ( 4, 4 )
// CHECK-NEXT: lvl = ( 4, 4 )
// CHECK-NEXT: pos[1] : ( 0, 2, 2, 5, 7 )
// CHECK-NEXT: crd[1] : ( 0, 3, 0, 1, 2, 0, 3 )
// CHECK-NEXT: values : ( 1, 2, 16, 9, 20, 5, 46 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 5 )
// CHECK-NEXT: lvl = ( 4, 5 )
// CHECK-NEXT: pos[1] : ( 0, 2, 2, 4, 6 )
// CHECK-NEXT: crd[1] : ( 0, 2, 1, 3, 0, 4 )
// CHECK-NEXT: values : ( 3, 6, 9, 12, 15, 18 )
// CHECK-NEXT: ----
