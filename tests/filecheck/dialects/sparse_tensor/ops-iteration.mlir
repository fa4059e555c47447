// RUN: %xsparse-roundtrip | filecheck --strict-whitespace %s
// RUN: %xsparse-generic-roundtrip | filecheck --strict-whitespace %s
//
// sparse_tensor iteration ops (extract_iteration_space, extract_value, iterate, coiterate), printed as mlir-opt-22 prints them.
// mlir-interop/ops.mlir checks that mlir-opt-22 reads the same IR back.

#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)) }>

// CHECK-LABEL: func.func @nested_iterate
// CHECK-NEXT:     %l1 = sparse_tensor.extract_iteration_space %sp lvls = 0 : tensor<4x8xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton(soa)) }>> -> !sparse_tensor.iter_space<<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton(soa)) }>, lvls = 0>
// CHECK-NEXT:     %r1 = sparse_tensor.iterate %it1 in %l1 at(%i) iter_args(%o = %init) : !sparse_tensor.iter_space<<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton(soa)) }>, lvls = 0>  -> f32 {
// CHECK-NEXT:       %l2 = sparse_tensor.extract_iteration_space %sp at %it1 lvls = 1 : tensor<4x8xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton(soa)) }>>, !sparse_tensor.iterator<<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton(soa)) }>, lvls = 0> -> !sparse_tensor.iter_space<<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton(soa)) }>, lvls = 1>
// CHECK-NEXT:       %r2 = sparse_tensor.iterate %it2 in %l2 iter_args(%o2 = %o) : !sparse_tensor.iter_space<<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton(soa)) }>, lvls = 1>  -> f32 {
// CHECK-NEXT:         %v = sparse_tensor.extract_value %sp at %it2 : tensor<4x8xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton(soa)) }>>, !sparse_tensor.iterator<<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton(soa)) }>, lvls = 1>
// CHECK-NEXT:         %s = arith.addf %o2, %v : f32
// CHECK-NEXT:         sparse_tensor.yield %s : f32
// CHECK-NEXT:       }
// CHECK-NEXT:       sparse_tensor.yield %r2 : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %r1 : f32
func.func @nested_iterate(%sp: tensor<4x8xf32, #COO>, %init: f32) -> f32 {
  %l1 = sparse_tensor.extract_iteration_space %sp lvls = 0 : tensor<4x8xf32, #COO> -> !sparse_tensor.iter_space<#COO, lvls = 0>
  %r1 = sparse_tensor.iterate %it1 in %l1 at(%i) iter_args(%o = %init) : !sparse_tensor.iter_space<#COO, lvls = 0> -> f32 {
    %l2 = sparse_tensor.extract_iteration_space %sp at %it1 lvls = 1 : tensor<4x8xf32, #COO>, !sparse_tensor.iterator<#COO, lvls = 0> -> !sparse_tensor.iter_space<#COO, lvls = 1>
    %r2 = sparse_tensor.iterate %it2 in %l2 iter_args(%o2 = %o) : !sparse_tensor.iter_space<#COO, lvls = 1> -> f32 {
      %v = sparse_tensor.extract_value %sp at %it2 : tensor<4x8xf32, #COO>, !sparse_tensor.iterator<#COO, lvls = 1>
      %s = arith.addf %o2, %v : f32
      sparse_tensor.yield %s : f32
    }
    sparse_tensor.yield %r2 : f32
  }
  return %r1 : f32
}

// -----

#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)) }>

