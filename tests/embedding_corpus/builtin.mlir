// Builtin types and lexing: xDSL 0.74 takes a tensor of `none`; an
// unterminated string literal is a located parse error.
func.func @tensor_of_none(%t : tensor<?xnone>, %m : memref<2xnone>) {
  func.return
}
// -----
func.func @unterminated(%x : i32) {
  "test.op"() {s = "abc
  func.return
}
