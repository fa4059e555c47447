// RUN: xsparse-opt %s --split-input-file --parsing-diagnostics -p sparse-reinterpret-map,sparsification | filecheck %s

// A batched operand read transposed into CSR: its batch level cannot store
// the other dimension, so no copy of it orders the loops; sparsification
// still refuses the kernel, located.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#Batch = #sparse_tensor.encoding<{ map = (i, j) -> (i : batch, j : compressed) }>
#transpose = {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @batched(%a: tensor<4x4xf64, #Batch>, %e: tensor<4x4xf64, #CSR>) -> tensor<4x4xf64, #CSR> {
  %0 = linalg.generic #transpose ins(%a : tensor<4x4xf64, #Batch>) outs(%e : tensor<4x4xf64, #CSR>) {
  ^bb0(%x: f64, %o: f64):
    linalg.yield %x : f64
  } -> tensor<4x4xf64, #CSR>
  return %0 : tensor<4x4xf64, #CSR>
}

// CHECK: loop-order-refused.mlir:[[# @LINE - 7]]:3: error: 'linalg.generic' op cannot be sparsified: no loop order is compatible with the level orders of all sparse operands
