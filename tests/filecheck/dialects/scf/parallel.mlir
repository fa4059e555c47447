// RUN: xsparse-opt %s | filecheck %s
// RUN: xsparse-opt %s --print-op-generic | xsparse-opt | filecheck %s
// RUN: xsparse-opt %s | xsparse-opt | filecheck %s

// MLIR's custom syntax of scf.parallel and scf.reduce (xDSL 0.74 only has the
// generic form).

func.func @sum_rows(%m: memref<?x?xf64>, %n: index, %k: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.parallel (%i, %j) = (%c0, %c0) to (%n, %k) step (%c1, %c1) init (%zero) -> f64 {
    %v = memref.load %m[%i, %j] : memref<?x?xf64>
    scf.reduce(%v : f64) {
    ^bb0(%lhs: f64, %rhs: f64):
      %s = arith.addf %lhs, %rhs : f64
      scf.reduce.return %s : f64
    }
  } {"Emitted from" = "linalg.generic"}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %zero, %m[%i, %c0] : memref<?x?xf64>
    scf.reduce
  }
  return %r : f64
}

// CHECK-LABEL: func.func @sum_rows
// CHECK:         %{{.*}} = scf.parallel (%[[I:.*]], %[[J:.*]]) = (%{{.*}}, %{{.*}}) to (%n, %k) step (%{{.*}}, %{{.*}}) init (%zero) -> f64 {
// CHECK-NEXT:      %v = memref.load %m[%[[I]], %[[J]]] : memref<?x?xf64>
// CHECK-NEXT:      scf.reduce(%v : f64) {
// CHECK-NEXT:      ^{{.*}}(%lhs: f64, %rhs: f64):
// CHECK-NEXT:        %s = arith.addf %lhs, %rhs : f64
// CHECK-NEXT:        scf.reduce.return %s : f64
// CHECK-NEXT:      }
// CHECK-NEXT:    } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:    scf.parallel (%{{.*}}) = (%{{.*}}) to (%n) step (%{{.*}}) {
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    }
