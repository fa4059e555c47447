// x = sum of all entries of A (CSR), reduced into a 0-d tensor.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#sum = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %x: tensor<f64>) -> tensor<f64> {
  %0 = linalg.generic #sum ins(%a : tensor<?x?xf64, #CSR>) outs(%x : tensor<f64>) {
  ^bb0(%av: f64, %xv: f64):
    %s = arith.addf %xv, %av : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  return %0 : tensor<f64>
}
