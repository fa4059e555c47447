// RUN: %xsparse-diagnostics | filecheck %s

// vector.print's verifier (MLIR 22's message) and its punctuation keywords.

func.func @string_and_punctuation() {
  vector.print str "x" punctuation <comma>
  func.return
}

// CHECK: print-invalid.mlir:6:3: error: 'vector.print' op `source` or `punctuation` are not set when printing strings

// -----

func.func @unknown_punctuation() {
  vector.print punctuation <semicolon>
  func.return
}

// CHECK: print-invalid.mlir:15:29: error: Expected `no_punctuation`, `newline`, `comma`, `open`, or `close`.
