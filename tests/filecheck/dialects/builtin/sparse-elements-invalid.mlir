// RUN: %xsparse-diagnostics | filecheck %s

// `sparse<indices, values> : type` that MLIR 22 rejects, with MLIR's messages at
// the keyword (values that do not fit their type: at the values).

// Index out of bounds.
func.func @f() {
  %0 = arith.constant sparse<[[1, 9]], [1.0]> : tensor<4x4xf32>
  return
}

// CHECK: sparse-elements-invalid.mlir:[[# @LINE - 4]]:23: error: sparse index #0 is not contained within the value shape, with index=[1, 9], and type='tensor<4x4xf32>'

// -----

// A negative index, read as unsigned as MLIR reads it.
func.func @f() {
  %0 = arith.constant sparse<[[0], [-1]], [1.0, 2.0]> : tensor<4xf32>
  return
}

// CHECK: sparse-elements-invalid.mlir:[[# @LINE - 4]]:23: error: sparse index #1 is not contained within the value shape, with index=[18446744073709551615], and type='tensor<4xf32>'

// -----

// More values than indices.
func.func @f() {
  %0 = arith.constant sparse<[[1]], [1.0, 2.0]> : tensor<4xf32>
  return
}

// CHECK: sparse-elements-invalid.mlir:[[# @LINE - 4]]:23: error: expected shape ([4]); inferred shape of indices literal ([1, 1]); inferred shape of values literal ([2])

// -----

// An index of the wrong rank.
func.func @f() {
  %0 = arith.constant sparse<[[1, 1]], [1.0]> : tensor<4xf32>
  return
}

// CHECK: sparse-elements-invalid.mlir:[[# @LINE - 4]]:23: error: expected shape ([4]); inferred shape of indices literal ([1, 2]); inferred shape of values literal ([1])

// -----

// A flat list of indices for a matrix.
func.func @f() {
  %0 = arith.constant sparse<[1, 2], [1.0, 2.0]> : tensor<4x4xf32>
  return
}

// CHECK: sparse-elements-invalid.mlir:[[# @LINE - 4]]:23: error: expected shape ([4, 4]); inferred shape of indices literal ([2]); inferred shape of values literal ([2])

// -----

// Values that are no list.
func.func @f() {
  %0 = arith.constant sparse<[[1]], [[1.0]]> : tensor<4xf32>
  return
}

// CHECK: sparse-elements-invalid.mlir:[[# @LINE - 4]]:23: error: expected 1-d tensor for sparse element values

// -----

// A dynamic shape.
func.func @f() {
  %0 = arith.constant sparse<[[1]], [1.0]> : tensor<?xf32>
  return
}

// CHECK: sparse-elements-invalid.mlir:[[# @LINE - 4]]:23: error: elements literal type must have static shape

// -----

// No shaped type.
func.func @f() {
  %0 = arith.constant sparse<[[1]], [1.0]> : f32
  return
}

// CHECK: sparse-elements-invalid.mlir:[[# @LINE - 4]]:23: error: elements literal must be a shaped type

// -----

// A value out of range.
func.func @f() {
  %0 = arith.constant sparse<[[1]], [300]> : tensor<4xi8>
  return
}

// CHECK: sparse-elements-invalid.mlir:[[# @LINE - 4]]:36: error: integer constant out of range for type
