// RUN: xsparse-opt --split-input-file %s -p sparse-tensor-codegen | filecheck %s

// Dense tensor.collapse_shape / expand_shape: the same reshape on the
// argument's buffer (a view); a dynamic expanded size comes from output_shape.

func.func @flatten(%a: tensor<3x4xf64>) -> tensor<12xf64> {
  %b = tensor.collapse_shape %a [[0, 1]] : tensor<3x4xf64> into tensor<12xf64>
  return %b : tensor<12xf64>
}

func.func @split(%a: tensor<?xf64>, %n: index) -> tensor<?x2xf64> {
  %b = tensor.expand_shape %a [[0, 1]] output_shape [%n, 2] : tensor<?xf64> into tensor<?x2xf64>
  return %b : tensor<?x2xf64>
}

// CHECK-LABEL: func.func @flatten(
// CHECK-SAME:    %[[A:.*]]: memref<3x4xf64>) -> memref<12xf64> {
// CHECK-NEXT:    %[[B:.*]] = memref.collapse_shape %[[A]] {{\[\[}}0 : i64, 1 : i64]] : memref<3x4xf64> into memref<12xf64>
// CHECK-NEXT:    func.return %[[B]] : memref<12xf64>
// CHECK-LABEL: func.func @split(
// CHECK-SAME:    %[[A:.*]]: memref<?xf64>, %[[N:.*]]: index) -> memref<?x2xf64> {
// CHECK:         %[[B:.*]] = memref.expand_shape %[[A]] {{\[\[}}0 : i64, 1 : i64]] output_shape [%[[N]], 2] : memref<?xf64> into memref<?x2xf64>
// CHECK-NEXT:    func.return %[[B]] : memref<?x2xf64>

// -----

// A reshaped tensor released by dealloc_tensor: the reshape views a copy, so
// that releasing it leaves the source's buffer alone.

func.func @released(%a: tensor<2x2xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %b = tensor.collapse_shape %a [[0, 1]] : tensor<2x2xf64> into tensor<4xf64>
  %x = tensor.extract %b[%c0] : tensor<4xf64>
  bufferization.dealloc_tensor %b : tensor<4xf64>
  return %x : f64
}

// CHECK-LABEL: func.func @released(
// CHECK-SAME:    %[[A:.*]]: memref<2x2xf64>) -> f64 {
// CHECK:         %[[COPY:.*]] = memref.alloc() : memref<2x2xf64>
// CHECK-NEXT:    "memref.copy"(%[[A]], %[[COPY]])
// CHECK-NEXT:    %[[B:.*]] = memref.collapse_shape %[[COPY]]
// CHECK-NEXT:    %[[X:.*]] = memref.load %[[B]]
// CHECK-NEXT:    memref.dealloc %[[B]] : memref<4xf64>
// CHECK-NEXT:    func.return %[[X]] : f64

// -----

// scf.for, scf.while and scf.if carrying dense tensors carry their buffers.

func.func @loop(%a: tensor<4xf64>, %n: index, %x: f64) -> tensor<4xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %a) -> tensor<4xf64> {
    %u = tensor.insert %x into %t[%i] : tensor<4xf64>
    scf.yield %u : tensor<4xf64>
  }
  return %r : tensor<4xf64>
}

// CHECK-LABEL: func.func @loop(
// CHECK-SAME:    %[[A:.*]]: memref<4xf64>, %[[N:.*]]: index, %[[X:.*]]: f64) -> memref<4xf64> {
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[T:.*]] = %[[A]]) -> (memref<4xf64>) {
// CHECK-NEXT:      %[[U:.*]] = memref.alloc() : memref<4xf64>
// CHECK-NEXT:      "memref.copy"(%[[T]], %[[U]])
// CHECK-NEXT:      memref.store %[[X]], %[[U]][%[[I]]] : memref<4xf64>
// CHECK-NEXT:      scf.yield %[[U]] : memref<4xf64>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : memref<4xf64>

func.func @choose(%c: i1, %a: tensor<4xf64>, %b: tensor<4xf64>) -> tensor<4xf64> {
  %r = scf.if %c -> tensor<4xf64> {
    scf.yield %a : tensor<4xf64>
  } else {
    scf.yield %b : tensor<4xf64>
  }
  return %r : tensor<4xf64>
}

// CHECK-LABEL: func.func @choose(
// CHECK-SAME:    %[[C:.*]]: i1, %[[A:.*]]: memref<4xf64>, %[[B:.*]]: memref<4xf64>) -> memref<4xf64> {
// CHECK-NEXT:    %[[R:.*]] = scf.if %[[C]] -> (memref<4xf64>) {
// CHECK-NEXT:      scf.yield %[[A]] : memref<4xf64>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[B]] : memref<4xf64>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : memref<4xf64>

func.func @halve(%a: tensor<4xf64>, %n: index) -> tensor<4xf64> {
  %c1 = arith.constant 1 : index
  %r:2 = scf.while (%t = %a, %k = %n) : (tensor<4xf64>, index) -> (tensor<4xf64>, index) {
    %go = arith.cmpi ugt, %k, %c1 : index
    scf.condition(%go) %t, %k : tensor<4xf64>, index
  } do {
  ^bb0(%t: tensor<4xf64>, %k: index):
    %h = arith.shrui %k, %c1 : index
    scf.yield %t, %h : tensor<4xf64>, index
  }
  return %r#0 : tensor<4xf64>
}

// CHECK-LABEL: func.func @halve(
// CHECK-SAME:    %[[A:.*]]: memref<4xf64>, %[[N:.*]]: index) -> memref<4xf64> {
// CHECK:         %[[R:.*]], %{{.*}} = scf.while (%[[T:.*]] = %[[A]], %[[K:.*]] = %[[N]]) : (memref<4xf64>, index) -> (memref<4xf64>, index) {
// CHECK:           scf.condition(%{{.*}}) %[[T]], %[[K]] : memref<4xf64>, index
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^{{.*}}(%[[T2:.*]]: memref<4xf64>, %[[K2:.*]]: index):
// CHECK-NEXT:      %[[H:.*]] = arith.shrui %[[K2]], %{{.*}} : index
// CHECK-NEXT:      scf.yield %[[T2]], %[[H]] : memref<4xf64>, index
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : memref<4xf64>
