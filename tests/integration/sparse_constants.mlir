// MLIR's `sparse<indices, values>` constants (issue 39): converted to sparse
// encodings they give their listed entries in each target's order (listed
// unsorted here; an explicit zero is kept, as MLIR keeps it), read as dense
// tensors they hold zeros elsewhere. The 1024x1024 constant becomes DCSR
// from its four entries, never a dense array of 10^6 elements.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
#CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

#spmv = {
  indexing_maps = [
    affine_map<(i, j) -> (i, j)>,
    affine_map<(i, j) -> (j)>,
    affine_map<(i, j) -> (i)>
  ],
  iterator_types = ["parallel", "reduction"]
}

module {
  func.func @spmv(%a: tensor<4x6xf64, #CSR>, %x: tensor<6xf64>,
                  %y: tensor<4xf64>) -> tensor<4xf64> {
    %0 = linalg.generic #spmv
      ins(%a, %x : tensor<4x6xf64, #CSR>, tensor<6xf64>)
      outs(%y : tensor<4xf64>) {
    ^bb0(%av: f64, %xv: f64, %yv: f64):
      %p = arith.mulf %av, %xv : f64
      %s = arith.addf %yv, %p : f64
      linalg.yield %s : f64
    } -> tensor<4xf64>
    return %0 : tensor<4xf64>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %f0 = arith.constant -1.0 : f64
    %i0 = arith.constant -1 : i32

    %m = arith.constant sparse<[[3, 1], [0, 5], [1, 0], [0, 2], [3, 4], [2, 2]],
                               [6.0, 2.0, 3.0, 1.0, 7.0, 0.0]> : tensor<4x6xf64>
    %csr = sparse_tensor.convert %m : tensor<4x6xf64> to tensor<4x6xf64, #CSR>
    %csc = sparse_tensor.convert %m : tensor<4x6xf64> to tensor<4x6xf64, #CSC>
    %coo = sparse_tensor.convert %m : tensor<4x6xf64> to tensor<4x6xf64, #COO>
    sparse_tensor.print %csr : tensor<4x6xf64, #CSR>
    sparse_tensor.print %csc : tensor<4x6xf64, #CSC>
    sparse_tensor.print %coo : tensor<4x6xf64, #COO>

    // The same constant read densely: row 0 and row 3.
    %r0 = vector.transfer_read %m[%c0, %c0], %f0 : tensor<4x6xf64>, vector<6xf64>
    %r3 = vector.transfer_read %m[%c3, %c0], %f0 : tensor<4x6xf64>, vector<6xf64>
    vector.print %r0 : vector<6xf64>
    vector.print %r3 : vector<6xf64>

    // A dense operand given as a sparse constant: y = A x.
    %x = arith.constant sparse<[1, 2, 5], [10.0, 100.0, 1000.0]> : tensor<6xf64>
    %y0 = arith.constant sparse<[[3]], [0.5]> : tensor<4xf64>
    %y = call @spmv(%csr, %x, %y0)
      : (tensor<4x6xf64, #CSR>, tensor<6xf64>, tensor<4xf64>) -> tensor<4xf64>
    %yv = vector.transfer_read %y[%c0], %f0 : tensor<4xf64>, vector<4xf64>
    vector.print %yv : vector<4xf64>

    %v = arith.constant sparse<[[1], [5]], [3, 4]> : tensor<8xi32>
    %vv = vector.transfer_read %v[%c0], %i0 : tensor<8xi32>, vector<8xi32>
    vector.print %vv : vector<8xi32>

    %big = arith.constant sparse<[[1023, 0], [0, 1023], [512, 7], [0, 0]],
                                 [4.0, 2.0, 3.0, 1.0]> : tensor<1024x1024xf64>
    %dcsr = sparse_tensor.convert %big : tensor<1024x1024xf64> to tensor<1024x1024xf64, #DCSR>
    sparse_tensor.print %dcsr : tensor<1024x1024xf64, #DCSR>

    %t = arith.constant sparse<[[1, 2, 3], [0, 0, 0], [1, 0, 1]], [5.0, 1.0, 2.5]> : tensor<2x3x4xf32>
    %csf = sparse_tensor.convert %t : tensor<2x3x4xf32> to tensor<2x3x4xf32, #CSF>
    sparse_tensor.print %csf : tensor<2x3x4xf32, #CSF>

    %s = arith.constant sparse<[3, 1], [2.5, 1.0]> : tensor<4xf32>
    %sv = sparse_tensor.convert %s : tensor<4xf32> to tensor<4xf32, #SV>
    sparse_tensor.print %sv : tensor<4xf32, #SV>

    bufferization.dealloc_tensor %csr : tensor<4x6xf64, #CSR>
    bufferization.dealloc_tensor %csc : tensor<4x6xf64, #CSC>
    bufferization.dealloc_tensor %coo : tensor<4x6xf64, #COO>
    bufferization.dealloc_tensor %dcsr : tensor<1024x1024xf64, #DCSR>
    bufferization.dealloc_tensor %csf : tensor<2x3x4xf32, #CSF>
    bufferization.dealloc_tensor %sv : tensor<4xf32, #SV>
    return
  }
}

// CHECK: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 4, 6 )
// CHECK-NEXT: pos[1] : ( 0, 2, 3, 4, 6 )
// CHECK-NEXT: crd[1] : ( 2, 5, 0, 2, 1, 4 )
// CHECK-NEXT: values : ( 1, 2, 3, 0, 6, 7 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 6, 4 )
// CHECK-NEXT: pos[1] : ( 0, 1, 2, 4, 4, 5, 6 )
// CHECK-NEXT: crd[1] : ( 1, 3, 0, 2, 3, 0 )
// CHECK-NEXT: values : ( 3, 6, 1, 0, 7, 2 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 4, 6 )
// CHECK-NEXT: pos[0] : ( 0, 6 )
// CHECK-NEXT: crd[0] : ( 0, 2, 0, 5, 1, 0, 2, 2, 3, 1, 3, 4 )
// CHECK-NEXT: values : ( 1, 2, 3, 0, 6, 7 )
// CHECK-NEXT: ----
// CHECK-NEXT: ( 0, 0, 1, 0, 0, 2 )
// CHECK-NEXT: ( 0, 6, 0, 0, 7, 0 )
// CHECK-NEXT: ( 2100, 0, 0, 60.5 )
// CHECK-NEXT: ( 0, 3, 0, 0, 0, 4, 0, 0 )
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 4
// CHECK-NEXT: dim = ( 1024, 1024 )
// CHECK-NEXT: lvl = ( 1024, 1024 )
// CHECK-NEXT: pos[0] : ( 0, 3 )
// CHECK-NEXT: crd[0] : ( 0, 512, 1023 )
// CHECK-NEXT: pos[1] : ( 0, 2, 3, 4 )
// CHECK-NEXT: crd[1] : ( 0, 1023, 7, 0 )
// CHECK-NEXT: values : ( 1, 2, 3, 4 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 3
// CHECK-NEXT: dim = ( 2, 3, 4 )
// CHECK-NEXT: lvl = ( 2, 3, 4 )
// CHECK-NEXT: pos[0] : ( 0, 2 )
// CHECK-NEXT: crd[0] : ( 0, 1 )
// CHECK-NEXT: pos[1] : ( 0, 1, 3 )
// CHECK-NEXT: crd[1] : ( 0, 0, 2 )
// CHECK-NEXT: pos[2] : ( 0, 1, 2, 3 )
// CHECK-NEXT: crd[2] : ( 0, 1, 3 )
// CHECK-NEXT: values : ( 1, 2.5, 5 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 2
// CHECK-NEXT: dim = ( 4 )
// CHECK-NEXT: lvl = ( 4 )
// CHECK-NEXT: pos[0] : ( 0, 2 )
// CHECK-NEXT: crd[0] : ( 1, 3 )
// CHECK-NEXT: values : ( 1, 2.5 )
// CHECK-NEXT: ----
