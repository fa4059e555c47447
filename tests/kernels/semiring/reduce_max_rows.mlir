// x(i) = max over the stored a(i, j): a custom reduction that starts at its
// identity, -inf (an empty row gives -inf, as in MLIR).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#rows = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>) -> tensor<?xf64> {
  %id = arith.constant 0xFFF0000000000000 : f64
  %0 = linalg.generic #rows ins(%a : tensor<?x?xf64, #CSR>) outs(%x : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64):
    %r = sparse_tensor.reduce %xv, %av, %id : f64 {
      ^bb0(%p: f64, %q: f64):
        %m = arith.maximumf %p, %q : f64
        sparse_tensor.yield %m : f64
    }
    linalg.yield %r : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}
