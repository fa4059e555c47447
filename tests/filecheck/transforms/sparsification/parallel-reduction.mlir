// RUN: xsparse-opt %s --split-input-file -p 'sparsification{parallelization-strategy=any-storage-outer-loop}' | filecheck %s

// A reduction loop that carries only the reduction's value, with loops
// inside it, runs in parallel: scf.parallel with the value as init, each
// iteration starting from the op's identity (-0.0 for a float sum), the
// partial results combined by scf.reduce. (MLIR 22's sparsifier crashes on
// this input, in scf::ReduceOp::build.)

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#xsum = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
func.func @weighted_sum(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>, %s: tensor<f64>) -> tensor<f64> {
  %0 = linalg.generic #xsum ins(%a, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>) outs(%s : tensor<f64>) {
  ^bb0(%av: f64, %xv: f64, %acc: f64):
    %m = arith.mulf %av, %xv : f64
    %r = arith.addf %acc, %m : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  return %0 : tensor<f64>
}

// CHECK-LABEL: func.func @weighted_sum(
// CHECK:         %[[INIT:.*]] = memref.load %{{.*}}[] : memref<f64>
// CHECK:         %[[TOTAL:.*]] = scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) init (%[[INIT]]) -> f64 {
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant -0.000000e+00 : f64
// CHECK:           %[[ROW:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f64) {
// CHECK:             %[[NEXT:.*]] = arith.addf %[[ACC]], %{{.*}} : f64
// CHECK-NEXT:        scf.yield %[[NEXT]] : f64
// CHECK:           scf.reduce(%[[ROW]] : f64) {
// CHECK-NEXT:      ^{{.*}}(%[[L:.*]]: f64, %[[R:.*]]: f64):
// CHECK-NEXT:        %[[C:.*]] = arith.addf %[[L]], %[[R]] : f64
// CHECK-NEXT:        scf.reduce.return %[[C]] : f64
// CHECK:         memref.store %[[TOTAL]], %{{.*}}[] : memref<f64>

// -----

// Where the body does not use the row, the rows of a compressed level only
// cut positions[0] .. positions[n] into pieces: one parallel loop over the
// entries (collapse_rows).

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#sum = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
func.func @sum(%a: tensor<?x?xf64, #CSR>, %s: tensor<f64>) -> tensor<f64> {
  %0 = linalg.generic #sum ins(%a : tensor<?x?xf64, #CSR>) outs(%s : tensor<f64>) {
  ^bb0(%av: f64, %acc: f64):
    %r = arith.addf %acc, %av : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  return %0 : tensor<f64>
}

// CHECK-LABEL: func.func @sum(
// CHECK-SAME:    %{{.*}}: tensor<?x?xf64, #{{.*}}>, %{{.*}}: tensor<f64>)
// CHECK:         %[[VALUES:.*]] = sparse_tensor.values
// CHECK:         %[[ROWS:.*]] = sparse_tensor.lvl %{{.*}}, %[[C0:[0-9a-z_]+]] :
// CHECK:         %[[POS:.*]] = sparse_tensor.positions
// CHECK:         %[[INIT:.*]] = memref.load %{{.*}}[] : memref<f64>
// CHECK:         %[[FIRST:.*]] = memref.load %[[POS]][%[[C0]]] : memref<?xindex>
// CHECK-NEXT:    %[[LAST:.*]] = memref.load %[[POS]][%[[ROWS]]] : memref<?xindex>
// CHECK-NEXT:    %[[TOTAL:.*]] = scf.parallel (%[[K:.*]]) = (%[[FIRST]]) to (%[[LAST]]) step (%{{.*}}) init (%[[INIT]]) -> f64 {
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant -0.000000e+00 : f64
// CHECK:           %[[V:.*]] = memref.load %[[VALUES]][%[[K]]] : memref<?xf64>
// CHECK-NEXT:      %[[PART:.*]] = arith.addf %[[ZERO]], %[[V]] : f64
// CHECK-NEXT:      scf.reduce(%[[PART]] : f64) {
// CHECK:         memref.store %[[TOTAL]], %{{.*}}[] : memref<f64>

// -----

// A bitwise or: the fold's identity is 0.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#prod = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
func.func @bits(%a: tensor<?x?xi32, #CSR>, %s: tensor<i32>) -> tensor<i32> {
  %0 = linalg.generic #prod ins(%a : tensor<?x?xi32, #CSR>) outs(%s : tensor<i32>) {
  ^bb0(%av: i32, %acc: i32):
    %r = arith.ori %av, %acc : i32
    linalg.yield %r : i32
  } -> tensor<i32>
  return %0 : tensor<i32>
}

// CHECK-LABEL: func.func @bits(
// CHECK:         scf.parallel
// CHECK-NEXT:      %{{.*}} = arith.constant 0 : i32
// CHECK:           arith.ori
// CHECK:           scf.reduce(%{{.*}} : i32) {
// CHECK:             arith.ori

// -----

// Not a fold (the value is also scaled): the loop stays sequential.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#t = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
func.func @not_a_fold(%a: tensor<?x?xf64, #CSR>, %s: tensor<f64>) -> tensor<f64> {
  %0 = linalg.generic #t ins(%a : tensor<?x?xf64, #CSR>) outs(%s : tensor<f64>) {
  ^bb0(%av: f64, %acc: f64):
    %twice = arith.addf %acc, %acc : f64
    %r = arith.addf %twice, %av : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  return %0 : tensor<f64>
}

// CHECK-LABEL: func.func @not_a_fold(
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for
