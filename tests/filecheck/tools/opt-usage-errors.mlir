// A mistake on the command line is one line on stderr and exit 1, never a
// traceback. mlir-opt-22 refuses the same command lines.
// RUN: not xsparse-opt --bogus-flag %s 2>&1 | filecheck %s --check-prefix=FLAG
// RUN: %if mlir-opt %{ not %mlir-opt --bogus-flag %s %}
// FLAG:     {{^}}xsparse-opt: error: unrecognized arguments: --bogus-flag{{$}}
// FLAG-NOT: {{.}}

// RUN: not xsparse-opt %s %s 2>&1 | filecheck %s --check-prefix=TWO-FILES
// RUN: %if mlir-opt %{ not %mlir-opt %s %s %}
// TWO-FILES:     {{^}}xsparse-opt: error: unrecognized arguments: {{.*}}opt-usage-errors.mlir{{$}}
// TWO-FILES-NOT: {{.}}

// RUN: not xsparse-opt %s -o 2>&1 | filecheck %s --check-prefix=NO-VALUE
// RUN: %if mlir-opt %{ not %mlir-opt %s -o %}
// NO-VALUE:     {{^}}xsparse-opt: error: argument -o/--output-file: expected one argument{{$}}
// NO-VALUE-NOT: {{.}}

// RUN: not xsparse-opt %s -t bogus 2>&1 | filecheck %s --check-prefix=TARGET
// TARGET:     {{^}}xsparse-opt: error: unknown target 'bogus' (targets: {{.*}}llvm{{.*}}){{$}}
// TARGET-NOT: {{.}}

// `--version` names xsparse's version and xDSL's; `--help` lists the flags.
// RUN: xsparse-opt --version | filecheck %s --check-prefix=VERSION
// VERSION:     {{^}}xsparse-opt {{[0-9]+\.[0-9]+\.[0-9]+}} (xDSL {{[0-9]+\.[0-9]+\.[0-9]+}}){{$}}
// VERSION-NOT: {{.}}
// RUN: xsparse-opt --help | filecheck %s --check-prefix=HELP
// HELP: --pass-pipeline
// HELP: --verify-diagnostics
// HELP: --mlir-print-op-generic

// mlir-opt's spellings: `--mlir-print-op-generic`, and long flags with one dash.
// RUN: xsparse-opt --mlir-print-op-generic %s | filecheck %s --check-prefix=GENERIC
// RUN: xsparse-opt -mlir-print-op-generic -split-input-file %s | filecheck %s --check-prefix=GENERIC
// RUN: %if mlir-opt %{ %mlir-opt -mlir-print-op-generic -split-input-file %s | filecheck %s --check-prefix=GENERIC %}
// GENERIC:      "func.func"() <{
// GENERIC:        "func.return"(%{{.*}}) : (i32) -> ()
func.func @identity(%a: i32) -> i32 {
  return %a : i32
}
