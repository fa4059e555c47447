// Kernels for mlir-division-complex.mlir: integer divisions of a sparse vector
// (by a dense one through sparse_tensor.binary, or by a constant as the
// sparsifier takes `x / c` itself) and a sum of quotients.
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#map = affine_map<(i) -> (i)>
#elementwise = {
  indexing_maps = [#map, #map, #map],
  iterator_types = ["parallel"]
}
#unary = {
  indexing_maps = [#map, #map],
  iterator_types = ["parallel"]
}
#sum = {
  indexing_maps = [#map, #map, affine_map<(i) -> ()>],
  iterator_types = ["reduction"]
}

func.func @divsi(%a: tensor<?xi32, #SV>, %b: tensor<?xi32>, %x: tensor<?xi32>) -> tensor<?xi32> {
  %0 = linalg.generic #elementwise ins(%a, %b : tensor<?xi32, #SV>, tensor<?xi32>) outs(%x : tensor<?xi32>) {
  ^bb0(%p: i32, %q: i32, %o: i32):
    %d = sparse_tensor.binary %p, %q : i32, i32 to i32
      overlap = {
        ^bb0(%u: i32, %v: i32):
          %r = arith.divsi %u, %v : i32
          sparse_tensor.yield %r : i32
      }
      left = identity
      right = {}
    linalg.yield %d : i32
  } -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

func.func @divui(%a: tensor<?xi32, #SV>, %b: tensor<?xi32>, %x: tensor<?xi32>) -> tensor<?xi32> {
  %0 = linalg.generic #elementwise ins(%a, %b : tensor<?xi32, #SV>, tensor<?xi32>) outs(%x : tensor<?xi32>) {
  ^bb0(%p: i32, %q: i32, %o: i32):
    %d = sparse_tensor.binary %p, %q : i32, i32 to i32
      overlap = {
        ^bb0(%u: i32, %v: i32):
          %r = arith.divui %u, %v : i32
          sparse_tensor.yield %r : i32
      }
      left = identity
      right = {}
    linalg.yield %d : i32
  } -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

func.func @remsi(%a: tensor<?xi32, #SV>, %b: tensor<?xi32>, %x: tensor<?xi32>) -> tensor<?xi32> {
  %0 = linalg.generic #elementwise ins(%a, %b : tensor<?xi32, #SV>, tensor<?xi32>) outs(%x : tensor<?xi32>) {
  ^bb0(%p: i32, %q: i32, %o: i32):
    %d = sparse_tensor.binary %p, %q : i32, i32 to i32
      overlap = {
        ^bb0(%u: i32, %v: i32):
          %r = arith.remsi %u, %v : i32
          sparse_tensor.yield %r : i32
      }
      left = identity
      right = {}
    linalg.yield %d : i32
  } -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

func.func @remui(%a: tensor<?xi32, #SV>, %b: tensor<?xi32>, %x: tensor<?xi32>) -> tensor<?xi32> {
  %0 = linalg.generic #elementwise ins(%a, %b : tensor<?xi32, #SV>, tensor<?xi32>) outs(%x : tensor<?xi32>) {
  ^bb0(%p: i32, %q: i32, %o: i32):
    %d = sparse_tensor.binary %p, %q : i32, i32 to i32
      overlap = {
        ^bb0(%u: i32, %v: i32):
          %r = arith.remui %u, %v : i32
          sparse_tensor.yield %r : i32
      }
      left = identity
      right = {}
    linalg.yield %d : i32
  } -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

func.func @ceildivsi(%a: tensor<?xi32, #SV>, %b: tensor<?xi32>, %x: tensor<?xi32>) -> tensor<?xi32> {
  %0 = linalg.generic #elementwise ins(%a, %b : tensor<?xi32, #SV>, tensor<?xi32>) outs(%x : tensor<?xi32>) {
  ^bb0(%p: i32, %q: i32, %o: i32):
    %d = sparse_tensor.binary %p, %q : i32, i32 to i32
      overlap = {
        ^bb0(%u: i32, %v: i32):
          %r = arith.ceildivsi %u, %v : i32
          sparse_tensor.yield %r : i32
      }
      left = identity
      right = {}
    linalg.yield %d : i32
  } -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

func.func @floordivsi(%a: tensor<?xi32, #SV>, %b: tensor<?xi32>, %x: tensor<?xi32>) -> tensor<?xi32> {
  %0 = linalg.generic #elementwise ins(%a, %b : tensor<?xi32, #SV>, tensor<?xi32>) outs(%x : tensor<?xi32>) {
  ^bb0(%p: i32, %q: i32, %o: i32):
    %d = sparse_tensor.binary %p, %q : i32, i32 to i32
      overlap = {
        ^bb0(%u: i32, %v: i32):
          %r = arith.floordivsi %u, %v : i32
          sparse_tensor.yield %r : i32
      }
      left = identity
      right = {}
    linalg.yield %d : i32
  } -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

func.func @divsi_by_constant(%a: tensor<?xi64, #SV>, %x: tensor<?xi64>) -> tensor<?xi64> {
  %c = arith.constant 7 : i64
  %0 = linalg.generic #unary ins(%a : tensor<?xi64, #SV>) outs(%x : tensor<?xi64>) {
  ^bb0(%p: i64, %o: i64):
    %d = arith.divsi %p, %c : i64
    linalg.yield %d : i64
  } -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

func.func @sum_of_quotients(%a: tensor<?xi64, #SV>, %b: tensor<?xi64>, %x: tensor<i64>) -> tensor<i64> {
  %0 = linalg.generic #sum ins(%a, %b : tensor<?xi64, #SV>, tensor<?xi64>) outs(%x : tensor<i64>) {
  ^bb0(%p: i64, %q: i64, %o: i64):
    %d = sparse_tensor.binary %p, %q : i64, i64 to i64
      overlap = {
        ^bb0(%u: i64, %v: i64):
          %r = arith.divui %u, %v : i64
          sparse_tensor.yield %r : i64
      }
      left = identity
      right = {}
    %s = arith.addi %o, %d : i64
    linalg.yield %s : i64
  } -> tensor<i64>
  return %0 : tensor<i64>
}
