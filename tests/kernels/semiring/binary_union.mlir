// x = binary(a, b): a * b where both are stored, a where only a is, -b where
// only b is (a union; absent elsewhere, so zero in the dense output).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#ew2 = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64, #CSR>, %x: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.generic #ew2 ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64, #CSR>) outs(%x : tensor<?x?xf64>) {
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %r = sparse_tensor.binary %av, %bv : f64, f64 to f64
      overlap = {
      ^bb0(%p: f64, %q: f64):
        %m = arith.mulf %p, %q : f64
        sparse_tensor.yield %m : f64
      }
      left = identity
      right = {
      ^bb0(%q: f64):
        %n = arith.negf %q : f64
        sparse_tensor.yield %n : f64
      }
    linalg.yield %r : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}
