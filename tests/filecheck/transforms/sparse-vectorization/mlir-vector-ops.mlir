// The same vector operations as mlir-opt-22 (the multiset of vector op names of
// each function) on the kernels of tests/kernels, for three option sets.
// REQUIRES: mlir-opt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/../../../kernels/spmv_csr.mlir | python %S/inputs/vector_ops.py > %t.spmv_csr-vl8.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_csr.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.spmv_csr-vl8.xsparse.txt
// RUN: diff %t.spmv_csr-vl8.mlir.txt %t.spmv_csr-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/../../../kernels/spmv_csc.mlir | python %S/inputs/vector_ops.py > %t.spmv_csc-vl8.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_csc.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.spmv_csc-vl8.xsparse.txt
// RUN: diff %t.spmv_csc-vl8.mlir.txt %t.spmv_csc-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/../../../kernels/spmv_coo.mlir | python %S/inputs/vector_ops.py > %t.spmv_coo-vl8.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_coo.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.spmv_coo-vl8.xsparse.txt
// RUN: diff %t.spmv_coo-vl8.mlir.txt %t.spmv_coo-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/../../../kernels/spmv_dcsr.mlir | python %S/inputs/vector_ops.py > %t.spmv_dcsr-vl8.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_dcsr.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.spmv_dcsr-vl8.xsparse.txt
// RUN: diff %t.spmv_dcsr-vl8.mlir.txt %t.spmv_dcsr-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/../../../kernels/spmv_bsr.mlir | python %S/inputs/vector_ops.py > %t.spmv_bsr-vl8.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_bsr.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.spmv_bsr-vl8.xsparse.txt
// RUN: diff %t.spmv_bsr-vl8.mlir.txt %t.spmv_bsr-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/../../../kernels/spmv_24.mlir | python %S/inputs/vector_ops.py > %t.spmv_24-vl8.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_24.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.spmv_24-vl8.xsparse.txt
// RUN: diff %t.spmv_24-vl8.mlir.txt %t.spmv_24-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/../../../kernels/spmv_csr_f32_w32.mlir | python %S/inputs/vector_ops.py > %t.spmv_csr_f32_w32-vl8.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_csr_f32_w32.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.spmv_csr_f32_w32-vl8.xsparse.txt
// RUN: diff %t.spmv_csr_f32_w32-vl8.mlir.txt %t.spmv_csr_f32_w32-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/../../../kernels/spmv_transposed_csr.mlir | python %S/inputs/vector_ops.py > %t.spmv_transposed_csr-vl8.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_transposed_csr.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.spmv_transposed_csr-vl8.xsparse.txt
// RUN: diff %t.spmv_transposed_csr-vl8.mlir.txt %t.spmv_transposed_csr-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/../../../kernels/sparse_dot.mlir | python %S/inputs/vector_ops.py > %t.sparse_dot-vl8.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/sparse_dot.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.sparse_dot-vl8.xsparse.txt
// RUN: diff %t.sparse_dot-vl8.mlir.txt %t.sparse_dot-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/../../../kernels/sparse_add_dense_out.mlir | python %S/inputs/vector_ops.py > %t.sparse_add_dense_out-vl8.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/sparse_add_dense_out.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.sparse_add_dense_out-vl8.xsparse.txt
// RUN: diff %t.sparse_add_dense_out-vl8.mlir.txt %t.sparse_add_dense_out-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/../../../kernels/sparse_sub_exp.mlir | python %S/inputs/vector_ops.py > %t.sparse_sub_exp-vl8.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/sparse_sub_exp.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.sparse_sub_exp-vl8.xsparse.txt
// RUN: diff %t.sparse_sub_exp-vl8.mlir.txt %t.sparse_sub_exp-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/../../../kernels/csr_mul_dcsr_dense_out.mlir | python %S/inputs/vector_ops.py > %t.csr_mul_dcsr_dense_out-vl8.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/csr_mul_dcsr_dense_out.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.csr_mul_dcsr_dense_out-vl8.xsparse.txt
// RUN: diff %t.csr_mul_dcsr_dense_out-vl8.mlir.txt %t.csr_mul_dcsr_dense_out-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/../../../kernels/sum_all.mlir | python %S/inputs/vector_ops.py > %t.sum_all-vl8.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/sum_all.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.sum_all-vl8.xsparse.txt
// RUN: diff %t.sum_all-vl8.mlir.txt %t.sum_all-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/../../../kernels/ttv_csf.mlir | python %S/inputs/vector_ops.py > %t.ttv_csf-vl8.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/ttv_csf.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.ttv_csf-vl8.xsparse.txt
// RUN: diff %t.ttv_csf-vl8.mlir.txt %t.ttv_csf-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/../../../kernels/spmv_csr.mlir | python %S/inputs/vector_ops.py > %t.spmv_csr-vl4-vla.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_csr.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.spmv_csr-vl4-vla.xsparse.txt
// RUN: diff %t.spmv_csr-vl4-vla.mlir.txt %t.spmv_csr-vl4-vla.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/../../../kernels/spmv_csc.mlir | python %S/inputs/vector_ops.py > %t.spmv_csc-vl4-vla.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_csc.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.spmv_csc-vl4-vla.xsparse.txt
// RUN: diff %t.spmv_csc-vl4-vla.mlir.txt %t.spmv_csc-vl4-vla.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/../../../kernels/spmv_coo.mlir | python %S/inputs/vector_ops.py > %t.spmv_coo-vl4-vla.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_coo.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.spmv_coo-vl4-vla.xsparse.txt
// RUN: diff %t.spmv_coo-vl4-vla.mlir.txt %t.spmv_coo-vl4-vla.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/../../../kernels/spmv_dcsr.mlir | python %S/inputs/vector_ops.py > %t.spmv_dcsr-vl4-vla.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_dcsr.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.spmv_dcsr-vl4-vla.xsparse.txt
// RUN: diff %t.spmv_dcsr-vl4-vla.mlir.txt %t.spmv_dcsr-vl4-vla.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/../../../kernels/spmv_bsr.mlir | python %S/inputs/vector_ops.py > %t.spmv_bsr-vl4-vla.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_bsr.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.spmv_bsr-vl4-vla.xsparse.txt
// RUN: diff %t.spmv_bsr-vl4-vla.mlir.txt %t.spmv_bsr-vl4-vla.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/../../../kernels/spmv_24.mlir | python %S/inputs/vector_ops.py > %t.spmv_24-vl4-vla.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_24.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.spmv_24-vl4-vla.xsparse.txt
// RUN: diff %t.spmv_24-vl4-vla.mlir.txt %t.spmv_24-vl4-vla.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/../../../kernels/spmv_csr_f32_w32.mlir | python %S/inputs/vector_ops.py > %t.spmv_csr_f32_w32-vl4-vla.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_csr_f32_w32.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.spmv_csr_f32_w32-vl4-vla.xsparse.txt
// RUN: diff %t.spmv_csr_f32_w32-vl4-vla.mlir.txt %t.spmv_csr_f32_w32-vl4-vla.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/../../../kernels/spmv_transposed_csr.mlir | python %S/inputs/vector_ops.py > %t.spmv_transposed_csr-vl4-vla.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_transposed_csr.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.spmv_transposed_csr-vl4-vla.xsparse.txt
// RUN: diff %t.spmv_transposed_csr-vl4-vla.mlir.txt %t.spmv_transposed_csr-vl4-vla.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/../../../kernels/sparse_dot.mlir | python %S/inputs/vector_ops.py > %t.sparse_dot-vl4-vla.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/sparse_dot.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.sparse_dot-vl4-vla.xsparse.txt
// RUN: diff %t.sparse_dot-vl4-vla.mlir.txt %t.sparse_dot-vl4-vla.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/../../../kernels/sparse_add_dense_out.mlir | python %S/inputs/vector_ops.py > %t.sparse_add_dense_out-vl4-vla.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/sparse_add_dense_out.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.sparse_add_dense_out-vl4-vla.xsparse.txt
// RUN: diff %t.sparse_add_dense_out-vl4-vla.mlir.txt %t.sparse_add_dense_out-vl4-vla.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/../../../kernels/sparse_sub_exp.mlir | python %S/inputs/vector_ops.py > %t.sparse_sub_exp-vl4-vla.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/sparse_sub_exp.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.sparse_sub_exp-vl4-vla.xsparse.txt
// RUN: diff %t.sparse_sub_exp-vl4-vla.mlir.txt %t.sparse_sub_exp-vl4-vla.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/../../../kernels/csr_mul_dcsr_dense_out.mlir | python %S/inputs/vector_ops.py > %t.csr_mul_dcsr_dense_out-vl4-vla.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/csr_mul_dcsr_dense_out.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.csr_mul_dcsr_dense_out-vl4-vla.xsparse.txt
// RUN: diff %t.csr_mul_dcsr_dense_out-vl4-vla.mlir.txt %t.csr_mul_dcsr_dense_out-vl4-vla.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/../../../kernels/sum_all.mlir | python %S/inputs/vector_ops.py > %t.sum_all-vl4-vla.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/sum_all.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.sum_all-vl4-vla.xsparse.txt
// RUN: diff %t.sum_all-vl4-vla.mlir.txt %t.sum_all-vl4-vla.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/../../../kernels/ttv_csf.mlir | python %S/inputs/vector_ops.py > %t.ttv_csf-vl4-vla.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/ttv_csf.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.ttv_csf-vl4-vla.xsparse.txt
// RUN: diff %t.ttv_csf-vl4-vla.mlir.txt %t.ttv_csf-vl4-vla.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %S/../../../kernels/spmv_csr.mlir | python %S/inputs/vector_ops.py > %t.spmv_csr-vl16-i32.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_csr.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | python %S/inputs/vector_ops.py > %t.spmv_csr-vl16-i32.xsparse.txt
// RUN: diff %t.spmv_csr-vl16-i32.mlir.txt %t.spmv_csr-vl16-i32.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %S/../../../kernels/spmv_csc.mlir | python %S/inputs/vector_ops.py > %t.spmv_csc-vl16-i32.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_csc.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | python %S/inputs/vector_ops.py > %t.spmv_csc-vl16-i32.xsparse.txt
// RUN: diff %t.spmv_csc-vl16-i32.mlir.txt %t.spmv_csc-vl16-i32.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %S/../../../kernels/spmv_coo.mlir | python %S/inputs/vector_ops.py > %t.spmv_coo-vl16-i32.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_coo.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | python %S/inputs/vector_ops.py > %t.spmv_coo-vl16-i32.xsparse.txt
// RUN: diff %t.spmv_coo-vl16-i32.mlir.txt %t.spmv_coo-vl16-i32.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %S/../../../kernels/spmv_dcsr.mlir | python %S/inputs/vector_ops.py > %t.spmv_dcsr-vl16-i32.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_dcsr.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | python %S/inputs/vector_ops.py > %t.spmv_dcsr-vl16-i32.xsparse.txt
// RUN: diff %t.spmv_dcsr-vl16-i32.mlir.txt %t.spmv_dcsr-vl16-i32.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %S/../../../kernels/spmv_bsr.mlir | python %S/inputs/vector_ops.py > %t.spmv_bsr-vl16-i32.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_bsr.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | python %S/inputs/vector_ops.py > %t.spmv_bsr-vl16-i32.xsparse.txt
// RUN: diff %t.spmv_bsr-vl16-i32.mlir.txt %t.spmv_bsr-vl16-i32.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %S/../../../kernels/spmv_24.mlir | python %S/inputs/vector_ops.py > %t.spmv_24-vl16-i32.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_24.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | python %S/inputs/vector_ops.py > %t.spmv_24-vl16-i32.xsparse.txt
// RUN: diff %t.spmv_24-vl16-i32.mlir.txt %t.spmv_24-vl16-i32.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %S/../../../kernels/spmv_csr_f32_w32.mlir | python %S/inputs/vector_ops.py > %t.spmv_csr_f32_w32-vl16-i32.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_csr_f32_w32.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | python %S/inputs/vector_ops.py > %t.spmv_csr_f32_w32-vl16-i32.xsparse.txt
// RUN: diff %t.spmv_csr_f32_w32-vl16-i32.mlir.txt %t.spmv_csr_f32_w32-vl16-i32.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %S/../../../kernels/spmv_transposed_csr.mlir | python %S/inputs/vector_ops.py > %t.spmv_transposed_csr-vl16-i32.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmv_transposed_csr.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | python %S/inputs/vector_ops.py > %t.spmv_transposed_csr-vl16-i32.xsparse.txt
// RUN: diff %t.spmv_transposed_csr-vl16-i32.mlir.txt %t.spmv_transposed_csr-vl16-i32.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %S/../../../kernels/sparse_dot.mlir | python %S/inputs/vector_ops.py > %t.sparse_dot-vl16-i32.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/sparse_dot.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | python %S/inputs/vector_ops.py > %t.sparse_dot-vl16-i32.xsparse.txt
// RUN: diff %t.sparse_dot-vl16-i32.mlir.txt %t.sparse_dot-vl16-i32.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %S/../../../kernels/sparse_add_dense_out.mlir | python %S/inputs/vector_ops.py > %t.sparse_add_dense_out-vl16-i32.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/sparse_add_dense_out.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | python %S/inputs/vector_ops.py > %t.sparse_add_dense_out-vl16-i32.xsparse.txt
// RUN: diff %t.sparse_add_dense_out-vl16-i32.mlir.txt %t.sparse_add_dense_out-vl16-i32.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %S/../../../kernels/sparse_sub_exp.mlir | python %S/inputs/vector_ops.py > %t.sparse_sub_exp-vl16-i32.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/sparse_sub_exp.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | python %S/inputs/vector_ops.py > %t.sparse_sub_exp-vl16-i32.xsparse.txt
// RUN: diff %t.sparse_sub_exp-vl16-i32.mlir.txt %t.sparse_sub_exp-vl16-i32.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %S/../../../kernels/csr_mul_dcsr_dense_out.mlir | python %S/inputs/vector_ops.py > %t.csr_mul_dcsr_dense_out-vl16-i32.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/csr_mul_dcsr_dense_out.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | python %S/inputs/vector_ops.py > %t.csr_mul_dcsr_dense_out-vl16-i32.xsparse.txt
// RUN: diff %t.csr_mul_dcsr_dense_out-vl16-i32.mlir.txt %t.csr_mul_dcsr_dense_out-vl16-i32.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %S/../../../kernels/sum_all.mlir | python %S/inputs/vector_ops.py > %t.sum_all-vl16-i32.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/sum_all.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | python %S/inputs/vector_ops.py > %t.sum_all-vl16-i32.xsparse.txt
// RUN: diff %t.sum_all-vl16-i32.mlir.txt %t.sum_all-vl16-i32.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %S/../../../kernels/ttv_csf.mlir | python %S/inputs/vector_ops.py > %t.ttv_csf-vl16-i32.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/ttv_csf.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | python %S/inputs/vector_ops.py > %t.ttv_csf-vl16-i32.xsparse.txt
// RUN: diff %t.ttv_csf-vl16-i32.mlir.txt %t.ttv_csf-vl16-i32.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/../../../kernels/spmm_csr.mlir | python %S/inputs/vector_ops.py > %t.spmm_csr-vl8.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmm_csr.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.spmm_csr-vl8.xsparse.txt
// RUN: diff %t.spmm_csr-vl8.mlir.txt %t.spmm_csr-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/../../../kernels/spmm_csr.mlir | python %S/inputs/vector_ops.py > %t.spmm_csr-vla4.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmm_csr.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.spmm_csr-vla4.xsparse.txt
// RUN: diff %t.spmm_csr-vla4.mlir.txt %t.spmm_csr-vla4.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %S/../../../kernels/spmm_csr.mlir | python %S/inputs/vector_ops.py > %t.spmm_csr-i32vl16.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/spmm_csr.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | python %S/inputs/vector_ops.py > %t.spmm_csr-i32vl16.xsparse.txt
// RUN: diff %t.spmm_csr-i32vl16.mlir.txt %t.spmm_csr-i32vl16.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/../../../kernels/sddmm_dense_out.mlir | python %S/inputs/vector_ops.py > %t.sddmm_dense_out-vl8.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/sddmm_dense_out.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.sddmm_dense_out-vl8.xsparse.txt
// RUN: diff %t.sddmm_dense_out-vl8.mlir.txt %t.sddmm_dense_out-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/../../../kernels/sddmm_dense_out.mlir | python %S/inputs/vector_ops.py > %t.sddmm_dense_out-vla4.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/sddmm_dense_out.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.sddmm_dense_out-vla4.xsparse.txt
// RUN: diff %t.sddmm_dense_out-vla4.mlir.txt %t.sddmm_dense_out-vla4.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %S/../../../kernels/sddmm_dense_out.mlir | python %S/inputs/vector_ops.py > %t.sddmm_dense_out-i32vl16.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/sddmm_dense_out.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | python %S/inputs/vector_ops.py > %t.sddmm_dense_out-i32vl16.xsparse.txt
// RUN: diff %t.sddmm_dense_out-i32vl16.mlir.txt %t.sddmm_dense_out-i32vl16.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/../../../kernels/scale_index.mlir | python %S/inputs/vector_ops.py > %t.scale_index-vl8.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/scale_index.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.scale_index-vl8.xsparse.txt
// RUN: diff %t.scale_index-vl8.mlir.txt %t.scale_index-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/../../../kernels/scale_index.mlir | python %S/inputs/vector_ops.py > %t.scale_index-vla4.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/scale_index.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.scale_index-vla4.xsparse.txt
// RUN: diff %t.scale_index-vla4.mlir.txt %t.scale_index-vla4.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=16 enable-simd-index32=true" %S/../../../kernels/scale_index.mlir | python %S/inputs/vector_ops.py > %t.scale_index-i32vl16.mlir.txt
// RUN: xsparse-opt %S/../../../kernels/scale_index.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=16 enable-simd-index32=true}' | python %S/inputs/vector_ops.py > %t.scale_index-i32vl16.xsparse.txt
// RUN: diff %t.scale_index-i32vl16.mlir.txt %t.scale_index-i32vl16.xsparse.txt
