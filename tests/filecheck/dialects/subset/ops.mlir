// RUN: %xsparse-roundtrip | filecheck %s
// RUN: %xsparse-generic-roundtrip | filecheck %s

// The RFC's examples (GatherOp and Friends, ConcatOp, Bufferization/Copy/View), as written there.

// CHECK-LABEL: func.func @rfc_gather
func.func @rfc_gather(%input: tensor<4x4x4xf32>, %indices: tensor<1x2x 3xindex>,
                      %in2: tensor<2x3x4xf32>, %idx2: tensor<5x6x 1xindex>,
                      %3: tensor<42x64xf32>, %idx3: tensor<5x 1xindex>) {
  // COO: every dimension is a coordinate, 0-D slices.
  // CHECK: %out = subset.gather %input[%indices] : tensor<4x4x4xf32>[tensor<1x2x3xindex>] -> tensor<1x2xf32>
  %out = subset.gather %input[%indices] :
    tensor<4x4x4xf32>[tensor<1x2x 3xindex>] -> tensor<1x2xf32>
  // Full slices [:, i, :] at each of 5x6 singletons.
  // CHECK-NEXT: %out2 = subset.gather %in2[%idx2] coordinates = [1] : tensor<2x3x4xf32>[tensor<5x6x1xindex>] -> tensor<5x6x2x4xf32>
  %out2 = subset.gather %in2[%idx2] coordinates = [1] :
    tensor<2x3x4xf32>[tensor<5x6x 1xindex>] -> tensor<5x6x2x4xf32>
  // Fusing through Gather's producer.
  // CHECK-NEXT: %{{.*}} = subset.gather %{{.*}}[%idx3] coordinates = [0] : tensor<42x64xf32>[tensor<5x1xindex>] -> tensor<5x64xf32>
  %4 = subset.gather %3[%idx3] coordinates=[0]: tensor<42x64xf32>[tensor<5x 1xindex>] -> tensor<5x64xf32>
  func.return
}

// -----

// CHECK-LABEL: func.func @rfc_copy_view
func.func @rfc_copy_view(%input: memref<4x4xf32>, %indices: memref<?x1xindex>, %pad: f32) {
  // CHECK: %c = subset.gather copy(%input[%indices]) coordinates = [1] : memref<4x4xf32>[memref<?x1xindex>] -> memref<?x4xf32>
  %c = subset.gather copy(%input[%indices]) coordinates = [1] :
    memref<4x4xf32>[memref<?x1xindex>] -> memref<?x4xf32>
  // The RFC's nested-buffer spelling reads as a jagged buffer.
  // CHECK-NEXT: %v = subset.gather view(%input[%indices]) coordinates = [1] : memref<4x4xf32>[memref<?x1xindex>] -> !jagged.buffer<?xmemref<4xf32>>
  %v = subset.gather view(%input[%indices]) coordinates = [1] :
    memref<4x4xf32>[memref<?x1xindex>] -> memref<? x memref<4xf32>>
  // A view of a contiguous range of rows: a strided memref.
  // CHECK-NEXT: %r = subset.gather view(%input[%indices]) coordinates = [0] : memref<4x4xf32>[memref<?x1xindex>] -> memref<?x4xf32, strided<[4, 1], offset: ?>>
  %r = subset.gather view(%input[%indices]) coordinates = [0] :
    memref<4x4xf32>[memref<?x1xindex>] -> memref<?x4xf32, strided<[4, 1], offset: ?>>
  // Out-of-bounds tuples read %pad (gather on a padded tensor).
  // CHECK-NEXT: %p = subset.gather %input[%indices] coordinates = [1] out_of_bounds(%pad) : memref<4x4xf32>[memref<?x1xindex>] -> memref<?x4xf32>
  %p = subset.gather %input[%indices] coordinates = [1] out_of_bounds(%pad) :
    memref<4x4xf32>[memref<?x1xindex>] -> memref<?x4xf32>
  // A view whose inner buffers promise the column stride.
  // CHECK-NEXT: %s = subset.gather view(%input[%indices]) coordinates = [1] : memref<4x4xf32>[memref<?x1xindex>] -> !jagged.buffer<?xmemref<4xf32, strided<[4], offset: ?>>>
  %s = subset.gather view(%input[%indices]) coordinates = [1] :
    memref<4x4xf32>[memref<?x1xindex>] -> !jagged.buffer<?xmemref<4xf32, strided<[4], offset: ?>>>
  func.return
}

