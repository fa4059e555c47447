// RUN: xsparse-opt %s --split-input-file -p sparsification | filecheck %s

// A sparse output that starts empty is built by insertion, in MLIR 22's form:
// the tensor is threaded through the loops, `tensor.insert` adds each entry in
// order and `sparse_tensor.load hasInserts` ends the insertions.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#trait = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @add(%a: tensor<8x8xf64, #CSR>, %b: tensor<8x8xf64, #CSR>) -> tensor<8x8xf64, #CSR> {
  %init = tensor.empty() : tensor<8x8xf64, #CSR>
  %r = linalg.generic #trait ins(%a, %b : tensor<8x8xf64, #CSR>, tensor<8x8xf64, #CSR>) outs(%init : tensor<8x8xf64, #CSR>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = arith.addf %x, %y : f64
    linalg.yield %s : f64
  } -> tensor<8x8xf64, #CSR>
  return %r : tensor<8x8xf64, #CSR>
}

// CHECK-LABEL: func.func @add
// CHECK:         %[[INIT:.*]] = bufferization.alloc_tensor() size_hint = %{{.*}} : tensor<8x8xf64, #sparse_tensor.encoding
// CHECK:         %[[ROWS:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T:.*]] = %[[INIT]])
// CHECK:           scf.while ({{.*}}, %{{.*}} = %[[T]]) : (index, index, tensor<8x8xf64,
// CHECK:             scf.if %{{.*}} -> (tensor<8x8xf64,
// CHECK:               %[[SUM:.*]] = arith.addf
// CHECK:               tensor.insert %[[SUM]] into %{{.*}}[%[[I]], %{{.*}}]
// CHECK:           scf.for {{.*}} iter_args({{.*}}) -> (tensor<8x8xf64,
// CHECK:             tensor.insert
// CHECK:           scf.for {{.*}} iter_args({{.*}}) -> (tensor<8x8xf64,
// CHECK:             tensor.insert
// CHECK:         %[[R:.*]] = sparse_tensor.load %[[ROWS]] hasInserts
// CHECK:         func.return %[[R]]

// -----

// A reduction into an inserted output inserts its result only where it saw an
// entry (an i1 carried with the sum, as MLIR does).

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#trait = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @row_sums(%a: tensor<8x8xf64, #CSR>) -> tensor<8xf64, #SV> {
  %init = tensor.empty() : tensor<8xf64, #SV>
  %r = linalg.generic #trait ins(%a : tensor<8x8xf64, #CSR>) outs(%init : tensor<8xf64, #SV>) {
  ^bb0(%x: f64, %o: f64):
    %m = arith.addf %o, %x : f64
    linalg.yield %m : f64
  } -> tensor<8xf64, #SV>
  return %r : tensor<8xf64, #SV>
}

// CHECK-LABEL: func.func @row_sums
// CHECK:         scf.for %[[I:.*]] = {{.*}} iter_args(%[[T:.*]] = %{{.*}}) -> (tensor<8xf64,
// CHECK:           %[[FALSE:.*]] = arith.constant false
// CHECK:           %[[SUM:.*]], %[[SEEN:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[FALSE]]) -> (f64, i1)
// CHECK:             arith.constant true
// CHECK:           scf.if %[[SEEN]] -> (tensor<8xf64,
// CHECK:             tensor.insert %[[SUM]] into %[[T]][%[[I]]]
// CHECK:         sparse_tensor.load {{.*}} hasInserts

// -----

// SpGEMM inserts out of order: the row goes through an expanded workspace
// (`sparse_tensor.expand`, allocated once before the loops), whose `compress`
// inserts the row's entries in order after the reduction over k.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#trait = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @spgemm(%a: tensor<8x8xf64, #CSR>, %b: tensor<8x8xf64, #CSR>) -> tensor<8x8xf64, #CSR> {
  %init = tensor.empty() : tensor<8x8xf64, #CSR>
  %r = linalg.generic #trait ins(%a, %b : tensor<8x8xf64, #CSR>, tensor<8x8xf64, #CSR>) outs(%init : tensor<8x8xf64, #CSR>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %o, %m : f64
    linalg.yield %s : f64
  } -> tensor<8x8xf64, #CSR>
  return %r : tensor<8x8xf64, #CSR>
}

// CHECK-LABEL: func.func @spgemm
// CHECK:         %[[VALUES:.*]], %[[FILLED:.*]], %[[ADDED:.*]], %[[COUNT:.*]] = sparse_tensor.expand
// CHECK:         scf.for %[[I:.*]] = {{.*}} iter_args(%[[T:.*]] = %{{.*}}) -> (tensor<8x8xf64,
// CHECK:           %[[N:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[COUNT]]) -> (index)
// CHECK:             scf.for {{.*}} -> (index)
// CHECK:               memref.load %[[FILLED]]
// CHECK:               scf.if %{{.*}} -> (index)
// CHECK:               memref.store %{{.*}}, %[[VALUES]]
// CHECK:           sparse_tensor.compress %[[VALUES]], %[[FILLED]], %[[ADDED]], %[[N]] into %[[T]][%[[I]]]
// CHECK:         memref.dealloc %[[VALUES]]
// CHECK:         sparse_tensor.load {{.*}} hasInserts
