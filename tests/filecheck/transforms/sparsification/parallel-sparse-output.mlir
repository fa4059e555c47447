// RUN: xsparse-opt %s --split-input-file -p 'sparsification{parallelization-strategy=any-storage-outer-loop}' | filecheck %s
// RUN: xsparse-opt %s --split-input-file -p sparsification | filecheck %s --check-prefix=NONE

// SpGEMM into CSR: MLIR 22 keeps the row loop ending in `compress` sequential
// under every strategy. With a strategy, xsparse counts each row's entries in
// parallel (the values dropped, columns marked by row tags), sums the counts into the positions, then
// fills each row's sorted coordinates and values at its offset in parallel,
// each phase with a workspace per chunk of rows, and takes the exact buffers
// over with `jagged.to_sparse`.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#trait = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @spgemm(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSR> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR>
  %d1 = tensor.dim %b, %c1 : tensor<?x?xf64, #CSR>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf64, #CSR>
  %r = linalg.generic #trait ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64, #CSR>) outs(%init : tensor<?x?xf64, #CSR>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %o, %m : f64
    linalg.yield %s : f64
  } -> tensor<?x?xf64, #CSR>
  return %r : tensor<?x?xf64, #CSR>
}

// CHECK-LABEL: func.func @spgemm
// CHECK-NOT:     bufferization.alloc_tensor
// CHECK-NOT:     sparse_tensor.expand
// CHECK:         %[[POS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// The count phase: columns marked with the row's tag (i + 1) in a workspace
// per chunk, as scipy's symbolic pass does: no values, no added list, nothing
// to clear after a row.
// CHECK:         scf.parallel (%[[I:.*]]) =
// CHECK-NEXT:      %[[TAGS:.*]] = memref.alloc(%d1) {xsparse.per_chunk} : memref<?xindex>
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[TAG:.*]] = arith.addi %[[I]], %[[ONE]] : index
// CHECK-NOT:       arith.mulf
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK-NEXT:          %[[J:.*]] = memref.load
// CHECK-NEXT:          %[[SEEN:.*]] = memref.load %[[TAGS]][%[[J]]] : memref<?xindex>
// CHECK-NEXT:          %{{.*}} = arith.cmpi eq, %[[SEEN]], %[[TAG]] : index
// CHECK:                 memref.store %[[TAG]], %[[TAGS]][%[[J]]] : memref<?xindex>
// CHECK-NOT:       memref.alloc
// CHECK:           memref.store %{{.*}}, %[[POS]][%{{.*}}] : memref<?xindex>
// CHECK-NEXT:      memref.dealloc %[[TAGS]] {xsparse.per_chunk}
// CHECK-NEXT:      scf.reduce
// The prefix sum, then the exact buffers.
// CHECK:         %[[NNZ:.*]] = scf.for %{{.*}} = %{{.*}} to %d0 {{.*}} -> (index)
// CHECK:         %[[CRD:.*]] = memref.alloc(%[[NNZ]]) : memref<?xindex>
// CHECK-NEXT:    %[[VAL:.*]] = memref.alloc(%[[NNZ]]) : memref<?xf64>
// The fill phase: the row computed again, sorted, written at its offset.
// CHECK:         scf.parallel
// CHECK-NEXT:      %{{.*}} = memref.alloc(%d1) {xsparse.per_chunk} : memref<?xf64>
// CHECK:           arith.mulf
// CHECK:           sparse_tensor.sort hybrid_quick_sort
// CHECK:           memref.store %{{.*}}, %[[CRD]]
// CHECK:           memref.store %{{.*}}, %[[VAL]]
// CHECK:           scf.reduce
// CHECK:         %[[R:.*]] = jagged.to_sparse(%d0, %d1) %[[POS]], %[[CRD]], %[[VAL]] : memref<?xindex>, memref<?xindex>, memref<?xf64> to tensor<?x?xf64, #sparse_tensor.encoding<{{.*}}>>
// CHECK-NEXT:    func.return %[[R]]

// NONE-LABEL: func.func @spgemm
// NONE:         sparse_tensor.expand
// NONE-NOT:     scf.parallel
// NONE:         sparse_tensor.compress
// NONE-NOT:     jagged.to_sparse

// -----

// 32-bit positions: a row or a result with more entries than they hold is
// reported, and nothing is filled.

