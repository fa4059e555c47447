// xDSL's gpu dialect in its generic form; WGSL is xDSL's own backend for it.
// EMIT: wgsl
builtin.module attributes {gpu.container_module} {
  "gpu.module"() <{sym_name = "kernels"}> ({
    "gpu.func"() <{function_type = (memref<8xf32>, memref<8xf32>) -> (), kernel}> ({
    ^bb0(%in : memref<8xf32>, %out : memref<8xf32>):
      %t = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
      %b = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
      %d = "gpu.block_dim"() <{dimension = #gpu<dim x>}> : () -> index
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      %v = memref.load %in[%i] : memref<8xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %out[%i] : memref<8xf32>
      "gpu.return"() : () -> ()
    }) {sym_name = "double"} : () -> ()
  }) : () -> ()
}
// -----
builtin.module attributes {gpu.container_module} {
  "gpu.module"() <{sym_name = "kernels"}> ({
    "gpu.func"() <{function_type = (memref<?xf32>) -> (), kernel}> ({
    ^bb0(%m : memref<?xf32>):
      %g = "gpu.grid_dim"() <{dimension = #gpu<dim y>}> : () -> index
      "gpu.return"() : () -> ()
    }) {sym_name = "k"} : () -> ()
  }) : () -> ()
  func.func @host(%n : index) {
    %one = arith.constant 1 : index
    %tok = "gpu.wait"() : () -> !gpu.async.token
    %mem, %t2 = "gpu.alloc"(%tok, %n) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (!gpu.async.token, index) -> (memref<?xf32>, !gpu.async.token)
    %src = memref.alloc(%n) : memref<?xf32>
    %t3 = "gpu.memcpy"(%t2, %mem, %src) {operandSegmentSizes = array<i32: 1, 1, 1>} : (!gpu.async.token, memref<?xf32>, memref<?xf32>) -> !gpu.async.token
    "gpu.launch_func"(%one, %one, %one, %n, %one, %one, %mem) <{kernel = @kernels::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0>}> : (index, index, index, index, index, index, memref<?xf32>) -> ()
    %t4 = "gpu.dealloc"(%t3, %mem) {operandSegmentSizes = array<i32: 1, 1>} : (!gpu.async.token, memref<?xf32>) -> !gpu.async.token
    "gpu.wait"(%t4) : (!gpu.async.token) -> ()
    func.return
  }
}
// -----
// MLIR's custom syntax for gpu.module, which xDSL 0.74 does not have.
gpu.module @kernels {
}
// -----
// A cuSPARSE op of MLIR's gpu dialect that xDSL 0.74 does not register.
func.func @csr(%n : index, %p : memref<?xindex>, %i : memref<?xindex>, %v : memref<?xf64>) {
  %tok = "gpu.wait"() : () -> !gpu.async.token
  %h, %t = "gpu.create_csr"(%tok, %n, %n, %n, %p, %i, %v) : (!gpu.async.token, index, index, index, memref<?xindex>, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  func.return
}
