// RUN: %xsparse-roundtrip | filecheck %s
// RUN: %xsparse-generic-roundtrip | filecheck %s

// Round trip of `#sparse_tensor.encoding`: xsparse prints MLIR 22's canonical
// form (variables renamed, zero widths dropped), checked byte for byte.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 0 }>
func.func private @csr(tensor<?x?xf64, #CSR>)
// CHECK: func.func private @csr(tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), posWidth = 32 }>>) -> ()
