// RUN: xsparse-opt %s --split-input-file -p sparse-reinterpret-map | filecheck %s

// BSR SpMV: the generic iterates the four levels of A; x and y are indexed by
// the level-to-dimension expressions (as MLIR 22's sparse-reinterpret-map).

#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
#spmv = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @bsr(%a: tensor<?x?xf64, #BSR>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #spmv ins(%a, %x : tensor<?x?xf64, #BSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// CHECK-LABEL: func.func @bsr
// CHECK:         %[[DEMAPPED:.*]] = sparse_tensor.reinterpret_map %a : tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 2 : dense, d1 floordiv 2 : compressed, d0 mod 2 : dense, d1 mod 2 : dense) }>> to tensor<?x?x2x2xf64, #sparse_tensor.encoding<{ map = (d0, d1, d2, d3) -> (d0 : dense, d1 : compressed, d2 : dense, d3 : dense) }>>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (((d1 * 2) + d3))>, affine_map<(d0, d1, d2, d3) -> (((d0 * 2) + d2))>], iterator_types = ["parallel", "reduction", "parallel", "reduction"]} ins(%[[DEMAPPED]], %x

// -----

// 2:4 structured sparsity: three levels, the last one structured[2, 4].

#NV24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
#spmv = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @nv24(%a: tensor<?x?xf64, #NV24>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #spmv ins(%a, %x : tensor<?x?xf64, #NV24>, tensor<?xf64>) outs(%y : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// CHECK-LABEL: func.func @nv24
// CHECK:         sparse_tensor.reinterpret_map %a : {{.*}} to tensor<?x?x4xf64, #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : dense, d1 : dense, d2 : structured[2, 4]) }>>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (((d1 * 4) + d2))>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}

// -----

// Two BSR operands with the same blocks and indexing, into a BSR result that
// starts empty: both inputs are reinterpreted, the output starts empty in
// block space (its level sizes from the dimension sizes), and the result is
// reinterpreted back to BSR.

#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
#add = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @bsr_add(%a: tensor<?x8xf64, #BSR>, %b: tensor<?x8xf64, #BSR>, %n: index) -> tensor<?x8xf64, #BSR> {
  %init = tensor.empty(%n) : tensor<?x8xf64, #BSR>
  %0 = linalg.generic #add ins(%a, %b : tensor<?x8xf64, #BSR>, tensor<?x8xf64, #BSR>) outs(%init : tensor<?x8xf64, #BSR>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = arith.addf %x, %y : f64
    linalg.yield %s : f64
  } -> tensor<?x8xf64, #BSR>
  return %0 : tensor<?x8xf64, #BSR>
}

// CHECK-LABEL: func.func @bsr_add
// CHECK-SAME:    (%[[A:.*]]: tensor<?x8xf64, {{.*}}>, %[[B:.*]]: tensor<?x8xf64, {{.*}}>, %[[N:.*]]: index)
// CHECK:         %[[AL:.*]] = sparse_tensor.reinterpret_map %[[A]] : tensor<?x8xf64, {{.*}}> to tensor<?x4x2x2xf64, #sparse_tensor.encoding<{ map = (d0, d1, d2, d3) -> (d0 : dense, d1 : compressed, d2 : dense, d3 : dense) }>>
// CHECK:         %[[BL:.*]] = sparse_tensor.reinterpret_map %[[B]]
// CHECK:         %[[TWO:.*]] = arith.constant 2 : index
// CHECK:         %[[ROWS:.*]] = arith.divui %[[N]], %[[TWO]] : index
// CHECK:         %[[INIT:.*]] = tensor.empty(%[[ROWS]]) : tensor<?x4x2x2xf64
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[AL]], %[[BL]] : {{.*}}) outs(%[[INIT]] : {{.*}})
// CHECK:         %[[BACK:.*]] = sparse_tensor.reinterpret_map %[[R]] : tensor<?x4x2x2xf64, {{.*}}> to tensor<?x8xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 2 : dense, d1 floordiv 2 : compressed, d0 mod 2 : dense, d1 mod 2 : dense) }>>
// CHECK:         func.return %[[BACK]]

// -----

// 2:4 SpMM: A does not index loop j (B's and C's columns). The new loops are
// A's three levels, then j (mlir-opt-22 --sparse-reinterpret-map gives the
// same maps and iterators).

#NV24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
#spmm = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @nv24_spmm(%a: tensor<?x?xf64, #NV24>, %b: tensor<?x?xf64>, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.generic #spmm ins(%a, %b : tensor<?x?xf64, #NV24>, tensor<?x?xf64>) outs(%c : tensor<?x?xf64>) {
  ^bb0(%av: f64, %bv: f64, %cv: f64):
    %m = arith.mulf %av, %bv : f64
    %s = arith.addf %cv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}

// CHECK-LABEL: func.func @nv24_spmm
// CHECK:         %[[DEMAPPED:.*]] = sparse_tensor.reinterpret_map %a : {{.*}} to tensor<?x?x4xf64, #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : dense, d1 : dense, d2 : structured[2, 4]) }>>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (((d1 * 4) + d2), d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>], iterator_types = ["parallel", "reduction", "reduction", "parallel"]} ins(%[[DEMAPPED]], %b
