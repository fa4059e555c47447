// Tensors read from files with sparse_tensor.new: TENSOR0 (a 4x5 .mtx with an
// empty row) into CSR, CSC, DCSR and COO, the CSC one used by a kernel and written back
// with sparse_tensor.out to TENSOR1; TENSOR2 (a symmetric .mtx, read as
// stored, as MLIR 22 does), TENSOR3 (a pattern .mtx), TENSOR4 (an integer
// .mtx into i32) and TENSOR5 (a 3-D extended FROSTT .tns into CSF).

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
#DCSR = #sparse_tensor.encoding<{
  map = (i, j) -> (i : compressed, j : compressed), posWidth = 32, crdWidth = 32
}>
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
#CSF = #sparse_tensor.encoding<{
  map = (i, j, k) -> (i : compressed, j : compressed, k : compressed)
}>

#rowsum = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
  iterator_types = ["parallel", "reduction"]
}

module {
  func.func private @getTensorFilename(index) -> (!llvm.ptr)

  func.func @row_sums(%a: tensor<4x5xf64, #CSC>, %out: tensor<4xf64>) -> tensor<4xf64> {
    %0 = linalg.generic #rowsum ins(%a : tensor<4x5xf64, #CSC>) outs(%out : tensor<4xf64>) {
    ^bb0(%x: f64, %o: f64):
      %s = arith.addf %x, %o : f64
      linalg.yield %s : f64
    } -> tensor<4xf64>
    return %0 : tensor<4xf64>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %f0 = arith.constant 0.0 : f64
    %file = call @getTensorFilename(%c0) : (index) -> (!llvm.ptr)

    %a = sparse_tensor.new %file : !llvm.ptr to tensor<?x?xf64, #CSR>
    sparse_tensor.print %a : tensor<?x?xf64, #CSR>
    %b = sparse_tensor.new %file : !llvm.ptr to tensor<4x5xf64, #CSC>
    sparse_tensor.print %b : tensor<4x5xf64, #CSC>
    %c = sparse_tensor.new %file : !llvm.ptr to tensor<?x5xf64, #DCSR>
    sparse_tensor.print %c : tensor<?x5xf64, #DCSR>
    %d = sparse_tensor.new %file : !llvm.ptr to tensor<?x?xf64, #COO>
    sparse_tensor.print %d : tensor<?x?xf64, #COO>

    %zero = tensor.empty() : tensor<4xf64>
    %filled = linalg.fill ins(%f0 : f64) outs(%zero : tensor<4xf64>) -> tensor<4xf64>
    %sums = call @row_sums(%b, %filled) : (tensor<4x5xf64, #CSC>, tensor<4xf64>) -> tensor<4xf64>
    %v = vector.transfer_read %sums[%c0], %f0 : tensor<4xf64>, vector<4xf64>
    vector.print %v : vector<4xf64>

    %out = call @getTensorFilename(%c1) : (index) -> (!llvm.ptr)
    sparse_tensor.out %b, %out : tensor<4x5xf64, #CSC>, !llvm.ptr

    %sym_file = call @getTensorFilename(%c2) : (index) -> (!llvm.ptr)
    %sym = sparse_tensor.new %sym_file : !llvm.ptr to tensor<?x?xf64, #CSR>
    sparse_tensor.print %sym : tensor<?x?xf64, #CSR>
    %pat_file = call @getTensorFilename(%c3) : (index) -> (!llvm.ptr)
    %pat = sparse_tensor.new %pat_file : !llvm.ptr to tensor<3x4xf32, #COO>
    sparse_tensor.print %pat : tensor<3x4xf32, #COO>
    %int_file = call @getTensorFilename(%c4) : (index) -> (!llvm.ptr)
    %int = sparse_tensor.new %int_file : !llvm.ptr to tensor<?x?xi32, #CSR>
    sparse_tensor.print %int : tensor<?x?xi32, #CSR>
    %tns_file = call @getTensorFilename(%c5) : (index) -> (!llvm.ptr)
    %t3 = sparse_tensor.new %tns_file : !llvm.ptr to tensor<?x?x?xf64, #CSF>
    sparse_tensor.print %t3 : tensor<?x?x?xf64, #CSF>

    bufferization.dealloc_tensor %a : tensor<?x?xf64, #CSR>
    bufferization.dealloc_tensor %b : tensor<4x5xf64, #CSC>
    bufferization.dealloc_tensor %c : tensor<?x5xf64, #DCSR>
    bufferization.dealloc_tensor %d : tensor<?x?xf64, #COO>
    bufferization.dealloc_tensor %sym : tensor<?x?xf64, #CSR>
    bufferization.dealloc_tensor %pat : tensor<3x4xf32, #COO>
    bufferization.dealloc_tensor %int : tensor<?x?xi32, #CSR>
    bufferization.dealloc_tensor %t3 : tensor<?x?x?xf64, #CSF>
    return
  }
}

