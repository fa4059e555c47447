// The ops vectorizeExpr accepts (MLIR's list): unary math/arith ops, casts
// (to a vector of their own result type), binary arith ops, shifts by a loop
// invariant (an op result outside the loop, as MLIR's isInvariantValue asks).
// Anything else rejects the loop.
// RUN: xsparse-opt --split-input-file %s -p 'sparse-vectorization{vl=4}' | filecheck %s

// CHECK-LABEL: func.func @unary
// CHECK-COUNT-10: {{math.absf|math.absi|math.ceil|math.floor|math.sqrt|math.expm1|math.log1p|math.sin|math.tanh|arith.negf}} %{{.*}} : vector<4x{{.*}}>
func.func @unary(%a: memref<?xf64>, %n: memref<?xi32>, %b: memref<?xf64>, %m: memref<?xi32>, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    %0 = math.absf %v : f64
    %1 = math.ceil %0 : f64
    %2 = math.floor %1 : f64
    %3 = math.sqrt %2 : f64
    %4 = math.expm1 %3 : f64
    %5 = math.log1p %4 : f64
    %6 = math.sin %5 : f64
    %7 = math.tanh %6 : f64
    %8 = arith.negf %7 : f64
    memref.store %8, %b[%i] : memref<?xf64>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %n[%i] : memref<?xi32>
    %0 = math.absi %v : i32
    memref.store %0, %m[%i] : memref<?xi32>
  } {"Emitted from" = "linalg.generic"}
  return
}

// -----

// CHECK-LABEL: func.func @casts
// CHECK: arith.extf %{{.*}} : vector<4xf32> to vector<4xf64>
// CHECK: arith.truncf %{{.*}} : vector<4xf64> to vector<4xf32>
// CHECK: arith.fptosi %{{.*}} : vector<4xf32> to vector<4xi32>
// CHECK: arith.fptoui %{{.*}} : vector<4xf32> to vector<4xi32>
// CHECK: arith.sitofp %{{.*}} : vector<4xi32> to vector<4xf32>
// CHECK: arith.uitofp %{{.*}} : vector<4xi32> to vector<4xf32>
// CHECK: arith.extsi %{{.*}} : vector<4xi32> to vector<4xi64>
// CHECK: arith.extui %{{.*}} : vector<4xi32> to vector<4xi64>
// CHECK: arith.trunci %{{.*}} : vector<4xi64> to vector<4xi32>
// CHECK: arith.index_cast %{{.*}} : vector<4xi32> to vector<4xindex>
// CHECK: arith.bitcast %{{.*}} : vector<4xi32> to vector<4xf32>
func.func @casts(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xi32>, %d: memref<?xi64>, %e: memref<?xindex>, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %a[%i] : memref<?xf32>
    %0 = arith.extf %v : f32 to f64
    %1 = arith.truncf %0 : f64 to f32
    memref.store %1, %b[%i] : memref<?xf32>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %a[%i] : memref<?xf32>
    %0 = arith.fptosi %v : f32 to i32
    memref.store %0, %c[%i] : memref<?xi32>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %a[%i] : memref<?xf32>
    %0 = arith.fptoui %v : f32 to i32
    memref.store %0, %c[%i] : memref<?xi32>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %c[%i] : memref<?xi32>
    %0 = arith.sitofp %v : i32 to f32
    memref.store %0, %b[%i] : memref<?xf32>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %c[%i] : memref<?xi32>
    %0 = arith.uitofp %v : i32 to f32
    memref.store %0, %b[%i] : memref<?xf32>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %c[%i] : memref<?xi32>
    %0 = arith.extsi %v : i32 to i64
    memref.store %0, %d[%i] : memref<?xi64>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %c[%i] : memref<?xi32>
    %0 = arith.extui %v : i32 to i64
    %1 = arith.trunci %0 : i64 to i32
    memref.store %1, %c[%i] : memref<?xi32>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %c[%i] : memref<?xi32>
    %0 = arith.index_cast %v : i32 to index
    memref.store %0, %e[%i] : memref<?xindex>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %c[%i] : memref<?xi32>
    %0 = arith.bitcast %v : i32 to f32
    memref.store %0, %b[%i] : memref<?xf32>
  } {"Emitted from" = "linalg.generic"}
  return
}

// -----

// CHECK-LABEL: func.func @binary
// CHECK-COUNT-4: {{arith.mulf|arith.divf|arith.addf|arith.subf}} %{{.*}}, %{{.*}} : vector<4xf64>
// CHECK-COUNT-11: {{arith.muli|arith.divsi|arith.divui|arith.addi|arith.subi|arith.andi|arith.ori|arith.xori|arith.shli|arith.shrui|arith.shrsi}} %{{.*}}, %{{.*}} : vector<4xi64>
func.func @binary(%a: memref<?xf64>, %n: memref<?xi64>, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  %s = arith.constant 3 : i64
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    %0 = arith.mulf %v, %v : f64
    %1 = arith.divf %0, %v : f64
    %2 = arith.addf %1, %v : f64
    %3 = arith.subf %2, %v : f64
    memref.store %3, %a[%i] : memref<?xf64>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %n[%i] : memref<?xi64>
    %0 = arith.muli %v, %v : i64
    %1 = arith.divsi %0, %v : i64
    %2 = arith.divui %1, %v : i64
    %3 = arith.addi %2, %v : i64
    %4 = arith.subi %3, %v : i64
    %5 = arith.andi %4, %v : i64
    %6 = arith.ori %5, %v : i64
    %7 = arith.xori %6, %v : i64
    %8 = arith.shli %7, %s : i64
    %9 = arith.shrui %8, %s : i64
    %10 = arith.shrsi %9, %s : i64
    memref.store %10, %n[%i] : memref<?xi64>
  } {"Emitted from" = "linalg.generic"}
  return
}

// -----

// Rejected: ops outside the list (math.exp, arith.maximumf, arith.cmpf +
// arith.select, arith.remsi), a shift by a loop-variant amount.
// CHECK-LABEL: func.func @rejected
// CHECK-NOT:     vector.
// CHECK:         func.return
func.func @rejected(%a: memref<?xf64>, %n: memref<?xi64>, %lo: index, %hi: index, %f: f64) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    %0 = math.exp %v : f64
    memref.store %0, %a[%i] : memref<?xf64>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    %0 = arith.maximumf %v, %f : f64
    memref.store %0, %a[%i] : memref<?xf64>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    %p = arith.cmpf olt, %v, %f : f64
    %0 = arith.select %p, %v, %f : f64
    memref.store %0, %a[%i] : memref<?xf64>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %n[%i] : memref<?xi64>
    %0 = arith.remsi %v, %v : i64
    memref.store %0, %n[%i] : memref<?xi64>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %v = memref.load %n[%i] : memref<?xi64>
    %0 = arith.shli %v, %v : i64
    memref.store %0, %n[%i] : memref<?xi64>
  } {"Emitted from" = "linalg.generic"}
  return
}
