// RUN: xsparse-opt %s -p fuse-through-gather | filecheck %s

// The RFC example with a named elementwise op: linalg.sub is generalized, then fused.

func.func @matmul_gather_bias(%0: tensor<42x32xf32>, %1: tensor<32x64xf32>, %2: tensor<42x64xf32>,
                              %indices: tensor<5x1xindex>, %5: tensor<5x64xf32>, %6: tensor<5x64xf32>)
    -> tensor<5x64xf32> {
  %3 = linalg.matmul ins(%0, %1 : tensor<42x32xf32>, tensor<32x64xf32>)
                    outs(%2 : tensor<42x64xf32>) -> tensor<42x64xf32>
  %4 = subset.gather %3[%indices] coordinates=[0]: tensor<42x64xf32>[tensor<5x 1xindex>] -> tensor<5x64xf32>
  %7 = linalg.sub ins(%4, %5: tensor<5x64xf32>, tensor<5x64xf32>) outs(%6: tensor<5x64xf32>) -> tensor<5x64xf32>
  return %7: tensor<5x64xf32>
}

// CHECK-LABEL: func.func @matmul_gather_bias
// CHECK-NOT:     subset.gather
// CHECK-NOT:     linalg.sub
// CHECK:         scf.for
// CHECK:           %[[IDX:.*]] = tensor.extract %indices
// CHECK:           tensor.extract_slice %{{.*}}[%[[IDX]], 0] [1, 64] [1, 1] : tensor<42x64xf32> to tensor<64xf32>
// CHECK:           linalg.generic
// CHECK:             arith.subf
// CHECK:           tensor.insert_slice
