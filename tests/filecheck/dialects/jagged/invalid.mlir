// RUN: %xsparse-diagnostics | filecheck %s

// The jagged buffer type and the verifiers of its ops.

func.func @alloc_sizes(%n: index) {
  %a = jagged.alloc() : !jagged.buffer<?xmemref<?xf32>>
  func.return
}

// CHECK: error: 'jagged.alloc' op expected 1 dynamic outer sizes, got 0

// -----

func.func @no_outer() {
  %a = jagged.alloc() : !jagged.buffer<memref<?xf32>>
  func.return
}

// CHECK: expected an outer shape before the inner memref type

// -----

func.func @not_memref() {
  %a = jagged.alloc() : !jagged.buffer<4xf32>
  func.return
}

// CHECK: expected an inner memref type, got f32

// -----

func.func @csr_rank(%p: memref<?xindex>, %v: memref<?x2xf32>) {
  %j = jagged.from_positions %p, %v : memref<?xindex>, memref<?x2xf32> -> !jagged.buffer<?xmemref<?xf32>>
  func.return
}

// CHECK: error: 'jagged.from_positions' op values must be a 1-D memref

// -----

func.func @csr_rows(%p: memref<5xindex>, %v: memref<?xf32>) {
  %j = jagged.from_positions %p, %v : memref<5xindex>, memref<?xf32> -> !jagged.buffer<5xmemref<?xf32>>
  func.return
}

// CHECK: error: 'jagged.from_positions' op 5 positions delimit 4 inner buffers, not 5

// -----

func.func @csr_elem(%p: memref<?xindex>, %v: memref<?xf32>) {
  %j = jagged.from_positions %p, %v : memref<?xindex>, memref<?xf32> -> !jagged.buffer<?xmemref<?xf64>>
  func.return
}

// CHECK: error: 'jagged.from_positions' op inner element type f64 must be the values' f32

// -----

func.func @ell_dynamic(%v: memref<?x?xf32>) {
  %j = jagged.from_ell %v : memref<?x?xf32> -> !jagged.buffer<?xmemref<?xf32>>
  func.return
}

// CHECK: error: 'jagged.from_ell' op ELL inner buffers have a static size

// -----

func.func @ell_split(%v: memref<?x4xf32>) {
  %j = jagged.from_ell %v : memref<?x4xf32> -> !jagged.buffer<?xmemref<3xf32>>
  func.return
}

// CHECK: error: 'jagged.from_ell' op values of shape ?x4 do not split into ? blocks of 3

// -----

func.func @get_type(%j: !jagged.buffer<?xmemref<4xf32>>, %i: index) {
  %m = jagged.get %j[%i] : !jagged.buffer<?xmemref<4xf32>> -> memref<4xf32>
  func.return
}

// CHECK: error: 'jagged.get' op result type must be memref<4xf32, strided<[?], offset: ?>>, got memref<4xf32>

// -----

func.func @get_rank(%j: !jagged.buffer<?x2xmemref<4xf32>>, %i: index) {
  %m = jagged.get %j[%i] : !jagged.buffer<?x2xmemref<4xf32>> -> memref<4xf32, strided<[?], offset: ?>>
  func.return
}

// CHECK: error: 'jagged.get' op expected 2 outer indices, got 1

// -----

func.func @set_shape(%j: !jagged.buffer<?xmemref<4xf32>>, %m: memref<5xf32>, %i: index) {
  jagged.set %m, %j[%i] : memref<5xf32> into !jagged.buffer<?xmemref<4xf32>>
  func.return
}

// CHECK: error: 'jagged.set' op shape 5 does not fit inner buffers of shape 4

// -----

func.func @set_layout(%j: !jagged.buffer<?xmemref<4xf32, strided<[4], offset: ?>>>, %m: memref<4xf32>, %i: index) {
  jagged.set %m, %j[%i] : memref<4xf32> into !jagged.buffer<?xmemref<4xf32, strided<[4], offset: ?>>>
  func.return
}

// CHECK: error: 'jagged.set' op memref<4xf32> breaks the inner buffers' promised layout strided<[4], offset: ?>

// -----

func.func @dim_range(%j: !jagged.buffer<?xmemref<4xf32>>) {
  %d = jagged.dim %j, 1 : !jagged.buffer<?xmemref<4xf32>>
  func.return
}

// CHECK: error: 'jagged.dim' op dimension 1 is out of range for outer rank 1

// -----

func.func @size_range(%j: !jagged.buffer<?xmemref<4xf32>>, %i: index) {
  %d = jagged.size %j[%i], 1 : !jagged.buffer<?xmemref<4xf32>>
  func.return
}

// CHECK: error: 'jagged.size' op dimension 1 is out of range for inner rank 1

// -----

func.func @load_inner(%j: !jagged.buffer<?xmemref<4x4xf32>>, %i: index) {
  %v = jagged.load %j[%i][%i] : !jagged.buffer<?xmemref<4x4xf32>>
  func.return
}

// CHECK: error: 'jagged.load' op expected 2 inner indices, got 1

// -----

#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
func.func @to_sparse_levels(%m: index, %pos: memref<?xindex>, %crd: memref<?xindex>, %v: memref<?xf64>) {
  %t = jagged.to_sparse(%m, %m) %pos, %crd, %v : memref<?xindex>, memref<?xindex>, memref<?xf64> to tensor<?x?xf64, #COO>
  func.return
}

// CHECK: error: 'jagged.to_sparse' op the result's levels must be (dense, compressed)

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @to_sparse_sizes(%m: index, %pos: memref<?xindex>, %crd: memref<?xindex>, %v: memref<?xf64>) {
  %t = jagged.to_sparse(%m) %pos, %crd, %v : memref<?xindex>, memref<?xindex>, memref<?xf64> to tensor<?x?xf64, #CSR>
  func.return
}

// CHECK: error: 'jagged.to_sparse' op 1 sizes for a tensor of rank 2

// -----

#CSR32 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), crdWidth = 32 }>
func.func @to_sparse_width(%m: index, %pos: memref<?xindex>, %crd: memref<?xindex>, %v: memref<?xf64>) {
  %t = jagged.to_sparse(%m, %m) %pos, %crd, %v : memref<?xindex>, memref<?xindex>, memref<?xf64> to tensor<?x?xf64, #CSR32>
  func.return
}

// CHECK: error: 'jagged.to_sparse' op coordinates must be a 1-D memref of i32