// -----

// CHECK-LABEL: func.func @rfc_scatter
func.func @rfc_scatter(%src: tensor<5x64xf32>, %dest: tensor<42x64xf32>, %idx: tensor<5x1xi32>,
                       %bsrc: memref<?x4xf32>, %bdest: memref<4x4xf32>, %bidx: memref<?x1xindex>) -> tensor<42x64xf32> {
  // CHECK: %s = subset.scatter %src into %dest[%idx] coordinates = [0] out_of_bounds(skip) : tensor<5x64xf32> into tensor<42x64xf32>[tensor<5x1xi32>] -> tensor<42x64xf32>
  %s = subset.scatter %src into %dest[%idx] coordinates = [0] out_of_bounds(skip) :
    tensor<5x64xf32> into tensor<42x64xf32>[tensor<5x1xi32>] -> tensor<42x64xf32>
  // CHECK-NEXT: subset.scatter copy(%bsrc) into %bdest[%bidx] coordinates = [1] : memref<?x4xf32> into memref<4x4xf32>[memref<?x1xindex>]
  subset.scatter copy(%bsrc) into %bdest[%bidx] coordinates = [1] :
    memref<?x4xf32> into memref<4x4xf32>[memref<?x1xindex>]
  func.return %s : tensor<42x64xf32>
}

// -----

// CHECK-LABEL: func.func @rfc_concat
func.func @rfc_concat(%t1: tensor<3x4x?xf32>, %t2: tensor<3x5x?xf32>, %t3: tensor<3x1x?xf32>,
                      %b1: memref<3x4x?xf32>, %b2: memref<3x5x?xf32>) {
  // CHECK: %out = subset.concat %t1 and %t2 along dimension = 1 : tensor<3x4x?xf32> and tensor<3x5x?xf32> into tensor<3x9x?xf32>
  %out = subset.concat %t1 and %t2 along dimension = 1 :
    tensor<3x4x?xf32> and tensor<3x5x?xf32> into tensor<3x9x?xf32>
  // CHECK-NEXT: %three = subset.concat %t1 and %t2 and %t3 along dimension = 1 : tensor<3x4x?xf32> and tensor<3x5x?xf32> and tensor<3x1x?xf32> into tensor<3x10x?xf32>
  %three = subset.concat %t1 and %t2 and %t3 along dimension = 1 :
    tensor<3x4x?xf32> and tensor<3x5x?xf32> and tensor<3x1x?xf32> into tensor<3x10x?xf32>
  // CHECK-NEXT: %bout = subset.concat %b1 and %b2 along dimension = 1 : memref<3x4x?xf32> and memref<3x5x?xf32> into memref<3x9x?xf32>
  %bout = subset.concat %b1 and %b2 along dimension = 1 :
    memref<3x4x?xf32> and memref<3x5x?xf32> into memref<3x9x?xf32>
  // CHECK-NEXT: %copied = subset.concat copy(%b1 and %b2) along dimension = 1 : memref<3x4x?xf32> and memref<3x5x?xf32> into memref<3x9x?xf32>
  %copied = subset.concat copy(%b1 and %b2) along dimension = 1 :
    memref<3x4x?xf32> and memref<3x5x?xf32> into memref<3x9x?xf32>
  // CHECK-NEXT: %dyn = subset.concat view(%t1 and %t2) along dimension = 1 : tensor<3x4x?xf32> and tensor<3x5x?xf32> into tensor<3x?x?xf32>
  %dyn = subset.concat view(%t1 and %t2) along dimension = 1 :
    tensor<3x4x?xf32> and tensor<3x5x?xf32> into tensor<3x?x?xf32>
  func.return
}
