// The loop nests xsparse's sparsifier emits have the structure of MLIR 22's
// (scf.for / scf.while / scf.if nesting) for the kernels of tests/kernels.
// REQUIRES: mlir-opt
// RUN: python %S/../../../tools/compare_loops.py %S/../../kernels/spmv_csr.mlir %S/../../kernels/spmv_coo.mlir %S/../../kernels/spmv_csc.mlir %S/../../kernels/spmv_dcsr.mlir %S/../../kernels/spmv_bsr.mlir %S/../../kernels/spmv_24.mlir %S/../../kernels/spmv_csr_f32_w32.mlir %S/../../kernels/spmm_csr.mlir %S/../../kernels/sddmm_dense_out.mlir %S/../../kernels/spmv_transposed_csr.mlir %S/../../kernels/sparse_dot.mlir %S/../../kernels/sparse_add_dense_out.mlir %S/../../kernels/csr_mul_dcsr_dense_out.mlir %S/../../kernels/sum_all.mlir %S/../../kernels/ttv_csf.mlir %S/../../kernels/scale_index.mlir %S/../../kernels/scale_in_place.mlir | filecheck %s

// CHECK: same loops: spmv_csr.mlir (2 loop ops)
// CHECK: same loops: spmv_bsr.mlir (4 loop ops)
// CHECK: same loops: sparse_dot.mlir
// CHECK: same loops: sparse_add_dense_out.mlir
// CHECK: same loops: scale_index.mlir

// The same for MLIR's parallelization strategies (scf.parallel where MLIR 22
// puts one; for any-storage-any-loop MLIR also parallelizes reduction loops,
// which xsparse keeps sequential).
// RUN: python %S/../../../tools/compare_loops.py --options 'parallelization-strategy=dense-outer-loop' %S/../../kernels/spmv_csr.mlir %S/../../kernels/spmv_dcsr.mlir %S/../../kernels/spmm_csr.mlir | filecheck %s --check-prefix=PAR
// RUN: python %S/../../../tools/compare_loops.py --options 'parallelization-strategy=any-storage-outer-loop' %S/../../kernels/spmv_dcsr.mlir %S/../../kernels/spmm_csr.mlir | filecheck %s --check-prefix=PAR
// RUN: python %S/../../../tools/compare_loops.py --options 'parallelization-strategy=dense-any-loop' %S/../../kernels/spmm_csr.mlir | filecheck %s --check-prefix=PAR
// PAR: same loops: {{.*}}.mlir

// Sparse outputs built by insertion (tensor.insert threaded through the loops,
// the reduction's "visited" flag, expand/compress for SpGEMM) have MLIR 22's loops.
// RUN: python %S/../../../tools/compare_loops.py %S/inputs/sparse_output_kernels.mlir %S/../../integration/sparse_outputs.mlir | filecheck %s --check-prefix=OUT
// OUT: same loops: sparse_output_kernels.mlir (11 loop ops)
// OUT: same loops: sparse_outputs.mlir (18 loop ops)
