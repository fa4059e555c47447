// f16 and bf16 kernels whose output starts as `tensor.from_elements` (a
// fresh buffer holding the elements), printed widened and directly
// (printF16 / printBF16). The source run, the lowered module run and
// mlir-opt-22 | mlir-runner-22 print the same.
// RUN: xsparse-run %s > %t.source
// RUN: xsparse-opt --sparsifier %s | xsparse-run -e main -entry-point-result=void > %t.pipe
// RUN: diff %t.source %t.pipe
// RUN: filecheck --strict-whitespace %s < %t.source
// RUN: %if mlir-runner %{ %mlir-opt --sparsifier="enable-runtime-library=false" %s | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.mlir && diff %t.mlir %t.source %}

#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>

#rows = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
  iterator_types = ["parallel", "reduction"]
}

module {
  func.func @rows_f16(%a: tensor<2x3xf16, #DCSR>, %x: tensor<2xf16>) -> tensor<2xf16> {
    %0 = linalg.generic #rows ins(%a : tensor<2x3xf16, #DCSR>) outs(%x : tensor<2xf16>) {
    ^bb0(%v: f16, %acc: f16):
      %s = arith.addf %acc, %v : f16
      linalg.yield %s : f16
    } -> tensor<2xf16>
    return %0 : tensor<2xf16>
  }

  func.func @rows_bf16(%a: tensor<2x3xbf16, #DCSR>, %x: tensor<2xbf16>) -> tensor<2xbf16> {
    %0 = linalg.generic #rows ins(%a : tensor<2x3xbf16, #DCSR>) outs(%x : tensor<2xbf16>) {
    ^bb0(%v: bf16, %acc: bf16):
      %s = arith.addf %acc, %v : bf16
      linalg.yield %s : bf16
    } -> tensor<2xbf16>
    return %0 : tensor<2xbf16>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %dh = arith.constant dense<[[1.25, 0.0, 2.5], [0.0, -0.125, 0.0]]> : tensor<2x3xf16>
    %ah = sparse_tensor.convert %dh : tensor<2x3xf16> to tensor<2x3xf16, #DCSR>
    %h0 = arith.constant 0.5 : f16
    %h1 = arith.constant 100.0 : f16
    %xh = tensor.from_elements %h0, %h1 : tensor<2xf16>
    %rh = call @rows_f16(%ah, %xh) : (tensor<2x3xf16, #DCSR>, tensor<2xf16>) -> tensor<2xf16>
    %rh0 = tensor.extract %rh[%c0] : tensor<2xf16>
    %rh1 = tensor.extract %rh[%c1] : tensor<2xf16>
    %wide = arith.extf %rh0 : f16 to f32
    vector.print %wide : f32
    vector.print %rh1 : f16

    %db = arith.constant dense<[[3.0, 0.0, 0.0], [0.0, 1.0e30, 0.0078125]]> : tensor<2x3xbf16>
    %ab = sparse_tensor.convert %db : tensor<2x3xbf16> to tensor<2x3xbf16, #DCSR>
    %b0 = arith.constant -1.0 : bf16
    %xb = tensor.from_elements %b0, %b0 : tensor<2xbf16>
    %rb = call @rows_bf16(%ab, %xb) : (tensor<2x3xbf16, #DCSR>, tensor<2xbf16>) -> tensor<2xbf16>
    %rb0 = tensor.extract %rb[%c0] : tensor<2xbf16>
    %rb1 = tensor.extract %rb[%c1] : tensor<2xbf16>
    vector.print %rb0 : bf16
    vector.print %rb1 : bf16

    // from_elements of a matrix, element by element in row-major order.
    %e = arith.constant 7.0 : f64
    %f = arith.constant 8.0 : f64
    %m = tensor.from_elements %e, %f, %f, %e, %e, %f : tensor<2x3xf64>
    %pad = arith.constant 0.0 : f64
    %v = vector.transfer_read %m[%c0, %c0], %pad : tensor<2x3xf64>, vector<2x3xf64>
    vector.print %v : vector<2x3xf64>

    bufferization.dealloc_tensor %ah : tensor<2x3xf16, #DCSR>
    bufferization.dealloc_tensor %ab : tensor<2x3xbf16, #DCSR>
    return
  }
}

// CHECK:      4.25
// CHECK-NEXT: 99.875
// CHECK-NEXT: 2
// CHECK-NEXT: 1.00026e+30
// CHECK-NEXT: ( ( 7, 8, 8 ), ( 7, 7, 8 ) )
