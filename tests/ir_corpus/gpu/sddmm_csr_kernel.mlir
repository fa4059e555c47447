// mlir-opt-22 --linalg-generalize-named-ops --sparse-reinterpret-map --sparsification=parallelization-strategy=dense-outer-loop --sparse-gpu-codegen=num-threads=256 tests/filecheck/mlir-interop/inputs/sparse_gpu_kernels.mlir
// (function @sddmm_csr): MLIR 22's sparse GPU code generation, a text of the
// IR fuzzer's corpus (xsparse/testing/ir_mutants.py).
#sparse = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
module attributes {gpu.container_module} {
  gpu.module @sparse_kernels {
    gpu.func @kernel1(%arg0: memref<?xindex>, %arg1: memref<?xindex>, %arg2: memref<?xf64>, %arg3: memref<8x8xf64>, %arg4: memref<8x8xf64>) kernel {
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %block_id_x = gpu.block_id  x
      %block_dim_x = gpu.block_dim  x
      %thread_id_x = gpu.thread_id  x
      %grid_dim_x = gpu.grid_dim  x
      %0 = arith.muli %block_id_x, %block_dim_x : index
      %1 = arith.addi %0, %thread_id_x : index
      %2 = arith.muli %block_dim_x, %grid_dim_x : index
      scf.for %arg5 = %1 to %c8 step %2 {
        scf.for %arg6 = %c0 to %c8 step %c1 {
          %3 = memref.load %arg0[%arg5] : memref<?xindex>
          %4 = arith.addi %arg5, %c1 : index
          %5 = memref.load %arg0[%4] : memref<?xindex>
          scf.for %arg7 = %3 to %5 step %c1 {
            %6 = memref.load %arg1[%arg7] : memref<?xindex>
            %7 = memref.load %arg2[%arg7] : memref<?xf64>
            %8 = memref.load %arg3[%arg5, %arg6] : memref<8x8xf64>
            %9 = memref.load %arg4[%arg6, %6] : memref<8x8xf64>
            %10 = arith.mulf %8, %9 : f64
            %11 = arith.addf %7, %10 : f64
            memref.store %11, %arg2[%arg7] : memref<?xf64>
          } {"Emitted from" = "linalg.generic"}
        } {"Emitted from" = "linalg.generic"}
      }
      gpu.return
    }
  }
  func.func @sddmm_csr(%arg0: tensor<8x8xf64, #sparse>, %arg1: tensor<8x8xf64>, %arg2: tensor<8x8xf64>) -> tensor<8x8xf64, #sparse> {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %0 = bufferization.to_buffer %arg1 : tensor<8x8xf64> to memref<8x8xf64>
    %1 = bufferization.to_buffer %arg2 : tensor<8x8xf64> to memref<8x8xf64>
    %2 = sparse_tensor.values %arg0 : tensor<8x8xf64, #sparse> to memref<?xf64>
    %3 = sparse_tensor.positions %arg0 {level = 1 : index} : tensor<8x8xf64, #sparse> to memref<?xindex>
    %4 = sparse_tensor.coordinates %arg0 {level = 1 : index} : tensor<8x8xf64, #sparse> to memref<?xindex>
    %5 = gpu.wait async
    %dim = memref.dim %3, %c0 : memref<?xindex>
    %memref, %asyncToken = gpu.alloc async [%5] (%dim) : memref<?xindex>
    %6 = gpu.memcpy async [%asyncToken] %memref, %3 : memref<?xindex>, memref<?xindex>
    %7 = gpu.wait async
    %dim_0 = memref.dim %4, %c0 : memref<?xindex>
    %memref_1, %asyncToken_2 = gpu.alloc async [%7] (%dim_0) : memref<?xindex>
    %8 = gpu.memcpy async [%asyncToken_2] %memref_1, %4 : memref<?xindex>, memref<?xindex>
    %9 = gpu.wait async
    %dim_3 = memref.dim %2, %c0 : memref<?xf64>
    %memref_4, %asyncToken_5 = gpu.alloc async [%9] (%dim_3) : memref<?xf64>
    %10 = gpu.memcpy async [%asyncToken_5] %memref_4, %2 : memref<?xf64>, memref<?xf64>
    %11 = gpu.wait async
    %memref_6, %asyncToken_7 = gpu.alloc async [%11] () : memref<8x8xf64>
    %12 = gpu.memcpy async [%asyncToken_7] %memref_6, %0 : memref<8x8xf64>, memref<8x8xf64>
    %13 = gpu.wait async
    %memref_8, %asyncToken_9 = gpu.alloc async [%13] () : memref<8x8xf64>
    %14 = gpu.memcpy async [%asyncToken_9] %memref_8, %1 : memref<8x8xf64>, memref<8x8xf64>
    gpu.wait [%6, %8, %10, %12, %14]
    %15 = gpu.launch_func async @sparse_kernels::@kernel1 blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)  args(%memref : memref<?xindex>, %memref_1 : memref<?xindex>, %memref_4 : memref<?xf64>, %memref_6 : memref<8x8xf64>, %memref_8 : memref<8x8xf64>)
    %16 = gpu.memcpy async [%15] %3, %memref : memref<?xindex>, memref<?xindex>
    %17 = gpu.dealloc async [%16] %memref : memref<?xindex>
    %18 = gpu.wait async
    %19 = gpu.dealloc async [%18] %memref_1 : memref<?xindex>
    %20 = gpu.wait async
    %21 = gpu.dealloc async [%20] %memref_4 : memref<?xf64>
    %22 = gpu.wait async
    %23 = gpu.dealloc async [%22] %memref_6 : memref<8x8xf64>
    %24 = gpu.wait async
    %25 = gpu.dealloc async [%24] %memref_8 : memref<8x8xf64>
    gpu.wait [%17, %19, %21, %23, %25]
    %26 = sparse_tensor.load %arg0 : tensor<8x8xf64, #sparse>
    return %26 : tensor<8x8xf64, #sparse>
  }
}
