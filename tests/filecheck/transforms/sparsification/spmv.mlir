// RUN: xsparse-opt %s --split-input-file -p sparsification | filecheck %s
// RUN: xsparse-opt %s --split-input-file -p 'sparsification{sparse-emit-strategy=sparse-iterator}' | filecheck %s --check-prefix=ITER

// CSR SpMV: a dense outer loop, a compressed inner loop carrying the
// reduction, and the row's result stored after it (MLIR 22's shape).

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

// CHECK-LABEL: func.func @spmv
// CHECK:         %[[Y:.*]] = bufferization.to_buffer %y
// CHECK:         %[[VALS:.*]] = sparse_tensor.values %a
// CHECK:         %[[X:.*]] = bufferization.to_buffer %x
// CHECK:         %[[ROWS:.*]] = sparse_tensor.lvl %a, %{{.*}}
// CHECK:         %[[POS:.*]] = sparse_tensor.positions %a {level = 1 : index}
// CHECK:         %[[CRD:.*]] = sparse_tensor.coordinates %a {level = 1 : index}
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[ROWS]] step %{{.*}} {
// CHECK:           %[[INIT:.*]] = memref.load %[[Y]][%[[I]]] : memref<?xf64>
// CHECK:           %[[LO:.*]] = memref.load %[[POS]][%[[I]]] : memref<?xindex>
// CHECK:           %[[HI:.*]] = memref.load %[[POS]][%{{.*}}] : memref<?xindex>
// CHECK:           %[[SUM:.*]] = scf.for %[[P:.*]] = %[[LO]] to %[[HI]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f64) {
// CHECK:             %[[J:.*]] = memref.load %[[CRD]][%[[P]]] : memref<?xindex>
// CHECK:             %[[AV:.*]] = memref.load %[[VALS]][%[[P]]] : memref<?xf64>
// CHECK:             %[[XV:.*]] = memref.load %[[X]][%[[J]]] : memref<?xf64>
// CHECK:             %[[M:.*]] = arith.mulf %[[AV]], %[[XV]] : f64
// CHECK:             %[[S:.*]] = arith.addf %[[ACC]], %[[M]] : f64
// CHECK:             scf.yield %[[S]] : f64
// CHECK:           } {"Emitted from" = "linalg.generic"}
// CHECK:           memref.store %[[SUM]], %[[Y]][%[[I]]] : memref<?xf64>
// CHECK:         } {"Emitted from" = "linalg.generic"}
// CHECK:         %[[R:.*]] = bufferization.to_tensor %[[Y]]
// CHECK:         func.return %[[R]]

// ITER-LABEL: func.func @spmv
// ITER:         %[[ROWS:.*]] = indexing.range %{{.*}} to %{{.*}} : !indexing.set
// ITER:         indexing.foreach %[[ROWS]] : !indexing.set attributes {"Emitted from" = "linalg.generic"}
// ITER:         case %{{.*}} at(%[[I:.*]]) {
// ITER:           %[[COLS:.*]] = indexing.stored %{{.*}}[%{{.*}} to %{{.*}}] : memref<?xindex> -> !indexing.set
// ITER:           %[[SUM:.*]] = indexing.foreach %[[COLS]] iter_args(%{{.*}}) : !indexing.set -> (f64)
// ITER:             indexing.yield %{{.*}} : f64
// ITER:           memref.store %[[SUM]], %{{.*}}[%[[I]]] : memref<?xf64>
// ITER:           indexing.yield

// -----

// Transposed SpMV on CSR: the reduction loop is outer (rows of A), so the
// output is scattered without iter_args.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#spmvt = {indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (i)>, affine_map<(j, i) -> (j)>], iterator_types = ["parallel", "reduction"]}
func.func @spmv_transposed(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #spmvt ins(%a, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// CHECK-LABEL: func.func @spmv_transposed
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[XV:.*]] = memref.load %{{.*}}[%[[I]]] : memref<?xf64>
// CHECK:           scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             %[[J:.*]] = memref.load %{{.*}}[%[[P]]] : memref<?xindex>
// CHECK:             %[[OLD:.*]] = memref.load %{{.*}}[%[[J]]] : memref<?xf64>
// CHECK:             %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} : f64
// CHECK:             memref.store %[[NEW]], %{{.*}}[%[[J]]] : memref<?xf64>
// CHECK-NOT:         iter_args
