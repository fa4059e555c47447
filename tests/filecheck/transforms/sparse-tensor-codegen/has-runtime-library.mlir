// RUN: xsparse-opt %s -p sparse-tensor-codegen | filecheck %s
//
// The code this pass generates is no runtime library: has_runtime_library is
// false (MLIR's codegen path), so programs skip what only the library needs.

// CHECK:      func.func @has() -> i1 {
// CHECK-NEXT:   %r = arith.constant false
// CHECK-NEXT:   func.return %r : i1
// CHECK-NEXT: }
func.func @has() -> i1 {
  %r = sparse_tensor.has_runtime_library
  return %r : i1
}
