// RUN: %xsparse-roundtrip | filecheck --strict-whitespace %s
// RUN: %xsparse-generic-roundtrip | filecheck --strict-whitespace %s
//
// sparse_tensor conversion ops (convert, reinterpret_map, (dis)assemble, reorder_coo, concatenate, new/out/print, load), printed as mlir-opt-22 prints them.
// mlir-interop/ops.mlir checks that mlir-opt-22 reads the same IR back.

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>

// CHECK-LABEL: func.func @convert
// CHECK-NEXT:     %0 = sparse_tensor.convert %d : tensor<3x4xf64> to tensor<3x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %1 = sparse_tensor.convert %a : tensor<3x4xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to tensor<3x4xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>>
// CHECK-NEXT:     %2 = sparse_tensor.convert %a : tensor<3x4xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> to tensor<3x4xf64>
// CHECK-NEXT:     func.return
func.func @convert(%d: tensor<3x4xf64>, %a: tensor<3x4xf64, #CSR>) {
  %0 = sparse_tensor.convert %d : tensor<3x4xf64> to tensor<3x?xf64, #CSR>
  %1 = sparse_tensor.convert %a : tensor<3x4xf64, #CSR> to tensor<3x4xf64, #CSC>
  %2 = sparse_tensor.convert %a : tensor<3x4xf64, #CSR> to tensor<3x4xf64>
  return
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>
#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed, i mod 2 : dense, j mod 3 : dense) }>
#DSDD = #sparse_tensor.encoding<{ map = (i, j, k, l) -> (i : dense, j : compressed, k : dense, l : dense) }>

// CHECK-LABEL: func.func @reinterpret_map
// CHECK-NEXT:     %0 = sparse_tensor.reinterpret_map %a : tensor<3x4xi32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>> to tensor<4x3xi32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %1 = sparse_tensor.reinterpret_map %b : tensor<6x12xi32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 2 : dense, d1 floordiv 3 : compressed, d0 mod 2 : dense, d1 mod 3 : dense) }>> to tensor<3x4x2x3xi32, #sparse_tensor.encoding<{ map = (d0, d1, d2, d3) -> (d0 : dense, d1 : compressed, d2 : dense, d3 : dense) }>>
// CHECK-NEXT:     func.return
func.func @reinterpret_map(%a: tensor<3x4xi32, #CSC>, %b: tensor<6x12xi32, #BSR>) {
  %0 = sparse_tensor.reinterpret_map %a : tensor<3x4xi32, #CSC> to tensor<4x3xi32, #CSR>
  %1 = sparse_tensor.reinterpret_map %b : tensor<6x12xi32, #BSR> to tensor<3x4x2x3xi32, #DSDD>
  return
}

// -----

#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton), crdWidth = 32 }>

// CHECK-LABEL: func.func @assemble
// CHECK-NEXT:     %0 = sparse_tensor.assemble (%pos, %crd), %val : (tensor<2xindex>, tensor<3x2xi32>), tensor<3xf64> to tensor<3x4xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton), crdWidth = 32 }>>
// CHECK-NEXT:     func.return %0 : tensor<3x4xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton), crdWidth = 32 }>>
func.func @assemble(%pos: tensor<2xindex>, %crd: tensor<3x2xi32>, %val: tensor<3xf64>) -> tensor<3x4xf64, #COO> {
  %0 = sparse_tensor.assemble (%pos, %crd), %val : (tensor<2xindex>, tensor<3x2xi32>), tensor<3xf64> to tensor<3x4xf64, #COO>
  return %0 : tensor<3x4xf64, #COO>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>

// CHECK-LABEL: func.func @disassemble
// CHECK-NEXT:     %rl, %rl_1, %rv, %ll, %ll_1, %vl = sparse_tensor.disassemble %t : tensor<3x4xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> out_lvls(%p, %c : tensor<4xindex>, tensor<6xindex>) out_vals(%v : tensor<6xf64>) -> (tensor<4xindex>, tensor<6xindex>), tensor<6xf64>, (index, i32), i64
// CHECK-NEXT:     func.return
func.func @disassemble(%t: tensor<3x4xf64, #CSR>, %p: tensor<4xindex>, %c: tensor<6xindex>, %v: tensor<6xf64>) {
  %rl:2, %rv, %ll:2, %vl = sparse_tensor.disassemble %t : tensor<3x4xf64, #CSR> out_lvls(%p, %c : tensor<4xindex>, tensor<6xindex>) out_vals(%v : tensor<6xf64>) -> (tensor<4xindex>, tensor<6xindex>), tensor<6xf64>, (index, i32), i64
  return
}

// The lengths may be 0-D tensors (MLIR's AnyIndexingScalarLike).
// CHECK-LABEL: func.func @disassemble_tensor_lengths
// CHECK-NEXT:     %rl, %rl_1, %rv, %ll, %ll_1, %vl = sparse_tensor.disassemble %t : tensor<3x4xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> out_lvls(%p, %c : tensor<4xindex>, tensor<6xindex>) out_vals(%v : tensor<6xf64>) -> (tensor<4xindex>, tensor<6xindex>), tensor<6xf64>, (i32, tensor<i64>), tensor<index>
// CHECK-NEXT:     func.return
func.func @disassemble_tensor_lengths(%t: tensor<3x4xf64, #CSR>, %p: tensor<4xindex>, %c: tensor<6xindex>, %v: tensor<6xf64>) {
  %rl:2, %rv, %ll:2, %vl = sparse_tensor.disassemble %t : tensor<3x4xf64, #CSR> out_lvls(%p, %c : tensor<4xindex>, tensor<6xindex>) out_vals(%v : tensor<6xf64>) -> (tensor<4xindex>, tensor<6xindex>), tensor<6xf64>, (i32, tensor<i64>), tensor<index>
  return
}

// -----

#UCOO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique, nonordered), d1 : singleton(nonordered)) }>
#OCOO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>

// CHECK-LABEL: func.func @reorder_coo
// CHECK-NEXT:     %0 = sparse_tensor.reorder_coo  quick_sort %t : tensor<?x?xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique, nonordered), d1 : singleton(nonordered)) }>> to tensor<?x?xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>>
// CHECK-NEXT:     func.return %0 : tensor<?x?xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>>
func.func @reorder_coo(%t: tensor<?x?xf32, #UCOO>) -> tensor<?x?xf32, #OCOO> {
  %0 = sparse_tensor.reorder_coo quick_sort %t : tensor<?x?xf32, #UCOO> to tensor<?x?xf32, #OCOO>
  return %0 : tensor<?x?xf32, #OCOO>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>

// CHECK-LABEL: func.func @concatenate
// CHECK-NEXT:     %0 = sparse_tensor.concatenate %a, %b {dimension = 0 : index} : tensor<2x4xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>, tensor<3x4xf64> to tensor<?x4xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     func.return %0 : tensor<?x4xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
func.func @concatenate(%a: tensor<2x4xf64, #CSR>, %b: tensor<3x4xf64>) -> tensor<?x4xf64, #CSR> {
  %0 = sparse_tensor.concatenate %a, %b {dimension = 0 : index} : tensor<2x4xf64, #CSR>, tensor<3x4xf64> to tensor<?x4xf64, #CSR>
  return %0 : tensor<?x4xf64, #CSR>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>

// CHECK-LABEL: func.func @new_out_print
// CHECK-NEXT:     %0 = sparse_tensor.new %src : !llvm.ptr to tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     sparse_tensor.out %0, %src : tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>, !llvm.ptr
// CHECK-NEXT:     sparse_tensor.print %0 : tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %1 = sparse_tensor.has_runtime_library
// CHECK-NEXT:     func.return %1 : i1
func.func @new_out_print(%src: !llvm.ptr) -> i1 {
  %0 = sparse_tensor.new %src : !llvm.ptr to tensor<?x?xf64, #CSR>
  sparse_tensor.out %0, %src : tensor<?x?xf64, #CSR>, !llvm.ptr
  sparse_tensor.print %0 : tensor<?x?xf64, #CSR>
  %1 = sparse_tensor.has_runtime_library
  return %1 : i1
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>

// Insertion is MLIR 22's `tensor.insert` followed by `load ... hasInserts`.
// CHECK-LABEL: func.func @insert_load
// CHECK-NEXT:     %0 = tensor.insert %v into %t[%i, %i] : tensor<8x8xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %1 = sparse_tensor.load %0 hasInserts : tensor<8x8xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     %2 = sparse_tensor.load %1 : tensor<8x8xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
// CHECK-NEXT:     func.return %2 : tensor<8x8xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>
func.func @insert_load(%t: tensor<8x8xf64, #CSR>, %i: index, %v: f64) -> tensor<8x8xf64, #CSR> {
  %0 = tensor.insert %v into %t[%i, %i] : tensor<8x8xf64, #CSR>
  %1 = sparse_tensor.load %0 hasInserts : tensor<8x8xf64, #CSR>
  %2 = sparse_tensor.load %1 : tensor<8x8xf64, #CSR>
  return %2 : tensor<8x8xf64, #CSR>
}
