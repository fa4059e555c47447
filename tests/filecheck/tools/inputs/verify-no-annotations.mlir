// Diagnostics without annotations anywhere in the file (verify-diagnostics.mlir).
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), crdWidth = 128 }>
