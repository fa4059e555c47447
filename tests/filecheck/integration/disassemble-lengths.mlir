// sparse_tensor.disassemble returning its lengths as integers, indices and
// 0-D tensors (MLIR's AnyIndexingScalarLike), from a 3x4 CSR matrix with
// 32-bit overhead assembled from constants.
// RUN: xsparse-run %s | filecheck %s
// RUN: xsparse-opt %s --sparsifier="enable-runtime-library=false" | xsparse-run -e main -entry-point-result=void | filecheck %s
// RUN: %if mlir-runner %{ xsparse-opt %s --sparsifier | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck %s %}
// RUN: %if mlir-runner %{ %mlir-opt %s --sparsifier="enable-runtime-library=false" | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck %s %}

#CSR = #sparse_tensor.encoding<{
  map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32
}>

module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %z = arith.constant 0 : i32
    %f0 = arith.constant 0.0 : f64
    %pos = arith.constant dense<[0, 2, 2, 5]> : tensor<4xi32>
    %crd = arith.constant dense<[0, 3, 1, 2, 3]> : tensor<5xi32>
    %val = arith.constant dense<[1.5, 2.5, 3.5, 4.5, 5.5]> : tensor<5xf64>
    %s = sparse_tensor.assemble (%pos, %crd), %val : (tensor<4xi32>, tensor<5xi32>), tensor<5xf64> to tensor<3x4xf64, #CSR>
    %op = tensor.empty() : tensor<6xi32>
    %oc = tensor.empty() : tensor<8xi32>
    %ov = tensor.empty() : tensor<8xf64>
    %p, %c, %v, %lp, %lc, %lv = sparse_tensor.disassemble %s : tensor<3x4xf64, #CSR>
        out_lvls(%op, %oc : tensor<6xi32>, tensor<8xi32>) out_vals(%ov : tensor<8xf64>)
        -> (tensor<6xi32>, tensor<8xi32>), tensor<8xf64>, (i32, tensor<i64>), tensor<index>
    // CHECK:      ( 0, 2, 2, 5 )
    // CHECK-NEXT: ( 0, 3, 1, 2, 3 )
    // CHECK-NEXT: ( 1.5, 2.5, 3.5, 4.5, 5.5 )
    // CHECK-NEXT: 4
    // CHECK-NEXT: 5
    // CHECK-NEXT: 5
    %vp = vector.transfer_read %p[%c0], %z : tensor<6xi32>, vector<4xi32>
    %vc = vector.transfer_read %c[%c0], %z : tensor<8xi32>, vector<5xi32>
    %vv = vector.transfer_read %v[%c0], %f0 : tensor<8xf64>, vector<5xf64>
    vector.print %vp : vector<4xi32>
    vector.print %vc : vector<5xi32>
    vector.print %vv : vector<5xf64>
    vector.print %lp : i32
    %nc = tensor.extract %lc[] : tensor<i64>
    vector.print %nc : i64
    %nv = tensor.extract %lv[] : tensor<index>
    vector.print %nv : index
    return
  }
}
