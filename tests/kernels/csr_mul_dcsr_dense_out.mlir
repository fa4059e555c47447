// C = A .* B with A in CSR, B in DCSR and C dense.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
#mul = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64, #DCSR>, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.generic #mul ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64, #DCSR>) outs(%c : tensor<?x?xf64>) {
  ^bb0(%av: f64, %bv: f64, %cv: f64):
    %m = arith.mulf %av, %bv : f64
    linalg.yield %m : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}
