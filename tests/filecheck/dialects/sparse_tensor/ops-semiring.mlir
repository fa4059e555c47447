// RUN: %xsparse-roundtrip | filecheck --strict-whitespace %s
// RUN: %xsparse-generic-roundtrip | filecheck --strict-whitespace %s
//
// sparse_tensor region ops (binary, unary, reduce, select, foreach, yield), printed as mlir-opt-22 prints them.
// mlir-interop/ops.mlir checks that mlir-opt-22 reads the same IR back.

// CHECK-LABEL: func.func @binary
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
