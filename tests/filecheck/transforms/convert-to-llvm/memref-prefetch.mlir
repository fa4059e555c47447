// RUN: xsparse-opt %s --split-input-file -p convert-to-llvm | filecheck %s

// memref.prefetch -> the element's address (aligned pointer + i * stride + j,
// as memref.load) and LLVM's prefetch intrinsic with its three i32 flags
// (rw, locality, cache), as MLIR's llvm.intr.prefetch. The address is not
// `inbounds` (a prefetch may point past the buffer), as in MLIR's lowering.

// CHECK-LABEL: llvm.func @prefetch(
// CHECK-SAME:      %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %[[I:.*]]: i64, %[[J:.*]]: i64)
// CHECK:         %[[ALIGNED:.*]] = llvm.extractvalue %[[M:.*]][1] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:    %[[STRIDE:.*]] = llvm.extractvalue %[[M]][4, 0] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:    %[[ROW:.*]] = llvm.mul %[[I]], %[[STRIDE]] : i64
// CHECK-NEXT:    %[[AT:.*]] = llvm.add %[[ROW]], %[[J]] : i64
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr %[[ALIGNED]][%[[AT]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[READ:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[KEEP:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT:    %[[DATA:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.prefetch.p0"(%[[P]], %[[READ]], %[[KEEP]], %[[DATA]]) : (!llvm.ptr, i32, i32, i32) -> ()
// CHECK:         %[[P2:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[WRITE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %[[NONE:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[INSTR:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.prefetch.p0"(%[[P2]], %[[WRITE]], %[[NONE]], %[[INSTR]]) : (!llvm.ptr, i32, i32, i32) -> ()
// CHECK-NEXT:    llvm.return
func.func @prefetch(%m: memref<?x?xf32>, %i: index, %j: index) {
  memref.prefetch %m[%i, %j], read, locality<3>, data : memref<?x?xf32>
  memref.prefetch %m[%i, %j], write, locality<0>, instr : memref<?x?xf32>
  return
}

// -----

// A memref of rank 0: the aligned pointer itself.

// CHECK-LABEL: llvm.func @scalar(
// CHECK:         %[[ALIGNED:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)>
// CHECK-NEXT:    %[[WRITE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %[[HINT:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:    %[[DATA:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.prefetch.p0"(%[[ALIGNED]], %[[WRITE]], %[[HINT]], %[[DATA]]) : (!llvm.ptr, i32, i32, i32) -> ()
func.func @scalar(%s: memref<f64>) {
  memref.prefetch %s[], write, locality<2>, data : memref<f64>
  return
}
