// printMemref* declared on unranked tensors, as MLIR's integration tests
// declare them: bufferization passes each call the buffer behind
// `tensor.cast %t : tensor<..> to tensor<*xT>` as `memref<*xT>`. The source
// run, the lowered module run and mlir-opt-22 | mlir-runner-22 print the same
// (but the buffers' addresses).
// RUN: xsparse-run %s | sed -E 's/base@ = [0-9a-fx]+/base@ = ADDR/' > %t.source
// RUN: xsparse-opt --sparsifier %s | xsparse-run -e main -entry-point-result=void | sed -E 's/base@ = [0-9a-fx]+/base@ = ADDR/' > %t.pipe
// RUN: diff %t.source %t.pipe
// RUN: filecheck --strict-whitespace %s < %t.source
// RUN: %if mlir-runner %{ %mlir-opt --sparsifier="enable-runtime-library=false" %s | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,/usr/lib/llvm-22/lib/libmlir_runner_utils.so.22.1 | sed -E 's/base@ = [0-9a-fx]+/base@ = ADDR/' > %t.mlir && diff %t.mlir %t.source %}

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

#scale = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
  iterator_types = ["parallel", "parallel"]
}

module {
  func.func private @printMemrefF64(%t: tensor<*xf64>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefI32(%t: tensor<*xi32>) attributes { llvm.emit_c_interface }

  // 2 * a into a dense result.
  func.func @twice(%a: tensor<2x3xf64, #CSR>, %o: tensor<2x3xf64>) -> tensor<2x3xf64> {
    %0 = linalg.generic #scale ins(%a : tensor<2x3xf64, #CSR>) outs(%o : tensor<2x3xf64>) {
    ^bb0(%x: f64, %y: f64):
      %two = arith.constant 2.0 : f64
      %r = arith.mulf %x, %two : f64
      linalg.yield %r : f64
    } -> tensor<2x3xf64>
    return %0 : tensor<2x3xf64>
  }

  func.func @main() {
    %d = arith.constant dense<[[0.0, 1.5, 0.0], [2.0, 0.0, -4.25]]> : tensor<2x3xf64>
    %a = sparse_tensor.convert %d : tensor<2x3xf64> to tensor<2x3xf64, #CSR>
    %o = arith.constant dense<0.0> : tensor<2x3xf64>
    %r = call @twice(%a, %o) : (tensor<2x3xf64, #CSR>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %u = tensor.cast %r : tensor<2x3xf64> to tensor<*xf64>
    call @printMemrefF64(%u) : (tensor<*xf64>) -> ()
    %i = arith.constant dense<[7, -1, 0, 12]> : tensor<4xi32>
    %ui = tensor.cast %i : tensor<4xi32> to tensor<*xi32>
    call @printMemrefI32(%ui) : (tensor<*xi32>) -> ()
    bufferization.dealloc_tensor %a : tensor<2x3xf64, #CSR>
    return
  }
}

// CHECK:      Unranked Memref base@ = ADDR rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data = 
// CHECK-NEXT: {{\[}}[0,   3,   0], 
// CHECK-NEXT:  [4,   0,   -8.5]]
// CHECK-NEXT: Unranked Memref base@ = ADDR rank = 1 offset = 0 sizes = [4] strides = [1] data = 
// CHECK-NEXT: [7,  -1,  0,  12]
