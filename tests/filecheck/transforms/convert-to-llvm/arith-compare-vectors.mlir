// RUN: xsparse-opt --disable-verify %s -p convert-arith-to-llvm --print-op-generic | filecheck %s

// Comparisons of vectors give vectors of i1 with the operands' shape and
// scalable dims. (xDSL's arith.cmpi/cmpf only verify with i1 results, hence
// --disable-verify; the vectorizer builds such ops.)

// CHECK-LABEL: "func.func"() <{sym_name = "compare"
// CHECK:       "llvm.icmp"(%{{.*}}, %{{.*}}) <{predicate = 6 : i64}> : (vector<[4]xi64>, vector<[4]xi64>) -> vector<[4]xi1>
// CHECK:       "llvm.fcmp"(%{{.*}}, %{{.*}}) <{predicate = 4 : i64{{.*}}}> : (vector<[2]xf64>, vector<[2]xf64>) -> vector<[2]xi1>
// CHECK:       "llvm.icmp"(%{{.*}}, %{{.*}}) <{predicate = 0 : i64}> : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
// CHECK:       "llvm.icmp"(%{{.*}}, %{{.*}}) <{predicate = 2 : i64}> : (i64, i64) -> i1
func.func @compare(%a: vector<[4]xi64>, %b: vector<[4]xi64>, %x: vector<[2]xf64>,
                   %y: vector<[2]xf64>, %p: vector<8xi32>, %q: vector<8xi32>,
                   %i: i64, %j: i64) {
  %0 = "arith.cmpi"(%a, %b) <{predicate = 6 : i64}> : (vector<[4]xi64>, vector<[4]xi64>) -> vector<[4]xi1>
  %1 = "arith.cmpf"(%x, %y) <{predicate = 4 : i64, fastmath = #arith.fastmath<none>}> : (vector<[2]xf64>, vector<[2]xf64>) -> vector<[2]xi1>
  %2 = "arith.cmpi"(%p, %q) <{predicate = 0 : i64}> : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
  %3 = arith.cmpi slt, %i, %j : i64
  "test.op"(%0, %1, %2, %3) : (vector<[4]xi1>, vector<[2]xi1>, vector<8xi1>, i1) -> ()
  return
}
