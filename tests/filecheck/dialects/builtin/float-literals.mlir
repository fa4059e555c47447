// RUN: xsparse-opt %s | xsparse-opt | filecheck %s

// Float literals read as MLIR 22 reads them: a decimal too large for its type
// is infinity, a hexadecimal literal gives the bits of the value (also as an
// element of a dense literal, so that the infinities and NaNs xsparse-opt
// prints read back).

// CHECK-LABEL: func.func @decimal_overflow
// CHECK-NEXT:    %h = arith.constant 0x7c00 : f16
// CHECK-NEXT:    %f = arith.constant 0xff800000 : f32
// CHECK-NEXT:    %d = arith.constant 0x7ff0000000000000 : f64
// CHECK-NEXT:    %v = arith.constant dense<[1.000000e+00, 0x7c00]> : tensor<2xf16>
func.func @decimal_overflow() -> (f16, f32, f64, tensor<2xf16>) {
  %h = arith.constant 65520.0 : f16
  %f = arith.constant -1.0e40 : f32
  %d = arith.constant 1.0e309 : f64
  %v = arith.constant dense<[1.0, 7.0e5]> : tensor<2xf16>
  return %h, %f, %d, %v : f16, f32, f64, tensor<2xf16>
}

// CHECK-LABEL: func.func @hexadecimal_bits
// CHECK-NEXT:    %b = arith.constant 2.658460e+36 : bf16
// CHECK-NEXT:    %s = arith.constant dense<0x7c00> : tensor<4xf16>
// CHECK-NEXT:    %v = arith.constant dense<[0x7f800000, 0x7fc00000, 1.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    %i = arith.constant dense<[124, 3]> : tensor<2xi16>
func.func @hexadecimal_bits() -> (bf16, tensor<4xf16>, tensor<3xf32>, tensor<2xi16>) {
  %b = arith.constant 0x7C00 : bf16
  %s = arith.constant dense<0x7C00> : tensor<4xf16>
  %v = arith.constant dense<[0x7F800000, 0x7FC00000, 1.0]> : tensor<3xf32>
  %i = arith.constant dense<[0x7C, 3]> : tensor<2xi16>
  return %b, %s, %v, %i : bf16, tensor<4xf16>, tensor<3xf32>, tensor<2xi16>
}
