// RUN: %xsparse-roundtrip | filecheck %s
// RUN: %xsparse-generic-roundtrip | filecheck %s
// RUN: xsparse-opt --print-op-generic %s | filecheck %s --check-prefix=GENERIC

// vector.print as MLIR 22 reads and prints it: a value, punctuation other
// than the default newline, a string, or nothing (a newline).

// CHECK-LABEL: func.func @prints
func.func @prints(%x: f32, %v: vector<2x3xf64>) {
  // CHECK-NEXT: vector.print %x : f32
  // CHECK-NEXT: vector.print %v : vector<2x3xf64> punctuation <comma>
  // CHECK-NEXT: vector.print %x : f32 punctuation <no_punctuation>
  // CHECK-NEXT: vector.print punctuation <open>
  // CHECK-NEXT: vector.print punctuation <close>
  // CHECK-NEXT: vector.print str "two\0Alines"
  // CHECK-NEXT: vector.print
  // CHECK-NEXT: vector.print
  vector.print %x : f32
  vector.print %v : vector<2x3xf64> punctuation <comma>
  vector.print %x : f32 punctuation <no_punctuation>
  vector.print punctuation <open>
  vector.print punctuation <close>
  vector.print str "two\nlines"
  vector.print punctuation <newline>
  vector.print
  func.return
}

// GENERIC: "vector.print"(%x) <{punctuation = #vector.punctuation<newline>}> : (f32) -> ()
// GENERIC: "vector.print"() <{punctuation = #vector.punctuation<newline>, stringLiteral = "two\0Alines"}> : () -> ()
