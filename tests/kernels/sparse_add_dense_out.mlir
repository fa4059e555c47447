// x = a + b with a, b sparse vectors and x dense: a union.
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#add = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @kernel(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>, %x: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #add ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%x : tensor<?xf64>) {
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %s = arith.addf %av, %bv : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}
