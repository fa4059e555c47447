// x(i) = min over the positive stored a(i, j): a custom reduction over a
// selection (an entry the predicate drops leaves the reduction as it is).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#rows = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>) -> tensor<?xf64> {
  %id = arith.constant 0x7FF0000000000000 : f64
  %0 = linalg.generic #rows ins(%a : tensor<?x?xf64, #CSR>) outs(%x : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64):
    %s = sparse_tensor.select %av : f64 {
      ^bb0(%p: f64):
        %z = arith.constant 0.0 : f64
        %c = arith.cmpf ogt, %p, %z : f64
        sparse_tensor.yield %c : i1
    }
    %r = sparse_tensor.reduce %xv, %s, %id : f64 {
      ^bb0(%p: f64, %q: f64):
        %m = arith.minimumf %p, %q : f64
        sparse_tensor.yield %m : f64
    }
    linalg.yield %r : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}
