// RUN: xsparse-run %s -e main -entry-point-result=void | filecheck %s
// RUN: %if mlir-runner %{ %mlir-runner %s -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck %s %}

// The LLVM dialect that mlir-opt-22 prints for math and complex ops runs:
// llvm.intr.* float intrinsics (atan2 among them, which xDSL lacks) and a
// struct constant (a complex number, `[re, im] : !llvm.struct<(f64, f64)>`).

// CHECK:      0.841471
// CHECK-NEXT: 0.785398
// CHECK-NEXT: -2
// CHECK-NEXT: 3
// CHECK-NEXT: 2.5
module {
  llvm.func @printF64(f64)
  llvm.func @printNewline()
  llvm.func @show(%x: f64) {
    llvm.call @printF64(%x) : (f64) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.return
  }
  llvm.func @main() {
    %one = llvm.mlir.constant(1.000000e+00 : f64) : f64
    %0 = llvm.intr.sin(%one) : (f64) -> f64
    llvm.call @show(%0) : (f64) -> ()
    %1 = llvm.intr.atan2(%one, %one) : (f64, f64) -> f64
    llvm.call @show(%1) : (f64) -> ()
    %z = llvm.mlir.constant([3.000000e+00, -2.000000e+00]) : !llvm.struct<(f64, f64)>
    %im = llvm.extractvalue %z[1] : !llvm.struct<(f64, f64)>
    llvm.call @show(%im) : (f64) -> ()
    %re = llvm.extractvalue %z[0] : !llvm.struct<(f64, f64)>
    %2 = llvm.intr.fabs(%re) : (f64) -> f64
    llvm.call @show(%2) : (f64) -> ()
    %half = llvm.mlir.constant(5.000000e-01 : f64) : f64
    %3 = llvm.intr.fma(%2, %half, %one) : (f64, f64, f64) -> f64
    llvm.call @show(%3) : (f64) -> ()
    llvm.return
  }
}
