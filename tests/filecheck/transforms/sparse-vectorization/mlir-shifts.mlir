// Shifts as MLIR 22 decides them: by a loop invariant that is an op result
// (a constant, a value loaded in front of the loop) they vectorize, the
// amount broadcast; by a function argument (a block argument, which MLIR's
// isInvariantValue does not count) or by a value loaded in the loop, the
// loop stays scalar. The BOTH checks run on either tool's output, OURS on
// xsparse's and MLIR on mlir-opt-22's.
// RUN: xsparse-opt %s -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | filecheck %s --check-prefixes=BOTH,OURS
// RUN: %if mlir-opt %{ %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %s | filecheck %s --check-prefixes=BOTH,MLIR %}

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#ew = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}

// BOTH-LABEL: func.func @shli_by_constant(
// BOTH:         %[[C:.*]] = arith.constant dense<2> : vector<8xi32>
// BOTH:         scf.for
// BOTH:           %[[X:.*]] = vector.maskedload {{.*}} : memref<?xi32>, vector<8xi1>, vector<8xi32> into vector<8xi32>
// BOTH-NEXT:      %[[S:.*]] = arith.shli %[[X]], %[[C]] : vector<8xi32>
// BOTH-NEXT:      vector.scatter {{.*}}, %[[S]] : memref<?xi32>, vector<8xindex>, vector<8xi1>, vector<8xi32>
func.func @shli_by_constant(%a: tensor<?xi32, #SV>, %x: tensor<?xi32>) -> tensor<?xi32> {
  %0 = linalg.generic #ew ins(%a : tensor<?xi32, #SV>) outs(%x : tensor<?xi32>) {
  ^bb0(%p: i32, %o: i32):
    %c = arith.constant 2 : i32
    %r = arith.shli %p, %c : i32
    linalg.yield %r : i32
  } -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// BOTH-LABEL: func.func @shrsi_by_constant(
// BOTH:         %[[C:.*]] = arith.constant dense<3> : vector<8xi64>
// BOTH:         scf.for
// BOTH:           %[[X:.*]] = vector.maskedload {{.*}} : memref<?xi64>, vector<8xi1>, vector<8xi64> into vector<8xi64>
// BOTH-NEXT:      %[[S:.*]] = arith.shrsi %[[X]], %[[C]] : vector<8xi64>
func.func @shrsi_by_constant(%a: tensor<?xi64, #SV>, %x: tensor<?xi64>) -> tensor<?xi64> {
  %0 = linalg.generic #ew ins(%a : tensor<?xi64, #SV>) outs(%x : tensor<?xi64>) {
  ^bb0(%p: i64, %o: i64):
    %c = arith.constant 3 : i64
    %r = arith.shrsi %p, %c : i64
    linalg.yield %r : i64
  } -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// BOTH-LABEL: func.func @shrui_by_argument(
// BOTH-NOT:     vector.
// BOTH:         arith.shrui %{{.*}}, %{{.*}} : i32
// BOTH-NOT:     vector.
// BOTH:         return
func.func @shrui_by_argument(%a: tensor<?xi32, #SV>, %s: i32, %x: tensor<?xi32>) -> tensor<?xi32> {
  %0 = linalg.generic #ew ins(%a : tensor<?xi32, #SV>) outs(%x : tensor<?xi32>) {
  ^bb0(%p: i32, %o: i32):
    %r = arith.shrui %p, %s : i32
    linalg.yield %r : i32
  } -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// By an amount loaded in front of the loop: a broadcast; by one loaded in
// the loop: scalar.
// BOTH-LABEL: func.func @shli_by_loads(
// BOTH:         scf.for
// BOTH:           %[[N:.*]] = vector.broadcast %{{.*}} : i32 to vector<8xi32>
// BOTH:           arith.shli %{{.*}}, %[[N]] : vector<8xi32>
// BOTH:         } {"Emitted from" = "linalg.generic"}
// BOTH-NOT:     vector.
// BOTH:         arith.shli %{{.*}}, %{{.*}} : i32
// BOTH-NOT:     vector.
// BOTH:         return
func.func @shli_by_loads(%a: memref<?xi32>, %b: memref<?xi32>, %s: memref<i32>, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  %n = memref.load %s[] : memref<i32>
  scf.for %i = %lo to %hi step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %y = arith.shli %x, %n : i32
    memref.store %y, %a[%i] : memref<?xi32>
  } {"Emitted from" = "linalg.generic"}
  scf.for %i = %lo to %hi step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %m = memref.load %b[%i] : memref<?xi32>
    %y = arith.shli %x, %m : i32
    memref.store %y, %a[%i] : memref<?xi32>
  } {"Emitted from" = "linalg.generic"}
  return
}

// By a scalar tensor: MLIR 22 does not sparsify it; our sparsifier reads the
// 0-d buffer in the loop, which only reads it: the read moves in front of the
// loop, the amount is broadcast.
// BOTH-LABEL: func.func @shli_by_scalar_tensor(
// MLIR:         linalg.generic
// OURS:         %[[N:.*]] = memref.load %{{.*}}[] : memref<i32>
// OURS:         scf.for
// OURS:           %[[V:.*]] = vector.broadcast %[[N]] : i32 to vector<8xi32>
// OURS-NEXT:      arith.shli %{{.*}}, %[[V]] : vector<8xi32>
func.func @shli_by_scalar_tensor(%a: tensor<?xi32, #SV>, %s: tensor<i32>, %x: tensor<?xi32>) -> tensor<?xi32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a, %s : tensor<?xi32, #SV>, tensor<i32>) outs(%x : tensor<?xi32>) {
  ^bb0(%p: i32, %n: i32, %o: i32):
    %r = arith.shli %p, %n : i32
    linalg.yield %r : i32
  } -> tensor<?xi32>
  return %0 : tensor<?xi32>
}
