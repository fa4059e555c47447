// RUN: %xsparse-roundtrip | filecheck --strict-whitespace %s
// RUN: %xsparse-generic-roundtrip | filecheck --strict-whitespace %s
//
// The ops that read a sparse tensor's storage (positions, coordinates,
// coordinates_buffer, values, slice.offset, slice.stride, lvl,
// number_of_entries) on tensors of every element type MLIR allows beside the
// usual f32/f64: complex, i1, index, bf16, f16. The buffers of levels keep
// their index type; values buffers take the element type.
// mlir-interop/ops-element-types.mlir checks the same against mlir-opt-22.

// CHECK-LABEL: func.func @complex_f64(
// CHECK-NEXT:     %0 = sparse_tensor.positions %csr {level = 1 : index} : tensor<8x8xcomplex<f64>, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %1 = sparse_tensor.coordinates %csr {level = 1 : index} : tensor<8x8xcomplex<f64>, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %2 = sparse_tensor.values %csr : tensor<8x8xcomplex<f64>, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xcomplex<f64>>
// CHECK-NEXT:     %3 = sparse_tensor.coordinates %coo {level = 1 : index} : tensor<8x8xcomplex<f64>, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xindex, strided<[?], offset: ?>>
// CHECK-NEXT:     %4 = sparse_tensor.coordinates_buffer %coo : tensor<8x8xcomplex<f64>, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xindex>
// CHECK-NEXT:     %5 = sparse_tensor.values %coo : tensor<8x8xcomplex<f64>, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xcomplex<f64>>
// CHECK-NEXT:     %6 = sparse_tensor.positions %s {level = 1 : index} : tensor<4x4xcomplex<f64>, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %7 = sparse_tensor.values %s : tensor<4x4xcomplex<f64>, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>> to memref<?xcomplex<f64>>
// CHECK-NEXT:     %8 = sparse_tensor.slice.offset %s at 1 : tensor<4x4xcomplex<f64>, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %9 = sparse_tensor.slice.stride %s at 0 : tensor<4x4xcomplex<f64>, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %10 = sparse_tensor.lvl %csr, %l : tensor<8x8xcomplex<f64>, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %11 = sparse_tensor.number_of_entries %coo : tensor<8x8xcomplex<f64>, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>>
// CHECK-NEXT:     func.return
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>
#Slice = #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>

func.func @complex_f64(%csr: tensor<8x8xcomplex<f64>, #CSR>, %coo: tensor<8x8xcomplex<f64>, #COO>, %s: tensor<4x4xcomplex<f64>, #Slice>, %l: index) {
  %0 = sparse_tensor.positions %csr {level = 1 : index} : tensor<8x8xcomplex<f64>, #CSR> to memref<?xindex>
  %1 = sparse_tensor.coordinates %csr {level = 1 : index} : tensor<8x8xcomplex<f64>, #CSR> to memref<?xindex>
  %2 = sparse_tensor.values %csr : tensor<8x8xcomplex<f64>, #CSR> to memref<?xcomplex<f64>>
  %3 = sparse_tensor.coordinates %coo {level = 1 : index} : tensor<8x8xcomplex<f64>, #COO> to memref<?xindex, strided<[?], offset: ?>>
  %4 = sparse_tensor.coordinates_buffer %coo : tensor<8x8xcomplex<f64>, #COO> to memref<?xindex>
  %5 = sparse_tensor.values %coo : tensor<8x8xcomplex<f64>, #COO> to memref<?xcomplex<f64>>
  %6 = sparse_tensor.positions %s {level = 1 : index} : tensor<4x4xcomplex<f64>, #Slice> to memref<?xindex>
  %7 = sparse_tensor.values %s : tensor<4x4xcomplex<f64>, #Slice> to memref<?xcomplex<f64>>
  %8 = sparse_tensor.slice.offset %s at 1 : tensor<4x4xcomplex<f64>, #Slice>
  %9 = sparse_tensor.slice.stride %s at 0 : tensor<4x4xcomplex<f64>, #Slice>
  %10 = sparse_tensor.lvl %csr, %l : tensor<8x8xcomplex<f64>, #CSR>
  %11 = sparse_tensor.number_of_entries %coo : tensor<8x8xcomplex<f64>, #COO>
  return
}

