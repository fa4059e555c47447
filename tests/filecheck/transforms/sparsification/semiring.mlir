// RUN: xsparse-opt %s --split-input-file -p sparsification | filecheck %s
// RUN: xsparse-opt %s --split-input-file -p 'sparsification{sparse-emit-strategy=sparse-iterator}' | filecheck %s --check-prefix=ITER

// The semiring ops of the sparse_tensor dialect inside linalg.generic bodies
// (MLIR's kBinary, kUnary, kSelect, kReduce): each case of a `binary` or
// `unary` is a presence case of the loop, its region inlined there; an empty
// region is no value (nothing stored).

// binary with left and right cases: a union, each case its own region
// (left = identity stores a itself).

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#ew = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @binary_union(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>, %x: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #ew ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%x : tensor<?xf64>) {
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %r = sparse_tensor.binary %av, %bv : f64, f64 to f64
      overlap = {
      ^bb0(%p: f64, %q: f64):
        %m = arith.mulf %p, %q : f64
        sparse_tensor.yield %m : f64
      }
      left = identity
      right = {
      ^bb0(%q: f64):
        %n = arith.negf %q : f64
        sparse_tensor.yield %n : f64
      }
    linalg.yield %r : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// ITER-LABEL: func.func @binary_union
// ITER:         %[[U:.*]] = indexing.union %{{.*}}, %{{.*}} : !indexing.set
// ITER:         indexing.foreach %[[U]] : !indexing.set
// ITER-NEXT:    case %{{.*}}, %{{.*}} at(%{{.*}}) {
// ITER:           arith.mulf
// ITER:         case %[[A:.*]], _ at(%[[I:.*]]) {
// ITER-NEXT:      %[[AV:.*]] = memref.load %{{.*}}[%[[A]]] : memref<?xf64>
// ITER-NEXT:      memref.store %[[AV]], %{{.*}}[%[[I]]] : memref<?xf64>
// ITER:         case _, %{{.*}} at(%{{.*}}) {
// ITER:           arith.negf

// CHECK-LABEL: func.func @binary_union
// CHECK:         linalg.fill
// CHECK:         %[[END0:.*]], %[[END1:.*]] = scf.while
// CHECK:           scf.if
// CHECK:             arith.mulf
// CHECK:           } else {
// CHECK:             scf.if
// CHECK-NOT:           arith.negf
// CHECK:             } else {
// CHECK:               scf.if
// CHECK:                 arith.negf
// CHECK:         scf.for %{{.*}} = %[[END0]] to
// CHECK-NOT:       arith.negf
// CHECK:         scf.for %{{.*}} = %[[END1]] to
// CHECK:           arith.negf

// -----

// binary with only an overlap case: an intersection.

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#ew = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @binary_overlap(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>, %x: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #ew ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%x : tensor<?xf64>) {
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %r = sparse_tensor.binary %av, %bv : f64, f64 to f64
      overlap = {
      ^bb0(%p: f64, %q: f64):
        %m = arith.maximumf %p, %q : f64
        sparse_tensor.yield %m : f64
      }
      left = {}
      right = {}
    linalg.yield %r : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// ITER-LABEL: func.func @binary_overlap
// ITER:         %[[AB:.*]] = indexing.intersect %{{.*}}, %{{.*}} : !indexing.set
// ITER:         indexing.foreach %[[AB]] : !indexing.set
// ITER-NEXT:    case %{{.*}}, %{{.*}} at(%{{.*}}) {
// ITER:           arith.maximumf
// ITER-NOT:     case

// CHECK-LABEL: func.func @binary_overlap
// CHECK:         scf.while
// CHECK:           scf.if %{{.*}} {
// CHECK:             arith.maximumf
// CHECK-NEXT:        memref.store
// CHECK-NEXT:      }
// CHECK-NOT:     scf.for
// CHECK:         bufferization.to_tensor

// -----

// binary with overlap and left cases: a's set, co-iterating b to know where
// it is present (a while loop, then the rest of a; none for the rest of b).

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#ew = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @binary_left(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>, %x: tensor<?xf64>) -> tensor<?xf64> {
  %two = arith.constant 2.0 : f64
  %0 = linalg.generic #ew ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%x : tensor<?xf64>) {
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %r = sparse_tensor.binary %av, %bv : f64, f64 to f64
      overlap = {
      ^bb0(%p: f64, %q: f64):
        %s = arith.addf %p, %q : f64
        sparse_tensor.yield %s : f64
      }
      left = {
      ^bb0(%p: f64):
        %d = arith.mulf %p, %two : f64
        sparse_tensor.yield %d : f64
      }
      right = {}
    linalg.yield %r : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// ITER-LABEL: func.func @binary_left
// ITER:         %[[U:.*]] = indexing.union %{{.*}}, %{{.*}} : !indexing.set
// ITER:         indexing.foreach %[[U]] : !indexing.set
// ITER-NEXT:    case %{{.*}}, %{{.*}} at(%{{.*}}) {
// ITER:           arith.addf
// ITER:         case %{{.*}}, _ at(%{{.*}}) {
// ITER:           arith.mulf
// ITER-NOT:     case _,

