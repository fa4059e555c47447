// RUN: xsparse-opt %s -p sparse-decompose-tensors,sparsifier | filecheck %s

// The decomposed product lowers with the rest of the sparsifier to the llvm
// dialect: vector.fma becomes llvm's fmuladd and no sparse tensor is left.
// (Without the decomposition, the sparsifier refuses this SpMM: the 2:4
// operand of a matmul is not indexed by a permutation of its loops.)

#NV_24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
func.func @spmm(%a: tensor<?x?xf32, #NV_24>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf32, #NV_24>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// CHECK:     llvm.func @spmm(
// CHECK-NOT: sparse_tensor
// CHECK:     llvm.fmuladd
// CHECK-NOT: sparse_tensor