// -----

// CHECK-LABEL: func.func @complex_f32(
// CHECK-NEXT:     %0 = sparse_tensor.positions %csr {level = 1 : index} : tensor<8x8xcomplex<f32>, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %1 = sparse_tensor.coordinates %csr {level = 1 : index} : tensor<8x8xcomplex<f32>, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %2 = sparse_tensor.values %csr : tensor<8x8xcomplex<f32>, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xcomplex<f32>>
// CHECK-NEXT:     %3 = sparse_tensor.coordinates %coo {level = 1 : index} : tensor<8x8xcomplex<f32>, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xindex, strided<[?], offset: ?>>
// CHECK-NEXT:     %4 = sparse_tensor.coordinates_buffer %coo : tensor<8x8xcomplex<f32>, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xindex>
// CHECK-NEXT:     %5 = sparse_tensor.values %coo : tensor<8x8xcomplex<f32>, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xcomplex<f32>>
// CHECK-NEXT:     %6 = sparse_tensor.positions %s {level = 1 : index} : tensor<4x4xcomplex<f32>, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %7 = sparse_tensor.values %s : tensor<4x4xcomplex<f32>, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>> to memref<?xcomplex<f32>>
// CHECK-NEXT:     %8 = sparse_tensor.slice.offset %s at 1 : tensor<4x4xcomplex<f32>, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %9 = sparse_tensor.slice.stride %s at 0 : tensor<4x4xcomplex<f32>, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %10 = sparse_tensor.lvl %csr, %l : tensor<8x8xcomplex<f32>, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %11 = sparse_tensor.number_of_entries %coo : tensor<8x8xcomplex<f32>, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>>
// CHECK-NEXT:     func.return
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>
#Slice = #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>

func.func @complex_f32(%csr: tensor<8x8xcomplex<f32>, #CSR>, %coo: tensor<8x8xcomplex<f32>, #COO>, %s: tensor<4x4xcomplex<f32>, #Slice>, %l: index) {
  %0 = sparse_tensor.positions %csr {level = 1 : index} : tensor<8x8xcomplex<f32>, #CSR> to memref<?xindex>
  %1 = sparse_tensor.coordinates %csr {level = 1 : index} : tensor<8x8xcomplex<f32>, #CSR> to memref<?xindex>
  %2 = sparse_tensor.values %csr : tensor<8x8xcomplex<f32>, #CSR> to memref<?xcomplex<f32>>
  %3 = sparse_tensor.coordinates %coo {level = 1 : index} : tensor<8x8xcomplex<f32>, #COO> to memref<?xindex, strided<[?], offset: ?>>
  %4 = sparse_tensor.coordinates_buffer %coo : tensor<8x8xcomplex<f32>, #COO> to memref<?xindex>
  %5 = sparse_tensor.values %coo : tensor<8x8xcomplex<f32>, #COO> to memref<?xcomplex<f32>>
  %6 = sparse_tensor.positions %s {level = 1 : index} : tensor<4x4xcomplex<f32>, #Slice> to memref<?xindex>
  %7 = sparse_tensor.values %s : tensor<4x4xcomplex<f32>, #Slice> to memref<?xcomplex<f32>>
  %8 = sparse_tensor.slice.offset %s at 1 : tensor<4x4xcomplex<f32>, #Slice>
  %9 = sparse_tensor.slice.stride %s at 0 : tensor<4x4xcomplex<f32>, #Slice>
  %10 = sparse_tensor.lvl %csr, %l : tensor<8x8xcomplex<f32>, #CSR>
  %11 = sparse_tensor.number_of_entries %coo : tensor<8x8xcomplex<f32>, #COO>
  return
}

// -----

