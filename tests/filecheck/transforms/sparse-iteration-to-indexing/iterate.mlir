// RUN: xsparse-opt %s -p sparse-iteration-to-indexing | filecheck %s
// RUN: xsparse-opt %s -p sparse-iteration-to-indexing,lower-indexing | filecheck %s --check-prefix=SCF

// coiterate -> foreach over the union of its spaces with the same cases;
// iterate -> one-case foreach; iterators -> positions; extract_value -> loads.

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>

func.func @dot(%a: tensor<8xf64, #SV>, %b: tensor<8xf64, #SV>, %init: f64) -> f64 {
  %sa = sparse_tensor.extract_iteration_space %a lvls = 0 : tensor<8xf64, #SV> -> !sparse_tensor.iter_space<#SV, lvls = 0>
  %sb = sparse_tensor.extract_iteration_space %b lvls = 0 : tensor<8xf64, #SV> -> !sparse_tensor.iter_space<#SV, lvls = 0>
  %r = sparse_tensor.coiterate (%sa, %sb) at(%i) iter_args(%acc = %init)
     : (!sparse_tensor.iter_space<#SV, lvls = 0>, !sparse_tensor.iter_space<#SV, lvls = 0>) -> f64
  case %ia, %ib {
    %x = sparse_tensor.extract_value %a at %ia : tensor<8xf64, #SV>, !sparse_tensor.iterator<#SV, lvls = 0>
    %y = sparse_tensor.extract_value %b at %ib : tensor<8xf64, #SV>, !sparse_tensor.iterator<#SV, lvls = 0>
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %acc, %m : f64
    sparse_tensor.yield %s : f64
  }
  func.return %r : f64
}

func.func @csr_sum(%a: tensor<4x8xf64, #CSR>, %init: f64) -> f64 {
  %rows = sparse_tensor.extract_iteration_space %a lvls = 0 : tensor<4x8xf64, #CSR> -> !sparse_tensor.iter_space<#CSR, lvls = 0>
  %r = sparse_tensor.iterate %it in %rows iter_args(%acc = %init) : !sparse_tensor.iter_space<#CSR, lvls = 0> -> f64 {
    %cols = sparse_tensor.extract_iteration_space %a at %it lvls = 1 : tensor<4x8xf64, #CSR>, !sparse_tensor.iterator<#CSR, lvls = 0> -> !sparse_tensor.iter_space<#CSR, lvls = 1>
    %s = sparse_tensor.iterate %jt in %cols iter_args(%acc2 = %acc) : !sparse_tensor.iter_space<#CSR, lvls = 1> -> f64 {
      %v = sparse_tensor.extract_value %a at %jt : tensor<4x8xf64, #CSR>, !sparse_tensor.iterator<#CSR, lvls = 1>
      %t = arith.addf %acc2, %v : f64
      sparse_tensor.yield %t : f64
    }
    sparse_tensor.yield %s : f64
  }
  func.return %r : f64
}

// CHECK-LABEL: func.func @dot(
// CHECK:       %[[PA:.*]] = sparse_tensor.positions %a {level = 0 : index}
// CHECK:       %[[A:.*]] = indexing.stored %{{.*}}[%{{.*}} to %{{.*}}] : memref<?xindex> -> !indexing.set
// CHECK:       %[[B:.*]] = indexing.stored %{{.*}}[%{{.*}} to %{{.*}}] : memref<?xindex> -> !indexing.set
// CHECK:       %[[U:.*]] = indexing.union %[[A]], %[[B]] : !indexing.set
// CHECK:       %r = indexing.foreach %[[U]] iter_args(%init) : !indexing.set -> (f64)
// CHECK-NEXT:  case %[[P0:.*]], %[[P1:.*]] at(%i) (%acc: f64) {
// CHECK:         memref.load %{{.*}}[%[[P0]]] : memref<?xf64>
// CHECK:         memref.load %{{.*}}[%[[P1]]] : memref<?xf64>
// CHECK:         indexing.yield %s : f64
// CHECK-NOT:   unrealized_conversion_cast

// CHECK-LABEL: func.func @csr_sum(
// CHECK:       %[[N:.*]] = sparse_tensor.lvl %a
// CHECK:       %[[ROWS:.*]] = indexing.range %{{.*}} to %[[N]] : !indexing.set
// CHECK:       %r = indexing.foreach %[[ROWS]] iter_args(%init) : !indexing.set -> (f64)
// CHECK-NEXT:  case %[[ROW:.*]] at(%{{.*}}) (%acc: f64) {
// CHECK:         %[[POS:.*]] = sparse_tensor.positions %a {level = 1 : index}
// CHECK:         memref.load %[[POS]][%[[ROW]]] : memref<?xindex>
// CHECK:         %[[COLS:.*]] = indexing.stored
// CHECK:         %s = indexing.foreach %[[COLS]] iter_args(%acc) : !indexing.set -> (f64)
// CHECK-NEXT:    case %[[J:.*]] at(%{{.*}}) (%acc2: f64) {
// CHECK:           memref.load %{{.*}}[%[[J]]] : memref<?xf64>
// CHECK-NOT:   unrealized_conversion_cast

// SCF-LABEL: func.func @dot(
// SCF:       scf.while
// SCF:       } attributes {"Emitted from" = "linalg.generic"}
// SCF-LABEL: func.func @csr_sum(
// SCF:       scf.for
// SCF:       scf.for
