// Pass pipelines as mlir-opt-22 reads them: `--pass-pipeline` (or `-p`) with
// `builtin.module(...)` and passes nested on `func.func`, options spelled with
// dashes, or a flag per pass; `-p` also takes xdsl-opt's plain list. Both
// tools print the same.
// RUN: xsparse-opt %s --pass-pipeline='builtin.module(func.func(canonicalize),sparse-reinterpret-map,sparsification{parallelization-strategy=dense-outer-loop})' | filecheck %s
// RUN: %if mlir-opt %{ %mlir-opt %s --pass-pipeline='builtin.module(func.func(canonicalize),sparse-reinterpret-map,sparsification{parallelization-strategy=dense-outer-loop})' | filecheck %s %}
// RUN: xsparse-opt %s -p 'builtin.module(func.func(canonicalize),sparse-reinterpret-map,sparsification{parallelization-strategy=dense-outer-loop})' | filecheck %s
// RUN: %if mlir-opt %{ %mlir-opt %s -p 'builtin.module(func.func(canonicalize),sparse-reinterpret-map,sparsification{parallelization-strategy=dense-outer-loop})' | filecheck %s %}
// RUN: xsparse-opt %s -p 'canonicalize,sparse-reinterpret-map,sparsification{parallelization-strategy=dense-outer-loop}' | filecheck %s
// RUN: xsparse-opt %s -p 'canonicalize,sparse-reinterpret-map,sparsification{parallelization_strategy=dense-outer-loop}' | filecheck %s
// Each pass is also a flag, as in mlir-opt.
// RUN: xsparse-opt %s --canonicalize --sparse-reinterpret-map --sparsification=parallelization-strategy=dense-outer-loop | filecheck %s
// RUN: %if mlir-opt %{ %mlir-opt %s --canonicalize --sparse-reinterpret-map --sparsification=parallelization-strategy=dense-outer-loop | filecheck %s %}
// RUN: xsparse-opt %s -pass-pipeline='builtin.module(any(canonicalize), sparse-reinterpret-map, sparsification{ parallelization-strategy=dense-outer-loop })' | filecheck %s

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#spmv = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}

// CHECK-LABEL: func.func @spmv
// CHECK:         scf.parallel
func.func @spmv(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #spmv ins(%a, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// CHECK-LABEL: func.func @fold() -> i32 {
// CHECK-NEXT:    %[[C:[^ ]+]] = arith.constant 3 : i32
// CHECK-NEXT:    {{(func\.)?}}return %[[C]] : i32
func.func @fold() -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %c1, %c2 : i32
  return %0 : i32
}

// A mistake in a pipeline is one line and exit 1; mlir-opt-22 refuses the
// same pipelines (in its own words, but for the anchor's).
// RUN: not xsparse-opt %s -p bogus-pass 2>&1 | filecheck %s --check-prefix=PASS
// RUN: %if mlir-opt %{ not %mlir-opt %s --pass-pipeline='builtin.module(bogus-pass)' %}
// PASS:     {{^}}xsparse-opt: error: 'bogus-pass' does not refer to a registered pass or pass pipeline{{$}}
// PASS-NOT: {{.}}

// RUN: not xsparse-opt %s -p sparsifcation 2>&1 | filecheck %s --check-prefix=CLOSE
// CLOSE: {{^}}xsparse-opt: error: 'sparsifcation' does not refer to a registered pass or pass pipeline; did you mean 'sparsification'?{{$}}

// RUN: not xsparse-opt %s --pass-pipeline='builtin.module(sparsification{bogus=1})' 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: %if mlir-opt %{ not %mlir-opt %s --pass-pipeline='builtin.module(sparsification{bogus=1})' %}
// OPTION:     {{^}}xsparse-opt: error: invalid pass option: 'bogus' is not an option of pass 'sparsification' (options: parallelization-strategy, sparse-emit-strategy){{$}}
// OPTION-NOT: {{.}}

// RUN: not xsparse-opt %s -p 'sparsification{parallelization-strategy=bogus}' 2>&1 | filecheck %s --check-prefix=VALUE
// RUN: %if mlir-opt %{ not %mlir-opt %s -p 'builtin.module(sparsification{parallelization-strategy=bogus})' %}
// VALUE:     {{^}}xsparse-opt: error: invalid pass option: 'parallelization-strategy=bogus' for pass 'sparsification': expected one of none, dense-outer-loop, any-storage-outer-loop, dense-any-loop, any-storage-any-loop{{$}}
// VALUE-NOT: {{.}}

// RUN: not xsparse-opt %s -p 'sparsifier{vl=abc}' 2>&1 | filecheck %s --check-prefix=INTEGER
// RUN: not xsparse-opt %s --sparsifier=vl=abc 2>&1 | filecheck %s --check-prefix=INTEGER
// RUN: %if mlir-opt %{ not %mlir-opt %s -p 'builtin.module(sparsifier{vl=abc})' %}
// INTEGER:     {{^}}xsparse-opt: error: invalid pass option: 'vl=abc' for pass 'sparsifier': expected an integer{{$}}
// INTEGER-NOT: {{.}}

// RUN: not xsparse-opt %s --pass-pipeline=sparsification 2>&1 | filecheck %s --check-prefix=ANCHOR
// RUN: %if mlir-opt %{ not %mlir-opt %s --pass-pipeline=sparsification 2>&1 | filecheck %s --check-prefix=ANCHOR %}
// ANCHOR:     expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'{{$}}
// ANCHOR-NOT: {{.}}

// RUN: not xsparse-opt %s --pass-pipeline='builtin.module(gpu.module(canonicalize))' 2>&1 | filecheck %s --check-prefix=NESTED
// NESTED:     {{^}}xsparse-opt: error: passes anchored on 'gpu.module' are not supported: xsparse-opt runs every pass on the whole module (anchors: builtin.module, func.func, any){{$}}
// NESTED-NOT: {{.}}

// RUN: not xsparse-opt %s --pass-pipeline='builtin.module(canonicalize' 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: %if mlir-opt %{ not %mlir-opt %s --pass-pipeline='builtin.module(canonicalize' %}
// SYNTAX:     {{^}}xsparse-opt: error: invalid pass pipeline 'builtin.module(canonicalize': expected ')' at end{{$}}
// SYNTAX-NOT: {{.}}

// RUN: not xsparse-opt %s -p 'sparsifier{vl=}' 2>&1 | filecheck %s --check-prefix=EMPTY
// EMPTY:     {{^}}xsparse-opt: error: invalid pass pipeline 'sparsifier{vl=}': expected an option value at column 15{{$}}
// EMPTY-NOT: {{.}}

// RUN: not xsparse-opt %s -p canonicalize --pass-pipeline='builtin.module(cse)' 2>&1 | filecheck %s --check-prefix=BOTH
// RUN: not xsparse-opt %s --cse -p canonicalize 2>&1 | filecheck %s --check-prefix=BOTH
// BOTH:     {{^}}xsparse-opt: error: give passes one way: -p, --pass-pipeline or flags named after them{{$}}
// BOTH-NOT: {{.}}
