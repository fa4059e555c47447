// RUN: xsparse-opt %s -t llvm | filecheck %s
// RUN: xsparse-opt %s -t llvm | python -c "import sys, llvmlite.binding as b; b.parse_assembly(sys.stdin.read()).verify()"

// Fast-math flags of llvm.call, llvm.call_intrinsic and floating-point
// instructions are printed (in LLVM's order; all of them print as `fast`),
// and LLVM accepts the result (an intrinsic that the module also declares is
// declared once).

// CHECK-LABEL: define double @reduce(<4 x double> %{{.*}}, double %{{.*}})
// CHECK:       call reassoc double @llvm.vector.reduce.fadd.v4f64(double 0x0000000000000000, <4 x double> %{{.*}})
// CHECK:       call nnan reassoc double @llvm.vector.reduce.fmul.v4f64(double 0x3FF0000000000000, <4 x double> %{{.*}})
// CHECK:       fadd fast double
// CHECK:       fmul nsz contract double
// CHECK:       call fast double @llvm.sqrt.f64(double %{{.*}})
// CHECK:       call double @llvm.fabs.f64(double %{{.*}})
// CHECK:       call double @llvm.vector.reduce.fadd.v4f64(double %{{.*}}, <4 x double> %{{.*}})
llvm.func @llvm.vector.reduce.fadd.v4f64(f64, vector<4xf64>) -> f64
llvm.func @reduce(%v: vector<4xf64>, %s: f64) -> f64 {
  %zero = llvm.mlir.constant(0.0 : f64) : f64
  %one = llvm.mlir.constant(1.0 : f64) : f64
  %0 = llvm.call @llvm.vector.reduce.fadd.v4f64(%zero, %v) {fastmathFlags = #llvm.fastmath<reassoc>} : (f64, vector<4xf64>) -> f64
  %1 = llvm.call_intrinsic "llvm.vector.reduce.fmul.v4f64"(%one, %v) {fastmathFlags = #llvm.fastmath<reassoc, nnan>} : (f64, vector<4xf64>) -> f64
  %2 = llvm.fadd %0, %1 {fastmathFlags = #llvm.fastmath<fast>} : f64
  %3 = llvm.fmul %2, %s {fastmathFlags = #llvm.fastmath<contract, nsz>} : f64
  %4 = llvm.call_intrinsic "llvm.sqrt.f64"(%3) {fastmathFlags = #llvm.fastmath<nnan, ninf, nsz, arcp, contract, afn, reassoc>} : (f64) -> f64
  %5 = llvm.call_intrinsic "llvm.fabs.f64"(%4) : (f64) -> f64
  %6 = llvm.call_intrinsic "llvm.vector.reduce.fadd.v4f64"(%5, %v) : (f64, vector<4xf64>) -> f64
  llvm.return %6 : f64
}

// Masks of shufflevectors of scalable vectors have no lane list: a splat of
// lane 0 prints as zeroinitializer, an all-poison mask as poison. Fixed-length
// masks list their lanes. (Generic syntax: xDSL's custom syntax makes the
// result fixed-length.)

// CHECK-LABEL: define void @splat(double %{{.*}}, <2 x double> %{{.*}}, ptr %{{.*}})
// CHECK:       shufflevector <vscale x 2 x double> %{{.*}}, <vscale x 2 x double> poison, <vscale x 2 x i32> zeroinitializer
// CHECK:       shufflevector <vscale x 2 x double> %{{.*}}, <vscale x 2 x double> poison, <vscale x 2 x i32> poison
// CHECK:       shufflevector <2 x double> %{{.*}}, <2 x double> %{{.*}}, <3 x i32> <i32 1, i32 poison, i32 2>
llvm.func @splat(%x: f64, %w: vector<2xf64>, %out: !llvm.ptr) {
  %p = llvm.mlir.poison : vector<[2]xf64>
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %i = llvm.insertelement %x, %p[%c0 : i32] : vector<[2]xf64>
  %s = "llvm.shufflevector"(%i, %p) <{mask = array<i32: 0, 0>}> : (vector<[2]xf64>, vector<[2]xf64>) -> vector<[2]xf64>
  %q = "llvm.shufflevector"(%i, %p) <{mask = array<i32: -1, -1>}> : (vector<[2]xf64>, vector<[2]xf64>) -> vector<[2]xf64>
  %f = llvm.shufflevector %w, %w [1, -1, 2] : vector<2xf64>
  %a = llvm.fadd %s, %q : vector<[2]xf64>
  llvm.store %a, %out : vector<[2]xf64>, !llvm.ptr
  %g = llvm.getelementptr %out[1] : (!llvm.ptr) -> !llvm.ptr, vector<3xf64>
  llvm.store %f, %g : vector<3xf64>, !llvm.ptr
  llvm.return
}
