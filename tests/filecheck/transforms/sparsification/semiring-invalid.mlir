// RUN: xsparse-opt %s --split-input-file --parsing-diagnostics -p sparsification | filecheck %s

// A semiring region computes from its own arguments, indices and invariants;
// another operand of the kernel has no value there.

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#ew = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @region_uses_operand(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>, %x: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #ew ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%x : tensor<?xf64>) {
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %r = sparse_tensor.select %av : f64 {
      ^bb0(%p: f64):
        %c = arith.cmpf ogt, %p, %bv : f64
        sparse_tensor.yield %c : i1
    }
    linalg.yield %r : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// CHECK: semiring-invalid.mlir:9:3: error: 'linalg.generic' op cannot be sparsified: a 'sparse_tensor.select' region uses an operand of the kernel other than its own arguments

// -----

// A custom reduction starts at its identity, outside the reduction loop.

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#red = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
func.func @identity_varies(%a: tensor<?xf64, #SV>, %x: tensor<f64>) -> tensor<f64> {
  %0 = linalg.generic #red ins(%a : tensor<?xf64, #SV>) outs(%x : tensor<f64>) {
  ^bb0(%av: f64, %xv: f64):
    %i = linalg.index 0 : index
    %n = arith.index_cast %i : index to i64
    %id = arith.sitofp %n : i64 to f64
    %r = sparse_tensor.reduce %xv, %av, %id : f64 {
      ^bb0(%p: f64, %q: f64):
        %m = arith.maximumf %p, %q : f64
        sparse_tensor.yield %m : f64
    }
    linalg.yield %r : f64
  } -> tensor<f64>
  return %0 : tensor<f64>
}

// CHECK: semiring-invalid.mlir:30:3: error: 'linalg.generic' op cannot be sparsified: the identity of a sparse_tensor.reduce must be loop invariant
