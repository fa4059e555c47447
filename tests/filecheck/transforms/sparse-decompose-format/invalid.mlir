// RUN: xsparse-opt %s --split-input-file --parsing-diagnostics -p 'sparse-decompose-format{widths=2,4}' | filecheck %s
// RUN: xsparse-opt %s --split-input-file --parsing-diagnostics -p 'sparse-decompose-format{operand=3}' | filecheck %s --check-prefix=OPERAND
// RUN: xsparse-opt %s --split-input-file --parsing-diagnostics -p 'sparse-decompose-format{widths=4,2}' | filecheck %s --check-prefix=RULE

// A kernel not linear in A (it squares it) has no sum over A's parts.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#spmv = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @square(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #spmv ins(%a, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %av : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// CHECK: invalid.mlir:[[# @LINE - 9]]:3: error: 'linalg.generic' op is not linear in the decomposed operand (its body must be out + f(a), a a factor of f, read once, into one dense output)
// OPERAND: invalid.mlir:[[# @LINE - 11]]:1: error: 'func.func' op has no argument 3 to decompose (operand=3; it takes 3 arguments)
// RULE: error: 'builtin.module' op bad rule: widths=(4, 2): positive and increasing

// -----

// ELL buckets run SpMV and SpMM only: an elementwise kernel is refused.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#ew = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @scaled(%a: tensor<8x8xf64, #CSR>, %d: tensor<8x8xf64>, %c: tensor<8x8xf64>) -> tensor<8x8xf64> {
  %0 = linalg.generic #ew ins(%a, %d : tensor<8x8xf64, #CSR>, tensor<8x8xf64>) outs(%c : tensor<8x8xf64>) {
  ^bb0(%av: f64, %dv: f64, %o: f64):
    %m = arith.mulf %av, %dv : f64
    %s = arith.addf %o, %m : f64
    linalg.yield %s : f64
  } -> tensor<8x8xf64>
  return %0 : tensor<8x8xf64>
}

// CHECK: invalid.mlir:[[# @LINE - 9]]:3: error: 'linalg.generic' op ELL buckets compute SpMV and SpMM (C += A * B, y += A * x with A first, B and C dense) only

// -----

// The decomposed operand returned as it is: refused at the return.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @identity(%a: tensor<8x8xf64, #CSR>) -> tensor<8x8xf64, #CSR> {
  return %a : tensor<8x8xf64, #CSR>
}

// CHECK: invalid.mlir:[[# @LINE - 3]]:3: error: 'func.return' op reads the decomposed operand; sparse-decompose-format rewrites only linalg ops linear in it

// -----

// A dense operand is no sparse matrix to decompose.

func.func @dense(%a: tensor<8x8xf64>, %x: tensor<8xf64>) -> tensor<8xf64> {
  return %x : tensor<8xf64>
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:1: error: 'func.func' op argument 0 is tensor<8x8xf64>, not a sparse matrix to decompose
