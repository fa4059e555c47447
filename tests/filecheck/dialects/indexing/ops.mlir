// RUN: %xsparse-roundtrip | filecheck %s
// RUN: %xsparse-generic-roundtrip | filecheck %s

// Leaves, set algebra and a loop with one case per presence pattern.

// CHECK-LABEL: func.func @sets
func.func @sets(%lo: index, %hi: index, %crd: memref<?xi32>, %crd2: memref<?xindex>, %init: f64) -> f64 {
  // CHECK:      %r = indexing.range %lo to %hi : !indexing.set
  // CHECK-NEXT: %a = indexing.stored %crd[%lo to %hi] : memref<?xi32> -> !indexing.set
  // CHECK-NEXT: %b = indexing.stored %crd2[%lo to %hi] nonordered nonunique : memref<?xindex> -> !indexing.set
  // CHECK-NEXT: %u = indexing.union %a, %b : !indexing.set
  // CHECK-NEXT: %i = indexing.intersect %u, %r : !indexing.set
  // CHECK-NEXT: %d = indexing.difference %i, %a : !indexing.set
  %r = indexing.range %lo to %hi : !indexing.set
  %a = indexing.stored %crd[%lo to %hi] : memref<?xi32> -> !indexing.set
  %b = indexing.stored %crd2[%lo to %hi] nonordered nonunique : memref<?xindex> -> !indexing.set
  %u = indexing.union %a, %b : !indexing.set
  %i = indexing.intersect %u, %r : !indexing.set
  %d = indexing.difference %i, %a : !indexing.set
  // CHECK-NEXT: %res = indexing.foreach %i iter_args(%init) : !indexing.set -> (f64) attributes {"Emitted from" = "linalg.generic"}
  // CHECK-NEXT: case %pa, _, %pr at(%c) (%acc: f64) {
  // CHECK-NEXT:   indexing.yield %acc : f64
  // CHECK-NEXT: }
  // CHECK-NEXT: case _, %pb, %pr at(%c) (%acc: f64) {
  // CHECK-NEXT:   %x = arith.addf %acc, %acc : f64
  // CHECK-NEXT:   indexing.yield %x : f64
  // CHECK-NEXT: }
  %res = indexing.foreach %i iter_args(%init) : !indexing.set -> (f64) attributes {"Emitted from" = "linalg.generic"}
  case %pa, _, %pr at(%c) (%acc: f64) {
    indexing.yield %acc : f64
  }
  case _, %pb, %pr at(%c) (%acc: f64) {
    %x = arith.addf %acc, %acc : f64
    indexing.yield %x : f64
  }
  func.return %res : f64
}

// -----

// A single leaf without iter_args has one case.

// CHECK-LABEL: func.func @single
// CHECK:      indexing.foreach %a : !indexing.set
// CHECK-NEXT: case %p at(%c) {
// CHECK-NEXT:   "test.op"(%c, %p) : (index, index) -> ()
// CHECK-NEXT:   indexing.yield
// CHECK-NEXT: }
func.func @single(%lo: index, %hi: index, %crd: memref<?xindex>) {
  %a = indexing.stored %crd[%lo to %hi] : memref<?xindex> -> !indexing.set
  indexing.foreach %a : !indexing.set
  case %p at(%c) {
    "test.op"(%c, %p) : (index, index) -> ()
    indexing.yield
  }
  func.return
}

// -----

// CHECK-LABEL: func.func @linearize
// CHECK:      %l = indexing.linearize %i, %j by (%n0, %n1) : index
// CHECK-NEXT: %m, %m_1 = indexing.delinearize %l by (%n0, %n1) : index, index
func.func @linearize(%i: index, %j: index, %n0: index, %n1: index) -> (index, index) {
  %l = indexing.linearize %i, %j by (%n0, %n1) : index
  %m:2 = indexing.delinearize %l by (%n0, %n1) : index, index
  func.return %m#0, %m#1 : index, index
}
