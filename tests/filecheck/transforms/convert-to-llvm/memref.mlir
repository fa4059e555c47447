// RUN: xsparse-opt %s -p convert-to-llvm | filecheck %s

// A malloc'd block asks for transparent huge pages when it is large (Linux;
// the helper is defined once per module and inlined by O3).

// CHECK-LABEL: llvm.func @alloc_store

// CHECK:         %[[BLOCK:.*]] = llvm.call @malloc(%[[BYTES:.*]]) : (i64) -> !llvm.ptr
// CHECK-NEXT:    llvm.call @__xsparse_advise_huge_pages(%[[BLOCK]], %[[BYTES]]) : (!llvm.ptr, i64) -> ()
// CHECK:         llvm.getelementptr inbounds %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK:         llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr
// CHECK:         llvm.call @free(%{{.*}}) : (!llvm.ptr) -> ()
// CHECK:       llvm.func @malloc(i64) -> !llvm.ptr
// CHECK:       llvm.func @madvise(i64, i64, i32) -> i32
// CHECK:       llvm.func internal @__xsparse_advise_huge_pages(%[[P:.*]]: !llvm.ptr, %[[SIZE:.*]]: i64)
// CHECK:         %[[FROM:.*]] = llvm.mlir.constant(4194304) : i64
// CHECK:         %[[LARGE:.*]] = llvm.icmp "uge" %[[SIZE]], %[[FROM]] : i64
// CHECK:         llvm.cond_br %[[LARGE]], ^[[ADVISE:.*]], ^[[DONE:.*]]
// CHECK:       ^[[ADVISE]]:
// CHECK:         %[[MADV:.*]] = llvm.mlir.constant(14 : i32) : i32
// CHECK:         llvm.call @madvise(%{{.*}}, %{{.*}}, %[[MADV]]) : (i64, i64, i32) -> i32
// CHECK:       ^[[DONE]]:
// CHECK-NEXT:    llvm.return
// CHECK:       llvm.func @free(!llvm.ptr)
func.func @alloc_store(%n: index, %v: i32) {
  %c1 = arith.constant 1 : index
  %m = memref.alloc(%n) : memref<4x?xi32>
  memref.store %v, %m[%c1, %c1] : memref<4x?xi32>
  memref.dealloc %m : memref<4x?xi32>
  return
}
