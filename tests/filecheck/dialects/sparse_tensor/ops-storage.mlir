// RUN: %xsparse-roundtrip | filecheck --strict-whitespace %s
// RUN: %xsparse-generic-roundtrip | filecheck --strict-whitespace %s
//
// sparse_tensor ops that expose a tensor's storage, printed as mlir-opt-22
// prints them (mlir-interop/ops.mlir checks this against mlir-opt-22 itself).

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), posWidth = 32 }>

// CHECK-LABEL: func.func @positions
// CHECK-NEXT:     %0 = sparse_tensor.positions %t {level = 1 : index} : tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), posWidth = 32 }>> to memref<?xi32>
// CHECK-NEXT:     func.return %0 : memref<?xi32>
func.func @positions(%t: tensor<?x?xf64, #CSR>) -> memref<?xi32> {
  %0 = sparse_tensor.positions %t {level = 1 : index} : tensor<?x?xf64, #CSR> to memref<?xi32>
  return %0 : memref<?xi32>
}

// -----

#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton), crdWidth = 16 }>

// CHECK-LABEL: func.func @coordinates
// CHECK-NEXT:     %0 = sparse_tensor.coordinates %t {level = 0 : index} : tensor<4x8xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton), crdWidth = 16 }>> to memref<?xi16, strided<[?], offset: ?>>
// CHECK-NEXT:     %1 = sparse_tensor.coordinates_buffer %t : tensor<4x8xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton), crdWidth = 16 }>> to memref<?xi16>
// CHECK-NEXT:     %2 = sparse_tensor.values %t : tensor<4x8xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton), crdWidth = 16 }>> to memref<?xf32>
// CHECK-NEXT:     func.return
func.func @coordinates(%t: tensor<4x8xf32, #COO>) {
  %0 = sparse_tensor.coordinates %t {level = 0 : index} : tensor<4x8xf32, #COO> to memref<?xi16, strided<[?], offset: ?>>
  %1 = sparse_tensor.coordinates_buffer %t : tensor<4x8xf32, #COO> to memref<?xi16>
  %2 = sparse_tensor.values %t : tensor<4x8xf32, #COO> to memref<?xf32>
  return
}

// -----

#SoA = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton(soa)) }>

// CHECK-LABEL: func.func @soa_coordinates
// CHECK-NEXT:     %0 = sparse_tensor.coordinates %t {level = 1 : index} : tensor<4x8xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton(soa)) }>> to memref<?xindex>
// CHECK-NEXT:     func.return %0 : memref<?xindex>
func.func @soa_coordinates(%t: tensor<4x8xf32, #SoA>) -> memref<?xindex> {
  %0 = sparse_tensor.coordinates %t {level = 1 : index} : tensor<4x8xf32, #SoA> to memref<?xindex>
  return %0 : memref<?xindex>
}

// -----

#BCSR = #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : batch, d1 : dense, d2 : compressed) }>

// CHECK-LABEL: func.func @batched
// CHECK-NEXT:     %0 = sparse_tensor.positions %t {level = 2 : index} : tensor<8x4x4xf64, #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : batch, d1 : dense, d2 : compressed) }>> to memref<8x?xindex>
// CHECK-NEXT:     %1 = sparse_tensor.values %t : tensor<8x4x4xf64, #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : batch, d1 : dense, d2 : compressed) }>> to memref<8x?xf64>
// CHECK-NEXT:     func.return
func.func @batched(%t: tensor<8x4x4xf64, #BCSR>) {
  %0 = sparse_tensor.positions %t {level = 2 : index} : tensor<8x4x4xf64, #BCSR> to memref<8x?xindex>
  %1 = sparse_tensor.values %t : tensor<8x4x4xf64, #BCSR> to memref<8x?xf64>
  return
}

// -----

#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed, i mod 2 : dense, j mod 3 : dense) }>

// CHECK-LABEL: func.func @lvl
// CHECK-NEXT:     %c3 = arith.constant 3 : index
// CHECK-NEXT:     %0 = sparse_tensor.lvl %t, %c3 : tensor<4x?xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 2 : dense, d1 floordiv 3 : compressed, d0 mod 2 : dense, d1 mod 3 : dense) }>>
// CHECK-NEXT:     %1 = sparse_tensor.lvl %t, %i : tensor<4x?xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 2 : dense, d1 floordiv 3 : compressed, d0 mod 2 : dense, d1 mod 3 : dense) }>>
// CHECK-NEXT:     %2 = sparse_tensor.number_of_entries %t : tensor<4x?xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 2 : dense, d1 floordiv 3 : compressed, d0 mod 2 : dense, d1 mod 3 : dense) }>>
// CHECK-NEXT:     func.return %1 : index
func.func @lvl(%t: tensor<4x?xf32, #BSR>, %i: index) -> index {
  %c3 = arith.constant 3 : index
  %0 = sparse_tensor.lvl %t, %c3 : tensor<4x?xf32, #BSR>
  %1 = sparse_tensor.lvl %t, %i : tensor<4x?xf32, #BSR>
  %2 = sparse_tensor.number_of_entries %t : tensor<4x?xf32, #BSR>
  return %1 : index
}

