// RUN: xsparse-opt %s --split-input-file --parsing-diagnostics -p sparse-tensor-codegen | filecheck %s

// Valid IR that sparse-tensor-codegen refuses, at the op the user wrote.

// Past the rank of a sparse tensor.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sparse_dim(%a: tensor<?x?xf64, #CSR>) -> index {
  %c2 = arith.constant 2 : index
  %d = tensor.dim %a, %c2 : tensor<?x?xf64, #CSR>
  return %d : index
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:3: error: 'tensor.dim' op dimension index 2 is out of range for rank 2

// -----

// Past the rank of a dense tensor (MLIR 22 reads a size out of bounds at run time).

func.func @dense_dim(%a: tensor<?x?xf64>) -> index {
  %c = arith.constant -1 : index
  %d = tensor.dim %a, %c : tensor<?x?xf64>
  return %d : index
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:3: error: 'tensor.dim' op dimension index -1 is out of range for rank 2

// -----

// Insertion builds dense, compressed and singleton levels; refused at the tensor it starts.

#LOOSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>
func.func @insert_loose(%v: f64, %i: index, %j: index) -> tensor<4x4xf64, #LOOSE> {
  %e = tensor.empty() : tensor<4x4xf64, #LOOSE>
  %t = tensor.insert %v into %e[%i, %j] : tensor<4x4xf64, #LOOSE>
  %r = sparse_tensor.load %t hasInserts : tensor<4x4xf64, #LOOSE>
  return %r : tensor<4x4xf64, #LOOSE>
}

// CHECK: invalid.mlir:[[# @LINE - 6]]:3: error: 'tensor.empty' op insertion into a level of format loose_compressed is not supported

// -----

#NV = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
func.func @insert_structured(%v: f64, %i: index, %j: index) -> tensor<4x8xf64, #NV> {
  %e = tensor.empty() : tensor<4x8xf64, #NV>
  %t = tensor.insert %v into %e[%i, %j] : tensor<4x8xf64, #NV>
  %r = sparse_tensor.load %t hasInserts : tensor<4x8xf64, #NV>
  return %r : tensor<4x8xf64, #NV>
}

// CHECK: invalid.mlir:[[# @LINE - 6]]:3: error: 'tensor.empty' op insertion into a level of format structured[2, 4] is not supported

// -----

// A sort moves each field of a tuple with unrolled code: not billions of them.

func.func @sort_wide(%n: index, %xy: memref<?xindex>) {
  sparse_tensor.sort hybrid_quick_sort %n, %xy {ny = 2147483648 : index, perm_map = affine_map<(d0) -> (d0)>} : memref<?xindex>
  return
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:3: error: 'sparse_tensor.sort' op sorting tuples of 2147483649 fields is not supported (at most 256: each field's moves are unrolled)

// -----

// assemble takes 1-D level buffers (2-D for the coordinates of an AoS COO
// region); a 0-D positions tensor was indexed as if it were 1-D.

#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton), crdWidth = 32 }>
func.func @assemble_0d(%pos: tensor<index>, %crd: tensor<3x2xi32>, %val: tensor<3xf64>) -> tensor<3x4xf64, #COO> {
  %0 = sparse_tensor.assemble (%pos, %crd), %val : (tensor<index>, tensor<3x2xi32>), tensor<3xf64> to tensor<3x4xf64, #COO>
  return %0 : tensor<3x4xf64, #COO>
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:3: error: 'sparse_tensor.assemble' op operand #0 (pos) of type tensor<index> is not 1-D

// -----

// A conversion from (or to) an encoding with a batch level: the conversion
// sized its buffers by the batch dimension and wrote past them (heap
// corruption found by the fuzzer).

#B = #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : batch, d1 : compressed, d2 : dense) }>
#D = #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : dense, d1 : dense, d2 : dense) }>
func.func @from_batch(%t: tensor<1x1x3xf64, #B>) -> tensor<1x1x3xf64, #D> {
  %0 = sparse_tensor.convert %t : tensor<1x1x3xf64, #B> to tensor<1x1x3xf64, #D>
  return %0 : tensor<1x1x3xf64, #D>
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:3: error: 'sparse_tensor.convert' op conversion of a tensor with a batch level is not supported

// -----

// Complex integers: the storage code generation has no constants of them (the
// workspace of an expansion is zeroed), so it refuses them at the op.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @expand_complex(%t: tensor<4x4xcomplex<i32>, #CSR>) -> index {
  %v, %f, %a, %n = sparse_tensor.expand %t : tensor<4x4xcomplex<i32>, #CSR> to memref<?xcomplex<i32>>, memref<?xi1>, memref<?xindex>
  return %n : index
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:3: error: 'sparse_tensor.expand' op element type complex<i32> is not supported (no constants of it)

// -----

// A tensor with a batch level is stored flat: its values as MLIR's batched
// view (one row per batch) cannot leave the function.

#BCSR = #sparse_tensor.encoding<{ map = (b, i, j) -> (b : batch, i : dense, j : compressed) }>
func.func @batched_values(%a: tensor<2x3x4xf64, #BCSR>) -> memref<2x?xf64> {
  %v = sparse_tensor.values %a : tensor<2x3x4xf64, #BCSR> to memref<2x?xf64>
  return %v : memref<2x?xf64>
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:3: error: 'sparse_tensor.values' op returns memref<2x?xf64>: the buffers of a tensor with batch levels are stored flat, one per level, not as one row per batch
