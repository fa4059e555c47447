// `sparse_tensor.print` of 2:4 tensors whose blocks hold fewer than 2
// nonzeros and of `loose_compressed` levels: xsparse-run prints what
// mlir-opt-22 --sparsifier | mlir-runner-22 prints, checked by the same lines.
// RUN: xsparse-run %s | filecheck %s
// RUN: %if mlir-runner %{ %mlir-opt --sparsifier %s | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck %s %}

#NV24 = #sparse_tensor.encoding<{
  map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4])
}>
#LCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>
#LDCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : loose_compressed, j : compressed) }>
#LCOO = #sparse_tensor.encoding<{ map = (i, j) -> (i : loose_compressed(nonunique), j : singleton) }>

module {
  func.func @main() {
    %m = arith.constant dense<[[0.0, 1.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                               [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                               [3.0, 0.0, 0.0, 4.0, 0.0, 0.0, 7.0, 0.0],
                               [0.0, 0.0, 0.0, 0.0, 5.0, 6.0, 0.0, 0.0]]> : tensor<4x8xf64>

    // 2:4 blocks with 0, 1 and 2 nonzeros: MLIR stores the nonzeros only.
    %nv = sparse_tensor.convert %m : tensor<4x8xf64> to tensor<4x8xf64, #NV24>
    sparse_tensor.print %nv : tensor<4x8xf64, #NV24>
    // CHECK:      ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 6
    // CHECK-NEXT: dim = ( 4, 8 )
    // CHECK-NEXT: lvl = ( 4, 2, 4 )
    // CHECK-NEXT: crd[2] : ( 1, 0, 3, 2, 0, 1 )
    // CHECK-NEXT: values : ( 1.5, 3, 4, 7, 5, 6 )
    // CHECK-NEXT: ----

    %mi = arith.constant dense<[[0, 0, 9, 0], [0, 0, 0, 0]]> : tensor<2x4xi32>
    %nvi = sparse_tensor.convert %mi : tensor<2x4xi32> to tensor<2x4xi32, #NV24>
    sparse_tensor.print %nvi : tensor<2x4xi32, #NV24>
    // CHECK-NEXT: ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 1
    // CHECK-NEXT: dim = ( 2, 4 )
    // CHECK-NEXT: lvl = ( 2, 1, 4 )
    // CHECK-NEXT: crd[2] : ( 2 )
    // CHECK-NEXT: values : ( 9 )
    // CHECK-NEXT: ----

    // loose_compressed positions (lo, hi per parent), built by conversions:
    // MLIR's end with one more entry.
    %l = sparse_tensor.convert %m : tensor<4x8xf64> to tensor<4x8xf64, #LCSR>
    sparse_tensor.print %l : tensor<4x8xf64, #LCSR>
    // CHECK-NEXT: ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 6
    // CHECK-NEXT: dim = ( 4, 8 )
    // CHECK-NEXT: lvl = ( 4, 8 )
    // CHECK-NEXT: pos[1] : ( 0, 1, 1, 1, 1, 4, 4, 6, 6 )
    // CHECK-NEXT: crd[1] : ( 1, 0, 3, 6, 4, 5 )
    // CHECK-NEXT: values : ( 1.5, 3, 4, 7, 5, 6 )
    // CHECK-NEXT: ----

    %ld = sparse_tensor.convert %m : tensor<4x8xf64> to tensor<?x?xf64, #LDCSR>
    sparse_tensor.print %ld : tensor<?x?xf64, #LDCSR>
    // CHECK-NEXT: ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 6
    // CHECK-NEXT: dim = ( 4, 8 )
    // CHECK-NEXT: lvl = ( 4, 8 )
    // CHECK-NEXT: pos[0] : ( 0, 3, 3 )
    // CHECK-NEXT: crd[0] : ( 0, 2, 3 )
    // CHECK-NEXT: pos[1] : ( 0, 1, 4, 6 )
    // CHECK-NEXT: crd[1] : ( 1, 0, 3, 6, 4, 5 )
    // CHECK-NEXT: values : ( 1.5, 3, 4, 7, 5, 6 )
    // CHECK-NEXT: ----

    %lc = sparse_tensor.convert %m : tensor<4x8xf64> to tensor<4x8xf64, #LCOO>
    sparse_tensor.print %lc : tensor<4x8xf64, #LCOO>
    // CHECK-NEXT: ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 6
    // CHECK-NEXT: dim = ( 4, 8 )
    // CHECK-NEXT: lvl = ( 4, 8 )
    // CHECK-NEXT: pos[0] : ( 0, 6, 6 )
    // CHECK-NEXT: crd[0] : ( 0, 1, 2, 0, 2, 3, 2, 6, 3, 4, 3, 5 )
    // CHECK-NEXT: values : ( 1.5, 3, 4, 7, 5, 6 )
    // CHECK-NEXT: ----

    %z = arith.constant dense<0.0> : tensor<3x2xf64>
    %lz = sparse_tensor.convert %z : tensor<3x2xf64> to tensor<3x2xf64, #LCSR>
    sparse_tensor.print %lz : tensor<3x2xf64, #LCSR>
    // CHECK-NEXT: ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 0
    // CHECK-NEXT: dim = ( 3, 2 )
    // CHECK-NEXT: lvl = ( 3, 2 )
    // CHECK-NEXT: pos[1] : ( 0, 0, 0, 0, 0, 0, 0 )
    // CHECK-NEXT: crd[1] : (  )
    // CHECK-NEXT: values : (  )
    // CHECK-NEXT: ----

    // Assembled from the program's buffers: printed as given, by both.
    %pos = arith.constant dense<[0, 2, 3, 3, 3, 6, 7, 9]> : tensor<8xindex>
    %crd = arith.constant dense<[1, 3, 0, 0, 2, 7, 0, 3, 5, 0]> : tensor<10xindex>
    %val = arith.constant dense<[1.0, 2.0, 0.0, 4.0, 5.0, 6.0, 0.0, 8.0, 9.0, 0.0]> : tensor<10xf64>
    %a = sparse_tensor.assemble (%pos, %crd), %val
      : (tensor<8xindex>, tensor<10xindex>), tensor<10xf64> to tensor<4x8xf64, #LCSR>
    sparse_tensor.print %a : tensor<4x8xf64, #LCSR>
    // CHECK-NEXT: ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 9
    // CHECK-NEXT: dim = ( 4, 8 )
    // CHECK-NEXT: lvl = ( 4, 8 )
    // CHECK-NEXT: pos[1] : ( 0, 2, 3, 3, 3, 6, 7, 9 )
    // CHECK-NEXT: crd[1] : ( 1, 3, 0, 0, 2, 7, 0, 3, 5 )
    // CHECK-NEXT: values : ( 1, 2, 0, 4, 5, 6, 0, 8, 9 )
    // CHECK-NEXT: ----
    return
  }
}
