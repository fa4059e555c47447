// mlir-opt-22 --linalg-generalize-named-ops --sparse-reinterpret-map --sparsification=parallelization-strategy=dense-outer-loop --sparse-gpu-codegen=num-threads=256 tests/kernels/spmv_csr.mlir
// (function @kernel): MLIR 22's sparse GPU code generation, a text of the
// IR fuzzer's corpus (xsparse/testing/ir_mutants.py).
#sparse = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
module attributes {gpu.container_module} {
  gpu.module @sparse_kernels {
    gpu.func @kernel0(%arg0: index, %arg1: memref<?xf64>, %arg2: memref<?xindex>, %arg3: memref<?xindex>, %arg4: memref<?xf64>, %arg5: memref<?xf64>) kernel {
      %c1 = arith.constant 1 : index
      %block_id_x = gpu.block_id  x
      %block_dim_x = gpu.block_dim  x
      %thread_id_x = gpu.thread_id  x
      %grid_dim_x = gpu.grid_dim  x
      %0 = arith.muli %block_id_x, %block_dim_x : index
      %1 = arith.addi %0, %thread_id_x : index
      %2 = arith.muli %block_dim_x, %grid_dim_x : index
      scf.for %arg6 = %1 to %arg0 step %2 {
        %3 = memref.load %arg1[%arg6] : memref<?xf64>
        %4 = memref.load %arg2[%arg6] : memref<?xindex>
        %5 = arith.addi %arg6, %c1 : index
        %6 = memref.load %arg2[%5] : memref<?xindex>
        %7 = scf.for %arg7 = %4 to %6 step %c1 iter_args(%arg8 = %3) -> (f64) {
          %8 = memref.load %arg3[%arg7] : memref<?xindex>
          %9 = memref.load %arg4[%arg7] : memref<?xf64>
          %10 = memref.load %arg5[%8] : memref<?xf64>
          %11 = arith.mulf %9, %10 : f64
          %12 = arith.addf %arg8, %11 : f64
          scf.yield %12 : f64
        } {"Emitted from" = "linalg.generic"}
        memref.store %7, %arg1[%arg6] : memref<?xf64>
      }
      gpu.return
    }
  }
  func.func @kernel(%arg0: tensor<?x?xf64, #sparse>, %arg1: tensor<?xf64>, %arg2: tensor<?xf64>) -> tensor<?xf64> {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %0 = sparse_tensor.values %arg0 : tensor<?x?xf64, #sparse> to memref<?xf64>
    %1 = bufferization.to_buffer %arg1 : tensor<?xf64> to memref<?xf64>
    %2 = bufferization.to_buffer %arg2 : tensor<?xf64> to memref<?xf64>
    %3 = sparse_tensor.lvl %arg0, %c0 : tensor<?x?xf64, #sparse>
    %4 = sparse_tensor.positions %arg0 {level = 1 : index} : tensor<?x?xf64, #sparse> to memref<?xindex>
    %5 = sparse_tensor.coordinates %arg0 {level = 1 : index} : tensor<?x?xf64, #sparse> to memref<?xindex>
    %6 = gpu.wait async
    %dim = memref.dim %2, %c0 : memref<?xf64>
    %memref, %asyncToken = gpu.alloc async [%6] (%dim) : memref<?xf64>
    %7 = gpu.memcpy async [%asyncToken] %memref, %2 : memref<?xf64>, memref<?xf64>
    %8 = gpu.wait async
    %dim_0 = memref.dim %4, %c0 : memref<?xindex>
    %memref_1, %asyncToken_2 = gpu.alloc async [%8] (%dim_0) : memref<?xindex>
    %9 = gpu.memcpy async [%asyncToken_2] %memref_1, %4 : memref<?xindex>, memref<?xindex>
    %10 = gpu.wait async
    %dim_3 = memref.dim %5, %c0 : memref<?xindex>
    %memref_4, %asyncToken_5 = gpu.alloc async [%10] (%dim_3) : memref<?xindex>
    %11 = gpu.memcpy async [%asyncToken_5] %memref_4, %5 : memref<?xindex>, memref<?xindex>
    %12 = gpu.wait async
    %dim_6 = memref.dim %0, %c0 : memref<?xf64>
    %memref_7, %asyncToken_8 = gpu.alloc async [%12] (%dim_6) : memref<?xf64>
    %13 = gpu.memcpy async [%asyncToken_8] %memref_7, %0 : memref<?xf64>, memref<?xf64>
    %14 = gpu.wait async
    %dim_9 = memref.dim %1, %c0 : memref<?xf64>
    %memref_10, %asyncToken_11 = gpu.alloc async [%14] (%dim_9) : memref<?xf64>
    %15 = gpu.memcpy async [%asyncToken_11] %memref_10, %1 : memref<?xf64>, memref<?xf64>
    gpu.wait [%7, %9, %11, %13, %15]
    %16 = gpu.launch_func async @sparse_kernels::@kernel0 blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)  args(%3 : index, %memref : memref<?xf64>, %memref_1 : memref<?xindex>, %memref_4 : memref<?xindex>, %memref_7 : memref<?xf64>, %memref_10 : memref<?xf64>)
    %17 = gpu.memcpy async [%16] %2, %memref : memref<?xf64>, memref<?xf64>
    %18 = gpu.dealloc async [%17] %memref : memref<?xf64>
    %19 = gpu.wait async
    %20 = gpu.dealloc async [%19] %memref_1 : memref<?xindex>
    %21 = gpu.wait async
    %22 = gpu.dealloc async [%21] %memref_4 : memref<?xindex>
    %23 = gpu.wait async
    %24 = gpu.dealloc async [%23] %memref_7 : memref<?xf64>
    %25 = gpu.wait async
    %26 = gpu.dealloc async [%25] %memref_10 : memref<?xf64>
    gpu.wait [%18, %20, %22, %24, %26]
    %27 = bufferization.to_tensor %2 : memref<?xf64> to tensor<?xf64>
    return %27 : tensor<?xf64>
  }
}
