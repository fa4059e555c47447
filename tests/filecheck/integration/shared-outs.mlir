// RUN: xsparse-run %s | filecheck %s
// RUN: %if mlir-runner %{ %mlir-opt %s --sparsifier="enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck %s %}

// A tensor that two kernels (or two fills) take as `outs` keeps its value:
// each writes a copy of its buffer, not the buffer itself, as MLIR's
// one-shot bufferization decides.

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#rows = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
module {
  func.func @two(%a: tensor<2x2xf64, #CSR>) -> (tensor<2xf64>, tensor<2xf64>) {
    %zero = arith.constant 0.0 : f64
    %init = tensor.empty() : tensor<2xf64>
    %out = linalg.fill ins(%zero : f64) outs(%init : tensor<2xf64>) -> tensor<2xf64>
    %0 = linalg.generic #rows ins(%a : tensor<2x2xf64, #CSR>) outs(%out : tensor<2xf64>) {
    ^bb0(%x: f64, %acc: f64):
      %s = arith.addf %acc, %x : f64
      linalg.yield %s : f64
    } -> tensor<2xf64>
    %1 = linalg.generic #rows ins(%a : tensor<2x2xf64, #CSR>) outs(%out : tensor<2xf64>) {
    ^bb0(%x: f64, %acc: f64):
      %s = arith.addf %acc, %x : f64
      linalg.yield %s : f64
    } -> tensor<2xf64>
    return %0, %1 : tensor<2xf64>, tensor<2xf64>
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %d = arith.constant dense<[[1.0, 2.0], [0.0, 3.0]]> : tensor<2x2xf64>
    %a = sparse_tensor.convert %d : tensor<2x2xf64> to tensor<2x2xf64, #CSR>
    %r:2 = call @two(%a) : (tensor<2x2xf64, #CSR>) -> (tensor<2xf64>, tensor<2xf64>)
    %e0 = tensor.extract %r#0[%c0] : tensor<2xf64>
    %e1 = tensor.extract %r#1[%c0] : tensor<2xf64>
    vector.print %e0 : f64
    vector.print %e1 : f64
    call @fills() : () -> ()
    return
  }
  func.func @fills() {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %one = arith.constant 1.0 : f64
    %two = arith.constant 2.0 : f64
    %init = tensor.empty(%c2) : tensor<?xf64>
    %a = linalg.fill ins(%one : f64) outs(%init : tensor<?xf64>) -> tensor<?xf64>
    %b = linalg.fill ins(%two : f64) outs(%init : tensor<?xf64>) -> tensor<?xf64>
    %ea = tensor.extract %a[%c0] : tensor<?xf64>
    %eb = tensor.extract %b[%c0] : tensor<?xf64>
    vector.print %ea : f64
    vector.print %eb : f64
    return
  }
}

// CHECK:      3
// CHECK-NEXT: 3
// CHECK-NEXT: 1
// CHECK-NEXT: 2
