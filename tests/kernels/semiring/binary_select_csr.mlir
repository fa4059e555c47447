// binary over a selection into a new CSR matrix: a * b where a > 0 and b is
// stored, a where a > 0 alone, b where b is stored and a is not kept.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#ew2 = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSR> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf64, #CSR>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf64, #CSR>
  %0 = linalg.generic #ew2 ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64, #CSR>) outs(%init : tensor<?x?xf64, #CSR>) {
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %s = sparse_tensor.select %av : f64 {
      ^bb0(%p: f64):
        %z = arith.constant 0.0 : f64
        %c = arith.cmpf ogt, %p, %z : f64
        sparse_tensor.yield %c : i1
    }
    %r = sparse_tensor.binary %s, %bv : f64, f64 to f64
      overlap = {
      ^bb0(%p: f64, %q: f64):
        %m = arith.mulf %p, %q : f64
        sparse_tensor.yield %m : f64
      }
      left = identity
      right = identity
    linalg.yield %r : f64
  } -> tensor<?x?xf64, #CSR>
  return %0 : tensor<?x?xf64, #CSR>
}
