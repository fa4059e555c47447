// RUN: %xsparse-roundtrip | filecheck %s
// RUN: %xsparse-generic-roundtrip | filecheck %s

// Jagged buffers (RFC: First-Class Jagged Buffer): allocation, views of CSR and
// ELL storage, inner buffers as memrefs, sizes, loads and stores.

// CHECK-LABEL: func.func @jagged
func.func @jagged(%n: index, %i: index, %k: index, %pos: memref<?xindex>, %vals: memref<?xf64>,
                  %ell: memref<?x4xf32>, %row: memref<?xf64>, %x: f64) -> f64 {
  // CHECK:      %a = jagged.alloc(%n) : !jagged.buffer<?x3xmemref<?xf64>>
  // CHECK-NEXT: %csr = jagged.from_positions %pos, %vals : memref<?xindex>, memref<?xf64> -> !jagged.buffer<?xmemref<?xf64>>
  // CHECK-NEXT: %e = jagged.from_ell %ell : memref<?x4xf32> -> !jagged.buffer<?xmemref<4xf32>>
  // CHECK-NEXT: %r = jagged.get %csr[%i] : !jagged.buffer<?xmemref<?xf64>> -> memref<?xf64, strided<[?], offset: ?>>
  // CHECK-NEXT: jagged.set %row, %a[%i, %k] : memref<?xf64> into !jagged.buffer<?x3xmemref<?xf64>>
  // CHECK-NEXT: %d = jagged.dim %a, 0 : !jagged.buffer<?x3xmemref<?xf64>>
  // CHECK-NEXT: %s = jagged.size %csr[%i], 0 : !jagged.buffer<?xmemref<?xf64>>
  // CHECK-NEXT: %v = jagged.load %csr[%i][%k] : !jagged.buffer<?xmemref<?xf64>>
  // CHECK-NEXT: jagged.store %x, %a[%i, %k][%k] : !jagged.buffer<?x3xmemref<?xf64>>
  // CHECK-NEXT: jagged.dealloc %a : !jagged.buffer<?x3xmemref<?xf64>>
  %a = jagged.alloc(%n) : !jagged.buffer<?x3xmemref<?xf64>>
  %csr = jagged.from_positions %pos, %vals : memref<?xindex>, memref<?xf64> -> !jagged.buffer<?xmemref<?xf64>>
  %e = jagged.from_ell %ell : memref<?x4xf32> -> !jagged.buffer<?xmemref<4xf32>>
  %r = jagged.get %csr[%i] : !jagged.buffer<?xmemref<?xf64>> -> memref<?xf64, strided<[?], offset: ?>>
  jagged.set %row, %a[%i, %k] : memref<?xf64> into !jagged.buffer<?x3xmemref<?xf64>>
  %d = jagged.dim %a, 0 : !jagged.buffer<?x3xmemref<?xf64>>
  %s = jagged.size %csr[%i], 0 : !jagged.buffer<?xmemref<?xf64>>
  %v = jagged.load %csr[%i][%k] : !jagged.buffer<?xmemref<?xf64>>
  jagged.store %x, %a[%i, %k][%k] : !jagged.buffer<?x3xmemref<?xf64>>
  jagged.dealloc %a : !jagged.buffer<?x3xmemref<?xf64>>
  func.return %v : f64
}

// -----

// Inner buffers with a promised layout (ITPACK: column-major blocks), and 2-D inner buffers.

// CHECK-LABEL: func.func @layouts
func.func @layouts(%itpack: memref<?x4xf32, strided<[1, ?]>>, %blocks: memref<?x2x2xf32>, %i: index) {
  // CHECK:      %t = jagged.from_ell %itpack : memref<?x4xf32, strided<[1, ?]>> -> !jagged.buffer<?xmemref<4xf32, strided<[?], offset: ?>>>
  // CHECK-NEXT: %c = jagged.get %t[%i] : !jagged.buffer<?xmemref<4xf32, strided<[?], offset: ?>>> -> memref<4xf32, strided<[?], offset: ?>>
  // CHECK-NEXT: %b = jagged.from_ell %blocks : memref<?x2x2xf32> -> !jagged.buffer<?xmemref<2x2xf32, strided<[2, 1], offset: ?>>>
  // CHECK-NEXT: %m = jagged.get %b[%i] : !jagged.buffer<?xmemref<2x2xf32, strided<[2, 1], offset: ?>>> -> memref<2x2xf32, strided<[2, 1], offset: ?>>
  %t = jagged.from_ell %itpack : memref<?x4xf32, strided<[1, ?]>> -> !jagged.buffer<?xmemref<4xf32, strided<[?], offset: ?>>>
  %c = jagged.get %t[%i] : !jagged.buffer<?xmemref<4xf32, strided<[?], offset: ?>>> -> memref<4xf32, strided<[?], offset: ?>>
  %b = jagged.from_ell %blocks : memref<?x2x2xf32> -> !jagged.buffer<?xmemref<2x2xf32, strided<[2, 1], offset: ?>>>
  %m = jagged.get %b[%i] : !jagged.buffer<?xmemref<2x2xf32, strided<[2, 1], offset: ?>>> -> memref<2x2xf32, strided<[2, 1], offset: ?>>
  func.return
}

// Rows of (coordinate, value) pairs taken over as a CSR or CSC tensor of any shape.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSC32 = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed), posWidth = 32, crdWidth = 32 }>

// CHECK-LABEL: func.func @to_sparse
func.func @to_sparse(%m: index, %n: index, %pos: memref<?xindex>, %crd: memref<?xindex>, %vals: memref<?xf64>,
                     %pos32: memref<?xi32>, %crd32: memref<?xi32>) -> (tensor<?x?xf64, #CSR>, tensor<?x7xf64, #CSC32>) {
  // CHECK:      %csr = jagged.to_sparse(%m, %n) %pos, %crd, %vals : memref<?xindex>, memref<?xindex>, memref<?xf64> to tensor<?x?xf64, #sparse_tensor.encoding<{{.*}}>>
  // CHECK-NEXT: %csc = jagged.to_sparse(%m, %n) %pos32, %crd32, %vals : memref<?xi32>, memref<?xi32>, memref<?xf64> to tensor<?x7xf64, #sparse_tensor.encoding<{{.*}}>>
  %csr = jagged.to_sparse(%m, %n) %pos, %crd, %vals : memref<?xindex>, memref<?xindex>, memref<?xf64> to tensor<?x?xf64, #CSR>
  %csc = jagged.to_sparse(%m, %n) %pos32, %crd32, %vals : memref<?xi32>, memref<?xi32>, memref<?xf64> to tensor<?x7xf64, #CSC32>
  func.return %csr, %csc : tensor<?x?xf64, #CSR>, tensor<?x7xf64, #CSC32>
}
