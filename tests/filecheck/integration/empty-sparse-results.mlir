// Functions returning sparse tensors nothing was inserted into: a new empty
// tensor returned as it is (tensor.empty or bufferization.alloc_tensor) has
// complete storage without entries; a kernel yielding zero into a new empty
// output computes nothing (MLIR's pre-sparsification FoldInvariantYield), so
// its result has no entries either; one yielding one stores every entry.
// RUN: xsparse-run %s | filecheck --strict-whitespace %s
// RUN: xsparse-opt %s --sparsifier | xsparse-run -e main -entry-point-result=void | filecheck --strict-whitespace %s
// RUN: %if mlir-runner %{ xsparse-opt %s --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %s %}
// RUN: %if mlir-runner %{ %mlir-opt %s --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck --strict-whitespace %s %}

#Vec = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#id = affine_map<(i) -> (i)>

module {
  func.func @fresh() -> tensor<6xf64, #Vec> {
    %t = tensor.empty() : tensor<6xf64, #Vec>
    return %t : tensor<6xf64, #Vec>
  }
  func.func @allocated() -> tensor<2x3xi32, #CSR> {
    %t = bufferization.alloc_tensor() : tensor<2x3xi32, #CSR>
    return %t : tensor<2x3xi32, #CSR>
  }
  func.func @filled(%v: f64) -> tensor<6xf64, #Vec> {
    %t = tensor.empty() : tensor<6xf64, #Vec>
    %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
        outs(%t : tensor<6xf64, #Vec>) {
      ^bb0(%o: f64):
        linalg.yield %v : f64
    } -> tensor<6xf64, #Vec>
    return %r : tensor<6xf64, #Vec>
  }
  func.func @zeros() -> tensor<6xf64, #Vec> {
    %zero = arith.constant 0.0 : f64
    %t = tensor.empty() : tensor<6xf64, #Vec>
    %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
        outs(%t : tensor<6xf64, #Vec>) {
      ^bb0(%o: f64):
        linalg.yield %zero : f64
    } -> tensor<6xf64, #Vec>
    return %r : tensor<6xf64, #Vec>
  }
  func.func @main() {
    %two = arith.constant 2.5 : f64
    %a = call @fresh() : () -> tensor<6xf64, #Vec>
    %b = call @allocated() : () -> tensor<2x3xi32, #CSR>
    %c = call @zeros() : () -> tensor<6xf64, #Vec>
    %d = call @filled(%two) : (f64) -> tensor<6xf64, #Vec>
    sparse_tensor.print %a : tensor<6xf64, #Vec>
    sparse_tensor.print %b : tensor<2x3xi32, #CSR>
    sparse_tensor.print %c : tensor<6xf64, #Vec>
    sparse_tensor.print %d : tensor<6xf64, #Vec>
    bufferization.dealloc_tensor %a : tensor<6xf64, #Vec>
    bufferization.dealloc_tensor %b : tensor<2x3xi32, #CSR>
    bufferization.dealloc_tensor %c : tensor<6xf64, #Vec>
    bufferization.dealloc_tensor %d : tensor<6xf64, #Vec>
    return
  }
}

// CHECK:      ---- Sparse Tensor ----
// CHECK-NEXT: nse = 0
// CHECK-NEXT: dim = ( 6 )
// CHECK-NEXT: lvl = ( 6 )
// CHECK-NEXT: pos[0] : ( 0, 0 )
// CHECK-NEXT: crd[0] : (  )
// CHECK-NEXT: values : (  )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 0
// CHECK-NEXT: dim = ( 2, 3 )
// CHECK-NEXT: lvl = ( 2, 3 )
// CHECK-NEXT: pos[1] : ( 0, 0, 0 )
// CHECK-NEXT: crd[1] : (  )
// CHECK-NEXT: values : (  )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 0
// CHECK-NEXT: dim = ( 6 )
// CHECK-NEXT: lvl = ( 6 )
// CHECK-NEXT: pos[0] : ( 0, 0 )
// CHECK-NEXT: crd[0] : (  )
// CHECK-NEXT: values : (  )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 6 )
// CHECK-NEXT: lvl = ( 6 )
// CHECK-NEXT: pos[0] : ( 0, 6 )
// CHECK-NEXT: crd[0] : ( 0, 1, 2, 3, 4, 5 )
// CHECK-NEXT: values : ( 2.5, 2.5, 2.5, 2.5, 2.5, 2.5 )
// CHECK-NEXT: ----
