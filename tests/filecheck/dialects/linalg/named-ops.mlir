// RUN: xsparse-opt %s | filecheck %s
// RUN: xsparse-opt %s --print-op-generic | xsparse-opt | filecheck %s
// RUN: %if mlir-opt %{ %mlir-opt %s | filecheck %s %}
// RUN: %if mlir-opt %{ xsparse-opt %s | %mlir-opt | filecheck %s %}

// The named ops of MLIR's sparse integration tests, in MLIR 22's syntax:
// `strides` and `dilations` (optional, 1 by default) in front, sorted.

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>

// CHECK-LABEL: func.func @named(
// CHECK-NEXT:    %{{.*}} = linalg.dot ins(%[[A:.*]], %[[B:.*]] : tensor<8xf64>, tensor<8xf64>) outs(%[[S:.*]] : tensor<f64>) -> tensor<f64>
// CHECK-NEXT:    %{{.*}} = linalg.conv_1d ins(%{{.*}}, %{{.*}} : tensor<8xf32>, tensor<3xf32>) outs(%{{.*}} : tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:    %{{.*}} = linalg.conv_2d ins(%{{.*}}, %{{.*}} : tensor<8x8xi32, #{{.*}}>, tensor<3x3xi32>) outs(%{{.*}} : tensor<6x6xi32>) -> tensor<6x6xi32>
// CHECK-NEXT:    %{{.*}} = linalg.conv_3d ins(%{{.*}}, %{{.*}} : tensor<5x5x5xf32>, tensor<2x2x2xf32>) outs(%{{.*}} : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
// CHECK-NEXT:    %{{.*}} = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x7x2xi8>, tensor<2x2x3xi8>) outs(%{{.*}} : tensor<1x3x3xi32>) -> tensor<1x3x3xi32>
// CHECK-NEXT:    %{{.*}} = linalg.conv_2d_nhwc_hwcf ins(%{{.*}}, %{{.*}} : tensor<1x8x8x2xf32>, tensor<3x3x2x4xf32>) outs(%{{.*}} : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
// CHECK-NEXT:    %{{.*}} = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x8x8x2xf32>, tensor<2x2x2x4xf32>) outs(%{{.*}} : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
// CHECK-NEXT:    %{{.*}} = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x2x8x8xf32>, tensor<3x2x3x3xf32>) outs(%{{.*}} : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
// CHECK-NEXT:    %{{.*}} = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x5x5x5x1xf32>, tensor<2x2x2x1x1xf32>) outs(%{{.*}} : tensor<1x4x4x4x1xf32>) -> tensor<1x4x4x4x1xf32>
// CHECK-NEXT:    %{{.*}} = linalg.depthwise_conv_1d_nwc_wc ins(%{{.*}}, %{{.*}} : tensor<1x8x2xf32>, tensor<3x2xf32>) outs(%{{.*}} : tensor<1x6x2xf32>) -> tensor<1x6x2xf32>
// CHECK-NEXT:    %{{.*}} = linalg.depthwise_conv_2d_nhwc_hwc ins(%{{.*}}, %{{.*}} : tensor<1x8x8x2xf32>, tensor<3x3x2xf32>) outs(%{{.*}} : tensor<1x6x6x2xf32>) -> tensor<1x6x6x2xf32>
// CHECK-NEXT:    %{{.*}} = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x8x8x2xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x6x6x2xf32>) -> tensor<1x6x6x2xf32>
func.func @named(%a: tensor<8xf64>, %b: tensor<8xf64>, %s: tensor<f64>,
                 %i1: tensor<8xf32>, %f1: tensor<3xf32>, %o1: tensor<6xf32>,
                 %i2: tensor<8x8xi32, #CSR>, %f2: tensor<3x3xi32>, %o2: tensor<6x6xi32>,
                 %i3: tensor<5x5x5xf32>, %f3: tensor<2x2x2xf32>, %o3: tensor<4x4x4xf32>,
                 %i4: tensor<1x7x2xi8>, %f4: tensor<2x2x3xi8>, %o4: tensor<1x3x3xi32>,
                 %i5: tensor<1x8x8x2xf32>, %f5: tensor<3x3x2x4xf32>, %o5: tensor<1x6x6x4xf32>,
                 %f6: tensor<2x2x2x4xf32>,
                 %i7: tensor<1x2x8x8xf32>, %f7: tensor<3x2x3x3xf32>, %o7: tensor<1x3x3x3xf32>,
                 %i8: tensor<1x5x5x5x1xf32>, %f8: tensor<2x2x2x1x1xf32>, %o8: tensor<1x4x4x4x1xf32>,
                 %i9: tensor<1x8x2xf32>, %f9: tensor<3x2xf32>, %o9: tensor<1x6x2xf32>,
                 %f10: tensor<3x3x2xf32>, %o10: tensor<1x6x6x2xf32>, %w: tensor<3x3xf32>) {
  %0 = linalg.dot ins(%a, %b : tensor<8xf64>, tensor<8xf64>) outs(%s : tensor<f64>) -> tensor<f64>
  %1 = linalg.conv_1d ins(%i1, %f1 : tensor<8xf32>, tensor<3xf32>) outs(%o1 : tensor<6xf32>) -> tensor<6xf32>
  %2 = linalg.conv_2d ins(%i2, %f2 : tensor<8x8xi32, #CSR>, tensor<3x3xi32>) outs(%o2 : tensor<6x6xi32>) -> tensor<6x6xi32>
  %3 = linalg.conv_3d ins(%i3, %f3 : tensor<5x5x5xf32>, tensor<2x2x2xf32>) outs(%o3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %4 = linalg.conv_1d_nwc_wcf {strides = dense<2> : tensor<1xi64>, dilations = dense<1> : tensor<1xi64>} ins(%i4, %f4 : tensor<1x7x2xi8>, tensor<2x2x3xi8>) outs(%o4 : tensor<1x3x3xi32>) -> tensor<1x3x3xi32>
  %5 = linalg.conv_2d_nhwc_hwcf ins(%i5, %f5 : tensor<1x8x8x2xf32>, tensor<3x3x2x4xf32>) outs(%o5 : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %6 = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i5, %f6 : tensor<1x8x8x2xf32>, tensor<2x2x2x4xf32>) outs(%o5 : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %7 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%i7, %f7 : tensor<1x2x8x8xf32>, tensor<3x2x3x3xf32>) outs(%o7 : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %8 = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%i8, %f8 : tensor<1x5x5x5x1xf32>, tensor<2x2x2x1x1xf32>) outs(%o8 : tensor<1x4x4x4x1xf32>) -> tensor<1x4x4x4x1xf32>
  %9 = linalg.depthwise_conv_1d_nwc_wc ins(%i9, %f9 : tensor<1x8x2xf32>, tensor<3x2xf32>) outs(%o9 : tensor<1x6x2xf32>) -> tensor<1x6x2xf32>
  %10 = linalg.depthwise_conv_2d_nhwc_hwc ins(%i5, %f10 : tensor<1x8x8x2xf32>, tensor<3x3x2xf32>) outs(%o10 : tensor<1x6x6x2xf32>) -> tensor<1x6x6x2xf32>
  %11 = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i5, %w : tensor<1x8x8x2xf32>, tensor<3x3xf32>) outs(%o10 : tensor<1x6x6x2xf32>) -> tensor<1x6x6x2xf32>
  return
}
