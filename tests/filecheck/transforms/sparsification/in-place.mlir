// RUN: xsparse-opt %s -p sparsification | filecheck %s

// A sparse output with its input's sparsity is updated in place (MLIR 22's
// shape: values loaded and stored at the output's positions, no coordinates
// needed, the result is `sparse_tensor.load` of the tensor itself).

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#scale = {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @scale(%a: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSR> {
  %c = arith.constant 2.0 : f64
  %0 = linalg.generic #scale outs(%a : tensor<?x?xf64, #CSR>) {
  ^bb0(%x: f64):
    %m = arith.mulf %x, %c : f64
    linalg.yield %m : f64
  } -> tensor<?x?xf64, #CSR>
  return %0 : tensor<?x?xf64, #CSR>
}

// CHECK-LABEL: func.func @scale
// CHECK:         %[[VALUES:.*]] = sparse_tensor.values %a
// CHECK-NOT:     sparse_tensor.coordinates
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[X:.*]] = memref.load %[[VALUES]][%[[P]]] : memref<?xf64>
// CHECK-NEXT:        %[[M:.*]] = arith.mulf %[[X]], %c : f64
// CHECK-NEXT:        memref.store %[[M]], %[[VALUES]][%[[P]]] : memref<?xf64>
// CHECK:         %[[R:.*]] = sparse_tensor.load %a : tensor<?x?xf64
// CHECK:         func.return %[[R]]
