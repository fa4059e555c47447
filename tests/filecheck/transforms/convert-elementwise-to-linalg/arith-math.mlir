// RUN: xsparse-opt %s -p convert-elementwise-to-linalg | filecheck %s

// arith and math ops on ranked tensors -> linalg.generic with identity maps
// and parallel iterators; outs is the first operand of the result's type, else
// a tensor.empty sized as the first operand. Scalars and constants stay.

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

func.func @ops(%a: tensor<?x3xf64>, %b: tensor<?x3xf64>, %s: tensor<8xf32, #SV>, %x: f64) -> (tensor<?x3xf64>, tensor<?x3xi1>, tensor<8xf32, #SV>, f64) {
  %0 = arith.addf %a, %b : tensor<?x3xf64>
  %1 = arith.cmpf olt, %0, %b : tensor<?x3xf64>
  %2 = math.tanh %s : tensor<8xf32, #SV>
  %3 = arith.mulf %x, %x : f64
  return %0, %1, %2, %3 : tensor<?x3xf64>, tensor<?x3xi1>, tensor<8xf32, #SV>, f64
}

// CHECK-LABEL: func.func @ops(
// CHECK-SAME:    %[[A:.*]]: tensor<?x3xf64>, %[[B:.*]]: tensor<?x3xf64>, %[[S:.*]]: tensor<8xf32, #sparse_tensor.encoding<{{.*}}>>, %[[X:.*]]: f64)
// CHECK-NEXT:    %[[SUM:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]] : tensor<?x3xf64>, tensor<?x3xf64>) outs(%[[A]] : tensor<?x3xf64>) {
// CHECK-NEXT:    ^{{.*}}(%[[E0:.*]]: f64, %[[E1:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT:      %[[R:.*]] = arith.addf %[[E0]], %[[E1]] : f64
// CHECK-NEXT:      linalg.yield %[[R]] : f64
// CHECK-NEXT:    } -> tensor<?x3xf64>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:.*]] = tensor.dim %[[SUM]], %[[ZERO]] : tensor<?x3xf64>
// CHECK-NEXT:    %[[EMPTY:.*]] = tensor.empty(%[[N]]) : tensor<?x3xi1>
// CHECK-NEXT:    %[[LESS:.*]] = linalg.generic {{.*}} ins(%[[SUM]], %[[B]] : tensor<?x3xf64>, tensor<?x3xf64>) outs(%[[EMPTY]] : tensor<?x3xi1>) {
// CHECK-NEXT:    ^{{.*}}(%[[E0:.*]]: f64, %[[E1:.*]]: f64, %{{.*}}: i1):
// CHECK-NEXT:      %[[R:.*]] = arith.cmpf olt, %[[E0]], %[[E1]] : f64
// CHECK-NEXT:      linalg.yield %[[R]] : i1
// CHECK-NEXT:    } -> tensor<?x3xi1>
// CHECK-NEXT:    %[[TANH:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[S]] : {{.*}}) outs(%[[S]] : {{.*}}) {
// CHECK-NEXT:    ^{{.*}}(%[[E0:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[R:.*]] = math.tanh %[[E0]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
// CHECK-NEXT:    } -> tensor<8xf32, #sparse_tensor.encoding<{{.*}}>>
// CHECK-NEXT:    %[[PRODUCT:.*]] = arith.mulf %[[X]], %[[X]] : f64
// CHECK-NEXT:    func.return %[[SUM]], %[[LESS]], %[[TANH]], %[[PRODUCT]]