// CHECK: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 5 )
// CHECK-NEXT: lvl = ( 4, 5 )
// CHECK-NEXT: pos[1] : ( 0, 2, 2, 4, 6 )
// CHECK-NEXT: crd[1] : ( 0, 3, 0, 4, 1, 4 )
// CHECK-NEXT: values : ( 1, 2.25, 4.5, -2.5, 0.007, 1e+10 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 5 )
// CHECK-NEXT: lvl = ( 5, 4 )
// CHECK-NEXT: pos[1] : ( 0, 2, 3, 3, 4, 6 )
// CHECK-NEXT: crd[1] : ( 0, 2, 3, 0, 2, 3 )
// CHECK-NEXT: values : ( 1, 4.5, 0.007, 2.25, -2.5, 1e+10 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 5 )
// CHECK-NEXT: lvl = ( 4, 5 )
// CHECK-NEXT: pos[0] : ( 0, 3 )
// CHECK-NEXT: crd[0] : ( 0, 2, 3 )
// CHECK-NEXT: pos[1] : ( 0, 2, 4, 6 )
// CHECK-NEXT: crd[1] : ( 0, 3, 0, 4, 1, 4 )
// CHECK-NEXT: values : ( 1, 2.25, 4.5, -2.5, 0.007, 1e+10 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 5 )
// CHECK-NEXT: lvl = ( 4, 5 )
// CHECK-NEXT: pos[0] : ( 0, 6 )
// CHECK-NEXT: crd[0] : ( 0, 0, 0, 3, 2, 0, 2, 4, 3, 1, 3, 4 )
// CHECK-NEXT: values : ( 1, 2.25, 4.5, -2.5, 0.007, 1e+10 )
// CHECK-NEXT: ----
// CHECK-NEXT: ( 3.25, 0, 2, 1e+10 )
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 4
// CHECK-NEXT: dim = ( 3, 3 )
// CHECK-NEXT: lvl = ( 3, 3 )
// CHECK-NEXT: pos[1] : ( 0, 1, 2, 4 )
// CHECK-NEXT: crd[1] : ( 0, 0, 1, 2 )
// CHECK-NEXT: values : ( 2, -1, 0.5, 3 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 3
// CHECK-NEXT: dim = ( 3, 4 )
// CHECK-NEXT: lvl = ( 3, 4 )
// CHECK-NEXT: pos[0] : ( 0, 3 )
// CHECK-NEXT: crd[0] : ( 0, 1, 1, 3, 2, 0 )
// CHECK-NEXT: values : ( 1, 1, 1 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 3
// CHECK-NEXT: dim = ( 2, 3 )
// CHECK-NEXT: lvl = ( 2, 3 )
// CHECK-NEXT: pos[1] : ( 0, 1, 3 )
// CHECK-NEXT: crd[1] : ( 2, 0, 1 )
// CHECK-NEXT: values : ( -7, 12, 5 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 5
// CHECK-NEXT: dim = ( 3, 4, 5 )
// CHECK-NEXT: lvl = ( 3, 4, 5 )
// CHECK-NEXT: pos[0] : ( 0, 3 )
// CHECK-NEXT: crd[0] : ( 0, 1, 2 )
// CHECK-NEXT: pos[1] : ( 0, 2, 3, 5 )
// CHECK-NEXT: crd[1] : ( 0, 3, 1, 0, 3 )
// CHECK-NEXT: pos[2] : ( 0, 1, 2, 3, 4, 5 )
// CHECK-NEXT: crd[2] : ( 0, 4, 2, 1, 4 )
// CHECK-NEXT: values : ( 1.5, -2, 3.25, 4, 5 )
// CHECK-NEXT: ----
