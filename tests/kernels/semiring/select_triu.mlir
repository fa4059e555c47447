// x = select(a, j >= i) * 2: the upper triangle of a, doubled (the predicate
// uses the loop indices; the product keeps the selection).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#ew1 = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %x: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %two = arith.constant 2.0 : f64
  %0 = linalg.generic #ew1 ins(%a : tensor<?x?xf64, #CSR>) outs(%x : tensor<?x?xf64>) {
  ^bb0(%av: f64, %xv: f64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %r = sparse_tensor.select %av : f64 {
      ^bb0(%p: f64):
        %c = arith.cmpi uge, %j, %i : index
        sparse_tensor.yield %c : i1
    }
    %d = arith.mulf %r, %two : f64
    linalg.yield %d : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}
