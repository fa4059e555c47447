// mlir-opt-22 reads xsparse's scf.parallel / scf.reduce and prints what it
// prints for the original.
// REQUIRES: mlir-opt
// RUN: xsparse-opt %S/../dialects/scf/parallel.mlir | mlir-opt-22 > %t.xsparse
// RUN: mlir-opt-22 %S/../dialects/scf/parallel.mlir > %t.mlir
// RUN: diff %t.mlir %t.xsparse
// RUN: mlir-opt-22 %S/../dialects/scf/parallel.mlir | xsparse-opt | mlir-opt-22 | diff %t.mlir -
