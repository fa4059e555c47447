// vector as xDSL 0.74 reads it: vector.print has no custom syntax there.
func.func @load_print(%m : memref<8xf32>, %i : index, %f : f32) {
  %v = vector.load %m[%i] : memref<8xf32>, vector<4xf32>
  "vector.print"(%v) : (vector<4xf32>) -> ()
  "vector.print"(%f) : (f32) -> ()
  func.return
}
// -----
func.func @print_custom_syntax(%f : f32) {
  vector.print %f : f32
  func.return
}
// -----
// MLIR's vector.step, which xDSL 0.74 does not register.
func.func @step() -> vector<4xindex> {
  %0 = "vector.step"() : () -> vector<4xindex>
  func.return %0 : vector<4xindex>
}
