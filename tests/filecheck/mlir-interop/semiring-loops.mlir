// The semiring ops inside linalg.generic bodies (sparse_tensor.binary, unary,
// reduce) give loop nests with the structure of MLIR 22's, for the kernels of
// tests/kernels/semiring that MLIR 22 sparsifies. (MLIR 22 rejects a select
// into a dense output and a select under another op; for a unary with an absent
// value, MLIR knows the dense range present in its while loop where xsparse
// tests it.)
// REQUIRES: mlir-opt
// RUN: python %S/../../../tools/compare_loops.py %S/../../kernels/semiring/binary_union.mlir %S/../../kernels/semiring/binary_union_dcsr.mlir %S/../../kernels/semiring/binary_overlap.mlir %S/../../kernels/semiring/binary_left.mlir %S/../../kernels/semiring/binary_dense.mlir %S/../../kernels/semiring/binary_vec_i32.mlir %S/../../kernels/semiring/reduce_max_rows.mlir %S/../../kernels/semiring/reduce_prod_all.mlir | filecheck %s

// CHECK: same loops: binary_union.mlir (9 loop ops)
// CHECK: same loops: binary_union_dcsr.mlir (20 loop ops)
// CHECK: same loops: binary_overlap.mlir (3 loop ops)
// CHECK: same loops: binary_left.mlir (6 loop ops)
// CHECK: same loops: binary_dense.mlir (2 loop ops)
// CHECK: same loops: binary_vec_i32.mlir (5 loop ops)
// CHECK: same loops: reduce_max_rows.mlir (2 loop ops)
// CHECK: same loops: reduce_prod_all.mlir (2 loop ops)

// Into sparse outputs built by insertion: the predicate of a select guards the
// insertion, a custom reduction inserts only where it saw an entry.
// RUN: python %S/../../../tools/compare_loops.py %S/../../kernels/semiring/select_positive_csr.mlir %S/../../kernels/semiring/binary_left_csr.mlir %S/../../kernels/semiring/unary_exp_csr.mlir %S/../../kernels/semiring/reduce_max_rows_sv.mlir | filecheck %s --check-prefix=OUT

// OUT: same loops: select_positive_csr.mlir (3 loop ops)
// OUT: same loops: binary_left_csr.mlir (6 loop ops)
// OUT: same loops: unary_exp_csr.mlir (2 loop ops)
// OUT: same loops: reduce_max_rows_sv.mlir (3 loop ops)
