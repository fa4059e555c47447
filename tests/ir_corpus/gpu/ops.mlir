// The gpu ops of MLIR 22's sparse GPU code generation (xsparse/dialects/gpu_ext.py)
// in the syntax forms the generated texts beside this one leave out: no
// async, transpose modes, launch options and bounds, host_shared and
// strided allocations, the kernel's index ops in every dimension. Printed as
// mlir-opt-22 prints it; a text of the IR fuzzer's corpus.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%arg0: memref<?xf32>, %arg1: index, %arg2: f32) kernel {
      %block_id_y = gpu.block_id  y
      %thread_id_z = gpu.thread_id  z upper_bound 64
      %block_dim_x = gpu.block_dim  x upper_bound 128
      %grid_dim_y = gpu.grid_dim  y
      %0 = arith.muli %block_id_y, %block_dim_x : index
      %1 = arith.addi %0, %thread_id_z : index
      %2 = arith.cmpi ult, %1, %arg1 : index
      scf.if %2 {
        %3 = memref.load %arg0[%1] : memref<?xf32>
        %4 = arith.mulf %3, %arg2 : f32
        memref.store %4, %arg0[%1] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @host(%arg0: memref<?xf32>, %arg1: index, %arg2: f32, %arg3: i32) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %memref = gpu.alloc  host_shared (%arg1) : memref<?xf32>
    gpu.memcpy  %memref, %arg0 : memref<?xf32>, memref<?xf32>
    %0 = gpu.wait async
    %memref_0, %asyncToken = gpu.alloc async [%0] (%arg1) : memref<?xf32>
    %1 = gpu.memcpy async [%asyncToken] %memref_0, %memref : memref<?xf32>, memref<?xf32>
    %2 = gpu.launch_func async [%1] @kernels::@scale blocks in (%arg1, %c1, %c1) threads in (%c128, %c1, %c1)  dynamic_shared_memory_size %arg3 args(%memref_0 : memref<?xf32>, %arg1 : index, %arg2 : f32)
    gpu.launch_func  @kernels::@scale clusters in (%c1, %c1, %c1) blocks in (%arg1, %c1, %c1) threads in (%c128, %c1, %c1)  args(%memref : memref<?xf32>, %arg1 : index, %arg2 : f32)
    %3 = gpu.memcpy async [%2] %arg0, %memref_0 : memref<?xf32>, memref<?xf32>
    %4 = gpu.dealloc async [%3] %memref_0 : memref<?xf32>
    gpu.wait [%4]
    gpu.dealloc  %memref : memref<?xf32>
    return
  }
  func.func @library(%arg0: !gpu.async.token, %arg1: !gpu.sparse.spmat_handle, %arg2: !gpu.sparse.dntensor_handle, %arg3: !gpu.sparse.dntensor_handle, %arg4: memref<?xi8>, %arg5: !gpu.sparse.spgemmop_handle, %arg6: index, %arg7: memref<?xf32>) {
    %bufferSz, %asyncToken = gpu.spmv_buffer_size async [%arg0] %arg1{ TRANSPOSE}, %arg2, %arg3 into f32
    gpu.spmv  %arg1{ CONJUGATE_TRANSPOSE}, %arg2, %arg3, %arg4 : memref<?xi8> into f32
    %bufferSzs:2 = gpu.spmm_buffer_size  %arg1{ TRANSPOSE}, %arg2{ TRANSPOSE}, %arg3 : index, index into f64
    gpu.spmm  %arg1, %arg2{ TRANSPOSE}, %arg3, %arg4, %arg4 : memref<?xi8>, memref<?xi8> into f64
    %bufferSz_0 = gpu.sddmm_buffer_size  %arg2{ TRANSPOSE}, %arg3, %arg1 into f32
    gpu.sddmm  %arg2, %arg3, %arg1, %arg4 : memref<?xi8> into f32
    %bufferSzNew = gpu.spgemm_work_estimation_or_compute { COMPUTE} %arg1{ TRANSPOSE}, %arg1, %arg1, %arg5, %arg6, %arg4 : f32 into memref<?xi8>
    gpu.spgemm_copy  %arg1, %arg1{ TRANSPOSE}, %arg1, %arg5 : f32
    %rows, %cols, %nnz = gpu.spmat_get_size  %arg1
    gpu.set_csr_pointers  %arg1, %arg7, %arg7, %arg7 : memref<?xf32>, memref<?xf32>, memref<?xf32>
    %spMat = gpu.create_2to4_spmat { PRUNE_ONLY} %arg6, %arg6, %arg7 : memref<?xf32>
    %dnTensor = gpu.create_dn_tensor  %arg7, %arg6 : index into memref<?xf32>
    gpu.destroy_dn_tensor  %dnTensor
    gpu.destroy_sp_mat  %spMat
    %desc = gpu.spgemm_create_descr 
    gpu.spgemm_destroy_descr  %desc
    return
  }
}
