// RUN: xsparse-opt %s -p post-sparsification-rewrite | filecheck %s

// sparse_tensor.print -> the runtime's print calls over the tensor's buffers,
// in MLIR 22's layout; constant text is printed from globals, one putchar per
// byte. The AoS COO region (levels 0 and 1 here) prints as one interleaved
// crd[0] buffer.

#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>

func.func @print(%a: tensor<?x?xf32, #COO>) {
  sparse_tensor.print %a : tensor<?x?xf32, #COO>
  return
}

// CHECK-DAG:   "memref.global"() <{sym_name = "[[HEADER:__xsparse_str_.*]]", type = memref<24xi8>, initial_value = dense<[45, 45, 45, 45, 32, 83, 112, 97, 114, 115, 101, 32, 84, 101, 110, 115, 111, 114, 32, 45, 45, 45, 45, 10]> : tensor<24xi8>, sym_visibility = "private", constant}>
// CHECK-DAG:   func.func private @putchar(i32) -> i32
// CHECK-DAG:   func.func private @printU64(i64) -> ()
// CHECK-DAG:   func.func private @printF32(f32) -> ()
// CHECK-LABEL: func.func @print(
// CHECK:         memref.get_global @[[HEADER]] : memref<24xi8>
// CHECK:         func.call @putchar
// The number of stored entries is the size of the values buffer.
// CHECK:         %[[VALUES:.*]] = sparse_tensor.values %{{.*}} to memref<?xf32>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[NSE:.*]] = memref.dim %[[VALUES]], %[[C0]] : memref<?xf32>
// CHECK:         %[[NSE64:.*]] = arith.index_cast %[[NSE]] : index to i64
// CHECK-NEXT:    func.call @printU64(%[[NSE64]]) : (i64) -> ()
// CHECK-NEXT:    func.call @printNewline() : () -> ()
// Dynamic dimension sizes come from the level sizes.
// CHECK:         sparse_tensor.lvl
// CHECK:         sparse_tensor.lvl
// CHECK:         func.call @printOpen() : () -> ()
// CHECK:         sparse_tensor.positions %{{.*}} {level = 0 : index}
// CHECK:         %[[CRD0:.*]] = sparse_tensor.coordinates %{{.*}} {level = 0 : index}
// CHECK-NEXT:    %[[CRD1:.*]] = sparse_tensor.coordinates %{{.*}} {level = 1 : index}
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      memref.load %[[CRD0]][%[[K]]]
// CHECK-NEXT:      memref.load %[[CRD1]][%[[K]]]
// CHECK-NOT:     sparse_tensor.coordinates
// CHECK:         func.call @printF32
// CHECK-NOT:     sparse_tensor.print

func.func @nse(%a: tensor<?x?xf32, #COO>) -> index {
  %n = sparse_tensor.number_of_entries %a : tensor<?x?xf32, #COO>
  return %n : index
}

// CHECK-LABEL: func.func @nse(
// CHECK-NEXT:    %[[VALUES:.*]] = sparse_tensor.values %{{.*}} to memref<?xf32>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[NSE:.*]] = memref.dim %[[VALUES]], %[[C0]] : memref<?xf32>
// CHECK-NEXT:    func.return %[[NSE]] : index

func.func @to_dense(%a: tensor<3x4xf32, #COO>) -> tensor<3x4xf32> {
  %d = sparse_tensor.convert %a : tensor<3x4xf32, #COO> to tensor<3x4xf32>
  return %d : tensor<3x4xf32>
}

// Sparse to dense: a zero-filled buffer, then one store per stored entry.
// CHECK-LABEL: func.func @to_dense(
// CHECK:         %[[BUF:.*]] = memref.alloc() : memref<3x4xf32>
// CHECK:         memref.store %{{.*}}, %[[BUF]][%{{.*}}, %{{.*}}] : memref<3x4xf32>
// CHECK:         sparse_tensor.positions %{{.*}} {level = 0 : index}
// CHECK:         memref.store %{{.*}}, %[[BUF]][%{{.*}}, %{{.*}}] : memref<3x4xf32>
// CHECK:         %[[T:.*]] = bufferization.to_tensor %[[BUF]] : memref<3x4xf32> to tensor<3x4xf32>
// CHECK-NEXT:    func.return %[[T]] : tensor<3x4xf32>
