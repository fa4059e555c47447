// RUN: xsparse-opt %s | xsparse-opt | filecheck %s
// RUN: xsparse-opt --print-op-generic %s | xsparse-opt | filecheck %s

// MLIR's builtin `sparse<indices, values> : type` attribute, printed as
// mlir-opt-22 prints it: one index row per entry, or a flat list of indices
// for a vector; a splat (all indices or all values equal) as one element;
// values of more than 100 elements in hex; `sparse<>` when nothing is listed.

// CHECK-LABEL: func.func @forms
// CHECK-NEXT:    %m = arith.constant sparse<[[0, 0], [0, 7], [1, 2], [4, 2]], [1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<8x8xf64>
// CHECK-NEXT:    %v = arith.constant sparse<[[1], [5]], [3, 4]> : tensor<32xi32>
// CHECK-NEXT:    %flat = arith.constant sparse<[1, 3], [1.000000e+00, 2.500000e+00]> : tensor<4xf32>
// CHECK-NEXT:    %splat = arith.constant sparse<0, 1.000000e+00> : tensor<2x3x4xf32>
// CHECK-NEXT:    %same = arith.constant sparse<[[1, 2], [0, 1]], 5> : tensor<2x3xi64>
// CHECK-NEXT:    %c = arith.constant sparse<[[1], [2]], [(1.000000e+00,2.000000e+00), (3.000000e+00,-4.000000e+00)]> : tensor<3xcomplex<f64>>
// CHECK-NEXT:    %b = arith.constant sparse<[[1], [2]], [true, false]> : tensor<4xi1>
// CHECK-NEXT:    %i = arith.constant sparse<[[1], [2]], [7, -8]> : tensor<4xindex>
// CHECK-NEXT:    %vec = arith.constant sparse<3, 2.500000e+00> : vector<4xf64>
// CHECK-NEXT:    %none = arith.constant sparse<> : tensor<4x4xf64>
// CHECK-NEXT:    %empty = arith.constant sparse<> : tensor<4xf32>
// CHECK-NEXT:    %scalar = arith.constant sparse<> : tensor<f32>
// CHECK-NEXT:    %hex = arith.constant sparse<[[1], [2]], 1.000000e+00> : tensor<4xf32>
func.func @forms() {
  %m = arith.constant sparse<[[0, 0], [0, 7], [1, 2], [4, 2]], [1.0, 2.0, 3.0, 4.0]> : tensor<8x8xf64>
  %v = arith.constant sparse<[[1], [5]], [3, 4]> : tensor<32xi32>
  %flat = arith.constant sparse<[1, 3], [1.0, 2.5]> : tensor<4xf32>
  %splat = arith.constant sparse<[[0, 0, 0]], [1.0]> : tensor<2x3x4xf32>
  %same = arith.constant sparse<[[1, 2], [0, 1]], 5> : tensor<2x3xi64>
  %c = arith.constant sparse<[[1], [2]], [(1.0, 2.0), (3.0, -4.0)]> : tensor<3xcomplex<f64>>
  %b = arith.constant sparse<[[1], [2]], [true, false]> : tensor<4xi1>
  %i = arith.constant sparse<[[1], [2]], [7, -8]> : tensor<4xindex>
  %vec = arith.constant sparse<[[3]], [2.5]> : vector<4xf64>
  %none = arith.constant sparse<> : tensor<4x4xf64>
  %empty = arith.constant sparse<[], []> : tensor<4xf32>
  %scalar = arith.constant sparse<[[]], [1.0]> : tensor<f32>
  %hex = arith.constant sparse<[[1], [2]], "0x0000803F"> : tensor<4xf32>
  return
}

// The indices of many entries stay a list; their values are hex.
// CHECK-LABEL: func.func @many
// CHECK-NEXT:    %0 = arith.constant sparse<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100], "0x000000000100000002000000030000000400000005000000060000000700000008000000090000000A0000000B0000000C0000000D0000000E0000000F000000100000001100000012000000130000001400000015000000160000001700000018000000190000001A0000001B0000001C0000001D0000001E0000001F000000200000002100000022000000230000002400000025000000260000002700000028000000290000002A0000002B0000002C0000002D0000002E0000002F000000300000003100000032000000330000003400000035000000360000003700000038000000390000003A0000003B0000003C0000003D0000003E0000003F000000400000004100000042000000430000004400000045000000460000004700000048000000490000004A0000004B0000004C0000004D0000004E0000004F000000500000005100000052000000530000005400000055000000560000005700000058000000590000005A0000005B0000005C0000005D0000005E0000005F0000006000000061000000620000006300000064000000"> : tensor<128xi32>
func.func @many() -> tensor<128xi32> {
  %0 = arith.constant sparse<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100]> : tensor<128xi32>
  return %0 : tensor<128xi32>
}
