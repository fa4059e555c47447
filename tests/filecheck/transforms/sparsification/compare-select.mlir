// RUN: xsparse-opt %s --split-input-file -p 'sparsification{sparse-emit-strategy=sparse-iterator}' | filecheck %s

// A comparison false for two zeros runs where either side is stored, the
// absent side compared as zero (MLIR 22's Merger: `disjSetWithZero`); where
// both are absent its zero leaves the sparse output without an entry.

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#ew = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @less(%a: tensor<8xf64, #SV>, %b: tensor<8xf64, #SV>) -> tensor<8xi8, #SV> {
  %x = tensor.empty() : tensor<8xi8, #SV>
  %0 = linalg.generic #ew ins(%a, %b : tensor<8xf64, #SV>, tensor<8xf64, #SV>) outs(%x : tensor<8xi8, #SV>) {
  ^bb0(%av: f64, %bv: f64, %xv: i8):
    %c = arith.cmpf ult, %av, %bv : f64
    %e = arith.extui %c : i1 to i8
    linalg.yield %e : i8
  } -> tensor<8xi8, #SV>
  return %0 : tensor<8xi8, #SV>
}

// CHECK-LABEL: func.func @less
// CHECK:         %[[A:.*]] = indexing.stored
// CHECK:         %[[B:.*]] = indexing.stored
// CHECK-NEXT:    %[[U:.*]] = indexing.union %[[A]], %[[B]] : !indexing.set
// CHECK-NEXT:    indexing.foreach %[[U]] iter_args
// CHECK-NEXT:    case %[[PA:.*]], %[[PB:.*]] at(%{{.*}})
// CHECK-NEXT:      %[[VA:.*]] = memref.load %{{.*}}[%[[PA]]] : memref<?xf64>
// CHECK-NEXT:      %[[VB:.*]] = memref.load %{{.*}}[%[[PB]]] : memref<?xf64>
// CHECK-NEXT:      %{{.*}} = arith.cmpf ult, %[[VA]], %[[VB]] : f64
// CHECK:         case %[[PA:.*]], _ at(%{{.*}})
// CHECK-NEXT:      %[[VA:.*]] = memref.load %{{.*}}[%[[PA]]] : memref<?xf64>
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:      %{{.*}} = arith.cmpf ult, %[[VA]], %[[Z]] : f64
// CHECK:         case _, %[[PB:.*]] at(%{{.*}})
// CHECK-NEXT:      %[[VB:.*]] = memref.load %{{.*}}[%[[PB]]] : memref<?xf64>
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:      %{{.*}} = arith.cmpf ult, %[[Z]], %[[VB]] : f64
// CHECK-NOT:     case

// -----

// A comparison true for two zeros (`sle`) also needs the places where both
// are absent: the dense range joins the union. (MLIR 22 leaves them out, and
// its result there is 0 where `0 <= 0` is 1.)

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#ew = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @at_most(%a: tensor<8xi32, #SV>, %b: tensor<8xi32, #SV>) -> tensor<8xi8, #SV> {
  %x = tensor.empty() : tensor<8xi8, #SV>
  %0 = linalg.generic #ew ins(%a, %b : tensor<8xi32, #SV>, tensor<8xi32, #SV>) outs(%x : tensor<8xi8, #SV>) {
  ^bb0(%av: i32, %bv: i32, %xv: i8):
    %c = arith.cmpi sle, %av, %bv : i32
    %e = arith.extui %c : i1 to i8
    linalg.yield %e : i8
  } -> tensor<8xi8, #SV>
  return %0 : tensor<8xi8, #SV>
}

