// llvm casts, select and getelementptr as xDSL 0.74 reads them: scalar
// conditions and indices; vector ones fail its verifier.
func.func @llvm(%a : i32, %c : i1, %p : !llvm.ptr, %v : vector<4xi32>) -> (i64, f32, i32, !llvm.ptr, vector<4xi64>) {
  %0 = llvm.zext %a : i32 to i64
  %1 = llvm.sitofp %a : i32 to f32
  %2 = llvm.select %c, %a, %a : i1, i32
  %3 = llvm.getelementptr %p[%a] : (!llvm.ptr, i32) -> !llvm.ptr, f32
  %4 = llvm.sext %v : vector<4xi32> to vector<4xi64>
  %5 = llvm.trunc %0 : i64 to i32
  %6 = llvm.bitcast %1 : f32 to i32
  func.return %0, %1, %2, %3, %4 : i64, f32, i32, !llvm.ptr, vector<4xi64>
}
// -----
func.func @select_vector_condition(%c : vector<4xi1>, %a : vector<4xi32>) -> vector<4xi32> {
  %0 = llvm.select %c, %a, %a : vector<4xi1>, vector<4xi32>
  func.return %0 : vector<4xi32>
}
// -----
func.func @getelementptr_vector_indices(%p : !llvm.ptr, %i : vector<4xi64>) -> vector<4x!llvm.ptr> {
  %0 = llvm.getelementptr %p[%i] : (!llvm.ptr, vector<4xi64>) -> vector<4x!llvm.ptr>, f32
  func.return %0 : vector<4x!llvm.ptr>
}
// -----
// MLIR's llvm.mlir.poison and llvm.uitofp, which xDSL 0.74 does not register.
func.func @poison(%a : i32) -> (i32, f32) {
  %0 = "llvm.mlir.poison"() : () -> i32
  %1 = "llvm.uitofp"(%a) : (i32) -> f32
  func.return %0, %1 : i32, f32
}
