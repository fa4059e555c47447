// RUN: %mlir-opt --convert-vector-to-scf --convert-scf-to-cf --convert-vector-to-llvm --convert-to-llvm --reconcile-unrealized-casts %s | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.mlir-runner
// RUN: python -m xsparse.backend %s > %t.xsparse
// RUN: diff %t.mlir-runner %t.xsparse
// RUN: filecheck %s < %t.xsparse
// REQUIRES: mlir-runner

// vector.print through our runtime support prints what mlir-runner prints.

func.func @main() {
  %c = arith.constant dense<[1,2]> : vector<2xindex>
  vector.print %c : vector<2xindex>
  %d = arith.constant dense<[true,false]> : vector<2xi1>
  vector.print %d : vector<2xi1>
  %e = arith.constant dense<[-3,4]> : vector<2xi32>
  vector.print %e : vector<2xi32>
  %f = arith.constant 2.5 : f32
  vector.print %f : f32
  %g = arith.constant dense<[1.5, -0.0, 1.0e20, 3.25e-7]> : vector<4xf64>
  vector.print %g : vector<4xf64>
  %r = vector.reduction <add>, %g : vector<4xf64> into f64
  vector.print %r : f64
  %h = arith.constant dense<[5, -7, 3, 9]> : vector<4xi64>
  %m = vector.reduction <minsi>, %h : vector<4xi64> into i64
  vector.print %m : i64
  %n = arith.constant 3 : index
  %mask = vector.create_mask %n : vector<4xi1>
  vector.print %mask : vector<4xi1>
  %x = vector.extract %h[2] : i64 from vector<4xi64>
  vector.print %x : i64
  %b = vector.broadcast %f : f32 to vector<3xf32>
  vector.print %b : vector<3xf32>
  %nan = arith.constant 0x7FF8000000000000 : f64
  %negnan = arith.negf %nan : f64
  vector.print %negnan : f64
  %inf = arith.constant 0x7FF0000000000000 : f64
  vector.print %inf : f64
  return
}

// CHECK:      ( 1, 2 )
// CHECK-NEXT: ( 1, 0 )
// CHECK-NEXT: ( -3, 4 )
// CHECK-NEXT: 2.5
// CHECK-NEXT: ( 1.5, -0, 1e+20, 3.25e-07 )
// CHECK-NEXT: 1e+20
// CHECK-NEXT: -7
// CHECK-NEXT: ( 1, 1, 1, 0 )
// CHECK-NEXT: 3
// CHECK-NEXT: ( 2.5, 2.5, 2.5 )
// CHECK-NEXT: -nan
// CHECK-NEXT: inf
