// Against mlir-opt-22: the same vector ops (vector_ops.py) on integer divisions
// and complex loops, and the same ops vectorized or kept scalar (the BOTH
// checks run on either tool's output). Our guard of masked-off divisor lanes
// is an arith.select, not a vector op.
// REQUIRES: mlir-opt
// RUN: %mlir-opt --sparse-vectorization="vl=8" %S/division.mlir | python %S/inputs/vector_ops.py > %t.loops-vl8.mlir.txt
// RUN: xsparse-opt %S/division.mlir -p 'sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.loops-vl8.xsparse.txt
// RUN: diff %t.loops-vl8.mlir.txt %t.loops-vl8.xsparse.txt
// RUN: %mlir-opt --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/division.mlir | python %S/inputs/vector_ops.py > %t.loops-vla.mlir.txt
// RUN: xsparse-opt %S/division.mlir -p 'sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.loops-vla.xsparse.txt
// RUN: diff %t.loops-vla.mlir.txt %t.loops-vla.xsparse.txt
// RUN: %mlir-opt --sparse-vectorization="vl=8" %S/complex.mlir | python %S/inputs/vector_ops.py > %t.complex.mlir.txt
// RUN: xsparse-opt %S/complex.mlir -p 'sparse-vectorization{vl=8}' | python %S/inputs/vector_ops.py > %t.complex.xsparse.txt
// RUN: diff %t.complex.mlir.txt %t.complex.xsparse.txt
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=8" %S/inputs/division_kernels.mlir > %t.kernels.mlir.mlir
// RUN: xsparse-opt %S/inputs/division_kernels.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=8}' > %t.kernels.xsparse.mlir
// RUN: python %S/inputs/vector_ops.py %t.kernels.mlir.mlir > %t.kernels-vl8.mlir.txt
// RUN: python %S/inputs/vector_ops.py %t.kernels.xsparse.mlir > %t.kernels-vl8.xsparse.txt
// RUN: diff %t.kernels-vl8.mlir.txt %t.kernels-vl8.xsparse.txt
// RUN: filecheck %s --check-prefix=BOTH < %t.kernels.mlir.mlir
// RUN: filecheck %s --check-prefix=BOTH < %t.kernels.xsparse.mlir
// RUN: %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4 enable-vla-vectorization=true" %S/inputs/division_kernels.mlir | python %S/inputs/vector_ops.py > %t.kernels-vla.mlir.txt
// RUN: xsparse-opt %S/inputs/division_kernels.mlir -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4 enable-vla-vectorization=true}' | python %S/inputs/vector_ops.py > %t.kernels-vla.xsparse.txt
// RUN: diff %t.kernels-vla.mlir.txt %t.kernels-vla.xsparse.txt

// BOTH-LABEL: func.func @divsi(
// BOTH:         scf.for
// BOTH:           vector.gather
// BOTH:           arith.divsi %{{.*}}, %{{.*}} : vector<8xi32>
// BOTH:           vector.scatter
// BOTH-LABEL: func.func @divui(
// BOTH:           arith.divui %{{.*}}, %{{.*}} : vector<8xi32>
// BOTH-LABEL: func.func @remsi(
// BOTH-NOT:       vector
// BOTH:           arith.remsi %{{.*}}, %{{.*}} : i32
// BOTH-NOT:       vector
// BOTH-LABEL: func.func @remui(
// BOTH-NOT:       vector
// BOTH:           arith.remui %{{.*}}, %{{.*}} : i32
// BOTH-NOT:       vector
// BOTH-LABEL: func.func @ceildivsi(
// BOTH-NOT:       vector
// BOTH:           arith.ceildivsi %{{.*}}, %{{.*}} : i32
// BOTH-NOT:       vector
// BOTH-LABEL: func.func @floordivsi(
// BOTH-NOT:       vector
// BOTH:           arith.floordivsi %{{.*}}, %{{.*}} : i32
// BOTH-NOT:       vector
// BOTH-LABEL: func.func @divsi_by_constant(
// BOTH:           %[[SEVEN:.*]] = arith.constant dense<7> : vector<8xi64>
// BOTH:           arith.divsi %{{.*}}, %[[SEVEN]] : vector<8xi64>
// BOTH-LABEL: func.func @sum_of_quotients(
// BOTH:           arith.divui %{{.*}}, %{{.*}} : vector<8xi64>
// BOTH:           vector.reduction <add>, %{{.*}} : vector<8xi64> into i64
