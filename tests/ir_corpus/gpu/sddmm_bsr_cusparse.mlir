// mlir-opt-22 --linalg-generalize-named-ops --sparse-gpu-codegen=num-threads=0 tests/filecheck/mlir-interop/inputs/sparse_gpu_kernels.mlir
// (function @sddmm_bsr): MLIR 22's sparse GPU code generation, a text of the
// IR fuzzer's corpus (xsparse/testing/ir_mutants.py).
#sparse3 = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 2 : dense, d1 floordiv 2 : compressed, d0 mod 2 : dense, d1 mod 2 : dense) }>
module {
  func.func @sddmm_bsr(%arg0: tensor<8x8xf64, #sparse3>, %arg1: tensor<8x8xf64>, %arg2: tensor<8x8xf64>) -> tensor<8x8xf64, #sparse3> {
    %c4 = arith.constant 4 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %0 = sparse_tensor.number_of_entries %arg0 : tensor<8x8xf64, #sparse3>
    %1 = bufferization.to_buffer %arg1 : tensor<8x8xf64> to memref<8x8xf64>
    %2 = gpu.wait async
    %memref, %asyncToken = gpu.alloc async [%2] () : memref<8x8xf64>
    %3 = gpu.memcpy async [%asyncToken] %memref, %1 : memref<8x8xf64>, memref<8x8xf64>
    %4 = bufferization.to_buffer %arg2 : tensor<8x8xf64> to memref<8x8xf64>
    %5 = gpu.wait async
    %memref_0, %asyncToken_1 = gpu.alloc async [%5] () : memref<8x8xf64>
    %6 = gpu.memcpy async [%asyncToken_1] %memref_0, %4 : memref<8x8xf64>, memref<8x8xf64>
    %7 = sparse_tensor.positions %arg0 {level = 1 : index} : tensor<8x8xf64, #sparse3> to memref<?xindex>
    %8 = sparse_tensor.coordinates %arg0 {level = 1 : index} : tensor<8x8xf64, #sparse3> to memref<?xindex>
    %9 = sparse_tensor.values %arg0 : tensor<8x8xf64, #sparse3> to memref<?xf64>
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
    %17 = arith.divui %0, %c4 : index
    %spmat, %asyncToken_13 = gpu.create_bsr async [%asyncToken_12] %c4, %c4, %17, %c2, %c2, %memref_2, %memref_5, %memref_8 : memref<?xindex>, memref<?xindex>, memref<?xf64>
    %bufferSz, %asyncToken_14 = gpu.sddmm_buffer_size async [%asyncToken_13] %dnTensor, %dnTensor_11, %spmat into f64
    %memref_15, %asyncToken_16 = gpu.alloc async [%asyncToken_14] (%bufferSz) : memref<?xi8>
    %18 = gpu.sddmm async [%asyncToken_16] %dnTensor, %dnTensor_11, %spmat, %memref_15 : memref<?xi8> into f64
    %19 = gpu.destroy_dn_tensor async [%18] %dnTensor
    %20 = gpu.destroy_dn_tensor async [%19] %dnTensor_11
    %21 = gpu.destroy_sp_mat async [%20] %spmat
    %22 = gpu.dealloc async [%21] %memref_15 : memref<?xi8>
    %23 = gpu.dealloc async [%22] %memref : memref<8x8xf64>
    %24 = gpu.dealloc async [%23] %memref_0 : memref<8x8xf64>
    %25 = gpu.dealloc async [%24] %memref_2 : memref<?xindex>
    %26 = gpu.dealloc async [%25] %memref_5 : memref<?xindex>
    %27 = gpu.memcpy async [%26] %9, %memref_8 : memref<?xf64>, memref<?xf64>
    %28 = gpu.dealloc async [%27] %memref_8 : memref<?xf64>
    gpu.wait [%28]
    %29 = sparse_tensor.load %arg0 : tensor<8x8xf64, #sparse3>
    return %29 : tensor<8x8xf64, #sparse3>
  }
}
