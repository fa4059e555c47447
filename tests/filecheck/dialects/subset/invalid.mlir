// RUN: %xsparse-diagnostics | filecheck %s

// The verifiers of gather, scatter and concat: one case per shape rule.

func.func @trailing(%m: memref<4x4xf32>, %i: memref<?x2xindex>) {
  %r = subset.gather copy(%m[%i]) coordinates = [1] : memref<4x4xf32>[memref<?x2xindex>] -> memref<?x4xf32>
  func.return
}

// CHECK: error: 'subset.gather' op the trailing dimension of the indices (2) must equal the number of coordinates (1)

// -----

func.func @coo_trailing(%t: tensor<4x4x4xf32>, %i: tensor<1x2x2xindex>) {
  %r = subset.gather %t[%i] : tensor<4x4x4xf32>[tensor<1x2x2xindex>] -> tensor<1x2x4xf32>
  func.return
}

// CHECK: error: 'subset.gather' op the trailing dimension of the indices (2) must equal the number of coordinates (3)

// -----

func.func @shape(%m: memref<4x4xf32>, %i: memref<?x1xindex>) {
  %r = subset.gather copy(%m[%i]) coordinates = [1] : memref<4x4xf32>[memref<?x1xindex>] -> memref<?x5xf32>
  func.return
}

// CHECK: error: 'subset.gather' op result shape ?x5 must be the indices' batch shape followed by the input's slice shape: ?x4

// -----

func.func @range(%m: memref<4x4xf32>, %i: memref<?x1xindex>) {
  %r = subset.gather copy(%m[%i]) coordinates = [2] : memref<4x4xf32>[memref<?x1xindex>] -> memref<?x4xf32>
  func.return
}

// CHECK: error: 'subset.gather' op coordinate 2 is out of range for the rank-2 input

// -----

func.func @order(%t: tensor<2x3x4xf32>, %i: tensor<5x2xindex>) {
  %r = subset.gather %t[%i] coordinates = [2, 0] : tensor<2x3x4xf32>[tensor<5x2xindex>] -> tensor<5x3xf32>
  func.return
}

// CHECK: error: 'subset.gather' op coordinates must be strictly increasing

// -----

func.func @elem(%m: memref<4x4xf32>, %i: memref<?x1xf32>) {
  %r = subset.gather copy(%m[%i]) coordinates = [1] : memref<4x4xf32>[memref<?x1xf32>] -> memref<?x4xf32>
  func.return
}

// CHECK: error: 'subset.gather' op indices must hold index or integer values, got f32

// -----

func.func @mixed(%t: tensor<4x4xf32>, %i: memref<?x1xindex>) {
  %r = subset.gather %t[%i] coordinates = [1] : tensor<4x4xf32>[memref<?x1xindex>] -> tensor<?x4xf32>
  func.return
}

// CHECK: error: 'subset.gather' op indices must be a tensor for the tensor form and a memref for the buffer form

// -----

func.func @view_pad(%m: memref<4x4xf32>, %i: memref<?x1xindex>, %p: f32) {
  %r = subset.gather view(%m[%i]) coordinates = [1] out_of_bounds(%p) : memref<4x4xf32>[memref<?x1xindex>] -> memref<? x memref<4xf32>>
  func.return
}

// CHECK: error: 'subset.gather' op a view cannot read an out_of_bounds value; use copy

// -----

func.func @copy_jagged(%m: memref<4x4xf32>, %i: memref<?x1xindex>) {
  %r = subset.gather copy(%m[%i]) coordinates = [1] : memref<4x4xf32>[memref<?x1xindex>] -> memref<? x memref<4xf32>>
  func.return
}

// CHECK: error: 'subset.gather' op a gather into a jagged buffer has view semantics; use view

// -----

