// y = A x with A in spmv_csr_f32_w32.
#ENC = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
#spmv = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @kernel(%a: tensor<?x?xf32, #ENC>, %x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %0 = linalg.generic #spmv ins(%a, %x : tensor<?x?xf32, #ENC>, tensor<?xf32>) outs(%y : tensor<?xf32>) {
  ^bb0(%av: f32, %xv: f32, %yv: f32):
    %m = arith.mulf %av, %xv : f32
    %s = arith.addf %yv, %m : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
