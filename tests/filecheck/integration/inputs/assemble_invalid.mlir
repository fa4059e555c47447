// sparse_tensor.assemble checks the buffers it is given at run time: a
// positions buffer too short for the 3 rows (MLIR 22 reads past it) is
// reported, and xsparse-run exits with status 1 before printing the tensor.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

module {
  func.func @main() {
    %pos = arith.constant dense<[0, 2]> : tensor<2xindex>
    %crd = arith.constant dense<[1, 3]> : tensor<2xindex>
    %val = arith.constant dense<[1.0, 2.0]> : tensor<2xf64>
    %a = sparse_tensor.assemble (%pos, %crd), %val
       : (tensor<2xindex>, tensor<2xindex>), tensor<2xf64> to tensor<3x4xf64, #CSR>
    sparse_tensor.print %a : tensor<3x4xf64, #CSR>
    return
  }
}

// CHECK: xsparse-run: error: sparse_tensor.assemble: level 1 (compressed): the positions buffer is shorter than its parents need
// CHECK-NOT: values
