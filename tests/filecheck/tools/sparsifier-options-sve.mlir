// REQUIRES: x86_64
// Scalable vectors (enable-arm-sve, or xsparse's enable-vla-vectorization) need
// ARM SVE; on x86-64 they are refused with a located error, where MLIR 22's
// output stops LLVM ("Cannot select: vscale").
// RUN: not xsparse-opt %s --sparsifier="vl=4 enable-arm-sve=true" 2>&1 | filecheck %s --check-prefix=SVE
// SVE: sparsifier-options-sve.mlir:[[# @LINE + 4]]:1: error: 'builtin.module' op sparsifier: enable-arm-sve=true: scalable vectors need ARM SVE, and this host is x86_64
// RUN: not xsparse-opt %s --sparsifier="vl=4 enable-vla-vectorization" 2>&1 | filecheck %s --check-prefix=VLA
// VLA: error: 'builtin.module' op sparsifier: enable-vla-vectorization=true: scalable vectors need ARM SVE, and this host is x86_64

module {
  func.func @main() {
    return
  }
}
