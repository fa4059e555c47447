// RUN: xsparse-opt --split-input-file %s -p sparse-tensor-codegen | filecheck %s
// RUN: xsparse-opt --split-input-file %s -p sparse-tensor-codegen | filecheck %s --check-prefix=BUFFERS

// Up to @mixed, only level buffers: no 2-D (dense) buffer, no tensor left.
// BUFFERS-NOT: memref<?x?x
// BUFFERS-NOT: sparse_tensor.
// BUFFERS-NOT: subset.
// BUFFERS-NOT: tensor<{{[^>]*}}xf64
// (Every tensor here holds f64; a run-time error's message is a constant
// `dense<[...]> : tensor<Nxi8>`.)

// Concatenation by level buffers (xsparse/transforms/storage/concat.py): CSR
// along rows appends each operand's buffers: its positions rebased by the
// entries before it, its coordinates and values copied whole. No dense buffer,
// no COO temporary: the only allocations are the result's three buffers
// (each asks for huge pages when it is large).

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

func.func @csr_rows(%a: tensor<3x4xf64, #CSR>, %b: tensor<2x4xf64, #CSR>) -> tensor<5x4xf64, #CSR> {
  %0 = sparse_tensor.concatenate %a, %b {dimension = 0 : index}
    : tensor<3x4xf64, #CSR>, tensor<2x4xf64, #CSR> to tensor<5x4xf64, #CSR>
  return %0 : tensor<5x4xf64, #CSR>
}

