// Reads TENSOR0 (a 3-D .tns), prints its level sizes, writes it to TENSOR1
// (stdout when empty), then prints 42.

#COO3 = #sparse_tensor.encoding<{
  map = (i, j, k) -> (i : compressed(nonunique), j : singleton(nonunique), k : singleton)
}>

module {
  func.func private @getTensorFilename(index) -> (!llvm.ptr)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %in = call @getTensorFilename(%c0) : (index) -> (!llvm.ptr)
    %t = sparse_tensor.new %in : !llvm.ptr to tensor<?x?x?xf64, #COO3>
    %d0 = sparse_tensor.lvl %t, %c0 : tensor<?x?x?xf64, #COO3>
    %d1 = sparse_tensor.lvl %t, %c1 : tensor<?x?x?xf64, #COO3>
    %d2 = sparse_tensor.lvl %t, %c2 : tensor<?x?x?xf64, #COO3>
    vector.print %d0 : index
    vector.print %d1 : index
    vector.print %d2 : index
    %out = call @getTensorFilename(%c1) : (index) -> (!llvm.ptr)
    sparse_tensor.out %t, %out : tensor<?x?x?xf64, #COO3>, !llvm.ptr
    %done = arith.constant 42 : i64
    vector.print %done : i64
    bufferization.dealloc_tensor %t : tensor<?x?x?xf64, #COO3>
    return
  }
}
