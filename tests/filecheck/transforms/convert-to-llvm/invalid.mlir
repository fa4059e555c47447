// RUN: xsparse-opt %s --split-input-file --parsing-diagnostics -p convert-to-llvm | filecheck %s

// Valid IR that convert-to-llvm refuses, at the op that cannot be lowered.

// memref.dim past the rank (MLIR 22 reads a size out of bounds at run time).

func.func @dim_past_rank(%m: memref<?xf64>) -> index {
  %c = arith.constant 9223372036854775807 : index
  %d = memref.dim %m, %c : memref<?xf64>
  return %d : index
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:3: error: 'memref.dim' op dimension index 9223372036854775807 is out of range for rank 1

// -----

func.func @dim_dynamic(%m: memref<?x?xf64>, %i: index) -> index {
  %d = memref.dim %m, %i : memref<?x?xf64>
  return %d : index
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:3: error: 'memref.dim' op needs a constant dimension index

// -----

// An op no pattern lowers is named where it was written.

func.func @push_back(%size: index, %buf: memref<?xf64>, %v: f64) -> index {
  %b, %s = sparse_tensor.push_back %size, %buf, %v : index, memref<?xf64>, f64
  return %s : index
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:3: error: 'sparse_tensor.push_back' op failed to legalize (a value of type !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)> used as memref<?xf64>)

// -----

// A helper's refusal (here of an element type) names the op being lowered.

func.func @f80_buffer(%n: index) {
  %b = memref.alloc(%n) : memref<?xf80>
  memref.dealloc %b : memref<?xf80>
  return
}

// CHECK: invalid.mlir:[[# @LINE - 5]]:3: error: 'memref.alloc' op unsupported element type f80

// -----

// An alignment that is not a power of two (MLIR 22 refuses it in the verifier).

func.func @store_alignment(%m: memref<?xf64>, %v: vector<4xf64>, %i: index) {
  vector.store %v, %m[%i] {alignment = 3 : i64, nontemporal = true} : memref<?xf64>, vector<4xf64>
  return
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:3: error: 'vector.store' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0

// -----

// A reshape of a strided memref (xsparse's dense buffers are row-major).

func.func @collapse_strided(%a: memref<4x4xf64, strided<[8, 1]>>) -> memref<16xf64> {
  %b = memref.collapse_shape %a [[0, 1]] : memref<4x4xf64, strided<[8, 1]>> into memref<16xf64>
  return %b : memref<16xf64>
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:3: error: 'memref.collapse_shape' op of a strided memref is not supported
