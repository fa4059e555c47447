// RUN: xsparse-opt %s -p convert-complex-to-standard | filecheck %s
// RUN: xsparse-opt %s -p convert-complex-to-standard,convert-complex-to-llvm | filecheck %s --check-prefix=LLVM

// Complex ops become float arithmetic on their parts, by MLIR's formulas
// (convert-complex-to-standard); complex.re of a complex.create folds.

// CHECK-LABEL: func.func @add
// CHECK-NEXT:    %[[AR:[0-9a-z_]+]] = complex.re %a : complex<f64>
// CHECK-NEXT:    %[[BR:[0-9a-z_]+]] = complex.re %b : complex<f64>
// CHECK-NEXT:    %[[RE:[0-9a-z_]+]] = arith.addf %[[AR]], %[[BR]] : f64
// CHECK-NEXT:    %[[AI:[0-9a-z_]+]] = complex.im %a : complex<f64>
// CHECK-NEXT:    %[[BI:[0-9a-z_]+]] = complex.im %b : complex<f64>
// CHECK-NEXT:    %[[IM:[0-9a-z_]+]] = arith.addf %[[AI]], %[[BI]] : f64
// CHECK-NEXT:    %[[Z:[0-9a-z_]+]] = complex.create %[[RE]], %[[IM]] : complex<f64>
// CHECK-NEXT:    func.return %[[Z]] : complex<f64>
func.func @add(%a: complex<f64>, %b: complex<f64>) -> complex<f64> {
  %0 = complex.add %a, %b : complex<f64>
  return %0 : complex<f64>
}

// (ar br - ai bi) + i (ai br + ar bi)
// CHECK-LABEL: func.func @mul
// CHECK-NEXT:    %[[AR:[0-9a-z_]+]] = complex.re %a : complex<f32>
// CHECK-NEXT:    %[[AI:[0-9a-z_]+]] = complex.im %a : complex<f32>
// CHECK-NEXT:    %[[BR:[0-9a-z_]+]] = complex.re %b : complex<f32>
// CHECK-NEXT:    %[[BI:[0-9a-z_]+]] = complex.im %b : complex<f32>
// CHECK-NEXT:    %[[RR:[0-9a-z_]+]] = arith.mulf %[[AR]], %[[BR]] : f32
// CHECK-NEXT:    %[[II:[0-9a-z_]+]] = arith.mulf %[[AI]], %[[BI]] : f32
// CHECK-NEXT:    %[[RE:[0-9a-z_]+]] = arith.subf %[[RR]], %[[II]] : f32
// CHECK-NEXT:    %[[IR:[0-9a-z_]+]] = arith.mulf %[[AI]], %[[BR]] : f32
// CHECK-NEXT:    %[[RI:[0-9a-z_]+]] = arith.mulf %[[AR]], %[[BI]] : f32
// CHECK-NEXT:    %[[IM:[0-9a-z_]+]] = arith.addf %[[IR]], %[[RI]] : f32
// CHECK-NEXT:    %[[Z:[0-9a-z_]+]] = complex.create %[[RE]], %[[IM]] : complex<f32>
// CHECK-NEXT:    func.return %[[Z]] : complex<f32>
func.func @mul(%a: complex<f32>, %b: complex<f32>) -> complex<f32> {
  %0 = complex.mul %a, %b : complex<f32>
  return %0 : complex<f32>
}

// The conjugate's parts feed the negation directly.
// CHECK-LABEL: func.func @conj_neg
// CHECK-NEXT:    %[[RE:[0-9a-z_]+]] = complex.re %a : complex<f64>
// CHECK-NEXT:    %[[IM:[0-9a-z_]+]] = complex.im %a : complex<f64>
// CHECK-NEXT:    %[[CI:[0-9a-z_]+]] = arith.negf %[[IM]] : f64
// CHECK-NEXT:    %[[NR:[0-9a-z_]+]] = arith.negf %[[RE]] : f64
// CHECK-NEXT:    %[[NI:[0-9a-z_]+]] = arith.negf %[[CI]] : f64
// CHECK-NEXT:    %[[Z:[0-9a-z_]+]] = complex.create %[[NR]], %[[NI]] : complex<f64>
// CHECK-NEXT:    func.return %[[Z]] : complex<f64>
func.func @conj_neg(%a: complex<f64>) -> complex<f64> {
  %0 = complex.conj %a : complex<f64>
  %1 = complex.neg %0 : complex<f64>
  return %1 : complex<f64>
}

