// RUN: xsparse-opt %s -p 'sparse-decompose-format{widths=2}' | filecheck %s --check-prefix=HYB
// RUN: xsparse-opt %s -p 'sparse-decompose-format{blocks=2}' | filecheck %s --check-prefix=BSR
// RUN: xsparse-opt %s -p 'sparse-decompose-format{partitions=2 widths=2}' | filecheck %s --check-prefix=PARTS

// C = A @ B: `outs` is a linalg.fill of zero, so C's values are never read
// and the zeros are not written first (output_writes.py). The first part
// initializes every row of C (zeros where it has no entries), the others
// add to it or, where no other part has entries in their rows, overwrite
// them. Rows written once are stored non-temporally (MLIR 22's
// `nontemporal` and `alignment` attributes of vector.store) when C's
// address and rows are multiples of a vector, which the kernel checks once,
// after the shapes of every part (the parts' loops in one branch of an scf.if).

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#spmm = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @spmm(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64>, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %zero = arith.constant 0.0 : f64
  %init = linalg.fill ins(%zero : f64) outs(%c : tensor<?x?xf64>) -> tensor<?x?xf64>
  %0 = linalg.generic #spmm ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64>) outs(%init : tensor<?x?xf64>) {
  ^bb0(%av: f64, %bv: f64, %cv: f64):
    %m = arith.mulf %av, %bv : f64
    %s = arith.addf %cv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}

// hyb(1, [2]): the CSR remainder first, its rows' first chunk of entries
// starting from zero; then the bucket, overwriting its rows (one partition:
// a row is in the bucket or in the remainder).
// HYB-LABEL: func.func @spmm(
// HYB-NOT:     linalg.fill
// HYB:         %[[C:.*]] = bufferization.to_buffer %c
// HYB:         scf.if %{{.*}} {
// HYB-NEXT:      %[[ADDRESS:.*]] = "memref.extract_aligned_pointer_as_index"(%[[C]])
// HYB:         scf.parallel
// HYB:           vector.broadcast %{{.*}} : f64 to vector<4xf64>
// HYB:           scf.if
// HYB-NEXT:        vector.store %{{.*}}, %[[C]][{{.*}}] {alignment = 32 : i64, nontemporal = true}
// HYB:           } else {
// HYB-NEXT:        vector.store %{{.*}}, %[[C]][{{.*}}] : memref<?x?xf64>, vector<4xf64>
// HYB:           scf.for
// HYB:             vector.load %[[C]]
// HYB:         scf.parallel
// HYB-NOT:       vector.load %[[C]]
// HYB:           vector.store %{{.*}}, %[[C]][{{.*}}] {alignment = 32 : i64, nontemporal = true}
// HYB:         bufferization.to_tensor %[[C]]

// bsr(2): the BSR part first, initializing every block row (streamed), then
// the remainder adding to C.
// BSR-LABEL: func.func @spmm(
// BSR-NOT:     linalg.fill
// BSR:         %[[C:.*]] = bufferization.to_buffer %c
// BSR:         scf.parallel
// BSR-NOT:       vector.load %[[C]]
// BSR:           vector.store %{{.*}}, %[[C]][{{.*}}] {alignment = 32 : i64, nontemporal = true}
// BSR:         scf.parallel
// BSR:           vector.load %[[C]]
// BSR-NOT:       nontemporal
// BSR:         bufferization.to_tensor %[[C]]

// hyb(2, [2]): a row's segments may be in two buckets, so the buckets add
// to C after the remainder initialized it.
// PARTS-LABEL: func.func @spmm(
// PARTS:         %[[C:.*]] = bufferization.to_buffer %c
// PARTS:         scf.parallel
// PARTS:           nontemporal = true
// PARTS:         scf.parallel
// PARTS:           vector.load %[[C]]
// PARTS-NOT:       nontemporal
// PARTS:         scf.parallel
// PARTS:           vector.load %[[C]]
// PARTS-NOT:       nontemporal
// PARTS:         bufferization.to_tensor %[[C]]
