// Sparse kernels on complex<f32> and complex<f64>: a union (sub: an absent
// left side is negated), an intersection (mul), a scaling by a complex
// constant after a negation, abs (zero-preserving), a dot product reduced
// into a 0-d tensor, and CSR times a dense vector (MLIR's Merger knows
// these, and not conj or exp, which tests/test_complex_kernels.py covers). The
// source run, the lowered module run, the vectorized pipeline (which keeps
// complex kernels scalar, as MLIR 22 does) and mlir-opt-22 | mlir-runner-22
// print the same.
// (The diffs come last: lit's built-in diff leaves PYTHONPATH changed for
// the RUN lines after it.)
// RUN: xsparse-run %s > %t.source
// RUN: xsparse-opt --sparsifier %s | xsparse-run -e main -entry-point-result=void > %t.pipe
// RUN: xsparse-opt --sparsifier="vl=4 reassociate-fp-reductions=true" %s | xsparse-run -e main -entry-point-result=void > %t.vl
// RUN: filecheck --strict-whitespace %s < %t.source
// RUN: diff %t.source %t.pipe
// RUN: diff %t.source %t.vl
// RUN: %if mlir-runner %{ %mlir-opt --sparsifier="enable-runtime-library=false" %s | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.mlir && diff %t.mlir %t.source %}

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

#unary = {
  indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
  iterator_types = ["parallel"]
}
#binary = {
  indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
  iterator_types = ["parallel"]
}
#dot = {
  indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>],
  iterator_types = ["reduction"]
}
#matvec = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>],
  iterator_types = ["parallel", "reduction"]
}

