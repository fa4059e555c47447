// RUN: xsparse-opt %s -p 'lower-subset,lower-jagged,convert-to-llvm{allocation_checks=true}' | filecheck %s

// A gather view lowered to the llvm dialect: the outer array is one malloc of
// inner descriptors ({ptr, ptr, i64, [1 x i64], [1 x i64]}, 40 bytes; its
// size checked for overflow, its result for null); each
// slot gets a descriptor into the input (a store of a struct); reading an inner
// buffer loads its descriptor. No element of %m is loaded to build the view.

func.func @view_sum(%m: memref<4x4xf32>, %mi: memref<?x1xindex>) -> f32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %v = subset.gather view(%m[%mi]) coordinates = [1] : memref<4x4xf32>[memref<?x1xindex>] -> memref<? x memref<4xf32>>
  %x = jagged.load %v[%c0][%c2] : !jagged.buffer<?xmemref<4xf32>>
  jagged.dealloc %v : !jagged.buffer<?xmemref<4xf32>>
  func.return %x : f32
}

// CHECK-LABEL: llvm.func @view_sum
// CHECK:         %[[C40:.*]] = llvm.mlir.constant(40) : i64
// CHECK-NEXT:    %[[PAIR:.*]] = llvm.call_intrinsic "llvm.umul.with.overflow.i64"(%{{.*}}, %[[C40]]) : (i64, i64) -> !llvm.struct<(i64, i1)>
// CHECK:         %[[BYTES:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i64
// CHECK-NEXT:    %[[OUTER:.*]] = llvm.call @malloc(%[[BYTES]]) : (i64) -> !llvm.ptr
// CHECK:         llvm.cond_br %{{.*}}, ^{{.*}}(%[[BYTES]] : i64), ^{{.*}}
// CHECK:         llvm.store %{{.*}}, %{{.*}} : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>, !llvm.ptr
// CHECK:         %{{.*}} = llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK:         %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:         llvm.call @free(%{{.*}}) : (!llvm.ptr) -> ()
// CHECK:         llvm.return %[[X]] : f32
// CHECK-NOT:     jagged.
