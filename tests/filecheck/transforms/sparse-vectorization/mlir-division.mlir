// Divisions as MLIR 22 decides them: `divf`, `divsi` and `divui` vectorize,
// by a constant (a splat), by an invariant (a broadcast) or by a loaded
// value; the integer remainders and rounding divisions do not. MLIR 22's
// sparsifier takes `x / c` for a constant `c` only, so the other divisors
// come through `sparse_tensor.binary` or a written-out loop. (Where lanes
// can be off, our integer division divides them by 1: division.mlir.) The
// BOTH checks run on either tool's output.
// RUN: xsparse-opt %s -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | filecheck %s --check-prefix=BOTH
// RUN: %if mlir-opt %{ %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %s | filecheck %s --check-prefix=BOTH %}

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#ew = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
#ew2 = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}

// BOTH-LABEL: func.func @divf_by_constant(
// BOTH:         %[[C:.*]] = arith.constant dense<3.000000e+00> : vector<8xf64>
// BOTH:         scf.for
// BOTH:           %[[X:.*]] = vector.maskedload {{.*}} : memref<?xf64>, vector<8xi1>, vector<8xf64> into vector<8xf64>
// BOTH-NEXT:      %[[Q:.*]] = arith.divf %[[X]], %[[C]] : vector<8xf64>
// BOTH-NEXT:      vector.scatter %{{.*}}[%{{.*}}] [%{{.*}}], %{{.*}}, %[[Q]] : memref<?xf64>, vector<8xindex>, vector<8xi1>, vector<8xf64>
func.func @divf_by_constant(%a: tensor<?xf64, #SV>, %x: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #ew ins(%a : tensor<?xf64, #SV>) outs(%x : tensor<?xf64>) {
  ^bb0(%p: f64, %o: f64):
    %c = arith.constant 3.0 : f64
    %r = arith.divf %p, %c : f64
    linalg.yield %r : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// BOTH-LABEL: func.func @divsi_by_constant(
// BOTH:         %[[C:.*]] = arith.constant dense<7> : vector<8xi32>
// BOTH:         scf.for
// BOTH:           %[[X:.*]] = vector.maskedload {{.*}} : memref<?xi32>, vector<8xi1>, vector<8xi32> into vector<8xi32>
// BOTH-NEXT:      %[[Q:.*]] = arith.divsi %[[X]], %[[C]] : vector<8xi32>
// BOTH-NEXT:      vector.scatter %{{.*}}, %[[Q]] : memref<?xi32>, vector<8xindex>, vector<8xi1>, vector<8xi32>
func.func @divsi_by_constant(%a: tensor<?xi32, #SV>, %x: tensor<?xi32>) -> tensor<?xi32> {
  %0 = linalg.generic #ew ins(%a : tensor<?xi32, #SV>) outs(%x : tensor<?xi32>) {
  ^bb0(%p: i32, %o: i32):
    %c = arith.constant 7 : i32
    %r = arith.divsi %p, %c : i32
    linalg.yield %r : i32
  } -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// BOTH-LABEL: func.func @divui_by_constant(
// BOTH:         %[[C:.*]] = arith.constant dense<3> : vector<8xi64>
// BOTH:         scf.for
// BOTH:           %[[X:.*]] = vector.maskedload {{.*}} : memref<?xi64>, vector<8xi1>, vector<8xi64> into vector<8xi64>
// BOTH-NEXT:      %[[Q:.*]] = arith.divui %[[X]], %[[C]] : vector<8xi64>
func.func @divui_by_constant(%a: tensor<?xi64, #SV>, %x: tensor<?xi64>) -> tensor<?xi64> {
  %0 = linalg.generic #ew ins(%a : tensor<?xi64, #SV>) outs(%x : tensor<?xi64>) {
  ^bb0(%p: i64, %o: i64):
    %c = arith.constant 3 : i64
    %r = arith.divui %p, %c : i64
    linalg.yield %r : i64
  } -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// The remainder by a constant: scalar (MLIR 22 does not sparsify it).
// BOTH-LABEL: func.func @remsi_by_constant(
// BOTH-NOT:     vector.
// BOTH:         arith.remsi
// BOTH-NOT:     vector.
// BOTH:         return
func.func @remsi_by_constant(%a: tensor<?xi32, #SV>, %x: tensor<?xi32>) -> tensor<?xi32> {
  %0 = linalg.generic #ew ins(%a : tensor<?xi32, #SV>) outs(%x : tensor<?xi32>) {
  ^bb0(%p: i32, %o: i32):
    %c = arith.constant 3 : i32
    %r = arith.remsi %p, %c : i32
    linalg.yield %r : i32
  } -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// By a loaded value (the dense b gathered at a's coordinates).
// BOTH-LABEL: func.func @divf_by_loaded(
// BOTH:         scf.for
// BOTH:           %[[X:.*]] = vector.maskedload {{.*}} : memref<?xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// BOTH-NEXT:      %[[CRD:.*]] = vector.maskedload {{.*}} : memref<?xindex>, vector<8xi1>, vector<8xindex> into vector<8xindex>
// BOTH:           %[[Y:.*]] = vector.gather %{{.*}}[%{{.*}}] [%[[CRD]]]
// BOTH-NEXT:      %[[Q:.*]] = arith.divf %[[X]], %[[Y]] : vector<8xf32>
func.func @divf_by_loaded(%a: tensor<?xf32, #SV>, %b: tensor<?xf32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = linalg.generic #ew2 ins(%a, %b : tensor<?xf32, #SV>, tensor<?xf32>) outs(%x : tensor<?xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %d = sparse_tensor.binary %p, %q : f32, f32 to f32
      overlap = {
        ^bb0(%u: f32, %v: f32):
          %r = arith.divf %u, %v : f32
          sparse_tensor.yield %r : f32
      }
      left = identity
      right = {}
    linalg.yield %d : f32
  } -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// By a function argument and by a value loaded in front of the loop: a
// broadcast divisor. The remainder stays scalar.
// BOTH-LABEL: func.func @by_invariants(
// BOTH:         scf.for
// BOTH:           %[[D:.*]] = vector.broadcast %{{.*}} : i32 to vector<8xi32>
// BOTH:           arith.divui %{{.*}}, %{{.*}} : vector<8xi32>
// BOTH:         } {"Emitted from" = "linalg.generic"}
// BOTH:         scf.for
// BOTH:           vector.broadcast %{{.*}} : f64 to vector<8xf64>
// BOTH:           arith.divf %{{.*}}, %{{.*}} : vector<8xf64>
// BOTH:         } {"Emitted from" = "linalg.generic"}
// BOTH-NOT:     vector.
// BOTH:         arith.remui %{{.*}}, %{{.*}} : i32
// BOTH-NOT:     vector.
// BOTH:         return
func.func @by_invariants(%a: memref<?xi32>, %f: memref<?xf64>, %s: memref<f64>, %lo: index, %hi: index, %n: i32) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %q = arith.divui %x, %n : i32
    memref.store %q, %a[%i] : memref<?xi32>
  } {"Emitted from" = "linalg.generic"}
  %d = memref.load %s[] : memref<f64>
  scf.for %i = %lo to %hi step %c1 {
    %x = memref.load %f[%i] : memref<?xf64>
    %q = arith.divf %x, %d : f64
    memref.store %q, %f[%i] : memref<?xf64>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %q = arith.remui %x, %n : i32
    memref.store %q, %a[%i] : memref<?xi32>
  } {"Emitted from" = "linalg.generic"}
  return
}
