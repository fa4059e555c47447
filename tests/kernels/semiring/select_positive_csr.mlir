// select into a new CSR matrix: the positive stored values of a, inserted
// where the predicate holds (a subset of a's entries).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#ew1 = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSR> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf64, #CSR>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf64, #CSR>
  %0 = linalg.generic #ew1 ins(%a : tensor<?x?xf64, #CSR>) outs(%init : tensor<?x?xf64, #CSR>) {
  ^bb0(%av: f64, %xv: f64):
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
