// RUN: xsparse-opt %s -p fuse-through-gather | xsparse-run - | filecheck %s

// The RFC's "Fusing through Gather" example, fused, then run: a[i][k] = i + k,
// b = 1, c[i][j] = j, so (a b + c)[i][j] = 32 i + 496 + j; the gathered rows
// 41, 0, 7, 7, 20 minus a bias of 496 print 32 r and 32 r + 3 (columns 0 and 3).

#id = affine_map<(i, j) -> (i, j)>
func.func @matmul_gather_bias(%0: tensor<42x32xf32>, %1: tensor<32x64xf32>, %2: tensor<42x64xf32>,
                              %indices: tensor<5x1xi32>, %5: tensor<5x64xf32>, %6: tensor<5x64xf32>)
    -> tensor<5x64xf32> {
  %3 = linalg.matmul ins(%0, %1 : tensor<42x32xf32>, tensor<32x64xf32>)
                    outs(%2 : tensor<42x64xf32>) -> tensor<42x64xf32>
  %4 = subset.gather %3[%indices] coordinates=[0]: tensor<42x64xf32>[tensor<5x1xi32>] -> tensor<5x64xf32>
  %7 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%4, %5 : tensor<5x64xf32>, tensor<5x64xf32>) outs(%6 : tensor<5x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.subf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<5x64xf32>
  return %7 : tensor<5x64xf32>
}

// a[i][k] = i + k, b[k][j] = 1, c[i][j] = j: (a b + c)[i][j] = 32 i + 496 + j.
func.func @fill(%t: tensor<?x?xf32>, %ci: f32, %cj: f32, %c: f32) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%t : tensor<?x?xf32>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %fj = arith.sitofp %jj : i32 to f32
    %a = arith.mulf %fi, %ci : f32
    %b = arith.mulf %fj, %cj : f32
    %s = arith.addf %a, %b : f32
    %v = arith.addf %s, %c : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<42x32xf32>
  %d0 = tensor.cast %e0 : tensor<42x32xf32> to tensor<?x?xf32>
  %a0 = func.call @fill(%d0, %f1, %f1, %f0) : (tensor<?x?xf32>, f32, f32, f32) -> tensor<?x?xf32>
  %a = tensor.cast %a0 : tensor<?x?xf32> to tensor<42x32xf32>
  %b = arith.constant dense<1.0> : tensor<32x64xf32>
  %e2 = tensor.empty() : tensor<42x64xf32>
  %d2 = tensor.cast %e2 : tensor<42x64xf32> to tensor<?x?xf32>
  %c0t = func.call @fill(%d2, %f0, %f1, %f0) : (tensor<?x?xf32>, f32, f32, f32) -> tensor<?x?xf32>
  %c = tensor.cast %c0t : tensor<?x?xf32> to tensor<42x64xf32>
  %indices = arith.constant dense<[[41], [0], [7], [7], [20]]> : tensor<5x1xi32>
  %bias = arith.constant dense<496.0> : tensor<5x64xf32>
  %out = arith.constant dense<0.0> : tensor<5x64xf32>
  %r = func.call @matmul_gather_bias(%a, %b, %c, %indices, %bias, %out)
    : (tensor<42x32xf32>, tensor<32x64xf32>, tensor<42x64xf32>, tensor<5x1xi32>, tensor<5x64xf32>, tensor<5x64xf32>) -> tensor<5x64xf32>
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c5 step %c1 {
    %x = tensor.extract %r[%i, %c0] : tensor<5x64xf32>
    %y = tensor.extract %r[%i, %c3] : tensor<5x64xf32>
    vector.print %x : f32
    vector.print %y : f32
  }
  return
}

// CHECK: 1312
// CHECK-NEXT: 1315
// CHECK-NEXT: 0
// CHECK-NEXT: 3
// CHECK-NEXT: 224
// CHECK-NEXT: 227
// CHECK-NEXT: 224
// CHECK-NEXT: 227
// CHECK-NEXT: 640
// CHECK-NEXT: 643
