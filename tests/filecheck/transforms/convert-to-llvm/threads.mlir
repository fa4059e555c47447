// RUN: xsparse-opt %s -p 'convert-to-llvm{threads=true}' | filecheck %s
// RUN: xsparse-opt %s -p convert-to-llvm | filecheck %s --check-prefix=SEQUENTIAL

// With threads=true the outermost scf.parallel calls the thread runtime on an
// outlined body (ctx, lo, hi, chunk) that runs iterations lo, lo + step, ...
// below hi; without, it is a sequential loop, as
// MLIR's convert-scf-to-cf makes it.

// A loop over the rows of a compressed level: the positions buffer weighs
// the iterations (its aligned pointer and element width go to the runtime).
// CHECK-LABEL: llvm.func @rows(
// CHECK:         %[[CTX:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i64, !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>, !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>, !llvm.ptr)>
// CHECK:         %[[BODY:.*]] = llvm.mlir.addressof @rows.parallel.0 : !llvm.ptr
// CHECK-NEXT:    %[[WORK:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK-NEXT:    %[[WIDTH:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:    %{{.*}} = llvm.call @xsparse_parallel_for(%[[BODY]], %[[CTX]], %{{.*}}, %{{.*}}, %[[WORK]], %[[WIDTH]], %{{.*}})
// SEQUENTIAL-LABEL: llvm.func @rows(
// SEQUENTIAL-NOT: xsparse_parallel_for
func.func @rows(%pos: memref<?xi32>, %out: memref<?xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %next = arith.addi %i, %c1 : index
    %lo = memref.load %pos[%i] : memref<?xi32>
    %hi = memref.load %pos[%next] : memref<?xi32>
    %count = arith.subi %hi, %lo : i32
    memref.store %count, %out[%i] : memref<?xi32>
    scf.reduce
  }
  return
}

// A reduction: each chunk stores its partial result in partials[chunk]; the
// caller folds the init value and the partials of the chunks that ran, in
// chunk order. A body without loops weighs 1 per iteration.
// CHECK-LABEL: llvm.func @sum(
// CHECK:         %[[PARTIALS:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(f64)>
// CHECK:         %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[RAN:.*]] = llvm.call @xsparse_parallel_for(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[NULL]], %[[ONE]], %{{.*}})
// CHECK:       ^bb1(%[[K:.*]]: i64, %[[ACC:.*]]: f64):
// CHECK-NEXT:    %{{.*}} = llvm.icmp "slt" %[[K]], %[[RAN]] : i64
// CHECK:         %[[AT:.*]] = llvm.getelementptr %[[PARTIALS]][%[[K]], 0] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(f64)>
// CHECK-NEXT:    %[[PART:.*]] = llvm.load %[[AT]] : !llvm.ptr -> f64
// CHECK-NEXT:    %{{.*}} = llvm.fadd %[[ACC]], %[[PART]] : f64
func.func @sum(%v: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f64 {
    %x = memref.load %v[%i] : memref<?xf64>
    scf.reduce(%x : f64) {
    ^bb0(%a: f64, %b: f64):
      %s = arith.addf %a, %b : f64
      scf.reduce.return %s : f64
    }
  }
  return %r : f64
}

// A loop over blocks of rows: its step goes to the runtime (every chunk
// starts at an iteration), and the positions it reads at the block's first
// row and at the next block's weigh the iterations.
// CHECK-LABEL: llvm.func @blocks(
// CHECK:         %[[STEP:.*]] = llvm.mlir.constant(64) : i64
// CHECK:         %[[WORK:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK-NEXT:    %[[WIDTH:.*]] = llvm.mlir.constant(8) : i64
// CHECK-NEXT:    %{{.*}} = llvm.call @xsparse_parallel_for(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[WORK]], %[[WIDTH]], %[[STEP]])
func.func @blocks(%pos: memref<?xindex>, %out: memref<?xindex>, %n: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%b) = (%c0) to (%n) step (%c64) {
    %after = arith.addi %b, %c64 : index
    %end = arith.minsi %after, %n : index
    %lo = memref.load %pos[%b] : memref<?xindex>
    %hi = memref.load %pos[%end] : memref<?xindex>
    %count = arith.subi %hi, %lo : index
    memref.store %count, %out[%b] : memref<?xindex>
    scf.reduce
  }
  return
}

// An inner parallel loop runs sequentially inside the outlined body.
// CHECK-LABEL: llvm.func @nested(
// CHECK:         llvm.call @xsparse_parallel_for
func.func @nested(%m: memref<?x?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.parallel (%j) = (%c0) to (%n) step (%c1) {
      memref.store %zero, %m[%i, %j] : memref<?x?xf64>
      scf.reduce
    }
    scf.reduce
  }
  return
}

// The runtime's declaration and the outlined bodies follow the functions;
// a body is never inlined into the runtime's call on the calling thread.
// CHECK:       llvm.func @xsparse_parallel_for(!llvm.ptr, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64) -> i64
// CHECK:       llvm.func internal @rows.parallel.0(%{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64) attributes {no_inline}
// CHECK:       llvm.func internal @sum.parallel.1(%{{.*}}: !llvm.ptr, %[[LO:.*]]: i64, %[[HI:.*]]: i64, %[[CHUNK:.*]]: i64)
// CHECK:         llvm.icmp "slt" %[[LO]], %[[HI]] : i64
// A chunk's float fold may be regrouped (vectorized); the caller's is not.
// CHECK:         llvm.fadd %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<reassoc>} : f64
// CHECK:         llvm.getelementptr %{{.*}}[%[[CHUNK]], 0] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(f64)>
// CHECK:       llvm.func internal @blocks.parallel.2(%{{.*}}: !llvm.ptr, %[[LO:.*]]: i64, %[[HI:.*]]: i64, %{{.*}}: i64)
// CHECK:         %[[STEP:.*]] = llvm.mlir.constant(64) : i64
// CHECK:       ^bb1(%[[B:.*]]: i64):
// CHECK:         llvm.add %[[B]], %[[STEP]] : i64
// CHECK:       llvm.func internal @nested.parallel.3(
// CHECK-NOT:     llvm.call @xsparse_parallel_for
