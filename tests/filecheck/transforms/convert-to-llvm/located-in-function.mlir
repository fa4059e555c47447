// RUN: not xsparse-opt %s -p sparse-tensor-codegen,convert-to-llvm 2>&1 | filecheck %s

// An error in an op a pass created is named at the function it sits in, found
// by symbol name once convert-to-llvm has rebuilt the function as llvm.func
// (here the workspace that sparse_tensor.sort's lowering allocates for the
// f80 values, which convert-to-llvm cannot lay out).

func.func @sort(%n: index, %xy: memref<?xindex>, %y: memref<10xf80>) {
  sparse_tensor.sort hybrid_quick_sort %n, %xy jointly %y {ny = 0 : index, perm_map = affine_map<(d0) -> (d0)>} : memref<?xindex> jointly memref<10xf80>
  return
}

// CHECK: located-in-function.mlir:[[# @LINE - 5]]:1: error: 'memref.alloc' op unsupported element type f80
// CHECK-NEXT: func.func @sort
