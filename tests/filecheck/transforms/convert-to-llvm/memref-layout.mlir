// RUN: xsparse-opt %s --split-input-file --parsing-diagnostics -p convert-to-llvm | filecheck %s

// An identity affine-map layout is the plain row-major layout.

func.func @identity_layout(%m: memref<4x4xf64, affine_map<(d0, d1) -> (d0, d1)>>, %i: index, %j: index) -> f64 {
  %v = memref.load %m[%i, %j] : memref<4x4xf64, affine_map<(d0, d1) -> (d0, d1)>>
  return %v : f64
}

// CHECK-LABEL: llvm.func @identity_layout
// CHECK:         llvm.getelementptr
// CHECK:         llvm.load

// -----

// Any other affine-map layout is refused with a diagnostic.

func.func @transposed_layout(%m: memref<4x4xf64, affine_map<(d0, d1) -> (d1, d0)>>, %i: index) -> f64 {
  %v = memref.load %m[%i, %i] : memref<4x4xf64, affine_map<(d0, d1) -> (d1, d0)>>
  return %v : f64
}

// CHECK: memref-layout.mlir:[[# @LINE - 4]]:3: error: 'memref.load' op unsupported memref layout in memref<4x4xf64, affine_map<(d0, d1) -> (d1, d0)>>
