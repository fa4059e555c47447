// RUN: xsparse-opt %s -p 'convert-to-llvm{threads=true allocation_checks=true}' | filecheck %s

// A failed allocation ends the call without touching memory
// (allocation_failures): after a call of a function of the module that may
// fail, this thread's failure flag (`xsparse_failed`) branches to the exit,
// which frees the blocks the function still owns and returns zeros. Blocks
// given to a callee that may free or move them (here by `realloc`) are
// forgotten first: the callee owns them now.

// CHECK-LABEL: llvm.func internal @grow(
// CHECK:         %[[MOVED:.*]] = llvm.call @realloc(%[[OLD:.*]], %[[SIZE:.*]]) : (!llvm.ptr, i64) -> !llvm.ptr
// CHECK:         llvm.cond_br %{{.*}}, ^[[REPORT:.*]](%[[SIZE]] : i64), ^[[OK:.*]]
// CHECK-NEXT:  ^[[OK]]:
// CHECK-NEXT:    llvm.call @xsparse_owned_forget(%[[OWNED:.*]], %[[SITES:.*]], %[[OLD]])
// CHECK-NEXT:    %[[SLOT:.*]] = llvm.getelementptr %[[OWNED]][0]
// CHECK-NEXT:    llvm.store %[[MOVED]], %[[SLOT]] : !llvm.ptr, !llvm.ptr
// CHECK:       ^[[REPORT]](%[[ASKED:.*]]: i64):
// CHECK:         llvm.call @xsparse_allocation_failed(%[[ASKED]], %{{.*}}) : (i64, !llvm.ptr) -> ()
func.func private @grow(%b: memref<?xf64>, %n: index) -> memref<?xf64> {
  %g = memref.realloc %b(%n) : memref<?xf64> to memref<?xf64>
  return %g : memref<?xf64>
}

// CHECK-LABEL: llvm.func @caller(
// CHECK:         %[[SITES:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[OWNED:.*]] = llvm.alloca %[[SITES]] x !llvm.ptr
// CHECK:         llvm.call @xsparse_owned_forget(%[[OWNED]], %[[SITES]], %[[ALLOCATED:.*]]) :
// CHECK-NEXT:    llvm.call @xsparse_owned_forget(%[[OWNED]], %[[SITES]], %[[ALIGNED:.*]]) :
// CHECK-NEXT:    %[[GROWN:.*]] = llvm.call @grow(%[[ALLOCATED]], %[[ALIGNED]],
// CHECK-NEXT:    %[[FAILED:.*]] = llvm.call @xsparse_failed() : () -> i1
// CHECK-NEXT:    llvm.cond_br %[[FAILED]], ^[[EXIT:.*]], ^[[OK:.*]]
// CHECK-NEXT:  ^[[OK]]:
// CHECK-NEXT:    llvm.return %[[GROWN]]
// CHECK:       ^[[EXIT]]:
// CHECK-NEXT:    llvm.call @xsparse_owned_release(%[[OWNED]], %[[SITES]]) : (!llvm.ptr, i64) -> ()
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.zero : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK-NEXT:    llvm.return %[[ZERO]]
func.func @caller(%n: index) -> memref<?xf64> {
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%c1) : memref<?xf64>
  %g = func.call @grow(%a, %n) : (memref<?xf64>, index) -> memref<?xf64>
  return %g : memref<?xf64>
}

// A parallel loop: the context's first field (an i64, 0 before the call)
// tells the caller that a chunk failed; the chunk's exit sets it and clears
// the failure flag of the thread it ran on.

// CHECK-LABEL: llvm.func @rows(
// CHECK:         %[[CTX:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i64, i64,
// CHECK:         %[[NO_FAILURE:[0-9]+]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[CELL:.*]] = llvm.getelementptr %[[CTX]][0, 0]
// CHECK-NEXT:    llvm.store %[[NO_FAILURE]], %[[CELL]] : i64, !llvm.ptr
// CHECK:         llvm.call @xsparse_parallel_for(%{{.*}}, %[[CTX]],
// CHECK-NEXT:    %[[CHUNK_FAILED:.*]] = llvm.load %[[CTX]] : !llvm.ptr -> i64
// CHECK-NEXT:    %[[NONE:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[ANY:.*]] = llvm.icmp "ne" %[[CHUNK_FAILED]], %[[NONE]] : i64
// CHECK-NEXT:    llvm.cond_br %[[ANY]], ^[[PROPAGATE:.*]], ^[[OK:.*]]
// CHECK-NEXT:  ^[[OK]]:
// CHECK-NEXT:    llvm.return
// CHECK-NEXT:  ^[[PROPAGATE]]:
// CHECK-NEXT:    %[[ON:.*]] = llvm.mlir.constant(true) : i1
// CHECK-NEXT:    llvm.call @xsparse_set_failed(%[[ON]]) : (i1) -> ()
// CHECK-NEXT:    llvm.br ^[[EXIT:.*]]
// CHECK-NEXT:  ^[[EXIT]]:
// CHECK-NEXT:    llvm.return

// CHECK-LABEL: llvm.func internal @rows.parallel.0(
// CHECK-SAME:    %[[BODY_CTX:[^:]*]]: !llvm.ptr
// CHECK:         %[[WORKSPACE:.*]] = llvm.call @calloc(
// CHECK:         llvm.cond_br %{{.*}}, ^[[REPORT:.*]](%{{.*}} : i64), ^{{.*}}
// CHECK:       ^[[REPORT]](%{{.*}}: i64):
// CHECK:         llvm.br ^[[EXIT:.*]]
// CHECK-NEXT:  ^[[EXIT]]:
// CHECK-NEXT:    llvm.call @xsparse_owned_release(%{{.*}}, %{{.*}}) : (!llvm.ptr, i64) -> ()
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    llvm.store %[[ONE]], %[[BODY_CTX]] : i64, !llvm.ptr
// CHECK-NEXT:    %[[OFF:.*]] = llvm.mlir.constant(false) : i1
// CHECK-NEXT:    llvm.call @xsparse_set_failed(%[[OFF]]) : (i1) -> ()
// CHECK-NEXT:    llvm.return
func.func @rows(%out: memref<?xf64>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f64
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %w = memref.alloc(%m) {xsparse.per_chunk} : memref<?xf64>
    memref.store %f, %w[%c0] : memref<?xf64>
    %v = memref.load %w[%c0] : memref<?xf64>
    memref.store %v, %out[%i] : memref<?xf64>
    memref.dealloc %w {xsparse.per_chunk} : memref<?xf64>
    scf.reduce
  }
  return
}
