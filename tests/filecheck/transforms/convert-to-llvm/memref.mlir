// RUN: xsparse-opt %s -p convert-to-llvm | filecheck %s

// CHECK-LABEL: llvm.func @alloc_store

// CHECK:         llvm.call @malloc(%{{.*}}) : (i64) -> !llvm.ptr
// CHECK:         llvm.getelementptr inbounds %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK:         llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr
// CHECK:         llvm.call @free(%{{.*}}) : (!llvm.ptr) -> ()
// CHECK:       llvm.func @malloc(i64) -> !llvm.ptr
// CHECK:       llvm.func @free(!llvm.ptr)
func.func @alloc_store(%n: index, %v: i32) {
  %c1 = arith.constant 1 : index
  %m = memref.alloc(%n) : memref<4x?xi32>
  memref.store %v, %m[%c1, %c1] : memref<4x?xi32>
  memref.dealloc %m : memref<4x?xi32>
  return
}
