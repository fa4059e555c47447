// s = sum_i a(i) * b(i) over two sparse vectors (an intersection) into a 0-d
// tensor, read back with tensor.extract.

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

#dot = {
  indexing_maps = [
    affine_map<(i) -> (i)>,
    affine_map<(i) -> (i)>,
    affine_map<(i) -> ()>
  ],
  iterator_types = ["reduction"]
}

module {
  func.func @dot(%a: tensor<8xf32, #SV>, %b: tensor<8xf32, #SV>,
                 %s: tensor<f32>) -> tensor<f32> {
    %0 = linalg.generic #dot
      ins(%a, %b : tensor<8xf32, #SV>, tensor<8xf32, #SV>)
      outs(%s : tensor<f32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %q = arith.addf %acc, %p : f32
      linalg.yield %q : f32
    } -> tensor<f32>
    return %0 : tensor<f32>
  }

  func.func @main() {
    %da = arith.constant dense<[1.0, 0.0, 2.0, 0.0, 0.0, 3.0, 0.0, 4.0]> : tensor<8xf32>
    %db = arith.constant dense<[0.0, 5.0, 6.0, 0.0, 0.0, 0.25, 0.0, -1.0]> : tensor<8xf32>
    %a = sparse_tensor.convert %da : tensor<8xf32> to tensor<8xf32, #SV>
    %b = sparse_tensor.convert %db : tensor<8xf32> to tensor<8xf32, #SV>
    %init = arith.constant dense<0.5> : tensor<f32>
    %r = call @dot(%a, %b, %init)
      : (tensor<8xf32, #SV>, tensor<8xf32, #SV>, tensor<f32>) -> tensor<f32>
    %v = tensor.extract %r[] : tensor<f32>
    vector.print %v : f32
    sparse_tensor.print %a : tensor<8xf32, #SV>
    sparse_tensor.print %b : tensor<8xf32, #SV>
    return
  }
}

// CHECK: 9.25
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 4
// CHECK-NEXT: dim = ( 8 )
// CHECK-NEXT: lvl = ( 8 )
// CHECK-NEXT: pos[0] : ( 0, 4 )
// CHECK-NEXT: crd[0] : ( 0, 2, 5, 7 )
// CHECK-NEXT: values : ( 1, 2, 3, 4 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 4
// CHECK-NEXT: dim = ( 8 )
// CHECK-NEXT: lvl = ( 8 )
// CHECK-NEXT: pos[0] : ( 0, 4 )
// CHECK-NEXT: crd[0] : ( 1, 2, 5, 7 )
// CHECK-NEXT: values : ( 5, 6, 0.25, -1 )
// CHECK-NEXT: ----
