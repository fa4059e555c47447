// RUN: xsparse-opt %s -p convert-arith-to-llvm | filecheck %s

// Integer division and remainder by 0, and signed INT_MIN by -1, give numpy's
// values (MLIR leaves them undefined; x86's idiv traps): where the divisor b
// is 0 (or -1, when signed) the llvm op divides a * b by 1, which gives
// numpy's quotient (0; -a, wrapping) and remainder (0).

// CHECK-LABEL: func.func @divsi(
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:    %[[UP:.*]] = llvm.add %b, %[[ONE]] : i32
// CHECK-NEXT:    %[[BAD:.*]] = llvm.icmp "ult" %[[UP]], %[[TWO]] : i32
// CHECK-NEXT:    %[[AB:.*]] = llvm.mul %a, %b : i32
// CHECK-NEXT:    %[[DIVIDEND:.*]] = llvm.select %[[BAD]], %[[AB]], %a : i1, i32
// CHECK-NEXT:    %[[SAFE:.*]] = llvm.select %[[BAD]], %[[ONE]], %b : i1, i32
// CHECK-NEXT:    %r = llvm.sdiv %[[DIVIDEND]], %[[SAFE]] : i32
// CHECK-NEXT:    func.return %r : i32
func.func @divsi(%a: i32, %b: i32) -> i32 {
  %r = arith.divsi %a, %b : i32
  return %r : i32
}

// CHECK-LABEL: func.func @remsi(
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[TWO:.*]] = llvm.mlir.constant(2) : i64
// CHECK-NEXT:    %[[UP:.*]] = llvm.add %b, %[[ONE]] : i64
// CHECK-NEXT:    %[[BAD:.*]] = llvm.icmp "ult" %[[UP]], %[[TWO]] : i64
// CHECK-NEXT:    %[[SAFE:.*]] = llvm.select %[[BAD]], %[[ONE]], %b : i1, i64
// CHECK-NEXT:    %r = llvm.srem %a, %[[SAFE]] : i64
// CHECK-NEXT:    func.return %r : i64
func.func @remsi(%a: i64, %b: i64) -> i64 {
  %r = arith.remsi %a, %b : i64
  return %r : i64
}

// A remainder needs no new dividend: by 1 it is 0. Unsigned: only 0 is
// guarded. Vectors lane by lane.
// CHECK-LABEL: func.func @divui(
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(dense<1> : vector<4xi8>) : vector<4xi8>
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(dense<0> : vector<4xi8>) : vector<4xi8>
// CHECK-NEXT:    %[[BAD:.*]] = llvm.icmp "eq" %b, %[[ZERO]] : vector<4xi8>
// CHECK-NEXT:    %[[AB:.*]] = llvm.mul %a, %b : vector<4xi8>
// CHECK-NEXT:    %[[DIVIDEND:.*]] = llvm.select %[[BAD]], %[[AB]], %a : vector<4xi1>, vector<4xi8>
// CHECK-NEXT:    %[[SAFE:.*]] = llvm.select %[[BAD]], %[[ONE]], %b : vector<4xi1>, vector<4xi8>
// CHECK-NEXT:    %r = llvm.udiv %[[DIVIDEND]], %[[SAFE]] : vector<4xi8>
// CHECK-NEXT:    func.return %r : vector<4xi8>
func.func @divui(%a: vector<4xi8>, %b: vector<4xi8>) -> vector<4xi8> {
  %r = arith.divui %a, %b : vector<4xi8>
  return %r : vector<4xi8>
}

// CHECK-LABEL: func.func @remui(
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1 : i16) : i16
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0 : i16) : i16
// CHECK-NEXT:    %[[BAD:.*]] = llvm.icmp "eq" %b, %[[ZERO]] : i16
// CHECK-NEXT:    %[[SAFE:.*]] = llvm.select %[[BAD]], %[[ONE]], %b : i1, i16
// CHECK-NEXT:    %r = llvm.urem %a, %[[SAFE]] : i16
// CHECK-NEXT:    func.return %r : i16
func.func @remui(%a: i16, %b: i16) -> i16 {
  %r = arith.remui %a, %b : i16
  return %r : i16
}