// -----

#Slice = #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, 2)>) -> (d0 : dense, d1 : compressed) }>

// CHECK-LABEL: func.func @slice
// CHECK-NEXT:     %0 = sparse_tensor.slice.offset %t at 1 : tensor<4x4xf64, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, 2)>) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %1 = sparse_tensor.slice.stride %t at 0 : tensor<4x4xf64, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, 2)>) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     func.return %0, %1 : index, index
func.func @slice(%t: tensor<4x4xf64, #Slice>) -> (index, index) {
  %0 = sparse_tensor.slice.offset %t at 1 : tensor<4x4xf64, #Slice>
  %1 = sparse_tensor.slice.stride %t at 0 : tensor<4x4xf64, #Slice>
  return %0, %1 : index, index
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique, nonordered), d1 : singleton), posWidth = 8 }>
#Slice = #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(1, 4, 2)>) -> (d0 : dense, d1 : compressed) }>

// The specifier type keeps only what alters the storage layout.
// CHECK-LABEL: func.func @specifier
// CHECK-NEXT:     %0 = sparse_tensor.storage_specifier.get %s  crd_mem_sz at 0 : !sparse_tensor.storage_specifier<#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed, d1 : singleton) }>>
// CHECK-NEXT:     %1 = sparse_tensor.storage_specifier.set %s  lvl_sz at 1 with %n : !sparse_tensor.storage_specifier<#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed, d1 : singleton) }>>
// CHECK-NEXT:     %2 = sparse_tensor.storage_specifier.get %1  val_mem_sz : !sparse_tensor.storage_specifier<#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed, d1 : singleton) }>>
// CHECK-NEXT:     %3 = sparse_tensor.storage_specifier.init : !sparse_tensor.storage_specifier<#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %4 = sparse_tensor.storage_specifier.init with %3 : from !sparse_tensor.storage_specifier<#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to !sparse_tensor.storage_specifier<#sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(1, 4, 2)>) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %5 = sparse_tensor.storage_specifier.get %4  dim_stride at 1 : !sparse_tensor.storage_specifier<#sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(1, 4, 2)>) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     func.return %0 : index
func.func @specifier(%s: !sparse_tensor.storage_specifier<#COO>, %n: index) -> index {
  %0 = sparse_tensor.storage_specifier.get %s crd_mem_sz at 0 : !sparse_tensor.storage_specifier<#COO>
  %1 = sparse_tensor.storage_specifier.set %s lvl_sz at 1 with %n : !sparse_tensor.storage_specifier<#COO>
  %2 = sparse_tensor.storage_specifier.get %1 val_mem_sz : !sparse_tensor.storage_specifier<#COO>
  %3 = sparse_tensor.storage_specifier.init : !sparse_tensor.storage_specifier<#CSR>
  %4 = sparse_tensor.storage_specifier.init with %3 : from !sparse_tensor.storage_specifier<#CSR> to !sparse_tensor.storage_specifier<#Slice>
  %5 = sparse_tensor.storage_specifier.get %4 dim_stride at 1 : !sparse_tensor.storage_specifier<#Slice>
  return %0 : index
}

// -----

#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed, i mod 2 : dense, j mod 3 : dense) }>

// CHECK-LABEL: func.func @crd_translate
// CHECK-NEXT:     %l, %l_1, %l_2, %l_3 = sparse_tensor.crd_translate  dim_to_lvl[%i, %j] as <{ map = (d0, d1) -> (d0 floordiv 2 : dense, d1 floordiv 3 : compressed, d0 mod 2 : dense, d1 mod 3 : dense) }> : index, index, index, index
// CHECK-NEXT:     %d, %d_1 = sparse_tensor.crd_translate  lvl_to_dim[%l, %l_1, %l_2, %l_3] as <{ map = (d0, d1) -> (d0 floordiv 2 : dense, d1 floordiv 3 : compressed, d0 mod 2 : dense, d1 mod 3 : dense) }> : index, index
// CHECK-NEXT:     func.return %d, %d_1 : index, index
func.func @crd_translate(%i: index, %j: index) -> (index, index) {
  %l:4 = sparse_tensor.crd_translate dim_to_lvl [%i, %j] as #BSR : index, index, index, index
  %d:2 = sparse_tensor.crd_translate lvl_to_dim [%l#0, %l#1, %l#2, %l#3] as #BSR : index, index
  return %d#0, %d#1 : index, index
}
