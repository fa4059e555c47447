// RUN: xsparse-opt %s -p 'sparsification{parallelization-strategy=dense-outer-loop}' | filecheck %s --check-prefix=DENSE-OUTER
// RUN: xsparse-opt %s -p 'sparsification{parallelization-strategy=any-storage-outer-loop}' | filecheck %s --check-prefix=ANY-OUTER
// RUN: xsparse-opt %s -p 'sparsification{parallelization-strategy=none}' | filecheck %s --check-prefix=NONE

// MLIR's parallelization strategies: a `parallel` iterator whose iterations
// write distinct outputs becomes scf.parallel (the outermost loop only for
// *-outer-loop; dense ranges only for dense-*).

#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
#spmv = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @spmv_dcsr(%a: tensor<?x?xf64, #DCSR>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #spmv ins(%a, %x : tensor<?x?xf64, #DCSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// The outer level is compressed: not a dense loop.
// DENSE-OUTER-NOT: scf.parallel

// ANY-OUTER:      scf.parallel (%[[P:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// ANY-OUTER-NEXT:   %[[I:.*]] = memref.load %{{.*}}[%[[P]]] : memref<?xindex>
// ANY-OUTER:        %[[SUM:.*]] = scf.for %{{.*}} iter_args
// ANY-OUTER:        memref.store %[[SUM]], %{{.*}}[%[[I]]] : memref<?xf64>
// ANY-OUTER:        scf.reduce
// ANY-OUTER:      } {"Emitted from" = "linalg.generic"}

// NONE-NOT: scf.parallel
