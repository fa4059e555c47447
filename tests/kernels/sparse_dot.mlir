// x = sum_i a(i) * b(i) with a, b sparse vectors: an intersection.
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#dot = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
func.func @kernel(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>, %x: tensor<f64>) -> tensor<f64> {
  %0 = linalg.generic #dot ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%x : tensor<f64>) {
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %m = arith.mulf %av, %bv : f64
    %s = arith.addf %xv, %m : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  return %0 : tensor<f64>
}
