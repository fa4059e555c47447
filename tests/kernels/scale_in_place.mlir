// A = 2 A with A in CSR, updated in place: the output has the input's sparsity.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#scale = {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSR> {
  %c = arith.constant 2.0 : f64
  %0 = linalg.generic #scale outs(%a : tensor<?x?xf64, #CSR>) {
  ^bb0(%x: f64):
    %m = arith.mulf %x, %c : f64
    linalg.yield %m : f64
  } -> tensor<?x?xf64, #CSR>
  return %0 : tensor<?x?xf64, #CSR>
}
