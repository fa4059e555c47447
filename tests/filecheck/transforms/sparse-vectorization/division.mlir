// Integer division in vector loops. MLIR 22's vectorizeExpr takes arith.divsi
// and arith.divui (so do we: same vector ops) and no other integer division or
// remainder (remsi, remui, ceildivsi, ceildivui, floordivsi keep the scalar
// loop). A masked-off lane holds the zero its masked load passed through; as
// MLIR 22 we divide by it bare: the LLVM lowering's division guard (numpy's
// `x / 0 == 0`, `INT_MIN / -1 == INT_MIN`) makes every lane harmless.
// RUN: xsparse-opt --split-input-file %s -p 'sparse-vectorization{vl=8}' | filecheck %s
// RUN: xsparse-opt --split-input-file %s -p 'sparse-vectorization{vl=8},sparse-vector-peel' | filecheck %s --check-prefix=PEEL
// RUN: xsparse-opt --split-input-file %s -p 'sparse-vectorization{vl=4 enable-vla-vectorization=true},sparse-vector-peel' | filecheck %s --check-prefix=VLA

// A loaded divisor under a mask: divided bare, as MLIR 22 does.
// CHECK-LABEL: func.func @divsi
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant dense<0> : vector<8xi32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %lo to %hi step %[[C8]] {
// CHECK-NEXT:      %[[END:.*]] = affine.min affine_map<(d0, d1)[s0] -> (8, (d0 + (d1 * -1)))> (%hi, %[[I]])[%[[C8]]]
// CHECK-NEXT:      %[[MASK:.*]] = vector.create_mask %[[END]] : vector<8xi1>
// CHECK-NEXT:      %[[X:.*]] = vector.maskedload %a[%[[I]]], %[[MASK]], %[[ZERO]] : memref<?xi32>, vector<8xi1>, vector<8xi32> into vector<8xi32>
// CHECK-NEXT:      %[[Y:.*]] = vector.maskedload %b[%[[I]]], %[[MASK]], %[[ZERO]] : memref<?xi32>, vector<8xi1>, vector<8xi32> into vector<8xi32>
// CHECK-NEXT:      %[[Q:.*]] = arith.divsi %[[X]], %[[Y]] : vector<8xi32>
// CHECK-NEXT:      vector.maskedstore %c[%[[I]]], %[[MASK]], %[[Q]] : memref<?xi32>, vector<8xi1>, vector<8xi32>
// CHECK-NEXT:    } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:    func.return

// The unmasked main loop divides as the scalar loop does; the scalar epilogue
// divides by the loaded value.
// PEEL-LABEL: func.func @divsi
// PEEL:         scf.for %[[I:.*]] = %lo to %[[MAIN:.*]] step
// PEEL-NEXT:      %[[ALL:.*]] = arith.constant dense<true> : vector<8xi1>
// PEEL-NEXT:      %[[X:.*]] = vector.maskedload %a[%[[I]]], %[[ALL]]
// PEEL-NEXT:      %[[Y:.*]] = vector.maskedload %b[%[[I]]], %[[ALL]]
// PEEL-NEXT:      %[[Q:.*]] = arith.divsi %[[X]], %[[Y]] : vector<8xi32>
// PEEL-NEXT:      vector.maskedstore %c[%[[I]]], %[[ALL]], %[[Q]]
// PEEL-NEXT:    } {"Emitted from" = "linalg.generic"}
// PEEL-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// PEEL-NEXT:    scf.for %[[J:.*]] = %[[MAIN]] to %hi step %[[C1]] {
// PEEL-NEXT:      %[[SX:.*]] = memref.load %a[%[[J]]] : memref<?xi32>
// PEEL-NEXT:      %[[SY:.*]] = memref.load %b[%[[J]]] : memref<?xi32>
// PEEL-NEXT:      %[[SQ:.*]] = arith.divsi %[[SX]], %[[SY]] : i32
// PEEL-NEXT:      memref.store %[[SQ]], %c[%[[J]]] : memref<?xi32>
// PEEL-NEXT:    } {xsparse.epilogue}

// Scalable vectors: the masked remainder step divides bare too.
// VLA-LABEL: func.func @divsi
// VLA:         scf.if
// VLA-NEXT:      %[[END:.*]] = affine.min
// VLA-NEXT:      %[[MASK:.*]] = vector.create_mask %[[END]] : vector<[4]xi1>
// VLA-NEXT:      %[[X:.*]] = vector.maskedload %a[%{{.*}}], %[[MASK]]
// VLA-NEXT:      %[[Y:.*]] = vector.maskedload %b[%{{.*}}], %[[MASK]]
// VLA-NEXT:      %[[Q:.*]] = arith.divsi %[[X]], %[[Y]] : vector<[4]xi32>
// VLA-NEXT:      vector.maskedstore %c[%{{.*}}], %[[MASK]], %[[Q]]
func.func @divsi(%a: memref<?xi32>, %b: memref<?xi32>, %c: memref<?xi32>, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %y = memref.load %b[%i] : memref<?xi32>
    %z = arith.divsi %x, %y : i32
    memref.store %z, %c[%i] : memref<?xi32>
  } {"Emitted from" = "linalg.generic"}
  return
}