// exp(re) (cos(im) + i sin(im)), with the op's fastmath flags.
// CHECK-LABEL: func.func @exp
// CHECK-NEXT:    %[[RE:[0-9a-z_]+]] = complex.re %a : complex<f64>
// CHECK-NEXT:    %[[IM:[0-9a-z_]+]] = complex.im %a : complex<f64>
// CHECK-NEXT:    %[[E:[0-9a-z_]+]] = math.exp %[[RE]] fastmath<nnan> : f64
// CHECK-NEXT:    %[[C:[0-9a-z_]+]] = math.cos %[[IM]] fastmath<nnan> : f64
// CHECK-NEXT:    %[[S:[0-9a-z_]+]] = math.sin %[[IM]] fastmath<nnan> : f64
// CHECK-NEXT:    %[[R:[0-9a-z_]+]] = arith.mulf %[[E]], %[[C]] fastmath<nnan> : f64
// CHECK-NEXT:    %[[I:[0-9a-z_]+]] = arith.mulf %[[E]], %[[S]] fastmath<nnan> : f64
// CHECK-NEXT:    %[[Z:[0-9a-z_]+]] = complex.create %[[R]], %[[I]] : complex<f64>
// CHECK-NEXT:    func.return %[[Z]] : complex<f64>
func.func @exp(%a: complex<f64>) -> complex<f64> {
  %0 = complex.exp %a fastmath<nnan> : complex<f64>
  return %0 : complex<f64>
}

// max * sqrt(1 + (min / max)^2), min where that is NaN (0 / 0).
// CHECK-LABEL: func.func @abs
// CHECK-NEXT:    %[[RE:[0-9a-z_]+]] = complex.re %a : complex<f64>
// CHECK-NEXT:    %[[IM:[0-9a-z_]+]] = complex.im %a : complex<f64>
// CHECK-NEXT:    %[[ONE:[0-9a-z_]+]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT:    %[[AR:[0-9a-z_]+]] = math.absf %[[RE]] : f64
// CHECK-NEXT:    %[[AI:[0-9a-z_]+]] = math.absf %[[IM]] : f64
// CHECK-NEXT:    %[[MAX:[0-9a-z_]+]] = arith.maximumf %[[AR]], %[[AI]] : f64
// CHECK-NEXT:    %[[MIN:[0-9a-z_]+]] = arith.minimumf %[[AR]], %[[AI]] : f64
// CHECK-NEXT:    %[[Q:[0-9a-z_]+]] = arith.divf %[[MIN]], %[[MAX]] : f64
// CHECK-NEXT:    %[[QQ:[0-9a-z_]+]] = arith.mulf %[[Q]], %[[Q]] : f64
// CHECK-NEXT:    %[[S:[0-9a-z_]+]] = arith.addf %[[QQ]], %[[ONE]] : f64
// CHECK-NEXT:    %[[R:[0-9a-z_]+]] = math.sqrt %[[S]] : f64
// CHECK-NEXT:    %[[ABS:[0-9a-z_]+]] = arith.mulf %[[MAX]], %[[R]] : f64
// CHECK-NEXT:    %[[NAN:[0-9a-z_]+]] = arith.cmpf uno, %[[ABS]], %[[ABS]] : f64
// CHECK-NEXT:    %[[X:[0-9a-z_]+]] = arith.select %[[NAN]], %[[MIN]], %[[ABS]] : f64
// CHECK-NEXT:    func.return %[[X]] : f64
func.func @abs(%a: complex<f64>) -> f64 {
  %0 = complex.abs %a : complex<f64>
  return %0 : f64
}

// Smith's division: by the larger part of the divisor, with MLIR's corner
// cases selected last.
// CHECK-LABEL: func.func @div
// CHECK:         %[[BR:[0-9a-z_]+]] = complex.re %b : complex<f64>
// CHECK-NEXT:    %[[BI:[0-9a-z_]+]] = complex.im %b : complex<f64>
// CHECK-NEXT:    %{{.*}} = arith.divf %[[BR]], %[[BI]] : f64
// CHECK:         %{{.*}} = arith.divf %[[BI]], %[[BR]] : f64
// CHECK:         %[[ABR:[0-9a-z_]+]] = math.absf %[[BR]] : f64
// CHECK-NEXT:    %[[ABI:[0-9a-z_]+]] = math.absf %[[BI]] : f64
// CHECK:         %{{.*}} = arith.cmpf olt, %[[ABR]], %[[ABI]] : f64
// CHECK:         %[[Z:[0-9a-z_]+]] = complex.create %{{.*}}, %{{.*}} : complex<f64>
// CHECK-NEXT:    func.return %[[Z]] : complex<f64>
// CHECK-NOT:     complex.div
func.func @div(%a: complex<f64>, %b: complex<f64>) -> complex<f64> {
  %0 = complex.div %a, %b : complex<f64>
  return %0 : complex<f64>
}

