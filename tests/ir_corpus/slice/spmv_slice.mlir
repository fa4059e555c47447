// y = A x with A a strided window of a CSR matrix.
#CSR_SLICE = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(1, 4, 1)>, j : #sparse_tensor<slice(0, 4, 2)>) -> (i : dense, j : compressed) }>
#spmv = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @kernel(%a: tensor<4x4xf64, #CSR_SLICE>, %x: tensor<4xf64>, %y: tensor<4xf64>) -> tensor<4xf64> {
  %0 = linalg.generic #spmv ins(%a, %x : tensor<4x4xf64, #CSR_SLICE>, tensor<4xf64>) outs(%y : tensor<4xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  } -> tensor<4xf64>
  return %0 : tensor<4xf64>
}
