// RUN: xsparse-opt %s --split-input-file -p "sparse-decompose-format{blocks=4}" | filecheck %s

// A BSR part of 4 x 4 blocks (MLIR's block-map encoding) and the remainder.
// The remainder goes through the sparsifier; the BSR SpMV reads the part's
// level buffers: per block row, four accumulators of four lanes, x loaded
// as a contiguous vector per block (no gather), summed into y's four rows.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#spmv = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @spmv(%a: tensor<?x?xf32, #CSR>, %x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %0 = linalg.generic #spmv ins(%a, %x : tensor<?x?xf32, #CSR>, tensor<?xf32>) outs(%y : tensor<?xf32>) {
  ^bb0(%av: f32, %xv: f32, %yv: f32):
    %m = arith.mulf %av, %xv : f32
    %s = arith.addf %yv, %m : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// CHECK-NOT:   @spmv_decompose
// CHECK-LABEL: func.func @spmv(
// CHECK-SAME:    %[[BSR:.*]]: tensor<?x?xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 4 : dense, d1 floordiv 4 : compressed, d0 mod 4 : dense, d1 mod 4 : dense) }>>,
// CHECK-SAME:    %[[REM:.*]]: tensor<?x?xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>,
// CHECK-NEXT:    %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[REM]], %x : {{.*}}) outs(%y : tensor<?xf32>)
// CHECK:         tensor.dim %[[BSR]]
// CHECK:         scf.if
// CHECK:         sparse_tensor.positions %[[BSR]] {level = 1 : index}
// CHECK-NEXT:    sparse_tensor.coordinates %[[BSR]] {level = 1 : index}
// CHECK-NEXT:    sparse_tensor.values %[[BSR]]
// CHECK:         scf.parallel
// CHECK:         scf.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK:           vector.load %{{.*}} : memref<?xf32>, vector<4xf32>
// CHECK-COUNT-4:   vector.fma
// CHECK-COUNT-4: vector.reduction <add>

// -----

// A kernel linear in A that is no product (y = d - d .* A, elementwise):
// the same op on each part, chained through outs, all through the
// sparsifier (`operand` names A's argument position).

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#ew = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @scaled(%a: tensor<8x8xf64, #CSR>, %d: tensor<8x8xf64>, %c: tensor<8x8xf64>) -> tensor<8x8xf64> {
  %0 = linalg.generic #ew ins(%d, %a : tensor<8x8xf64>, tensor<8x8xf64, #CSR>) outs(%c : tensor<8x8xf64>) {
  ^bb0(%dv: f64, %av: f64, %o: f64):
    %m = arith.mulf %dv, %av : f64
    %n = arith.negf %m : f64
    %s = arith.addf %o, %n : f64
    linalg.yield %s : f64
  } -> tensor<8x8xf64>
  return %0 : tensor<8x8xf64>
}

// CHECK-LABEL: func.func @scaled(
// CHECK-SAME:    %[[BSR:.*]]: tensor<8x8xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 4 : dense, d1 floordiv 4 : compressed, d0 mod 4 : dense, d1 mod 4 : dense) }>>,
// CHECK-SAME:    %[[REM:.*]]: tensor<8x8xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>,
// CHECK-SAME:    %d: tensor<8x8xf64>, %c: tensor<8x8xf64>) -> tensor<8x8xf64> {
// CHECK-NEXT:    %[[FIRST:.*]] = linalg.generic {{.*}} ins(%d, %[[REM]] : {{.*}}) outs(%c : tensor<8x8xf64>) {
// CHECK:         %[[SECOND:.*]] = linalg.generic {{.*}} ins(%d, %[[BSR]] : {{.*}}) outs(%[[FIRST]] : tensor<8x8xf64>) {
// CHECK:         func.return %[[SECOND]] : tensor<8x8xf64>
