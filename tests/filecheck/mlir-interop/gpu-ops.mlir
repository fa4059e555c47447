// The gpu ops that MLIR 22's sparse GPU code generation prints
// (xsparse/dialects/gpu_ext.py), in every form of their syntax: async or not,
// with or without dependencies, transpose modes, launch options. xsparse
// prints them back; mlir-opt-22, when installed, reads xsparse's custom and
// generic output as the input and prints every gpu op line as xsparse does.
//
// RUN: xsparse-opt %s | filecheck %s
// RUN: xsparse-opt %s | xsparse-opt | filecheck %s
// RUN: %if mlir-opt %{ %mlir-opt %s > %t.b %}
// RUN: %if mlir-opt %{ xsparse-opt %s | %mlir-opt | diff - %t.b %}
// RUN: %if mlir-opt %{ xsparse-opt --print-op-generic %s | %mlir-opt | diff - %t.b %}
// RUN: %if mlir-opt %{ %mlir-opt --mlir-print-op-generic %s | xsparse-opt | %mlir-opt | diff - %t.b %}
// RUN: %if mlir-opt %{ xsparse-opt %s | grep -oE '(^ *|= )gpu\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' > %t.x %}
// RUN: %if mlir-opt %{ %mlir-opt --mlir-print-local-scope %s | grep -oE '(^ *|= )gpu\..*' | sed -E 's/^ *(= )?//; s/%%[A-Za-z0-9_-]+(#[0-9]+)?/%%/g' | diff %t.x - %}

module attributes {gpu.container_module} {
  // CHECK-LABEL: gpu.module @kernels {
  gpu.module @kernels {
    gpu.func @helper(%a: f32 {test.tag}, %b: index) -> f32 attributes {test.size = 1 : i32} {
      %t = gpu.thread_id y upper_bound 64
      %g = gpu.grid_dim z
      gpu.return %a : f32
    }
    // CHECK-NEXT: gpu.func @helper(%a: f32 {test.tag}, %b: index) -> f32 attributes {test.size = 1 : i32} {
    // CHECK-NEXT:   %t = gpu.thread_id y upper_bound 64
    // CHECK-NEXT:   %g = gpu.grid_dim z
    // CHECK-NEXT:   gpu.return %a : f32
    // CHECK-NEXT: }

    gpu.func @pair(%a: f32) -> (f32, index) {
      %c = gpu.block_dim x upper_bound 128
      %i = gpu.block_id x
      gpu.return %a, %c : f32, index
    }
    // CHECK-NEXT: gpu.func @pair(%a: f32) -> (f32, index) {
    // CHECK-NEXT:   %c = gpu.block_dim x upper_bound 128
    // CHECK-NEXT:   %i = gpu.block_id x
    // CHECK-NEXT:   gpu.return %a, %c : f32, index
    // CHECK-NEXT: }

    gpu.func @kernel(%m: memref<?xf32>) kernel {
      gpu.return
    }
    // CHECK-NEXT: gpu.func @kernel(%m: memref<?xf32>) kernel {
    // CHECK-NEXT:   gpu.return
    // CHECK-NEXT: }
  }

