// tensor.extract_slice of sparse tensors (encodings with dimSlices, static
// and dynamic): foreach visits the slice's entries at slice coordinates, a
// sparse kernel reads a slice, a function takes one; a dense slice is copied.
// RUN: xsparse-run %s | filecheck %s
// RUN: xsparse-opt %s --sparsifier="enable-runtime-library=false" | xsparse-run -e main -entry-point-result=void | filecheck %s
// RUN: %if mlir-runner %{ xsparse-opt %s --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck %s %}
// (mlir-opt-22 | mlir-runner-22 prints the same entries but sums the dynamic
// COO slice to 0; its rows 2..4, columns 3..5 hold 8 + 9 + 11 + 13 = 41.)

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
#CSR_SLICE = #sparse_tensor.encoding<{
  map = (i : #sparse_tensor<slice(1, 3, 1)>, j : #sparse_tensor<slice(0, 3, 2)>) -> (i : dense, j : compressed)
}>
#COO_DYN = #sparse_tensor.encoding<{
  map = (i : #sparse_tensor<slice(?, ?, ?)>, j : #sparse_tensor<slice(?, ?, ?)>) -> (i : compressed(nonunique), j : singleton)
}>
#trait = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>],
  iterator_types = ["reduction", "reduction"]
}

module {
  func.func @show(%s: tensor<3x3xf64, #CSR_SLICE>) {
    sparse_tensor.foreach in %s : tensor<3x3xf64, #CSR_SLICE> do {
      ^bb0(%i: index, %j: index, %v: f64):
        vector.print %i : index
        vector.print %j : index
        vector.print %v : f64
    }
    return
  }

  func.func @sum(%s: tensor<?x?xf64, #COO_DYN>) -> f64 {
    %z = arith.constant dense<0.0> : tensor<f64>
    %r = linalg.generic #trait ins(%s : tensor<?x?xf64, #COO_DYN>) outs(%z : tensor<f64>) {
      ^bb0(%x: f64, %acc: f64):
        %a = arith.addf %x, %acc : f64
        linalg.yield %a : f64
    } -> tensor<f64>
    %v = tensor.extract %r[] : tensor<f64>
    return %v : f64
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %d = arith.constant dense<[
      [1.0, 0.0, 2.0, 0.0, 3.0, 0.0],
      [0.0, 4.0, 5.0, 0.0, 0.0, 6.0],
      [7.0, 0.0, 0.0, 8.0, 9.0, 0.0],
      [0.0, 0.0, 10.0, 0.0, 0.0, 11.0],
      [12.0, 0.0, 0.0, 0.0, 13.0, 0.0]
    ]> : tensor<5x6xf64>
    %a = sparse_tensor.convert %d : tensor<5x6xf64> to tensor<5x6xf64, #CSR>
    %s = tensor.extract_slice %a[1, 0][3, 3][1, 2] : tensor<5x6xf64, #CSR> to tensor<3x3xf64, #CSR_SLICE>
    // Rows 1..3, columns 0, 2, 4.
    // CHECK:      0
    // CHECK-NEXT: 1
    // CHECK-NEXT: 5
    // CHECK-NEXT: 1
    // CHECK-NEXT: 0
    // CHECK-NEXT: 7
    // CHECK-NEXT: 1
    // CHECK-NEXT: 2
    // CHECK-NEXT: 9
    // CHECK-NEXT: 2
    // CHECK-NEXT: 1
    // CHECK-NEXT: 10
    call @show(%s) : (tensor<3x3xf64, #CSR_SLICE>) -> ()

    // Rows 2..4, columns 3..5, from a COO source, sized at run time.
    %b = sparse_tensor.convert %d : tensor<5x6xf64> to tensor<5x6xf64, #COO>
    %t = tensor.extract_slice %b[%c2, %c3][%c3, %c3][%c1, %c1] : tensor<5x6xf64, #COO> to tensor<?x?xf64, #COO_DYN>
    %n = call @sum(%t) : (tensor<?x?xf64, #COO_DYN>) -> f64
    // CHECK-NEXT: 41
    vector.print %n : f64

    // A strided slice of a dense tensor is copied, then converted.
    %ds = tensor.extract_slice %d[0, 1][3, 2][2, 3] : tensor<5x6xf64> to tensor<3x2xf64>
    %sd = sparse_tensor.convert %ds : tensor<3x2xf64> to tensor<3x2xf64, #CSR>
    // CHECK-NEXT: ---- Sparse Tensor ----
    // CHECK-NEXT: nse = 3
    // CHECK-NEXT: dim = ( 3, 2 )
    // CHECK-NEXT: lvl = ( 3, 2 )
    // CHECK-NEXT: pos[1] : ( 0, 1, 2, 3 )
    // CHECK-NEXT: crd[1] : ( 1, 1, 1 )
    // CHECK-NEXT: values : ( 3, 9, 13 )
    // CHECK-NEXT: ----
    sparse_tensor.print %sd : tensor<3x2xf64, #CSR>
    return
  }
}
