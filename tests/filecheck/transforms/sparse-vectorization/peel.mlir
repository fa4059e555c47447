// sparse-vector-peel (xsparse's): a masked vector loop of sparse-vectorization
// becomes an unmasked main loop up to hi - (hi - lo) % vl and one masked step;
// the final reduction of a vector loop is marked reassociable.
// RUN: xsparse-opt %s -p 'sparse-vectorization{vl=8},sparse-vector-peel' | filecheck %s

// CHECK-LABEL: func.func @sum
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %[[SPAN:.*]] = arith.subi %hi, %lo : index
// CHECK:         %[[REST:.*]] = arith.remsi %[[SPAN]], %[[C8]] : index
// CHECK:         %[[MAIN:.*]] = arith.subi %hi, %[[REST]] : index
// CHECK:         %[[LOOP:.*]] = scf.for %[[I:.*]] = %lo to %[[MAIN]] step %[[C8]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<8xf64>) {
// CHECK-NOT:       affine.min
// CHECK:           %[[ALL:.*]] = arith.constant dense<true> : vector<8xi1>
// CHECK:           vector.maskedload %a[%[[I]]], %[[ALL]]
// CHECK:         } {"Emitted from" = "linalg.generic"}
// CHECK:         %[[MORE:.*]] = arith.cmpi slt, %[[MAIN]], %hi : index
// CHECK:         %[[LAST:.*]] = scf.if %[[MORE]] -> (vector<8xf64>) {
// CHECK:           %[[END:.*]] = affine.min {{.*}}(%hi, %[[MAIN]])[%[[C8]]]
// CHECK:           %[[MASK:.*]] = vector.create_mask %[[END]] : vector<8xi1>
// CHECK:           vector.maskedload %a[%[[MAIN]]], %[[MASK]]
// CHECK:           arith.select %[[MASK]], %{{.*}}, %[[LOOP]]
// CHECK:         } else {
// CHECK:           scf.yield %[[LOOP]] : vector<8xf64>
// CHECK:         }
// CHECK:         vector.reduction <add>, %[[LAST]] fastmath<reassoc> : vector<8xf64> into f64
func.func @sum(%a: memref<?xf64>, %lo: index, %hi: index, %init: f64) -> f64 {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %init) -> (f64) {
    %v = memref.load %a[%i] : memref<?xf64>
    %s = arith.addf %acc, %v : f64
    scf.yield %s : f64
  } {"Emitted from" = "linalg.generic"}
  return %r : f64
}
