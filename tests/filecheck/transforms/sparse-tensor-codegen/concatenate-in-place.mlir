// RUN: xsparse-opt %s --split-input-file -p sparse-reinterpret-map,sparsification,sparse-tensor-codegen | filecheck %s

// The first operand is built here for the concatenation only: its buffers
// become the result's, grown by memref.realloc (its entries stay where they
// are); only the second operand's entries are copied, and its buffers freed.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @stack(%x: tensor<3x4xf64>, %y: tensor<2x4xf64>) -> tensor<5x4xf64, #CSR> {
  %a = sparse_tensor.convert %x : tensor<3x4xf64> to tensor<3x4xf64, #CSR>
  %b = sparse_tensor.convert %y : tensor<2x4xf64> to tensor<2x4xf64, #CSR>
  %r = sparse_tensor.concatenate %a, %b {dimension = 0 : index}
    : tensor<3x4xf64, #CSR>, tensor<2x4xf64, #CSR> to tensor<5x4xf64, #CSR>
  return %r : tensor<5x4xf64, #CSR>
}

// CHECK-LABEL: func.func @stack
// CHECK:         %[[APOS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         %[[ACRD:.*]] = memref.realloc %{{.*}} : memref<?xindex> to memref<?xindex>
// CHECK-NEXT:    %[[AVAL:.*]] = memref.realloc %{{.*}} : memref<?xf64> to memref<?xf64>
// CHECK:         %[[BPOS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         %[[BCRD:.*]] = memref.realloc %{{.*}} : memref<?xindex> to memref<?xindex>
// CHECK-NEXT:    %[[BVAL:.*]] = memref.realloc %{{.*}} : memref<?xf64> to memref<?xf64>
// CHECK:         %[[POS:.*]] = memref.realloc %[[APOS]](%{{.*}}) : memref<?xindex> to memref<?xindex>
// CHECK:         %[[CRD:.*]] = memref.realloc %[[ACRD]](%{{.*}}) : memref<?xindex> to memref<?xindex>
// CHECK:         %[[VAL:.*]] = memref.realloc %[[AVAL]](%{{.*}}) : memref<?xf64> to memref<?xf64>
// CHECK-NOT:     memref.alloc
// CHECK:         memref.load %[[BVAL]]
// Zeros left out where a scan finds one (none here, but the check is at run time).
// CHECK:         %[[P2:.*]], %[[C2:.*]], %[[V2:.*]] = scf.if
// CHECK:         } else {
// CHECK-NEXT:      scf.yield %[[POS]], %[[CRD]], %[[VAL]] : memref<?xindex>, memref<?xindex>, memref<?xf64>
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[BPOS]] : memref<?xindex>
// CHECK-NEXT:    memref.dealloc %[[BCRD]] : memref<?xindex>
// CHECK-NEXT:    memref.dealloc %[[BVAL]] : memref<?xf64>
// CHECK:         func.return %[[P2]], %[[C2]], %[[V2]]

// -----

// The first operand is returned too: the concatenation copies it into fresh
// buffers and leaves its buffers alone.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @kept(%x: tensor<3x4xf64>, %y: tensor<2x4xf64>)
    -> (tensor<5x4xf64, #CSR>, tensor<3x4xf64, #CSR>) {
  %a = sparse_tensor.convert %x : tensor<3x4xf64> to tensor<3x4xf64, #CSR>
  %b = sparse_tensor.convert %y : tensor<2x4xf64> to tensor<2x4xf64, #CSR>
  %r = sparse_tensor.concatenate %a, %b {dimension = 0 : index}
    : tensor<3x4xf64, #CSR>, tensor<2x4xf64, #CSR> to tensor<5x4xf64, #CSR>
  return %r, %a : tensor<5x4xf64, #CSR>, tensor<3x4xf64, #CSR>
}

// CHECK-LABEL: func.func @kept
// CHECK:         %[[APOS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK-NOT:     memref.realloc %[[APOS]](
// CHECK:         memref.dealloc
// CHECK-NOT:     memref.dealloc %[[APOS]] :
// CHECK:         func.return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[APOS]],
