// RUN: xsparse-opt %s --split-input-file -p sparsification | filecheck %s
// RUN: xsparse-opt %s --split-input-file -p 'sparsification{sparse-emit-strategy=sparse-iterator}' | filecheck %s --check-prefix=ITER

// Co-iteration. A product annihilates: intersection, one while loop.

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#dot = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
func.func @dot(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>, %x: tensor<f64>) -> tensor<f64> {
  %0 = linalg.generic #dot ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%x : tensor<f64>) {
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %m = arith.mulf %av, %bv : f64
    %s = arith.addf %xv, %m : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  return %0 : tensor<f64>
}

// ITER-LABEL: func.func @dot
// ITER:         %[[A:.*]] = indexing.stored
// ITER:         %[[B:.*]] = indexing.stored
// ITER:         %[[AB:.*]] = indexing.intersect %[[A]], %[[B]] : !indexing.set
// ITER:         indexing.foreach %[[AB]] iter_args(%{{.*}}) : !indexing.set -> (f64)
// ITER-NEXT:    case %{{.*}}, %{{.*}} at(%{{.*}}) (%{{.*}}: f64) {
// ITER-NOT:     case

// CHECK-LABEL: func.func @dot
// CHECK:         %[[INIT:.*]] = memref.load %{{.*}}[] : memref<f64>
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}} = scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %[[INIT]]) : (index, index, f64) -> (index, index, f64) {
// CHECK:           arith.andi
// CHECK:           scf.condition
// CHECK:         } do {
// CHECK:           arith.cmpi ult
// CHECK:           arith.select
// CHECK:           scf.if %{{.*}} -> (f64) {
// CHECK:             arith.mulf
// CHECK:             arith.addf
// CHECK:           } else {
// CHECK:         } attributes {"Emitted from" = "linalg.generic"}
// CHECK-NOT:     scf.for
// CHECK:         memref.store %{{.*}}, %{{.*}}[] : memref<f64>

// -----

// A sum unites: one while loop with three cases, then the remainder of each side.
// The output is not read, so it is zero-filled first (as MLIR 22 does).

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#add = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @sub(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>, %x: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #add ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%x : tensor<?xf64>) {
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %s = arith.subf %av, %bv : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// ITER-LABEL: func.func @sub
// ITER:         %[[U:.*]] = indexing.union %{{.*}}, %{{.*}} : !indexing.set
// ITER:         indexing.foreach %[[U]] : !indexing.set
// ITER-NEXT:    case %{{.*}}, %{{.*}} at
// ITER:           arith.subf
// ITER:         case %{{.*}}, _ at
// ITER:         case _, %{{.*}} at
// ITER:           arith.negf

// CHECK-LABEL: func.func @sub
// CHECK:         linalg.fill ins(%{{.*}} : f64) outs(%{{.*}} : memref<?xf64>)
// CHECK:         %[[END0:.*]], %[[END1:.*]] = scf.while
// CHECK:           scf.if
// CHECK:             arith.subf
// CHECK:           } else {
// CHECK:             scf.if
// CHECK:             } else {
// CHECK:               scf.if
// CHECK:                 arith.negf
// CHECK:         scf.for %{{.*}} = %[[END0]] to
// CHECK:         scf.for %{{.*}} = %[[END1]] to
// CHECK:           arith.negf

// -----

// exp(a - b) is not zero where both are absent, so every coordinate is visited:
// the union of the dense range with both sparse sets (MLIR 22 leaves this kernel
// unsparsified).

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#ew = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @exp_sub(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>, %x: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #ew ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%x : tensor<?xf64>) {
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %d = arith.subf %av, %bv : f64
    %e = math.exp %d : f64
    linalg.yield %e : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// ITER-LABEL: func.func @exp_sub
// ITER:         %[[ALL:.*]] = indexing.range
// ITER:         %[[AB:.*]] = indexing.union %{{.*}}, %{{.*}} : !indexing.set
// ITER:         %[[U:.*]] = indexing.union %[[ALL]], %[[AB]] : !indexing.set
// ITER:         indexing.foreach %[[U]]
// ITER-NEXT:    case %{{.*}}, %{{.*}}, %{{.*}} at
// ITER:         case %{{.*}}, %{{.*}}, _ at
// ITER:         case %{{.*}}, _, %{{.*}} at
// ITER:         case %{{.*}}, _, _ at
// ITER:           %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// ITER:           math.exp %[[Z]] : f64
