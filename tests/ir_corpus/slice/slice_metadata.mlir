// A dynamically sliced DCSR tensor: its buffers, its slices' offsets and
// strides, and the standalone #sparse_tensor<slice(...)> attribute as an
// alias, an encoding's dimension and a function's attributes.
#cols = #sparse_tensor<slice(?, 4, ?)>
#DCSR_SLICE = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(?, ?, 1)>, j : #cols) -> (i : compressed, j : compressed), posWidth = 32 }>
func.func @kernel(%t: tensor<?x4xf32, #DCSR_SLICE>) -> (index, index, index, index) attributes {window = #cols, windows = [#sparse_tensor<slice(0, 2, 3)>, #sparse_tensor<slice(?, ?, ?)>]} {
  %c1 = arith.constant 1 : index
  %o0 = sparse_tensor.slice.offset %t at 0 : tensor<?x4xf32, #DCSR_SLICE>
  %s1 = sparse_tensor.slice.stride %t at 1 : tensor<?x4xf32, #DCSR_SLICE>
  %n = sparse_tensor.lvl %t, %c1 : tensor<?x4xf32, #DCSR_SLICE>
  %p = sparse_tensor.positions %t {level = 1 : index} : tensor<?x4xf32, #DCSR_SLICE> to memref<?xi32>
  %v = sparse_tensor.values %t : tensor<?x4xf32, #DCSR_SLICE> to memref<?xf32>
  %e = sparse_tensor.number_of_entries %t : tensor<?x4xf32, #DCSR_SLICE>
  return %o0, %s1, %n, %e : index, index, index, index
}
