// x = exp(a - b) with a, b sparse: exp(0) = 1 is not zero, so every coordinate is visited.
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#ew = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @kernel(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>, %x: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #ew ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%x : tensor<?xf64>) {
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %d = arith.subf %av, %bv : f64
    %e = math.exp %d : f64
    linalg.yield %e : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}
