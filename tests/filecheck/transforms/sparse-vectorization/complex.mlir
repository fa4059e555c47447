// Complex elements: MLIR 22's vectorizeExpr rejects every value whose type is
// not a valid vector element type (`complex<f64>` is not) and lists no complex
// op, so loops over complex values keep their scalar form, with vl fixed or
// scalable. The BOTH checks run on either tool's output, MLIR on mlir-opt-22's.
// RUN: xsparse-opt --split-input-file %s -p 'sparse-vectorization{vl=8}' | filecheck %s --check-prefixes=CHECK,BOTH
// RUN: xsparse-opt --split-input-file %s -p 'sparse-vectorization{vl=4 enable-vla-vectorization=true},sparse-vector-peel' | filecheck %s --check-prefixes=CHECK,BOTH
// RUN: %if mlir-opt %{ %mlir-opt --split-input-file --sparse-vectorization="vl=8" %s | filecheck %s --check-prefixes=BOTH,MLIR %}
// RUN: %if mlir-opt %{ %mlir-opt --split-input-file --sparse-vectorization="vl=4 enable-vla-vectorization=true" %s | filecheck %s --check-prefixes=BOTH,MLIR %}

// BOTH-LABEL: func.func @multiply
// MLIR-NOT:      vector.
// MLIR:          complex.mul %{{.*}}, %{{.*}} : complex<f64>
// MLIR-NOT:      vector.
// CHECK-NOT:     vector.
// CHECK:         scf.for %[[I:.*]] = %lo to %hi step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xcomplex<f64>>
// CHECK-NEXT:      %[[Y:.*]] = memref.load %b[%[[I]]] : memref<?xcomplex<f64>>
// CHECK-NEXT:      %[[Z:.*]] = complex.mul %[[X]], %[[Y]] : complex<f64>
// CHECK-NEXT:      memref.store %[[Z]], %c[%[[I]]] : memref<?xcomplex<f64>>
// CHECK-NEXT:    } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:    func.return
func.func @multiply(%a: memref<?xcomplex<f64>>, %b: memref<?xcomplex<f64>>, %c: memref<?xcomplex<f64>>, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    %x = memref.load %a[%i] : memref<?xcomplex<f64>>
    %y = memref.load %b[%i] : memref<?xcomplex<f64>>
    %z = complex.mul %x, %y : complex<f64>
    memref.store %z, %c[%i] : memref<?xcomplex<f64>>
  } {"Emitted from" = "linalg.generic"}
  return
}

// -----

// A copy has no complex op, only complex loads and stores: still scalar.
// BOTH-LABEL: func.func @copy
// MLIR-NOT:      vector.
// MLIR:          memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xcomplex<f32>>
// MLIR-NOT:      vector.
// CHECK-NOT:     vector.
// CHECK:         scf.for %[[I:.*]] = %lo to %hi step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xcomplex<f32>>
// CHECK-NEXT:      memref.store %[[X]], %c[%[[I]]] : memref<?xcomplex<f32>>
// CHECK-NEXT:    } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:    func.return
func.func @copy(%a: memref<?xcomplex<f32>>, %c: memref<?xcomplex<f32>>, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    %x = memref.load %a[%i] : memref<?xcomplex<f32>>
    memref.store %x, %c[%i] : memref<?xcomplex<f32>>
  } {"Emitted from" = "linalg.generic"}
  return
}

// -----

// BOTH-LABEL: func.func @sum
// MLIR-NOT:      vector.
// MLIR:          complex.add %{{.*}}, %{{.*}} : complex<f64>
// MLIR-NOT:      vector.
// CHECK-NOT:     vector.
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %lo to %hi step %c1 iter_args(%[[ACC:.*]] = %init) -> (complex<f64>) {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xcomplex<f64>>
// CHECK-NEXT:      %[[S:.*]] = complex.add %[[ACC]], %[[X]] : complex<f64>
// CHECK-NEXT:      scf.yield %[[S]] : complex<f64>
// CHECK-NEXT:    } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:    func.return %[[R]] : complex<f64>
func.func @sum(%a: memref<?xcomplex<f64>>, %lo: index, %hi: index, %init: complex<f64>) -> complex<f64> {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (complex<f64>) {
    %x = memref.load %a[%i] : memref<?xcomplex<f64>>
    %s = complex.add %acc, %x : complex<f64>
    scf.yield %s : complex<f64>
  } {"Emitted from" = "linalg.generic"}
  return %r : complex<f64>
}

// -----

// A real result computed from complex values: the complex operand rejects it.
// BOTH-LABEL: func.func @real_part
// MLIR-NOT:      vector.
// MLIR:          arith.mulf %{{.*}}, %{{.*}} : f64
// MLIR-NOT:      vector.
// CHECK-NOT:     vector.
// CHECK:         scf.for %[[I:.*]] = %lo to %hi step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xcomplex<f64>>
// CHECK-NEXT:      %[[R:.*]] = complex.re %[[X]] : complex<f64>
// CHECK-NEXT:      %[[S:.*]] = arith.mulf %[[R]], %[[R]] : f64
// CHECK-NEXT:      memref.store %[[S]], %c[%[[I]]] : memref<?xf64>
// CHECK-NEXT:    } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:    func.return
func.func @real_part(%a: memref<?xcomplex<f64>>, %c: memref<?xf64>, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    %x = memref.load %a[%i] : memref<?xcomplex<f64>>
    %r = complex.re %x : complex<f64>
    %s = arith.mulf %r, %r : f64
    memref.store %s, %c[%i] : memref<?xf64>
  } {"Emitted from" = "linalg.generic"}
  return
}
