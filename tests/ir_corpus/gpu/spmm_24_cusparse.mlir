// mlir-opt-22 --linalg-generalize-named-ops --sparse-gpu-codegen=num-threads=0 tests/filecheck/mlir-interop/inputs/sparse_gpu_kernels.mlir
// (function @spmm_24): MLIR 22's sparse GPU code generation, a text of the
// IR fuzzer's corpus (xsparse/testing/ir_mutants.py).

module {
  func.func @spmm_24(%arg0: tensor<?x?xf16>, %arg1: tensor<?x?xf16>, %arg2: tensor<?x?xf16>) -> tensor<?x?xf16> {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %0 = bufferization.to_buffer %arg0 : tensor<?x?xf16> to memref<?x?xf16>
    %1 = gpu.wait async
    %dim = memref.dim %0, %c0 : memref<?x?xf16>
    %dim_0 = memref.dim %0, %c1 : memref<?x?xf16>
    %memref, %asyncToken = gpu.alloc async [%1] (%dim, %dim_0) : memref<?x?xf16>
    %2 = gpu.memcpy async [%asyncToken] %memref, %0 : memref<?x?xf16>, memref<?x?xf16>
    %3 = bufferization.to_buffer %arg1 : tensor<?x?xf16> to memref<?x?xf16>
    %4 = gpu.wait async
    %dim_1 = memref.dim %3, %c0 : memref<?x?xf16>
    %dim_2 = memref.dim %3, %c1 : memref<?x?xf16>
    %memref_3, %asyncToken_4 = gpu.alloc async [%4] (%dim_1, %dim_2) : memref<?x?xf16>
    %5 = gpu.memcpy async [%asyncToken_4] %memref_3, %3 : memref<?x?xf16>, memref<?x?xf16>
    %6 = bufferization.to_buffer %arg2 : tensor<?x?xf16> to memref<?x?xf16>
    %7 = gpu.wait async
    %dim_5 = memref.dim %6, %c0 : memref<?x?xf16>
    %dim_6 = memref.dim %6, %c1 : memref<?x?xf16>
    %memref_7, %asyncToken_8 = gpu.alloc async [%7] (%dim_5, %dim_6) : memref<?x?xf16>
    %8 = gpu.memcpy async [%asyncToken_8] %memref_7, %6 : memref<?x?xf16>, memref<?x?xf16>
    gpu.wait [%2, %5, %8]
    %dim_9 = memref.dim %memref, %c0 : memref<?x?xf16>
    %dim_10 = memref.dim %memref_3, %c0 : memref<?x?xf16>
    %dim_11 = memref.dim %memref_7, %c1 : memref<?x?xf16>
    %9 = gpu.wait async
    %spMat, %asyncToken_12 = gpu.create_2to4_spmat async [%9]{ PRUNE_AND_CHECK} %dim_9, %dim_10, %memref : memref<?x?xf16>
    %dnTensor, %asyncToken_13 = gpu.create_dn_tensor async [%asyncToken_12] %memref_3, %dim_10, %dim_11 : index, index into memref<?x?xf16>
    %dnTensor_14, %asyncToken_15 = gpu.create_dn_tensor async [%asyncToken_13] %memref_7, %dim_9, %dim_11 : index, index into memref<?x?xf16>
    %bufferSzs:3, %asyncToken_16 = gpu.spmm_buffer_size async [%asyncToken_15] %spMat, %dnTensor, %dnTensor_14 : index, index, index into f16
    %memref_17, %asyncToken_18 = gpu.alloc async [%asyncToken_16] (%bufferSzs#0) : memref<?xi8>
    %memref_19, %asyncToken_20 = gpu.alloc async [%asyncToken_18] (%bufferSzs#1) : memref<?xi8>
    %memref_21, %asyncToken_22 = gpu.alloc async [%asyncToken_20] (%bufferSzs#2) : memref<?xi8>
    %10 = gpu.spmm async [%asyncToken_22] %spMat, %dnTensor, %dnTensor_14, %memref_17, %memref_19, %memref_21 : memref<?xi8>, memref<?xi8>, memref<?xi8> into f16
    %11 = gpu.destroy_sp_mat async [%10] %spMat
    %12 = gpu.destroy_dn_tensor async [%11] %dnTensor
    %13 = gpu.destroy_dn_tensor async [%12] %dnTensor_14
    %14 = gpu.dealloc async [%13] %memref_17 : memref<?xi8>
    %15 = gpu.dealloc async [%14] %memref_19 : memref<?xi8>
    %16 = gpu.dealloc async [%15] %memref_21 : memref<?xi8>
    %17 = gpu.dealloc async [%16] %memref : memref<?x?xf16>
    %18 = gpu.dealloc async [%17] %memref_3 : memref<?x?xf16>
    %19 = gpu.memcpy async [%18] %6, %memref_7 : memref<?x?xf16>, memref<?x?xf16>
    %20 = gpu.dealloc async [%19] %memref_7 : memref<?x?xf16>
    gpu.wait [%20]
    %21 = bufferization.to_tensor %6 : memref<?x?xf16> to tensor<?x?xf16>
    return %21 : tensor<?x?xf16>
  }
}
