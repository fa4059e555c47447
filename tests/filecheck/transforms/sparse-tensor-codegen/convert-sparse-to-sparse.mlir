// RUN: xsparse-opt --split-input-file %s -p sparse-tensor-codegen | filecheck %s

// CSR -> CSC: one counting sort pass on the column, as scipy's tocsc. A flat
// loop over the coordinates counts each column into the result's positions
// (column j at j + 1), a prefix sum turns the counts into each column's start,
// and one pass over the rows scatters every entry to its column's next place,
// which leaves each column's end in the positions. No dense buffer. Large
// buffers are advised to the kernel for transparent huge pages.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>

func.func @csr_to_csc(%a: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSC> {
  %b = sparse_tensor.convert %a : tensor<?x?xf64, #CSR> to tensor<?x?xf64, #CSC>
  return %b : tensor<?x?xf64, #CSC>
}

// CHECK:       func.func private @madvise(index, index, i32) -> i32
// CHECK-LABEL: func.func @csr_to_csc(
// CHECK-SAME:    %[[POS:.*]]: memref<?xindex>, %[[CRD:.*]]: memref<?xindex>, %[[VAL:.*]]: memref<?xf64>, %[[ROWS:.*]]: index, %{{.*}}: index)
// CHECK-NOT:     memref<?x?x
// CHECK:         %[[OUTPOS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         scf.if
// CHECK:           func.call @madvise
// CHECK:         scf.for
// CHECK-NEXT:      memref.store %{{.*}}, %[[OUTPOS]]
// CHECK-NEXT:    }
// CHECK:         %[[NNZ:.*]] = memref.dim %[[VAL]]
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %[[NNZ]] step
// CHECK-NEXT:      %[[J:.*]] = memref.load %[[CRD]][%[[P]]]
// CHECK-NEXT:      arith.constant 1
// CHECK-NEXT:      %[[J1:.*]] = arith.addi %[[J]]
// CHECK-NEXT:      %[[N:.*]] = memref.load %[[OUTPOS]][%[[J1]]]
// CHECK-NEXT:      arith.constant 1
// CHECK-NEXT:      %[[N1:.*]] = arith.addi %[[N]]
// CHECK-NEXT:      memref.store %[[N1]], %[[OUTPOS]][%[[J1]]]
// CHECK-NEXT:    }
// CHECK:         scf.for %[[C:.*]] = %{{.*}} to %[[NCOLS:.*]] step %{{.*}} iter_args(%[[START:.*]] = %{{.*}}) -> (index) {
// CHECK-NEXT:      arith.constant 1
// CHECK-NEXT:      %[[C1:.*]] = arith.addi %[[C]]
// CHECK-NEXT:      %[[K:.*]] = memref.load %[[OUTPOS]][%[[C1]]]
// CHECK-NEXT:      %[[END:.*]] = arith.addi %[[START]], %[[K]]
// CHECK-NEXT:      memref.store %[[START]], %[[OUTPOS]][%[[C1]]]
// CHECK-NEXT:      scf.yield %[[END]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[OUTCRD:.*]] = memref.alloc(%[[NNZ]]) : memref<?xindex>
// CHECK:         %[[OUTVAL:.*]] = memref.alloc(%[[NNZ]]) : memref<?xf64>
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[ROWS]] step
// CHECK:           %[[LO:.*]] = memref.load %[[POS]]
// CHECK-NEXT:      %[[HI:.*]] = memref.load %[[POS]]
// CHECK-NEXT:      arith.constant 1
// CHECK-NEXT:      scf.for %[[Q:.*]] = %[[LO]] to %[[HI]] step
// CHECK-NEXT:        %[[J2:.*]] = memref.load %[[CRD]][%[[Q]]]
// CHECK-NEXT:        arith.constant 1
// CHECK-NEXT:        %[[J3:.*]] = arith.addi %[[J2]]
// CHECK-NEXT:        %[[AT:.*]] = memref.load %[[OUTPOS]][%[[J3]]]
// CHECK-NEXT:        arith.constant 1
// CHECK-NEXT:        %[[AT1:.*]] = arith.addi %[[AT]]
// CHECK-NEXT:        memref.store %[[AT1]], %[[OUTPOS]][%[[J3]]]
// CHECK-NEXT:        memref.store %[[I]], %[[OUTCRD]][%[[AT]]]
// CHECK-NEXT:        %[[V:.*]] = memref.load %[[VAL]][%[[Q]]]
// CHECK-NEXT:        memref.store %[[V]], %[[OUTVAL]][%[[AT]]]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[OUTPOS]], %[[OUTCRD]], %[[OUTVAL]], %{{.*}}, %{{.*}} :

