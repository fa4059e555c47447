// RUN: xsparse-opt %s --split-input-file -p convert-to-llvm | filecheck %s

// Memrefs of i2 (2:4 metadata, crdWidth = 2) hold four elements per byte:
// element k is bits 2 * (k & 3) .. 2 * (k & 3) + 1 of byte k >> 2.

// CHECK-LABEL: llvm.func @load
// CHECK-SAME:    (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %[[K:.*]]: i64) -> i2
// CHECK:         %[[ALIGNED:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK-NEXT:    %[[OFFSET:.*]] = llvm.extractvalue %{{.*}}[2]
// CHECK-NEXT:    %[[LINEAR:.*]] = llvm.add %[[OFFSET]], %[[K]] : i64
// CHECK-NEXT:    %[[TWO:.*]] = llvm.mlir.constant(2) : i64
// CHECK-NEXT:    %[[BYTE:.*]] = llvm.lshr %[[LINEAR]], %[[TWO]] : i64
// CHECK-NEXT:    %[[ADDRESS:.*]] = llvm.getelementptr inbounds %[[ALIGNED]][%[[BYTE]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT:    %[[THREE:.*]] = llvm.mlir.constant(3) : i64
// CHECK-NEXT:    %[[SLOT:.*]] = llvm.and %[[LINEAR]], %[[THREE]] : i64
// CHECK-NEXT:    %[[SLOT8:.*]] = llvm.trunc %[[SLOT]] : i64 to i8
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1 : i8) : i8
// CHECK-NEXT:    %[[SHIFT:.*]] = llvm.shl %[[SLOT8]], %[[ONE]] : i8
// CHECK-NEXT:    %[[LOADED:.*]] = llvm.load %[[ADDRESS]] : !llvm.ptr -> i8
// CHECK-NEXT:    %[[SHIFTED:.*]] = llvm.lshr %[[LOADED]], %[[SHIFT]] : i8
// CHECK-NEXT:    %[[ELEMENT:.*]] = llvm.trunc %[[SHIFTED]] : i8 to i2
// CHECK-NEXT:    llvm.return %[[ELEMENT]] : i2
func.func @load(%m: memref<?xi2, strided<[1], offset: ?>>, %k: index) -> i2 {
  %v = memref.load %m[%k] : memref<?xi2, strided<[1], offset: ?>>
  return %v : i2
}

// -----

// A store rewrites its byte: the element's two bits cleared, the new ones set.

// CHECK-LABEL: llvm.func @store
// CHECK-SAME:    %[[K:[^:]*]]: i64, %[[V:[^:]*]]: i2)
// CHECK:         %[[SHIFT:.*]] = llvm.shl %{{.*}}, %{{.*}} : i8
// CHECK-NEXT:    %[[BYTE:.*]] = llvm.load %[[ADDRESS:.*]] : !llvm.ptr -> i8
// CHECK-NEXT:    %[[THREE:.*]] = llvm.mlir.constant(3 : i8) : i8
// CHECK-NEXT:    %[[ONES:.*]] = llvm.mlir.constant(-1 : i8) : i8
// CHECK-NEXT:    %[[MASK:.*]] = llvm.shl %[[THREE]], %[[SHIFT]] : i8
// CHECK-NEXT:    %[[KEEP:.*]] = llvm.xor %[[MASK]], %[[ONES]] : i8
// CHECK-NEXT:    %[[CLEARED:.*]] = llvm.and %[[BYTE]], %[[KEEP]] : i8
// CHECK-NEXT:    %[[WIDE:.*]] = llvm.zext %[[V]] : i2 to i8
// CHECK-NEXT:    %[[BITS:.*]] = llvm.shl %[[WIDE]], %[[SHIFT]] : i8
// CHECK-NEXT:    %[[MERGED:.*]] = llvm.or %[[CLEARED]], %[[BITS]] : i8
// CHECK-NEXT:    llvm.store %[[MERGED]], %[[ADDRESS]] : i8, !llvm.ptr
// CHECK-NEXT:    llvm.return
func.func @store(%m: memref<?xi2>, %k: index, %v: i2) {
  memref.store %v, %m[%k] : memref<?xi2>
  return
}

// -----

// Allocation, growth and copies take ceil(n / 4) bytes, as
// (n >> 2) + (n & 3 != 0): no intermediate wraps for any n.

// CHECK-LABEL: llvm.func @alloc_copy
// CHECK-SAME:    (%[[N:.*]]: i64)
// CHECK:         %[[TWO:.*]] = llvm.mlir.constant(2) : i64
// CHECK-NEXT:    %[[THREE:.*]] = llvm.mlir.constant(3) : i64
// CHECK-NEXT:    %[[WHOLE:.*]] = llvm.lshr %[[N]], %[[TWO]] : i64
// CHECK-NEXT:    %[[REST:.*]] = llvm.and %[[N]], %[[THREE]] : i64
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[PARTIAL:.*]] = llvm.icmp "ne" %[[REST]], %[[ZERO]] : i64
// CHECK-NEXT:    %[[EXTRA:.*]] = llvm.zext %[[PARTIAL]] : i1 to i64
// CHECK-NEXT:    %[[BYTES:.*]] = llvm.add %[[WHOLE]], %[[EXTRA]] : i64
// CHECK-NEXT:    llvm.call @malloc(%[[BYTES]]) : (i64) -> !llvm.ptr
// CHECK:         llvm.call @malloc(%{{.*}}) : (i64) -> !llvm.ptr
// CHECK:         %[[COPIED:.*]] = llvm.add %{{.*}}, %{{.*}} : i64
// CHECK:         llvm.call_intrinsic "llvm.memcpy.p0.p0.i64"(%{{.*}}, %{{.*}}, %[[COPIED]], %{{.*}})
// CHECK:         %[[GROWN:.*]] = llvm.add %{{.*}}, %{{.*}} : i64
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[EMPTY:.*]] = llvm.icmp "ult" %[[GROWN]], %[[ONE]] : i64
// CHECK-NEXT:    %[[SIZE:.*]] = llvm.select %[[EMPTY]], %[[ONE]], %[[GROWN]] : i1, i64
// CHECK-NEXT:    %[[OLD:.*]] = llvm.extractvalue %{{.*}}[0]
// CHECK-NEXT:    llvm.call @realloc(%[[OLD]], %[[SIZE]]) : (!llvm.ptr, i64) -> !llvm.ptr
func.func @alloc_copy(%n: index) -> memref<?xi2> {
  %a = memref.alloc(%n) : memref<?xi2>
  %b = memref.alloc(%n) : memref<?xi2>
  "memref.copy"(%a, %b) : (memref<?xi2>, memref<?xi2>) -> ()
  %c = "memref.realloc"(%b, %n) : (memref<?xi2>, index) -> memref<?xi2>
  return %c : memref<?xi2>
}

// -----

// A constant is packed the same way, the first element in the low bits:
// [1, 2, 3, 0] is 0b00111001 (57), [3] 0b11 (3).

// CHECK: llvm.mlir.global internal constant @crd(dense<[57, 3]> : tensor<2xi8>) {addr_space = 0 : i32} : !llvm.array<2 x i8>
"memref.global"() <{sym_name = "crd", sym_visibility = "private", type = memref<5xi2>, initial_value = dense<[1, -2, -1, 0, -1]> : tensor<5xi2>, constant}> : () -> ()
func.func @get() -> memref<5xi2> {
  %m = memref.get_global @crd : memref<5xi2>
  return %m : memref<5xi2>
}
