// RUN: xsparse-opt %s --split-input-file -p linalg-generalize-named-ops,sparsification | filecheck %s

// A sparse operand indexed by a compound expression (a convolution's image,
// `w + kw` on a compressed level) drives no loop: the loops are dense, and
// its element is searched for once they are entered: the first entry at
// the coordinate (a binary search of the level's segment), then whether one
// is there (a search of [first, first + 1)); zero where it is not.

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>

// CHECK-LABEL: func.func @conv_1d(
// CHECK:         %[[VALS:.*]] = sparse_tensor.values %img
// CHECK:         %[[POS:.*]] = sparse_tensor.positions %img {level = 0 : index}
// CHECK:         %[[CRD:.*]] = sparse_tensor.coordinates %img {level = 0 : index}
// CHECK:         scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           scf.for %[[KW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f64) {
// CHECK-NEXT:        %[[C:.*]] = arith.addi %[[W]], %[[KW]] : index
// CHECK:             %[[LO:.*]] = memref.load %[[POS]][%{{.*}}] : memref<?xindex>
// CHECK-NEXT:        %[[HI:.*]] = memref.load %[[POS]][%{{.*}}] : memref<?xindex>
// CHECK-NEXT:        %[[FIRST:.*]], %{{.*}} = scf.while (%{{.*}} = %[[LO]], %{{.*}} = %[[HI]]) : (index, index) -> (index, index) {
// CHECK:               %[[AT:.*]] = memref.load %[[CRD]][%{{.*}}] : memref<?xindex>
// CHECK-NEXT:          %{{.*}} = arith.cmpi ult, %[[AT]], %[[C]] : index
// CHECK:             %[[NEXT:.*]] = arith.addi %[[FIRST]], %{{.*}} : index
// CHECK-NEXT:        %[[BOUND:.*]] = arith.minui %[[NEXT]], %[[HI]] : index
// CHECK-NEXT:        %[[END:.*]], %{{.*}} = scf.while (%{{.*}} = %[[FIRST]], %{{.*}} = %[[BOUND]]) : (index, index) -> (index, index) {
// CHECK:               %[[AT2:.*]] = memref.load %[[CRD]][%{{.*}}] : memref<?xindex>
// CHECK-NEXT:          %{{.*}} = arith.cmpi ule, %[[AT2]], %[[C]] : index
// CHECK:             %[[FOUND:.*]] = arith.cmpi ult, %[[FIRST]], %[[END]] : index
// CHECK-NEXT:        %[[X:.*]] = scf.if %[[FOUND]] -> (f64) {
// CHECK-NEXT:          %[[V:.*]] = memref.load %[[VALS]][%[[FIRST]]] : memref<?xf64>
// CHECK-NEXT:          scf.yield %[[V]] : f64
// CHECK-NEXT:        } else {
// CHECK-NEXT:          %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:          scf.yield %[[Z]] : f64
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[F:.*]] = memref.load %{{.*}}[%[[KW]]] : memref<3xf64>
// CHECK-NEXT:        %[[M:.*]] = arith.mulf %[[X]], %[[F]] : f64
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[ACC]], %[[M]] : f64
// CHECK-NEXT:        scf.yield %[[S]] : f64
func.func @conv_1d(%img: tensor<8xf64, #SV>, %filt: tensor<3xf64>, %out: tensor<6xf64>) -> tensor<6xf64> {
  %0 = linalg.conv_1d ins(%img, %filt : tensor<8xf64, #SV>, tensor<3xf64>) outs(%out : tensor<6xf64>) -> tensor<6xf64>
  return %0 : tensor<6xf64>
}

// -----

// A zero-padded sparse image: read through the pad's source, its coordinate
// less the low pad, zero outside the source (the pad is erased).

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>

// CHECK-LABEL: func.func @padded(
// CHECK-NOT:     tensor.pad
// CHECK:         %[[VALS:.*]] = sparse_tensor.values %img
// CHECK:         scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             scf.for %[[KH:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK:               scf.for %[[KW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK-NEXT:            %[[R:.*]] = arith.addi %[[H]], %[[KH]] : index
// CHECK-NEXT:            %[[R0:.*]] = arith.subi %[[R]], %[[LOW_R:.*]] : index
// CHECK-NEXT:            %[[IN_R:.*]] = arith.cmpi ult, %[[R0]], %{{.*}} : index
// CHECK-NEXT:            %[[C:.*]] = arith.addi %[[W]], %[[KW]] : index
// CHECK-NEXT:            %[[C0:.*]] = arith.subi %[[C]], %[[LOW_C:.*]] : index
// CHECK-NEXT:            %[[IN_C:.*]] = arith.cmpi ult, %[[C0]], %{{.*}} : index
// CHECK-NEXT:            %[[IN:.*]] = arith.andi %[[IN_R]], %[[IN_C]] : i1
// CHECK-NEXT:            %{{.*}} = scf.if %[[IN]] -> (f32) {
// CHECK:                 } else {
// CHECK-NEXT:              %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:              scf.yield %[[Z]] : f32
// CHECK-NEXT:            }
func.func @padded(%img: tensor<3x3xf32, #CSR>, %filt: tensor<2x2xf32>, %out: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %img low[1, 2] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<3x3xf32, #CSR> to tensor<5x5xf32, #CSR>
  %0 = linalg.conv_2d ins(%p, %filt : tensor<5x5xf32, #CSR>, tensor<2x2xf32>) outs(%out : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

