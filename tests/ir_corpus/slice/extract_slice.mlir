// The sum of a strided window of a CSR matrix, taken by tensor.extract_slice;
// the window's encoding names the slice by a standalone slice attribute.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#rows = #sparse_tensor<slice(2, 4, 1)>
#Slice = #sparse_tensor.encoding<{ map = (i : #rows, j : #sparse_tensor<slice(1, 3, 2)>) -> (i : dense, j : compressed) }>
#sum = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
func.func @kernel(%a: tensor<8x8xf64, #CSR>, %s: tensor<f64>) -> tensor<f64> {
  %w = tensor.extract_slice %a[2, 1] [4, 3] [1, 2] : tensor<8x8xf64, #CSR> to tensor<4x3xf64, #Slice>
  %0 = linalg.generic #sum ins(%w : tensor<4x3xf64, #Slice>) outs(%s : tensor<f64>) {
  ^bb0(%av: f64, %acc: f64):
    %r = arith.addf %acc, %av : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  return %0 : tensor<f64>
}