// CHECK-LABEL: func.func @i1(
// CHECK-NEXT:     %0 = sparse_tensor.positions %csr {level = 1 : index} : tensor<8x8xi1, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %1 = sparse_tensor.coordinates %csr {level = 1 : index} : tensor<8x8xi1, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %2 = sparse_tensor.values %csr : tensor<8x8xi1, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xi1>
// CHECK-NEXT:     %3 = sparse_tensor.coordinates %coo {level = 1 : index} : tensor<8x8xi1, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xindex, strided<[?], offset: ?>>
// CHECK-NEXT:     %4 = sparse_tensor.coordinates_buffer %coo : tensor<8x8xi1, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xindex>
// CHECK-NEXT:     %5 = sparse_tensor.values %coo : tensor<8x8xi1, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xi1>
// CHECK-NEXT:     %6 = sparse_tensor.positions %s {level = 1 : index} : tensor<4x4xi1, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %7 = sparse_tensor.values %s : tensor<4x4xi1, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>> to memref<?xi1>
// CHECK-NEXT:     %8 = sparse_tensor.slice.offset %s at 1 : tensor<4x4xi1, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %9 = sparse_tensor.slice.stride %s at 0 : tensor<4x4xi1, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %10 = sparse_tensor.lvl %csr, %l : tensor<8x8xi1, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %11 = sparse_tensor.number_of_entries %coo : tensor<8x8xi1, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>>
// CHECK-NEXT:     func.return
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>
#Slice = #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>

func.func @i1(%csr: tensor<8x8xi1, #CSR>, %coo: tensor<8x8xi1, #COO>, %s: tensor<4x4xi1, #Slice>, %l: index) {
  %0 = sparse_tensor.positions %csr {level = 1 : index} : tensor<8x8xi1, #CSR> to memref<?xindex>
  %1 = sparse_tensor.coordinates %csr {level = 1 : index} : tensor<8x8xi1, #CSR> to memref<?xindex>
  %2 = sparse_tensor.values %csr : tensor<8x8xi1, #CSR> to memref<?xi1>
  %3 = sparse_tensor.coordinates %coo {level = 1 : index} : tensor<8x8xi1, #COO> to memref<?xindex, strided<[?], offset: ?>>
  %4 = sparse_tensor.coordinates_buffer %coo : tensor<8x8xi1, #COO> to memref<?xindex>
  %5 = sparse_tensor.values %coo : tensor<8x8xi1, #COO> to memref<?xi1>
  %6 = sparse_tensor.positions %s {level = 1 : index} : tensor<4x4xi1, #Slice> to memref<?xindex>
  %7 = sparse_tensor.values %s : tensor<4x4xi1, #Slice> to memref<?xi1>
  %8 = sparse_tensor.slice.offset %s at 1 : tensor<4x4xi1, #Slice>
  %9 = sparse_tensor.slice.stride %s at 0 : tensor<4x4xi1, #Slice>
  %10 = sparse_tensor.lvl %csr, %l : tensor<8x8xi1, #CSR>
  %11 = sparse_tensor.number_of_entries %coo : tensor<8x8xi1, #COO>
  return
}

// -----

// CHECK-LABEL: func.func @index(
// CHECK-NEXT:     %0 = sparse_tensor.positions %csr {level = 1 : index} : tensor<8x8xindex, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %1 = sparse_tensor.coordinates %csr {level = 1 : index} : tensor<8x8xindex, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %2 = sparse_tensor.values %csr : tensor<8x8xindex, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %3 = sparse_tensor.coordinates %coo {level = 1 : index} : tensor<8x8xindex, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xindex, strided<[?], offset: ?>>
// CHECK-NEXT:     %4 = sparse_tensor.coordinates_buffer %coo : tensor<8x8xindex, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xindex>
// CHECK-NEXT:     %5 = sparse_tensor.values %coo : tensor<8x8xindex, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xindex>
// CHECK-NEXT:     %6 = sparse_tensor.positions %s {level = 1 : index} : tensor<4x4xindex, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %7 = sparse_tensor.values %s : tensor<4x4xindex, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %8 = sparse_tensor.slice.offset %s at 1 : tensor<4x4xindex, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %9 = sparse_tensor.slice.stride %s at 0 : tensor<4x4xindex, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %10 = sparse_tensor.lvl %csr, %l : tensor<8x8xindex, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %11 = sparse_tensor.number_of_entries %coo : tensor<8x8xindex, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>>
// CHECK-NEXT:     func.return
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>
#Slice = #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>

