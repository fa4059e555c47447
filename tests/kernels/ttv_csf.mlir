// Y(i,j) = sum_k A(i,j,k) v(k) with A in CSF (all levels compressed).
#CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>
#ttv = {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @kernel(%a: tensor<?x?x?xf64, #CSF>, %v: tensor<?xf64>, %y: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.generic #ttv ins(%a, %v : tensor<?x?x?xf64, #CSF>, tensor<?xf64>) outs(%y : tensor<?x?xf64>) {
  ^bb0(%av: f64, %vv: f64, %yv: f64):
    %m = arith.mulf %av, %vv : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}
