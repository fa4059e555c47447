// RUN: xsparse-opt %s --split-input-file -p lower-jagged | filecheck %s

// An ELL view (every inner size static and equal) folds to the plain strided
// memref it views: no jagged op is left.

func.func @ell(%ell: memref<?x4xf32>, %i: index, %k: index, %x: f32) -> (f32, index, index) {
  %e = jagged.from_ell %ell : memref<?x4xf32> -> !jagged.buffer<?xmemref<4xf32>>
  %v = jagged.load %e[%i][%k] : !jagged.buffer<?xmemref<4xf32>>
  jagged.store %x, %e[%i][%k] : !jagged.buffer<?xmemref<4xf32>>
  %n = jagged.dim %e, 0 : !jagged.buffer<?xmemref<4xf32>>
  %s = jagged.size %e[%i], 0 : !jagged.buffer<?xmemref<4xf32>>
  func.return %v, %n, %s : f32, index, index
}

// CHECK-LABEL: func.func @ell
// CHECK-NOT:     jagged.
// CHECK:         %[[V:.*]] = memref.load %ell[%i, %k] : memref<?x4xf32>
// CHECK-NEXT:    memref.store %x, %ell[%i, %k] : memref<?x4xf32>
// CHECK:         %[[N:.*]] = memref.dim %ell, %{{.*}} : memref<?x4xf32>
// CHECK:         %[[S:.*]] = arith.constant 4 : index
// CHECK:         func.return %[[V]], %[[N]], %[[S]]

// -----

// A CSR view computes each start address from the positions (no descriptor array).

func.func @csr(%pos: memref<?xindex>, %vals: memref<?xf64>, %i: index, %k: index) -> (f64, index) {
  %j = jagged.from_positions %pos, %vals : memref<?xindex>, memref<?xf64> -> !jagged.buffer<?xmemref<?xf64>>
  %v = jagged.load %j[%i][%k] : !jagged.buffer<?xmemref<?xf64>>
  %s = jagged.size %j[%i], 0 : !jagged.buffer<?xmemref<?xf64>>
  func.return %v, %s : f64, index
}

// CHECK-LABEL: func.func @csr
// CHECK-NOT:     jagged.
// CHECK:         %[[LO:.*]] = memref.load %pos[%i] : memref<?xindex>
// CHECK:         %[[AT:.*]] = arith.addi %[[LO]], %k : index
// CHECK-NEXT:    %[[V:.*]] = memref.load %vals[%[[AT]]] : memref<?xf64>
// CHECK:         %[[IP1:.*]] = arith.addi %i, %{{.*}} : index
// CHECK-NEXT:    %[[HI:.*]] = memref.load %pos[%[[IP1]]] : memref<?xindex>
// CHECK-NEXT:    %[[S:.*]] = arith.subi %[[HI]], %{{.*}} : index
// CHECK:         func.return %[[V]], %[[S]]

// -----

// A view used otherwise (here: its inner buffers set into another jagged buffer)
// is materialized: the outer array of descriptors, each a subview (pointer copies).

func.func @materialize(%pos: memref<?xindex>, %vals: memref<?xf64>, %i: index) -> !jagged.buffer<?xmemref<?xf64>> {
  %j = jagged.from_positions %pos, %vals : memref<?xindex>, memref<?xf64> -> !jagged.buffer<?xmemref<?xf64>>
  func.return %j : !jagged.buffer<?xmemref<?xf64>>
}

// CHECK-LABEL: func.func @materialize
// CHECK:         %[[OUT:.*]] = jagged.alloc(%{{.*}}) : !jagged.buffer<?xmemref<?xf64>>
// CHECK:         scf.for %[[R:.*]] =
// CHECK:           %[[SV:.*]] = memref.subview %vals[%{{.*}}] [%{{.*}}] [1] : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
// CHECK-NEXT:      %[[C:.*]] = memref.cast %[[SV]] : memref<?xf64, strided<[1], offset: ?>> to memref<?xf64, strided<[?], offset: ?>>
// CHECK-NEXT:      jagged.set %[[C]], %[[OUT]][%[[R]]]
// CHECK:         func.return %[[OUT]]

// -----

// Other jagged buffers: accesses go through the inner buffer's memref.

func.func @general(%n: index, %row: memref<?xf32>, %i: index, %k: index) -> f32 {
  %a = jagged.alloc(%n) : !jagged.buffer<?xmemref<?xf32>>
  jagged.set %row, %a[%i] : memref<?xf32> into !jagged.buffer<?xmemref<?xf32>>
  %v = jagged.load %a[%i][%k] : !jagged.buffer<?xmemref<?xf32>>
  jagged.dealloc %a : !jagged.buffer<?xmemref<?xf32>>
  func.return %v : f32
}

// CHECK-LABEL: func.func @general
// CHECK:         %[[A:.*]] = jagged.alloc(%n)
// CHECK-NEXT:    jagged.set %row, %[[A]][%i]
// CHECK-NEXT:    %[[G:.*]] = jagged.get %[[A]][%i] : !jagged.buffer<?xmemref<?xf32>> -> memref<?xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    %[[V:.*]] = memref.load %[[G]][%k] : memref<?xf32, strided<[?], offset: ?>>
