// Dense innermost loops, as MLIR 22 decides them (`--sparse-reinterpret-map
// --sparsification --sparse-vectorization`): the dense operand read or
// written at the loop index is a contiguous vector access, `vector.load` /
// `vector.store` when vl divides the static trip count (the all-true mask
// folds away), else `vector.maskedload` / `vector.maskedstore` under
// `create_mask`. The BOTH checks run on either tool's output.
// RUN: xsparse-opt %s -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | filecheck %s --check-prefix=BOTH
// RUN: %if mlir-opt %{ %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %s | filecheck %s --check-prefix=BOTH %}

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#CD = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : dense) }>
#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
#outer = {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
#rows = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
#spmv = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}

// y(i, j) = a(i) * x(j): x[j] and y[i][j] at the dense loop's index, 32 a
// multiple of 8.
// BOTH-LABEL: func.func @outer_static(
// BOTH:         scf.for
// BOTH:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// BOTH-NEXT:        %[[A:.*]] = vector.broadcast %{{.*}} : f64 to vector<8xf64>
// BOTH-NEXT:        %[[X:.*]] = vector.load %{{.*}}[%[[J]]] : memref<32xf64>, vector<8xf64>
// BOTH-NEXT:        %[[M:.*]] = arith.mulf %[[A]], %[[X]] : vector<8xf64>
// BOTH-NEXT:        vector.store %[[M]], %{{.*}}[%{{.*}}, %[[J]]] : memref<64x32xf64>, vector<8xf64>
// BOTH-NEXT:      } {"Emitted from" = "linalg.generic"}
func.func @outer_static(%a: tensor<64xf64, #SV>, %x: tensor<32xf64>, %y: tensor<64x32xf64>) -> tensor<64x32xf64> {
  %0 = linalg.generic #outer ins(%a, %x : tensor<64xf64, #SV>, tensor<32xf64>) outs(%y : tensor<64x32xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    linalg.yield %m : f64
  } -> tensor<64x32xf64>
  return %0 : tensor<64x32xf64>
}

// The same with dynamic sizes: masked accesses.
// BOTH-LABEL: func.func @outer_dynamic(
// BOTH:         scf.for
// BOTH:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// BOTH:             %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<8xi1>
// BOTH:             vector.maskedload %{{.*}}[%[[J]]], %[[MASK]], %{{.*}} : memref<?xf64>, vector<8xi1>, vector<8xf64> into vector<8xf64>
// BOTH:             arith.mulf %{{.*}}, %{{.*}} : vector<8xf64>
// BOTH:             vector.maskedstore %{{.*}}[%{{.*}}, %[[J]]], %[[MASK]], %{{.*}} : memref<?x?xf64>, vector<8xi1>, vector<8xf64>
// BOTH-NEXT:      } {"Emitted from" = "linalg.generic"}
func.func @outer_dynamic(%a: tensor<?xf64, #SV>, %x: tensor<?xf64>, %y: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.generic #outer ins(%a, %x : tensor<?xf64, #SV>, tensor<?xf64>) outs(%y : tensor<?x?xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    linalg.yield %m : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}

// Row sums of a (compressed, dense) matrix: the dense level's values at
// `p * 32 + j`, its offset computed in front of the loop; a reduction loop
// over contiguous vectors, no mask and no select.
// BOTH-LABEL: func.func @row_sums(
// BOTH:         scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// BOTH-DAG:       %[[INIT:.*]] = vector.insert %{{.*}}, %{{.*}} [0] : f32 into vector<8xf32>
// BOTH-DAG:       %[[OFF:.*]] = arith.muli %[[P]], %{{.*}} : index
// BOTH:           %[[SUM:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<8xf32>) {
// BOTH-NEXT:        %[[K:.*]] = arith.addi %[[OFF]], %[[J]] : index
// BOTH-NEXT:        %[[V:.*]] = vector.load %{{.*}}[%[[K]]] : memref<?xf32>, vector<8xf32>
// BOTH-NEXT:        %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : vector<8xf32>
// BOTH-NEXT:        scf.yield %[[S]] : vector<8xf32>
// BOTH-NEXT:      } {"Emitted from" = "linalg.generic"}
// BOTH-NEXT:      vector.reduction <add>, %[[SUM]] : vector<8xf32> into f32
func.func @row_sums(%a: tensor<16x32xf32, #CD>, %y: tensor<16xf32>) -> tensor<16xf32> {
  %0 = linalg.generic #rows ins(%a : tensor<16x32xf32, #CD>) outs(%y : tensor<16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %r = arith.addf %o, %p : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// BSR: the dense block loops read x at `crd * 2 + j`, a subscript computed
// in the loop body (not invariant): neither tool vectorizes them.
// BOTH-LABEL: func.func @spmv_bsr(
// BOTH-NOT:     vector.
// BOTH:         return
func.func @spmv_bsr(%a: tensor<?x?xf64, #BSR>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #spmv ins(%a, %x : tensor<?x?xf64, #BSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}
