// x = unary(a): exp(a) where a is stored, 1 where it is not (dense result).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#ew1 = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %x: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.generic #ew1 ins(%a : tensor<?x?xf64, #CSR>) outs(%x : tensor<?x?xf64>) {
  ^bb0(%av: f64, %xv: f64):
    %r = sparse_tensor.unary %av : f64 to f64
      present = {
      ^bb0(%p: f64):
        %e = math.exp %p : f64
        sparse_tensor.yield %e : f64
      }
      absent = {
        %one = arith.constant 1.0 : f64
        sparse_tensor.yield %one : f64
      }
    linalg.yield %r : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}
