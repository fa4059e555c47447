// mlir-opt-22 --linalg-generalize-named-ops --sparse-reinterpret-map --sparsification=parallelization-strategy=dense-outer-loop --sparse-gpu-codegen=num-threads=256 tests/filecheck/mlir-interop/inputs/sparse_gpu_kernels.mlir
// (function @spmm_csr): MLIR 22's sparse GPU code generation, a text of the
// IR fuzzer's corpus (xsparse/testing/ir_mutants.py).
#sparse = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
module attributes {gpu.container_module} {
  gpu.module @sparse_kernels {
    gpu.func @kernel3(%arg0: index, %arg1: index, %arg2: memref<?xindex>, %arg3: memref<?xindex>, %arg4: memref<?xf32>, %arg5: memref<?x?xf32>, %arg6: memref<?x?xf32>) kernel {
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %block_id_x = gpu.block_id  x
      %block_dim_x = gpu.block_dim  x
      %thread_id_x = gpu.thread_id  x
      %grid_dim_x = gpu.grid_dim  x
      %0 = arith.muli %block_id_x, %block_dim_x : index
      %1 = arith.addi %0, %thread_id_x : index
      %2 = arith.muli %block_dim_x, %grid_dim_x : index
      scf.for %arg7 = %1 to %arg1 step %2 {
        %3 = memref.load %arg2[%arg7] : memref<?xindex>
        %4 = arith.addi %arg7, %c1 : index
        %5 = memref.load %arg2[%4] : memref<?xindex>
        scf.for %arg8 = %3 to %5 step %c1 {
          %6 = memref.load %arg3[%arg8] : memref<?xindex>
          %7 = memref.load %arg4[%arg8] : memref<?xf32>
          scf.for %arg9 = %c0 to %arg0 step %c1 {
            %8 = memref.load %arg5[%arg7, %arg9] : memref<?x?xf32>
            %9 = memref.load %arg6[%6, %arg9] : memref<?x?xf32>
            %10 = arith.mulf %7, %9 : f32
            %11 = arith.addf %8, %10 : f32
            memref.store %11, %arg5[%arg7, %arg9] : memref<?x?xf32>
          } {"Emitted from" = "linalg.generic"}
        } {"Emitted from" = "linalg.generic"}
      }
      gpu.return
    }
  }
  func.func @spmm_csr(%arg0: tensor<?x?xf32, #sparse>, %arg1: tensor<?x?xf32>, %arg2: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %0 = sparse_tensor.values %arg0 : tensor<?x?xf32, #sparse> to memref<?xf32>
    %1 = bufferization.to_buffer %arg1 : tensor<?x?xf32> to memref<?x?xf32>
    %2 = bufferization.to_buffer %arg2 : tensor<?x?xf32> to memref<?x?xf32>
    %3 = sparse_tensor.lvl %arg0, %c0 : tensor<?x?xf32, #sparse>
    %4 = sparse_tensor.positions %arg0 {level = 1 : index} : tensor<?x?xf32, #sparse> to memref<?xindex>
    %5 = sparse_tensor.coordinates %arg0 {level = 1 : index} : tensor<?x?xf32, #sparse> to memref<?xindex>
    %dim = tensor.dim %arg1, %c1 : tensor<?x?xf32>
    %6 = gpu.wait async
    %dim_0 = memref.dim %4, %c0 : memref<?xindex>
    %memref, %asyncToken = gpu.alloc async [%6] (%dim_0) : memref<?xindex>
    %7 = gpu.memcpy async [%asyncToken] %memref, %4 : memref<?xindex>, memref<?xindex>
    %8 = gpu.wait async
    %dim_1 = memref.dim %5, %c0 : memref<?xindex>
    %memref_2, %asyncToken_3 = gpu.alloc async [%8] (%dim_1) : memref<?xindex>
    %9 = gpu.memcpy async [%asyncToken_3] %memref_2, %5 : memref<?xindex>, memref<?xindex>
    %10 = gpu.wait async
    %dim_4 = memref.dim %0, %c0 : memref<?xf32>
    %memref_5, %asyncToken_6 = gpu.alloc async [%10] (%dim_4) : memref<?xf32>
    %11 = gpu.memcpy async [%asyncToken_6] %memref_5, %0 : memref<?xf32>, memref<?xf32>
    %12 = gpu.wait async
    %dim_7 = memref.dim %2, %c0 : memref<?x?xf32>
    %dim_8 = memref.dim %2, %c1 : memref<?x?xf32>
    %memref_9, %asyncToken_10 = gpu.alloc async [%12] (%dim_7, %dim_8) : memref<?x?xf32>
    %13 = gpu.memcpy async [%asyncToken_10] %memref_9, %2 : memref<?x?xf32>, memref<?x?xf32>
    %14 = gpu.wait async
    %dim_11 = memref.dim %1, %c0 : memref<?x?xf32>
    %dim_12 = memref.dim %1, %c1 : memref<?x?xf32>
    %memref_13, %asyncToken_14 = gpu.alloc async [%14] (%dim_11, %dim_12) : memref<?x?xf32>
    %15 = gpu.memcpy async [%asyncToken_14] %memref_13, %1 : memref<?x?xf32>, memref<?x?xf32>
    gpu.wait [%7, %9, %11, %13, %15]
    %16 = gpu.launch_func async @sparse_kernels::@kernel3 blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)  args(%dim : index, %3 : index, %memref : memref<?xindex>, %memref_2 : memref<?xindex>, %memref_5 : memref<?xf32>, %memref_9 : memref<?x?xf32>, %memref_13 : memref<?x?xf32>)
    %17 = gpu.memcpy async [%16] %4, %memref : memref<?xindex>, memref<?xindex>
    %18 = gpu.dealloc async [%17] %memref : memref<?xindex>
    %19 = gpu.wait async
    %20 = gpu.dealloc async [%19] %memref_2 : memref<?xindex>
    %21 = gpu.wait async
    %22 = gpu.dealloc async [%21] %memref_5 : memref<?xf32>
    %23 = gpu.wait async
    %24 = gpu.dealloc async [%23] %memref_9 : memref<?x?xf32>
    %25 = gpu.wait async
    %26 = gpu.dealloc async [%25] %memref_13 : memref<?x?xf32>
    gpu.wait [%18, %20, %22, %24, %26]
    %27 = bufferization.to_tensor %2 : memref<?x?xf32> to tensor<?x?xf32>
    return %27 : tensor<?x?xf32>
  }
}
