// REQUIRES: mlir-opt
// RUN: xsparse-opt %s -p sparse-decompose-tensors | %mlir-opt | filecheck %s

// mlir-opt-22 reads the decomposed function: MLIR 22's syntax throughout.

#NV_24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
func.func @spmm(%a: tensor<32x64xf64, #NV_24>, %b: tensor<64x?xf64>, %c: tensor<32x?xf64>) -> tensor<32x?xf64> {
  %0 = linalg.matmul ins(%a, %b : tensor<32x64xf64, #NV_24>, tensor<64x?xf64>) outs(%c : tensor<32x?xf64>) -> tensor<32x?xf64>
  return %0 : tensor<32x?xf64>
}

// CHECK-LABEL: func.func @spmm(%arg0: tensor<32x32xf64>, %arg1: tensor<32x4xi16>, %arg2: tensor<64x?xf64>, %arg3: tensor<32x?xf64>) -> tensor<32x?xf64> {
// CHECK:         scf.parallel
// CHECK:         vector.fma
