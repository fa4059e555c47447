// RUN: xsparse-opt %s --split-input-file --parsing-diagnostics -p sparsification | filecheck %s

// A sparse operand indexed by a compound expression is searched for; levels a
// binary search cannot locate in are located refusals.

#U = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed(nonordered)) }>
#conv_1d = {indexing_maps = [affine_map<(w, k) -> (w + k)>, affine_map<(w, k) -> (k)>, affine_map<(w, k) -> (w)>], iterator_types = ["parallel", "reduction"]}

func.func @unordered(%img: tensor<8xf64, #U>, %filt: tensor<3xf64>, %out: tensor<6xf64>) -> tensor<6xf64> {
  %0 = linalg.generic #conv_1d ins(%img, %filt : tensor<8xf64, #U>, tensor<3xf64>) outs(%out : tensor<6xf64>) {
  ^bb0(%x: f64, %f: f64, %acc: f64):
    %m = arith.mulf %x, %f : f64
    %s = arith.addf %acc, %m : f64
    linalg.yield %s : f64
  } -> tensor<6xf64>
  return %0 : tensor<6xf64>
}

// CHECK: compound-index-invalid.mlir:[[# @LINE - 9]]:3: error: 'linalg.generic' op cannot be sparsified: a sparse operand indexed by a compound affine expression needs ordered levels (level 0 is compressed(nonordered))

// -----

// A non-unique level with a compressed level below: the run of entries at a
// coordinate has children in several segments.

#NC = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : compressed) }>
#conv_2d = {indexing_maps = [affine_map<(h, w, kh, kw) -> (h + kh, w + kw)>, affine_map<(h, w, kh, kw) -> (kh, kw)>, affine_map<(h, w, kh, kw) -> (h, w)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}

func.func @nonunique(%img: tensor<4x4xf64, #NC>, %filt: tensor<2x2xf64>, %out: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %0 = linalg.generic #conv_2d ins(%img, %filt : tensor<4x4xf64, #NC>, tensor<2x2xf64>) outs(%out : tensor<3x3xf64>) {
  ^bb0(%x: f64, %f: f64, %acc: f64):
    %m = arith.mulf %x, %f : f64
    %s = arith.addf %acc, %m : f64
    linalg.yield %s : f64
  } -> tensor<3x3xf64>
  return %0 : tensor<3x3xf64>
}

// CHECK: compound-index-invalid.mlir:[[# @LINE - 9]]:3: error: 'linalg.generic' op cannot be sparsified: a sparse operand indexed by a compound affine expression needs unique levels, or a singleton below (level 0 is compressed(nonunique))

// -----

// A padded sparse operand must be padded with zeros.

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#conv_2d = {indexing_maps = [affine_map<(h, w, kh, kw) -> (h + kh, w + kw)>, affine_map<(h, w, kh, kw) -> (kh, kw)>, affine_map<(h, w, kh, kw) -> (h, w)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}

func.func @pad_one(%img: tensor<3x3xf64, #CSR>, %filt: tensor<2x2xf64>, %out: tensor<4x4xf64>) -> tensor<4x4xf64> {
  %one = arith.constant 1.0 : f64
  %p = tensor.pad %img low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %one : f64
  } : tensor<3x3xf64, #CSR> to tensor<5x5xf64, #CSR>
  %0 = linalg.generic #conv_2d ins(%p, %filt : tensor<5x5xf64, #CSR>, tensor<2x2xf64>) outs(%out : tensor<4x4xf64>) {
  ^bb0(%x: f64, %f: f64, %acc: f64):
    %m = arith.mulf %x, %f : f64
    %s = arith.addf %acc, %m : f64
    linalg.yield %s : f64
  } -> tensor<4x4xf64>
  return %0 : tensor<4x4xf64>
}

// CHECK: compound-index-invalid.mlir:[[# @LINE - 9]]:3: error: 'linalg.generic' op cannot be sparsified: a sparse operand padded with a value other than 0
