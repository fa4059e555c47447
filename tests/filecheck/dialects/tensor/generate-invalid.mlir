// RUN: %xsparse-diagnostics | filecheck %s

// tensor.generate verified as MLIR 22 verifies it (same messages).

func.func @gen_extents(%n: index) -> tensor<?x?xf32> {
  %0 = tensor.generate %n {
  ^bb0(%i: index, %j: index):
    %c = arith.constant 1.0 : f32
    tensor.yield %c : f32
  } : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// CHECK: generate-invalid.mlir:[[# @LINE - 8]]:3: error: 'tensor.generate' op incorrect number of dynamic sizes, has 1, expected 2

// -----

func.func @gen_args(%n: index) -> tensor<?x4xf32> {
  %0 = tensor.generate %n {
  ^bb0(%i: index):
    %c = arith.constant 1.0 : f32
    tensor.yield %c : f32
  } : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// CHECK: generate-invalid.mlir:[[# @LINE - 8]]:3: error: 'tensor.generate' op must have one body argument per input dimension

// -----

func.func @gen_yield(%n: index) -> tensor<?xf32> {
  %0 = tensor.generate %n {
  ^bb0(%i: index):
    %c = arith.constant 1.0 : f64
    tensor.yield %c : f64
  } : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// CHECK: generate-invalid.mlir:[[# @LINE - 8]]:3: error: 'tensor.generate' op body must be terminated with a `yield` operation of the tensor element type
