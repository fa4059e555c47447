// x = unary(a) with only an absent case: -1 where a stores nothing (the
// complement of a's pattern), nothing where it does.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#ew1 = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %x: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %minus = arith.constant -1.0 : f64
  %0 = linalg.generic #ew1 ins(%a : tensor<?x?xf64, #CSR>) outs(%x : tensor<?x?xf64>) {
  ^bb0(%av: f64, %xv: f64):
    %r = sparse_tensor.unary %av : f64 to f64
      present = {}
      absent = {
        sparse_tensor.yield %minus : f64
      }
    linalg.yield %r : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}
