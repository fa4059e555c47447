// RUN: %xsparse-roundtrip | filecheck --strict-whitespace %s
// RUN: %xsparse-generic-roundtrip | filecheck --strict-whitespace %s
//
// sparse_tensor insertion ops (expand, compress, push_back, sort), printed as mlir-opt-22 prints them.
// mlir-interop/ops.mlir checks that mlir-opt-22 reads the same IR back.

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>

// CHECK-LABEL: func.func @expand_compress
// CHECK-NEXT:     %values, %filled, %added, %count = sparse_tensor.expand %t : tensor<4x4xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xf64>, memref<?xi1>, memref<?xindex>
// CHECK-NEXT:     %0 = sparse_tensor.compress %values, %filled, %added, %count into %t[%i] : memref<?xf64>, memref<?xi1>, memref<?xindex>, tensor<4x4xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     func.return %0 : tensor<4x4xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
func.func @expand_compress(%t: tensor<4x4xf64, #CSR>, %i: index) -> tensor<4x4xf64, #CSR> {
  %values, %filled, %added, %count = sparse_tensor.expand %t : tensor<4x4xf64, #CSR> to memref<?xf64>, memref<?xi1>, memref<?xindex>
  %0 = sparse_tensor.compress %values, %filled, %added, %count into %t[%i] : memref<?xf64>, memref<?xi1>, memref<?xindex>, tensor<4x4xf64, #CSR>
  return %0 : tensor<4x4xf64, #CSR>
}

// -----

// CHECK-LABEL: func.func @push_back
// CHECK-NEXT:     %b0, %s0 = sparse_tensor.push_back %size, %buf, %v : index, memref<?xf64>, f64
// CHECK-NEXT:     %b1, %s1 = sparse_tensor.push_back inbounds %s0, %b0, %v, %n : index, memref<?xf64>, f64, index
// CHECK-NEXT:     func.return %s1 : index
func.func @push_back(%size: index, %buf: memref<?xf64>, %v: f64, %n: index) -> index {
  %b0, %s0 = sparse_tensor.push_back %size, %buf, %v : index, memref<?xf64>, f64
  %b1, %s1 = sparse_tensor.push_back inbounds %s0, %b0, %v, %n : index, memref<?xf64>, f64, index
  return %s1 : index
}

// -----

// CHECK-LABEL: func.func @sort
// CHECK-NEXT:     sparse_tensor.sort  hybrid_quick_sort %n, %xy jointly %y0, %y1 {ny = 1 : index, perm_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?xindex> jointly memref<?xf32>, memref<10xi32>
// CHECK-NEXT:     sparse_tensor.sort  insertion_sort_stable %n, %xy {perm_map = affine_map<(d0) -> (d0)>} : memref<?xindex>
// CHECK-NEXT:     sparse_tensor.sort  heap_sort %n, %xy {perm_map = affine_map<(d0, d1, d2) -> (d2, d0, d1)>} : memref<?xindex>
// CHECK-NEXT:     func.return
func.func @sort(%n: index, %xy: memref<?xindex>, %y0: memref<?xf32>, %y1: memref<10xi32>) {
  sparse_tensor.sort hybrid_quick_sort %n, %xy jointly %y0, %y1 {ny = 1 : index, perm_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?xindex> jointly memref<?xf32>, memref<10xi32>
  sparse_tensor.sort insertion_sort_stable %n, %xy {perm_map = affine_map<(d0) -> (d0)>} : memref<?xindex>
  sparse_tensor.sort heap_sort %n, %xy {perm_map = affine_map<(d0, d1, d2) -> (d2, d0, d1)>} : memref<?xindex>
  return
}
