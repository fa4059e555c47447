// RUN: xsparse-opt %s -p convert-arith-to-llvm | filecheck %s

// CHECK-LABEL: func.func @ops
// CHECK:       llvm.add %{{.*}}, %{{.*}} : i32
// CHECK:       llvm.fmul %{{.*}}, %{{.*}} : f64
// CHECK:       llvm.icmp "ult" %{{.*}}, %{{.*}} : i32
// CHECK:       llvm.fcmp "olt" %{{.*}}, %{{.*}} : f64
// CHECK:       llvm.call_intrinsic "llvm.smin.i32"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK:       llvm.call_intrinsic "llvm.maxnum.f64"(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
// CHECK:       llvm.sext %{{.*}} : i32 to i64
// CHECK:       llvm.zext %{{.*}} : i32 to i64
// CHECK:       llvm.sitofp %{{.*}} : i32 to f64
// CHECK:       llvm.fptosi %{{.*}} : f64 to i32
// CHECK:       llvm.uitofp %{{.*}} : i32 to f64
// CHECK:       llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
// CHECK:       llvm.mlir.constant(dense<[1.000000e+00, 2.000000e+00]> : vector<2xf64>) : vector<2xf64>
func.func @ops(%a: i32, %b: i32, %x: f64, %y: f64) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.mulf %x, %y : f64
  %2 = arith.cmpi ult, %a, %b : i32
  %3 = arith.cmpf olt, %x, %y : f64
  %4 = arith.minsi %a, %b : i32
  %5 = arith.maxnumf %x, %y : f64
  %6 = arith.index_cast %a : i32 to index
  %7 = arith.index_castui %a : i32 to index
  %8 = arith.sitofp %a : i32 to f64
  %9 = arith.fptosi %x : f64 to i32
  %10 = arith.uitofp %a : i32 to f64
  %11 = arith.select %2, %a, %b : i32
  %12 = arith.constant dense<[1.0, 2.0]> : vector<2xf64>
  return
}

// Fast-math flags carry over to the llvm op (as in MLIR 22).
func.func @fast(%a: f64, %b: f64) -> f64 {
  %c = arith.addf %a, %b fastmath<reassoc,nnan> : f64
  return %c : f64
}
// CHECK-LABEL: func.func @fast(
// CHECK:         llvm.fadd %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<{{(reassoc,nnan|nnan, reassoc)}}>} : f64
