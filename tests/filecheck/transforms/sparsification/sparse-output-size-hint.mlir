// RUN: xsparse-opt %s --split-input-file -p sparsification | filecheck %s

// An empty sparse output filled in order gets a `size_hint` bounding its
// entries by its sparse inputs' (xsparse's addition to MLIR 22's sparsifier):
// the sum of the inputs' entries for a union, the least for an intersection,
// capped by the output's linear size and at least 1.

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#trait = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @union(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>, %n: index) -> tensor<?xf64, #SV> {
  %init = tensor.empty(%n) : tensor<?xf64, #SV>
  %r = linalg.generic #trait ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%init : tensor<?xf64, #SV>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = arith.addf %x, %y : f64
    linalg.yield %s : f64
  } -> tensor<?xf64, #SV>
  return %r : tensor<?xf64, #SV>
}

// CHECK-LABEL: func.func @union
// CHECK-SAME:    (%[[A:.*]]: tensor<?xf64, {{.*}}>, %[[B:.*]]: tensor<?xf64, {{.*}}>, %[[N:.*]]: index)
// CHECK-NOT:     tensor.empty
// CHECK:         %[[NA:.*]] = sparse_tensor.number_of_entries %[[A]]
// CHECK:         %[[NB:.*]] = sparse_tensor.number_of_entries %[[B]]
// CHECK:         %[[BOUND:.*]] = arith.addi %[[NA]], %[[NB]] : index
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         %[[ROOM:.*]] = arith.divui %[[BOUND]], %{{.*}} : index
// CHECK:         %[[FITS:.*]] = arith.cmpi ule, %{{.*}}, %[[ROOM]] : index
// CHECK:         %[[LINEAR:.*]] = arith.select %[[FITS]], %{{.*}}, %[[BOUND]] : index
// CHECK:         %[[CAPPED:.*]] = arith.minui %[[LINEAR]], %[[BOUND]] : index
// CHECK:         %[[HINT:.*]] = arith.maxui %[[CAPPED]], %[[ONE]] : index
// CHECK:         %[[INIT:.*]] = bufferization.alloc_tensor(%[[N]]) size_hint = %[[HINT]]
// CHECK:         scf.while ({{.*}} = %[[INIT]]

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
#trait = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @intersection(%a: tensor<8x8xf64, #CSR>, %b: tensor<8x8xf64, #DCSR>) -> tensor<8x8xf64, #DCSR> {
  %init = tensor.empty() : tensor<8x8xf64, #DCSR>
  %r = linalg.generic #trait ins(%a, %b : tensor<8x8xf64, #CSR>, tensor<8x8xf64, #DCSR>) outs(%init : tensor<8x8xf64, #DCSR>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = arith.mulf %x, %y : f64
    linalg.yield %s : f64
  } -> tensor<8x8xf64, #DCSR>
  return %r : tensor<8x8xf64, #DCSR>
}

// CHECK-LABEL: func.func @intersection
// CHECK:         %[[NA:.*]] = sparse_tensor.number_of_entries %{{.*}} : tensor<8x8xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
// CHECK:         %[[NB:.*]] = sparse_tensor.number_of_entries %{{.*}} : tensor<8x8xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed, d1 : compressed) }>>
// CHECK:         %[[BOUND:.*]] = arith.minui %[[NA]], %[[NB]] : index
// CHECK:         %[[SIZE:.*]] = arith.constant 64 : index
// CHECK:         %[[CAPPED:.*]] = arith.minui %[[SIZE]], %[[BOUND]] : index
// CHECK:         %[[HINT:.*]] = arith.maxui %[[CAPPED]], %{{.*}} : index
// CHECK:         bufferization.alloc_tensor() size_hint = %[[HINT]]

// -----

// A dense input can give an entry anywhere, and so can a value where every
// input is absent: no hint.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#trait = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @dense_input(%a: tensor<8x8xf64, #CSR>, %d: tensor<8x8xf64>) -> tensor<8x8xf64, #CSR> {
  %init = tensor.empty() : tensor<8x8xf64, #CSR>
  %r = linalg.generic #trait ins(%a, %d : tensor<8x8xf64, #CSR>, tensor<8x8xf64>) outs(%init : tensor<8x8xf64, #CSR>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = arith.addf %x, %y : f64
    linalg.yield %s : f64
  } -> tensor<8x8xf64, #CSR>
  return %r : tensor<8x8xf64, #CSR>
}

// CHECK-LABEL: func.func @dense_input
// CHECK-NOT:     number_of_entries
// CHECK:         tensor.empty() : tensor<8x8xf64
// CHECK-NOT:     size_hint
// CHECK:         sparse_tensor.load {{.*}} hasInserts

// -----

// A dense input multiplied by a sparse one keeps the sparse input's bound.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#trait = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @masked(%a: tensor<8x8xf64, #CSR>, %d: tensor<8x8xf64>) -> tensor<8x8xf64, #CSR> {
  %init = tensor.empty() : tensor<8x8xf64, #CSR>
  %r = linalg.generic #trait ins(%a, %d : tensor<8x8xf64, #CSR>, tensor<8x8xf64>) outs(%init : tensor<8x8xf64, #CSR>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = arith.mulf %x, %y : f64
    linalg.yield %s : f64
  } -> tensor<8x8xf64, #CSR>
  return %r : tensor<8x8xf64, #CSR>
}

// CHECK-LABEL: func.func @masked
// CHECK:         %[[NA:.*]] = sparse_tensor.number_of_entries
// CHECK:         arith.minui %{{.*}}, %[[NA]] : index
// CHECK:         bufferization.alloc_tensor() size_hint =

// -----

// Out-of-order insertion (SpGEMM, through an expanded workspace): the bound
// is the number of products, one pass over A's entries adding the lengths of
// the rows of B they meet (capped at 2^27), marked as xsparse's own loop.

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
// CHECK-SAME:    (%[[A:.*]]: tensor<8x8xf64, {{.*}}>, %[[B:.*]]: tensor<8x8xf64, {{.*}}>)
// CHECK:         %[[CRD:.*]] = sparse_tensor.coordinates %[[A]] {level = 1 : index}
// CHECK:         %[[POS:.*]] = sparse_tensor.positions %[[B]] {level = 1 : index}
// CHECK:         %[[NA:.*]] = sparse_tensor.number_of_entries %[[A]]
// CHECK:         %[[PRODUCTS:.*]] = scf.for %[[P:.*]] = %{{.*}} to %[[NA]] step %{{.*}} iter_args(%[[SUM:.*]] = %{{.*}}) -> (index) {
// CHECK:           %[[K:.*]] = memref.load %[[CRD]][%[[P]]]
// CHECK:           %[[LO:.*]] = memref.load %[[POS]][%[[K]]]
// CHECK:           %[[HI:.*]] = memref.load %[[POS]][%{{.*}}]
// CHECK:           %[[ROW:.*]] = arith.subi %[[HI]], %[[LO]] : index
// CHECK:           %[[MORE:.*]] = arith.addi %[[SUM]], %[[ROW]] : index
// CHECK:           scf.yield %[[MORE]] : index
// CHECK:         } {xsparse.size_hint}
// CHECK:         %[[CAP:.*]] = arith.constant 134217728 : index
// CHECK:         %[[BOUND:.*]] = arith.minui %[[PRODUCTS]], %[[CAP]] : index
// CHECK:         bufferization.alloc_tensor() size_hint = %{{.*}}
// CHECK:         sparse_tensor.expand
// CHECK:         sparse_tensor.compress
