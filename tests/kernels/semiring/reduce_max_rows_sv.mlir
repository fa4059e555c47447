// x(i) = max over the stored a(i, j) into a new sparse vector: a row without
// entries has no entry in x (the reduction inserts only where it saw one).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#rows = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>) -> tensor<?xf64, #SV> {
  %c0 = arith.constant 0 : index
  %id = arith.constant 0xFFF0000000000000 : f64
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR>
  %init = tensor.empty(%d0) : tensor<?xf64, #SV>
  %0 = linalg.generic #rows ins(%a : tensor<?x?xf64, #CSR>) outs(%init : tensor<?xf64, #SV>) {
  ^bb0(%av: f64, %xv: f64):
    %r = sparse_tensor.reduce %xv, %av, %id : f64 {
      ^bb0(%p: f64, %q: f64):
        %m = arith.maximumf %p, %q : f64
        sparse_tensor.yield %m : f64
    }
    linalg.yield %r : f64
  } -> tensor<?xf64, #SV>
  return %0 : tensor<?xf64, #SV>
}
