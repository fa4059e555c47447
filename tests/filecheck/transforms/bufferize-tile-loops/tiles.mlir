// RUN: xsparse-opt %s --split-input-file -p fuse-through-gather,bufferize-tile-loops | filecheck %s

// The RFC's "Fusing through Gather" example, fused, then bufferized: the loop
// carries no tensor; each gathered row minus the bias is stored straight into
// the `outs` buffer (no tile is materialized); the matmul is generalized.

#id = affine_map<(i, j) -> (i, j)>
func.func @matmul_gather_bias(%0: tensor<42x32xf32>, %1: tensor<32x64xf32>, %2: tensor<42x64xf32>,
                              %indices: tensor<5x1xindex>, %5: tensor<5x64xf32>, %6: tensor<5x64xf32>)
    -> tensor<5x64xf32> {
  %3 = linalg.matmul ins(%0, %1 : tensor<42x32xf32>, tensor<32x64xf32>)
                    outs(%2 : tensor<42x64xf32>) -> tensor<42x64xf32>
  %4 = subset.gather %3[%indices] coordinates=[0]: tensor<42x64xf32>[tensor<5x 1xindex>] -> tensor<5x64xf32>
  %7 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%4, %5 : tensor<5x64xf32>, tensor<5x64xf32>) outs(%6 : tensor<5x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.subf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<5x64xf32>
  return %7 : tensor<5x64xf32>
}

// CHECK-LABEL: func.func @matmul_gather_bias
// CHECK-DAG:     %[[BIAS:.*]] = bufferization.to_buffer %{{.*}} : tensor<5x64xf32> to memref<5x64xf32>
// CHECK-DAG:     %[[OUT:.*]] = bufferization.to_buffer %{{.*}} : tensor<5x64xf32> to memref<5x64xf32>
// CHECK:         %[[MM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[ROW:.*]] = tensor.extract %indices[%[[I]], %{{.*}}] : tensor<5x1xindex>
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[MMB:.*]] = bufferization.to_buffer %[[MM]] : tensor<42x64xf32> to memref<42x64xf32>
// CHECK-NEXT:        %[[A:.*]] = memref.load %[[MMB]][%[[ROW]], %[[J]]] : memref<42x64xf32>
// CHECK-NEXT:        %[[B:.*]] = memref.load %[[BIAS]][%[[I]], %[[J]]] : memref<5x64xf32>
// CHECK-NEXT:        %[[D:.*]] = arith.subf %[[A]], %[[B]] : f32
// CHECK-NEXT:        memref.store %[[D]], %[[OUT]][%[[I]], %[[J]]] : memref<5x64xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.*]] = bufferization.to_tensor %[[OUT]] : memref<5x64xf32> to tensor<5x64xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<5x64xf32>
// CHECK-NOT:     tensor.insert_slice

// -----

// A loop nest (two batch dimensions): the inner loop starts from the outer
// one's buffer and writes it in place; a dynamic size is read off its view.

#id3 = affine_map<(i, j, k) -> (i, j, k)>
func.func @nest(%in: tensor<?x9xf32>, %idx: tensor<2x3x1xi32>, %out: tensor<2x3x?xf32>) -> tensor<2x3x?xf32> {
  %g = subset.gather %in[%idx] coordinates = [1] : tensor<?x9xf32>[tensor<2x3x1xi32>] -> tensor<2x3x?xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g : tensor<2x3x?xf32>) outs(%out : tensor<2x3x?xf32>) {
  ^bb0(%a: f32, %c: f32):
    %d = arith.negf %a : f32
    linalg.yield %d : f32
  } -> tensor<2x3x?xf32>
  return %r : tensor<2x3x?xf32>
}

// CHECK-LABEL: func.func @nest
// CHECK-DAG:     %[[IN:.*]] = bufferization.to_buffer %in : tensor<?x9xf32> to memref<?x9xf32>
// CHECK-DAG:     %[[OUT:.*]] = bufferization.to_buffer %out : tensor<2x3x?xf32> to memref<2x3x?xf32>
// CHECK:         scf.for %[[I:.*]] = {{.*}} {
// CHECK-NEXT:      scf.for %[[J:.*]] = {{.*}} {
// CHECK-NEXT:        %[[VIEW:.*]] = bufferization.to_tensor %[[OUT]]
// CHECK:             %[[N:.*]] = tensor.dim %[[VIEW]], %{{.*}} : tensor<2x3x?xf32>
// CHECK:             scf.for %[[K:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:          %[[X:.*]] = memref.load %[[IN]][%[[K]], %{{.*}}] : memref<?x9xf32>
// CHECK-NEXT:          %[[D:.*]] = arith.negf %[[X]] : f32
// CHECK-NEXT:          memref.store %[[D]], %[[OUT]][%[[I]], %[[J]], %[[K]]] : memref<2x3x?xf32>
// CHECK:         %[[R:.*]] = bufferization.to_tensor %[[OUT]]
// CHECK-NEXT:    func.return %[[R]]

// -----

// The loop's start is returned too: the loop updates a copy of it.

#id = affine_map<(i, j) -> (i, j)>
func.func @copy(%in: tensor<6x4xf32>, %idx: tensor<3x1xindex>, %out: tensor<3x4xf32>)
    -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %g = subset.gather %in[%idx] coordinates = [0] : tensor<6x4xf32>[tensor<3x1xindex>] -> tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<3x4xf32>) outs(%out : tensor<3x4xf32>) {
  ^bb0(%a: f32, %c: f32):
    %d = arith.addf %a, %c : f32
    linalg.yield %d : f32
  } -> tensor<3x4xf32>
  return %r, %out : tensor<3x4xf32>, tensor<3x4xf32>
}

// CHECK-LABEL: func.func @copy
// CHECK:         %[[OUT:.*]] = bufferization.to_buffer %out : tensor<3x4xf32> to memref<3x4xf32>
// CHECK:         %[[NEW:.*]] = memref.alloc() : memref<3x4xf32>
// CHECK-NEXT:    "memref.copy"(%[[OUT]], %[[NEW]])
// CHECK:         scf.for
// CHECK:           %[[OLD:.*]] = memref.load %[[NEW]]
// CHECK:           memref.store %{{.*}}, %[[NEW]]
// CHECK:         %[[R:.*]] = bufferization.to_tensor %[[NEW]]
// CHECK-NEXT:    func.return %[[R]], %out
