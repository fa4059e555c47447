// RUN: xsparse-opt %s -p sparsification | filecheck %s

// A scalar input of a kernel (here a zero point) is read as an invariant:
// the loops subtract the value itself, also where the sparse operand has no
// entry (x - zp is not zero there, so every coordinate is visited).

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

func.func @shifted_sum(%a: tensor<8xi32, #SV>, %zp: i32, %out: tensor<i32>) -> tensor<i32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> ()>], iterator_types = ["reduction"]} ins(%a, %zp : tensor<8xi32, #SV>, i32) outs(%out : tensor<i32>) {
  ^bb0(%x: i32, %z: i32, %o: i32):
    %d = arith.subi %x, %z : i32
    %s = arith.addi %o, %d : i32
    linalg.yield %s : i32
  } -> tensor<i32>
  return %0 : tensor<i32>
}

// CHECK-LABEL: func.func @shifted_sum(
// CHECK-SAME:    %{{.*}}: tensor<8xi32, #sparse_tensor.encoding<{{.*}}>>, %[[ZP:.*]]: i32, %{{.*}}: tensor<i32>)
// CHECK:         scf.while
// CHECK:           %[[X:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<?xi32>
// CHECK-NEXT:      %[[D:.*]] = arith.subi %[[X]], %[[ZP]] : i32
// CHECK-NEXT:      %{{.*}} = arith.addi %{{.*}}, %[[D]] : i32
// CHECK:           %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[E:.*]] = arith.subi %[[ZERO]], %[[ZP]] : i32
// CHECK:         scf.for
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[E:.*]] = arith.subi %[[ZERO]], %[[ZP]] : i32
