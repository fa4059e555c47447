// RUN: not xsparse-opt %s -p convert-math-to-llvm 2>&1 | filecheck %s

// A libm op on a scalable vector: its lanes are not known, so not unrolled.

func.func @tanh_scalable(%v: vector<[2]xf64>) -> vector<[2]xf64> {
  %0 = math.tanh %v : vector<[2]xf64>
  return %0 : vector<[2]xf64>
}

// CHECK: math-libm-vectors-invalid.mlir:[[# @LINE - 4]]:3: error: 'math.tanh' op on vectors other than fixed-length 1-D ones is not supported
