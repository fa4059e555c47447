// RUN: xsparse-opt %s --split-input-file -p 'sparse-decompose-format{widths=2,8}' | filecheck %s

// hyb(1, [2, 8]): A becomes two ELL buckets (rows, cols, vals each) and
// the CSR remainder. The SpMV runs on the remainder through the sparsifier
// (outs: the kernel's y), then each bucket adds its rows on the result's
// buffer: a parallel loop over blocks of bucket rows, each row's W slots as
// vectors of 4 lanes (W = 8: a constant 2 of them), gathered from x with an
// all-true mask and summed into y[row].

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#spmv = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @spmv(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #spmv ins(%a, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// CHECK-LABEL: func.func @spmv_decompose(
// CHECK-SAME:    tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>, %{{.*}}: tensor<?x?xi64>,
// CHECK-SAME:    tensor<?xi32>, %{{.*}}: tensor<?x2xi32>, %{{.*}}: tensor<?x2xf64>,
// CHECK-SAME:    tensor<?xi32>, %{{.*}}: tensor<?x8xi32>, %{{.*}}: tensor<?x8xf64>,
// CHECK-SAME:    tensor<?xindex>, %{{.*}}: tensor<?xindex>, %{{.*}}: tensor<?xf64>) {
// CHECK:         sparse_tensor.coordinates %{{.*}} {level = 1 : index}
// CHECK:         sparse_tensor.values
// CHECK:         scf.parallel
// CHECK:         scf.parallel
// CHECK:         scf.parallel
// CHECK:         func.return

// CHECK-LABEL: func.func @spmv(
// CHECK-SAME:    %[[ROWS2:.*]]: tensor<?xi32>, %[[COLS2:.*]]: tensor<?x2xi32>, %[[VALS2:.*]]: tensor<?x2xf64>,
// CHECK-SAME:    %[[ROWS8:.*]]: tensor<?xi32>, %[[COLS8:.*]]: tensor<?x8xi32>, %[[VALS8:.*]]: tensor<?x8xf64>,
// CHECK-SAME:    %[[REM:.*]]: tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>,
// CHECK-SAME:    %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {
// CHECK-NEXT:    %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[REM]], %x : {{.*}}) outs(%y : tensor<?xf64>)
// CHECK:         %[[X:.*]] = bufferization.to_buffer %x
// CHECK-NEXT:    %[[Y:.*]] = bufferization.to_buffer %[[SUM]]
// CHECK-NEXT:    bufferization.to_buffer %[[ROWS2]]
// CHECK:         %[[VALS8_BUFFER:.*]] = bufferization.to_buffer %[[VALS8]]
// CHECK:         scf.if %{{.*}} {
// CHECK:         scf.parallel
// CHECK:         vector.load %{{.*}} : memref<?x2xf64>, vector<2xf64>
// CHECK:         vector.gather %[[X]]
// CHECK:         vector.reduction <add>, %{{.*}} fastmath<reassoc> : vector<2xf64> into f64
// CHECK:         scf.parallel
// CHECK:         vector.broadcast %{{.*}} : f64 to vector<4xf64>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[CHUNKS:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %{{.*}} = %[[ZERO]] to %[[CHUNKS]] step %[[ONE]] iter_args({{.*}}) -> (vector<4xf64>)
// CHECK:           vector.load %[[VALS8_BUFFER]]{{.*}} : memref<?x8xf64>, vector<4xf64>
// CHECK:           %[[MASK:.*]] = vector.broadcast %{{.*}} : i1 to vector<4xi1>
// CHECK:           vector.gather %[[X]][%{{.*}}] [%{{.*}}], %[[MASK]]
// CHECK:         vector.reduction <add>
// CHECK:         } else {
// CHECK-COUNT-2:   func.call @xsparse_runtime_error
// CHECK:         %[[RESULT:.*]] = bufferization.to_tensor %[[Y]]
// CHECK-NEXT:    func.return %[[RESULT]] : tensor<?xf64>

// -----

// hyb SpMM (a named linalg.matmul): a bucket row accumulates each tile of
// 16 columns of C in four vectors over its W = 2 slots (a constant trip
// count), then single vectors, then scalars for the columns left. The CSR
// remainder's SpMM is the same loop nest over each row's entries, 16 at a
// time, on the remainder's level buffers. Every part's shapes are checked
// first: the loops run in one branch of an scf.if, the reports in the other.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64>, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64>) outs(%c : tensor<?x?xf64>) -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}

// CHECK-LABEL: func.func @spmm(
// CHECK-SAME:    %[[REM:[0-9]+]]: tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>, %b: tensor<?x?xf64>, %c: tensor<?x?xf64>)
// CHECK-NOT:     linalg.matmul
// CHECK:         %[[B:.*]] = bufferization.to_buffer %b
// CHECK-NEXT:    %[[C:.*]] = bufferization.to_buffer %c
// CHECK:         tensor.dim %[[REM]]
// CHECK:         scf.if %{{.*}} {
// CHECK:         scf.parallel
// CHECK:         arith.constant 16 : index
// CHECK:         %[[TILE:.*]] = arith.constant 16 : index
// CHECK-NEXT:    scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[TILE]] {
// CHECK-COUNT-4:   vector.load %[[C]]
// CHECK:           %[[W:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      scf.for %{{.*}} = %{{.*}} to %[[W]] step %[[ONE]] iter_args({{.*}}) -> (vector<4xf64>, vector<4xf64>, vector<4xf64>, vector<4xf64>)
// CHECK-COUNT-4:     vector.fma
// CHECK:         scf.for
// CHECK:           vector.fma
// CHECK:         scf.for
// CHECK:           arith.mulf
// CHECK-NEXT:      arith.addf
// CHECK:         sparse_tensor.positions %[[REM]] {level = 1 : index}
// CHECK-NEXT:    sparse_tensor.coordinates %[[REM]] {level = 1 : index}
// CHECK-NEXT:    sparse_tensor.values %[[REM]]
// CHECK:         scf.parallel
// CHECK:         %[[CHUNK:.*]] = arith.constant 16 : index
// CHECK-NEXT:    scf.for %[[P0:.*]] = %{{.*}} to %[[LAST:.*]] step %[[CHUNK]] {
// CHECK-NEXT:      %[[P1:.*]] = arith.addi %[[P0]], %[[CHUNK]] : index
// CHECK-NEXT:      arith.minui %[[P1]], %[[LAST]] : index
// CHECK:           vector.fma
// CHECK:         } else {
// CHECK-COUNT-3:   func.call @xsparse_runtime_error
// CHECK:         %[[RESULT:.*]] = bufferization.to_tensor %[[C]]
// CHECK-NEXT:    func.return %[[RESULT]] : tensor<?x?xf64>