// CHECK-LABEL: func.func @binary_left
// CHECK:         %[[END0:.*]], %{{.*}} = scf.while
// CHECK:           scf.if
// CHECK:             arith.addf
// CHECK:           } else {
// CHECK:             scf.if
// CHECK:               arith.mulf
// CHECK:         scf.for %{{.*}} = %[[END0]] to
// CHECK:           arith.mulf
// CHECK-NOT:     scf.for
// CHECK:         bufferization.to_tensor

// -----

// unary with an absent value: dense, the union of the range with a's set.

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#ew1 = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @unary_absent(%a: tensor<?xf64, #SV>, %x: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #ew1 ins(%a : tensor<?xf64, #SV>) outs(%x : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64):
    %r = sparse_tensor.unary %av : f64 to f64
      present = {
      ^bb0(%p: f64):
        %e = math.exp %p : f64
        sparse_tensor.yield %e : f64
      }
      absent = {
        %one = arith.constant 1.0 : f64
        sparse_tensor.yield %one : f64
      }
    linalg.yield %r : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// ITER-LABEL: func.func @unary_absent
// ITER:         %[[ALL:.*]] = indexing.range
// ITER:         %[[A:.*]] = indexing.stored
// ITER:         %[[U:.*]] = indexing.union %[[ALL]], %[[A]] : !indexing.set
// ITER:         indexing.foreach %[[U]] : !indexing.set
// ITER-NEXT:    case %{{.*}}, %{{.*}} at(%{{.*}}) {
// ITER:           math.exp
// ITER:         case %{{.*}}, _ at(%[[I:.*]]) {
// ITER-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// ITER-NEXT:      memref.store %[[ONE]], %{{.*}}[%[[I]]] : memref<?xf64>

// CHECK-LABEL: func.func @unary_absent
// CHECK:         %[[END:.*]], %{{.*}} = scf.while
// CHECK:           scf.if
// CHECK:             math.exp
// CHECK:           } else {
// CHECK:             scf.if
// CHECK:               arith.constant 1.000000e+00 : f64
// CHECK:         scf.for %{{.*}} = %[[END]] to
// CHECK:           arith.constant 1.000000e+00 : f64

// -----

// unary without an absent value: a's set only.

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#ew1 = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @unary_present(%a: tensor<?xf64, #SV>, %x: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #ew1 ins(%a : tensor<?xf64, #SV>) outs(%x : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64):
    %r = sparse_tensor.unary %av : f64 to f64
      present = {
      ^bb0(%p: f64):
        %e = math.exp %p : f64
        sparse_tensor.yield %e : f64
      }
      absent = {}
    linalg.yield %r : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// ITER-LABEL: func.func @unary_present
// ITER:         %[[A:.*]] = indexing.stored
// ITER:         indexing.foreach %[[A]] : !indexing.set
// ITER-NEXT:    case %{{.*}} at(%{{.*}}) {
// ITER:           math.exp
// ITER-NOT:     case

// CHECK-LABEL: func.func @unary_present
// CHECK-NOT:     scf.while
// CHECK:         scf.for
// CHECK:           %[[V:.*]] = memref.load %{{.*}} : memref<?xf64>
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[V]] : f64
// CHECK-NEXT:      memref.store %[[E]]

// -----

// select: a's set; the predicate guards the store.

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#ew1 = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @select(%a: tensor<?xf64, #SV>, %x: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #ew1 ins(%a : tensor<?xf64, #SV>) outs(%x : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64):
    %r = sparse_tensor.select %av : f64 {
      ^bb0(%p: f64):
        %z = arith.constant 0.0 : f64
        %c = arith.cmpf ogt, %p, %z : f64
        sparse_tensor.yield %c : i1
    }
    linalg.yield %r : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// ITER-LABEL: func.func @select
// ITER:         %[[A:.*]] = indexing.stored
// ITER:         indexing.foreach %[[A]] : !indexing.set
// ITER-NEXT:    case %{{.*}} at(%{{.*}}) {

// CHECK-LABEL: func.func @select
// CHECK:         scf.for
// CHECK:           %[[V:.*]] = memref.load %{{.*}} : memref<?xf64>
// CHECK:           %[[C:.*]] = arith.cmpf ogt, %[[V]], %{{.*}} : f64
// CHECK-NEXT:      scf.if %[[C]] {
// CHECK-NEXT:        memref.store %[[V]], %{{.*}} : memref<?xf64>
// CHECK-NEXT:      }

// -----

// reduce: a reduction loop over a's set that starts at the identity (not at
// the output's value, as in MLIR), its region inlined.

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#red = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
func.func @reduce_max(%a: tensor<?xf64, #SV>, %x: tensor<f64>) -> tensor<f64> {
  %id = arith.constant 0xFFF0000000000000 : f64
  %0 = linalg.generic #red ins(%a : tensor<?xf64, #SV>) outs(%x : tensor<f64>) {
  ^bb0(%av: f64, %xv: f64):
    %r = sparse_tensor.reduce %xv, %av, %id : f64 {
      ^bb0(%p: f64, %q: f64):
        %m = arith.maximumf %p, %q : f64
        sparse_tensor.yield %m : f64
    }
    linalg.yield %r : f64
  } -> tensor<f64>
  return %0 : tensor<f64>
}

