// RUN: xsparse-opt %s -p post-sparsification-rewrite | filecheck %s

// sparse_tensor.crd_translate becomes the encoding's dim-to-lvl or lvl-to-dim
// expressions (it was left for convert-to-llvm, which failed on it).

#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed, i mod 2 : dense, j mod 3 : dense) }>

// CHECK-LABEL: func.func @round_trip
// CHECK-NEXT:    %[[#C2:]] = arith.constant 2 : index
// CHECK-NEXT:    %l = arith.divui %i, %[[#C2]] : index
// CHECK-NEXT:    %[[#C3:]] = arith.constant 3 : index
// CHECK-NEXT:    %l_1 = arith.divui %j, %[[#C3]] : index
// CHECK-NEXT:    %[[#C2B:]] = arith.constant 2 : index
// CHECK-NEXT:    %l_2 = arith.remui %i, %[[#C2B]] : index
// CHECK-NEXT:    %[[#C3B:]] = arith.constant 3 : index
// CHECK-NEXT:    %l_3 = arith.remui %j, %[[#C3B]] : index
// CHECK-NEXT:    %[[#C2C:]] = arith.constant 2 : index
// CHECK-NEXT:    %[[#ROW:]] = arith.muli %l, %[[#C2C]] : index
// CHECK-NEXT:    %d = arith.addi %[[#ROW]], %l_2 : index
// CHECK-NEXT:    %[[#C3C:]] = arith.constant 3 : index
// CHECK-NEXT:    %[[#COL:]] = arith.muli %l_1, %[[#C3C]] : index
// CHECK-NEXT:    %d_1 = arith.addi %[[#COL]], %l_3 : index
// CHECK-NEXT:    func.return %d, %d_1 : index, index
func.func @round_trip(%i: index, %j: index) -> (index, index) {
  %l:4 = sparse_tensor.crd_translate dim_to_lvl [%i, %j] as #BSR : index, index, index, index
  %d:2 = sparse_tensor.crd_translate lvl_to_dim [%l#0, %l#1, %l#2, %l#3] as #BSR : index, index
  return %d#0, %d#1 : index, index
}
