// RUN: xsparse-opt %s -p 'convert-to-llvm{allocation_checks=true}' | filecheck %s

// A malloc'd block asks for transparent huge pages when it is large (Linux;
// the helper is defined once per module and inlined by O3). Its byte size
// (n x 4 x 4 bytes) is checked for overflow (2^64 - 1 bytes when it
// overflows), and with allocation_checks (on in xsparse.compile and
// xsparse-run) its result for null: a null block reports the failure, sets
// the thread's failure flag, frees the blocks the function still owns (a
// stack slot per allocation site, cleared before a `free`) and returns
// (allocation_failures).

// CHECK-LABEL: llvm.func @alloc_store
// CHECK-SAME:    (%[[N:.*]]: i64, %{{.*}}: i32)
// CHECK-NEXT:    %[[SITES:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[OWNED:.*]] = llvm.alloca %[[SITES]] x !llvm.ptr {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0 : i8) : i8
// CHECK-NEXT:    %[[SLOT_BYTES:.*]] = llvm.mlir.constant(8) : i64
// CHECK-NEXT:    %[[NOT_VOLATILE:.*]] = llvm.mlir.constant(false) : i1
// CHECK-NEXT:    llvm.call_intrinsic "llvm.memset.p0.i64"(%[[OWNED]], %[[ZERO]], %[[SLOT_BYTES]], %[[NOT_VOLATILE]])
// CHECK:         %[[ROW:.*]] = llvm.mlir.constant(16) : i64
// CHECK-NEXT:    %[[PAIR:.*]] = llvm.call_intrinsic "llvm.umul.with.overflow.i64"(%[[N]], %[[ROW]]) : (i64, i64) -> !llvm.struct<(i64, i1)>
// CHECK-NEXT:    %[[PRODUCT:.*]] = llvm.extractvalue %[[PAIR]][0] : !llvm.struct<(i64, i1)>
// CHECK-NEXT:    %[[WRAPPED:.*]] = llvm.extractvalue %[[PAIR]][1] : !llvm.struct<(i64, i1)>
// CHECK-NEXT:    %[[ALL:.*]] = llvm.mlir.constant(-1) : i64
// CHECK-NEXT:    %[[BYTES:.*]] = llvm.select %[[WRAPPED]], %[[ALL]], %[[PRODUCT]] : i1, i64
// CHECK-NEXT:    %[[BLOCK:.*]] = llvm.call @malloc(%[[BYTES]]) : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[ADDRESS:.*]] = llvm.ptrtoint %[[BLOCK]] : !llvm.ptr to i64
// CHECK-NEXT:    %[[NULL:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[FAILED:.*]] = llvm.icmp "eq" %[[ADDRESS]], %[[NULL]] : i64
// CHECK-NEXT:    llvm.cond_br %[[FAILED]], ^[[REPORT:.*]](%[[BYTES]] : i64), ^[[OK:.*]]
// CHECK-NEXT:  ^[[OK]]:
// CHECK-NEXT:    %[[SLOT:.*]] = llvm.getelementptr %[[OWNED]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    llvm.store %[[BLOCK]], %[[SLOT]] : !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    llvm.call @__xsparse_advise_huge_pages(%[[BLOCK]], %[[BYTES]]) : (!llvm.ptr, i64) -> ()
// CHECK:         llvm.getelementptr inbounds %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK:         llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr
// CHECK:         %[[FREED:.*]] = llvm.extractvalue %{{.*}}[0]
// CHECK-NEXT:    llvm.call @xsparse_owned_forget(%[[OWNED]], %[[SITES]], %[[FREED]]) : (!llvm.ptr, i64, !llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @free(%[[FREED]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.return
// CHECK-NEXT:  ^[[REPORT]](%[[ASKED:.*]]: i64):
// CHECK-NEXT:    %[[NAME:.*]] = llvm.mlir.addressof @__xsparse_name_alloc_store : !llvm.ptr
// CHECK-NEXT:    llvm.call @xsparse_allocation_failed(%[[ASKED]], %[[NAME]]) : (i64, !llvm.ptr) -> ()
// CHECK-NEXT:    %[[ON:.*]] = llvm.mlir.constant(true) : i1
// CHECK-NEXT:    llvm.call @xsparse_set_failed(%[[ON]]) : (i1) -> ()
// CHECK-NEXT:    llvm.br ^[[EXIT:.*]]
// CHECK-NEXT:  ^[[EXIT]]:
// CHECK-NEXT:    llvm.call @xsparse_owned_release(%[[OWNED]], %[[SITES]]) : (!llvm.ptr, i64) -> ()
// CHECK-NEXT:    llvm.return
// CHECK-NEXT:  }
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
