// Kernels whose reductions go into inserted sparse outputs.
#CSR0 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#trait0 = {indexing_maps = [affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @sddmm(%s: tensor<?x?xf64, #CSR0>, %a: tensor<?x?xf64>, %b: tensor<?x?xf64>) -> tensor<?x?xf64, #CSR0> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %s, %c0 : tensor<?x?xf64, #CSR0>
  %d1 = tensor.dim %s, %c1 : tensor<?x?xf64, #CSR0>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf64, #CSR0>
  %r = linalg.generic #trait0 ins(%s, %a, %b : tensor<?x?xf64, #CSR0>, tensor<?x?xf64>, tensor<?x?xf64>) outs(%init : tensor<?x?xf64, #CSR0>) {
  ^bb0(%x: f64, %y: f64, %z: f64, %o: f64):
    %m = arith.mulf %y, %z : f64
    %m2 = arith.mulf %x, %m : f64
    %t = arith.addf %o, %m2 : f64
    linalg.yield %t : f64
  } -> tensor<?x?xf64, #CSR0>
  return %r : tensor<?x?xf64, #CSR0>
}

#CSR1 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#SV1 = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#trait1 = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @row_sums(%a: tensor<?x?xf64, #CSR1>) -> tensor<?xf64, #SV1> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR1>
  %init = tensor.empty(%d0) : tensor<?xf64, #SV1>
  %r = linalg.generic #trait1 ins(%a : tensor<?x?xf64, #CSR1>) outs(%init : tensor<?xf64, #SV1>) {
  ^bb0(%x: f64, %o: f64):
    %m = arith.addf %o, %x : f64
    linalg.yield %m : f64
  } -> tensor<?xf64, #SV1>
  return %r : tensor<?xf64, #SV1>
}

#CSR2 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#trait2 = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @spgemm(%a: tensor<?x?xf64, #CSR2>, %b: tensor<?x?xf64, #CSR2>) -> tensor<?x?xf64, #CSR2> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR2>
  %d1 = tensor.dim %b, %c1 : tensor<?x?xf64, #CSR2>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf64, #CSR2>
  %r = linalg.generic #trait2 ins(%a, %b : tensor<?x?xf64, #CSR2>, tensor<?x?xf64, #CSR2>) outs(%init : tensor<?x?xf64, #CSR2>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %o, %m : f64
    linalg.yield %s : f64
  } -> tensor<?x?xf64, #CSR2>
  return %r : tensor<?x?xf64, #CSR2>
}
