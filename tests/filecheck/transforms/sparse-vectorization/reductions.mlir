// ForOpRewriter on reduction loops (seed 001): the vector accumulator's init,
// the lane mask, the masked merge and the horizontal reduction after the loop.
// RUN: xsparse-opt --split-input-file %s -p 'sparse-vectorization{vl=8}' | filecheck %s

// An add reduction with dynamic bounds: init | 0 .. 0 r |, mask min(8, hi - i).
// CHECK-LABEL: func.func @sum
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8xf64>
// CHECK:         %[[INIT:.*]] = vector.insert %init, %[[ZERO]] [0] : f64 into vector<8xf64>
// CHECK:         %[[LOOP:.*]] = scf.for %[[I:.*]] = %lo to %hi step %[[C8]] iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<8xf64>) {
// CHECK:           %[[END:.*]] = affine.min affine_map<(d0, d1)[s0] -> (8, (d0 + (d1 * -1)))> (%hi, %[[I]])[%[[C8]]]
// CHECK:           %[[MASK:.*]] = vector.create_mask %[[END]] : vector<8xi1>
// CHECK:           %[[V:.*]] = vector.maskedload %a[%[[I]]], %[[MASK]], %[[ZERO]] : memref<?xf64>, vector<8xi1>, vector<8xf64> into vector<8xf64>
// CHECK:           %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : vector<8xf64>
// CHECK:           %[[SEL:.*]] = arith.select %[[MASK]], %[[S]], %[[ACC]] : vector<8xi1>, vector<8xf64>
// CHECK:           scf.yield %[[SEL]] : vector<8xf64>
// CHECK:         } {"Emitted from" = "linalg.generic"}
// CHECK:         %[[R:.*]] = vector.reduction <add>, %[[LOOP]] : vector<8xf64> into f64
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

// Constant bounds whose trip count is a multiple of vl: an all-true mask,
// which MLIR 22's rewrite driver folds away (a plain vector load, no select).
// CHECK-LABEL: func.func @constant_bounds
// CHECK:         %[[LOOP:.*]] = scf.for %[[I:.*]] = %c0 to %c64 step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<8xf64>) {
// CHECK-NEXT:      %[[V:.*]] = vector.load %a[%[[I]]] : memref<64xf64>, vector<8xf64>
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : vector<8xf64>
// CHECK-NEXT:      scf.yield %[[S]] : vector<8xf64>
// CHECK-NEXT:    } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:    vector.reduction <add>, %[[LOOP]] : vector<8xf64> into f64
func.func @constant_bounds(%a: memref<64xf64>, %init: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (f64) {
    %v = memref.load %a[%i] : memref<64xf64>
    %s = arith.addf %acc, %v : f64
    scf.yield %s : f64
  } {"Emitted from" = "linalg.generic"}
  return %r : f64
}

// -----

// Constant bounds that vl does not divide: a create_mask again.
// CHECK-LABEL: func.func @constant_ragged
// CHECK:         vector.create_mask
func.func @constant_ragged(%a: memref<61xf64>, %init: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c61 = arith.constant 61 : index
  %r = scf.for %i = %c0 to %c61 step %c1 iter_args(%acc = %init) -> (f64) {
    %v = memref.load %a[%i] : memref<61xf64>
    %s = arith.addf %acc, %v : f64
    scf.yield %s : f64
  } {"Emitted from" = "linalg.generic"}
  return %r : f64
}

// -----

// mul: init | 1 .. 1 r |, reduction <mul>.
// CHECK-LABEL: func.func @product
// CHECK:         %[[ONE:.*]] = arith.constant dense<1> : vector<8xi32>
// CHECK:         vector.insert %init, %[[ONE]] [0] : i32 into vector<8xi32>
// CHECK:         arith.muli
// CHECK:         vector.reduction <mul>, %{{.*}} : vector<8xi32> into i32
func.func @product(%a: memref<?xi32>, %lo: index, %hi: index, %init: i32) -> i32 {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (i32) {
    %v = memref.load %a[%i] : memref<?xi32>
    %s = arith.muli %v, %acc : i32
    scf.yield %s : i32
  } {"Emitted from" = "linalg.generic"}
  return %r : i32
}

