// mlir-opt-22 --linalg-generalize-named-ops --sparse-gpu-codegen=num-threads=0 tests/filecheck/mlir-interop/inputs/sparse_gpu_kernels.mlir
// (function @sddmm_csr): MLIR 22's sparse GPU code generation, a text of the
// IR fuzzer's corpus (xsparse/testing/ir_mutants.py).
#sparse = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
module {
  func.func @sddmm_csr(%arg0: tensor<8x8xf64, #sparse>, %arg1: tensor<8x8xf64>, %arg2: tensor<8x8xf64>) -> tensor<8x8xf64, #sparse> {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %0 = sparse_tensor.number_of_entries %arg0 : tensor<8x8xf64, #sparse>
    %1 = bufferization.to_buffer %arg1 : tensor<8x8xf64> to memref<8x8xf64>
    %2 = gpu.wait async
    %memref, %asyncToken = gpu.alloc async [%2] () : memref<8x8xf64>
    %3 = gpu.memcpy async [%asyncToken] %memref, %1 : memref<8x8xf64>, memref<8x8xf64>
    %4 = bufferization.to_buffer %arg2 : tensor<8x8xf64> to memref<8x8xf64>
    %5 = gpu.wait async
    %memref_0, %asyncToken_1 = gpu.alloc async [%5] () : memref<8x8xf64>
    %6 = gpu.memcpy async [%asyncToken_1] %memref_0, %4 : memref<8x8xf64>, memref<8x8xf64>
    %7 = sparse_tensor.positions %arg0 {level = 1 : index} : tensor<8x8xf64, #sparse> to memref<?xindex>
    %8 = sparse_tensor.coordinates %arg0 {level = 1 : index} : tensor<8x8xf64, #sparse> to memref<?xindex>
    %9 = sparse_tensor.values %arg0 : tensor<8x8xf64, #sparse> to memref<?xf64>
    %10 = gpu.wait async
    %dim = memref.dim %7, %c0 : memref<?xindex>
    %memref_2, %asyncToken_3 = gpu.alloc async [%10] (%dim) : memref<?xindex>
    %11 = gpu.memcpy async [%asyncToken_3] %memref_2, %7 : memref<?xindex>, memref<?xindex>
    %12 = gpu.wait async
    %dim_4 = memref.dim %8, %c0 : memref<?xindex>
    %memref_5, %asyncToken_6 = gpu.alloc async [%12] (%dim_4) : memref<?xindex>
    %13 = gpu.memcpy async [%asyncToken_6] %memref_5, %8 : memref<?xindex>, memref<?xindex>
    %14 = gpu.wait async
    %dim_7 = memref.dim %9, %c0 : memref<?xf64>
    %memref_8, %asyncToken_9 = gpu.alloc async [%14] (%dim_7) : memref<?xf64>
    %15 = gpu.memcpy async [%asyncToken_9] %memref_8, %9 : memref<?xf64>, memref<?xf64>
    gpu.wait [%3, %6, %11, %13, %15]
    %16 = gpu.wait async
    %dnTensor, %asyncToken_10 = gpu.create_dn_tensor async [%16] %memref, %c8, %c8 : index, index into memref<8x8xf64>
    %dnTensor_11, %asyncToken_12 = gpu.create_dn_tensor async [%asyncToken_10] %memref_0, %c8, %c8 : index, index into memref<8x8xf64>
    %spmat, %asyncToken_13 = gpu.create_csr async [%asyncToken_12] %c8, %c8, %0, %memref_2, %memref_5, %memref_8 : memref<?xindex>, memref<?xindex>, memref<?xf64>
    %bufferSz, %asyncToken_14 = gpu.sddmm_buffer_size async [%asyncToken_13] %dnTensor, %dnTensor_11, %spmat into f64
    %memref_15, %asyncToken_16 = gpu.alloc async [%asyncToken_14] (%bufferSz) : memref<?xi8>
    %17 = gpu.sddmm async [%asyncToken_16] %dnTensor, %dnTensor_11, %spmat, %memref_15 : memref<?xi8> into f64
    %18 = gpu.destroy_dn_tensor async [%17] %dnTensor
    %19 = gpu.destroy_dn_tensor async [%18] %dnTensor_11
    %20 = gpu.destroy_sp_mat async [%19] %spmat
    %21 = gpu.dealloc async [%20] %memref_15 : memref<?xi8>
    %22 = gpu.dealloc async [%21] %memref : memref<8x8xf64>
    %23 = gpu.dealloc async [%22] %memref_0 : memref<8x8xf64>
    %24 = gpu.dealloc async [%23] %memref_2 : memref<?xindex>
    %25 = gpu.dealloc async [%24] %memref_5 : memref<?xindex>
    %26 = gpu.memcpy async [%25] %9, %memref_8 : memref<?xf64>, memref<?xf64>
    %27 = gpu.dealloc async [%26] %memref_8 : memref<?xf64>
    gpu.wait [%27]
    %28 = sparse_tensor.load %arg0 : tensor<8x8xf64, #sparse>
    return %28 : tensor<8x8xf64, #sparse>
  }
}