func.func @index(%csr: tensor<8x8xindex, #CSR>, %coo: tensor<8x8xindex, #COO>, %s: tensor<4x4xindex, #Slice>, %l: index) {
  %0 = sparse_tensor.positions %csr {level = 1 : index} : tensor<8x8xindex, #CSR> to memref<?xindex>
  %1 = sparse_tensor.coordinates %csr {level = 1 : index} : tensor<8x8xindex, #CSR> to memref<?xindex>
  %2 = sparse_tensor.values %csr : tensor<8x8xindex, #CSR> to memref<?xindex>
  %3 = sparse_tensor.coordinates %coo {level = 1 : index} : tensor<8x8xindex, #COO> to memref<?xindex, strided<[?], offset: ?>>
  %4 = sparse_tensor.coordinates_buffer %coo : tensor<8x8xindex, #COO> to memref<?xindex>
  %5 = sparse_tensor.values %coo : tensor<8x8xindex, #COO> to memref<?xindex>
  %6 = sparse_tensor.positions %s {level = 1 : index} : tensor<4x4xindex, #Slice> to memref<?xindex>
  %7 = sparse_tensor.values %s : tensor<4x4xindex, #Slice> to memref<?xindex>
  %8 = sparse_tensor.slice.offset %s at 1 : tensor<4x4xindex, #Slice>
  %9 = sparse_tensor.slice.stride %s at 0 : tensor<4x4xindex, #Slice>
  %10 = sparse_tensor.lvl %csr, %l : tensor<8x8xindex, #CSR>
  %11 = sparse_tensor.number_of_entries %coo : tensor<8x8xindex, #COO>
  return
}

// -----

// CHECK-LABEL: func.func @bf16(
// CHECK-NEXT:     %0 = sparse_tensor.positions %csr {level = 1 : index} : tensor<8x8xbf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %1 = sparse_tensor.coordinates %csr {level = 1 : index} : tensor<8x8xbf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %2 = sparse_tensor.values %csr : tensor<8x8xbf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xbf16>
// CHECK-NEXT:     %3 = sparse_tensor.coordinates %coo {level = 1 : index} : tensor<8x8xbf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xindex, strided<[?], offset: ?>>
// CHECK-NEXT:     %4 = sparse_tensor.coordinates_buffer %coo : tensor<8x8xbf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xindex>
// CHECK-NEXT:     %5 = sparse_tensor.values %coo : tensor<8x8xbf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xbf16>
// CHECK-NEXT:     %6 = sparse_tensor.positions %s {level = 1 : index} : tensor<4x4xbf16, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %7 = sparse_tensor.values %s : tensor<4x4xbf16, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>> to memref<?xbf16>
// CHECK-NEXT:     %8 = sparse_tensor.slice.offset %s at 1 : tensor<4x4xbf16, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %9 = sparse_tensor.slice.stride %s at 0 : tensor<4x4xbf16, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %10 = sparse_tensor.lvl %csr, %l : tensor<8x8xbf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %11 = sparse_tensor.number_of_entries %coo : tensor<8x8xbf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>>
// CHECK-NEXT:     func.return
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>
#Slice = #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>