// Then complex.create / re / im / constant as llvm struct operations.
// LLVM-LABEL: func.func @add
// LLVM-NEXT:    %[[A:[0-9a-z_]+]] = builtin.unrealized_conversion_cast %a : complex<f64> to !llvm.struct<(f64, f64)>
// LLVM-NEXT:    %[[AR:[0-9a-z_]+]] = llvm.extractvalue %[[A]][0] : !llvm.struct<(f64, f64)>
// LLVM-NEXT:    %[[B:[0-9a-z_]+]] = builtin.unrealized_conversion_cast %b : complex<f64> to !llvm.struct<(f64, f64)>
// LLVM-NEXT:    %[[BR:[0-9a-z_]+]] = llvm.extractvalue %[[B]][0] : !llvm.struct<(f64, f64)>
// LLVM-NEXT:    %[[RE:[0-9a-z_]+]] = arith.addf %[[AR]], %[[BR]] : f64
// LLVM-NEXT:    %[[A2:[0-9a-z_]+]] = builtin.unrealized_conversion_cast %a : complex<f64> to !llvm.struct<(f64, f64)>
// LLVM-NEXT:    %[[AI:[0-9a-z_]+]] = llvm.extractvalue %[[A2]][1] : !llvm.struct<(f64, f64)>
// LLVM-NEXT:    %[[B2:[0-9a-z_]+]] = builtin.unrealized_conversion_cast %b : complex<f64> to !llvm.struct<(f64, f64)>
// LLVM-NEXT:    %[[BI:[0-9a-z_]+]] = llvm.extractvalue %[[B2]][1] : !llvm.struct<(f64, f64)>
// LLVM-NEXT:    %[[IM:[0-9a-z_]+]] = arith.addf %[[AI]], %[[BI]] : f64
// LLVM-NEXT:    %[[P:[0-9a-z_]+]] = llvm.mlir.poison : !llvm.struct<(f64, f64)>
// LLVM-NEXT:    %[[S:[0-9a-z_]+]] = llvm.insertvalue %[[RE]], %[[P]][0] : !llvm.struct<(f64, f64)>
// LLVM-NEXT:    %[[Z:[0-9a-z_]+]] = llvm.insertvalue %[[IM]], %[[S]][1] : !llvm.struct<(f64, f64)>
// LLVM-NEXT:    %[[C:[0-9a-z_]+]] = builtin.unrealized_conversion_cast %[[Z]] : !llvm.struct<(f64, f64)> to complex<f64>
// LLVM-NEXT:    func.return %[[C]] : complex<f64>

// LLVM-LABEL: func.func @constant
// LLVM-NEXT:    %[[RE:[0-9a-z_]+]] = llvm.mlir.constant(1.500000e+00 : f32) : f32
// LLVM-NEXT:    %[[IM:[0-9a-z_]+]] = llvm.mlir.constant(-2.000000e+00 : f32) : f32
// LLVM-NEXT:    %[[P:[0-9a-z_]+]] = llvm.mlir.poison : !llvm.struct<(f32, f32)>
// LLVM-NEXT:    %[[S:[0-9a-z_]+]] = llvm.insertvalue %[[RE]], %[[P]][0] : !llvm.struct<(f32, f32)>
// LLVM-NEXT:    %[[Z:[0-9a-z_]+]] = llvm.insertvalue %[[IM]], %[[S]][1] : !llvm.struct<(f32, f32)>
// LLVM-NEXT:    %[[C:[0-9a-z_]+]] = builtin.unrealized_conversion_cast %[[Z]] : !llvm.struct<(f32, f32)> to complex<f32>
// LLVM-NEXT:    func.return %[[C]] : complex<f32>
func.func @constant() -> complex<f32> {
  %0 = complex.constant [1.5 : f32, -2.0 : f32] : complex<f32>
  return %0 : complex<f32>
}
