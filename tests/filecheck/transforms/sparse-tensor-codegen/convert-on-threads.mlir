// RUN: xsparse-opt --split-input-file %s -p 'sparse-tensor-codegen{parallel-conversions=true}' | filecheck %s
// RUN: xsparse-opt --split-input-file %s -p sparse-tensor-codegen | filecheck %s --check-prefix=SEQ

// Conversions with a parallel form, under `parallel-conversions` (which the
// sparsifier sets with a parallelization strategy; MLIR 22 converts
// sequentially): `scf.parallel` loops that the runtime runs on threads.

// CSR -> CSC: the entries cut into blocks (one histogram slot per 4 entries
// at most, 1 to 64 blocks; `starts` holds each block's first entry). Block k
// clears and fills its own histogram of columns (k * cols + j), a parallel
// loop over the columns turns the blocks' counts into offsets and the
// column's size, a sequential prefix sum gives the columns' ends, a parallel
// loop adds each column's start to its blocks' offsets, and block k scatters
// its entries at its own cursors. The block loops read `starts[k]` and
// `starts[k + 1]`: the runtime weighs them by entries.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>

func.func @csr_to_csc(%a: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSC> {
  %b = sparse_tensor.convert %a : tensor<?x?xf64, #CSR> to tensor<?x?xf64, #CSC>
  return %b : tensor<?x?xf64, #CSC>
}

// CHECK-LABEL: func.func @csr_to_csc(
// CHECK-SAME:    %[[POS:.*]]: memref<?xindex>, %[[CRD:.*]]: memref<?xindex>, %[[VAL:.*]]: memref<?xf64>, %[[ROWS:.*]]: index, %[[COLS:.*]]: index)
// CHECK:         %[[NNZ:.*]] = memref.load %[[POS]][%[[ROWS]]]
// CHECK:         %[[SLOTS:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK:         %[[PER:.*]] = arith.divui %[[NNZ]], %[[SLOTS]]
// CHECK:         %[[BLOCKS:.*]] = arith.minui %{{.*}}, %{{.*}} : index
// CHECK:         %[[STARTS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         %[[HIST:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         scf.parallel (%[[K:.*]]) = (%{{.*}}) to (%[[BLOCKS]])
// CHECK-NEXT:      %[[LO:.*]] = memref.load %[[STARTS]][%[[K]]]
// CHECK-NEXT:      %[[K1:.*]] = arith.addi %[[K]], %{{.*}}
// CHECK-NEXT:      %[[HI:.*]] = memref.load %[[STARTS]][%[[K1]]]
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[COLS]]
// CHECK:           scf.for %[[P:.*]] = %[[LO]] to %[[HI]]
// CHECK-NEXT:        memref.load %[[CRD]][%[[P]]]
// CHECK:             memref.store %{{.*}}, %[[HIST]]
// CHECK:           scf.reduce
// CHECK:         %[[OUTPOS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         scf.parallel (%[[J:.*]]) = (%{{.*}}) to (%[[COLS]])
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[BLOCKS]] {{.*}} iter_args
// CHECK:           memref.store %{{.*}}, %[[OUTPOS]]
// CHECK:           scf.reduce
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[COLS]] {{.*}} iter_args
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[COLS]])
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[BLOCKS]]
// CHECK:           scf.reduce
// CHECK:         %[[OUTCRD:.*]] = memref.alloc(%[[NNZ]]) : memref<?xindex>
// CHECK:         %[[OUTVAL:.*]] = memref.alloc(%[[NNZ]]) : memref<?xf64>
// CHECK:         scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%[[BLOCKS]])
// CHECK-NEXT:      memref.load %[[STARTS]][%[[B]]]
// CHECK:           scf.while
// CHECK:           scf.while
// CHECK:           scf.for %[[ROW:.*]] =
// CHECK:             arith.maxui
// CHECK:             arith.minui
// CHECK:             scf.for %[[Q:.*]] =
// CHECK:               memref.load %[[HIST]]
// CHECK:               memref.store %[[ROW]], %[[OUTCRD]]
// CHECK:               memref.store %{{.*}}, %[[OUTVAL]]
// CHECK:           scf.reduce
// CHECK:         memref.dealloc %[[HIST]]
// CHECK:         memref.dealloc %[[STARTS]]
// CHECK:         return %[[OUTPOS]], %[[OUTCRD]], %[[OUTVAL]], %[[COLS]], %[[ROWS]]

// SEQ-LABEL: func.func @csr_to_csc(
// SEQ-NOT:     scf.parallel
// SEQ:         return

// -----

// Dense -> CSR: a parallel loop over the rows counts each row's nonzeros into
// positions[i + 1], a sequential prefix sum makes them the rows' ends, and a
// parallel loop writes each row's elements at its next free slot without a
// branch; a row's places after its last nonzero write the spare slot at nnz.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

func.func @dense_to_csr(%a: tensor<?x?xf64>) -> tensor<?x?xf64, #CSR> {
  %b = sparse_tensor.convert %a : tensor<?x?xf64> to tensor<?x?xf64, #CSR>
  return %b : tensor<?x?xf64, #CSR>
}

// CHECK-LABEL: func.func @dense_to_csr(
// CHECK:         %[[POS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         scf.parallel (%[[I:.*]]) =
// CHECK:           scf.for {{.*}} iter_args
// CHECK:             arith.cmpf une
// CHECK:           memref.store %{{.*}}, %[[POS]]
// CHECK:           scf.reduce
// CHECK:         %[[NNZ:.*]] = scf.for {{.*}} iter_args
// CHECK:         %[[SPARE:.*]] = arith.addi %[[NNZ]], %{{.*}}
// CHECK:         %[[CRD:.*]] = memref.alloc(%[[SPARE]]) : memref<?xindex>
// CHECK:         %[[VAL:.*]] = memref.alloc(%[[SPARE]]) : memref<?xf64>
// CHECK:         scf.parallel (%[[R:.*]]) =
// CHECK:           %[[START:.*]] = memref.load %[[POS]][%[[R]]]
// CHECK:           %[[END:.*]] = memref.load %[[POS]]
// CHECK:           scf.for {{.*}} iter_args(%[[CUR:.*]] = %[[START]])
// CHECK:             %[[FREE:.*]] = arith.cmpi ult, %[[CUR]], %[[END]]
// CHECK:             %[[AT:.*]] = arith.select %[[FREE]], %[[CUR]], %[[NNZ]]
// CHECK:             memref.store %{{.*}}, %[[CRD]][%[[AT]]]
// CHECK:             memref.store %{{.*}}, %[[VAL]][%[[AT]]]
// CHECK:           scf.reduce
// CHECK:         memref.realloc
// CHECK:         memref.realloc

// SEQ-LABEL: func.func @dense_to_csr(
// SEQ-NOT:     scf.parallel
// SEQ:         return
