// B(i,j) = A(i,j) * (i + j) with A in CSR: linalg.index in the body.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#scale = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.generic #scale ins(%a : tensor<?x?xf64, #CSR>) outs(%b : tensor<?x?xf64>) {
  ^bb0(%av: f64, %bv: f64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ij = arith.addi %i, %j : index
    %k = arith.index_cast %ij : index to i64
    %f = arith.sitofp %k : i64 to f64
    %m = arith.mulf %av, %f : f64
    linalg.yield %m : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}
