// RUN: %xsparse-diagnostics | filecheck %s
//
// The verifier rules of the gpu ops of MLIR 22's sparse GPU code generation
// (xsparse/dialects/gpu_ext.py) that the IR fuzzer's gpu mutants reach, with
// mlir-opt-22's messages (mlir-interop/gpu-invalid.mlir checks that
// mlir-opt-22 rejects each the same way).

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%arg0: memref<?xf32>, %arg1: index) kernel {
      gpu.return
    }
    gpu.func @g(%arg0: memref<?xf32>) {
      gpu.return
    }
  }
  func.func @launch_container(%m: memref<?xf32>, %n: index, %w: memref<?xf64>, %v: memref<4xf32>, %u: memref<5xf32>) {
    gpu.launch_func @nope::@f blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<?xf32>, %n : index)
    return
  }
}
// CHECK: error: 'gpu.launch_func' op kernel container 'nope' is undefined

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%arg0: memref<?xf32>, %arg1: index) kernel {
      gpu.return
    }
    gpu.func @g(%arg0: memref<?xf32>) {
      gpu.return
    }
  }
  func.func @launch_module(%m: memref<?xf32>, %n: index, %w: memref<?xf64>, %v: memref<4xf32>, %u: memref<5xf32>) {
    gpu.launch_func @launch_module::@f blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<?xf32>, %n : index)
    return
  }
}
// CHECK: error: 'gpu.launch_func' op kernel module 'launch_module' is undefined

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%arg0: memref<?xf32>, %arg1: index) kernel {
      gpu.return
    }
    gpu.func @g(%arg0: memref<?xf32>) {
      gpu.return
    }
  }
  func.func @launch_function(%m: memref<?xf32>, %n: index, %w: memref<?xf64>, %v: memref<4xf32>, %u: memref<5xf32>) {
    gpu.launch_func @k::@nope blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<?xf32>, %n : index)
    return
  }
}
// CHECK: error: 'gpu.launch_func' op kernel function '@k::@nope' is undefined

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%arg0: memref<?xf32>, %arg1: index) kernel {
      gpu.return
    }
    gpu.func @g(%arg0: memref<?xf32>) {
      gpu.return
    }
  }
  func.func @launch_not_function(%m: memref<?xf32>, %n: index, %w: memref<?xf64>, %v: memref<4xf32>, %u: memref<5xf32>) {
    gpu.launch_func @k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<?xf32>, %n : index)
    return
  }
}
// CHECK: error: 'gpu.launch_func' op referenced kernel '@k' is not a function

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%arg0: memref<?xf32>, %arg1: index) kernel {
      gpu.return
    }
    gpu.func @g(%arg0: memref<?xf32>) {
      gpu.return
    }
  }
  func.func @launch_not_kernel(%m: memref<?xf32>, %n: index, %w: memref<?xf64>, %v: memref<4xf32>, %u: memref<5xf32>) {
    gpu.launch_func @k::@g blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<?xf32>)
    return
  }
}
// CHECK: error: 'gpu.launch_func' op kernel function is missing the 'gpu.kernel' attribute

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%arg0: memref<?xf32>, %arg1: index) kernel {
      gpu.return
    }
    gpu.func @g(%arg0: memref<?xf32>) {
      gpu.return
    }
  }
  func.func @launch_operand_count(%m: memref<?xf32>, %n: index, %w: memref<?xf64>, %v: memref<4xf32>, %u: memref<5xf32>) {
    gpu.launch_func @k::@f blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<?xf32>)
    return
  }
}
// CHECK: error: 'gpu.launch_func' op got 1 kernel operands but expected 2

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%arg0: memref<?xf32>, %arg1: index) kernel {
      gpu.return
    }
    gpu.func @g(%arg0: memref<?xf32>) {
      gpu.return
    }
  }
  func.func @launch_operand_type(%m: memref<?xf32>, %n: index, %w: memref<?xf64>, %v: memref<4xf32>, %u: memref<5xf32>) {
    gpu.launch_func @k::@f blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%n : index, %m : memref<?xf32>)
    return
  }
}
// CHECK: error: 'gpu.launch_func' op type of function argument 0 does not match

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%arg0: memref<?xf32>, %arg1: index) kernel {
      gpu.return
    }
    gpu.func @g(%arg0: memref<?xf32>) {
      gpu.return
    }
  }
  func.func @alloc_sizes(%m: memref<?xf32>, %n: index, %w: memref<?xf64>, %v: memref<4xf32>, %u: memref<5xf32>) {
    %b = gpu.alloc (%n, %n) : memref<?xf32>
    return
  }
}
// CHECK: error: 'gpu.alloc' op incorrect number of dynamic sizes, has 2, expected 1

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%arg0: memref<?xf32>, %arg1: index) kernel {
      gpu.return
    }
    gpu.func @g(%arg0: memref<?xf32>) {
      gpu.return
    }
  }
  func.func @alloc_symbols(%m: memref<?xf32>, %n: index, %w: memref<?xf64>, %v: memref<4xf32>, %u: memref<5xf32>) {
    %b = gpu.alloc (%n)[%n] : memref<?xf32, strided<[?], offset: ?>>
    return
  }
}
// CHECK: error: 'gpu.alloc' op symbol operand count does not equal memref symbol count

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%arg0: memref<?xf32>, %arg1: index) kernel {
      gpu.return
    }
    gpu.func @g(%arg0: memref<?xf32>) {
      gpu.return
    }
  }
  func.func @memcpy_element_type(%m: memref<?xf32>, %n: index, %w: memref<?xf64>, %v: memref<4xf32>, %u: memref<5xf32>) {
    gpu.memcpy %m, %w : memref<?xf32>, memref<?xf64>
    return
  }
}
// CHECK: error: 'gpu.memcpy' op arguments have incompatible element type

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%arg0: memref<?xf32>, %arg1: index) kernel {
      gpu.return
    }
    gpu.func @g(%arg0: memref<?xf32>) {
      gpu.return
    }
  }
  func.func @memcpy_shape(%m: memref<?xf32>, %n: index, %w: memref<?xf64>, %v: memref<4xf32>, %u: memref<5xf32>) {
    gpu.memcpy %v, %u : memref<4xf32>, memref<5xf32>
    return
  }
}
// CHECK: error: 'gpu.memcpy' op arguments have incompatible shape

// -----

module {
  gpu.module @k {
    gpu.func @f() kernel {
      gpu.return
    }
  }
  func.func @launch_container_module(%n: index) {
    gpu.launch_func @k::@f blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}
// CHECK: error: 'gpu.launch_func' op expected the closest surrounding module to have the 'gpu.container_module' attribute

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f() kernel {
      %0 = gpu.thread_id  x upper_bound 9223372036854775808
      gpu.return
    }
  }
}
// CHECK: error: {{('gpu.thread_id' op )?}}integer constant out of range for attribute
