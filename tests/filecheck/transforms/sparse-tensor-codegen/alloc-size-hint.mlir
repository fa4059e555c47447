// RUN: xsparse-opt %s --split-input-file -p sparse-tensor-codegen | filecheck %s

// `bufferization.alloc_tensor ... size_hint = %n` of a sparse tensor sizes the
// buffers that hold one element per entry by %n, as MLIR 22's codegen does:
// the values and the coordinates from the last non-singleton level down (a
// COO's both levels); positions start at the default capacity.

#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)) }>
func.func @coo_hint(%n: index) -> tensor<8x8xf64, #COO> {
  %t = bufferization.alloc_tensor() size_hint = %n : tensor<8x8xf64, #COO>
  %r = sparse_tensor.load %t hasInserts : tensor<8x8xf64, #COO>
  return %r : tensor<8x8xf64, #COO>
}

// CHECK-LABEL: func.func @coo_hint
// CHECK-SAME:    (%[[N:.*]]: index)
// CHECK:         %[[DEFAULT:.*]] = arith.constant 16 : index
// CHECK:         %[[POS:.*]] = memref.alloc(%[[DEFAULT]]) : memref<?xindex>
// CHECK:         %[[CRD0:.*]] = memref.alloc(%[[N]]) : memref<?xindex>
// CHECK:         %[[CRD1:.*]] = memref.alloc(%[[N]]) : memref<?xindex>
// CHECK:         %[[VALUES:.*]] = memref.alloc(%[[N]]) : memref<?xf64>

// -----

#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
func.func @dcsr_hint(%n: index) -> tensor<8x8xf64, #DCSR> {
  %t = bufferization.alloc_tensor() size_hint = %n : tensor<8x8xf64, #DCSR>
  %r = sparse_tensor.load %t hasInserts : tensor<8x8xf64, #DCSR>
  return %r : tensor<8x8xf64, #DCSR>
}

// CHECK-LABEL: func.func @dcsr_hint
// CHECK-SAME:    (%[[N:.*]]: index)
// CHECK:         %[[DEFAULT:.*]] = arith.constant 16 : index
// CHECK:         memref.alloc(%[[DEFAULT]]) : memref<?xindex>
// CHECK:         %[[D1:.*]] = arith.constant 16 : index
// CHECK:         memref.alloc(%[[D1]]) : memref<?xindex>
// CHECK:         %[[D2:.*]] = arith.constant 16 : index
// CHECK:         memref.alloc(%[[D2]]) : memref<?xindex>
// CHECK:         memref.alloc(%[[N]]) : memref<?xindex>
// CHECK:         memref.alloc(%[[N]]) : memref<?xf64>
