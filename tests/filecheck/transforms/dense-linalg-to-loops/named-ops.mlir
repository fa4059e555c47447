// RUN: xsparse-opt %s -p dense-linalg-to-loops | filecheck %s

// Named linalg ops on dense tensors are generalized (MLIR's sparsifier starts
// with linalg-generalize-named-ops; the `sparsifier` pipeline here too), then
// lowered to loops on their buffers like any dense `linalg.generic`.

func.func @sub(%a: tensor<5x64xf32>, %b: tensor<5x64xf32>, %c: tensor<5x64xf32>) -> tensor<5x64xf32> {
  %0 = linalg.sub ins(%a, %b : tensor<5x64xf32>, tensor<5x64xf32>) outs(%c : tensor<5x64xf32>) -> tensor<5x64xf32>
  return %0 : tensor<5x64xf32>
}

// CHECK-LABEL: func.func @sub
// CHECK-NOT:     linalg.sub
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           scf.for %[[J:.*]] =
// CHECK:             %[[X:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]] : memref<5x64xf32>
// CHECK:             %[[Y:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]] : memref<5x64xf32>
// CHECK:             %[[D:.*]] = arith.subf %[[X]], %[[Y]] : f32
// CHECK:             memref.store %[[D]], %{{.*}}[%[[I]], %[[J]]] : memref<5x64xf32>
// CHECK-NOT:     linalg.sub