  // CHECK-LABEL: func.func @host(
  func.func @host(%n: index, %s: index, %m: memref<?xf32>, %sz: i32, %x: i32) {
    %buf = gpu.alloc host_shared (%n) : memref<?xf32>
    %view = gpu.alloc (%n)[%s] : memref<?xf32, strided<[1], offset: ?>>
    %t0 = gpu.wait async
    %b2, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
    gpu.memcpy %buf, %m : memref<?xf32>, memref<?xf32>
    gpu.launch_func @kernels::@kernel blocks in (%x, %x, %x) threads in (%x, %x, %x) : i32 dynamic_shared_memory_size %sz args(%m : memref<?xf32>)
    gpu.launch_func @kernels::@kernel clusters in (%n, %n, %n) blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<?xf32>)
    %t2 = gpu.launch_func async [%t0, %t1] @kernels::@kernel blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<?xf32>)
    %t3 = gpu.dealloc async [%t2] %b2 : memref<4xf32>
    gpu.dealloc %buf : memref<?xf32>
    gpu.wait [%t3]
    gpu.wait
    return
  }
  // CHECK-NEXT: %buf = gpu.alloc host_shared (%n) : memref<?xf32>
  // CHECK-NEXT: %view = gpu.alloc (%n)[%s] : memref<?xf32, strided<[1], offset: ?>>
  // CHECK-NEXT: %t0 = gpu.wait async
  // CHECK-NEXT: %b2, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
  // CHECK-NEXT: gpu.memcpy %buf, %m : memref<?xf32>, memref<?xf32>
  // CHECK-NEXT: gpu.launch_func @kernels::@kernel blocks in (%x, %x, %x) threads in (%x, %x, %x) : i32 dynamic_shared_memory_size %sz args(%m : memref<?xf32>)
  // CHECK-NEXT: gpu.launch_func @kernels::@kernel clusters in (%n, %n, %n) blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<?xf32>)
  // CHECK-NEXT: %t2 = gpu.launch_func async [%t0, %t1] @kernels::@kernel blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<?xf32>)
  // CHECK-NEXT: %t3 = gpu.dealloc async [%t2] %b2 : memref<4xf32>
  // CHECK-NEXT: gpu.dealloc %buf : memref<?xf32>
  // CHECK-NEXT: gpu.wait [%t3]
  // CHECK-NEXT: gpu.wait
  // CHECK-NEXT: func.return

  // The sparse library ops; a NON_TRANSPOSE mode is left out.
  // CHECK-LABEL: func.func @library(
  func.func @library(%t: !gpu.async.token, %a: !gpu.sparse.spmat_handle, %x: !gpu.sparse.dntensor_handle, %y: !gpu.sparse.dntensor_handle, %b: memref<?xi8>, %d: !gpu.sparse.spgemmop_handle, %n: index, %m: memref<?xf32>) {
    %sz, %t2 = gpu.spmv_buffer_size async [%t] %a{TRANSPOSE}, %x, %y into f32
    gpu.spmv %a{CONJUGATE_TRANSPOSE}, %x, %y, %b : memref<?xi8> into f32
    %szs:2 = gpu.spmm_buffer_size %a{TRANSPOSE}, %x{TRANSPOSE}, %y : index, index into f64
    gpu.spmm %a, %x{TRANSPOSE}, %y, %b, %b : memref<?xi8>, memref<?xi8> into f64
    %s2 = gpu.sddmm_buffer_size %x{TRANSPOSE}, %y, %a into f32
    gpu.sddmm %x, %y{NON_TRANSPOSE}, %a, %b : memref<?xi8> into f32
    %s3 = gpu.spgemm_work_estimation_or_compute {COMPUTE} %a{TRANSPOSE}, %a, %a, %d, %n, %b : f32 into memref<?xi8>
    gpu.spgemm_copy %a, %a{TRANSPOSE}, %a, %d : f32
    %r, %c, %z = gpu.spmat_get_size %a
    gpu.set_csr_pointers %a, %m, %m, %m : memref<?xf32>, memref<?xf32>, memref<?xf32>
    %sp = gpu.create_2to4_spmat {PRUNE_ONLY} %n, %n, %m : memref<?xf32>
    %dn = gpu.create_dn_tensor %m, %n : index into memref<?xf32>
    gpu.destroy_dn_tensor %dn
    gpu.destroy_sp_mat %sp
    %desc = gpu.spgemm_create_descr
    gpu.spgemm_destroy_descr %desc
    return
  }
  // CHECK-NEXT: %sz, %t2 = gpu.spmv_buffer_size async [%t] %a{ TRANSPOSE}, %x, %y into f32
  // CHECK-NEXT: gpu.spmv %a{ CONJUGATE_TRANSPOSE}, %x, %y, %b : memref<?xi8> into f32
  // CHECK-NEXT: %{{.*}}, %{{.*}} = gpu.spmm_buffer_size %a{ TRANSPOSE}, %x{ TRANSPOSE}, %y : index, index into f64
  // CHECK-NEXT: gpu.spmm %a, %x{ TRANSPOSE}, %y, %b, %b : memref<?xi8>, memref<?xi8> into f64
  // CHECK-NEXT: %s2 = gpu.sddmm_buffer_size %x{ TRANSPOSE}, %y, %a into f32
  // CHECK-NEXT: gpu.sddmm %x, %y, %a, %b : memref<?xi8> into f32
  // CHECK-NEXT: %s3 = gpu.spgemm_work_estimation_or_compute { COMPUTE} %a{ TRANSPOSE}, %a, %a, %d, %n, %b : f32 into memref<?xi8>
  // CHECK-NEXT: gpu.spgemm_copy %a, %a{ TRANSPOSE}, %a, %d : f32
  // CHECK-NEXT: %r, %c, %z = gpu.spmat_get_size %a
  // CHECK-NEXT: gpu.set_csr_pointers %a, %m, %m, %m : memref<?xf32>, memref<?xf32>, memref<?xf32>
  // CHECK-NEXT: %sp = gpu.create_2to4_spmat { PRUNE_ONLY} %n, %n, %m : memref<?xf32>
  // CHECK-NEXT: %dn = gpu.create_dn_tensor %m, %n : index into memref<?xf32>
  // CHECK-NEXT: gpu.destroy_dn_tensor %dn
  // CHECK-NEXT: gpu.destroy_sp_mat %sp
  // CHECK-NEXT: %desc = gpu.spgemm_create_descr
  // CHECK-NEXT: gpu.spgemm_destroy_descr %desc
  // CHECK-NEXT: func.return
}
