// RUN: xsparse-opt %s | filecheck %s
// RUN: xsparse-opt %s --print-op-generic | xsparse-opt | filecheck %s
// RUN: %if mlir-opt %{ xsparse-opt %s | %mlir-opt | filecheck %s %}
// RUN: xsparse-opt %s -p sparse-tensor-codegen | filecheck %s --check-prefix=LOOPS

// tensor.generate in MLIR 22's syntax (one size per dynamic dimension, one
// index argument per dimension); bufferized, a loop nest filling a buffer.

// CHECK-LABEL: func.func @generate(
// CHECK-SAME:      %[[N:.*]]: index) -> tensor<?x4xf32> {
// CHECK-NEXT:    %[[G:.*]] = tensor.generate %[[N]] {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[I]], %[[J]] : index
// CHECK-NEXT:      %[[V:.*]] = arith.index_cast %[[S]] : index to i32
// CHECK-NEXT:      %[[F:.*]] = arith.sitofp %[[V]] : i32 to f32
// CHECK-NEXT:      tensor.yield %[[F]] : f32
// CHECK-NEXT:    } : tensor<?x4xf32>
// CHECK-NEXT:    {{(func\.)?}}return %[[G]] : tensor<?x4xf32>

// LOOPS-LABEL: func.func @generate(
// LOOPS-SAME:      %[[N:.*]]: index) -> memref<?x4xf32> {
// LOOPS-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// LOOPS-NEXT:    %[[B:.*]] = memref.alloc(%[[N]]) : memref<?x4xf32>
// LOOPS-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// LOOPS-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// LOOPS-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[N]] step %[[C1]] {
// LOOPS-NEXT:      %[[C0B:.*]] = arith.constant 0 : index
// LOOPS-NEXT:      %[[C1B:.*]] = arith.constant 1 : index
// LOOPS-NEXT:      scf.for %[[J:.*]] = %[[C0B]] to %[[C4]] step %[[C1B]] {
// LOOPS-NEXT:        %[[S:.*]] = arith.addi %[[I]], %[[J]] : index
// LOOPS-NEXT:        %[[V:.*]] = arith.index_cast %[[S]] : index to i32
// LOOPS-NEXT:        %[[F:.*]] = arith.sitofp %[[V]] : i32 to f32
// LOOPS-NEXT:        memref.store %[[F]], %[[B]][%[[I]], %[[J]]] : memref<?x4xf32>
// LOOPS-NEXT:      }
// LOOPS-NEXT:    }
// LOOPS-NEXT:    func.return %[[B]] : memref<?x4xf32>
func.func @generate(%n: index) -> tensor<?x4xf32> {
  %0 = tensor.generate %n {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    %v = arith.index_cast %s : index to i32
    %f = arith.sitofp %v : i32 to f32
    tensor.yield %f : f32
  } : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
