// RUN: xsparse-opt %s --split-input-file -p lower-subset | filecheck %s

// gather copy: a fresh buffer; one loop per index tuple (tiling by 1 on the
// gathered dimension), the slice copied under it.

func.func @gather_copy(%m: memref<4x4xf32>, %mi: memref<?x1xindex>) -> memref<?x4xf32> {
  %c = subset.gather copy(%m[%mi]) coordinates = [1] : memref<4x4xf32>[memref<?x1xindex>] -> memref<?x4xf32>
  return %c : memref<?x4xf32>
}

// CHECK-LABEL: func.func @gather_copy
// CHECK:         %[[N:.*]] = memref.dim %mi, %{{.*}} : memref<?x1xindex>
// CHECK:         %[[OUT:.*]] = memref.alloc(%[[N]]) : memref<?x4xf32>
// CHECK:         scf.for %[[B:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:      %[[COL:.*]] = memref.load %mi[%[[B]], %{{.*}}] : memref<?x1xindex>
// CHECK-NEXT:      %[[OK:.*]] = arith.cmpi ult, %[[COL]], %{{.*}} : index
// CHECK-NEXT:      scf.if %[[OK]] {
// CHECK-NEXT:        scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          %[[V:.*]] = memref.load %m[%[[R]], %[[COL]]] : memref<4x4xf32>
// CHECK-NEXT:          memref.store %[[V]], %[[OUT]][%[[B]], %[[R]]] : memref<?x4xf32>
// CHECK:           } else {
// CHECK-NEXT:        memref.get_global @__xsparse_error_
// CHECK-NEXT:        memref.extract_aligned_pointer_as_index
// CHECK-NEXT:        func.call @xsparse_runtime_error
// CHECK:         func.return %[[OUT]] : memref<?x4xf32>

// -----

// gather view into a jagged buffer: only descriptors are written (subviews), no value moves.

func.func @gather_view(%m: memref<4x4xf32>, %mi: memref<?x1xindex>) -> !jagged.buffer<?xmemref<4xf32>> {
  %v = subset.gather view(%m[%mi]) coordinates = [1] : memref<4x4xf32>[memref<?x1xindex>] -> memref<? x memref<4xf32>>
  return %v : !jagged.buffer<?xmemref<4xf32>>
}

// CHECK-LABEL: func.func @gather_view
// CHECK:         %[[J:.*]] = jagged.alloc(%{{.*}}) : !jagged.buffer<?xmemref<4xf32>>
// CHECK:         scf.for %[[B:.*]] =
// CHECK-NEXT:      %[[IDX:.*]] = memref.load %mi[%[[B]], %{{.*}}] : memref<?x1xindex>
// CHECK-NEXT:      %[[OK:.*]] = arith.cmpi ult, %[[IDX]], %{{.*}} : index
// CHECK:             func.call @xsparse_runtime_error
// CHECK:           %[[COL:.*]] = arith.select %[[OK]], %[[IDX]], %{{.*}} : index
// CHECK-NEXT:      %[[S:.*]] = memref.subview %m[0, %[[COL]]] [4, 1] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[4], offset: ?>>
// CHECK-NEXT:      jagged.set %[[S]], %[[J]][%[[B]]] : memref<4xf32, strided<[4], offset: ?>> into !jagged.buffer<?xmemref<4xf32>>
// CHECK-NOT:     memref.load %m
// CHECK:         func.return %[[J]]

// -----

// gather view of a contiguous range: a reinterpret_cast at the first index.

func.func @range(%m: memref<4x4xf32>, %mi: memref<?x1xindex>) -> memref<?x4xf32, strided<[4, 1], offset: ?>> {
  %r = subset.gather view(%m[%mi]) coordinates = [0] : memref<4x4xf32>[memref<?x1xindex>] -> memref<?x4xf32, strided<[4, 1], offset: ?>>
  return %r : memref<?x4xf32, strided<[4, 1], offset: ?>>
}

// The range [first, first + n) must lie in the input: otherwise a run-time
// error and an empty view (the first index is read only when there is one).

// CHECK-LABEL: func.func @range
// CHECK:         %[[N:.*]] = memref.dim %mi
// CHECK:         %[[FIRST:.*]] = scf.if %{{.*}} -> (index) {
// CHECK-NEXT:      %[[X:.*]] = memref.load %mi[%{{.*}}, %{{.*}}] : memref<?x1xindex>
// CHECK-NEXT:      scf.yield %[[X]] : index
// CHECK:         %[[PAST:.*]] = arith.cmpi ugt, %[[FIRST]], %[[SIZE:.*]] : index
// CHECK-NEXT:    %[[ROOM:.*]] = arith.subi %[[SIZE]], %[[FIRST]] : index
// CHECK-NEXT:    %[[LONG:.*]] = arith.cmpi ugt, %[[N]], %[[ROOM]] : index
// CHECK-NEXT:    %[[BAD:.*]] = arith.ori %[[PAST]], %[[LONG]] : i1
// CHECK-NEXT:    scf.if %[[BAD]] {
// CHECK:           func.call @xsparse_runtime_error
// CHECK:         %[[AT:.*]] = arith.select %[[BAD]], %{{.*}}, %[[FIRST]] : index
// CHECK-NEXT:    %[[COUNT:.*]] = arith.select %[[BAD]], %{{.*}}, %[[N]] : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[AT]], %{{.*}} : index
// CHECK-NEXT:    %{{.*}} = memref.reinterpret_cast %m to offset: [%[[OFF]]], sizes: [%[[COUNT]], 4], strides: [4, 1] : memref<4x4xf32> to memref<?x4xf32, strided<[4, 1], offset: ?>>

