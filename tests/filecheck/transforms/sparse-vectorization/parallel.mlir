// ForOpRewriter on parallel loops (a final memref.store) and subscripts:
// the step becomes vl in place; the loop index gives maskedload/maskedstore,
// an index loaded in the loop gives gather/scatter, invariants are broadcast,
// the loop index as a value becomes broadcast(i) + [0, 1, ...].
// RUN: xsparse-opt --split-input-file %s -p 'sparse-vectorization{vl=8}' | filecheck %s
// RUN: xsparse-opt --split-input-file %s -p 'sparse-vectorization{vl=8 enable-simd-index32=true}' | filecheck %s --check-prefix=IDX32

// CHECK-LABEL: func.func @scale
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK:         scf.for %[[I:.*]] = %lo to %hi step %[[C8]] {
// CHECK:           %[[MASK:.*]] = vector.create_mask
// CHECK:           %[[V:.*]] = vector.maskedload %a[%[[I]]], %[[MASK]]
// CHECK:           %[[S:.*]] = vector.broadcast %s : f64 to vector<8xf64>
// CHECK:           %[[M:.*]] = arith.mulf %[[V]], %[[S]] : vector<8xf64>
// CHECK:           vector.maskedstore %b[%[[I]]], %[[MASK]], %[[M]] : memref<?xf64>, vector<8xi1>, vector<8xf64>
// CHECK-NOT:       memref.
// CHECK:         } {"Emitted from" = "linalg.generic"}
func.func @scale(%a: memref<?xf64>, %b: memref<?xf64>, %lo: index, %hi: index, %s: f64) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    %m = arith.mulf %v, %s : f64
    memref.store %m, %b[%i] : memref<?xf64>
  } {"Emitted from" = "linalg.generic"}
  return
}

// -----

// x[crd[i]] with i32 coordinates: the index vector is zero-extended to i64
// (kept 32-bit with enable-simd-index32); the store into y[crd[i]] scatters.
// CHECK-LABEL: func.func @gather_scatter
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           %[[CRD:.*]] = vector.maskedload %crd[%[[I]]], %[[MASK:.*]], %{{.*}} : memref<?xi32>, vector<8xi1>, vector<8xi32> into vector<8xi32>
// CHECK:           %[[WIDE:.*]] = arith.extui %[[CRD]] : vector<8xi32> to vector<8xi64>
// CHECK:           %[[CRD2:.*]] = vector.maskedload %crd[%[[I]]]
// CHECK:           %[[WIDE2:.*]] = arith.extui %[[CRD2]] : vector<8xi32> to vector<8xi64>
// CHECK:           %[[X:.*]] = vector.gather %x[%[[C0]]] [%[[WIDE2]]], %[[MASK]], %{{.*}} : memref<?xf64>, vector<8xi64>, vector<8xi1>, vector<8xf64> into vector<8xf64>
// CHECK:           vector.scatter %y[%[[C0]]] [%[[WIDE]]], %[[MASK]], %{{.*}} : memref<?xf64>, vector<8xi64>, vector<8xi1>, vector<8xf64>
// IDX32-LABEL: func.func @gather_scatter
// IDX32-NOT:     arith.extui
// IDX32:         vector.gather %x[%{{.*}}] [%{{.*}}], %{{.*}}, %{{.*}} : memref<?xf64>, vector<8xi32>
// IDX32:         vector.scatter %y[%{{.*}}] [%{{.*}}], %{{.*}}, %{{.*}} : memref<?xf64>, vector<8xi32>
func.func @gather_scatter(%crd: memref<?xi32>, %x: memref<?xf64>, %y: memref<?xf64>, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    %c = memref.load %crd[%i] : memref<?xi32>
    %w = arith.extui %c : i32 to i64
    %j = arith.index_cast %w : i64 to index
    %v = memref.load %x[%j] : memref<?xf64>
    %n = arith.negf %v : f64
    memref.store %n, %y[%j] : memref<?xf64>
  } {"Emitted from" = "linalg.generic"}
  return
}

// -----

// 16-bit coordinates widen to i32 (with or without enable-simd-index32);
// index-typed ones are used as they are.
// CHECK-LABEL: func.func @narrow_and_index
// CHECK:         arith.extui %{{.*}} : vector<8xi16> to vector<8xi32>
// CHECK:         vector.gather %x[%{{.*}}] [%{{.*}}], {{.*}} : memref<?xf64>, vector<8xi32>
// CHECK-NOT:     arith.extui
// CHECK:         vector.gather %x[%{{.*}}] [%{{.*}}], {{.*}} : memref<?xf64>, vector<8xindex>
// IDX32-LABEL: func.func @narrow_and_index
// IDX32:         arith.extui %{{.*}} : vector<8xi16> to vector<8xi32>
func.func @narrow_and_index(%c16: memref<?xi16>, %cix: memref<?xindex>, %x: memref<?xf64>, %y: memref<?xf64>, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    %c = memref.load %c16[%i] : memref<?xi16>
    %j = arith.index_cast %c : i16 to index
    %v = memref.load %x[%j] : memref<?xf64>
    memref.store %v, %y[%i] : memref<?xf64>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %j = memref.load %cix[%i] : memref<?xindex>
    %v = memref.load %x[%j] : memref<?xf64>
    memref.store %v, %y[%i] : memref<?xf64>
  } {"Emitted from" = "linalg.generic"}
  return
}