// CHECK-LABEL: func.func @iterate_2d
// CHECK-NEXT:     %space = sparse_tensor.extract_iteration_space %sp lvls = 0 to 2 : tensor<4x8xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton(soa)) }>> -> !sparse_tensor.iter_space<<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton(soa)) }>, lvls = 0 to 2>
// CHECK-NEXT:     sparse_tensor.iterate %it in %space at(_, %j) : !sparse_tensor.iter_space<<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton(soa)) }>, lvls = 0 to 2>  {
// CHECK-NEXT:       "test.op"(%j) : (index) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     sparse_tensor.iterate %it_1 in %space : !sparse_tensor.iter_space<<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton(soa)) }>, lvls = 0 to 2>  {
// CHECK-NEXT:     }
// CHECK-NEXT:     %r, %r_1 = sparse_tensor.iterate %it_2 in %space iter_args(%x = %a, %y = %b) : !sparse_tensor.iter_space<<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton(soa)) }>, lvls = 0 to 2>  -> (index, f32) {
// CHECK-NEXT:       sparse_tensor.yield %x, %y : index, f32
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %r, %r_1 : index, f32
func.func @iterate_2d(%sp: tensor<4x8xf32, #COO>, %a: index, %b: f32) -> (index, f32) {
  %space = sparse_tensor.extract_iteration_space %sp lvls = 0 to 2 : tensor<4x8xf32, #COO> -> !sparse_tensor.iter_space<#COO, lvls = 0 to 2>
  sparse_tensor.iterate %it in %space at(_, %j) : !sparse_tensor.iter_space<#COO, lvls = 0 to 2> {
    "test.op"(%j) : (index) -> ()
  }
  sparse_tensor.iterate %it in %space at(_, _) : !sparse_tensor.iter_space<#COO, lvls = 0 to 2> {
  }
  %r:2 = sparse_tensor.iterate %it in %space iter_args(%x = %a, %y = %b) : !sparse_tensor.iter_space<#COO, lvls = 0 to 2> -> (index, f32) {
    sparse_tensor.yield %x, %y : index, f32
  }
  return %r#0, %r#1 : index, f32
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

// Co-iteration over two spaces: one region per case of defined iterators.
// CHECK-LABEL: func.func @coiterate
// CHECK-NEXT:     %sa = sparse_tensor.extract_iteration_space %a lvls = 0 : tensor<8x8xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> -> !sparse_tensor.iter_space<<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>, lvls = 0>
// CHECK-NEXT:     %sb = sparse_tensor.extract_iteration_space %b lvls = 0 : tensor<8x8xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> -> !sparse_tensor.iter_space<<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>, lvls = 0>
// CHECK-NEXT:     %r = sparse_tensor.coiterate (%sa, %sb) at(%crd) iter_args(%acc = %init) : (!sparse_tensor.iter_space<<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>, lvls = 0>, !sparse_tensor.iter_space<<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>, lvls = 0>) -> index
// CHECK-NEXT:     case %ita, _ {
// CHECK-NEXT:       %s = arith.addi %acc, %crd : index
// CHECK-NEXT:       sparse_tensor.yield %s : index
// CHECK-NEXT:     }
// CHECK-NEXT:     case _, %itb {
// CHECK-NEXT:       sparse_tensor.yield %acc : index
// CHECK-NEXT:     }
// CHECK-NEXT:     case %ita_1, %itb_1 {
// CHECK-NEXT:       %s_1 = arith.muli %acc, %crd : index
// CHECK-NEXT:       sparse_tensor.yield %s_1 : index
// CHECK-NEXT:     }
// CHECK-NEXT:     sparse_tensor.coiterate (%sa, %sb) : (!sparse_tensor.iter_space<<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>, lvls = 0>, !sparse_tensor.iter_space<<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>, lvls = 0>)
// CHECK-NEXT:     case %ita_2, %itb_2 {
// CHECK-NEXT:       "test.op"() : () -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %r : index
func.func @coiterate(%a: tensor<8x8xf64, #CSR>, %b: tensor<8x8xf64, #CSR>, %init: index) -> index {
  %sa = sparse_tensor.extract_iteration_space %a lvls = 0 : tensor<8x8xf64, #CSR> -> !sparse_tensor.iter_space<#CSR, lvls = 0>
  %sb = sparse_tensor.extract_iteration_space %b lvls = 0 : tensor<8x8xf64, #CSR> -> !sparse_tensor.iter_space<#CSR, lvls = 0>
  %r = sparse_tensor.coiterate (%sa, %sb) at(%crd) iter_args(%acc = %init) : (!sparse_tensor.iter_space<#CSR, lvls = 0>, !sparse_tensor.iter_space<#CSR, lvls = 0>) -> index
  case %ita, _ {
    %s = arith.addi %acc, %crd : index
    sparse_tensor.yield %s : index
  }
  case _, %itb {
    sparse_tensor.yield %acc : index
  }
  case %ita, %itb {
    %s = arith.muli %acc, %crd : index
    sparse_tensor.yield %s : index
  }
  sparse_tensor.coiterate (%sa, %sb) : (!sparse_tensor.iter_space<#CSR, lvls = 0>, !sparse_tensor.iter_space<#CSR, lvls = 0>)
  case %ita, %itb {
    "test.op"() : () -> ()
  }
  return %r : index
}
