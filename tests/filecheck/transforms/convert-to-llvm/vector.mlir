// RUN: xsparse-opt --disable-verify %s -p convert-to-llvm | filecheck %s

// CHECK-LABEL: llvm.func @kernel
// CHECK:         llvm.intr.masked.load %{{.*}} {alignment = 8 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xf64>) -> vector<8xf64>
// CHECK:         llvm.call_intrinsic "llvm.vector.reduce.fadd.v8f64"
// CHECK:         llvm.intr.masked.gather %{{.*}} {alignment = 8 : i32} : (vector<8x!llvm.ptr>, vector<8xi1>, vector<8xf64>) -> vector<8xf64>
// CHECK:         llvm.call_intrinsic "llvm.vector.reduce.smax.v8i64"
// CHECK:         llvm.call @printOpen() : () -> ()
func.func @kernel(%a: memref<?xf64>, %n: index, %idx: vector<8xindex>, %iv: vector<8xi64>) -> f64 {
  %c0 = arith.constant 0 : index
  %pass = arith.constant dense<0.0> : vector<8xf64>
  %mask = vector.create_mask %n : vector<8xi1>
  %v = vector.maskedload %a[%c0], %mask, %pass : memref<?xf64>, vector<8xi1>, vector<8xf64> into vector<8xf64>
  %s = vector.reduction <add>, %v : vector<8xf64> into f64
  %g = vector.gather %a[%c0][%idx], %mask, %pass : memref<?xf64>, vector<8xindex>, vector<8xi1>, vector<8xf64> into vector<8xf64>
  %m = vector.reduction <maxsi>, %iv : vector<8xi64> into i64
  vector.print %g : vector<8xf64>
  return %s : f64
}
