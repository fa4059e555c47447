// RUN: %xsparse-diagnostics | filecheck %s
//
// A negative level or dimension (an index attribute or constant holds one):
// MLIR reads levels and dimensions as unsigned, so each is out of bounds, not
// a level counted from the end (mlir-interop/ops-element-types.mlir checks
// that mlir-opt-22 rejects each with the same message).

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @positions_negative(%t: tensor<8x8xcomplex<f64>, #CSR>) {
  %0 = sparse_tensor.positions %t {level = -1 : index} : tensor<8x8xcomplex<f64>, #CSR> to memref<?xindex>
  return
}
// CHECK: error: 'sparse_tensor.positions' op requested level is out of bounds

// -----

#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>
func.func @coordinates_negative(%t: tensor<8x8xi1, #COO>) {
  %0 = sparse_tensor.coordinates %t {level = -1 : index} : tensor<8x8xi1, #COO> to memref<?xindex, strided<[?], offset: ?>>
  return
}
// CHECK: error: 'sparse_tensor.coordinates' op requested level is out of bounds

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @lvl_negative(%t: tensor<8x8xbf16, #CSR>) -> index {
  %c = arith.constant -1 : index
  %0 = sparse_tensor.lvl %t, %c : tensor<8x8xbf16, #CSR>
  return %0 : index
}
// CHECK: error: 'sparse_tensor.lvl' op Level index exceeds the rank of the input sparse tensor

// -----

#Slice = #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(?, ?, ?)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>
func.func @slice_offset_negative(%t: tensor<?x4xindex, #Slice>) -> index {
  %0 = sparse_tensor.slice.offset %t at -1 : tensor<?x4xindex, #Slice>
  return %0 : index
}
// CHECK: error: 'sparse_tensor.slice.offset' op requested dimension out of bound

// -----

#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>
func.func @specifier_negative(%s: !sparse_tensor.storage_specifier<#COO>) -> index {
  %0 = sparse_tensor.storage_specifier.get %s pos_mem_sz at -1 : !sparse_tensor.storage_specifier<#COO>
  return %0 : index
}
// CHECK: error: 'sparse_tensor.storage_specifier.get' op requested level is out of bounds

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @concatenate_negative(%a: tensor<2x4xf16, #CSR>, %b: tensor<2x4xf16, #CSR>) -> tensor<4x4xf16, #CSR> {
  %0 = sparse_tensor.concatenate %a, %b {dimension = -1 : index} : tensor<2x4xf16, #CSR>, tensor<2x4xf16, #CSR> to tensor<4x4xf16, #CSR>
  return %0 : tensor<4x4xf16, #CSR>
}
// CHECK: error: 'sparse_tensor.concatenate' op Concat-dimension is out of bounds for dimension-rank (18446744073709551615 >= 2)
