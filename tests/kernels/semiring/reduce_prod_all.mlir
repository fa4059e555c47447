// x = the product of the stored values of a (a custom reduction over both
// loops from the identity 1: the absent zeros do not annihilate it).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#all = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %x: tensor<f64>) -> tensor<f64> {
  %0 = linalg.generic #all ins(%a : tensor<?x?xf64, #CSR>) outs(%x : tensor<f64>) {
  ^bb0(%av: f64, %xv: f64):
    %one = arith.constant 1.0 : f64
    %r = sparse_tensor.reduce %xv, %av, %one : f64 {
      ^bb0(%p: f64, %q: f64):
        %m = arith.mulf %p, %q : f64
        sparse_tensor.yield %m : f64
    }
    linalg.yield %r : f64
  } -> tensor<f64>
  return %0 : tensor<f64>
}