// -----

// CSR -> COO: the source order is the target's, so there is no sort pass and
// no histogram: one pass copies every entry to its own place.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>

func.func @csr_to_coo(%a: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #COO> {
  %b = sparse_tensor.convert %a : tensor<?x?xf64, #CSR> to tensor<?x?xf64, #COO>
  return %b : tensor<?x?xf64, #COO>
}

// CHECK-LABEL: func.func @csr_to_coo(
// CHECK-SAME:    %{{.*}}: memref<?xindex>, %[[CRD:.*]]: memref<?xindex>, %[[VAL:.*]]: memref<?xf64>, %{{.*}}: index, %{{.*}}: index)
// CHECK:         %[[NNZ:.*]] = memref.dim %[[VAL]]
// CHECK-NEXT:    %[[ROW:.*]] = memref.alloc(%[[NNZ]]) : memref<?xindex>
// CHECK:         %[[COL:.*]] = memref.alloc(%[[NNZ]]) : memref<?xindex>
// CHECK:         %[[OUT:.*]] = memref.alloc(%[[NNZ]]) : memref<?xf64>
// CHECK:         %[[POS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           scf.for %[[P:.*]] =
// CHECK-NEXT:        %[[J:.*]] = memref.load %[[CRD]][%[[P]]]
// CHECK-NEXT:        memref.store %[[I]], %[[ROW]][%[[P]]]
// CHECK-NEXT:        memref.store %[[J]], %[[COL]][%[[P]]]
// CHECK-NEXT:        %[[V:.*]] = memref.load %[[VAL]][%[[P]]]
// CHECK-NEXT:        memref.store %[[V]], %[[OUT]][%[[P]]]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[POS]], %[[ROW]], %[[COL]], %[[OUT]]

// -----

// The same levels in other types: each buffer copied with a cast (positions
// and coordinates unsigned, values as arith's casts).

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSR32 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

func.func @narrow(%a: tensor<?x?xf64, #CSR>) -> tensor<?x?xf32, #CSR32> {
  %b = sparse_tensor.convert %a : tensor<?x?xf64, #CSR> to tensor<?x?xf32, #CSR32>
  return %b : tensor<?x?xf32, #CSR32>
}

// CHECK-LABEL: func.func @narrow(
// CHECK-SAME:    -> (memref<?xi32>, memref<?xi32>, memref<?xf32>, index, index)
// CHECK:         arith.index_castui %{{.*}} : index to i32
// CHECK:         arith.index_castui %{{.*}} : index to i32
// CHECK:         arith.truncf %{{.*}} : f64 to f32
// CHECK-NOT:     scf.for

// -----

// An unordered COO sorted by `reorder_coo`: two counting sort passes (columns,
// then rows); the second writes the result's buffers.

#U = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique, nonordered), j : singleton(nonordered)) }>
#O = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>

func.func @reorder(%a: tensor<?x?xf64, #U>) -> tensor<?x?xf64, #O> {
  %b = sparse_tensor.reorder_coo quick_sort %a : tensor<?x?xf64, #U> to tensor<?x?xf64, #O>
  return %b : tensor<?x?xf64, #O>
}

// CHECK-LABEL: func.func @reorder(
// CHECK-NOT:     sparse_tensor.reorder_coo
// CHECK-COUNT-2: arith.addi %{{.*}}, %{{.*}} : index
// CHECK:         func.return

// -----

// `sparse_tensor.sort`: a bottom-up merge sort of the tuples in place.

func.func @sort(%n: index, %xy: memref<?xindex>, %y: memref<?xf32>) {
  sparse_tensor.sort insertion_sort_stable %n, %xy jointly %y {perm_map = affine_map<(i, j) -> (j, i)>, ny = 1 : index} : memref<?xindex> jointly memref<?xf32>
  return
}

// CHECK-LABEL: func.func @sort(
// CHECK-NOT:     sparse_tensor.sort
// CHECK:         scf.while
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               arith.cmpi ult
// CHECK:         memref.dealloc
