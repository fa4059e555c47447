// RUN: %xsparse-roundtrip | filecheck %s
// RUN: not xsparse-opt --split-input-file %S/inputs/cmp-predicates-invalid.mlir 2>&1 | filecheck %s --check-prefix=ERR

// arith.cmpi / arith.cmpf read the predicate as a keyword or, as MLIR's enum
// parser also accepts, a string; both print as the keyword.

// CHECK-LABEL: func.func @predicates
func.func @predicates(%a: f64, %b: f64, %i: i32) -> (i1, i1, i1, i1, i1) {
  // CHECK-NEXT: %0 = arith.cmpf olt, %a, %b : f64
  // CHECK-NEXT: %1 = arith.cmpf uno, %a, %b fastmath<fast> : f64
  // CHECK-NEXT: %2 = arith.cmpi sgt, %i, %i : i32
  // CHECK-NEXT: %3 = arith.cmpf oge, %a, %b : f64
  // CHECK-NEXT: %4 = arith.cmpi ule, %i, %i : i32
  %0 = arith.cmpf "olt", %a, %b : f64
  %1 = arith.cmpf "uno", %a, %b fastmath<fast> : f64
  %2 = arith.cmpi "sgt", %i, %i : i32
  %3 = arith.cmpf oge, %a, %b : f64
  %4 = arith.cmpi ule, %i, %i : i32
  func.return %0, %1, %2, %3, %4 : i1, i1, i1, i1, i1
}

// ERR: cmp-predicates-invalid.mlir:2:19: error: custom op 'arith.cmpf' invalid predicate attribute specification: "olx"
// ERR: cmp-predicates-invalid.mlir:9:19: error: custom op 'arith.cmpi' expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]