// CHECK:       func.func private @madvise(index, index, i32) -> i32
// CHECK-LABEL: func.func @csr_rows(
// CHECK-SAME:    %[[P0:[0-9]+]]: memref<?xindex>, %[[C0:[0-9]+]]: memref<?xindex>, %[[V0:[0-9]+]]: memref<?xf64>, %[[R0:[0-9]+]]: index, %[[N:[0-9]+]]: index, %[[P1:[0-9]+]]: memref<?xindex>, %[[C1:[0-9]+]]: memref<?xindex>, %[[V1:[0-9]+]]: memref<?xf64>, %[[R1:[0-9]+]]: index, %{{[0-9]+}}: index)
// CHECK:         %[[ROWS:.*]] = arith.addi %[[R0]], %[[R1]] : index
// CHECK:         %[[POS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         func.call @madvise(
// CHECK:         %[[CRD:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         %[[VAL:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[P:.*]] = memref.load %[[P0]][%[[I]]] : memref<?xindex>
// CHECK-NEXT:      %[[REBASED:.*]] = arith.addi %[[P]], %{{.*}} : index
// CHECK-NEXT:      %[[AT:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK-NEXT:      memref.store %[[REBASED]], %[[POS]][%[[AT]]] : memref<?xindex>
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[C:.*]] = memref.load %[[C0]][%[[K]]] : memref<?xindex>
// CHECK-NEXT:      %[[AT:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK-NEXT:      memref.store %[[C]], %[[CRD]][%[[AT]]] : memref<?xindex>
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[V0]][%[[K]]] : memref<?xf64>
// CHECK-NEXT:      %[[AT:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK-NEXT:      memref.store %[[V]], %[[VAL]][%[[AT]]] : memref<?xf64>
// CHECK:         memref.load %[[P1]]
// CHECK:         memref.load %[[C1]]
// CHECK:         memref.load %[[V1]]
// CHECK-NOT:     memref.alloc
// A scan for a zero value; where there is one, the rows' entries compacted in
// place (an entry kept where its value is nonzero, each row's end stored), then
// the buffers shrunk to the entries kept (as MLIR 22 inserts nonzeros only).
// CHECK:         %[[ZERO:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i1) {
// CHECK:           arith.cmpf une
// CHECK:         %[[P2:.*]], %[[C2:.*]], %[[V2:.*]] = scf.if %[[ZERO]] -> (memref<?xindex>, memref<?xindex>, memref<?xf64>) {
// CHECK:           %{{.*}}, %[[KEPT:.*]], %{{.*}} = scf.for %[[ROW:.*]] = %{{.*}} to %[[ROWS]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (i1, index, index) {
// CHECK:             %[[END:.*]] = memref.load %[[POS]][%{{.*}}] : memref<?xindex>
// CHECK:             %[[W:.*]], %{{.*}} = scf.for %[[K:.*]] = %{{.*}} to %[[END]] step %{{.*}} iter_args(%[[AT:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (index, index) {
// CHECK-NEXT:          %[[C:.*]] = memref.load %[[CRD]][%[[K]]] : memref<?xindex>
// CHECK-NEXT:          memref.store %[[C]], %[[CRD]][%[[AT]]] : memref<?xindex>
// CHECK-NEXT:          %[[V:.*]] = memref.load %[[VAL]][%[[K]]] : memref<?xf64>
// CHECK-NEXT:          memref.store %[[V]], %[[VAL]][%[[AT]]] : memref<?xf64>
// CHECK-NEXT:          %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:          %[[NZ:.*]] = arith.cmpf une, %[[V]], %[[Z]] : f64
// CHECK-NEXT:          %[[NEXT:.*]] = arith.addi %[[AT]], %{{.*}} : index
// CHECK-NEXT:          %[[AT2:.*]] = arith.select %[[NZ]], %[[NEXT]], %[[AT]] : index
// CHECK-NEXT:          scf.yield %[[AT2]], %{{.*}} : index, index
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[ROWEND:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:        memref.store %[[W]], %[[POS]][%[[ROWEND]]] : memref<?xindex>
// CHECK:           memref.realloc %[[POS]]
// CHECK-NEXT:      %[[C3:.*]] = memref.realloc %[[CRD]](%[[KEPT]]) : memref<?xindex> to memref<?xindex>
// CHECK-NEXT:      %[[V3:.*]] = memref.realloc %[[VAL]](%[[KEPT]]) : memref<?xf64> to memref<?xf64>
// CHECK-NEXT:      scf.yield %{{.*}}, %[[C3]], %[[V3]] : memref<?xindex>, memref<?xindex>, memref<?xf64>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[POS]], %[[CRD]], %[[VAL]] : memref<?xindex>, memref<?xindex>, memref<?xf64>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[P2]], %[[C2]], %[[V2]], %[[ROWS]], %[[N]] : memref<?xindex>, memref<?xindex>, memref<?xf64>, index, index

// -----

// CSR along columns: a row-wise merge. One loop over the rows carries the
// result's cursor; per row, each operand's segment is copied, its coordinates
// shifted by the columns before it; the row's end is the next position.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

func.func @csr_columns(%a: tensor<3x4xf64, #CSR>, %b: tensor<3x2xf64, #CSR>) -> tensor<3x6xf64, #CSR> {
  %0 = sparse_tensor.concatenate %a, %b {dimension = 1 : index}
    : tensor<3x4xf64, #CSR>, tensor<3x2xf64, #CSR> to tensor<3x6xf64, #CSR>
  return %0 : tensor<3x6xf64, #CSR>
}

// CHECK-LABEL: func.func @csr_columns(
// CHECK-SAME:    %[[P0:[0-9]+]]: memref<?xindex>, %[[C0:[0-9]+]]: memref<?xindex>, %[[V0:[0-9]+]]: memref<?xf64>, %[[R:[0-9]+]]: index, %[[N0:[0-9]+]]: index, %[[P1:[0-9]+]]: memref<?xindex>, %[[C1:[0-9]+]]: memref<?xindex>, %[[V1:[0-9]+]]: memref<?xf64>, %{{[0-9]+}}: index, %[[N1:[0-9]+]]: index)
// CHECK:         %[[COLS:.*]] = arith.addi %[[N0]], %[[N1]] : index
// CHECK:         %[[CRD:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         %[[VAL:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK:         %[[POS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         scf.for %[[ROW:.*]] = %{{.*}} to %[[R]] step %{{.*}} iter_args(%[[Q:.*]] = %{{.*}}) -> (index) {
// CHECK:           %[[LO:.*]] = memref.load %[[P0]][%[[ROW]]] : memref<?xindex>
// CHECK:           %[[HI:.*]] = memref.load %[[P0]][%{{.*}}] : memref<?xindex>
// CHECK:           scf.for %{{.*}} = %[[LO]] to %[[HI]] step %{{.*}} {
// CHECK:             memref.load %[[C0]]
// CHECK:           scf.for %{{.*}} = %[[LO]] to %[[HI]] step %{{.*}} {
// CHECK:             memref.load %[[V0]]
// CHECK:           %[[LO1:.*]] = memref.load %[[P1]][%[[ROW]]] : memref<?xindex>
// CHECK:           %[[HI1:.*]] = memref.load %[[P1]][%{{.*}}] : memref<?xindex>
// CHECK:           scf.for %{{.*}} = %[[LO1]] to %[[HI1]] step %{{.*}} {
// CHECK-NEXT:        %[[C:.*]] = memref.load %[[C1]][%{{.*}}] : memref<?xindex>
// CHECK-NEXT:        %[[SHIFTED:.*]] = arith.addi %[[C]], %[[N0]] : index
// CHECK-NEXT:        %[[AT:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:        memref.store %[[SHIFTED]], %[[CRD]][%[[AT]]] : memref<?xindex>
// CHECK:           scf.for %{{.*}} = %[[LO1]] to %[[HI1]] step %{{.*}} {
// CHECK:             memref.load %[[V1]]
// CHECK:           memref.store %[[END:.*]], %[[POS]][%{{.*}}] : memref<?xindex>
// CHECK-NEXT:      scf.yield %[[END]] : index
// CHECK:         } else {
// CHECK-NEXT:      scf.yield %[[POS]], %[[CRD]], %[[VAL]] : memref<?xindex>, memref<?xindex>, memref<?xf64>
// CHECK:         func.return %{{.*}}, %{{.*}}, %{{.*}}, %[[R]], %[[COLS]]

// -----

// COO along columns: one sweep over the rows; each operand's run of entries
// in the row (a scan of its row coordinates) is copied, column coordinates
// shifted, and the row coordinate written for every entry.

#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>

func.func @coo_columns(%a: tensor<3x4xf64, #COO>, %b: tensor<3x2xf64, #COO>) -> tensor<3x6xf64, #COO> {
  %0 = sparse_tensor.concatenate %a, %b {dimension = 1 : index}
    : tensor<3x4xf64, #COO>, tensor<3x2xf64, #COO> to tensor<3x6xf64, #COO>
  return %0 : tensor<3x6xf64, #COO>
}

// CHECK-LABEL: func.func @coo_columns(
// CHECK-SAME:    %{{[0-9]+}}: memref<?xindex>, %[[I0:[0-9]+]]: memref<?xindex>, %[[J0:[0-9]+]]: memref<?xindex>, %{{[0-9]+}}: memref<?xf64>, %[[R:[0-9]+]]: index, %[[N0:[0-9]+]]: index, %{{[0-9]+}}: memref<?xindex>, %[[I1:[0-9]+]]: memref<?xindex>, %[[J1:[0-9]+]]: memref<?xindex>, %{{[0-9]+}}: memref<?xf64>, %{{[0-9]+}}: index, %{{[0-9]+}}: index)
// CHECK:         %[[J:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         %[[V:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK:         %[[I:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         scf.for %[[ROW:.*]] = %{{.*}} to %[[R]] step %{{.*}} iter_args(
// CHECK:           %[[END0:.*]] = scf.while
// CHECK:             memref.load %[[I0]]
// CHECK:           memref.load %[[J0]]
// CHECK:           memref.store %[[ROW]], %[[I]]
// CHECK:           %[[END1:.*]] = scf.while
// CHECK:             memref.load %[[I1]]
// CHECK:           %[[C:.*]] = memref.load %[[J1]]
// CHECK-NEXT:      arith.addi %[[C]], %[[N0]] : index
// CHECK:           memref.store %[[ROW]], %[[I]]
// CHECK:           scf.yield %[[END0]], %[[END1]],
// CHECK:         %[[POS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         %[[I2:.*]], %[[J2:.*]], %[[V2:.*]] = scf.if
// CHECK:         } else {
// CHECK-NEXT:      scf.yield %[[I]], %[[J]], %[[V]] : memref<?xindex>, memref<?xindex>, memref<?xf64>
// CHECK:         func.return %[[POS]], %[[I2]], %[[J2]], %[[V2]]

// -----

// DCSR along rows: the row coordinates of the second operand shifted by the
// first's rows, the column positions rebased.

#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>

func.func @dcsr_rows(%a: tensor<3x4xf64, #DCSR>, %b: tensor<2x4xf64, #DCSR>) -> tensor<5x4xf64, #DCSR> {
  %0 = sparse_tensor.concatenate %a, %b {dimension = 0 : index}
    : tensor<3x4xf64, #DCSR>, tensor<2x4xf64, #DCSR> to tensor<5x4xf64, #DCSR>
  return %0 : tensor<5x4xf64, #DCSR>
}

// CHECK-LABEL: func.func @dcsr_rows(
// CHECK-SAME:    %{{[0-9]+}}: memref<?xindex>, %[[I0:[0-9]+]]: memref<?xindex>, %[[P0:[0-9]+]]: memref<?xindex>, %{{[0-9]+}}: memref<?xindex>, %{{[0-9]+}}: memref<?xf64>, %[[R0:[0-9]+]]: index, %{{[0-9]+}}: index, %{{[0-9]+}}: memref<?xindex>, %[[I1:[0-9]+]]: memref<?xindex>, %[[P1:[0-9]+]]: memref<?xindex>
// CHECK:         %[[ROWS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         %[[POS1:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         scf.for
// CHECK:           memref.load %[[I0]]
// CHECK:         scf.for
// CHECK:           memref.load %[[P0]]
// CHECK:           %[[I:.*]] = memref.load %[[I1]][%{{.*}}] : memref<?xindex>
// CHECK-NEXT:      %[[SHIFTED:.*]] = arith.addi %[[I]], %[[R0]] : index
// CHECK-NEXT:      %[[AT:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:      memref.store %[[SHIFTED]], %[[ROWS]][%[[AT]]] : memref<?xindex>
// CHECK:         scf.for
// CHECK:           memref.load %[[P1]]
// CHECK:           memref.store %{{.*}}, %[[POS1]]

// -----

// Reshape (xsparse/transforms/storage/reshape.py): CSR collapsed into a sparse
// vector keeps its values buffer; the positions disappear and each coordinate
// becomes row * ncols + col, in one pass.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

func.func @collapse(%a: tensor<?x?xf64, #CSR>) -> tensor<?xf64, #SV> {
  %0 = tensor.collapse_shape %a [[0, 1]] : tensor<?x?xf64, #CSR> into tensor<?xf64, #SV>
  return %0 : tensor<?xf64, #SV>
}

// CHECK-LABEL: func.func @collapse(
// CHECK-SAME:    %[[P:[0-9]+]]: memref<?xindex>, %[[C:[0-9]+]]: memref<?xindex>, %[[V:[0-9]+]]: memref<?xf64>, %[[R:[0-9]+]]: index, %{{[0-9]+}}: index)
// CHECK:         %[[SIZE:.*]] = arith.muli
// CHECK:         %[[NNZ:.*]] = memref.dim %[[V]], %{{.*}} : memref<?xf64>
// CHECK:         %[[CRD:.*]] = memref.alloc(%[[NNZ]]) : memref<?xindex>
// CHECK:         %[[POS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         memref.store %[[NNZ]], %[[POS]]
// CHECK:         scf.for %[[ROW:.*]] = %{{.*}} to %[[R]] step %{{.*}} {
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[COL:.*]] = memref.load %[[C]][%[[K]]] : memref<?xindex>
// CHECK-NEXT:        %[[ROWBASE:.*]] = arith.muli %[[ROW]], %{{.*}} : index
// CHECK-NEXT:        %[[LINEAR:.*]] = arith.addi %[[ROWBASE]], %[[COL]] : index
// CHECK-NEXT:        memref.store %[[LINEAR]], %[[CRD]][%[[K]]] : memref<?xindex>
// CHECK:         func.return %[[POS]], %[[CRD]], %[[V]], %[[SIZE]]

