// RUN: %xsparse-diagnostics | filecheck %s

// memref.prefetch's verifier (MLIR 22's messages) and its keywords.

func.func @locality(%m: memref<?x?xf32>, %i: index) {
  memref.prefetch %m[%i, %i], read, locality<4>, data : memref<?x?xf32>
  func.return
}

// CHECK: prefetch-invalid.mlir:6:3: error: 'memref.prefetch' op attribute 'localityHint' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3

// -----

func.func @indices(%m: memref<?x?xf32>, %i: index) {
  memref.prefetch %m[%i], read, locality<3>, data : memref<?x?xf32>
  func.return
}

// CHECK: error: 'memref.prefetch' op too few indices

// -----

func.func @keyword(%m: memref<?xf32>, %i: index) {
  memref.prefetch %m[%i], load, locality<3>, data : memref<?xf32>
  func.return
}

// CHECK: prefetch-invalid.mlir:24:27: error: rw specifier has to be 'read' or 'write'

// -----

func.func @cache(%m: memref<?xf32>, %i: index) {
  memref.prefetch %m[%i], write, locality<3>, code : memref<?xf32>
  func.return
}

// CHECK: error: cache type has to be 'data' or 'instr'
