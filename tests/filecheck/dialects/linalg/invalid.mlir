// RUN: %xsparse-diagnostics | filecheck %s

// linalg.index names one of the loops of its enclosing linalg.generic
// (MLIR 22's IndexOp::verify, same messages).

#t = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @past_the_loops(%a: tensor<?x?xf64>, %b: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.generic #t ins(%a : tensor<?x?xf64>) outs(%b : tensor<?x?xf64>) {
  ^bb0(%av: f64, %bv: f64):
    %k = linalg.index 2 : index
    linalg.yield %av : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}

// CHECK: invalid.mlir:[[# @LINE - 6]]:5: error: 'linalg.index' op expected dim (2) to be lower than the number of loops (2) of the enclosing LinalgOp

// -----

#t = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @negative(%a: tensor<?xf64>, %b: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #t ins(%a : tensor<?xf64>) outs(%b : tensor<?xf64>) {
  ^bb0(%av: f64, %bv: f64):
    %k = linalg.index -1 : index
    linalg.yield %av : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// CHECK: invalid.mlir:[[# @LINE - 6]]:5: error: 'linalg.index' op attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0

// -----

#t = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @last_loop(%a: tensor<?x?xf64>, %b: tensor<?x?xindex>) -> tensor<?x?xindex> {
  %0 = linalg.generic #t ins(%a : tensor<?x?xf64>) outs(%b : tensor<?x?xindex>) {
  ^bb0(%av: f64, %bv: index):
    %j = linalg.index 1 : index
    linalg.yield %j : index
  } -> tensor<?x?xindex>
  return %0 : tensor<?x?xindex>
}

// CHECK: func.func @last_loop
// CHECK: %j = linalg.index 1 : index