// The rounding divisions (arith-expand's div, rem and select) divide the
// same safe operands: their remainder is 0 where b is 0 or -1, so the
// quotient is not adjusted.
// CHECK-LABEL: func.func @floordivsi(
// CHECK-NEXT:    %[[A:.*]] = builtin.unrealized_conversion_cast %a : index to i64
// CHECK-NEXT:    %[[B:.*]] = builtin.unrealized_conversion_cast %b : index to i64
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[TWO:.*]] = llvm.mlir.constant(2) : i64
// CHECK-NEXT:    %[[UP:.*]] = llvm.add %[[B]], %[[ONE]] : i64
// CHECK-NEXT:    %[[BAD:.*]] = llvm.icmp "ult" %[[UP]], %[[TWO]] : i64
// CHECK-NEXT:    %[[AB:.*]] = llvm.mul %[[A]], %[[B]] : i64
// CHECK-NEXT:    %[[DIVIDEND:.*]] = llvm.select %[[BAD]], %[[AB]], %[[A]] : i1, i64
// CHECK-NEXT:    %[[SAFE:.*]] = llvm.select %[[BAD]], %[[ONE]], %[[B]] : i1, i64
// CHECK-NEXT:    %[[Q:.*]] = llvm.sdiv %[[DIVIDEND]], %[[SAFE]] : i64
// CHECK-NEXT:    %[[R:.*]] = llvm.srem %[[DIVIDEND]], %[[SAFE]] : i64
// CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[O:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[INEXACT:.*]] = llvm.icmp "ne" %[[R]], %[[Z]] : i64
// CHECK-NEXT:    %[[RNEG:.*]] = llvm.icmp "slt" %[[R]], %[[Z]] : i64
// CHECK-NEXT:    %[[BNEG:.*]] = llvm.icmp "slt" %[[B]], %[[Z]] : i64
// CHECK-NEXT:    %[[DIFF:.*]] = llvm.icmp "ne" %[[RNEG]], %[[BNEG]] : i1
// CHECK-NEXT:    %[[ADJ:.*]] = llvm.and %[[INEXACT]], %[[DIFF]] : i1
// CHECK-NEXT:    %[[DOWN:.*]] = llvm.sub %[[Q]], %[[O]] : i64
// CHECK-NEXT:    %[[RES:.*]] = llvm.select %[[ADJ]], %[[DOWN]], %[[Q]] : i1, i64
// CHECK-NEXT:    %r = builtin.unrealized_conversion_cast %[[RES]] : i64 to index
// CHECK-NEXT:    func.return %r : index
func.func @floordivsi(%a: index, %b: index) -> index {
  %r = arith.floordivsi %a, %b : index
  return %r : index
}

