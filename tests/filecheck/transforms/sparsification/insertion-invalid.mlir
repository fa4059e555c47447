// RUN: xsparse-opt %s --split-input-file --parsing-diagnostics -p sparsification | filecheck %s

// A sparse output built by insertion needs levels that insertion can build
// (dense, compressed, singleton): refused at the tensor.empty it starts from,
// before the output gets its size hint.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#LOOSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>
#ew = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @add(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #LOOSE> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR>
  %n = tensor.dim %a, %c1 : tensor<?x?xf64, #CSR>
  %init = tensor.empty(%m, %n) : tensor<?x?xf64, #LOOSE>
  %0 = linalg.generic #ew ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64, #CSR>) outs(%init : tensor<?x?xf64, #LOOSE>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = arith.addf %x, %y : f64
    linalg.yield %s : f64
  } -> tensor<?x?xf64, #LOOSE>
  return %0 : tensor<?x?xf64, #LOOSE>
}

// CHECK: insertion-invalid.mlir:[[# @LINE - 9]]:3: error: 'tensor.empty' op insertion into a level of format loose_compressed is not supported
