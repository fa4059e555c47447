// memref as xDSL 0.74 reads it: memref.cast has no custom syntax there.
func.func @memref(%m : memref<4xf32>, %i : index) -> memref<?xf32> {
  %a = memref.alloc() : memref<4xf32>
  %v = memref.load %m[%i] : memref<4xf32>
  memref.store %v, %a[%i] : memref<4xf32>
  %c = "memref.cast"(%a) : (memref<4xf32>) -> memref<?xf32>
  func.return %c : memref<?xf32>
}
// -----
func.func @cast_custom_syntax(%m : memref<4xf32>) {
  %c = memref.cast %m : memref<4xf32> to memref<*xf32>
  func.return
}
// -----
// MLIR's memref.realloc, which xDSL 0.74 does not register.
func.func @realloc(%m : memref<4xf32>) -> memref<8xf32> {
  %r = "memref.realloc"(%m) : (memref<4xf32>) -> memref<8xf32>
  func.return %r : memref<8xf32>
}
