// RUN: xsparse-opt %s -p linalg-generalize-named-ops | filecheck %s
// The generic op of each named op is the one mlir-opt-22 generalizes it to:
// RUN: %if mlir-opt %{ xsparse-opt %s -p linalg-generalize-named-ops | %mlir-opt > %t.xsparse %}
// RUN: %if mlir-opt %{ %mlir-opt %s --linalg-generalize-named-ops > %t.mlir %}
// RUN: %if mlir-opt %{ diff %t.mlir %t.xsparse %}

// Strides and dilations scale the window's output and kernel loops; inputs
// are cast to the output's element type (extsi, sitofp) before the product.

// CHECK-LABEL: func.func @conv_1d_nwc_wcf(
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, ((d1 * 2) + (d3 * 3)), d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<1x9x2xi8>, tensor<2x2x3xi8>) outs(%{{.*}} : tensor<1x3x3xi32>) {
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: i8, %[[F:.*]]: i8, %[[OUT:.*]]: i32):
// CHECK-NEXT:      %[[X:.*]] = arith.extsi %[[IN]] : i8 to i32
// CHECK-NEXT:      %[[Y:.*]] = arith.extsi %[[F]] : i8 to i32
// CHECK-NEXT:      %[[M:.*]] = arith.muli %[[X]], %[[Y]] : i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[OUT]], %[[M]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
// CHECK-NEXT:    } -> tensor<1x3x3xi32>
func.func @conv_1d_nwc_wcf(%i: tensor<1x9x2xi8>, %f: tensor<2x2x3xi8>, %o: tensor<1x3x3xi32>) -> tensor<1x3x3xi32> {
  %0 = linalg.conv_1d_nwc_wcf {dilations = dense<3> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%i, %f : tensor<1x9x2xi8>, tensor<2x2x3xi8>) outs(%o : tensor<1x3x3xi32>) -> tensor<1x3x3xi32>
  return %0 : tensor<1x3x3xi32>
}

// CHECK-LABEL: func.func @pooling_nhwc_sum(
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, (d1 + d4), (d2 + d5), d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<1x4x4x1xf64>, tensor<2x2xf64>) outs(%{{.*}} : tensor<1x3x3x1xf64>) {
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f64, %{{.*}}: f64, %[[OUT:.*]]: f64):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[OUT]], %[[IN]] : f64
// CHECK-NEXT:      linalg.yield %[[S]] : f64
// CHECK-NEXT:    } -> tensor<1x3x3x1xf64>
func.func @pooling_nhwc_sum(%i: tensor<1x4x4x1xf64>, %w: tensor<2x2xf64>, %o: tensor<1x3x3x1xf64>) -> tensor<1x3x3x1xf64> {
  %0 = linalg.pooling_nhwc_sum ins(%i, %w : tensor<1x4x4x1xf64>, tensor<2x2xf64>) outs(%o : tensor<1x3x3x1xf64>) -> tensor<1x3x3x1xf64>
  return %0 : tensor<1x3x3x1xf64>
}

