// Every program of tests/integration prints its CHECK lines under xsparse-run
// with parallel loops on 3 threads (grain 0: every parallel loop of two or
// more iterations goes to the pool), as it does sequentially (xsparse-run.mlir).
// RUN: env XSPARSE_PARALLEL_GRAIN=0 xsparse-run --parallelization-strategy=any-storage-any-loop --num-threads 3 %S/../../integration/add_union.mlir | filecheck --strict-whitespace %S/../../integration/add_union.mlir
// RUN: env XSPARSE_PARALLEL_GRAIN=0 xsparse-run --parallelization-strategy=any-storage-any-loop --num-threads 3 %S/../../integration/bsr_outputs.mlir | filecheck --strict-whitespace %S/../../integration/bsr_outputs.mlir
// RUN: env XSPARSE_PARALLEL_GRAIN=0 xsparse-run --parallelization-strategy=any-storage-any-loop --num-threads 3 %S/../../integration/concatenate.mlir | filecheck --strict-whitespace %S/../../integration/concatenate.mlir
// RUN: env XSPARSE_PARALLEL_GRAIN=0 xsparse-run --parallelization-strategy=any-storage-any-loop --num-threads 3 %S/../../integration/convert_runtime.mlir | filecheck --strict-whitespace %S/../../integration/convert_runtime.mlir
// RUN: env XSPARSE_PARALLEL_GRAIN=0 xsparse-run --parallelization-strategy=any-storage-any-loop --num-threads 3 %S/../../integration/print_formats.mlir | filecheck --strict-whitespace %S/../../integration/print_formats.mlir
// RUN: env XSPARSE_PARALLEL_GRAIN=0 xsparse-run --parallelization-strategy=any-storage-any-loop --num-threads 3 %S/../../integration/reshape.mlir | filecheck --strict-whitespace %S/../../integration/reshape.mlir
// RUN: env XSPARSE_PARALLEL_GRAIN=0 xsparse-run --parallelization-strategy=any-storage-any-loop --num-threads 3 %S/../../integration/sparse_dot.mlir | filecheck --strict-whitespace %S/../../integration/sparse_dot.mlir
// RUN: env XSPARSE_PARALLEL_GRAIN=0 xsparse-run --parallelization-strategy=any-storage-any-loop --num-threads 3 %S/../../integration/sparse_outputs.mlir | filecheck --strict-whitespace %S/../../integration/sparse_outputs.mlir
// RUN: env XSPARSE_PARALLEL_GRAIN=0 xsparse-run --parallelization-strategy=any-storage-any-loop --num-threads 3 %S/../../integration/spmm_csr.mlir | filecheck --strict-whitespace %S/../../integration/spmm_csr.mlir
// RUN: env XSPARSE_PARALLEL_GRAIN=0 xsparse-run --parallelization-strategy=any-storage-any-loop --num-threads 3 %S/../../integration/spmv_bsr_24.mlir | filecheck --strict-whitespace %S/../../integration/spmv_bsr_24.mlir
// RUN: env XSPARSE_PARALLEL_GRAIN=0 xsparse-run --parallelization-strategy=any-storage-any-loop --num-threads 3 %S/../../integration/spmv_csr.mlir | filecheck --strict-whitespace %S/../../integration/spmv_csr.mlir
