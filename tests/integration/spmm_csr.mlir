// C = A * B with A in CSR and B, C dense; C's rows printed with
// vector.transfer_read, one element read back with tensor.extract.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

#matmul = {
  indexing_maps = [
    affine_map<(i, j, k) -> (i, k)>,
    affine_map<(i, j, k) -> (k, j)>,
    affine_map<(i, j, k) -> (i, j)>
  ],
  iterator_types = ["parallel", "parallel", "reduction"]
}

module {
  func.func @spmm(%a: tensor<3x4xf64, #CSR>, %b: tensor<4x2xf64>,
                  %c: tensor<3x2xf64>) -> tensor<3x2xf64> {
    %0 = linalg.generic #matmul
      ins(%a, %b : tensor<3x4xf64, #CSR>, tensor<4x2xf64>)
      outs(%c : tensor<3x2xf64>) {
    ^bb0(%x: f64, %y: f64, %acc: f64):
      %p = arith.mulf %x, %y : f64
      %s = arith.addf %acc, %p : f64
      linalg.yield %s : f64
    } -> tensor<3x2xf64>
    return %0 : tensor<3x2xf64>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %pad = arith.constant -1.0 : f64
    %da = arith.constant dense<[[0.0, 2.0, 0.0, 1.5],
                                [0.0, 0.0, 0.0, 0.0],
                                [3.0, 0.0, -4.0, 0.0]]> : tensor<3x4xf64>
    %a = sparse_tensor.convert %da : tensor<3x4xf64> to tensor<3x4xf64, #CSR>
    %b = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf64>
    %c = arith.constant dense<1.0> : tensor<3x2xf64>
    %r = call @spmm(%a, %b, %c)
      : (tensor<3x4xf64, #CSR>, tensor<4x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>

    // Each row, with one padding element past the end.
    %r0 = vector.transfer_read %r[%c0, %c0], %pad : tensor<3x2xf64>, vector<3xf64>
    %r1 = vector.transfer_read %r[%c1, %c0], %pad : tensor<3x2xf64>, vector<3xf64>
    %r2 = vector.transfer_read %r[%c2, %c0], %pad : tensor<3x2xf64>, vector<3xf64>
    vector.print %r0 : vector<3xf64>
    vector.print %r1 : vector<3xf64>
    vector.print %r2 : vector<3xf64>
    %e = tensor.extract %r[%c2, %c1] : tensor<3x2xf64>
    vector.print %e : f64

    // The input is not changed by the call that wrote into its copy.
    %c00 = tensor.extract %c[%c0, %c0] : tensor<3x2xf64>
    vector.print %c00 : f64
    return
  }
}

// CHECK: ( 17.5, 21, -1 )
// CHECK-NEXT: ( 1, 1, -1 )
// CHECK-NEXT: ( -16, -17, -1 )
// CHECK-NEXT: -17
// CHECK-NEXT: 1
