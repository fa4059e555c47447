// arith as xDSL 0.74 reads it: casts on scalars (and vectors, where xDSL
// accepts them), a bitcast whose widths differ (xDSL's verifier rejects it, on
// scalars and on vectors), and arith.select with an i1 and a vector condition.
func.func @casts(%a : f16, %b : i32, %c : index, %v : vector<4xf16>) -> (f32, i64, index, f32, f32, vector<4xf32>) {
  %0 = arith.extf %a : f16 to f32
  %1 = arith.extsi %b : i32 to i64
  %2 = arith.index_cast %b : i32 to index
  %3 = arith.sitofp %b : i32 to f32
  %4 = arith.bitcast %b : i32 to f32
  %5 = arith.extf %v : vector<4xf16> to vector<4xf32>
  %6 = arith.trunci %1 : i64 to i32
  %7 = arith.fptosi %0 : f32 to i32
  func.return %0, %1, %2, %3, %4, %5 : f32, i64, index, f32, f32, vector<4xf32>
}
// -----
func.func @bitcast_widths(%a : i32) -> i64 {
  %0 = arith.bitcast %a : i32 to i64
  func.return %0 : i64
}
// -----
func.func @bitcast_vector_widths(%a : vector<2xi32>) -> vector<2xi64> {
  %0 = arith.bitcast %a : vector<2xi32> to vector<2xi64>
  func.return %0 : vector<2xi64>
}
// -----
func.func @select(%c : i1, %a : f32, %b : f32) -> f32 {
  %0 = arith.select %c, %a, %b : f32
  func.return %0 : f32
}
// -----
func.func @select_vector_condition(%c : vector<4xi1>, %a : vector<4xf32>, %b : vector<4xf32>) -> vector<4xf32> {
  %0 = "arith.select"(%c, %a, %b) : (vector<4xi1>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  func.return %0 : vector<4xf32>
}
// -----
// MLIR's arith.index_castui, which xDSL 0.74 does not register.
func.func @index_castui(%a : i32) -> index {
  %0 = "arith.index_castui"(%a) : (i32) -> index
  func.return %0 : index
}
