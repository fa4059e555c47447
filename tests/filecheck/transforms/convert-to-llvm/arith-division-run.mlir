// RUN: xsparse-run %s | filecheck %s

// Integer division by 0 and INT_MIN by -1 print numpy's values (0; INT_MIN,
// wrapped; the remainders 0), in vectors and scalars. (MLIR 22 leaves them
// undefined: `mlir-opt-22 --sparsifier | mlir-runner-22` dies of SIGFPE.)
// a = [INT_MIN, 7, -7, 5], b = [-1, 0, 2, 0]:
// CHECK:      ( -2147483648, 0, -3, 0 )
// CHECK-NEXT: ( 0, 0, -1, 0 )
// CHECK-NEXT: ( -2147483648, 0, -4, 0 )
// CHECK-NEXT: ( -2147483648, 0, -3, 0 )
// CHECK-NEXT: ( 0, 0, 2147483644, 0 )
// CHECK-NEXT: ( -2147483648, 0, 1, 0 )
// CHECK-NEXT: ( 1, 0, 2147483645, 0 )
// i8: -128 / -1, -128 % -1, 5 / 0, 5 % 0
// CHECK-NEXT: -128
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 0
func.func private @divide(%a: vector<4xi32>, %b: vector<4xi32>) {
  %0 = arith.divsi %a, %b : vector<4xi32>
  vector.print %0 : vector<4xi32>
  %1 = arith.remsi %a, %b : vector<4xi32>
  vector.print %1 : vector<4xi32>
  %2 = arith.floordivsi %a, %b : vector<4xi32>
  vector.print %2 : vector<4xi32>
  %3 = arith.ceildivsi %a, %b : vector<4xi32>
  vector.print %3 : vector<4xi32>
  %4 = arith.divui %a, %b : vector<4xi32>
  vector.print %4 : vector<4xi32>
  %5 = arith.remui %a, %b : vector<4xi32>
  vector.print %5 : vector<4xi32>
  %6 = arith.ceildivui %a, %b : vector<4xi32>
  vector.print %6 : vector<4xi32>
  return
}

func.func private @scalars(%a: i8, %b: i8, %c: i8, %z: i8) {
  %0 = arith.divsi %a, %b : i8
  vector.print %0 : i8
  %1 = arith.remsi %a, %b : i8
  vector.print %1 : i8
  %2 = arith.divsi %c, %z : i8
  vector.print %2 : i8
  %3 = arith.remui %c, %z : i8
  vector.print %3 : i8
  return
}

func.func @main() {
  %a = arith.constant dense<[-2147483648, 7, -7, 5]> : vector<4xi32>
  %b = arith.constant dense<[-1, 0, 2, 0]> : vector<4xi32>
  func.call @divide(%a, %b) : (vector<4xi32>, vector<4xi32>) -> ()
  %min = arith.constant -128 : i8
  %m1 = arith.constant -1 : i8
  %five = arith.constant 5 : i8
  %zero = arith.constant 0 : i8
  func.call @scalars(%min, %m1, %five, %zero) : (i8, i8, i8, i8) -> ()
  return
}
