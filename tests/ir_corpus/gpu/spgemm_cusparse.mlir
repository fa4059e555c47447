// mlir-opt-22 --linalg-generalize-named-ops --sparse-gpu-codegen=num-threads=0 tests/filecheck/mlir-interop/inputs/sparse_gpu_kernels.mlir
// (function @spgemm): MLIR 22's sparse GPU code generation, a text of the
// IR fuzzer's corpus (xsparse/testing/ir_mutants.py).
#sparse = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
module {
  func.func @spgemm(%arg0: tensor<8x8xf32, #sparse>, %arg1: tensor<8x8xf32, #sparse>) -> tensor<8x8xf32, #sparse> {
    %c9 = arith.constant 9 : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %0 = sparse_tensor.number_of_entries %arg0 : tensor<8x8xf32, #sparse>
    %1 = sparse_tensor.number_of_entries %arg1 : tensor<8x8xf32, #sparse>
    %2 = sparse_tensor.positions %arg0 {level = 1 : index} : tensor<8x8xf32, #sparse> to memref<?xindex>
    %3 = sparse_tensor.coordinates %arg0 {level = 1 : index} : tensor<8x8xf32, #sparse> to memref<?xindex>
    %4 = sparse_tensor.values %arg0 : tensor<8x8xf32, #sparse> to memref<?xf32>
    %5 = sparse_tensor.positions %arg1 {level = 1 : index} : tensor<8x8xf32, #sparse> to memref<?xindex>
    %6 = sparse_tensor.coordinates %arg1 {level = 1 : index} : tensor<8x8xf32, #sparse> to memref<?xindex>
    %7 = sparse_tensor.values %arg1 : tensor<8x8xf32, #sparse> to memref<?xf32>
    %8 = gpu.wait async
    %dim = memref.dim %2, %c0 : memref<?xindex>
    %memref, %asyncToken = gpu.alloc async [%8] (%dim) : memref<?xindex>
    %9 = gpu.memcpy async [%asyncToken] %memref, %2 : memref<?xindex>, memref<?xindex>
    %10 = gpu.wait async
    %dim_0 = memref.dim %3, %c0 : memref<?xindex>
    %memref_1, %asyncToken_2 = gpu.alloc async [%10] (%dim_0) : memref<?xindex>
    %11 = gpu.memcpy async [%asyncToken_2] %memref_1, %3 : memref<?xindex>, memref<?xindex>
    %12 = gpu.wait async
    %dim_3 = memref.dim %4, %c0 : memref<?xf32>
    %memref_4, %asyncToken_5 = gpu.alloc async [%12] (%dim_3) : memref<?xf32>
    %13 = gpu.memcpy async [%asyncToken_5] %memref_4, %4 : memref<?xf32>, memref<?xf32>
    %14 = gpu.wait async
    %dim_6 = memref.dim %5, %c0 : memref<?xindex>
    %memref_7, %asyncToken_8 = gpu.alloc async [%14] (%dim_6) : memref<?xindex>
    %15 = gpu.memcpy async [%asyncToken_8] %memref_7, %5 : memref<?xindex>, memref<?xindex>
    %16 = gpu.wait async
    %dim_9 = memref.dim %6, %c0 : memref<?xindex>
    %memref_10, %asyncToken_11 = gpu.alloc async [%16] (%dim_9) : memref<?xindex>
    %17 = gpu.memcpy async [%asyncToken_11] %memref_10, %6 : memref<?xindex>, memref<?xindex>
    %18 = gpu.wait async
    %dim_12 = memref.dim %7, %c0 : memref<?xf32>
    %memref_13, %asyncToken_14 = gpu.alloc async [%18] (%dim_12) : memref<?xf32>
    %19 = gpu.memcpy async [%asyncToken_14] %memref_13, %7 : memref<?xf32>, memref<?xf32>
    gpu.wait [%9, %11, %13, %15, %17, %19]
    %20 = gpu.wait async
    %spmat, %asyncToken_15 = gpu.create_csr async [%20] %c8, %c8, %0, %memref, %memref_1, %memref_4 : memref<?xindex>, memref<?xindex>, memref<?xf32>
    %spmat_16, %asyncToken_17 = gpu.create_csr async [%asyncToken_15] %c8, %c8, %1, %memref_7, %memref_10, %memref_13 : memref<?xindex>, memref<?xindex>, memref<?xf32>
    %memref_18, %asyncToken_19 = gpu.alloc async [%asyncToken_17] (%c9) : memref<?xindex>
    %memref_20, %asyncToken_21 = gpu.alloc async [%asyncToken_19] (%c0) : memref<?xindex>
    %memref_22, %asyncToken_23 = gpu.alloc async [%asyncToken_21] (%c0) : memref<?xf32>
    %spmat_24, %asyncToken_25 = gpu.create_csr async [%asyncToken_23] %c8, %c8, %c0, %memref_18, %memref_20, %memref_22 : memref<?xindex>, memref<?xindex>, memref<?xf32>
    %desc, %asyncToken_26 = gpu.spgemm_create_descr async [%asyncToken_25]
    %bufferSzNew, %asyncToken_27 = gpu.spgemm_work_estimation_or_compute async [%asyncToken_26]{ WORK_ESTIMATION} %spmat, %spmat_16, %spmat_24, %desc, %c0, %memref_22 : f32 into memref<?xf32>
    %memref_28, %asyncToken_29 = gpu.alloc async [%asyncToken_27] (%bufferSzNew) : memref<?xi8>
    %bufferSzNew_30, %asyncToken_31 = gpu.spgemm_work_estimation_or_compute async [%asyncToken_29]{ WORK_ESTIMATION} %spmat, %spmat_16, %spmat_24, %desc, %bufferSzNew, %memref_28 : f32 into memref<?xi8>
    %bufferSzNew_32, %asyncToken_33 = gpu.spgemm_work_estimation_or_compute async [%asyncToken_31]{ COMPUTE} %spmat, %spmat_16, %spmat_24, %desc, %c0, %memref_22 : f32 into memref<?xf32>
    %memref_34, %asyncToken_35 = gpu.alloc async [%asyncToken_33] (%bufferSzNew_32) : memref<?xi8>
    %bufferSzNew_36, %asyncToken_37 = gpu.spgemm_work_estimation_or_compute async [%asyncToken_35]{ COMPUTE} %spmat, %spmat_16, %spmat_24, %desc, %bufferSzNew_32, %memref_34 : f32 into memref<?xi8>
    %rows, %cols, %nnz, %asyncToken_38 = gpu.spmat_get_size async [%asyncToken_37] %spmat_24
    %memref_39, %asyncToken_40 = gpu.alloc async [%asyncToken_38] (%nnz) : memref<?xindex>
    %memref_41, %asyncToken_42 = gpu.alloc async [%asyncToken_40] (%nnz) : memref<?xf32>
    %21 = gpu.set_csr_pointers async [%asyncToken_42] %spmat_24, %memref_18, %memref_39, %memref_41 : memref<?xindex>, memref<?xindex>, memref<?xf32>
    %22 = gpu.spgemm_copy async [%21] %spmat, %spmat_16, %spmat_24, %desc : f32
    %alloc = memref.alloc(%c9) : memref<?xindex>
    %alloc_43 = memref.alloc(%nnz) : memref<?xindex>
    %alloc_44 = memref.alloc(%nnz) : memref<?xf32>
    %23 = gpu.spgemm_destroy_descr async [%22] %desc
    %24 = gpu.destroy_sp_mat async [%23] %spmat
    %25 = gpu.destroy_sp_mat async [%24] %spmat_16
    %26 = gpu.destroy_sp_mat async [%25] %spmat_24
    %27 = gpu.memcpy async [%26] %alloc, %memref_18 : memref<?xindex>, memref<?xindex>
    %28 = gpu.memcpy async [%27] %alloc_43, %memref_39 : memref<?xindex>, memref<?xindex>
    %29 = gpu.memcpy async [%28] %alloc_44, %memref_41 : memref<?xf32>, memref<?xf32>
    %30 = gpu.dealloc async [%29] %memref : memref<?xindex>
    %31 = gpu.dealloc async [%30] %memref_1 : memref<?xindex>
    %32 = gpu.dealloc async [%31] %memref_4 : memref<?xf32>
    %33 = gpu.dealloc async [%32] %memref_7 : memref<?xindex>
    %34 = gpu.dealloc async [%33] %memref_10 : memref<?xindex>
    %35 = gpu.dealloc async [%34] %memref_13 : memref<?xf32>
    %36 = gpu.dealloc async [%35] %memref_18 : memref<?xindex>
    %37 = gpu.dealloc async [%36] %memref_39 : memref<?xindex>
    %38 = gpu.dealloc async [%37] %memref_41 : memref<?xf32>
    %39 = gpu.dealloc async [%38] %memref_28 : memref<?xi8>
    %40 = gpu.dealloc async [%39] %memref_34 : memref<?xi8>
    gpu.wait [%40]
    %41 = bufferization.to_tensor %alloc_44 : memref<?xf32> to tensor<?xf32>
    %42 = bufferization.to_tensor %alloc : memref<?xindex> to tensor<?xindex>
    %43 = bufferization.to_tensor %alloc_43 : memref<?xindex> to tensor<?xindex>
    %44 = sparse_tensor.assemble (%42, %43), %41 : (tensor<?xindex>, tensor<?xindex>), tensor<?xf32> to tensor<8x8xf32, #sparse>
    return %44 : tensor<8x8xf32, #sparse>
  }
}
