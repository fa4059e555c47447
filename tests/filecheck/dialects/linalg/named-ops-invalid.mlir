// RUN: %xsparse-diagnostics | filecheck %s

// The named convolutions verified as MLIR 22 verifies them (same messages):
// one stride and one dilation per windowed dimension, i64; operands as large
// as the windows reach.

func.func @strides_rank(%i: tensor<1x8x8x2xf32>, %f: tensor<3x3x2x4xf32>, %o: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<3xi64>} ins(%i, %f : tensor<1x8x8x2xf32>, tensor<3x3x2x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// CHECK: named-ops-invalid.mlir:[[# @LINE - 4]]:3: error: 'linalg.conv_2d_nhwc_hwcf' op attribute 'strides' failed to satisfy constraint: 64-bit signless int elements attribute of shape [2]

// -----

func.func @dilations_type(%i: tensor<1x8x8x2xf32>, %f: tensor<3x3x2x4xf32>, %o: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi32>} ins(%i, %f : tensor<1x8x8x2xf32>, tensor<3x3x2x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// CHECK: named-ops-invalid.mlir:[[# @LINE - 4]]:3: error: 'linalg.conv_2d_nhwc_hwcf' op attribute 'dilations' failed to satisfy constraint: 64-bit signless int elements attribute of shape [2]

// -----

func.func @too_small(%i: tensor<1x7x7x2xf32>, %f: tensor<3x3x2x4xf32>, %o: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf ins(%i, %f : tensor<1x7x7x2xf32>, tensor<3x3x2x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// CHECK: named-ops-invalid.mlir:[[# @LINE - 4]]:3: error: 'linalg.conv_2d_nhwc_hwcf' op inferred input/output operand #0 has shape's dimension #1 to be greater than or equal to 8, but found 7

// -----

// quantized_matmul's zero points are scalars.

func.func @zero_point_tensor(%a: tensor<2x2xi8>, %b: tensor<2x2xi8>, %z: tensor<i32>, %c: tensor<2x2xi32>) -> tensor<2x2xi32> {
  %c0 = arith.constant 0 : i32
  %0 = linalg.quantized_matmul ins(%a, %b, %z, %c0 : tensor<2x2xi8>, tensor<2x2xi8>, tensor<i32>, i32) outs(%c : tensor<2x2xi32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// CHECK: named-ops-invalid.mlir:[[# @LINE - 4]]:3: error: 'linalg.quantized_matmul' op expected a scalar zero point, got tensor<i32>

// -----

func.func @zero_point_missing(%a: tensor<2x2xi8>, %b: tensor<2x2xi8>, %c: tensor<2x2xi32>) -> tensor<2x2xi32> {
  %0 = linalg.quantized_matmul ins(%a, %b : tensor<2x2xi8>, tensor<2x2xi8>) outs(%c : tensor<2x2xi32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// CHECK: named-ops-invalid.mlir:[[# @LINE - 3]]:3: error: Could not build linalg op