// -----

// and / or: the init is a broadcast of r.
// CHECK-LABEL: func.func @all_and_any
// CHECK:         %[[B:.*]] = vector.broadcast %init : i1 to vector<8xi1>
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[B]]) -> (vector<8xi1>)
// CHECK:           arith.andi
// CHECK:         vector.reduction <and>
// CHECK:         %[[B2:.*]] = vector.broadcast %{{.*}} : i1 to vector<8xi1>
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[B2]]) -> (vector<8xi1>)
// CHECK:           arith.ori
// CHECK:         vector.reduction <or>
func.func @all_and_any(%a: memref<?xi1>, %lo: index, %hi: index, %init: i1) -> i1 {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (i1) {
    %v = memref.load %a[%i] : memref<?xi1>
    %s = arith.andi %acc, %v : i1
    scf.yield %s : i1
  } {"Emitted from" = "other"}
  %q = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %r) -> (i1) {
    %v = memref.load %a[%i] : memref<?xi1>
    %s = arith.ori %acc, %v : i1
    scf.yield %s : i1
  } {"Emitted from" = "other"}
  return %q : i1
}

// -----

// xor is an add-like reduction (| 0 .. 0 r |); subf of the accumulator is add.
// CHECK-LABEL: func.func @xor_and_sub
// CHECK:         vector.insert %x, %{{.*}} [0] : i64 into vector<8xi64>
// CHECK:         arith.xori
// CHECK:         vector.reduction <xor>
// CHECK:         vector.insert %f, %{{.*}} [0] : f32 into vector<8xf32>
// CHECK:         arith.subf
// CHECK:         vector.reduction <add>, %{{.*}} : vector<8xf32> into f32
func.func @xor_and_sub(%a: memref<?xi64>, %b: memref<?xf32>, %lo: index, %hi: index, %x: i64, %f: f32) -> (i64, f32) {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %x) -> (i64) {
    %v = memref.load %a[%i] : memref<?xi64>
    %s = arith.xori %v, %acc : i64
    scf.yield %s : i64
  } {"Emitted from" = "linalg.generic"}
  %q = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %f) -> (f32) {
    %v = memref.load %b[%i] : memref<?xf32>
    %s = arith.subf %acc, %v : f32
    scf.yield %s : f32
  } {"Emitted from" = "linalg.generic"}
  return %r, %q : i64, f32
}

// -----

// Rejected: x - acc (not a reduction of acc), two iter_args, a reduction kind
// that is not add/mul/and/or/xor, step 2, no sparsifier attribute.
// CHECK-LABEL: func.func @rejected
// CHECK-NOT:     vector.
// CHECK:         func.return
func.func @rejected(%a: memref<?xf64>, %lo: index, %hi: index, %init: f64) -> (f64, f64, f64, f64, f64, f64) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r0 = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (f64) {
    %v = memref.load %a[%i] : memref<?xf64>
    %s = arith.subf %v, %acc : f64
    scf.yield %s : f64
  } {"Emitted from" = "linalg.generic"}
  %r1, %r2 = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init, %acc2 = %init) -> (f64, f64) {
    %v = memref.load %a[%i] : memref<?xf64>
    %s = arith.addf %acc, %v : f64
    scf.yield %s, %acc2 : f64, f64
  } {"Emitted from" = "linalg.generic"}
  %r3 = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (f64) {
    %v = memref.load %a[%i] : memref<?xf64>
    %s = arith.maximumf %acc, %v : f64
    scf.yield %s : f64
  } {"Emitted from" = "linalg.generic"}
  %r4 = scf.for %i = %lo to %hi step %c2 iter_args(%acc = %init) -> (f64) {
    %v = memref.load %a[%i] : memref<?xf64>
    %s = arith.addf %acc, %v : f64
    scf.yield %s : f64
  } {"Emitted from" = "linalg.generic"}
  %r5 = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (f64) {
    %v = memref.load %a[%i] : memref<?xf64>
    %s = arith.addf %acc, %v : f64
    scf.yield %s : f64
  }
  return %r0, %r1, %r2, %r3, %r4, %r5 : f64, f64, f64, f64, f64, f64
}