// A constant divisor other than 0 (or -1, when signed) keeps MLIR's bare op;
// 0 and -1 are guarded (LLVM folds the guard).
// CHECK-LABEL: func.func @by_constants(
// CHECK-NEXT:    %c3 = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT:    %cm1 = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT:    %c0 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %{{.*}} = llvm.sdiv %a, %c3 : i32
// CHECK-NEXT:    %{{.*}} = llvm.srem %a, %c3 : i32
// CHECK-NEXT:    %{{.*}} = llvm.udiv %a, %cm1 : i32
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:    %[[UP:.*]] = llvm.add %cm1, %[[ONE]] : i32
// CHECK-NEXT:    %[[BAD:.*]] = llvm.icmp "ult" %[[UP]], %[[TWO]] : i32
// CHECK-NEXT:    %[[AB:.*]] = llvm.mul %a, %cm1 : i32
// CHECK-NEXT:    %[[DIVIDEND:.*]] = llvm.select %[[BAD]], %[[AB]], %a : i1, i32
// CHECK-NEXT:    %[[SAFE:.*]] = llvm.select %[[BAD]], %[[ONE]], %cm1 : i1, i32
// CHECK-NEXT:    %{{.*}} = llvm.sdiv %[[DIVIDEND]], %[[SAFE]] : i32
// CHECK-NEXT:    %[[UONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %[[UZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[UBAD:.*]] = llvm.icmp "eq" %c0, %[[UZERO]] : i32
// CHECK-NEXT:    %[[USAFE:.*]] = llvm.select %[[UBAD]], %[[UONE]], %c0 : i1, i32
// CHECK-NEXT:    %{{.*}} = llvm.urem %a, %[[USAFE]] : i32
func.func @by_constants(%a: i32) -> (i32, i32, i32, i32, i32) {
  %c3 = arith.constant 3 : i32
  %cm1 = arith.constant -1 : i32
  %c0 = arith.constant 0 : i32
  %0 = arith.divsi %a, %c3 : i32
  %1 = arith.remsi %a, %c3 : i32
  %2 = arith.divui %a, %cm1 : i32
  %3 = arith.divsi %a, %cm1 : i32
  %4 = arith.remui %a, %c0 : i32
  return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32
}

// Vector constants: guarded when a lane is 0 (or -1, when signed).
// CHECK-LABEL: func.func @vector_constants(
// CHECK-NEXT:    %[[C:.*]] = llvm.mlir.constant(dense<[3, 5, 7, 9]> : vector<4xi64>) : vector<4xi64>
// CHECK-NEXT:    %[[A:.*]] = builtin.unrealized_conversion_cast %a : vector<4xindex> to vector<4xi64>
// CHECK-NEXT:    %[[Q:.*]] = llvm.udiv %[[A]], %[[C]] : vector<4xi64>
// CHECK-NEXT:    %{{.*}} = builtin.unrealized_conversion_cast %[[Q]] : vector<4xi64> to vector<4xindex>
// CHECK-NEXT:    %d = llvm.mlir.constant(dense<[3, -1, 7, 9]> : vector<4xi32>) : vector<4xi32>
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(dense<1> : vector<4xi32>) : vector<4xi32>
// CHECK-NEXT:    %[[TWO:.*]] = llvm.mlir.constant(dense<2> : vector<4xi32>) : vector<4xi32>
// CHECK-NEXT:    %[[UP:.*]] = llvm.add %d, %[[ONE]] : vector<4xi32>
// CHECK-NEXT:    %[[BAD:.*]] = llvm.icmp "ult" %[[UP]], %[[TWO]] : vector<4xi32>
// CHECK-NEXT:    %[[AB:.*]] = llvm.mul %b, %d : vector<4xi32>
// CHECK-NEXT:    %[[DIVIDEND:.*]] = llvm.select %[[BAD]], %[[AB]], %b : vector<4xi1>, vector<4xi32>
// CHECK-NEXT:    %[[SAFE:.*]] = llvm.select %[[BAD]], %[[ONE]], %d : vector<4xi1>, vector<4xi32>
// CHECK-NEXT:    %{{.*}} = llvm.sdiv %[[DIVIDEND]], %[[SAFE]] : vector<4xi32>
// CHECK-NEXT:    %{{.*}} = llvm.udiv %b, %d : vector<4xi32>
func.func @vector_constants(%a: vector<4xindex>, %b: vector<4xi32>) -> (vector<4xindex>, vector<4xi32>, vector<4xi32>) {
  %c = arith.constant dense<[3, 5, 7, 9]> : vector<4xindex>
  %0 = arith.divui %a, %c : vector<4xindex>
  %d = arith.constant dense<[3, -1, 7, 9]> : vector<4xi32>
  %1 = arith.divsi %b, %d : vector<4xi32>
  %2 = arith.divui %b, %d : vector<4xi32>
  return %0, %1, %2 : vector<4xindex>, vector<4xi32>, vector<4xi32>
}
