// RUN: %xsparse-roundtrip | filecheck %s
// RUN: %xsparse-generic-roundtrip | filecheck %s

// memref.prefetch (xsparse's addition to xDSL's memref dialect), as MLIR 22
// prints it: the flags as keywords, the locality hint in `locality<N>`.

// CHECK-LABEL: func.func @prefetch
func.func @prefetch(%m: memref<?x?xf32>, %v: memref<8xf64>, %s: memref<f32>, %i: index, %j: index) {
  // CHECK:      memref.prefetch %m[%i, %j], read, locality<3>, data : memref<?x?xf32>
  // CHECK-NEXT: memref.prefetch %m[%i, %j], write, locality<0>, instr : memref<?x?xf32>
  // CHECK-NEXT: memref.prefetch %v[%i], read, locality<1>, instr : memref<8xf64>
  // CHECK-NEXT: memref.prefetch %s[], write, locality<2>, data : memref<f32>
  memref.prefetch %m[%i, %j], read, locality<3>, data : memref<?x?xf32>
  memref.prefetch %m[%i, %j], write, locality<0>, instr : memref<?x?xf32>
  memref.prefetch %v[%i], read, locality<1>, instr : memref<8xf64>
  memref.prefetch %s[], write, locality<2>, data : memref<f32>
  func.return
}
