// mlir-opt-22 --linalg-generalize-named-ops --sparse-gpu-codegen=num-threads=0 tests/filecheck/mlir-interop/inputs/sparse_gpu_kernels.mlir
// (function @spmm_csr): MLIR 22's sparse GPU code generation, a text of the
// IR fuzzer's corpus (xsparse/testing/ir_mutants.py).
#sparse = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
module {
  func.func @spmm_csr(%arg0: tensor<?x?xf32, #sparse>, %arg1: tensor<?x?xf32>, %arg2: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %0 = sparse_tensor.number_of_entries %arg0 : tensor<?x?xf32, #sparse>
    %dim = tensor.dim %arg0, %c0 : tensor<?x?xf32, #sparse>
    %dim_0 = tensor.dim %arg0, %c1 : tensor<?x?xf32, #sparse>
    %dim_1 = tensor.dim %arg1, %c1 : tensor<?x?xf32>
    %1 = sparse_tensor.positions %arg0 {level = 1 : index} : tensor<?x?xf32, #sparse> to memref<?xindex>
    %2 = sparse_tensor.coordinates %arg0 {level = 1 : index} : tensor<?x?xf32, #sparse> to memref<?xindex>
    %3 = sparse_tensor.values %arg0 : tensor<?x?xf32, #sparse> to memref<?xf32>
    %4 = gpu.wait async
    %dim_2 = memref.dim %1, %c0 : memref<?xindex>
    %memref, %asyncToken = gpu.alloc async [%4] (%dim_2) : memref<?xindex>
    %5 = gpu.memcpy async [%asyncToken] %memref, %1 : memref<?xindex>, memref<?xindex>
    %6 = gpu.wait async
    %dim_3 = memref.dim %2, %c0 : memref<?xindex>
    %memref_4, %asyncToken_5 = gpu.alloc async [%6] (%dim_3) : memref<?xindex>
    %7 = gpu.memcpy async [%asyncToken_5] %memref_4, %2 : memref<?xindex>, memref<?xindex>
    %8 = gpu.wait async
    %dim_6 = memref.dim %3, %c0 : memref<?xf32>
    %memref_7, %asyncToken_8 = gpu.alloc async [%8] (%dim_6) : memref<?xf32>
    %9 = gpu.memcpy async [%asyncToken_8] %memref_7, %3 : memref<?xf32>, memref<?xf32>
    %10 = bufferization.to_buffer %arg1 : tensor<?x?xf32> to memref<?x?xf32>
    %11 = gpu.wait async
    %dim_9 = memref.dim %10, %c0 : memref<?x?xf32>
    %dim_10 = memref.dim %10, %c1 : memref<?x?xf32>
    %memref_11, %asyncToken_12 = gpu.alloc async [%11] (%dim_9, %dim_10) : memref<?x?xf32>
    %12 = gpu.memcpy async [%asyncToken_12] %memref_11, %10 : memref<?x?xf32>, memref<?x?xf32>
    %13 = bufferization.to_buffer %arg2 : tensor<?x?xf32> to memref<?x?xf32>
    %14 = gpu.wait async
    %dim_13 = memref.dim %13, %c0 : memref<?x?xf32>
    %dim_14 = memref.dim %13, %c1 : memref<?x?xf32>
    %memref_15, %asyncToken_16 = gpu.alloc async [%14] (%dim_13, %dim_14) : memref<?x?xf32>
    %15 = gpu.memcpy async [%asyncToken_16] %memref_15, %13 : memref<?x?xf32>, memref<?x?xf32>
    gpu.wait [%5, %7, %9, %12, %15]
    %16 = gpu.wait async
    %spmat, %asyncToken_17 = gpu.create_csr async [%16] %dim, %dim_0, %0, %memref, %memref_4, %memref_7 : memref<?xindex>, memref<?xindex>, memref<?xf32>
    %dnTensor, %asyncToken_18 = gpu.create_dn_tensor async [%asyncToken_17] %memref_11, %dim_0, %dim_1 : index, index into memref<?x?xf32>
    %dnTensor_19, %asyncToken_20 = gpu.create_dn_tensor async [%asyncToken_18] %memref_15, %dim, %dim_1 : index, index into memref<?x?xf32>
    %bufferSzs, %asyncToken_21 = gpu.spmm_buffer_size async [%asyncToken_20] %spmat, %dnTensor, %dnTensor_19 : index into f32
    %memref_22, %asyncToken_23 = gpu.alloc async [%asyncToken_21] (%bufferSzs) : memref<?xi8>
    %17 = gpu.spmm async [%asyncToken_23] %spmat, %dnTensor, %dnTensor_19, %memref_22 : memref<?xi8> into f32
    %18 = gpu.destroy_sp_mat async [%17] %spmat
    %19 = gpu.destroy_dn_tensor async [%18] %dnTensor
    %20 = gpu.destroy_dn_tensor async [%19] %dnTensor_19
    %21 = gpu.dealloc async [%20] %memref : memref<?xindex>
    %22 = gpu.dealloc async [%21] %memref_4 : memref<?xindex>
    %23 = gpu.dealloc async [%22] %memref_7 : memref<?xf32>
    %24 = gpu.dealloc async [%23] %memref_22 : memref<?xi8>
    %25 = gpu.dealloc async [%24] %memref_11 : memref<?x?xf32>
    %26 = gpu.memcpy async [%25] %13, %memref_15 : memref<?x?xf32>, memref<?x?xf32>
    %27 = gpu.dealloc async [%26] %memref_15 : memref<?x?xf32>
    gpu.wait [%27]
    %28 = bufferization.to_tensor %13 : memref<?x?xf32> to tensor<?x?xf32>
    return %28 : tensor<?x?xf32>
  }
}