func.func @bf16(%csr: tensor<8x8xbf16, #CSR>, %coo: tensor<8x8xbf16, #COO>, %s: tensor<4x4xbf16, #Slice>, %l: index) {
  %0 = sparse_tensor.positions %csr {level = 1 : index} : tensor<8x8xbf16, #CSR> to memref<?xindex>
  %1 = sparse_tensor.coordinates %csr {level = 1 : index} : tensor<8x8xbf16, #CSR> to memref<?xindex>
  %2 = sparse_tensor.values %csr : tensor<8x8xbf16, #CSR> to memref<?xbf16>
  %3 = sparse_tensor.coordinates %coo {level = 1 : index} : tensor<8x8xbf16, #COO> to memref<?xindex, strided<[?], offset: ?>>
  %4 = sparse_tensor.coordinates_buffer %coo : tensor<8x8xbf16, #COO> to memref<?xindex>
  %5 = sparse_tensor.values %coo : tensor<8x8xbf16, #COO> to memref<?xbf16>
  %6 = sparse_tensor.positions %s {level = 1 : index} : tensor<4x4xbf16, #Slice> to memref<?xindex>
  %7 = sparse_tensor.values %s : tensor<4x4xbf16, #Slice> to memref<?xbf16>
  %8 = sparse_tensor.slice.offset %s at 1 : tensor<4x4xbf16, #Slice>
  %9 = sparse_tensor.slice.stride %s at 0 : tensor<4x4xbf16, #Slice>
  %10 = sparse_tensor.lvl %csr, %l : tensor<8x8xbf16, #CSR>
  %11 = sparse_tensor.number_of_entries %coo : tensor<8x8xbf16, #COO>
  return
}

// -----

// CHECK-LABEL: func.func @f16(
// CHECK-NEXT:     %0 = sparse_tensor.positions %csr {level = 1 : index} : tensor<8x8xf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %1 = sparse_tensor.coordinates %csr {level = 1 : index} : tensor<8x8xf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %2 = sparse_tensor.values %csr : tensor<8x8xf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to memref<?xf16>
// CHECK-NEXT:     %3 = sparse_tensor.coordinates %coo {level = 1 : index} : tensor<8x8xf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xindex, strided<[?], offset: ?>>
// CHECK-NEXT:     %4 = sparse_tensor.coordinates_buffer %coo : tensor<8x8xf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xindex>
// CHECK-NEXT:     %5 = sparse_tensor.values %coo : tensor<8x8xf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>> to memref<?xf16>
// CHECK-NEXT:     %6 = sparse_tensor.positions %s {level = 1 : index} : tensor<4x4xf16, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>> to memref<?xindex>
// CHECK-NEXT:     %7 = sparse_tensor.values %s : tensor<4x4xf16, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>> to memref<?xf16>
// CHECK-NEXT:     %8 = sparse_tensor.slice.offset %s at 1 : tensor<4x4xf16, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %9 = sparse_tensor.slice.stride %s at 0 : tensor<4x4xf16, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %10 = sparse_tensor.lvl %csr, %l : tensor<8x8xf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %11 = sparse_tensor.number_of_entries %coo : tensor<8x8xf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>>
// CHECK-NEXT:     func.return
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>
#Slice = #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>

func.func @f16(%csr: tensor<8x8xf16, #CSR>, %coo: tensor<8x8xf16, #COO>, %s: tensor<4x4xf16, #Slice>, %l: index) {
  %0 = sparse_tensor.positions %csr {level = 1 : index} : tensor<8x8xf16, #CSR> to memref<?xindex>
  %1 = sparse_tensor.coordinates %csr {level = 1 : index} : tensor<8x8xf16, #CSR> to memref<?xindex>
  %2 = sparse_tensor.values %csr : tensor<8x8xf16, #CSR> to memref<?xf16>
  %3 = sparse_tensor.coordinates %coo {level = 1 : index} : tensor<8x8xf16, #COO> to memref<?xindex, strided<[?], offset: ?>>
  %4 = sparse_tensor.coordinates_buffer %coo : tensor<8x8xf16, #COO> to memref<?xindex>
  %5 = sparse_tensor.values %coo : tensor<8x8xf16, #COO> to memref<?xf16>
  %6 = sparse_tensor.positions %s {level = 1 : index} : tensor<4x4xf16, #Slice> to memref<?xindex>
  %7 = sparse_tensor.values %s : tensor<4x4xf16, #Slice> to memref<?xf16>
  %8 = sparse_tensor.slice.offset %s at 1 : tensor<4x4xf16, #Slice>
  %9 = sparse_tensor.slice.stride %s at 0 : tensor<4x4xf16, #Slice>
  %10 = sparse_tensor.lvl %csr, %l : tensor<8x8xf16, #CSR>
  %11 = sparse_tensor.number_of_entries %coo : tensor<8x8xf16, #COO>
  return
}
