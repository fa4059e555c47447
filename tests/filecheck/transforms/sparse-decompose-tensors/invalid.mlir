// RUN: xsparse-opt %s --split-input-file --parsing-diagnostics -p sparse-decompose-tensors | filecheck %s

// An elementwise op cannot read the decomposed arrays: refused at the op.

#NV_24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
#scale = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @scale(%a: tensor<8x8xf32, #NV_24>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.generic #scale ins(%a : tensor<8x8xf32, #NV_24>) outs(%c : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK: invalid.mlir:[[# @LINE - 8]]:3: error: 'linalg.generic' op reads a 2:4 tensor but is not a 2:4 matrix product (C += A * B or y += A * x with A first, B and C dense) that sparse-decompose-tensors can rewrite

// -----

// A 2:4 tensor returned as it is would outlive the decomposition.

#NV_24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
func.func @identity(%a: tensor<8x8xf64, #NV_24>) -> tensor<8x8xf64, #NV_24> {
  return %a : tensor<8x8xf64, #NV_24>
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:1: error: 'func.func' op returns a 2:4 tensor; sparse-decompose-tensors decomposes function arguments only

// -----

// Only the row-major 2:4 encoding has the seed's decomposition.

#T24 = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i floordiv 4 : dense, i mod 4 : structured[2, 4]) }>
func.func @transposed(%a: tensor<8x8xf64, #T24>, %b: tensor<8x4xf64>, %c: tensor<8x4xf64>) -> tensor<8x4xf64> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x8xf64, #T24>, tensor<8x4xf64>) outs(%c : tensor<8x4xf64>) -> tensor<8x4xf64>
  return %0 : tensor<8x4xf64>
}

// CHECK: invalid.mlir:[[# @LINE - 5]]:1: error: 'func.func' op uses tensor<8x8xf64, {{.*}}>: sparse-decompose-tensors decomposes the row-major 2:4 encoding (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) of f32 and f64 matrices only

// -----

// Elements other than f32 and f64 are refused.

#NV_24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
func.func @half(%a: tensor<8x8xf16, #NV_24>, %b: tensor<8x4xf16>, %c: tensor<8x4xf16>) -> tensor<8x4xf16> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x8xf16, #NV_24>, tensor<8x4xf16>) outs(%c : tensor<8x4xf16>) -> tensor<8x4xf16>
  return %0 : tensor<8x4xf16>
}

// CHECK: invalid.mlir:[[# @LINE - 5]]:1: error: 'func.func' op uses tensor<8x8xf16, {{.*}}>: sparse-decompose-tensors decomposes the row-major 2:4 encoding (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) of f32 and f64 matrices only

// -----

// Both operands 2:4: the product reads the second as dense, which it is not.

#NV_24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
func.func @square(%a: tensor<8x8xf64, #NV_24>, %c: tensor<8x8xf64>) -> tensor<8x8xf64> {
  %0 = linalg.matmul ins(%a, %a : tensor<8x8xf64, #NV_24>, tensor<8x8xf64, #NV_24>) outs(%c : tensor<8x8xf64>) -> tensor<8x8xf64>
  return %0 : tensor<8x8xf64>
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:3: error: 'linalg.matmul' op reads a 2:4 tensor but is not a 2:4 matrix product (C += A * B or y += A * x with A first, B and C dense) that sparse-decompose-tensors can rewrite
