// RUN: xsparse-opt %s -p convert-math-to-llvm | filecheck %s

// A libm math op on a fixed-length 1-D vector calls libm once per lane (MLIR's
// convert-math-to-libm unrolls vectors the same way).

func.func @lanes(%v: vector<2xf64>, %w: vector<2xf32>, %x: vector<2xf32>) -> (vector<2xf64>, vector<2xf32>) {
  %0 = math.tanh %v : vector<2xf64>
  %1 = math.atan2 %w, %x : vector<2xf32>
  return %0, %1 : vector<2xf64>, vector<2xf32>
}

// CHECK-LABEL: func.func @lanes(
// CHECK-SAME:    %[[V:.*]]: vector<2xf64>, %[[W:.*]]: vector<2xf32>, %[[X:.*]]: vector<2xf32>)
// CHECK-NEXT:    %[[P:.*]] = llvm.mlir.poison : vector<2xf64>
// CHECK-NEXT:    %[[I0:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[E0:.*]] = llvm.extractelement %[[V]][%[[I0]] : i64] : vector<2xf64>
// CHECK-NEXT:    %[[T0:.*]] = llvm.call @tanh(%[[E0]]) : (f64) -> f64
// CHECK-NEXT:    %[[R0:.*]] = llvm.insertelement %[[T0]], %[[P]][%[[I0]] : i64] : vector<2xf64>
// CHECK-NEXT:    %[[I1:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[E1:.*]] = llvm.extractelement %[[V]][%[[I1]] : i64] : vector<2xf64>
// CHECK-NEXT:    %[[T1:.*]] = llvm.call @tanh(%[[E1]]) : (f64) -> f64
// CHECK-NEXT:    %[[R1:.*]] = llvm.insertelement %[[T1]], %[[R0]][%[[I1]] : i64] : vector<2xf64>
// CHECK-NEXT:    %[[Q:.*]] = llvm.mlir.poison : vector<2xf32>
// CHECK-NEXT:    %[[J0:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[W0:.*]] = llvm.extractelement %[[W]][%[[J0]] : i64] : vector<2xf32>
// CHECK-NEXT:    %[[X0:.*]] = llvm.extractelement %[[X]][%[[J0]] : i64] : vector<2xf32>
// CHECK-NEXT:    %[[A0:.*]] = llvm.call @atan2f(%[[W0]], %[[X0]]) : (f32, f32) -> f32
// CHECK-NEXT:    %[[S0:.*]] = llvm.insertelement %[[A0]], %[[Q]][%[[J0]] : i64] : vector<2xf32>
// CHECK:         %[[S1:.*]] = llvm.insertelement %{{.*}}, %[[S0]][%{{.*}} : i64] : vector<2xf32>
// CHECK-NEXT:    func.return %[[R1]], %[[S1]] : vector<2xf64>, vector<2xf32>
// CHECK:       llvm.func @tanh(f64) -> f64
// CHECK-NEXT:  llvm.func @atan2f(f32, f32) -> f32
