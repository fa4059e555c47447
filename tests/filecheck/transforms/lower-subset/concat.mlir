// RUN: xsparse-opt %s --split-input-file -p lower-subset | filecheck %s

// The RFC's concat: operands that come in from outside are copied into a fresh buffer.

func.func @concat(%t1: tensor<3x4x?xf32>, %t2: tensor<3x5x?xf32>) -> tensor<3x9x?xf32> {
  %out = subset.concat %t1 and %t2 along dimension = 1 : tensor<3x4x?xf32> and tensor<3x5x?xf32> into tensor<3x9x?xf32>
  return %out : tensor<3x9x?xf32>
}

// CHECK-LABEL: func.func @concat
// CHECK:         %[[B1:.*]] = bufferization.to_buffer %t1
// CHECK:         %[[OUT:.*]] = memref.alloc(%{{.*}}) : memref<3x9x?xf32>
// CHECK:         memref.load %[[B1]][%[[I:.*]], %[[J:.*]], %[[K:.*]]] : memref<3x4x?xf32>
// CHECK-NEXT:    memref.store %{{.*}}, %[[OUT]][%[[I]], %[[J]], %[[K]]] : memref<3x9x?xf32>
// CHECK:         memref.load %{{.*}}[%[[I2:.*]], %[[J2:.*]], %[[K2:.*]]] : memref<3x5x?xf32>
// CHECK-NEXT:    %[[SHIFT:.*]] = arith.addi %[[J2]], %{{.*}} : index
// CHECK-NEXT:    memref.store %{{.*}}, %[[OUT]][%[[I2]], %[[SHIFT]], %[[K2]]] : memref<3x9x?xf32>
// CHECK:         bufferization.to_tensor %[[OUT]]

// -----

// Inverting the flow of SSA values: both operands are built by gathers, so the
// gathers write straight into subviews of the concat's buffer; nothing is copied.

func.func @in_place(%a: tensor<8x3xf32>, %i1: tensor<?x1xindex>, %i2: tensor<?x1xindex>) -> tensor<?x3xf32> {
  %g1 = subset.gather %a[%i1] coordinates = [0] : tensor<8x3xf32>[tensor<?x1xindex>] -> tensor<?x3xf32>
  %g2 = subset.gather %a[%i2] coordinates = [0] : tensor<8x3xf32>[tensor<?x1xindex>] -> tensor<?x3xf32>
  %cc = subset.concat %g1 and %g2 along dimension = 0 : tensor<?x3xf32> and tensor<?x3xf32> into tensor<?x3xf32>
  return %cc : tensor<?x3xf32>
}

// CHECK-LABEL: func.func @in_place
// CHECK:         %[[N1:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?x1xindex>
// CHECK:         %[[N2:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?x1xindex>
// CHECK:         %[[N:.*]] = arith.addi %[[N1]], %[[N2]] : index
// CHECK-NEXT:    %[[OUT:.*]] = memref.alloc(%[[N]]) : memref<?x3xf32>
// CHECK-NEXT:    %[[V1:.*]] = memref.subview %[[OUT]][%{{.*}}, 0] [%[[N1]], 3] [1, 1] : memref<?x3xf32> to memref<?x3xf32, strided<[3, 1], offset: ?>>
// CHECK:         %[[V2:.*]] = memref.subview %[[OUT]][%{{.*}}, 0] [%{{.*}}, 3] [1, 1] : memref<?x3xf32> to memref<?x3xf32, strided<[3, 1], offset: ?>>
// CHECK-NOT:     memref.alloc
// CHECK:         memref.store %{{.*}}, %[[V1]]
// CHECK-NOT:     memref.alloc
// CHECK:         memref.store %{{.*}}, %[[V2]]
// CHECK-NOT:     memref.load %[[OUT]]
// CHECK:         bufferization.to_tensor %[[OUT]]

// -----

// `copy` asks for a copy even when the operands could be built in place.

