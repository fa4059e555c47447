// RUN: %xsparse-roundtrip | filecheck %s
// RUN: not xsparse-opt --split-input-file %S/inputs/tensor-elementwise-invalid.mlir 2>&1 | filecheck %s --check-prefix=ERR

// arith's casts, comparisons and select on ranked tensors, element by element
// (MLIR's): a comparison gives i1 of its operands' shape.

// CHECK-LABEL: func.func @on_tensors
func.func @on_tensors(%a: tensor<4xf64>, %i: tensor<?x2xi32>, %c: tensor<4xi1>) -> (tensor<4xi32>, tensor<?x2xf32>, tensor<4xi1>, tensor<?x2xi1>, tensor<4xf64>, vector<2xi1>) {
  // CHECK-NEXT: %0 = arith.fptosi %a : tensor<4xf64> to tensor<4xi32>
  // CHECK-NEXT: %1 = arith.sitofp %i : tensor<?x2xi32> to tensor<?x2xf32>
  // CHECK-NEXT: %2 = arith.cmpf olt, %a, %a : tensor<4xf64>
  // CHECK-NEXT: %3 = arith.cmpi sgt, %i, %i : tensor<?x2xi32>
  // CHECK-NEXT: %4 = arith.select %c, %a, %a : tensor<4xi1>, tensor<4xf64>
  // CHECK-NEXT: %v = arith.constant dense<[1, 2]> : vector<2xi64>
  // CHECK-NEXT: %5 = arith.cmpi eq, %v, %v : vector<2xi64>
  %0 = arith.fptosi %a : tensor<4xf64> to tensor<4xi32>
  %1 = arith.sitofp %i : tensor<?x2xi32> to tensor<?x2xf32>
  %2 = arith.cmpf olt, %a, %a : tensor<4xf64>
  %3 = arith.cmpi sgt, %i, %i : tensor<?x2xi32>
  %4 = arith.select %c, %a, %a : tensor<4xi1>, tensor<4xf64>
  %v = arith.constant dense<[1, 2]> : vector<2xi64>
  %5 = arith.cmpi eq, %v, %v : vector<2xi64>
  func.return %0, %1, %2, %3, %4, %5 : tensor<4xi32>, tensor<?x2xf32>, tensor<4xi1>, tensor<?x2xi1>, tensor<4xf64>, vector<2xi1>
}

// ERR: tensor-elementwise-invalid.mlir:2:3: error: 'arith.fptosi' op requires the same shape for all operands and results
// ERR: tensor-elementwise-invalid.mlir:9:3: error: 'arith.fptosi' op requires the same shape for all operands and results
// ERR: tensor-elementwise-invalid.mlir:16:3: error: 'arith.cmpf' op requires the same shape for all operands and results
