// RUN: xsparse-opt --split-input-file %s -p convert-to-llvm | filecheck %s

// A memref argument is expanded into its descriptor fields and rebuilt in the entry block.
// CHECK-LABEL: llvm.func @first(%0: !llvm.ptr, %1: !llvm.ptr, %2: i64, %3: i64, %4: i64) -> f64
// CHECK:         %{{.*}} = llvm.mlir.poison : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK-COUNT-5: llvm.insertvalue
// CHECK:         %[[P:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK:         %[[A:.*]] = llvm.getelementptr inbounds %[[P]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK:         %[[V:.*]] = llvm.load %[[A]] : !llvm.ptr -> f64
// CHECK:         llvm.return %[[V]] : f64
func.func @first(%a: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<?xf64>
  return %v : f64
}

// -----

// Several results are packed into a struct; calls unpack it.
// CHECK-LABEL: llvm.func @two(%i: i64) -> !llvm.struct<(i64, i64)>
// CHECK:         llvm.insertvalue %i, %{{.*}}[0]
// CHECK:         llvm.insertvalue %i, %{{.*}}[1]
// CHECK-LABEL: llvm.func @caller
// CHECK:         %[[R:.*]] = llvm.call @two(%{{.*}}) : (i64) -> !llvm.struct<(i64, i64)>
// CHECK:         llvm.extractvalue %[[R]][0] : !llvm.struct<(i64, i64)>
// CHECK:         llvm.extractvalue %[[R]][1] : !llvm.struct<(i64, i64)>
func.func @two(%i: index) -> (index, index) {
  return %i, %i : index, index
}
func.func @caller(%i: index) -> index {
  %a, %b = func.call @two(%i) : (index) -> (index, index)
  %s = arith.addi %a, %b : index
  return %s : index
}
