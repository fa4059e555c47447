// MLIR 22's masked vector intrinsics as ops (what `convert-vector-to-llvm`
// prints), read and printed back as mlir-opt-22 prints them, and run.
// RUN: xsparse-opt %s | filecheck %s
// RUN: xsparse-opt %s | xsparse-opt | filecheck %s
// RUN: %if mlir-opt %{ xsparse-opt %s | %mlir-opt | filecheck %s %}
// RUN: xsparse-run %s -e main -entry-point-result=void | filecheck %s --check-prefix=OUT
// RUN: %if mlir-runner %{ %mlir-runner %s -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils | filecheck %s --check-prefix=OUT %}

// CHECK: %{{.*}} = llvm.intr.masked.load %{{.*}}, %{{.*}}, %{{.*}} {alignment = 8 : i32} : (!llvm.ptr, vector<4xi1>, vector<4xf64>) -> vector<4xf64>
// CHECK: llvm.intr.masked.store %{{.*}}, %{{.*}}, %{{.*}} {alignment = 8 : i32} : vector<4xf64>, vector<4xi1> into !llvm.ptr
// CHECK: %{{.*}} = llvm.intr.masked.gather %{{.*}}, %{{.*}}, %{{.*}} {alignment = 8 : i32} : (vector<4x!llvm.ptr>, vector<4xi1>, vector<4xf64>) -> vector<4xf64>
// CHECK: llvm.intr.masked.scatter %{{.*}}, %{{.*}}, %{{.*}} {alignment = 8 : i32} : vector<4xf64>, vector<4xi1> into vector<4x!llvm.ptr>

// a = [1, 2, 3, 4], b = [0, 0, 0, 0]. Lanes 0 and 2 of a loaded over -1,
// and stored to b; lanes 1 and 3 gathered from a at reversed positions;
// lanes 1 and 3 of a scattered to b at reversed positions.
// OUT: {{^}}1, -1, 3, -1{{$}}
// OUT-NEXT: {{^}}-1, 3, -1, 1{{$}}
// OUT-NEXT: {{^}}4, 0, 2, 0{{$}}
llvm.func @printF64(f64)
llvm.func @printComma()
llvm.func @printNewline()
llvm.func @print(%v: vector<4xf64>) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c2 = llvm.mlir.constant(2 : i64) : i64
  %c3 = llvm.mlir.constant(3 : i64) : i64
  %e0 = llvm.extractelement %v[%c0 : i64] : vector<4xf64>
  %e1 = llvm.extractelement %v[%c1 : i64] : vector<4xf64>
  %e2 = llvm.extractelement %v[%c2 : i64] : vector<4xf64>
  %e3 = llvm.extractelement %v[%c3 : i64] : vector<4xf64>
  llvm.call @printF64(%e0) : (f64) -> ()
  llvm.call @printComma() : () -> ()
  llvm.call @printF64(%e1) : (f64) -> ()
  llvm.call @printComma() : () -> ()
  llvm.call @printF64(%e2) : (f64) -> ()
  llvm.call @printComma() : () -> ()
  llvm.call @printF64(%e3) : (f64) -> ()
  llvm.call @printNewline() : () -> ()
  llvm.return
}
llvm.func @main() {
  %one = llvm.mlir.constant(1 : i64) : i64
  %a = llvm.alloca %one x !llvm.array<4 x f64> {alignment = 32 : i64} : (i64) -> !llvm.ptr
  %b = llvm.alloca %one x !llvm.array<4 x f64> {alignment = 32 : i64} : (i64) -> !llvm.ptr
  %init = llvm.mlir.constant(dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf64>) : vector<4xf64>
  %zeros = llvm.mlir.constant(dense<0.0> : vector<4xf64>) : vector<4xf64>
  llvm.store %init, %a : vector<4xf64>, !llvm.ptr
  llvm.store %zeros, %b : vector<4xf64>, !llvm.ptr
  %even = llvm.mlir.constant(dense<[true, false, true, false]> : vector<4xi1>) : vector<4xi1>
  %odd = llvm.mlir.constant(dense<[false, true, false, true]> : vector<4xi1>) : vector<4xi1>
  %minus = llvm.mlir.constant(dense<-1.0> : vector<4xf64>) : vector<4xf64>
  %l = llvm.intr.masked.load %a, %even, %minus {alignment = 8 : i32} : (!llvm.ptr, vector<4xi1>, vector<4xf64>) -> vector<4xf64>
  llvm.call @print(%l) : (vector<4xf64>) -> ()
  llvm.intr.masked.store %l, %b, %even {alignment = 8 : i32} : vector<4xf64>, vector<4xi1> into !llvm.ptr
  %reversed = llvm.mlir.constant(dense<[3, 2, 1, 0]> : vector<4xi64>) : vector<4xi64>
  %pa = llvm.getelementptr %a[%reversed] : (!llvm.ptr, vector<4xi64>) -> vector<4x!llvm.ptr>, f64
  %pb = llvm.getelementptr %b[%reversed] : (!llvm.ptr, vector<4xi64>) -> vector<4x!llvm.ptr>, f64
  %g = llvm.intr.masked.gather %pa, %odd, %minus {alignment = 8 : i32} : (vector<4x!llvm.ptr>, vector<4xi1>, vector<4xf64>) -> vector<4xf64>
  llvm.call @print(%g) : (vector<4xf64>) -> ()
  llvm.intr.masked.scatter %init, %pb, %odd {alignment = 8 : i32} : vector<4xf64>, vector<4xi1> into vector<4x!llvm.ptr>
  %r = llvm.load %b : !llvm.ptr -> vector<4xf64>
  llvm.call @print(%r) : (vector<4xf64>) -> ()
  llvm.return
}
