// RUN: xsparse-opt --split-input-file %s -p sparse-tensor-codegen | filecheck %s

// Sparse tensors as values: arguments, call operands and results and returned
// values all become the storage fields (positions, coordinates, values, level
// sizes); `sparse_tensor.lvl` of a call result is the returned size.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

func.func @identity(%a: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSR> {
  return %a : tensor<?x?xf64, #CSR>
}

func.func @caller(%a: tensor<?x?xf64, #CSR>) -> index {
  %b = func.call @identity(%a) : (tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSR>
  %c0 = arith.constant 0 : index
  %n = sparse_tensor.lvl %b, %c0 : tensor<?x?xf64, #CSR>
  return %n : index
}

// CHECK-LABEL: func.func @identity(
// CHECK-SAME:    %[[P:.*]]: memref<?xindex>, %[[C:.*]]: memref<?xindex>, %[[V:.*]]: memref<?xf64>, %[[S0:.*]]: index, %[[S1:.*]]: index) -> (memref<?xindex>, memref<?xindex>, memref<?xf64>, index, index) {
// CHECK-NEXT:    func.return %[[P]], %[[C]], %[[V]], %[[S0]], %[[S1]]
// CHECK-LABEL: func.func @caller(
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}}, %[[N:.*]], %{{.*}} = func.call @identity(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<?xindex>, memref<?xindex>, memref<?xf64>, index, index) -> (memref<?xindex>, memref<?xindex>, memref<?xf64>, index, index)
// CHECK-NEXT:    func.return %[[N]] : index

// -----

// A sparse tensor converted from a dense constant: its buffers are computed at
// compile time, kept in constant globals and copied into fresh buffers (index
// data is held as i64 in the global); the dense constant itself is gone.

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), posWidth = 32 }>

func.func @from_constant() -> tensor<4xf64, #SV> {
  %d = arith.constant dense<[0.0, 2.0, 0.0, 3.0]> : tensor<4xf64>
  %s = sparse_tensor.convert %d : tensor<4xf64> to tensor<4xf64, #SV>
  return %s : tensor<4xf64, #SV>
}

// CHECK-NOT:     memref<4xf64>
// CHECK-DAG:     "memref.global"() <{sym_name = "[[VALS:__xsparse_values_.*]]", type = memref<2xf64>, initial_value = dense<[2.000000e+00, 3.000000e+00]> : tensor<2xf64>, sym_visibility = "private", constant}>
// CHECK-DAG:     "memref.global"() <{sym_name = "[[CRDS:__xsparse_coordinates_.*]]", type = memref<2xi64>, initial_value = dense<[1, 3]> : tensor<2xi64>, sym_visibility = "private", constant}>
// CHECK-DAG:     "memref.global"() <{sym_name = "[[POS:__xsparse_positions_.*]]", type = memref<2xi32>, initial_value = dense<[0, 2]> : tensor<2xi32>, sym_visibility = "private", constant}>
// CHECK-LABEL: func.func @from_constant() -> (memref<?xi32>, memref<?xindex>, memref<?xf64>, index) {
// CHECK:         %[[G:.*]] = memref.get_global @[[POS]] : memref<2xi32>
// CHECK-NEXT:    %[[B:.*]] = memref.alloc() : memref<2xi32>
// CHECK-NEXT:    "memref.copy"(%[[G]], %[[B]])
// CHECK:         memref.get_global @[[CRDS]] : memref<2xi64>
// CHECK:         arith.index_cast %{{.*}} : i64 to index
// CHECK:         memref.get_global @[[VALS]] : memref<2xf64>
// CHECK:         %[[SIZE:.*]] = arith.constant 4 : index
// CHECK-NEXT:    func.return %{{.*}}, %{{.*}}, %{{.*}}, %[[SIZE]]

// -----

// A dense tensor passed to a call is copied first (the callee writes its
// outputs in place); declarations get buffer types too.

func.func @dense_call(%x: tensor<4xf64>) -> f64 {
  %c1 = arith.constant 1 : index
  %y = func.call @dense_callee(%x) : (tensor<4xf64>) -> tensor<4xf64>
  %v = tensor.extract %y[%c1] : tensor<4xf64>
  return %v : f64
}

func.func private @dense_callee(tensor<4xf64>) -> tensor<4xf64>

// CHECK-LABEL: func.func @dense_call(%{{.*}}: memref<4xf64>) -> f64 {
// CHECK:         %[[COPY:.*]] = memref.alloc() : memref<4xf64>
// CHECK-NEXT:    "memref.copy"(%{{.*}}, %[[COPY]])
// CHECK-NEXT:    %[[Y:.*]] = func.call @dense_callee(%[[COPY]]) : (memref<4xf64>) -> memref<4xf64>
// CHECK-NEXT:    %[[V:.*]] = memref.load %[[Y]][%{{.*}}] : memref<4xf64>
// CHECK-NEXT:    func.return %[[V]] : f64
// CHECK:       func.func private @dense_callee(memref<4xf64>) -> memref<4xf64>
