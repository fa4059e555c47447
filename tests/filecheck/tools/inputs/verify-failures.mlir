// Each chunk fails `--verify-diagnostics` in its own way (verify-diagnostics.mlir).

// An annotation nothing meets.
// expected-error@+1 {{never emitted}}
func.func @valid() {
  return
}

// -----

// A diagnostic nothing expects.
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), crdWidth = 128 }>

// -----

// An annotation for another line.
// expected-error@+2 {{unexpected coordinate bitwidth: 2}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), crdWidth = 2 }>

// -----

// Another message.
// expected-error@+1 {{some other message}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), crdWidth = 3 }>

// -----

// Another severity.
// expected-warning@+1 {{unknown level format: sparse}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : sparse) }>