// -----

// Out-of-bounds tuples (i32 indices, negatives included: one unsigned compare) read the padding.

func.func @padded(%m: memref<4x4xf32>, %mi: memref<?x1xi32>, %pad: f32) -> memref<?x4xf32> {
  %c = subset.gather %m[%mi] coordinates = [1] out_of_bounds(%pad) : memref<4x4xf32>[memref<?x1xi32>] -> memref<?x4xf32>
  return %c : memref<?x4xf32>
}

// CHECK-LABEL: func.func @padded
// CHECK:         %[[X:.*]] = memref.load %mi
// CHECK-NEXT:    %[[COL:.*]] = arith.index_cast %[[X]] : i32 to index
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi ult, %[[COL]], %{{.*}} : index
// CHECK-NEXT:    scf.if %[[OK]] {
// CHECK:           memref.load %m[%{{.*}}, %[[COL]]]
// CHECK:         } else {
// CHECK:           memref.store %pad, %{{.*}} : memref<?x4xf32>

// -----

// Tensor forms are bufferized; a scatter whose destination has no other use writes it in place.

func.func @tensors(%a: tensor<8x3xf32>, %i: tensor<5x1xindex>, %d: tensor<8x3xf32>) -> tensor<8x3xf32> {
  %g = subset.gather %a[%i] coordinates = [0] : tensor<8x3xf32>[tensor<5x1xindex>] -> tensor<5x3xf32>
  %s = subset.scatter %g into %d[%i] coordinates = [0] : tensor<5x3xf32> into tensor<8x3xf32>[tensor<5x1xindex>] -> tensor<8x3xf32>
  return %s : tensor<8x3xf32>
}

// CHECK-LABEL: func.func @tensors
// CHECK-DAG:     %[[D:.*]] = bufferization.to_buffer %d : tensor<8x3xf32> to memref<8x3xf32>
// CHECK-DAG:     %[[I:.*]] = bufferization.to_buffer %i : tensor<5x1xindex> to memref<5x1xindex>
// CHECK-DAG:     %[[A:.*]] = bufferization.to_buffer %a : tensor<8x3xf32> to memref<8x3xf32>
// CHECK:         %[[G:.*]] = memref.alloc() : memref<5x3xf32>
// CHECK:         memref.store %{{.*}}, %[[G]]
// CHECK:         %[[V:.*]] = memref.load %[[G]]
// CHECK-NEXT:    memref.store %[[V]], %[[D]]
// CHECK:         %[[S:.*]] = bufferization.to_tensor %[[D]] restrict writable
// CHECK-NEXT:    func.return %[[S]]

// -----

// Without out_of_bounds, an index tuple outside the input (or the destination)
// is a run-time error naming the first dimension it leaves, and nothing is
// read or written for it; the sizes are read once, before the loops.

func.func @checked(%m: memref<?x?x5xf64>, %mi: memref<?x2xindex>, %u: memref<?x5xf64>) -> memref<?x5xf64> {
  %c = subset.gather %m[%mi] coordinates = [0, 1] : memref<?x?x5xf64>[memref<?x2xindex>] -> memref<?x5xf64>
  subset.scatter %u into %m[%mi] coordinates = [0, 1] : memref<?x5xf64> into memref<?x?x5xf64>[memref<?x2xindex>]
  return %c : memref<?x5xf64>
}

// CHECK-LABEL: func.func @checked
// CHECK:         %[[R:.*]] = memref.dim %m, %{{.*}} : memref<?x?x5xf64>
// CHECK-NEXT:    %[[C:.*]] = memref.dim %m, %{{.*}} : memref<?x?x5xf64>
// CHECK:         scf.for
// CHECK-NEXT:      %[[I:.*]] = memref.load %mi
// CHECK-NEXT:      %[[J:.*]] = memref.load %mi
// CHECK-NEXT:      %[[OKI:.*]] = arith.cmpi ult, %[[I]], %[[R]] : index
// CHECK-NEXT:      %[[OKJ:.*]] = arith.cmpi ult, %[[J]], %[[C]] : index
// CHECK-NEXT:      %[[OK:.*]] = arith.andi %[[OKI]], %[[OKJ]] : i1
// CHECK-NEXT:      scf.if %[[OK]] {
// CHECK:             memref.load %m[%[[I]], %[[J]], %{{.*}}]
// CHECK:           } else {
// CHECK-NEXT:        %[[BADI:.*]] = arith.cmpi uge, %[[I]], %[[R]] : index
// CHECK-NEXT:        scf.if %[[BADI]] {
// CHECK:               func.call @xsparse_runtime_error
// CHECK:             %[[BADJ:.*]] = arith.cmpi uge, %[[J]], %[[C]] : index
// CHECK-NEXT:        scf.if %[[BADJ]] {
// CHECK:               func.call @xsparse_runtime_error
// CHECK:         scf.for
// CHECK:           scf.if %{{.*}} {
// CHECK:             memref.store %{{.*}}, %m[%{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x5xf64>
// CHECK:           } else {
// CHECK:             func.call @xsparse_runtime_error
