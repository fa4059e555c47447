// x = binary(a, b) with only an overlap case: max(a, b) where both are stored
// (an intersection).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#ew2 = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64, #CSR>, %x: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.generic #ew2 ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64, #CSR>) outs(%x : tensor<?x?xf64>) {
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %r = sparse_tensor.binary %av, %bv : f64, f64 to f64
      overlap = {
      ^bb0(%p: f64, %q: f64):
        %m = arith.maximumf %p, %q : f64
        sparse_tensor.yield %m : f64
      }
      left = {}
      right = {}
    linalg.yield %r : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}