module {
  func.func @sub(%a: tensor<?xcomplex<f64>, #SV>, %b: tensor<?xcomplex<f64>, #SV>) -> tensor<?xcomplex<f64>, #SV> {
    %c0 = arith.constant 0 : index
    %d = tensor.dim %a, %c0 : tensor<?xcomplex<f64>, #SV>
    %e = tensor.empty(%d) : tensor<?xcomplex<f64>, #SV>
    %0 = linalg.generic #binary ins(%a, %b : tensor<?xcomplex<f64>, #SV>, tensor<?xcomplex<f64>, #SV>) outs(%e : tensor<?xcomplex<f64>, #SV>) {
    ^bb0(%x: complex<f64>, %y: complex<f64>, %o: complex<f64>):
      %1 = complex.sub %x, %y : complex<f64>
      linalg.yield %1 : complex<f64>
    } -> tensor<?xcomplex<f64>, #SV>
    return %0 : tensor<?xcomplex<f64>, #SV>
  }

  func.func @mul(%a: tensor<?xcomplex<f32>, #SV>, %b: tensor<?xcomplex<f32>, #SV>) -> tensor<?xcomplex<f32>, #SV> {
    %c0 = arith.constant 0 : index
    %d = tensor.dim %a, %c0 : tensor<?xcomplex<f32>, #SV>
    %e = tensor.empty(%d) : tensor<?xcomplex<f32>, #SV>
    %0 = linalg.generic #binary ins(%a, %b : tensor<?xcomplex<f32>, #SV>, tensor<?xcomplex<f32>, #SV>) outs(%e : tensor<?xcomplex<f32>, #SV>) {
    ^bb0(%x: complex<f32>, %y: complex<f32>, %o: complex<f32>):
      %1 = complex.mul %x, %y : complex<f32>
      linalg.yield %1 : complex<f32>
    } -> tensor<?xcomplex<f32>, #SV>
    return %0 : tensor<?xcomplex<f32>, #SV>
  }

  func.func @scale_neg(%a: tensor<?xcomplex<f64>, #SV>) -> tensor<?xcomplex<f64>, #SV> {
    %c = complex.constant [0.0 : f64, 2.0 : f64] : complex<f64>
    %c0 = arith.constant 0 : index
    %d = tensor.dim %a, %c0 : tensor<?xcomplex<f64>, #SV>
    %e = tensor.empty(%d) : tensor<?xcomplex<f64>, #SV>
    %0 = linalg.generic #unary ins(%a : tensor<?xcomplex<f64>, #SV>) outs(%e : tensor<?xcomplex<f64>, #SV>) {
    ^bb0(%x: complex<f64>, %o: complex<f64>):
      %1 = complex.neg %x : complex<f64>
      %2 = complex.mul %1, %c : complex<f64>
      linalg.yield %2 : complex<f64>
    } -> tensor<?xcomplex<f64>, #SV>
    return %0 : tensor<?xcomplex<f64>, #SV>
  }

  func.func @magnitude(%a: tensor<?xcomplex<f32>, #SV>) -> tensor<?xf32, #SV> {
    %c0 = arith.constant 0 : index
    %d = tensor.dim %a, %c0 : tensor<?xcomplex<f32>, #SV>
    %e = tensor.empty(%d) : tensor<?xf32, #SV>
    %0 = linalg.generic #unary ins(%a : tensor<?xcomplex<f32>, #SV>) outs(%e : tensor<?xf32, #SV>) {
    ^bb0(%x: complex<f32>, %o: f32):
      %1 = complex.abs %x : complex<f32>
      linalg.yield %1 : f32
    } -> tensor<?xf32, #SV>
    return %0 : tensor<?xf32, #SV>
  }

  func.func private @dot(%a: tensor<?xcomplex<f64>, #SV>, %b: tensor<?xcomplex<f64>, #SV>) -> complex<f64> {
    %z = complex.constant [0.0 : f64, 0.0 : f64] : complex<f64>
    %e = tensor.from_elements %z : tensor<complex<f64>>
    %0 = linalg.generic #dot ins(%a, %b : tensor<?xcomplex<f64>, #SV>, tensor<?xcomplex<f64>, #SV>) outs(%e : tensor<complex<f64>>) {
    ^bb0(%x: complex<f64>, %y: complex<f64>, %acc: complex<f64>):
      %1 = complex.mul %x, %y : complex<f64>
      %2 = complex.add %acc, %1 : complex<f64>
      linalg.yield %2 : complex<f64>
    } -> tensor<complex<f64>>
    %r = tensor.extract %0[] : tensor<complex<f64>>
    return %r : complex<f64>
  }

  func.func @matvec(%a: tensor<3x4xcomplex<f32>, #CSR>, %x: tensor<4xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
    %z = complex.constant [0.0 : f32, 0.0 : f32] : complex<f32>
    %e = tensor.from_elements %z, %z, %z : tensor<3xcomplex<f32>>
    %0 = linalg.generic #matvec ins(%a, %x : tensor<3x4xcomplex<f32>, #CSR>, tensor<4xcomplex<f32>>) outs(%e : tensor<3xcomplex<f32>>) {
    ^bb0(%v: complex<f32>, %w: complex<f32>, %acc: complex<f32>):
      %1 = complex.mul %v, %w : complex<f32>
      %2 = complex.add %acc, %1 : complex<f32>
      linalg.yield %2 : complex<f32>
    } -> tensor<3xcomplex<f32>>
    return %0 : tensor<3xcomplex<f32>>
  }

  func.func @main() {
    %d1 = arith.constant sparse<[[0], [3], [6]], [(1.0, 2.0), (-3.0, 0.5), (0.25, -4.0)]> : tensor<8xcomplex<f64>>
    %d2 = arith.constant sparse<[[3], [5]], [(2.0, -1.0), (0.0, 1.5)]> : tensor<8xcomplex<f64>>
    %a = sparse_tensor.convert %d1 : tensor<8xcomplex<f64>> to tensor<?xcomplex<f64>, #SV>
    %b = sparse_tensor.convert %d2 : tensor<8xcomplex<f64>> to tensor<?xcomplex<f64>, #SV>
    %f1 = arith.constant sparse<[[1], [2], [7]], [(3.0, 4.0), (-1.0, 1.0), (0.5, 0.0)]> : tensor<8xcomplex<f32>>
    %f2 = arith.constant sparse<[[2], [7]], [(2.0, 3.0), (-2.0, 8.0)]> : tensor<8xcomplex<f32>>
    %fa = sparse_tensor.convert %f1 : tensor<8xcomplex<f32>> to tensor<?xcomplex<f32>, #SV>
    %fb = sparse_tensor.convert %f2 : tensor<8xcomplex<f32>> to tensor<?xcomplex<f32>, #SV>
    %m = arith.constant sparse<[[0, 1], [0, 3], [2, 0]], [(1.0, 1.0), (2.0, 0.0), (0.0, -1.0)]> : tensor<3x4xcomplex<f32>>
    %sm = sparse_tensor.convert %m : tensor<3x4xcomplex<f32>> to tensor<3x4xcomplex<f32>, #CSR>
    %v = arith.constant dense<[(1.0, 0.0), (0.0, 1.0), (5.0, 5.0), (-1.0, 2.0)]> : tensor<4xcomplex<f32>>

    // a - b: (1,2) at 0, (-3,0.5)-(2,-1) at 3, -(0,1.5) at 5, (0.25,-4) at 6
    // CHECK:      ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 4
    // CHECK-NEXT: dim = ( 8 )
    // CHECK-NEXT: lvl = ( 8 )
    // CHECK-NEXT: pos[0] : ( 0, 4 )
    // CHECK-NEXT: crd[0] : ( 0, 3, 5, 6 )
    // CHECK-NEXT: values : ( ( 1, 2 ), ( -5, 1.5 ), ( -0, -1.5 ), ( 0.25, -4 ) )
    // CHECK-NEXT: ----
    %0 = call @sub(%a, %b) : (tensor<?xcomplex<f64>, #SV>, tensor<?xcomplex<f64>, #SV>) -> tensor<?xcomplex<f64>, #SV>
    sparse_tensor.print %0 : tensor<?xcomplex<f64>, #SV>

    // (-1+i)(2+3i) = -5-i; (0.5)(-2+8i) = -1+4i
    // CHECK-NEXT: ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 2
    // CHECK-NEXT: dim = ( 8 )
    // CHECK-NEXT: lvl = ( 8 )
    // CHECK-NEXT: pos[0] : ( 0, 2 )
    // CHECK-NEXT: crd[0] : ( 2, 7 )
    // CHECK-NEXT: values : ( ( -5, -1 ), ( -1, 4 ) )
    // CHECK-NEXT: ----
    %1 = call @mul(%fa, %fb) : (tensor<?xcomplex<f32>, #SV>, tensor<?xcomplex<f32>, #SV>) -> tensor<?xcomplex<f32>, #SV>
    sparse_tensor.print %1 : tensor<?xcomplex<f32>, #SV>

    // -z * 2i
    // CHECK-NEXT: ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 3
    // CHECK-NEXT: dim = ( 8 )
    // CHECK-NEXT: lvl = ( 8 )
    // CHECK-NEXT: pos[0] : ( 0, 3 )
    // CHECK-NEXT: crd[0] : ( 0, 3, 6 )
    // CHECK-NEXT: values : ( ( 4, -2 ), ( 1, 6 ), ( -8, -0.5 ) )
    // CHECK-NEXT: ----
    %2 = call @scale_neg(%a) : (tensor<?xcomplex<f64>, #SV>) -> tensor<?xcomplex<f64>, #SV>
    sparse_tensor.print %2 : tensor<?xcomplex<f64>, #SV>

    // CHECK-NEXT: ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 3
    // CHECK-NEXT: dim = ( 8 )
    // CHECK-NEXT: lvl = ( 8 )
    // CHECK-NEXT: pos[0] : ( 0, 3 )
    // CHECK-NEXT: crd[0] : ( 1, 2, 7 )
    // CHECK-NEXT: values : ( 5, 1.41421, 0.5 )
    // CHECK-NEXT: ----
    %3 = call @magnitude(%fa) : (tensor<?xcomplex<f32>, #SV>) -> tensor<?xf32, #SV>
    sparse_tensor.print %3 : tensor<?xf32, #SV>

    // (-3+0.5i)(2-i) = -5.5+4i
    // CHECK-NEXT: -5.5
    // CHECK-NEXT: 4
    %5 = call @dot(%a, %b) : (tensor<?xcomplex<f64>, #SV>, tensor<?xcomplex<f64>, #SV>) -> complex<f64>
    %re = complex.re %5 : complex<f64>
    %im = complex.im %5 : complex<f64>
    vector.print %re : f64
    vector.print %im : f64

    // row 0: (1+i)i + 2(-1+2i) = -3+5i; row 2: -i
    // CHECK-NEXT: ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 2
    // CHECK-NEXT: dim = ( 3 )
    // CHECK-NEXT: lvl = ( 3 )
    // CHECK-NEXT: pos[0] : ( 0, 2 )
    // CHECK-NEXT: crd[0] : ( 0, 2 )
    // CHECK-NEXT: values : ( ( -3, 5 ), ( 0, -1 ) )
    // CHECK-NEXT: ----
    %y = call @matvec(%sm, %v) : (tensor<3x4xcomplex<f32>, #CSR>, tensor<4xcomplex<f32>>) -> tensor<3xcomplex<f32>>
    %6 = sparse_tensor.convert %y : tensor<3xcomplex<f32>> to tensor<3xcomplex<f32>, #SV>
    sparse_tensor.print %6 : tensor<3xcomplex<f32>, #SV>

    bufferization.dealloc_tensor %a : tensor<?xcomplex<f64>, #SV>
    bufferization.dealloc_tensor %b : tensor<?xcomplex<f64>, #SV>
    bufferization.dealloc_tensor %fa : tensor<?xcomplex<f32>, #SV>
    bufferization.dealloc_tensor %fb : tensor<?xcomplex<f32>, #SV>
    bufferization.dealloc_tensor %sm : tensor<3x4xcomplex<f32>, #CSR>
    bufferization.dealloc_tensor %0 : tensor<?xcomplex<f64>, #SV>
    bufferization.dealloc_tensor %1 : tensor<?xcomplex<f32>, #SV>
    bufferization.dealloc_tensor %2 : tensor<?xcomplex<f64>, #SV>
    bufferization.dealloc_tensor %3 : tensor<?xf32, #SV>
    bufferization.dealloc_tensor %6 : tensor<3xcomplex<f32>, #SV>
    return
  }
}
