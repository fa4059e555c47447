// scf as xDSL 0.74 reads and prints it: scf.parallel in its generic form
// (xDSL has no custom syntax for it), scf.reduce in xDSL's own form, with one
// operand and with two.
func.func @loops(%lb : index, %ub : index, %st : index, %c : i1) -> f32 {
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %z) -> (f32) {
    %n = arith.addf %acc, %acc : f32
    scf.yield %n : f32
  }
  %s = scf.if %c -> (f32) {
    scf.yield %r : f32
  } else {
    scf.yield %z : f32
  }
  func.return %s : f32
}
// -----
func.func @parallel(%lb : index, %ub : index, %st : index, %m : memref<?xf32>) -> f32 {
  %init = arith.constant 0.0 : f32
  %r = "scf.parallel"(%lb, %ub, %st, %init) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i : index):
    %v = memref.load %m[%i] : memref<?xf32>
    "scf.reduce"(%v) ({
    ^bb1(%x : f32, %y : f32):
      %s = arith.addf %x, %y : f32
      "scf.reduce.return"(%s) : (f32) -> ()
    }) : (f32) -> ()
  }) : (index, index, index, f32) -> f32
  func.return %r : f32
}
// -----
func.func @reduce_two_operands(%lb : index, %ub : index, %st : index) -> (f32, i32) {
  %f = arith.constant 0.0 : f32
  %n = arith.constant 0 : i32
  %r:2 = "scf.parallel"(%lb, %ub, %st, %f, %n) <{operandSegmentSizes = array<i32: 1, 1, 1, 2>}> ({
  ^bb0(%i : index):
    %a = arith.constant 1.0 : f32
    %b = arith.constant 1 : i32
    scf.reduce(%a, %b : f32, i32) {
    ^bb1(%x : f32, %y : f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    } {
    ^bb2(%x2 : i32, %y2 : i32):
      %t = arith.addi %x2, %y2 : i32
      scf.reduce.return %t : i32
    }
  }) : (index, index, index, f32, i32) -> (f32, i32)
  func.return %r#0, %r#1 : f32, i32
}
// -----
// MLIR's custom syntax for scf.parallel, which xDSL 0.74 does not have.
func.func @parallel_custom_syntax(%lb : index, %ub : index, %st : index) {
  scf.parallel (%i) = (%lb) to (%ub) step (%st) {
    scf.reduce
  }
  func.return
}
