// MLIR's `sparse<indices, values> : type` attribute passes between the two
// tools unchanged, and both print it alike (issue 39): what mlir-opt-22
// prints, xsparse-opt reads and prints the same, and the other way round.
// REQUIRES: mlir-opt
// RUN: %mlir-opt %s | filecheck %s
// RUN: %mlir-opt %s | xsparse-opt | filecheck %s
// RUN: xsparse-opt %s | %mlir-opt | filecheck %s
// RUN: %mlir-opt %s | xsparse-opt | %mlir-opt | filecheck %s

// CHECK: arith.constant sparse<[[0, 0], [0, 7], [1, 2], [4, 2]], [1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<8x8xf64>
// CHECK: arith.constant sparse<[1, 3], [1.000000e+00, 2.500000e+00]> : tensor<4xf32>
// CHECK: arith.constant sparse<0, 1.000000e+00> : tensor<2x3x4xf32>
// CHECK: arith.constant sparse<[[1], [2]], [(1.000000e+00,2.000000e+00), (3.000000e+00,-4.000000e+00)]> : tensor<3xcomplex<f64>>
// CHECK: arith.constant sparse<[[1], [2]], [true, false]> : tensor<4xi1>
// CHECK: arith.constant sparse<[[1], [2]], [7, -8]> : tensor<4xindex>
// CHECK: arith.constant sparse<> : tensor<4x4xf64>
// CHECK: arith.constant sparse<3, 2.500000e+00> : vector<4xf64>
func.func @forms() -> (tensor<8x8xf64>, tensor<4xf32>, tensor<2x3x4xf32>, tensor<3xcomplex<f64>>, tensor<4xi1>, tensor<4xindex>, tensor<4x4xf64>, vector<4xf64>) {
  %m = arith.constant sparse<[[0, 0], [0, 7], [1, 2], [4, 2]], [1.0, 2.0, 3.0, 4.0]> : tensor<8x8xf64>
  %flat = arith.constant sparse<[1, 3], [1.0, 2.5]> : tensor<4xf32>
  %splat = arith.constant sparse<[[0, 0, 0]], [1.0]> : tensor<2x3x4xf32>
  %c = arith.constant sparse<[[1], [2]], [(1.0, 2.0), (3.0, -4.0)]> : tensor<3xcomplex<f64>>
  %b = arith.constant sparse<[[1], [2]], [true, false]> : tensor<4xi1>
  %i = arith.constant sparse<[[1], [2]], [7, -8]> : tensor<4xindex>
  %none = arith.constant sparse<> : tensor<4x4xf64>
  %vec = arith.constant sparse<[[3]], [2.5]> : vector<4xf64>
  return %m, %flat, %splat, %c, %b, %i, %none, %vec : tensor<8x8xf64>, tensor<4xf32>, tensor<2x3x4xf32>, tensor<3xcomplex<f64>>, tensor<4xi1>, tensor<4xindex>, tensor<4x4xf64>, vector<4xf64>
}
