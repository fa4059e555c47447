// RUN: xsparse-run %s | filecheck --strict-whitespace %s
// RUN: not xsparse-run %S/inputs/sparse-constant-too-large.mlir 2>&1 | filecheck --check-prefix=LARGE %s

// `sparse<...>` constants where MLIR 22 gives no usable answer. An index
// listed twice keeps its first value, read densely as MLIR's `getValues`
// reads it, and converted the same way (MLIR's conversion of it is
// undefined: its CSR result holds 2 coordinates and 3 values). A constant of
// 2^32 x 2^32 elements converts from its three entries.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>

module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %f0 = arith.constant -1.0 : f64
    %d = arith.constant sparse<[[2, 1], [0, 3], [2, 1]], [1.0, 2.0, 3.0]> : tensor<3x4xf64>
    %r0 = vector.transfer_read %d[%c0, %c0], %f0 : tensor<3x4xf64>, vector<4xf64>
    %r2 = vector.transfer_read %d[%c2, %c0], %f0 : tensor<3x4xf64>, vector<4xf64>
    vector.print %r0 : vector<4xf64>
    vector.print %r2 : vector<4xf64>
    %csr = sparse_tensor.convert %d : tensor<3x4xf64> to tensor<3x4xf64, #CSR>
    %coo = sparse_tensor.convert %d : tensor<3x4xf64> to tensor<3x4xf64, #COO>
    sparse_tensor.print %csr : tensor<3x4xf64, #CSR>
    sparse_tensor.print %coo : tensor<3x4xf64, #COO>

    %h = arith.constant sparse<[[4294967295, 1], [0, 4294967295], [70000, 2]], [3.0, 1.0, 2.0]> : tensor<4294967296x4294967296xf64>
    %dcsr = sparse_tensor.convert %h : tensor<4294967296x4294967296xf64> to tensor<4294967296x4294967296xf64, #DCSR>
    sparse_tensor.print %dcsr : tensor<4294967296x4294967296xf64, #DCSR>

    bufferization.dealloc_tensor %csr : tensor<3x4xf64, #CSR>
    bufferization.dealloc_tensor %coo : tensor<3x4xf64, #COO>
    bufferization.dealloc_tensor %dcsr : tensor<4294967296x4294967296xf64, #DCSR>
    return
  }
}

// CHECK: ( 0, 0, 0, 2 )
// CHECK-NEXT: ( 0, 1, 0, 0 )
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 2
// CHECK-NEXT: dim = ( 3, 4 )
// CHECK-NEXT: lvl = ( 3, 4 )
// CHECK-NEXT: pos[1] : ( 0, 1, 1, 2 )
// CHECK-NEXT: crd[1] : ( 3, 1 )
// CHECK-NEXT: values : ( 2, 1 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 2
// CHECK-NEXT: dim = ( 3, 4 )
// CHECK-NEXT: lvl = ( 3, 4 )
// CHECK-NEXT: pos[0] : ( 0, 2 )
// CHECK-NEXT: crd[0] : ( 0, 3, 2, 1 )
// CHECK-NEXT: values : ( 2, 1 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 3
// CHECK-NEXT: dim = ( 4294967296, 4294967296 )
// CHECK-NEXT: lvl = ( 4294967296, 4294967296 )
// CHECK-NEXT: pos[0] : ( 0, 3 )
// CHECK-NEXT: crd[0] : ( 0, 70000, 4294967295 )
// CHECK-NEXT: pos[1] : ( 0, 1, 2, 3 )
// CHECK-NEXT: crd[1] : ( 4294967295, 2, 1 )
// CHECK-NEXT: values : ( 1, 2, 3 )
// CHECK-NEXT: ----

// A constant read densely that is too large to expand is refused where it is.
// LARGE: sparse-constant-too-large.mlir:4:3: error: 'arith.constant' op a sparse<...> constant of 10000000000 elements is too large for xsparse to read as a dense tensor (convert it to a sparse encoding)
