// x = select(a, a > 0): the stored values of a that are positive.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#ew1 = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %x: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.generic #ew1 ins(%a : tensor<?x?xf64, #CSR>) outs(%x : tensor<?x?xf64>) {
  ^bb0(%av: f64, %xv: f64):
    %r = sparse_tensor.select %av : f64 {
      ^bb0(%p: f64):
        %z = arith.constant 0.0 : f64
        %c = arith.cmpf ogt, %p, %z : f64
        sparse_tensor.yield %c : i1
    }
    linalg.yield %r : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}
