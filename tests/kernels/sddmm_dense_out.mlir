// C(i,j) += S(i,j) * sum_k A(i,k) B(k,j): the sampled dense-dense product, S in CSR.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#sddmm = {indexing_maps = [affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @kernel(%s: tensor<?x?xf64, #CSR>, %a: tensor<?x?xf64>, %b: tensor<?x?xf64>, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.generic #sddmm ins(%s, %a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64>, tensor<?x?xf64>) outs(%c : tensor<?x?xf64>) {
  ^bb0(%sv: f64, %av: f64, %bv: f64, %cv: f64):
    %p = arith.mulf %av, %bv : f64
    %q = arith.mulf %sv, %p : f64
    %r = arith.addf %cv, %q : f64
    linalg.yield %r : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}
