// Kernels that MLIR 22's sparse GPU code generation turns into gpu ops:
// cuSPARSE calls with num-threads=0 (SpMV on CSR, CSC and COO, SpMM,
// SpGEMM, SDDMM on CSR and BSR, SpMM with a 2:4 matrix), outlined kernels
// otherwise (for-loops over the parallel outer loop).

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
#BSR = #sparse_tensor.encoding<{
  map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)
}>
#NV24 = #sparse_tensor.encoding<{
  map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4])
}>

#matvec = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>],
  iterator_types = ["parallel", "reduction"]
}
#sampled = {
  indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
  iterator_types = ["parallel", "parallel", "reduction"]
}

module {
  func.func @spmv_csr(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {
    %r = linalg.generic #matvec ins(%a, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) {
    ^bb0(%av: f64, %xv: f64, %yv: f64):
      %m = arith.mulf %av, %xv : f64
      %s = arith.addf %yv, %m : f64
      linalg.yield %s : f64
    } -> tensor<?xf64>
    return %r : tensor<?xf64>
  }

  func.func @spmv_csc(%a: tensor<?x?xf32, #CSC>, %x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
    %r = linalg.matvec ins(%a, %x : tensor<?x?xf32, #CSC>, tensor<?xf32>) outs(%y : tensor<?xf32>) -> tensor<?xf32>
    return %r : tensor<?xf32>
  }

  func.func @spmv_coo(%a: tensor<?x?xf32, #COO>, %x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
    %r = linalg.matvec ins(%a, %x : tensor<?x?xf32, #COO>, tensor<?xf32>) outs(%y : tensor<?xf32>) -> tensor<?xf32>
    return %r : tensor<?xf32>
  }

  func.func @spmm_csr(%a: tensor<?x?xf32, #CSR>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<?x?xf32, #CSR>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
    return %r : tensor<?x?xf32>
  }

  func.func @spgemm(%a: tensor<8x8xf32, #CSR>, %b: tensor<8x8xf32, #CSR>) -> tensor<8x8xf32, #CSR> {
    %c = tensor.empty() : tensor<8x8xf32, #CSR>
    %r = linalg.matmul ins(%a, %b : tensor<8x8xf32, #CSR>, tensor<8x8xf32, #CSR>) outs(%c : tensor<8x8xf32, #CSR>) -> tensor<8x8xf32, #CSR>
    return %r : tensor<8x8xf32, #CSR>
  }

  func.func @spmm_24(%ad: tensor<?x?xf16>, %b: tensor<?x?xf16>, %c: tensor<?x?xf16>) -> tensor<?x?xf16> {
    %a = sparse_tensor.convert %ad : tensor<?x?xf16> to tensor<?x?xf16, #NV24>
    %r = linalg.matmul ins(%a, %b : tensor<?x?xf16, #NV24>, tensor<?x?xf16>) outs(%c : tensor<?x?xf16>) -> tensor<?x?xf16>
    return %r : tensor<?x?xf16>
  }

  func.func @sddmm_csr(%s: tensor<8x8xf64, #CSR>, %a: tensor<8x8xf64>, %b: tensor<8x8xf64>) -> tensor<8x8xf64, #CSR> {
    %r = linalg.generic #sampled ins(%a, %b : tensor<8x8xf64>, tensor<8x8xf64>) outs(%s : tensor<8x8xf64, #CSR>) {
    ^bb0(%av: f64, %bv: f64, %sv: f64):
      %zero = arith.constant 0.0 : f64
      %u = sparse_tensor.unary %sv : f64 to f64
        present = {
        ^bb0(%p: f64):
          %m = arith.mulf %av, %bv : f64
          sparse_tensor.yield %m : f64
        }
        absent = {}
      %acc = sparse_tensor.reduce %sv, %u, %zero : f64 {
      ^bb0(%p: f64, %q: f64):
        %sum = arith.addf %p, %q : f64
        sparse_tensor.yield %sum : f64
      }
      linalg.yield %acc : f64
    } -> tensor<8x8xf64, #CSR>
    return %r : tensor<8x8xf64, #CSR>
  }

  func.func @sddmm_bsr(%s: tensor<8x8xf64, #BSR>, %a: tensor<8x8xf64>, %b: tensor<8x8xf64>) -> tensor<8x8xf64, #BSR> {
    %r = linalg.generic #sampled ins(%a, %b : tensor<8x8xf64>, tensor<8x8xf64>) outs(%s : tensor<8x8xf64, #BSR>) {
    ^bb0(%av: f64, %bv: f64, %sv: f64):
      %zero = arith.constant 0.0 : f64
      %u = sparse_tensor.unary %sv : f64 to f64
        present = {
        ^bb0(%p: f64):
          %m = arith.mulf %av, %bv : f64
          sparse_tensor.yield %m : f64
        }
        absent = {}
      %acc = sparse_tensor.reduce %sv, %u, %zero : f64 {
      ^bb0(%p: f64, %q: f64):
        %sum = arith.addf %p, %q : f64
        sparse_tensor.yield %sum : f64
      }
      linalg.yield %acc : f64
    } -> tensor<8x8xf64, #BSR>
    return %r : tensor<8x8xf64, #BSR>
  }
}
