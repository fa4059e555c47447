// RUN: xsparse-opt %s --split-input-file --parsing-diagnostics -p sparse-reinterpret-map | filecheck %s

// ELL's counting symbol has no level-space equivalent (mlir-opt-22 rejects it too).

#ELL = #sparse_tensor.encoding<{ map = [c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed) }>
#spmv = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @ell(%a: tensor<?x?xf64, #ELL>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #spmv ins(%a, %x : tensor<?x?xf64, #ELL>, tensor<?xf64>) outs(%y : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// CHECK: invalid.mlir:[[# @LINE - 9]]:3: error: 'linalg.generic' op encodings with symbols (ELL's counting map) cannot be demapped

// -----

// Two block-encoded operands with different blocks cannot share one block space.

#BSR2 = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
#BSR4 = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 4 : dense, j floordiv 4 : compressed, i mod 4 : dense, j mod 4 : dense) }>
#add = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @mixed(%a: tensor<8x8xf64, #BSR2>, %b: tensor<8x8xf64, #BSR4>, %c: tensor<8x8xf64>) -> tensor<8x8xf64> {
  %0 = linalg.generic #add ins(%a, %b : tensor<8x8xf64, #BSR2>, tensor<8x8xf64, #BSR4>) outs(%c : tensor<8x8xf64>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = arith.addf %x, %y : f64
    linalg.yield %s : f64
  } -> tensor<8x8xf64>
  return %0 : tensor<8x8xf64>
}

// CHECK: invalid.mlir:[[# @LINE - 8]]:3: error: 'linalg.generic' op demapping block-encoded operands with different block maps or indexing maps is not supported

// -----

// A block-encoded operand indexed twice by one loop (a diagonal) has no level
// space: a located error (mlir-opt-22 crashes in its sparse-reinterpret-map).

#NV24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
#diagonal = {indexing_maps = [affine_map<(i) -> (i, i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @diagonal(%a: tensor<8x8xf64, #NV24>, %d: tensor<8xf64>) -> tensor<8xf64> {
  %0 = linalg.generic #diagonal ins(%a : tensor<8x8xf64, #NV24>) outs(%d : tensor<8xf64>) {
  ^bb0(%av: f64, %dv: f64):
    %s = arith.addf %dv, %av : f64
    linalg.yield %s : f64
  } -> tensor<8xf64>
  return %0 : tensor<8xf64>
}

// CHECK: invalid.mlir:[[# @LINE - 8]]:3: error: 'linalg.generic' op demapping needs the block-encoded operand indexed by distinct loops