// CHECK-LABEL: func.func @dot(
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%{{.*}}, %{{.*}} : tensor<8xi8>, tensor<8xi8>) outs(%{{.*}} : tensor<f32>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %[[OUT:.*]]: f32):
// CHECK-NEXT:      %[[X:.*]] = arith.sitofp %[[A]] : i8 to f32
// CHECK-NEXT:      %[[Y:.*]] = arith.sitofp %[[B]] : i8 to f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[OUT]], %[[M]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK-NEXT:    } -> tensor<f32>
func.func @dot(%a: tensor<8xi8>, %b: tensor<8xi8>, %s: tensor<f32>) -> tensor<f32> {
  %0 = linalg.dot ins(%a, %b : tensor<8xi8>, tensor<8xi8>) outs(%s : tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// Every other op, compared with mlir-opt-22 above.
func.func @others(%i1: tensor<8xf32>, %f1: tensor<3xf32>, %o1: tensor<6xf32>,
                  %i2: tensor<8x8xi32>, %f2: tensor<3x3xi32>, %o2: tensor<6x6xi32>,
                  %i3: tensor<5x5x5xf32>, %f3: tensor<2x2x2xf32>, %o3: tensor<4x4x4xf32>,
                  %i5: tensor<1x8x8x2xf32>, %f5: tensor<3x3x2x4xf32>, %o5: tensor<1x6x6x4xf32>,
                  %f6: tensor<2x2x2x4xf32>,
                  %i7: tensor<1x2x8x8xf32>, %f7: tensor<3x2x3x3xf32>, %o7: tensor<1x3x3x3xf32>,
                  %i8: tensor<1x5x5x5x1xf32>, %f8: tensor<2x2x2x1x1xf32>, %o8: tensor<1x4x4x4x1xf32>,
                  %i9: tensor<1x8x2xf32>, %f9: tensor<3x2xf32>, %o9: tensor<1x6x2xf32>,
                  %f10: tensor<3x3x2xf32>, %o10: tensor<1x6x6x2xf32>)
    -> (tensor<6xf32>, tensor<6x6xi32>, tensor<4x4x4xf32>, tensor<1x6x6x4xf32>, tensor<1x6x6x4xf32>, tensor<1x3x3x3xf32>, tensor<1x4x4x4x1xf32>, tensor<1x6x2xf32>, tensor<1x6x6x2xf32>) {
  %1 = linalg.conv_1d ins(%i1, %f1 : tensor<8xf32>, tensor<3xf32>) outs(%o1 : tensor<6xf32>) -> tensor<6xf32>
  %2 = linalg.conv_2d ins(%i2, %f2 : tensor<8x8xi32>, tensor<3x3xi32>) outs(%o2 : tensor<6x6xi32>) -> tensor<6x6xi32>
  %3 = linalg.conv_3d ins(%i3, %f3 : tensor<5x5x5xf32>, tensor<2x2x2xf32>) outs(%o3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %5 = linalg.conv_2d_nhwc_hwcf ins(%i5, %f5 : tensor<1x8x8x2xf32>, tensor<3x3x2x4xf32>) outs(%o5 : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %6 = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i5, %f6 : tensor<1x8x8x2xf32>, tensor<2x2x2x4xf32>) outs(%o5 : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %7 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%i7, %f7 : tensor<1x2x8x8xf32>, tensor<3x2x3x3xf32>) outs(%o7 : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %8 = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%i8, %f8 : tensor<1x5x5x5x1xf32>, tensor<2x2x2x1x1xf32>) outs(%o8 : tensor<1x4x4x4x1xf32>) -> tensor<1x4x4x4x1xf32>
  %9 = linalg.depthwise_conv_1d_nwc_wc ins(%i9, %f9 : tensor<1x8x2xf32>, tensor<3x2xf32>) outs(%o9 : tensor<1x6x2xf32>) -> tensor<1x6x2xf32>
  %10 = linalg.depthwise_conv_2d_nhwc_hwc ins(%i5, %f10 : tensor<1x8x8x2xf32>, tensor<3x3x2xf32>) outs(%o10 : tensor<1x6x6x2xf32>) -> tensor<1x6x6x2xf32>
  return %1, %2, %3, %5, %6, %7, %8, %9, %10 : tensor<6xf32>, tensor<6x6xi32>, tensor<4x4x4xf32>, tensor<1x6x6x4xf32>, tensor<1x6x6x4xf32>, tensor<1x3x3x3xf32>, tensor<1x4x4x4x1xf32>, tensor<1x6x2xf32>, tensor<1x6x6x2xf32>
}

// quantized_matmul: each operand less its zero point (scalars, read through
// maps to ()), after the cast to the output's element type.

// CHECK-LABEL: func.func @quantized_matmul(
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<5x3xi8>, tensor<3x6xi8>, i32, i32) outs(%{{.*}} : tensor<5x6xi32>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %[[AZ:.*]]: i32, %[[BZ:.*]]: i32, %[[OUT:.*]]: i32):
// CHECK-NEXT:      %[[X:.*]] = arith.extsi %[[A]] : i8 to i32
// CHECK-NEXT:      %[[XZ:.*]] = arith.subi %[[X]], %[[AZ]] : i32
// CHECK-NEXT:      %[[Y:.*]] = arith.extsi %[[B]] : i8 to i32
// CHECK-NEXT:      %[[YZ:.*]] = arith.subi %[[Y]], %[[BZ]] : i32
// CHECK-NEXT:      %[[M:.*]] = arith.muli %[[XZ]], %[[YZ]] : i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[OUT]], %[[M]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
// CHECK-NEXT:    } -> tensor<5x6xi32>
func.func @quantized_matmul(%a: tensor<5x3xi8>, %b: tensor<3x6xi8>, %az: i32, %bz: i32, %c: tensor<5x6xi32>) -> tensor<5x6xi32> {
  %0 = linalg.quantized_matmul ins(%a, %b, %az, %bz : tensor<5x3xi8>, tensor<3x6xi8>, i32, i32) outs(%c : tensor<5x6xi32>) -> tensor<5x6xi32>
  return %0 : tensor<5x6xi32>
}

// CHECK-LABEL: func.func @quantized_matmul_f32(
// CHECK:         ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %[[AZ:.*]]: i32, %[[BZ:.*]]: i32, %[[OUT:.*]]: f32):
// CHECK-NEXT:      %[[X:.*]] = arith.sitofp %[[A]] : i8 to f32
// CHECK-NEXT:      %[[Z:.*]] = arith.sitofp %[[AZ]] : i32 to f32
// CHECK-NEXT:      %[[XZ:.*]] = arith.subf %[[X]], %[[Z]] : f32
func.func @quantized_matmul_f32(%a: tensor<5x3xi8>, %b: tensor<3x6xi8>, %az: i32, %bz: i32, %c: tensor<5x6xf32>) -> tensor<5x6xf32> {
  %0 = linalg.quantized_matmul ins(%a, %b, %az, %bz : tensor<5x3xi8>, tensor<3x6xi8>, i32, i32) outs(%c : tensor<5x6xf32>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}
