// Reduction loops as MLIR 22 decides them: add/sub (init | 0 .. 0 r |), mul
// (| 1 .. 1 r |), and/or (| r .. r |), xor; min/max and a subtraction of the
// accumulator are not reductions it vectorizes. MLIR 22's sparsifier leaves
// a mul, and, min or max reduction over a sparse operand to linalg, so those
// loops are written out here; the rest are sparsified by each tool. The BOTH
// checks run on either tool's output.
// RUN: xsparse-opt %s -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | filecheck %s --check-prefix=BOTH
// RUN: %if mlir-opt %{ %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %s | filecheck %s --check-prefix=BOTH %}

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#red = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
#red2 = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}

// BOTH-LABEL: func.func @sub_f32(
// BOTH:         %[[INIT:.*]] = vector.insert %{{.*}}, %[[ZERO:.*]] [0] : f32 into vector<8xf32>
// BOTH:         %[[LOOP:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<8xf32>) {
// BOTH:           %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<8xi1>
// BOTH-NEXT:      %[[V:.*]] = vector.maskedload %{{.*}}[%[[I]]], %[[MASK]], %[[ZERO]] : memref<?xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// BOTH-NEXT:      %[[S:.*]] = arith.subf %[[ACC]], %[[V]] : vector<8xf32>
// BOTH-NEXT:      %[[SEL:.*]] = arith.select %[[MASK]], %[[S]], %[[ACC]] : vector<8xi1>, vector<8xf32>
// BOTH-NEXT:      scf.yield %[[SEL]] : vector<8xf32>
// BOTH-NEXT:    } {"Emitted from" = "linalg.generic"}
// BOTH-NEXT:    vector.reduction <add>, %[[LOOP]] : vector<8xf32> into f32
func.func @sub_f32(%a: tensor<?xf32, #SV>, %x: tensor<f32>) -> tensor<f32> {
  %0 = linalg.generic #red ins(%a : tensor<?xf32, #SV>) outs(%x : tensor<f32>) {
  ^bb0(%p: f32, %o: f32):
    %r = arith.subf %o, %p : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %0 : tensor<f32>
}

// BOTH-LABEL: func.func @xor_i32(
// BOTH:         vector.insert %{{.*}}, %{{.*}} [0] : i32 into vector<8xi32>
// BOTH:         scf.for
// BOTH:           arith.xori %{{.*}}, %{{.*}} : vector<8xi32>
// BOTH:         vector.reduction <xor>, %{{.*}} : vector<8xi32> into i32
func.func @xor_i32(%a: tensor<?xi32, #SV>, %x: tensor<i32>) -> tensor<i32> {
  %0 = linalg.generic #red ins(%a : tensor<?xi32, #SV>) outs(%x : tensor<i32>) {
  ^bb0(%p: i32, %o: i32):
    %r = arith.xori %o, %p : i32
    linalg.yield %r : i32
  } -> tensor<i32>
  return %0 : tensor<i32>
}

// A union: the while loop stays scalar, the two trailing loops share one
// vector accumulator (the reduction chain) and one horizontal reduction.
// BOTH-LABEL: func.func @sum_union(
// BOTH:         scf.while
// BOTH:         %[[INIT:.*]] = vector.insert %{{.*}}, %{{.*}} [0] : f64 into vector<8xf64>
// BOTH:         %[[L1:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (vector<8xf64>) {
// BOTH:         %[[L2:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[L1]]) -> (vector<8xf64>) {
// BOTH:         vector.reduction <add>, %[[L2]] : vector<8xf64> into f64
// BOTH-NOT:     vector.reduction
// BOTH:         return
func.func @sum_union(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>, %x: tensor<f64>) -> tensor<f64> {
  %0 = linalg.generic #red2 ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%x : tensor<f64>) {
  ^bb0(%p: f64, %q: f64, %o: f64):
    %s = arith.addf %p, %q : f64
    %r = arith.addf %o, %s : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  return %0 : tensor<f64>
}

// or: the accumulator is broadcast; chained the same way.
// BOTH-LABEL: func.func @or_union(
// BOTH:         scf.while
// BOTH:         %[[INIT:.*]] = vector.broadcast %{{.*}} : i32 to vector<8xi32>
// BOTH:         %[[L1:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (vector<8xi32>) {
// BOTH:         %[[L2:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[L1]]) -> (vector<8xi32>) {
// BOTH:         vector.reduction <or>, %[[L2]] : vector<8xi32> into i32
// BOTH-NOT:     vector.reduction
// BOTH:         return
func.func @or_union(%a: tensor<?xi32, #SV>, %b: tensor<?xi32, #SV>, %x: tensor<i32>) -> tensor<i32> {
  %0 = linalg.generic #red2 ins(%a, %b : tensor<?xi32, #SV>, tensor<?xi32, #SV>) outs(%x : tensor<i32>) {
  ^bb0(%p: i32, %q: i32, %o: i32):
    %s = arith.ori %p, %q : i32
    %r = arith.ori %o, %s : i32
    linalg.yield %r : i32
  } -> tensor<i32>
  return %0 : tensor<i32>
}

