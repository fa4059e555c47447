// `xsparse-opt --help` lists xsparse's passes first, each with its options as
// `mlir-opt --help` lists them (the sparsifier's are MLIR 22's), then the
// names of xDSL's passes on a few lines.
// RUN: xsparse-opt --help | filecheck %s
// RUN: xsparse-opt -help | filecheck %s
// CHECK: Passes (xsparse's; each is also a flag, as in mlir-opt):
// CHECK:      --sparsification {{ +}}-   MLIR's `sparsification` pass
// CHECK:      --sparsifier {{ +}}-   MLIR 22's `sparsifier` pipeline, with every option of its `--help`
// CHECK-NEXT:   --parallelization-strategy=<value> {{ +}}- Set the parallelization strategy. (default: none)
// CHECK-NEXT:     =none
// CHECK:        --vl=<int> {{ +}}- Set the vector length (0 disables vectorization). (default: 0)
// CHECK:        --gpu-triple=<string> {{ +}}- GPU target triple: GPU code generation, refused.
// CHECK: xDSL's passes (-p NAME; options as xdsl-opt takes them):
// CHECK-NEXT: {{^  [a-z]}}

// mlir-opt's debugging flags: the IR after each pass (on stderr), the time
// each pass took.
// RUN: xsparse-opt %s --sparsifier --mlir-print-ir-after-all -o /dev/null 2>&1 | filecheck %s --check-prefix=AFTER
// AFTER: // -----// IR Dump After SparsifierPass (sparsifier) //----- //
// AFTER-NEXT: builtin.module {
// RUN: xsparse-opt %s --sparsifier --mlir-timing -o /dev/null 2>&1 | filecheck %s --check-prefix=TIMING
// TIMING: sparsifier
func.func @main() {
  return
}
