// x = binary(a, b) on i32 sparse vectors into a dense i64 vector: a - b
// (widened) where both are stored, a where only a is, nothing where only b is.
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#ew = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @kernel(%a: tensor<?xi32, #SV>, %b: tensor<?xi32, #SV>, %x: tensor<?xi64>) -> tensor<?xi64> {
  %0 = linalg.generic #ew ins(%a, %b : tensor<?xi32, #SV>, tensor<?xi32, #SV>) outs(%x : tensor<?xi64>) {
  ^bb0(%av: i32, %bv: i32, %xv: i64):
    %r = sparse_tensor.binary %av, %bv : i32, i32 to i64
      overlap = {
      ^bb0(%p: i32, %q: i32):
        %p64 = arith.extsi %p : i32 to i64
        %q64 = arith.extsi %q : i32 to i64
        %d = arith.subi %p64, %q64 : i64
        sparse_tensor.yield %d : i64
      }
      left = {
      ^bb0(%p: i32):
        %p64 = arith.extsi %p : i32 to i64
        sparse_tensor.yield %p64 : i64
      }
      right = {}
    linalg.yield %r : i64
  } -> tensor<?xi64>
  return %0 : tensor<?xi64>
}