// -----

// A reduction of quotients: the masked merge of the accumulator after the
// division.
// CHECK-LABEL: func.func @divui_sum
// CHECK:         %[[LOOP:.*]] = scf.for %[[I:.*]] = %lo to %hi step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<8xi64>) {
// CHECK-NEXT:      %[[END:.*]] = affine.min
// CHECK-NEXT:      %[[MASK:.*]] = vector.create_mask %[[END]] : vector<8xi1>
// CHECK-NEXT:      %[[X:.*]] = vector.maskedload %a[%[[I]]], %[[MASK]]
// CHECK-NEXT:      %[[Y:.*]] = vector.maskedload %b[%[[I]]], %[[MASK]]
// CHECK-NEXT:      %[[Q:.*]] = arith.divui %[[X]], %[[Y]] : vector<8xi64>
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[Q]] : vector<8xi64>
// CHECK-NEXT:      %[[SEL:.*]] = arith.select %[[MASK]], %[[S]], %[[ACC]] : vector<8xi1>, vector<8xi64>
// CHECK-NEXT:      scf.yield %[[SEL]] : vector<8xi64>
// CHECK-NEXT:    } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:    %[[R:.*]] = vector.reduction <add>, %[[LOOP]] : vector<8xi64> into i64
func.func @divui_sum(%a: memref<?xi64>, %b: memref<?xi64>, %lo: index, %hi: index, %init: i64) -> i64 {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (i64) {
    %x = memref.load %a[%i] : memref<?xi64>
    %y = memref.load %b[%i] : memref<?xi64>
    %z = arith.divui %x, %y : i64
    %s = arith.addi %acc, %z : i64
    scf.yield %s : i64
  } {"Emitted from" = "linalg.generic"}
  return %r : i64
}

// -----

// A trip count that is a multiple of vl: all lanes on (plain vector loads
// and stores, as MLIR 22 folds its all-true masks).
// CHECK-LABEL: func.func @all_lanes
// CHECK:         scf.for %[[I:.*]] = %c0 to %c64 step %{{.*}} {
// CHECK-NEXT:      %[[X:.*]] = vector.load %a[%[[I]]] : memref<?xi32>, vector<8xi32>
// CHECK-NEXT:      %[[Y:.*]] = vector.load %b[%[[I]]] : memref<?xi32>, vector<8xi32>
// CHECK-NEXT:      %[[Q:.*]] = arith.divsi %[[X]], %[[Y]] : vector<8xi32>
// CHECK-NEXT:      vector.store %[[Q]], %c[%[[I]]] : memref<?xi32>, vector<8xi32>
// CHECK-NEXT:    } {"Emitted from" = "linalg.generic"}
func.func @all_lanes(%a: memref<?xi32>, %b: memref<?xi32>, %c: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %y = memref.load %b[%i] : memref<?xi32>
    %z = arith.divsi %x, %y : i32
    memref.store %z, %c[%i] : memref<?xi32>
  } {"Emitted from" = "linalg.generic"}
  return
}

// -----

// Constant divisors (what the sparsifier emits for `x / c`), splat as MLIR 22
// folds them, divided bare as in MLIR 22's output (signed -1 on INT_MIN is
// the lowering's to guard).
// CHECK-LABEL: func.func @constant_divisors
// CHECK:         %[[THREE:.*]] = arith.constant dense<3> : vector<8xi32>
// CHECK-NEXT:    %[[MINUS:.*]] = arith.constant dense<-1> : vector<8xi32>
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      %[[END:.*]] = affine.min
// CHECK-NEXT:      %[[MASK:.*]] = vector.create_mask %[[END]] : vector<8xi1>
// CHECK-NEXT:      %[[X:.*]] = vector.maskedload %a[%{{.*}}], %[[MASK]]
// CHECK-NEXT:      %[[Q:.*]] = arith.divsi %[[X]], %[[THREE]] : vector<8xi32>
// CHECK-NEXT:      %[[N:.*]] = arith.divsi %[[Q]], %[[MINUS]] : vector<8xi32>
// CHECK-NEXT:      %[[U:.*]] = arith.divui %[[N]], %[[MINUS]] : vector<8xi32>
// CHECK-NEXT:      vector.maskedstore %c[%{{.*}}], %[[MASK]], %[[U]]
func.func @constant_divisors(%a: memref<?xi32>, %c: memref<?xi32>, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : i32
  %cm1 = arith.constant -1 : i32
  scf.for %i = %lo to %hi step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %y = arith.divsi %x, %c3 : i32
    %z = arith.divsi %y, %cm1 : i32
    %u = arith.divui %z, %cm1 : i32
    memref.store %u, %c[%i] : memref<?xi32>
  } {"Emitted from" = "linalg.generic"}
  return
}