#CSR32 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
#trait = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @spgemm32(%a: tensor<?x?xf64, #CSR32>, %b: tensor<?x?xf64, #CSR32>) -> tensor<?x?xf64, #CSR32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR32>
  %d1 = tensor.dim %b, %c1 : tensor<?x?xf64, #CSR32>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf64, #CSR32>
  %r = linalg.generic #trait ins(%a, %b : tensor<?x?xf64, #CSR32>, tensor<?x?xf64, #CSR32>) outs(%init : tensor<?x?xf64, #CSR32>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %o, %m : f64
    linalg.yield %s : f64
  } -> tensor<?x?xf64, #CSR32>
  return %r : tensor<?x?xf64, #CSR32>
}

// CHECK-LABEL: func.func @spgemm32
// CHECK:         %[[POS:.*]] = memref.alloc(%{{.*}}) : memref<?xi32>
// CHECK:         %[[OVERFLOW:.*]] = memref.alloc() : memref<1xi1>
// CHECK:         scf.parallel
// CHECK:           %[[COUNT:.*]] = scf.for
// CHECK:           %[[ROW_BIG:.*]] = arith.cmpi ugt, %[[COUNT]], %{{.*}} : index
// CHECK-NEXT:      scf.if %[[ROW_BIG]] {
// CHECK:             func.call @xsparse_runtime_error
// CHECK:             memref.store %{{.*}}, %[[OVERFLOW]]
// CHECK:         %[[TOTAL:.*]] = scf.for %{{.*}} = %{{.*}} to %d0 {{.*}} -> (index)
// CHECK:         %[[TOTAL_FITS:.*]] = arith.cmpi ule, %[[TOTAL]], %{{.*}} : index
// CHECK:         scf.if %{{.*}} {
// CHECK:           func.call @xsparse_runtime_error
// CHECK:         %[[ROWS_FIT:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:    %[[FITS:.*]] = arith.andi %[[TOTAL_FITS]], %[[ROWS_FIT]] : i1
// CHECK:         %[[NNZ:.*]] = arith.select %[[FITS]], %[[TOTAL]], %{{.*}} : index
// CHECK:         %[[CRD:.*]] = memref.alloc(%[[NNZ]]) : memref<?xi32>
// CHECK:         scf.if %[[FITS]] {
// CHECK-NEXT:      scf.parallel
// CHECK:         jagged.to_sparse(%d0, %d1) %[[POS]], %[[CRD]], %{{.*}} : memref<?xi32>, memref<?xi32>, memref<?xf64>

// -----

// Sparse add inserts in order: the output threaded through the merge loops
// becomes a running count, so that each phase runs the same loops: the count
// phase adds one per insertion, the fill phase writes each entry at
// `positions[i]` plus that count.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#add = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
func.func @add(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSR> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf64, #CSR>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf64, #CSR>
  %r = linalg.generic #add ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64, #CSR>) outs(%init : tensor<?x?xf64, #CSR>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = arith.addf %x, %y : f64
    linalg.yield %s : f64
  } -> tensor<?x?xf64, #CSR>
  return %r : tensor<?x?xf64, #CSR>
}

// CHECK-LABEL: func.func @add
// CHECK-NOT:     tensor.insert
// CHECK:         %[[POS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         scf.parallel (%[[I:.*]]) =
// CHECK:           %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:           scf.while ({{.*}}, %{{.*}} = %[[ZERO]]) : (index, index, index) -> (index, index, index)
// CHECK-NOT:       arith.addf
// CHECK:           memref.store %{{.*}}, %[[POS]][%{{.*}}] : memref<?xindex>
// CHECK-NEXT:      scf.reduce
// CHECK:         %[[NNZ:.*]] = scf.for %{{.*}} = %{{.*}} to %d0 {{.*}} -> (index)
// CHECK:         %[[CRD:.*]] = memref.alloc(%[[NNZ]]) : memref<?xindex>
// CHECK-NEXT:    %[[VAL:.*]] = memref.alloc(%[[NNZ]]) : memref<?xf64>
// CHECK:         scf.parallel (%[[J:.*]]) =
// CHECK-NEXT:      %[[START:.*]] = memref.load %[[POS]][%[[J]]] : memref<?xindex>
// CHECK:           scf.while
// CHECK:             %[[S:.*]] = arith.addf
// CHECK:             %[[AT:.*]] = arith.addi %[[START]], %{{.*}} : index
// CHECK-NEXT:        memref.store %{{.*}}, %[[CRD]][%[[AT]]] : memref<?xindex>
// CHECK-NEXT:        memref.store %[[S]], %[[VAL]][%[[AT]]] : memref<?xf64>
// CHECK:         jagged.to_sparse(%d0, %d1) %[[POS]], %[[CRD]], %[[VAL]]

// NONE-LABEL: func.func @add
// NONE:         tensor.insert
// NONE-NOT:     jagged.to_sparse
