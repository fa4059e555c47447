// Sparse tensors built in the branches of an scf.if, yielded, and returned
// from the function: the if carries the tensors' fields, the function
// returns complete storage.
// RUN: xsparse-run %s | filecheck %s
// RUN: xsparse-opt %s --sparsifier="enable-runtime-library=false" | xsparse-run -e main -entry-point-result=void | filecheck %s
// RUN: %if mlir-runner %{ xsparse-opt %s --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck %s %}
// RUN: %if mlir-runner %{ %mlir-opt %s --sparsifier="enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck %s %}

#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
#id = affine_map<(i, j) -> (i, j)>

module {
  func.func @negate_or_square(%c: i1, %a: tensor<3x4xf32, #DCSR>) -> tensor<3x4xf32, #DCSR> {
    %r = scf.if %c -> (tensor<3x4xf32, #DCSR>) {
      %e = tensor.empty() : tensor<3x4xf32, #DCSR>
      %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%a : tensor<3x4xf32, #DCSR>) outs(%e : tensor<3x4xf32, #DCSR>) {
        ^bb0(%x: f32, %o: f32):
          %y = arith.negf %x : f32
          linalg.yield %y : f32
      } -> tensor<3x4xf32, #DCSR>
      scf.yield %n : tensor<3x4xf32, #DCSR>
    } else {
      %e = tensor.empty() : tensor<3x4xf32, #DCSR>
      %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%a : tensor<3x4xf32, #DCSR>) outs(%e : tensor<3x4xf32, #DCSR>) {
        ^bb0(%x: f32, %o: f32):
          %y = arith.mulf %x, %x : f32
          linalg.yield %y : f32
      } -> tensor<3x4xf32, #DCSR>
      scf.yield %s : tensor<3x4xf32, #DCSR>
    }
    return %r : tensor<3x4xf32, #DCSR>
  }

  func.func @main() {
    %t = arith.constant true
    %f = arith.constant false
    %d = arith.constant dense<[[0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [1.5, 0.0, 0.0, 3.0]]> : tensor<3x4xf32>
    %a = sparse_tensor.convert %d : tensor<3x4xf32> to tensor<3x4xf32, #DCSR>
    %n = call @negate_or_square(%t, %a) : (i1, tensor<3x4xf32, #DCSR>) -> tensor<3x4xf32, #DCSR>
    %s = call @negate_or_square(%f, %a) : (i1, tensor<3x4xf32, #DCSR>) -> tensor<3x4xf32, #DCSR>
    // CHECK:      ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 3
    // CHECK-NEXT: dim = ( 3, 4 )
    // CHECK-NEXT: lvl = ( 3, 4 )
    // CHECK-NEXT: pos[0] : ( 0, 2 )
    // CHECK-NEXT: crd[0] : ( 0, 2 )
    // CHECK-NEXT: pos[1] : ( 0, 1, 3 )
    // CHECK-NEXT: crd[1] : ( 1, 0, 3 )
    // CHECK-NEXT: values : ( -2, -1.5, -3 )
    // CHECK-NEXT: ----
    // CHECK:      ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 3
    // CHECK-NEXT: dim = ( 3, 4 )
    // CHECK-NEXT: lvl = ( 3, 4 )
    // CHECK-NEXT: pos[0] : ( 0, 2 )
    // CHECK-NEXT: crd[0] : ( 0, 2 )
    // CHECK-NEXT: pos[1] : ( 0, 1, 3 )
    // CHECK-NEXT: crd[1] : ( 1, 0, 3 )
    // CHECK-NEXT: values : ( 4, 2.25, 9 )
    // CHECK-NEXT: ----
    sparse_tensor.print %n : tensor<3x4xf32, #DCSR>
    sparse_tensor.print %s : tensor<3x4xf32, #DCSR>
    bufferization.dealloc_tensor %a : tensor<3x4xf32, #DCSR>
    bufferization.dealloc_tensor %n : tensor<3x4xf32, #DCSR>
    bufferization.dealloc_tensor %s : tensor<3x4xf32, #DCSR>
    return
  }
}
