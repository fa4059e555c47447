// RUN: xsparse-opt %s --split-input-file -p fuse-through-gather | filecheck %s

// The RFC's "Fusing through Gather" example: the elementwise "sub" is tiled by 1
// on the gathered dimension; each tile reads its row of the matmul's result at
// the gathered index, so the gather disappears (and the matmul could be fused
// as a matvec next).

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
// CHECK:         %[[MM:.*]] = linalg.matmul
// CHECK-NOT:     subset.gather
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[C5]] step %[[C1]] iter_args(%[[ITER:.*]] = %{{.*}}) -> (tensor<5x64xf32>) {
// CHECK-NEXT:      %[[INDEX:.*]] = tensor.extract %indices[%[[I]], %[[C0]]] : tensor<5x1xindex>
// CHECK-NEXT:      %[[A:.*]] = tensor.extract_slice %[[MM]][%[[INDEX]], 0] [1, 64] [1, 1] : tensor<42x64xf32> to tensor<64xf32>
// CHECK-NEXT:      %[[B:.*]] = tensor.extract_slice %{{.*}}[%[[I]], 0] [1, 64] [1, 1] : tensor<5x64xf32> to tensor<1x64xf32>
// CHECK-NEXT:      %[[C:.*]] = tensor.extract_slice %[[ITER]][%[[I]], 0] [1, 64] [1, 1] : tensor<5x64xf32> to tensor<1x64xf32>
// CHECK-NEXT:      %[[D:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]] : tensor<64xf32>, tensor<1x64xf32>) outs(%[[C]] : tensor<1x64xf32>) {
// CHECK:             arith.subf
// CHECK:           } -> tensor<1x64xf32>
// CHECK-NEXT:      %[[E:.*]] = tensor.insert_slice %[[D]] into %[[ITER]][%[[I]], 0] [1, 64] [1, 1] : tensor<1x64xf32> into tensor<5x64xf32>
// CHECK-NEXT:      scf.yield %[[E]] : tensor<5x64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : tensor<5x64xf32>

// -----

// Two batch dimensions (a loop nest), a gathered column (coordinates = [1]) of a
// dynamic input and i32 indices.

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
// CHECK:         scf.for %[[I:.*]] = {{.*}} iter_args(%[[A0:.*]] = %out) -> (tensor<2x3x?xf32>) {
// CHECK-NEXT:      scf.for %[[J:.*]] = {{.*}} iter_args(%[[A1:.*]] = %[[A0]]) -> (tensor<2x3x?xf32>) {
// CHECK-NEXT:        %[[X:.*]] = tensor.extract %idx[%[[I]], %[[J]], %{{.*}}] : tensor<2x3x1xi32>
// CHECK-NEXT:        %[[COL:.*]] = arith.index_cast %[[X]] : i32 to index
// CHECK:             tensor.extract_slice %in[0, %[[COL]]] [%{{.*}}, 1] [1, 1] : tensor<?x9xf32> to tensor<?xf32>
// CHECK:             linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK:             tensor.insert_slice %{{.*}} into %[[A1]][%[[I]], %[[J]], 0] [1, 1, %{{.*}}] [1, 1, 1] : tensor<1x1x?xf32> into tensor<2x3x?xf32>
