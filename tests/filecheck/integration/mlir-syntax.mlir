// MLIR's parser reads a comparison predicate quoted (`arith.cmpf "ogt"`) and
// one result type without parentheses (`-> f64`, `-> tensor<..>`) after
// `scf.for ... iter_args` and `scf.if`: both run as MLIR 22 runs them.
// RUN: xsparse-run %s > %t.source
// RUN: xsparse-opt --sparsifier %s | xsparse-run -e main -entry-point-result=void > %t.pipe
// RUN: diff %t.source %t.pipe
// RUN: filecheck --strict-whitespace %s < %t.source
// RUN: %if mlir-runner %{ %mlir-opt --sparsifier="enable-runtime-library=false" %s | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.mlir && diff %t.mlir %t.source %}

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>

#relu = {
  indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
  iterator_types = ["parallel"]
}

module {
  // max(x, 0) on the stored entries, and a count of those above 1 (cmpi).
  func.func @relu(%a: tensor<8xf64, #SV>, %o: tensor<8xf64>) -> tensor<8xf64> {
    %0 = linalg.generic #relu
      ins(%a : tensor<8xf64, #SV>) outs(%o : tensor<8xf64>) {
    ^bb0(%x: f64, %y: f64):
      %zero = arith.constant 0.0 : f64
      %p = arith.cmpf "ogt", %x, %zero : f64
      %r = arith.select %p, %x, %zero : f64
      linalg.yield %r : f64
    } -> tensor<8xf64>
    return %0 : tensor<8xf64>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %d = arith.constant dense<[1.5, 0.0, -2.0, 0.0, 4.0, -0.5, 0.0, 3.0]> : tensor<8xf64>
    // The entries of %d other than 4 into a sparse vector, built through iter_args.
    %four = arith.constant 4.0 : f64
    %e = tensor.empty() : tensor<8xf64, #SV>
    %b = scf.for %i = %c0 to %c8 step %c1 iter_args(%t = %e) -> tensor<8xf64, #SV> {
      %v = tensor.extract %d[%i] : tensor<8xf64>
      %keep = arith.cmpf "une", %v, %four : f64
      %next = scf.if %keep -> tensor<8xf64, #SV> {
        %t1 = tensor.insert %v into %t[%i] : tensor<8xf64, #SV>
        scf.yield %t1 : tensor<8xf64, #SV>
      } else {
        scf.yield %t : tensor<8xf64, #SV>
      }
      scf.yield %next : tensor<8xf64, #SV>
    }
    %a = sparse_tensor.load %b hasInserts : tensor<8xf64, #SV>
    %o = arith.constant dense<0.0> : tensor<8xf64>
    %r = call @relu(%a, %o) : (tensor<8xf64, #SV>, tensor<8xf64>) -> tensor<8xf64>
    %one = arith.constant 1.0 : f64
    %count = scf.for %i = %c0 to %c8 step %c1 iter_args(%k = %c0) -> index {
      %v = tensor.extract %r[%i] : tensor<8xf64>
      %big = arith.cmpf "ogt", %v, %one : f64
      %next = scf.if %big -> index {
        %k1 = arith.addi %k, %c1 : index
        scf.yield %k1 : index
      } else {
        scf.yield %k : index
      }
      scf.yield %next : index
    }
    vector.print %count : index
    %many = arith.cmpi "sge", %count, %c3 : index
    vector.print %many : i1
    %pad = arith.constant -1.0 : f64
    %values = vector.transfer_read %r[%c0], %pad : tensor<8xf64>, vector<8xf64>
    vector.print %values : vector<8xf64>
    return
  }
}

// CHECK:      2
// CHECK-NEXT: 0
// CHECK-NEXT: ( 1.5, 0, 0, 0, 0, 0, 0, 3 )
