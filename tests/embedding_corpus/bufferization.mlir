// bufferization as xDSL 0.74 reads it.
func.func @bufferization(%t : tensor<4xf32>, %m : memref<4xf32>) -> tensor<4xf32> {
  %a = bufferization.alloc_tensor() : tensor<4xf32>
  %b = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  %c = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>
  func.return %b : tensor<4xf32>
}
// -----
// MLIR's bufferization.dealloc_tensor, which xDSL 0.74 does not register.
func.func @dealloc_tensor(%t : tensor<4xf32>) {
  bufferization.dealloc_tensor %t : tensor<4xf32>
  func.return
}
