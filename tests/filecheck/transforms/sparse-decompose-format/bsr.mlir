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

// The BSR split is two functions before the kernel: per block row, count
// the blocks to keep (and the entries left to the remainder), then fill.
// CHECK:       func.func @spmv_decompose_bsr4_count(%{{.*}}: tensor<?x?xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>, %{{.*}}: tensor<1xi64>, %{{.*}}: tensor<?xi64>, %{{.*}}: tensor<?xi64>) {
// CHECK:         scf.parallel
// CHECK:           scf.while
// CHECK:       func.func @spmv_decompose_bsr4_fill(%{{.*}}: tensor<?x?xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>, %{{.*}}: tensor<1xi64>, %{{.*}}: tensor<?xindex>, %{{.*}}: tensor<?xindex>, %{{.*}}: tensor<?xf32>, %{{.*}}: tensor<?xindex>, %{{.*}}: tensor<?xindex>, %{{.*}}: tensor<?xf32>) {
// CHECK:         scf.parallel
// CHECK:           scf.while
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

// -----

// SpMM on a BSR part of 4 x 4 blocks, register-blocked: per main tile of
// C's columns (4 vectors of 4 doubles) and pair of rows of the block row,
// 8 accumulators stay in registers over the row's blocks; per column %c of
// a block, B's row slice is loaded once (4 loads) for both rows (one
// broadcast and 4 FMAs each). C is loaded before the blocks and stored
// after them. Per block, the step prefetches its 256 bytes (4 lines of 8
// doubles, indexed from the slab's first row) of the
// B slab of the block at the same place in the next block row.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
#spmm = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @spmm(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64>, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.generic #spmm ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64>) outs(%c : tensor<?x?xf64>) {
  ^bb0(%av: f64, %bv: f64, %o: f64):
    %m = arith.mulf %av, %bv : f64
    %s = arith.addf %o, %m : f64
    linalg.yield %s : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}

// CHECK-LABEL: func.func @spmm(
// CHECK:         %[[VALS:.*]] = sparse_tensor.values %{{.*}} : tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 4 : dense
// CHECK:         scf.parallel
// CHECK:           %[[SIXTEEN:.*]] = arith.constant 16 : index
// CHECK-NEXT:      arith.remui %{{.*}}, %[[SIXTEEN]] : index
// CHECK-NEXT:      arith.subi
// CHECK-NEXT:      %[[STEP:.*]] = arith.constant 16 : index
// CHECK-NEXT:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[STEP]] {
// CHECK-COUNT-8:     vector.load %[[C:.*]][%{{.*}}, %{{.*}}] : memref<?x?xf64>, vector<4xf64>
// CHECK:             scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (vector<4xf64>, vector<4xf64>, vector<4xf64>, vector<4xf64>, vector<4xf64>, vector<4xf64>, vector<4xf64>, vector<4xf64>) {
// CHECK:                 %[[LATER:.*]] = arith.minui
// CHECK-NEXT:            %[[CRD:.*]] = memref.load %{{.*}}[%[[LATER]]] : memref<?xi32>
// CHECK-NEXT:            %[[COL:.*]] = arith.index_castui %[[CRD]] : i32 to index
// CHECK-NEXT:            %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-NEXT:            %[[SLAB:.*]] = arith.muli %[[COL]], %[[FOUR]] : index
// CHECK:                 %[[SHARE:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:            %[[L0:.*]] = arith.constant 0 : index
// CHECK-NEXT:            %[[AT0:.*]] = arith.addi %[[SHARE]], %[[L0]] : index
// CHECK-NEXT:            memref.prefetch %[[B:.*]][%[[SLAB]], %[[AT0]]], read, locality<3>, data : memref<?x?xf64>
// CHECK-NEXT:            %[[L1:.*]] = arith.constant 8 : index
// CHECK-NEXT:            %[[AT1:.*]] = arith.addi %[[SHARE]], %[[L1]] : index
// CHECK-NEXT:            memref.prefetch %[[B]][%[[SLAB]], %[[AT1]]], read, locality<3>, data : memref<?x?xf64>
// CHECK-NEXT:            %[[L2:.*]] = arith.constant 16 : index
// CHECK-NEXT:            %[[AT2:.*]] = arith.addi %[[SHARE]], %[[L2]] : index
// CHECK-NEXT:            memref.prefetch %[[B]][%[[SLAB]], %[[AT2]]], read, locality<3>, data : memref<?x?xf64>
// CHECK-NEXT:            %[[L3:.*]] = arith.constant 24 : index
// CHECK-NEXT:            %[[AT3:.*]] = arith.addi %[[SHARE]], %[[L3]] : index
// CHECK-NEXT:            memref.prefetch %[[B]][%[[SLAB]], %[[AT3]]], read, locality<3>, data : memref<?x?xf64>
// CHECK-NOT:             memref.prefetch
// CHECK:                 scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (vector<4xf64>, vector<4xf64>, vector<4xf64>, vector<4xf64>, vector<4xf64>, vector<4xf64>, vector<4xf64>, vector<4xf64>) {
// CHECK-COUNT-4:         vector.load %[[B]][%[[ROW:.*]], %{{.*}}] : memref<?x?xf64>, vector<4xf64>
// CHECK:                 memref.load %[[VALS_BUF:.*]][%{{.*}}] : memref<?xf64>
// CHECK-NEXT:            %[[A0:.*]] = vector.broadcast %{{.*}} : f64 to vector<4xf64>
// CHECK-COUNT-4:         vector.fma %[[A0]], %{{.*}}, %{{.*}} : vector<4xf64>
// CHECK-NEXT:            arith.addi
// CHECK-NEXT:            memref.load %[[VALS_BUF]][%{{.*}}] : memref<?xf64>
// CHECK-NEXT:            %[[A1:.*]] = vector.broadcast %{{.*}} : f64 to vector<4xf64>
// CHECK-COUNT-4:         vector.fma %[[A1]], %{{.*}}, %{{.*}} : vector<4xf64>
// CHECK-NEXT:            scf.yield
// CHECK-NOT:           vector.load %[[B]]
// CHECK:             scf.yield
// CHECK-NEXT:      }
// CHECK-COUNT-8:     vector.store %{{.*}}, %[[C]][%{{.*}}, %{{.*}}] : memref<?x?xf64>, vector<4xf64>
