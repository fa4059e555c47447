// select updating a CSR matrix in place: an entry cannot be dropped there, so
// a value the predicate rejects becomes an explicit zero (MLIR 22 leaves this
// kernel unsparsified).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#ew0 = {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSR> {
  %0 = linalg.generic #ew0 outs(%a : tensor<?x?xf64, #CSR>) {
  ^bb0(%av: f64):
    %r = sparse_tensor.select %av : f64 {
      ^bb0(%p: f64):
        %z = arith.constant 0.0 : f64
        %c = arith.cmpf ogt, %p, %z : f64
        sparse_tensor.yield %c : i1
    }
    linalg.yield %r : f64
  } -> tensor<?x?xf64, #CSR>
  return %0 : tensor<?x?xf64, #CSR>
}
