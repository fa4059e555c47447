// RUN: xsparse-opt %s -p finalize-memref-to-llvm | filecheck %s

// memref.collapse_shape / expand_shape of a row-major memref: the source's
// pointers and offset, the result's sizes (a product of the group's sizes where
// dynamic, output_shape where expanded) and row-major strides.

func.func @collapse(%a: memref<?x3xf64>) -> memref<?xf64> {
  %b = memref.collapse_shape %a [[0, 1]] : memref<?x3xf64> into memref<?xf64>
  return %b : memref<?xf64>
}

// CHECK-LABEL: func.func @collapse(
// CHECK:         %[[D:.*]] = builtin.unrealized_conversion_cast %{{.*}} : memref<?x3xf64> to !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:    %[[S0:.*]] = llvm.extractvalue %[[D]][3, 0]
// CHECK-NEXT:    %[[THREE:.*]] = llvm.mlir.constant(3) : i64
// CHECK-NEXT:    %[[N:.*]] = llvm.mul %[[S0]], %[[THREE]] : i64
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[OFF:.*]] = llvm.extractvalue %[[D]][2]
// CHECK-NEXT:    %[[AL:.*]] = llvm.extractvalue %[[D]][0]
// CHECK-NEXT:    %[[AG:.*]] = llvm.extractvalue %[[D]][1]
// CHECK:         llvm.insertvalue %[[AL]], %{{.*}}[0]
// CHECK-NEXT:    llvm.insertvalue %[[AG]], %{{.*}}[1]
// CHECK-NEXT:    llvm.insertvalue %[[OFF]], %{{.*}}[2]
// CHECK-NEXT:    llvm.insertvalue %[[N]], %{{.*}}[3, 0]
// CHECK-NEXT:    llvm.insertvalue %[[ONE]], %{{.*}}[4, 0]

func.func @expand(%a: memref<?xf64>, %n: index) -> memref<?x4xf64> {
  %b = memref.expand_shape %a [[0, 1]] output_shape [%n, 4] : memref<?xf64> into memref<?x4xf64>
  return %b : memref<?x4xf64>
}

// CHECK-LABEL: func.func @expand(
// CHECK-SAME:    %{{.*}}: memref<?xf64>, %[[N:.*]]: index)
// CHECK:         %[[NL:.*]] = builtin.unrealized_conversion_cast %[[N]] : index to i64
// CHECK-NEXT:    %[[FOUR:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[S0:.*]] = llvm.mul %[[ONE]], %[[FOUR]] : i64
// CHECK:         llvm.insertvalue %[[NL]], %{{.*}}[3, 0]
// CHECK-NEXT:    llvm.insertvalue %[[FOUR]], %{{.*}}[3, 1]
// CHECK-NEXT:    llvm.insertvalue %[[S0]], %{{.*}}[4, 0]
// CHECK-NEXT:    llvm.insertvalue %[[ONE]], %{{.*}}[4, 1]
