// RUN: xsparse-run %s | filecheck %s --check-prefix=OUT
// RUN: xsparse-opt %s -p lower-jagged,convert-to-llvm | filecheck %s

// Jagged values across block and function boundaries: a view returned by a
// function, passed to one, carried by scf.for iter_args and chosen by scf.if.
// In the llvm dialect a jagged buffer is one value, the descriptor of its
// outer array of inner descriptors, whether an argument, a result or a block
// argument.

!J = !jagged.buffer<?xmemref<?xf64>>

// Rows of a CSR-style buffer as a jagged value returned from a function.
func.func private @rows(%pos: memref<?xindex>, %vals: memref<?xf64>) -> !J {
  %j = jagged.from_positions %pos, %vals : memref<?xindex>, memref<?xf64> -> !J
  return %j : !J
}

// The sum of row %i of a jagged argument.
func.func private @row_sum(%j: !J, %i: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = jagged.size %j[%i], 0 : !J
  %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
    %x = jagged.load %j[%i][%k] : !J
    %t = arith.addf %acc, %x : f64
    scf.yield %t : f64
  }
  return %s : f64
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %pos = memref.alloc() : memref<4xindex>
  memref.store %c0, %pos[%c0] : memref<4xindex>
  memref.store %c2, %pos[%c1] : memref<4xindex>
  memref.store %c2, %pos[%c2] : memref<4xindex>
  memref.store %c6, %pos[%c3] : memref<4xindex>
  %vals = memref.alloc() : memref<6xf64>
  scf.for %i = %c0 to %c6 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f64
    memref.store %f, %vals[%i] : memref<6xf64>
  }
  %p = memref.cast %pos : memref<4xindex> to memref<?xindex>
  %v = memref.cast %vals : memref<6xf64> to memref<?xf64>
  %j = func.call @rows(%p, %v) : (memref<?xindex>, memref<?xf64>) -> !J
  // A second jagged buffer: one row, all six values.
  %j2 = jagged.alloc(%c1) : !J
  jagged.set %v, %j2[%c0] : memref<?xf64> into !J
  // Carried through scf.for: the two buffers swap every iteration.
  %a, %b = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %j, %y = %j2) -> (!J, !J) {
    %s = func.call @row_sum(%x, %c0) : (!J, index) -> f64
    vector.print %s : f64
    scf.yield %y, %x : !J, !J
  }
  // Chosen by scf.if.
  %n = jagged.dim %a, 0 : !J
  %more = arith.cmpi ugt, %n, %c1 : index
  %c = scf.if %more -> (!J) {
    scf.yield %a : !J
  } else {
    scf.yield %b : !J
  }
  %last = func.call @row_sum(%c, %c2) : (!J, index) -> f64
  vector.print %last : f64
  jagged.dealloc %j : !J
  jagged.dealloc %j2 : !J
  memref.dealloc %pos : memref<4xindex>
  memref.dealloc %vals : memref<6xf64>
  return
}

// Rows of [0 1], [], [2 3 4 5] and of the single row [0 1 2 3 4 5]: row 0 of
// the first, of the second, of the first; then row 2 of the first.
// OUT:      1
// OUT-NEXT: 15
// OUT-NEXT: 1
// OUT-NEXT: 14

// CHECK:      llvm.func internal @rows({{.*}}) -> !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK:        llvm.return %{{.*}} : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK:      llvm.func internal @row_sum(%{{.*}}: !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>, %{{.*}}: i64) -> f64
// CHECK:      llvm.func @main()
// CHECK:        %[[J:.*]] = llvm.call @rows(
// CHECK:        llvm.br ^[[LOOP:.*]](%{{.*}}, %[[J]], %{{.*}} : i64, !llvm.struct<{{.*}}>, !llvm.struct<{{.*}}>)
// CHECK:      ^[[LOOP]](%{{.*}}: i64, %[[X:.*]]: !llvm.struct<{{.*}}>, %[[Y:.*]]: !llvm.struct<{{.*}}>):
// CHECK:        llvm.call @row_sum(%[[X]], %{{.*}})
// CHECK:        llvm.br ^[[LOOP]](%{{.*}}, %[[Y]], %[[X]] : i64, !llvm.struct<{{.*}}>, !llvm.struct<{{.*}}>)
// CHECK-NOT:  jagged.