// A product: | 1 .. 1 r |, masked merge, reduction <mul>.
// BOTH-LABEL: func.func @product(
// BOTH:         %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<8xf64>
// BOTH:         %[[INIT:.*]] = vector.insert %{{.*}}, %[[ONE]] [0] : f64 into vector<8xf64>
// BOTH:         %[[LOOP:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<8xf64>) {
// BOTH:           %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<8xi1>
// BOTH-NEXT:      %[[V:.*]] = vector.maskedload %{{.*}}[%[[I]]], %[[MASK]], %{{.*}} : memref<?xf64>, vector<8xi1>, vector<8xf64> into vector<8xf64>
// BOTH-NEXT:      %[[P:.*]] = arith.mulf %[[ACC]], %[[V]] : vector<8xf64>
// BOTH-NEXT:      %[[SEL:.*]] = arith.select %[[MASK]], %[[P]], %[[ACC]] : vector<8xi1>, vector<8xf64>
// BOTH-NEXT:      scf.yield %[[SEL]] : vector<8xf64>
// BOTH-NEXT:    } {"Emitted from" = "linalg.generic"}
// BOTH-NEXT:    vector.reduction <mul>, %[[LOOP]] : vector<8xf64> into f64
func.func @product(%a: memref<?xf64>, %lo: index, %hi: index, %init: f64) -> f64 {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (f64) {
    %v = memref.load %a[%i] : memref<?xf64>
    %p = arith.mulf %acc, %v : f64
    scf.yield %p : f64
  } {"Emitted from" = "linalg.generic"}
  return %r : f64
}

// An integer product over a trip count that vl divides: | 1 .. 1 r |, plain
// vector loads, no merge.
// BOTH-LABEL: func.func @product_all_lanes(
// BOTH:         %[[ONE:.*]] = arith.constant dense<1> : vector<8xi32>
// BOTH:         %[[INIT:.*]] = vector.insert %{{.*}}, %[[ONE]] [0] : i32 into vector<8xi32>
// BOTH:         %[[LOOP:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<8xi32>) {
// BOTH-NEXT:      %[[V:.*]] = vector.load %{{.*}}[%[[I]]] : memref<64xi32>, vector<8xi32>
// BOTH-NEXT:      %[[P:.*]] = arith.muli %[[V]], %[[ACC]] : vector<8xi32>
// BOTH-NEXT:      scf.yield %[[P]] : vector<8xi32>
// BOTH-NEXT:    } {"Emitted from" = "linalg.generic"}
// BOTH-NEXT:    vector.reduction <mul>, %[[LOOP]] : vector<8xi32> into i32
func.func @product_all_lanes(%a: memref<64xi32>, %init: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (i32) {
    %v = memref.load %a[%i] : memref<64xi32>
    %p = arith.muli %v, %acc : i32
    scf.yield %p : i32
  } {"Emitted from" = "linalg.generic"}
  return %r : i32
}

// and: | r .. r |, reduction <and>.
// BOTH-LABEL: func.func @all(
// BOTH:         %[[INIT:.*]] = vector.broadcast %{{.*}} : i32 to vector<8xi32>
// BOTH:         %[[LOOP:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (vector<8xi32>) {
// BOTH:           arith.andi %{{.*}}, %{{.*}} : vector<8xi32>
// BOTH:         vector.reduction <and>, %[[LOOP]] : vector<8xi32> into i32
func.func @all(%a: memref<?xi32>, %lo: index, %hi: index, %init: i32) -> i32 {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (i32) {
    %v = memref.load %a[%i] : memref<?xi32>
    %p = arith.andi %acc, %v : i32
    scf.yield %p : i32
  } {"Emitted from" = "linalg.generic"}
  return %r : i32
}

// max, min and `v - acc`: scalar loops.
// BOTH-LABEL: func.func @not_reductions(
// BOTH-NOT:     vector.
// BOTH:         arith.maxsi %{{.*}}, %{{.*}} : i32
// BOTH-NOT:     vector.
// BOTH:         arith.minimumf %{{.*}}, %{{.*}} : f32
// BOTH-NOT:     vector.
// BOTH:         arith.subi %{{.*}}, %{{.*}} : i32
// BOTH-NOT:     vector.
// BOTH:         return
func.func @not_reductions(%a: memref<?xi32>, %f: memref<?xf32>, %lo: index, %hi: index, %init: i32, %finit: f32) -> (i32, f32, i32) {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (i32) {
    %v = memref.load %a[%i] : memref<?xi32>
    %m = arith.maxsi %acc, %v : i32
    scf.yield %m : i32
  } {"Emitted from" = "linalg.generic"}
  %s = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %finit) -> (f32) {
    %v = memref.load %f[%i] : memref<?xf32>
    %m = arith.minimumf %acc, %v : f32
    scf.yield %m : f32
  } {"Emitted from" = "linalg.generic"}
  %t = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (i32) {
    %v = memref.load %a[%i] : memref<?xi32>
    %m = arith.subi %v, %acc : i32
    scf.yield %m : i32
  } {"Emitted from" = "linalg.generic"}
  return %r, %s, %t : i32, f32, i32
}
