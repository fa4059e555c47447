// RUN: xsparse-opt %s --split-input-file --parsing-diagnostics -p sparse-tensor-codegen | filecheck %s

// sparse_tensor.new and sparse_tensor.out name a file by a pointer to its name.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

func.func @new_from_index(%file: index) -> tensor<?x?xf64, #CSR> {
  %t = sparse_tensor.new %file : index to tensor<?x?xf64, #CSR>
  return %t : tensor<?x?xf64, #CSR>
}

// CHECK: io-invalid.mlir:8:3: error: 'sparse_tensor.new' op expected a file name of type !llvm.ptr, got index

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

func.func @out_to_index(%t: tensor<?x?xf64, #CSR>, %file: index) {
  sparse_tensor.out %t, %file : tensor<?x?xf64, #CSR>, index
  return
}

// CHECK: io-invalid.mlir:19:3: error: 'sparse_tensor.out' op expected a file name of type !llvm.ptr, got index
