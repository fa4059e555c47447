// sparse-vector-peel (xsparse's): a masked vector loop of sparse-vectorization
// becomes an unmasked main loop up to hi - (hi - lo) % vl and a scalar epilogue
// (one lane of the body per step; a masked step when the body cannot be
// scalarized or the vectors are scalable); the final reduction of a vector
// loop is marked reassociable.
// RUN: xsparse-opt --split-input-file %s -p 'sparse-vectorization{vl=8},sparse-vector-peel' | filecheck %s
// RUN: xsparse-opt --split-input-file %s -p 'sparse-vectorization{vl=4 enable-vla-vectorization=true},sparse-vector-peel' | filecheck %s --check-prefix=VLA

// CHECK-LABEL: func.func @sum
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %[[SPAN:.*]] = arith.subi %hi, %lo : index
// CHECK:         %[[REST:.*]] = arith.remsi %[[SPAN]], %[[C8]] : index
// CHECK:         %[[MAIN:.*]] = arith.subi %hi, %[[REST]] : index
// CHECK:         %[[LOOP:.*]] = scf.for %[[I:.*]] = %lo to %[[MAIN]] step %[[C8]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<8xf64>) {
// CHECK-NOT:       affine.min
// CHECK:           %[[ALL:.*]] = arith.constant dense<true> : vector<8xi1>
// CHECK:           vector.maskedload %a[%[[I]]], %[[ALL]]
// CHECK:         } {"Emitted from" = "linalg.generic"}
// CHECK:         %[[RED:.*]] = vector.reduction <add>, %[[LOOP]] fastmath<reassoc> : vector<8xf64> into f64
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[R:.*]] = scf.for %[[J:.*]] = %[[MAIN]] to %hi step %[[C1]] iter_args(%[[S:.*]] = %[[RED]]) -> (f64) {
// CHECK:           %[[V:.*]] = memref.load %a[%[[J]]] : memref<?xf64>
// CHECK:           %[[T:.*]] = arith.addf %[[S]], %[[V]] : f64
// CHECK:           scf.yield %[[T]] : f64
// CHECK:         } {xsparse.epilogue}
// CHECK:         func.return %[[R]] : f64
func.func @sum(%a: memref<?xf64>, %lo: index, %hi: index, %init: f64) -> f64 {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (f64) {
    %v = memref.load %a[%i] : memref<?xf64>
    %s = arith.addf %acc, %v : f64
    scf.yield %s : f64
  } {"Emitted from" = "linalg.generic"}
  return %r : f64
}

// -----

// A parallel loop with an indirect store: vector main loop, scalar epilogue.
// CHECK-LABEL: func.func @scatter
// CHECK:         scf.for %{{.*}} = %lo to %[[MAIN:.*]] step
// CHECK:           vector.scatter
// CHECK:         scf.for %[[J:.*]] = %[[MAIN]] to %hi step
// CHECK:           %[[C:.*]] = memref.load %crd[%[[J]]] : memref<?xi32>
// CHECK:           %[[W:.*]] = arith.extui %[[C]] : i32 to i64
// CHECK:           %[[K:.*]] = arith.index_castui %[[W]] : i64 to index
// CHECK:           memref.store %{{.*}}, %y[%[[K]]] : memref<?xf64>
// CHECK:         } {xsparse.epilogue}
func.func @scatter(%crd: memref<?xi32>, %x: memref<?xf64>, %y: memref<?xf64>, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    %c = memref.load %crd[%i] : memref<?xi32>
    %w = arith.extui %c : i32 to i64
    %j = arith.index_cast %w : i64 to index
    %v = memref.load %x[%i] : memref<?xf64>
    memref.store %v, %y[%j] : memref<?xf64>
  } {"Emitted from" = "linalg.generic"}
  return
}

// -----

// Scalable vectors keep the masked remainder step.
// VLA-LABEL: func.func @scalable
// VLA:         scf.for
// VLA:         scf.if
// VLA:           vector.create_mask %{{.*}} : vector<[4]xi1>
func.func @scalable(%a: memref<?xf64>, %lo: index, %hi: index, %init: f64) -> f64 {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (f64) {
    %v = memref.load %a[%i] : memref<?xf64>
    %s = arith.addf %acc, %v : f64
    scf.yield %s : f64
  } {"Emitted from" = "linalg.generic"}
  return %r : f64
}
