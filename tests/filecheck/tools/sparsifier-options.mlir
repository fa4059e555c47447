// Every option of MLIR 22's --sparsifier (`mlir-opt --help`) is accepted with
// its meaning; where xsparse cannot serve one, a one-line located error names it.

// MLIR's default (enable-runtime-library=true) and each option it takes, all at
// once: the program runs and prints what its CHECK lines expect.
// RUN: xsparse-opt %S/../../integration/spmv_csr.mlir --sparsifier="enable-runtime-library=true enable-buffer-initialization=true vl=4 reassociate-fp-reductions=true enable-index-optimizations=false sparse-emit-strategy=functional create-sparse-deallocs=false parallelization-strategy=any-storage-any-loop enable-amx=false enable-arm-neon=true enable-x86vector=true gpu-chip=sm_80 gpu-features=+ptx71 gpu-format=fatbin" | xsparse-run -e main -entry-point-result=void | filecheck --strict-whitespace %S/../../integration/spmv_csr.mlir
// RUN: xsparse-opt %S/../../integration/spmv_csr.mlir --sparsifier="vl=0 sparse-emit-strategy=sparse-iterator" | xsparse-run -e main -entry-point-result=void | filecheck --strict-whitespace %S/../../integration/spmv_csr.mlir

// reassociate-fp-reductions marks float reductions reassociable, as MLIR's
// convert-vector-to-llvm reads the option.
// RUN: xsparse-opt %s -p reassociate-fp-reductions | filecheck %s --check-prefix=REASSOC
// REASSOC: vector.reduction <add>, %{{.*}} fastmath<reassoc> : vector<4xf32> into f32
// REASSOC: vector.reduction <maxnumf>, %{{.*}} : vector<4xf32> into f32
// REASSOC: vector.reduction <add>, %{{.*}} : vector<4xi32> into i32
func.func @reductions(%v: vector<4xf32>, %w: vector<4xi32>) -> (f32, f32, i32) {
  %0 = vector.reduction <add>, %v : vector<4xf32> into f32
  %1 = vector.reduction <maxnumf>, %v : vector<4xf32> into f32
  %2 = vector.reduction <add>, %w : vector<4xi32> into i32
  return %0, %1, %2 : f32, f32, i32
}

// RUN: not xsparse-opt %s --sparsifier="enable-gpu-libgen=true" 2>&1 | filecheck %s --check-prefix=LIBGEN
// LIBGEN: error: 'builtin.module' op sparsifier: enable-gpu-libgen=true: xsparse has no GPU library path (cuSPARSE)
// RUN: not xsparse-opt %s --sparsifier="gpu-triple=nvptx64-nvidia-cuda" 2>&1 | filecheck %s --check-prefix=TRIPLE
// TRIPLE: error: 'builtin.module' op sparsifier: gpu-triple=nvptx64-nvidia-cuda: xsparse generates CPU code only (no GPU code generation)
// RUN: not xsparse-opt %s --sparsifier="sparse-emit-strategy=debug-interface" 2>&1 | filecheck %s --check-prefix=DEBUG
// DEBUG: error: 'builtin.module' op sparsifier: sparse-emit-strategy=debug-interface emits code that cannot run; use functional or sparse-iterator
// RUN: not xsparse-opt %s --sparsifier="vl=-2" 2>&1 | filecheck %s --check-prefix=VL
// VL: error: 'builtin.module' op sparsifier: vl=-2: the vector length must be 0 (off) or positive
// RUN: not xsparse-opt %s --sparsifier="test-bufferization-analysis-only" 2>&1 | filecheck %s --check-prefix=ANALYSIS
// ANALYSIS: error: 'builtin.module' op sparsifier: test-bufferization-analysis-only=true is MLIR's test hook; not supported
// RUN: not xsparse-opt %s --sparsifier="sparse-emit-strategy=loops" 2>&1 | filecheck %s --check-prefix=STRATEGY
// STRATEGY: xsparse-opt: error: {{.*}}sparse-emit-strategy{{.*}}
// RUN: not xsparse-opt %s --sparsifier="no-such-option=1" 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: xsparse-opt: error: invalid pass option: 'no-such-option' is not an option of pass 'sparsifier'
