// REQUIRES: mlir-opt
//
// mlir-opt-22's sparse GPU code generation, read by xsparse and printed back:
// the cuSPARSE calls (num-threads=0) and the outlined kernels of
// inputs/sparse_gpu_kernels.mlir. For each output of mlir-opt-22:
//  1. mlir-opt-22 reads xsparse's custom output and prints what it prints for it;
//  2. the same for xsparse's generic output;
//  3. xsparse reads mlir-opt-22's generic output (properties, segment sizes) back;
//  4. every gpu op line xsparse prints is byte for byte the line mlir-opt-22
//     prints (SSA names aside).
//
// RUN: %mlir-opt --linalg-generalize-named-ops --sparse-gpu-codegen=num-threads=0 %S/inputs/sparse_gpu_kernels.mlir > %t.lib.mlir
// RUN: grep -o 'gpu\.[a-z_0-9]*' %t.lib.mlir | sort -u | filecheck %s --check-prefix=LIB
// RUN: xsparse-opt %t.lib.mlir | %mlir-opt > %t.lib.a
// RUN: %mlir-opt %t.lib.mlir > %t.lib.b
// RUN: diff %t.lib.a %t.lib.b
// RUN: xsparse-opt --print-op-generic %t.lib.mlir | %mlir-opt | diff - %t.lib.b
// RUN: %mlir-opt --mlir-print-op-generic %t.lib.mlir | xsparse-opt | %mlir-opt | diff - %t.lib.b
// RUN: xsparse-opt %t.lib.mlir | grep -oE '(^ *|= )gpu\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' > %t.lib.x
// RUN: %mlir-opt --mlir-print-local-scope %t.lib.mlir | grep -oE '(^ *|= )gpu\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' > %t.lib.m
// RUN: diff %t.lib.x %t.lib.m
// RUN: test -s %t.lib.m
//
// RUN: %mlir-opt --linalg-generalize-named-ops --sparse-reinterpret-map --sparsification=parallelization-strategy=dense-outer-loop --sparse-gpu-codegen=num-threads=256 %S/inputs/sparse_gpu_kernels.mlir > %t.kernels.mlir
// RUN: grep -o 'gpu\.[a-z_0-9]*' %t.kernels.mlir | sort -u | filecheck %s --check-prefix=KERNELS
// RUN: xsparse-opt %t.kernels.mlir | %mlir-opt > %t.kernels.a
// RUN: %mlir-opt %t.kernels.mlir > %t.kernels.b
// RUN: diff %t.kernels.a %t.kernels.b
// RUN: xsparse-opt --print-op-generic %t.kernels.mlir | %mlir-opt | diff - %t.kernels.b
// RUN: %mlir-opt --mlir-print-op-generic %t.kernels.mlir | xsparse-opt | %mlir-opt | diff - %t.kernels.b
// RUN: xsparse-opt %t.kernels.mlir | grep -oE '(^ *|= )gpu\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' > %t.kernels.x
// RUN: %mlir-opt --mlir-print-local-scope %t.kernels.mlir | grep -oE '(^ *|= )gpu\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' > %t.kernels.m
// RUN: diff %t.kernels.x %t.kernels.m
// RUN: test -s %t.kernels.m

// The gpu ops that the library calls are made of:
// LIB:      gpu.alloc
// LIB-NEXT: gpu.create_2to4_spmat
// LIB-NEXT: gpu.create_bsr
// LIB-NEXT: gpu.create_coo
// LIB-NEXT: gpu.create_csc
// LIB-NEXT: gpu.create_csr
// LIB-NEXT: gpu.create_dn_tensor
// LIB-NEXT: gpu.dealloc
// LIB-NEXT: gpu.destroy_dn_tensor
// LIB-NEXT: gpu.destroy_sp_mat
// LIB-NEXT: gpu.memcpy
// LIB-NEXT: gpu.sddmm
// LIB-NEXT: gpu.sddmm_buffer_size
// LIB-NEXT: gpu.set_csr_pointers
// LIB-NEXT: gpu.spgemm_copy
// LIB-NEXT: gpu.spgemm_create_descr
// LIB-NEXT: gpu.spgemm_destroy_descr
// LIB-NEXT: gpu.spgemm_work_estimation_or_compute
// LIB-NEXT: gpu.spmat_get_size
// LIB-NEXT: gpu.spmm
// LIB-NEXT: gpu.spmm_buffer_size
// LIB-NEXT: gpu.spmv
// LIB-NEXT: gpu.spmv_buffer_size
// LIB-NEXT: gpu.wait

// And the outlined kernels:
// KERNELS:      gpu.alloc
// KERNELS-NEXT: gpu.block_dim
// KERNELS-NEXT: gpu.block_id
// KERNELS-NEXT: gpu.container_module
// KERNELS-NEXT: gpu.dealloc
// KERNELS-NEXT: gpu.func
// KERNELS-NEXT: gpu.grid_dim
// KERNELS-NEXT: gpu.launch_func
// KERNELS-NEXT: gpu.memcpy
// KERNELS-NEXT: gpu.module
// KERNELS-NEXT: gpu.return
// KERNELS-NEXT: gpu.thread_id
// KERNELS-NEXT: gpu.wait
