// RUN: xsparse-opt %s --split-input-file --parsing-diagnostics -p 'convert-to-llvm{threads=true}' | filecheck %s

// Packed i2 elements (four per byte) have no address of their own: a vector
// access to them is refused at the op.

func.func @vector_load(%m: memref<?xi2>, %k: index) -> vector<4xi2> {
  %v = vector.load %m[%k] : memref<?xi2>, vector<4xi2>
  return %v : vector<4xi2>
}

// CHECK: memref-packed-i2-invalid.mlir:[[# @LINE - 4]]:3: error: 'vector.load' op of memref<?xi2>: i2 elements are packed four per byte (only memref.load / memref.store reach one)

// -----

// A store rewrites its whole byte: in a loop run on threads, two threads
// could write neighbours in one byte at once.

func.func @parallel_store(%m: memref<?xi2>, %n: index, %v: i2) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %v, %m[%i] : memref<?xi2>
    scf.reduce
  }
  return
}

// CHECK: memref-packed-i2-invalid.mlir:[[# @LINE - 6]]:5: error: 'memref.store' op into memref<?xi2> in a loop run on threads: i2 elements are packed four per byte, and a store rewrites its whole byte
