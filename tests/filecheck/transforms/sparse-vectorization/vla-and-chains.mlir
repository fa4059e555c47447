// enable-vla-vectorization: step vl * vector.vscale, scalable vector types.
// ReducChainRewriter: a vector loop whose init is built from the reduction of
// another sparsifier loop continues that loop's vector (one reduction left).
// RUN: xsparse-opt --split-input-file %s -p 'sparse-vectorization{vl=4 enable-vla-vectorization=true}' | filecheck %s --check-prefix=VLA
// RUN: xsparse-opt --split-input-file %s -p 'sparse-vectorization{vl=8}' | filecheck %s

// VLA-LABEL: func.func @sum
// VLA:         %[[C4:.*]] = arith.constant 4 : index
// VLA:         %[[VS:.*]] = vector.vscale
// VLA:         %[[STEP:.*]] = arith.muli %[[VS]], %[[C4]] : index
// VLA:         vector.insert %init, %{{.*}} [0] : f64 into vector<[4]xf64>
// VLA:         scf.for %[[I:.*]] = %lo to %hi step %[[STEP]] iter_args(%{{.*}} = %{{.*}}) -> (vector<[4]xf64>) {
// VLA:           %[[END:.*]] = affine.min affine_map<(d0, d1)[s0] -> (s0, (d0 + (d1 * -1)))> (%hi, %[[I]])[%[[STEP]]]
// VLA:           vector.create_mask %[[END]] : vector<[4]xi1>
// VLA:           vector.maskedload %a[%[[I]]], {{.*}} : memref<?xf64>, vector<[4]xi1>, vector<[4]xf64> into vector<[4]xf64>
// VLA:         vector.reduction <add>, %{{.*}} : vector<[4]xf64> into f64
// CHECK-LABEL: func.func @sum
// CHECK:         scf.for
// CHECK:           vector.maskedload
// CHECK-NOT:     vector.reduction
// CHECK:         scf.for
// CHECK:           vector.maskedload
// CHECK:         vector.reduction <add>
// CHECK-NOT:     vector.reduction
func.func @sum(%a: memref<?xf64>, %b: memref<?xf64>, %lo: index, %hi: index, %init: f64) -> f64 {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (f64) {
    %v = memref.load %a[%i] : memref<?xf64>
    %s = arith.addf %acc, %v : f64
    scf.yield %s : f64
  } {"Emitted from" = "linalg.generic"}
  %q = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %r) -> (f64) {
    %v = memref.load %b[%i] : memref<?xf64>
    %s = arith.addf %acc, %v : f64
    scf.yield %s : f64
  } {"Emitted from" = "linalg.generic"}
  return %q : f64
}

// -----

// A chain of different kinds is left alone (add then xor keeps both reductions).
// CHECK-LABEL: func.func @mixed_kinds
// CHECK:         vector.reduction <add>
// CHECK:         vector.reduction <xor>
func.func @mixed_kinds(%a: memref<?xi64>, %lo: index, %hi: index, %init: i64) -> i64 {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (i64) {
    %v = memref.load %a[%i] : memref<?xi64>
    %s = arith.addi %acc, %v : i64
    scf.yield %s : i64
  } {"Emitted from" = "linalg.generic"}
  %q = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %r) -> (i64) {
    %v = memref.load %a[%i] : memref<?xi64>
    %s = arith.xori %acc, %v : i64
    scf.yield %s : i64
  } {"Emitted from" = "linalg.generic"}
  return %q : i64
}

// -----

// The and / or chain: broadcast of the first reduction.
// CHECK-LABEL: func.func @and_chain
// CHECK:         scf.for
// CHECK:         scf.for
// CHECK:         vector.reduction <and>
// CHECK-NOT:     vector.reduction
func.func @and_chain(%a: memref<?xi1>, %lo: index, %hi: index, %init: i1) -> i1 {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (i1) {
    %v = memref.load %a[%i] : memref<?xi1>
    %s = arith.andi %acc, %v : i1
    scf.yield %s : i1
  } {"Emitted from" = "linalg.generic"}
  %q = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %r) -> (i1) {
    %v = memref.load %a[%i] : memref<?xi1>
    %s = arith.andi %v, %acc : i1
    scf.yield %s : i1
  } {"Emitted from" = "linalg.generic"}
  return %q : i1
}