// ITER-LABEL: func.func @reduce_max
// ITER:         %[[ID:.*]] = arith.constant 0xfff0000000000000 : f64
// ITER:         %[[R:.*]] = indexing.foreach %{{.*}} iter_args(%[[ID]]) : !indexing.set -> (f64)
// ITER-NEXT:    case %{{.*}} at(%{{.*}}) (%[[ACC:.*]]: f64) {
// ITER-NEXT:      %[[V:.*]] = memref.load
// ITER-NEXT:      %[[M:.*]] = arith.maximumf %[[ACC]], %[[V]] : f64
// ITER-NEXT:      indexing.yield %[[M]] : f64
// ITER:         memref.store %[[R]], %{{.*}}[] : memref<f64>

// CHECK-LABEL: func.func @reduce_max
// CHECK:         %[[ID:.*]] = arith.constant 0xfff0000000000000 : f64
// CHECK-NOT:     memref.load %{{.*}}[] : memref<f64>
// CHECK:         %[[R:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[ID]]) -> (f64) {
// CHECK:           arith.maximumf
// CHECK:         memref.store %[[R]], %{{.*}}[] : memref<f64>

// -----

// reduce over a select: an entry the predicate drops leaves the reduction as
// it is (an scf.if yielding the accumulator).

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#red = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
func.func @reduce_select(%a: tensor<?xf64, #SV>, %x: tensor<f64>) -> tensor<f64> {
  %id = arith.constant 0x7FF0000000000000 : f64
  %0 = linalg.generic #red ins(%a : tensor<?xf64, #SV>) outs(%x : tensor<f64>) {
  ^bb0(%av: f64, %xv: f64):
    %s = sparse_tensor.select %av : f64 {
      ^bb0(%p: f64):
        %z = arith.constant 0.0 : f64
        %c = arith.cmpf ogt, %p, %z : f64
        sparse_tensor.yield %c : i1
    }
    %r = sparse_tensor.reduce %xv, %s, %id : f64 {
      ^bb0(%p: f64, %q: f64):
        %m = arith.minimumf %p, %q : f64
        sparse_tensor.yield %m : f64
    }
    linalg.yield %r : f64
  } -> tensor<f64>
  return %0 : tensor<f64>
}

// ITER-LABEL: func.func @reduce_select

// CHECK-LABEL: func.func @reduce_select
// CHECK:         scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f64) {
// CHECK:           %[[C:.*]] = arith.cmpf ogt
// CHECK-NEXT:      %[[R:.*]] = scf.if %[[C]] -> (f64) {
// CHECK-NEXT:        %[[M:.*]] = arith.minimumf %[[ACC]], %{{.*}} : f64
// CHECK-NEXT:        scf.yield %[[M]] : f64
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[ACC]] : f64
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[R]] : f64

// -----

// A reduction over a `select` into an inserted sparse output: only a kept
// entry marks the row visited (an i1 or-ed with the predicate), so a row whose
// entries all fail it gets no entry. MLIR 22 leaves this kernel unsparsified.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#rows = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @min_positive_rows(%a: tensor<8x8xf64, #CSR>) -> tensor<8xf64, #SV> {
  %id = arith.constant 0x7FF0000000000000 : f64
  %init = tensor.empty() : tensor<8xf64, #SV>
  %0 = linalg.generic #rows ins(%a : tensor<8x8xf64, #CSR>) outs(%init : tensor<8xf64, #SV>) {
  ^bb0(%av: f64, %xv: f64):
    %s = sparse_tensor.select %av : f64 {
      ^bb0(%p: f64):
        %z = arith.constant 0.0 : f64
        %c = arith.cmpf ogt, %p, %z : f64
        sparse_tensor.yield %c : i1
    }
    %r = sparse_tensor.reduce %xv, %s, %id : f64 {
      ^bb0(%p: f64, %q: f64):
        %m = arith.minimumf %p, %q : f64
        sparse_tensor.yield %m : f64
    }
    linalg.yield %r : f64
  } -> tensor<8xf64, #SV>
  return %0 : tensor<8xf64, #SV>
}

// CHECK-LABEL: func.func @min_positive_rows
// CHECK:         scf.for %[[I:.*]] = {{.*}} iter_args(%[[T:.*]] = %{{.*}}) -> (tensor<8xf64,
// CHECK:           %[[MIN:.*]], %[[SEEN:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[VISITED:.*]] = %{{.*}}) -> (f64, i1)
// CHECK:             %[[KEEP:.*]] = arith.cmpf ogt
// CHECK:             %[[R:.*]] = scf.if %[[KEEP]] -> (f64)
// CHECK:             %[[NOW:.*]] = arith.ori %[[VISITED]], %[[KEEP]] : i1
// CHECK:             scf.yield %[[R]], %[[NOW]] : f64, i1
// CHECK:           scf.if %[[SEEN]] -> (tensor<8xf64,
// CHECK:             tensor.insert %[[MIN]] into %[[T]][%[[I]]]