// -----

// Regrouping dense levels is a view: the same buffers, new level sizes.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#DDC = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : dense, j : dense, k : compressed) }>

func.func @regroup(%a: tensor<6x4xf64, #CSR>) -> tensor<2x3x4xf64, #DDC> {
  %0 = tensor.expand_shape %a [[0, 1], [2]] output_shape [2, 3, 4]
    : tensor<6x4xf64, #CSR> into tensor<2x3x4xf64, #DDC>
  return %0 : tensor<2x3x4xf64, #DDC>
}

// CHECK-LABEL: func.func @regroup(
// CHECK-SAME:    %[[P:[0-9]+]]: memref<?xindex>, %[[C:[0-9]+]]: memref<?xindex>, %[[V:[0-9]+]]: memref<?xf64>, %{{[0-9]+}}: index, %{{[0-9]+}}: index)
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     scf.for
// CHECK:         func.return %[[P]], %[[C]], %[[V]], %{{.*}}, %{{.*}}, %{{.*}} : memref<?xindex>, memref<?xindex>, memref<?xf64>, index, index, index

// -----

// Operands in another encoding are converted to the result's first (by
// sparse_tensor.convert's lowering, whose buffers are not checked above).

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>

func.func @mixed(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64, #CSC>) -> tensor<?x?xf64, #CSR> {
  %0 = subset.concat %a and %b along dimension = 0
    : tensor<?x?xf64, #CSR> and tensor<?x?xf64, #CSC> into tensor<?x?xf64, #CSR>
  return %0 : tensor<?x?xf64, #CSR>
}

// BUFFERS-LABEL: func.func @mixed(
// CHECK-LABEL: func.func @mixed(
// CHECK:         func.return
