// RUN: %xsparse-roundtrip | filecheck --strict-whitespace %s
// RUN: %xsparse-generic-roundtrip | filecheck --strict-whitespace %s
//
// sparse_tensor region ops (binary, unary, reduce, select, foreach, yield), printed as mlir-opt-22 prints them.
// mlir-interop/ops.mlir checks that mlir-opt-22 reads the same IR back.

// CHECK-LABEL: func.func @binary
// CHECK-NEXT:     %0 = sparse_tensor.binary %a, %b : f64, f64 to f64
// CHECK-NEXT:      overlap = {
// CHECK-NEXT:     ^bb0(%x: f64, %y: f64):
// CHECK-NEXT:       %s = arith.addf %x, %y : f64
// CHECK-NEXT:       sparse_tensor.yield %s : f64
// CHECK-NEXT:     }
// CHECK-NEXT:      left = identity
// CHECK-NEXT:      right = {
// CHECK-NEXT:     ^bb0(%y_1: f64):
// CHECK-NEXT:       %n = arith.negf %y_1 : f64
// CHECK-NEXT:       sparse_tensor.yield %n : f64
// CHECK-NEXT:     }
// CHECK-NEXT:     %1 = sparse_tensor.binary %a, %c : f64, i32 to f64
// CHECK-NEXT:      overlap = {
// CHECK-NEXT:     }
// CHECK-NEXT:      left = identity
// CHECK-NEXT:      right = {
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %0, %1 : f64, f64
func.func @binary(%a: f64, %b: f64, %c: i32) -> (f64, f64) {
  %0 = sparse_tensor.binary %a, %b : f64, f64 to f64
    overlap = {
    ^bb0(%x: f64, %y: f64):
      %s = arith.addf %x, %y : f64
      sparse_tensor.yield %s : f64
    }
    left = identity
    right = {
    ^bb0(%y: f64):
      %n = arith.negf %y : f64
      sparse_tensor.yield %n : f64
    }
  %1 = sparse_tensor.binary %a, %c : f64, i32 to f64
    overlap = {}
    left = identity
    right = {}
  return %0, %1 : f64, f64
}

// -----

// CHECK-LABEL: func.func @unary
// CHECK-NEXT:     %p1 = arith.constant 1 : i32
// CHECK-NEXT:     %0 = sparse_tensor.unary %a : f64 to i32
// CHECK-NEXT:      present = {
// CHECK-NEXT:     ^bb0(%x: f64):
// CHECK-NEXT:       sparse_tensor.yield %p1 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:      absent = {
// CHECK-NEXT:       %m1 = arith.constant -1 : i32
// CHECK-NEXT:       sparse_tensor.yield %m1 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %0 : i32
func.func @unary(%a: f64) -> i32 {
  %p1 = arith.constant 1 : i32
  %0 = sparse_tensor.unary %a : f64 to i32
    present = {
    ^bb0(%x: f64):
      sparse_tensor.yield %p1 : i32
    }
    absent = {
      %m1 = arith.constant -1 : i32
      sparse_tensor.yield %m1 : i32
    }
  return %0 : i32
}

// -----

// CHECK-LABEL: func.func @reduce_select
// CHECK-NEXT:     %0 = sparse_tensor.reduce %a, %b, %one : f64 {
// CHECK-NEXT:     ^bb0(%x: f64, %y: f64):
// CHECK-NEXT:       %m = arith.mulf %x, %y : f64
// CHECK-NEXT:       sparse_tensor.yield %m : f64
// CHECK-NEXT:     }
// CHECK-NEXT:     %1 = sparse_tensor.select %0 : f64 {
// CHECK-NEXT:     ^bb0(%x_1: f64):
// CHECK-NEXT:       %keep = arith.cmpf oge, %x_1, %one : f64
// CHECK-NEXT:       sparse_tensor.yield %keep : i1
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %1 : f64
func.func @reduce_select(%a: f64, %b: f64, %one: f64) -> f64 {
  %0 = sparse_tensor.reduce %a, %b, %one : f64 {
  ^bb0(%x: f64, %y: f64):
    %m = arith.mulf %x, %y : f64
    sparse_tensor.yield %m : f64
  }
  %1 = sparse_tensor.select %0 : f64 {
  ^bb0(%x: f64):
    %keep = arith.cmpf oge, %x, %one : f64
    sparse_tensor.yield %keep : i1
  }
  return %1 : f64
}

// -----

#DCSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed, d1 : compressed) }>

// CHECK-LABEL: func.func @foreach
// CHECK-NEXT:     %c0 = arith.constant 0 : i32
// CHECK-NEXT:     %r = sparse_tensor.foreach in %t init(%c0) : tensor<2x3xi32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed, d1 : compressed) }>>, i32 -> i32 do {
// CHECK-NEXT:     ^bb0(%i: index, %j: index, %v: i32, %acc: i32):
// CHECK-NEXT:       %s = arith.addi %acc, %v : i32
// CHECK-NEXT:       sparse_tensor.yield %s : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     sparse_tensor.foreach in %d {order = affine_map<(d0, d1) -> (d1, d0)>} : tensor<2x3xf64> do {
// CHECK-NEXT:     ^bb0(%i_1: index, %j_1: index, %v_1: f64):
// CHECK-NEXT:       "test.op"(%i_1, %j_1, %v_1) : (index, index, f64) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     sparse_tensor.foreach in %t : tensor<2x3xi32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed, d1 : compressed) }>> do {
// CHECK-NEXT:     ^bb0(%i_2: index, %j_2: index, %v_2: i32):
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %r : i32
func.func @foreach(%t: tensor<2x3xi32, #DCSR>, %d: tensor<2x3xf64>) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = sparse_tensor.foreach in %t init(%c0) : tensor<2x3xi32, #DCSR>, i32 -> i32 do {
  ^bb0(%i: index, %j: index, %v: i32, %acc: i32):
    %s = arith.addi %acc, %v : i32
    sparse_tensor.yield %s : i32
  }
  sparse_tensor.foreach in %d {order = affine_map<(d0, d1) -> (d1, d0)>} : tensor<2x3xf64> do {
  ^bb0(%i: index, %j: index, %v: f64):
    "test.op"(%i, %j, %v) : (index, index, f64) -> ()
  }
  sparse_tensor.foreach in %t : tensor<2x3xi32, #DCSR> do {
  ^bb0(%i: index, %j: index, %v: i32):
  }
  return %r : i32
}
