// RUN: xsparse-opt %s --split-input-file -p sparse-tensor-codegen | filecheck %s

// Insertion into 8-bit positions and coordinates: each coordinate is
// checked against 255 where the level's size does not show it fits (a
// dynamic size), and the last position (the level's entry count) once, when
// the tensor is loaded; both report through xsparse_runtime_error.

#SV8 = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), posWidth = 8, crdWidth = 8 }>
func.func @build(%n: index, %v: f64) -> tensor<?xf64, #SV8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = tensor.empty(%n) : tensor<?xf64, #SV8>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %init) -> (tensor<?xf64, #SV8>) {
    %u = tensor.insert %v into %t[%i] : tensor<?xf64, #SV8>
    scf.yield %u : tensor<?xf64, #SV8>
  }
  %l = sparse_tensor.load %r hasInserts : tensor<?xf64, #SV8>
  return %l : tensor<?xf64, #SV8>
}

// CHECK-LABEL: func.func @build
// CHECK:         scf.for %[[I:.*]] = %c0 to %n
// CHECK:           %[[MAX_CRD:.*]] = arith.constant 255 : index
// CHECK-NEXT:      %[[BIG:.*]] = arith.cmpi ugt, %[[I]], %[[MAX_CRD]] : index
// CHECK-NEXT:      scf.if %[[BIG]] {
// CHECK:             func.call @xsparse_runtime_error
// CHECK:           arith.index_castui %[[I]] : index to i8
// CHECK:           scf.yield
// CHECK:         %[[MAX_POS:.*]] = arith.constant 255 : index
// CHECK-NEXT:    %[[FITS:.*]] = arith.cmpi ule, %{{.*}}, %[[MAX_POS]] : index
// CHECK:         scf.if %{{.*}} {
// CHECK:           func.call @xsparse_runtime_error
// CHECK:         func.return

// -----

// A static size of at most 256: every coordinate fits, none is checked.

#SV8 = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), crdWidth = 8 }>
func.func @static(%v: f64) -> tensor<256xf64, #SV8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %init = tensor.empty() : tensor<256xf64, #SV8>
  %r = scf.for %i = %c0 to %c256 step %c1 iter_args(%t = %init) -> (tensor<256xf64, #SV8>) {
    %u = tensor.insert %v into %t[%i] : tensor<256xf64, #SV8>
    scf.yield %u : tensor<256xf64, #SV8>
  }
  %l = sparse_tensor.load %r hasInserts : tensor<256xf64, #SV8>
  return %l : tensor<256xf64, #SV8>
}

// CHECK-LABEL: func.func @static
// CHECK-NOT:     xsparse_runtime_error
// CHECK:         func.return
