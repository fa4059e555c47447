// RUN: xsparse-opt %s -p sparse-tensor-codegen | filecheck %s

// Converting to a 2:4 (`structured[2, 4]`) level: the nonzeros of each block
// of 4 are counted; a block with more than 2 is reported through
// `xsparse_runtime_error` (raised by the Python caller once the kernel
// returns); every block is first given the coordinates 0, 1 (an empty
// block's padding), then each nonzero x, the i-th of a block with c of them,
// goes to slot i + min(2 - c, x - i), and only nonzero values are stored.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#NV_24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
func.func @csr_to_24(%a: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #NV_24> {
  %b = sparse_tensor.convert %a : tensor<?x?xf64, #CSR> to tensor<?x?xf64, #NV_24>
  return %b : tensor<?x?xf64, #NV_24>
}

// CHECK:       func.func private @xsparse_runtime_error(index)
// CHECK:       "memref.global"() <{sym_name = "__xsparse_error_{{.*}}", type = memref<93xi8>
// CHECK-LABEL: func.func @csr_to_24
// CHECK:         scf.for
// CHECK:           %[[NONZERO:.*]] = arith.cmpf une
// CHECK:           %[[ONE_IF:.*]] = arith.select %[[NONZERO]]
// CHECK:           memref.store {{.*}} : memref<?xindex>
// CHECK:         %[[MOST:.*]] = scf.for {{.*}} -> (index) {
// CHECK:           arith.maxui
// CHECK:         %[[OVER:.*]] = arith.cmpi ugt, %[[MOST]], %[[N:.*]] : index
// CHECK:         scf.if %[[OVER]] {
// CHECK:           %[[MESSAGE:.*]] = memref.get_global @__xsparse_error_
// CHECK:           %[[ADDRESS:.*]] = "memref.extract_aligned_pointer_as_index"(%[[MESSAGE]])
// CHECK:           func.call @xsparse_runtime_error(%[[ADDRESS]]) : (index) -> ()
// CHECK:         %[[TOTAL:.*]] = arith.muli %{{.*}}, %[[N]] : index
// CHECK:         %[[CRD:.*]] = memref.alloc(%[[TOTAL]]) : memref<?xindex>
// CHECK:         scf.for %[[T:.*]] = %{{.*}} to %[[TOTAL]]
// CHECK:           %[[PAD:.*]] = arith.remui %[[T]], %[[N]] : index
// CHECK:           memref.store %[[PAD]], %[[CRD]][%[[T]]]
// CHECK:         scf.for {{.*}} iter_args(%[[LAST:.*]] = %{{.*}}, %[[PREV:.*]] = %{{.*}}) -> (index, index)
// CHECK:           %[[SAME:.*]] = arith.cmpi eq, %{{.*}}, %[[LAST]] : index
// CHECK:           %[[I:.*]] = arith.select %[[SAME]]
// CHECK:           %[[FREE:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK:           %[[GAP:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:           %[[SHIFT:.*]] = arith.minui %[[FREE]], %[[GAP]] : index
// CHECK:           %[[SLOT:.*]] = arith.addi %[[I]], %[[SHIFT]] : index
// CHECK:           %[[KEPT:.*]] = arith.cmpf une
// CHECK:           scf.if %[[KEPT]] {
// CHECK:             memref.store %{{.*}}, %[[CRD]][%{{.*}}] : memref<?xindex>
