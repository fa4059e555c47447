// RUN: xsparse-opt %s -p 'sparse-decompose-format{widths=8},sparsifier' -t llvm | filecheck %s

// The decomposed SpMV and its data movement lower with the sparsifier to
// LLVM IR. A bucket row of width 8 is two vectors of 4 doubles: the gathers
// of x take a constant all-true mask (LLVM drops it), the products are
// vector multiplies; no sparse tensor is left.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
#spmv = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @spmv(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #spmv ins(%a, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// CHECK:     define void @spmv_decompose(
// CHECK:     define {{.*}} @spmv(
// CHECK:       %[[TRUE:.*]] = insertelement <4 x i1> poison, i1 true, i32 0
// CHECK-NEXT:  %[[MASK:.*]] = shufflevector <4 x i1> %[[TRUE]], <4 x i1> poison, <4 x i32> <i32 0, i32 0, i32 0, i32 0>
// CHECK:       call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> %{{.*}}, i32 8, <4 x i1> %[[MASK]], <4 x double> %{{.*}})
// CHECK-NEXT:  fmul <4 x double>
// CHECK-NOT:   sparse_tensor
