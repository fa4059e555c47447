// RUN: python -m xsparse.backend --emit-llvm %s | filecheck %s
// RUN: %mlir-opt --convert-scf-to-cf --convert-to-llvm %s | mlir-translate-22 --mlir-to-llvmir | filecheck %s
// REQUIRES: mlir-opt

// The LLVM IR signatures follow MLIR's memref descriptor ABI: the same
// checks hold for xsparse's output and for mlir-translate's.

// CHECK: define void @scale(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, double %{{.*}})
func.func @scale(%a: memref<?xf64>, %s: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    %w = arith.mulf %v, %s : f64
    memref.store %w, %a[%i] : memref<?xf64>
  }
  return
}

// CHECK: define { { ptr, ptr, i64, [2 x i64], [2 x i64] }, i64 } @pair(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i64 %{{.*}})
func.func @pair(%a: memref<4x?xf32>) -> (memref<4x?xf32>, index) {
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c1 : memref<4x?xf32>
  return %a, %n : memref<4x?xf32>, index
}

// CHECK: define { ptr, ptr, i64 } @scalar_memref(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}})
func.func @scalar_memref(%a: memref<i32>) -> memref<i32> {
  return %a : memref<i32>
}