// -----

// a[i][j] with an outer index and a[base + j] (base computed outside, as
// after LICM; a block argument as base is rejected, as in MLIR).
// CHECK-LABEL: func.func @outer_and_offset
// CHECK:         scf.for %[[J:.*]] = %lo to %hi step
// CHECK:           %[[K:.*]] = arith.addi %base, %[[J]] : index
// CHECK:           vector.maskedload %a[%i, %[[J]]]
// CHECK:           vector.maskedstore %b[%[[K]]]
func.func @outer_and_offset(%a: memref<?x?xf64>, %b: memref<?xf64>, %i: index, %n: index, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  %base = arith.muli %i, %n : index
  scf.for %j = %lo to %hi step %c1 {
    %v = memref.load %a[%i, %j] : memref<?x?xf64>
    %k = arith.addi %base, %j : index
    memref.store %v, %b[%k] : memref<?xf64>
  } {"Emitted from" = "linalg.generic"}
  return
}

// -----

// The loop index as a value: broadcast + [0, 1, ..., 7] (vector.step, lowered
// to a constant as MLIR does for fixed lengths).
// CHECK-LABEL: func.func @iota
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           %[[B:.*]] = vector.broadcast %[[I]] : index to vector<8xindex>
// CHECK:           %[[STEP:.*]] = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xindex>
// CHECK:           %[[IOTA:.*]] = arith.addi %[[B]], %[[STEP]] : vector<8xindex>
// CHECK:           %[[C:.*]] = arith.index_cast %[[IOTA]] : vector<8xindex> to vector<8xi64>
// CHECK:           %[[F:.*]] = arith.sitofp %[[C]] : vector<8xi64> to vector<8xf64>
// CHECK:           vector.maskedstore %y[%[[I]]], %{{.*}}, %[[F]]
func.func @iota(%y: memref<?xf64>, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    %c = arith.index_cast %i : index to i64
    %f = arith.sitofp %c : i64 to f64
    memref.store %f, %y[%i] : memref<?xf64>
  } {"Emitted from" = "linalg.generic"}
  return
}

// -----

// A scalar tensor operand read in the loop (a 0-d buffer the loop does not
// otherwise use) is read once in front of it and broadcast where it is used,
// here twice (once as a shift amount).
// CHECK-LABEL: func.func @scalar_read
// CHECK:         %[[N:.*]] = memref.load %s[] : memref<i32>
// CHECK:         scf.for %[[I:.*]] = %lo to %hi step %{{.*}} {
// CHECK:           %[[X:.*]] = vector.maskedload %a[%[[I]]]
// CHECK-NEXT:      %[[B1:.*]] = vector.broadcast %[[N]] : i32 to vector<8xi32>
// CHECK-NEXT:      %[[Y:.*]] = arith.addi %[[X]], %[[B1]] : vector<8xi32>
// CHECK-NEXT:      %[[B2:.*]] = vector.broadcast %[[N]] : i32 to vector<8xi32>
// CHECK-NEXT:      %[[Z:.*]] = arith.shli %[[Y]], %[[B2]] : vector<8xi32>
// CHECK-NEXT:      vector.maskedstore %a[%[[I]]], %{{.*}}, %[[Z]]
// CHECK-NEXT:    } {"Emitted from" = "linalg.generic"}
func.func @scalar_read(%a: memref<?xi32>, %s: memref<i32>, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %n = memref.load %s[] : memref<i32>
    %y = arith.addi %x, %n : i32
    %z = arith.shli %y, %n : i32
    memref.store %z, %a[%i] : memref<?xi32>
  } {"Emitted from" = "linalg.generic"}
  return
}

// -----

// Rejected: an invariant innermost subscript, an indirect outer subscript, a
// second store (it would run once per vector), a loop with only a yield.
// CHECK-LABEL: func.func @rejected
// CHECK-NOT:     vector.
// CHECK:         func.return
func.func @rejected(%a: memref<?xf64>, %m: memref<?x?xf64>, %crd: memref<?xindex>, %k: index, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    memref.store %v, %a[%k] : memref<?xf64>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %j = memref.load %crd[%i] : memref<?xindex>
    %v = memref.load %m[%j, %k] : memref<?x?xf64>
    memref.store %v, %a[%i] : memref<?xf64>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    memref.store %v, %a[%i] : memref<?xf64>
    memref.store %v, %a[%i] : memref<?xf64>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
  } {"Emitted from" = "linalg.generic"}
  return
}