// -----

// Integer remainders and rounding divisions: not in MLIR 22's list, the
// scalar loops stay as they are.
// CHECK-LABEL: func.func @scalar_divisions
// CHECK-NOT:     vector.
// CHECK:         scf.for %[[I:.*]] = %lo to %hi step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xi32>
// CHECK-NEXT:      %[[Y:.*]] = memref.load %b[%[[I]]] : memref<?xi32>
// CHECK-NEXT:      %[[R:.*]] = arith.remsi %[[X]], %[[Y]] : i32
// CHECK-NEXT:      memref.store %[[R]], %c[%[[I]]] : memref<?xi32>
// CHECK-NEXT:    } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:    scf.for %[[I:.*]] = %lo to %hi step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xi32>
// CHECK-NEXT:      %[[Y:.*]] = memref.load %b[%[[I]]] : memref<?xi32>
// CHECK-NEXT:      %[[R:.*]] = arith.remui %[[X]], %[[Y]] : i32
// CHECK-NEXT:      memref.store %[[R]], %c[%[[I]]] : memref<?xi32>
// CHECK-NEXT:    } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:    scf.for %[[I:.*]] = %lo to %hi step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xi32>
// CHECK-NEXT:      %[[Y:.*]] = memref.load %b[%[[I]]] : memref<?xi32>
// CHECK-NEXT:      %[[R:.*]] = arith.ceildivsi %[[X]], %[[Y]] : i32
// CHECK-NEXT:      memref.store %[[R]], %c[%[[I]]] : memref<?xi32>
// CHECK-NEXT:    } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:    scf.for %[[I:.*]] = %lo to %hi step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xi32>
// CHECK-NEXT:      %[[Y:.*]] = memref.load %b[%[[I]]] : memref<?xi32>
// CHECK-NEXT:      %[[R:.*]] = arith.ceildivui %[[X]], %[[Y]] : i32
// CHECK-NEXT:      memref.store %[[R]], %c[%[[I]]] : memref<?xi32>
// CHECK-NEXT:    } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:    scf.for %[[I:.*]] = %lo to %hi step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xi32>
// CHECK-NEXT:      %[[Y:.*]] = memref.load %b[%[[I]]] : memref<?xi32>
// CHECK-NEXT:      %[[R:.*]] = arith.floordivsi %[[X]], %[[Y]] : i32
// CHECK-NEXT:      memref.store %[[R]], %c[%[[I]]] : memref<?xi32>
// CHECK-NEXT:    } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:    %[[R:.*]] = scf.for %[[I:.*]] = %lo to %hi step %c1 iter_args(%[[ACC:.*]] = %init) -> (i32) {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xi32>
// CHECK-NEXT:      %[[M:.*]] = arith.remsi %[[X]], %init : i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[M]] : i32
// CHECK-NEXT:      scf.yield %[[S]] : i32
// CHECK-NEXT:    } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:    func.return %[[R]] : i32
func.func @scalar_divisions(%a: memref<?xi32>, %b: memref<?xi32>, %c: memref<?xi32>, %lo: index, %hi: index, %init: i32) -> i32 {
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %y = memref.load %b[%i] : memref<?xi32>
    %z = arith.remsi %x, %y : i32
    memref.store %z, %c[%i] : memref<?xi32>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %y = memref.load %b[%i] : memref<?xi32>
    %z = arith.remui %x, %y : i32
    memref.store %z, %c[%i] : memref<?xi32>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %y = memref.load %b[%i] : memref<?xi32>
    %z = arith.ceildivsi %x, %y : i32
    memref.store %z, %c[%i] : memref<?xi32>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %y = memref.load %b[%i] : memref<?xi32>
    %z = arith.ceildivui %x, %y : i32
    memref.store %z, %c[%i] : memref<?xi32>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %y = memref.load %b[%i] : memref<?xi32>
    %z = arith.floordivsi %x, %y : i32
    memref.store %z, %c[%i] : memref<?xi32>
  } {"Emitted from" = "linalg.generic"}
  %r = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (i32) {
    %x = memref.load %a[%i] : memref<?xi32>
    %m = arith.remsi %x, %init : i32
    %s = arith.addi %acc, %m : i32
    scf.yield %s : i32
  } {"Emitted from" = "linalg.generic"}
  return %r : i32
}
