// RUN: xsparse-opt %s --split-input-file --parsing-diagnostics -p sparsification | filecheck %s

// No loop order visits both operands' levels outermost first.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
#mul = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @cycle(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64, #CSC>, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.generic #mul ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64, #CSC>) outs(%c : tensor<?x?xf64>) {
  ^bb0(%av: f64, %bv: f64, %cv: f64):
    %m = arith.mulf %av, %bv : f64
    linalg.yield %m : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}

// CHECK: invalid.mlir:9:3: error: 'linalg.generic' op cannot be sparsified: no loop order is compatible with the level orders of all sparse operands
// CHECK-NEXT: %0 = linalg.generic #mul

// -----

// Block encodings are demapped by sparse-reinterpret-map first.

#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
#id = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @blocked(%a: tensor<?x?xf64, #BSR>, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.generic #id ins(%a : tensor<?x?xf64, #BSR>) outs(%c : tensor<?x?xf64>) {
  ^bb0(%av: f64, %cv: f64):
    linalg.yield %av : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}

// CHECK: invalid.mlir:27:3: error: 'linalg.generic' op cannot be sparsified: sparse operand with a non-permutation encoding: run sparse-reinterpret-map before sparsification

// -----

// The same level of a sparse operand cannot be iterated by two loops (a diagonal).

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#diag = {indexing_maps = [affine_map<(i) -> (i, i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @diagonal(%a: tensor<?x?xf64, #CSR>, %c: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #diag ins(%a : tensor<?x?xf64, #CSR>) outs(%c : tensor<?xf64>) {
  ^bb0(%av: f64, %cv: f64):
    linalg.yield %av : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// CHECK: invalid.mlir:43:3: error: 'linalg.generic' op cannot be sparsified: two levels of a sparse operand on one loop

