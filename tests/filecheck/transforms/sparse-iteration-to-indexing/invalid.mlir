// RUN: xsparse-opt %s --split-input-file --parsing-diagnostics -p sparse-iteration-to-indexing | filecheck %s

// Iteration spaces the conversion to set loops does not cover, refused at
// the op that extracts them.

#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
func.func @two_levels(%sp: tensor<4x8xf32, #COO>) {
  %space = sparse_tensor.extract_iteration_space %sp lvls = 0 to 2 : tensor<4x8xf32, #COO> -> !sparse_tensor.iter_space<#COO, lvls = 0 to 2>
  sparse_tensor.iterate %it in %space at(_, %j) : !sparse_tensor.iter_space<#COO, lvls = 0 to 2> {
    "test.op"(%j) : (index) -> ()
  }
  return
}

// CHECK: invalid.mlir:[[# @LINE - 7]]:3: error: 'sparse_tensor.extract_iteration_space' op only one-level iteration spaces are supported
