// vector.print as MLIR 22 prints it: n-D vectors read from tensors and
// memrefs with vector.transfer_read (rows past the end are padding), signed
// and unsigned integers, i1, index, f16, bf16, 0-D vectors, strings and
// explicit punctuation. The source run, the lowered module run, and
// mlir-opt-22 | mlir-runner-22 print the same bytes.
// RUN: xsparse-run %s > %t.source
// RUN: xsparse-opt --sparsifier %s | xsparse-run -e main -entry-point-result=void > %t.pipe
// RUN: diff %t.source %t.pipe
// RUN: filecheck --strict-whitespace %s < %t.source
// RUN: %if mlir-runner %{ %mlir-opt --sparsifier="enable-runtime-library=false" %s | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.mlir && diff %t.mlir %t.source %}

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %pad = arith.constant -1.0 : f32
    %cube = arith.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
                                  [[7.0, 8.0, 9.0], [10.0, 11.0, 12.5]]]> : tensor<2x2x3xf32>
    %all = vector.transfer_read %cube[%c0, %c0, %c0], %pad : tensor<2x2x3xf32>, vector<2x2x3xf32>
    vector.print %all : vector<2x2x3xf32>
    // From (1, 1, 1): one row in bounds, its last lane and every other row padding.
    %shifted = vector.transfer_read %cube[%c1, %c1, %c1], %pad : tensor<2x2x3xf32>, vector<2x2x3xf32>
    vector.print %shifted : vector<2x2x3xf32>

    // A sparse matrix converted to dense, read at a run-time offset.
    %d = arith.constant dense<[[0.0, 1.5, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, 3.0]]> : tensor<3x3xf64>
    %s = sparse_tensor.convert %d : tensor<3x3xf64> to tensor<3x3xf64, #CSR>
    %back = sparse_tensor.convert %s : tensor<3x3xf64, #CSR> to tensor<3x3xf64>
    %m = bufferization.to_buffer %back : tensor<3x3xf64> to memref<3x3xf64>
    %dpad = arith.constant 9.0 : f64
    %n = memref.dim %m, %c0 : memref<3x3xf64>
    %row = arith.subi %n, %c2 : index
    %tail = vector.transfer_read %m[%row, %c0], %dpad : memref<3x3xf64>, vector<3x4xf64>
    vector.print %tail : vector<3x4xf64>
    %x = vector.extract %tail[1, 2] : f64 from vector<3x4xf64>
    vector.print %x : f64
    %r = vector.extract %tail[0] : vector<4xf64> from vector<3x4xf64>
    vector.print %r : vector<4xf64>

    %ints = arith.constant dense<[[1, -2], [3, -4]]> : vector<2x2xi16>
    vector.print %ints : vector<2x2xi16>
    %u = arith.constant dense<[0, 255, 128]> : vector<3xui8>
    vector.print %u : vector<3xui8>
    %si = arith.constant dense<[-7, 7]> : vector<2xsi32>
    vector.print %si : vector<2xsi32>
    %b = arith.constant dense<[[true, false], [false, true]]> : vector<2x2xi1>
    vector.print %b : vector<2x2xi1>
    %idx = arith.constant dense<[3, 0]> : vector<2xindex>
    vector.print %idx : vector<2xindex>
    %h = arith.constant dense<[0.5, -65504.0, 0.0001]> : vector<3xf16>
    vector.print %h : vector<3xf16>
    %bf = arith.constant dense<[1.0e20, -0.125]> : vector<2xbf16>
    vector.print %bf : vector<2xbf16>
    %h1 = arith.constant 3.0e-3 : f16
    vector.print %h1 : f16
    %z = arith.constant dense<2.5> : vector<f32>
    vector.print %z : vector<f32>
    %splat = vector.broadcast %pad : f32 to vector<2x3xf32>
    vector.print %splat : vector<2x3xf32>

    vector.print str "text, then "
    vector.print punctuation <open>
    vector.print %pad : f32 punctuation <comma>
    vector.print %h1 : f16 punctuation <no_punctuation>
    vector.print punctuation <close>
    vector.print
    vector.print %ints : vector<2x2xi16> punctuation <comma>
    vector.print str "end\n"
    bufferization.dealloc_tensor %s : tensor<3x3xf64, #CSR>
    return
  }
}

// CHECK:      ( ( ( 1, 2, 3 ), ( 4, 5, 6 ) ), ( ( 7, 8, 9 ), ( 10, 11, 12.5 ) ) )
// CHECK-NEXT: ( ( ( 11, 12.5, -1 ), ( -1, -1, -1 ) ), ( ( -1, -1, -1 ), ( -1, -1, -1 ) ) )
// CHECK-NEXT: ( ( 2, 0, 0, 9 ), ( 0, 0, 3, 9 ), ( 9, 9, 9, 9 ) )
// CHECK-NEXT: 3
// CHECK-NEXT: ( 2, 0, 0, 9 )
// CHECK-NEXT: ( ( 1, -2 ), ( 3, -4 ) )
// CHECK-NEXT: ( 0, 255, 128 )
// CHECK-NEXT: ( -7, 7 )
// CHECK-NEXT: ( ( 1, 0 ), ( 0, 1 ) )
// CHECK-NEXT: ( 3, 0 )
// CHECK-NEXT: ( 0.5, -65504, 0.000100017 )
// CHECK-NEXT: ( 9.97277e+19, -0.125 )
// CHECK-NEXT: 0.00300026
// CHECK-NEXT: ( 2.5 )
// CHECK-NEXT: ( ( -1, -1, -1 ), ( -1, -1, -1 ) )
// CHECK-NEXT: text, then ( -1, 0.00300026 )
// CHECK-NEXT: ( ( 1, -2 ), ( 3, -4 ) ), end