// CHECK-LABEL: func.func @at_most
// CHECK:         %[[R:.*]] = indexing.range
// CHECK:         %[[A:.*]] = indexing.stored
// CHECK:         %[[B:.*]] = indexing.stored
// CHECK-NEXT:    %[[AB:.*]] = indexing.union %[[A]], %[[B]] : !indexing.set
// CHECK-NEXT:    %[[U:.*]] = indexing.union %[[R]], %[[AB]] : !indexing.set
// CHECK-NEXT:    indexing.foreach %[[U]] iter_args
// CHECK-NEXT:    case %{{.*}}, %{{.*}}, %{{.*}} at
// CHECK:         case %{{.*}}, %{{.*}}, _ at
// CHECK:         case %{{.*}}, _, %{{.*}} at
// CHECK:         case %{{.*}}, _, _ at
// CHECK-NEXT:      %[[Z0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[Z1:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %{{.*}} = arith.cmpi sle, %[[Z0]], %[[Z1]] : i32

// -----

// `arith.select` with a dense condition runs where its true or false value
// is stored (MLIR 22 rewrites it into a `sparse_tensor.binary` of the two,
// GenSemiRingSelect); the condition is read at each of those places.

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#ew3 = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @choose(%c: tensor<8xi1>, %a: tensor<8xf64, #SV>, %b: tensor<8xf64, #SV>) -> tensor<8xf64, #SV> {
  %x = tensor.empty() : tensor<8xf64, #SV>
  %0 = linalg.generic #ew3 ins(%c, %a, %b : tensor<8xi1>, tensor<8xf64, #SV>, tensor<8xf64, #SV>) outs(%x : tensor<8xf64, #SV>) {
  ^bb0(%cv: i1, %av: f64, %bv: f64, %xv: f64):
    %s = arith.select %cv, %av, %bv : f64
    linalg.yield %s : f64
  } -> tensor<8xf64, #SV>
  return %0 : tensor<8xf64, #SV>
}

// CHECK-LABEL: func.func @choose
// CHECK:         %[[C:.*]] = bufferization.to_buffer %c
// CHECK:         %[[A:.*]] = indexing.stored
// CHECK:         %[[B:.*]] = indexing.stored
// CHECK-NEXT:    %[[U:.*]] = indexing.union %[[A]], %[[B]] : !indexing.set
// CHECK-NEXT:    indexing.foreach %[[U]] iter_args
// CHECK-NEXT:    case %[[PA:.*]], %[[PB:.*]] at(%[[I:.*]]) (%{{.*}}: tensor<8xf64, #sparse_tensor.encoding<{{.*}}>>) {
// CHECK-NEXT:      %[[VC:.*]] = memref.load %[[C]][%[[I]]] : memref<8xi1>
// CHECK-NEXT:      %[[VA:.*]] = memref.load %{{.*}}[%[[PA]]] : memref<?xf64>
// CHECK-NEXT:      %[[VB:.*]] = memref.load %{{.*}}[%[[PB]]] : memref<?xf64>
// CHECK-NEXT:      %{{.*}} = arith.select %[[VC]], %[[VA]], %[[VB]] : f64
// CHECK:         case %[[PA:.*]], _ at(%[[I:.*]]) (%{{.*}}: tensor<8xf64, #sparse_tensor.encoding<{{.*}}>>) {
// CHECK-NEXT:      %[[VC:.*]] = memref.load %[[C]][%[[I]]] : memref<8xi1>
// CHECK-NEXT:      %[[VA:.*]] = memref.load %{{.*}}[%[[PA]]] : memref<?xf64>
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:      %{{.*}} = arith.select %[[VC]], %[[VA]], %[[Z]] : f64
// CHECK:         case _, %[[PB:.*]] at(%[[I:.*]]) (%{{.*}}: tensor<8xf64, #sparse_tensor.encoding<{{.*}}>>) {
// CHECK-NEXT:      %[[VC:.*]] = memref.load %[[C]][%[[I]]] : memref<8xi1>
// CHECK-NEXT:      %[[VB:.*]] = memref.load %{{.*}}[%[[PB]]] : memref<?xf64>
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:      %{{.*}} = arith.select %[[VC]], %[[Z]], %[[VB]] : f64
// CHECK-NOT:     case
