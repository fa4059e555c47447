// REQUIRES: mlir-opt
//
// The decomposed C = A @ B (transforms/sparse-decompose-format/zero-fill.mlir)
// streams C's rows with vector.store's `nontemporal` and `alignment`
// attributes, which MLIR 22 reads as its own and lowers to an aligned
// non-temporal llvm.store, as xsparse's convert-to-llvm does.
//
// RUN: xsparse-opt %S/../transforms/sparse-decompose-format/zero-fill.mlir -p 'sparse-decompose-format{widths=2}' | %mlir-opt | filecheck %s
// RUN: xsparse-opt %s | %mlir-opt --convert-vector-to-llvm --finalize-memref-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts | filecheck %s --check-prefix=LLVM
// RUN: xsparse-opt %s -p convert-to-llvm | filecheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @spmm(
// CHECK:         vector.store %{{.*}} {alignment = 32 : i64, nontemporal = true} : memref<?x?xf64>, vector<4xf64>

func.func @stream(%m: memref<?x?xf64>, %v: vector<4xf64>, %i: index) {
  vector.store %v, %m[%i, %i] {alignment = 32 : i64, nontemporal = true} : memref<?x?xf64>, vector<4xf64>
  return
}
// LLVM-LABEL: llvm.func @stream(
// LLVM:         llvm.store %{{.*}}, %{{.*}} {alignment = 32 : i64, nontemporal} : vector<4xf64>, !llvm.ptr
