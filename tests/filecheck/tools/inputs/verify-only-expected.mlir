// `--verify-diagnostics=only-expected`: the expected diagnostic is emitted;
// the unexpected one of the next chunk is ignored (verify-diagnostics.mlir).

// expected-error@+1 {{unexpected coordinate bitwidth: 2}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), crdWidth = 2 }>

// -----

#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), crdWidth = 128 }>