func.func @forced_copy(%a: tensor<8x3xf32>, %i1: tensor<?x1xindex>) -> tensor<?x3xf32> {
  %g1 = subset.gather %a[%i1] coordinates = [0] : tensor<8x3xf32>[tensor<?x1xindex>] -> tensor<?x3xf32>
  %g2 = subset.gather %a[%i1] coordinates = [0] : tensor<8x3xf32>[tensor<?x1xindex>] -> tensor<?x3xf32>
  %cc = subset.concat copy(%g1 and %g2) along dimension = 0 : tensor<?x3xf32> and tensor<?x3xf32> into tensor<?x3xf32>
  return %cc : tensor<?x3xf32>
}

// CHECK-LABEL: func.func @forced_copy
// CHECK-COUNT-3: memref.alloc
// CHECK-NOT:     memref.subview

// -----

// The RFC's concat with a dynamic size outside the concatenated dimension: the
// operands' sizes are checked against the result's (read from the first
// operand) at run time, a run-time error if they differ, and each copy stays
// within its operand and the result.

func.func @dynamic(%a: memref<3x4x?xf32>, %b: memref<3x5x?xf32>) -> memref<3x9x?xf32> {
  %r = subset.concat copy(%a and %b) along dimension = 1 : memref<3x4x?xf32> and memref<3x5x?xf32> into memref<3x9x?xf32>
  return %r : memref<3x9x?xf32>
}

// CHECK-LABEL: func.func @dynamic
// CHECK:         %[[D:.*]] = memref.dim %a, %{{.*}} : memref<3x4x?xf32>
// CHECK-NEXT:    %[[R:.*]] = memref.alloc(%[[D]]) : memref<3x9x?xf32>
// CHECK-NEXT:    %[[DB:.*]] = memref.dim %b, %{{.*}} : memref<3x5x?xf32>
// CHECK-NEXT:    %[[NE:.*]] = arith.cmpi ne, %[[DB]], %[[D]] : index
// CHECK-NEXT:    scf.if %[[NE]] {
// CHECK:           func.call @xsparse_runtime_error
// CHECK:         scf.for
// CHECK:               memref.store %{{.*}}, %[[R]]
// CHECK:         %[[DB2:.*]] = memref.dim %b, %{{.*}} : memref<3x5x?xf32>
// CHECK-NEXT:    %[[N:.*]] = arith.minui %[[DB2]], %[[D]] : index
// CHECK:             scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:          memref.load %b
// CHECK:               memref.store %{{.*}}, %[[R]]

// -----

// Operands with dynamic sizes into a static result: their sum is checked and
// the second copy is cut at what is left of the result.

func.func @into_static(%a: memref<?x3xf32>, %b: memref<?x3xf32>) -> memref<8x3xf32> {
  %r = subset.concat copy(%a and %b) along dimension = 0 : memref<?x3xf32> and memref<?x3xf32> into memref<8x3xf32>
  return %r : memref<8x3xf32>
}

// CHECK-LABEL: func.func @into_static
// CHECK:         %[[A:.*]] = memref.dim %a, %{{.*}} : memref<?x3xf32>
// CHECK-NEXT:    %[[B:.*]] = memref.dim %b, %{{.*}} : memref<?x3xf32>
// CHECK-NEXT:    %[[SUM:.*]] = arith.addi %[[A]], %[[B]] : index
// CHECK-NEXT:    %[[NE:.*]] = arith.cmpi ne, %[[SUM]], %[[EIGHT:.*]] : index
// CHECK-NEXT:    scf.if %[[NE]] {
// CHECK:           func.call @xsparse_runtime_error
// CHECK:         arith.minui %{{.*}}, %[[EIGHT]] : index
// CHECK:         %[[USED:.*]] = arith.minui %{{.*}}, %[[EIGHT]] : index
// CHECK-NEXT:    %[[LEFT:.*]] = arith.subi %[[EIGHT]], %[[USED]] : index
// CHECK-NEXT:    arith.minui %{{.*}}, %[[LEFT]] : index