func.func @inner_stride(%m: memref<4x4xf32>, %i: memref<?x1xindex>) {
  %r = subset.gather view(%m[%i]) coordinates = [1] : memref<4x4xf32>[memref<?x1xindex>] -> !jagged.buffer<?xmemref<4xf32, strided<[1], offset: ?>>>
  func.return
}

// CHECK: error: 'subset.gather' op inner buffer strides [1] do not match the input's slice strides [4]

// -----

func.func @rfc_range_view(%m: memref<4x4xf32>, %i: memref<?x1xindex>) {
  %r = subset.gather view(%m[%i]) coordinates = [1] : memref<4x4xf32>[memref<?x1xindex>] -> memref<?x4xf32>
  func.return
}

// CHECK: error: 'subset.gather' op a view of a contiguous range of the input has type memref<?x4xf32, strided<[1, 4], offset: ?>>, got memref<?x4xf32>

// -----

func.func @range_two(%m: memref<4x4xf32>, %i: memref<?x2xindex>) {
  %r = subset.gather view(%m[%i]) : memref<4x4xf32>[memref<?x2xindex>] -> memref<?xf32, strided<[?], offset: ?>>
  func.return
}

// CHECK: error: 'subset.gather' op a view into a strided memref needs one coordinate and one batch dimension

// -----

func.func @scatter_view(%s: memref<?x4xf32>, %m: memref<4x4xf32>, %i: memref<?x1xindex>) {
  subset.scatter view(%s) into %m[%i] coordinates = [1] : memref<?x4xf32> into memref<4x4xf32>[memref<?x1xindex>]
  func.return
}

// CHECK: error: 'subset.scatter' op a scatter copies its source; build the source in place with a gather view of the destination instead

// -----

func.func @scatter_shape(%s: tensor<5x3xf32>, %t: tensor<8x4xf32>, %i: tensor<5x1xindex>) {
  %r = subset.scatter %s into %t[%i] coordinates = [0] : tensor<5x3xf32> into tensor<8x4xf32>[tensor<5x1xindex>] -> tensor<8x4xf32>
  func.return
}

// CHECK: error: 'subset.scatter' op source shape 5x3 must be the indices' batch shape followed by the destination's slice shape: 5x4

// -----

func.func @concat_dim(%a: tensor<3x4xf32>, %b: tensor<3x5xf32>) {
  %r = subset.concat %a and %b along dimension = 2 : tensor<3x4xf32> and tensor<3x5xf32> into tensor<3x9xf32>
  func.return
}

// CHECK: error: 'subset.concat' op dimension 2 is out of range for rank 2

// -----

func.func @concat_other(%a: tensor<3x4xf32>, %b: tensor<2x5xf32>) {
  %r = subset.concat %a and %b along dimension = 1 : tensor<3x4xf32> and tensor<2x5xf32> into tensor<3x9xf32>
  func.return
}

// CHECK: error: 'subset.concat' op operands differ in dimension 0, which is not concatenated

// -----

func.func @concat_sum(%a: tensor<3x4xf32>, %b: tensor<3x5xf32>) {
  %r = subset.concat %a and %b along dimension = 1 : tensor<3x4xf32> and tensor<3x5xf32> into tensor<3x8xf32>
  func.return
}

// CHECK: error: 'subset.concat' op result shape 3x8 must be 3x9

// -----

func.func @concat_mixed(%a: tensor<3x4xf32>, %b: memref<3x5xf32>) {
  %r = subset.concat %a and %b along dimension = 1 : tensor<3x4xf32> and memref<3x5xf32> into tensor<3x9xf32>
  func.return
}

// CHECK: error: 'subset.concat' op operands and result must all be tensors or all be memrefs

// -----

func.func @concat_rank(%a: tensor<3x4xf32>, %b: tensor<3x5x1xf32>) {
  %r = subset.concat %a and %b along dimension = 1 : tensor<3x4xf32> and tensor<3x5x1xf32> into tensor<3x9xf32>
  func.return
}

// CHECK: error: 'subset.concat' op operand 1 has rank 3, expected 2
