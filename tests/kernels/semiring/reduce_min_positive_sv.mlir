// x(i) = min over the positive stored a(i, j) into a new sparse vector: a row
// whose entries all fail the predicate has no entry in x (only a kept entry
// marks the reduction visited). MLIR 22 leaves this kernel unsparsified.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#rows = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @kernel(%a: tensor<?x?xf64, #CSR>) -> tensor<?xf64, #SV> {
  %c0 = arith.constant 0 : index
  %id = arith.constant 0x7FF0000000000000 : f64
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR>
  %init = tensor.empty(%d0) : tensor<?xf64, #SV>
  %0 = linalg.generic #rows ins(%a : tensor<?x?xf64, #CSR>) outs(%init : tensor<?xf64, #SV>) {
  ^bb0(%av: f64, %xv: f64):
    %s = sparse_tensor.select %av : f64 {
      ^bb0(%p: f64):
        %z = arith.constant 0.0 : f64
        %c = arith.cmpf ogt, %p, %z : f64
        sparse_tensor.yield %c : i1
    }
    %r = sparse_tensor.reduce %xv, %s, %id : f64 {
      ^bb0(%p: f64, %q: f64):
        %m = arith.minimumf %p, %q : f64
        sparse_tensor.yield %m : f64
    }
    linalg.yield %r : f64
  } -> tensor<?xf64, #SV>
  return %0 : tensor<?xf64, #SV>
}
