// The vectorizer's options as MLIR 22 applies them, on a compressed
// innermost loop that gathers (SpMV, 32-bit coordinates) and on a dense one:
// vl=16 widens the coordinates to i64 for the gather, enable-simd-index32
// keeps them i32, enable-vla-vectorization steps by vscale * vl with a
// create_mask even where vl divides the trip count. Each prefix is checked
// on either tool's output.
// RUN: xsparse-opt %s -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16}' | filecheck %s --check-prefix=VL16
// RUN: xsparse-opt %s -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | filecheck %s --check-prefix=IDX32
// RUN: xsparse-opt %s -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | filecheck %s --check-prefix=VLA
// RUN: %if mlir-opt %{ %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16" %s | filecheck %s --check-prefix=VL16 %}
// RUN: %if mlir-opt %{ %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %s | filecheck %s --check-prefix=IDX32 %}
// RUN: %if mlir-opt %{ %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %s | filecheck %s --check-prefix=VLA %}

#CSR32 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#spmv = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
#outer = {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}

// VL16-LABEL: func.func @spmv(
// VL16:         scf.for
// VL16:           vector.insert %{{.*}}, %{{.*}} [0] : f32 into vector<16xf32>
// VL16:           scf.for {{.*}} -> (vector<16xf32>) {
// VL16:             %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<16xi1>
// VL16:             %[[V:.*]] = vector.maskedload %{{.*}}, %[[MASK]], %{{.*}} : memref<?xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// VL16:             %[[CRD:.*]] = vector.maskedload %{{.*}}, %[[MASK]], %{{.*}} : memref<?xi32>, vector<16xi1>, vector<16xi32> into vector<16xi32>
// VL16-NEXT:        %[[WIDE:.*]] = arith.extui %[[CRD]] : vector<16xi32> to vector<16xi64>
// VL16-NEXT:        %[[X:.*]] = vector.gather %{{.*}}[%{{.*}}] [%[[WIDE]]], %[[MASK]], %{{.*}} : memref<?xf32>, vector<16xi64>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// VL16-NEXT:        arith.mulf %[[V]], %[[X]] : vector<16xf32>
// VL16:           vector.reduction <add>, %{{.*}} : vector<16xf32> into f32
// IDX32-LABEL: func.func @spmv(
// IDX32:             %[[CRD:.*]] = vector.maskedload {{.*}} : memref<?xi32>, vector<16xi1>, vector<16xi32> into vector<16xi32>
// IDX32-NEXT:        vector.gather %{{.*}}[%{{.*}}] [%[[CRD]]], %{{.*}}, %{{.*}} : memref<?xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// VLA-LABEL: func.func @spmv(
// VLA:         scf.for
// VLA:           %[[VSCALE:.*]] = vector.vscale
// VLA:           %[[STEP:.*]] = arith.muli %[[VSCALE]], %{{.*}} : index
// VLA:           scf.for %{{.*}} step %[[STEP]] {{.*}} -> (vector<[4]xf32>) {
// VLA:             vector.create_mask %{{.*}} : vector<[4]xi1>
// VLA:             vector.gather {{.*}} : memref<?xf32>, vector<[4]xi64>, vector<[4]xi1>, vector<[4]xf32> into vector<[4]xf32>
// VLA:           vector.reduction <add>, %{{.*}} : vector<[4]xf32> into f32
func.func @spmv(%a: tensor<?x?xf32, #CSR32>, %x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %0 = linalg.generic #spmv ins(%a, %x : tensor<?x?xf32, #CSR32>, tensor<?xf32>) outs(%y : tensor<?xf32>) {
  ^bb0(%av: f32, %xv: f32, %yv: f32):
    %m = arith.mulf %av, %xv : f32
    %s = arith.addf %yv, %m : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// A dense loop of 32: all lanes on for vl=16, a mask when scalable.
// VL16-LABEL: func.func @outer(
// VL16:           vector.load %{{.*}} : memref<32xf32>, vector<16xf32>
// VL16:           vector.store %{{.*}} : memref<8x32xf32>, vector<16xf32>
// VLA-LABEL: func.func @outer(
// VLA:             %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<[4]xi1>
// VLA:             vector.maskedload %{{.*}}, %[[MASK]], %{{.*}} : memref<32xf32>, vector<[4]xi1>, vector<[4]xf32> into vector<[4]xf32>
// VLA:             vector.maskedstore %{{.*}}, %[[MASK]], %{{.*}} : memref<8x32xf32>, vector<[4]xi1>, vector<[4]xf32>
func.func @outer(%a: tensor<8xf32, #SV>, %x: tensor<32xf32>, %y: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %0 = linalg.generic #outer ins(%a, %x : tensor<8xf32, #SV>, tensor<32xf32>) outs(%y : tensor<8x32xf32>) {
  ^bb0(%av: f32, %xv: f32, %yv: f32):
    %m = arith.mulf %av, %xv : f32
    linalg.yield %m : f32
  } -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}
