// RUN: %xsparse-diagnostics | filecheck %s
//
// Every verifier rule of the sparse_tensor ops, with mlir-opt-22's message
// (xsparse's diagnostics prefix each with `'<op>' op`, as MLIR's emitOpError
// does; mlir-interop/ops-invalid.mlir checks that mlir-opt-22 rejects each).

func.func @positions_dense(%t: tensor<4xf64>) {
  %0 = sparse_tensor.positions %t {level = 0 : index} : tensor<4xf64> to memref<?xindex>
  return
}
// CHECK: error: 'sparse_tensor.positions' op operand #0 must be sparse tensor of any type values, but got 'tensor<4xf64>'

// -----

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
func.func @positions_level(%t: tensor<4xf64, #SV>) {
  %0 = sparse_tensor.positions %t {level = 1 : index} : tensor<4xf64, #SV> to memref<?xindex>
  return
}
// CHECK: error: 'sparse_tensor.positions' op requested level is out of bounds

// -----

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), posWidth = 32 }>
func.func @positions_width(%t: tensor<4xf64, #SV>) {
  %0 = sparse_tensor.positions %t {level = 0 : index} : tensor<4xf64, #SV> to memref<?xindex>
  return
}
// CHECK: error: 'sparse_tensor.positions' op unexpected type for positions

// -----

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), crdWidth = 16 }>
func.func @coordinates_width(%t: tensor<4xf64, #SV>) {
  %0 = sparse_tensor.coordinates %t {level = 0 : index} : tensor<4xf64, #SV> to memref<?xi32>
  return
}
// CHECK: error: 'sparse_tensor.coordinates' op unexpected type for coordinates

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @coordinates_buffer_no_coo(%t: tensor<4x4xf64, #CSR>) {
  %0 = sparse_tensor.coordinates_buffer %t : tensor<4x4xf64, #CSR> to memref<?xindex>
  return
}
// CHECK: error: 'sparse_tensor.coordinates_buffer' op expected sparse tensor with a COO region

// -----

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
func.func @values_type(%t: tensor<4xf64, #SV>) {
  %0 = sparse_tensor.values %t : tensor<4xf64, #SV> to memref<?xf32>
  return
}
// CHECK: error: 'sparse_tensor.values' op unexpected mismatch in element types

// -----

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
func.func @values_rank(%t: tensor<4xf64, #SV>) {
  %0 = sparse_tensor.values %t : tensor<4xf64, #SV> to memref<?x?xf64>
  return
}
// CHECK: error: 'sparse_tensor.values' op inferred type(s) 'memref<?xf64>' are incompatible with return type(s) of operation 'memref<?x?xf64>'

// -----

#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>
func.func @coordinates_not_strided(%t: tensor<4x4xf64, #COO>) {
  %0 = sparse_tensor.coordinates %t {level = 1 : index} : tensor<4x4xf64, #COO> to memref<?xindex>
  return
}
// CHECK: error: 'sparse_tensor.coordinates' op inferred type(s) 'memref<?xindex, strided<[?], offset: ?>>' are incompatible with return type(s) of operation 'memref<?xindex>'

// -----

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
func.func @lvl_out_of_bounds(%t: tensor<4xf64, #SV>) {
  %c1 = arith.constant 1 : index
  %0 = sparse_tensor.lvl %t, %c1 : tensor<4xf64, #SV>
  return
}
// CHECK: error: 'sparse_tensor.lvl' op Level index exceeds the rank of the input sparse tensor

// -----

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
func.func @slice_offset_not_slice(%t: tensor<4xf64, #SV>) {
  %0 = sparse_tensor.slice.offset %t at 0 : tensor<4xf64, #SV>
  return
}
// CHECK: error: 'sparse_tensor.slice.offset' op operand #0 must be sparse tensor slice of any type values, but got 'tensor<4xf64, #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>>'

// -----

#Slice = #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(1, 4, 2)>) -> (d0 : dense, d1 : compressed) }>
func.func @slice_stride_dim(%t: tensor<4x4xf64, #Slice>) {
  %0 = sparse_tensor.slice.stride %t at 2 : tensor<4x4xf64, #Slice>
  return
}
// CHECK: error: 'sparse_tensor.slice.stride' op requested dimension out of bound

// -----

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
func.func @specifier_val_level(%s: !sparse_tensor.storage_specifier<#SV>) {
  %0 = sparse_tensor.storage_specifier.get %s val_mem_sz at 0 : !sparse_tensor.storage_specifier<#SV>
  return
}
// CHECK: error: 'sparse_tensor.storage_specifier.get' op redundant level argument for querying value memory size

// -----

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
func.func @specifier_not_slice(%s: !sparse_tensor.storage_specifier<#SV>) {
  %0 = sparse_tensor.storage_specifier.get %s dim_offset at 0 : !sparse_tensor.storage_specifier<#SV>
  return
}
// CHECK: error: 'sparse_tensor.storage_specifier.get' op requested slice data on non-slice tensor

// -----

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
func.func @specifier_missing_level(%s: !sparse_tensor.storage_specifier<#SV>) {
  %0 = sparse_tensor.storage_specifier.get %s crd_mem_sz : !sparse_tensor.storage_specifier<#SV>
  return
}
// CHECK: error: 'sparse_tensor.storage_specifier.get' op missing level argument

// -----

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
func.func @specifier_level(%s: !sparse_tensor.storage_specifier<#SV>, %n: index) {
  %0 = sparse_tensor.storage_specifier.set %s lvl_sz at 1 with %n : !sparse_tensor.storage_specifier<#SV>
  return
}
// CHECK: error: 'sparse_tensor.storage_specifier.set' op requested level is out of bounds

// -----

#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>
func.func @specifier_singleton(%s: !sparse_tensor.storage_specifier<#COO>) {
  %0 = sparse_tensor.storage_specifier.get %s pos_mem_sz at 1 : !sparse_tensor.storage_specifier<#COO>
  return
}
// CHECK: error: 'sparse_tensor.storage_specifier.get' op requested position memory size on a singleton level

// -----

#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed, i mod 2 : dense, j mod 3 : dense) }>
func.func @crd_translate_rank(%i: index) {
  %l:4 = sparse_tensor.crd_translate dim_to_lvl [%i] as #BSR : index, index, index, index
  return
}
// CHECK: error: 'sparse_tensor.crd_translate' op Coordinate rank mismatch with encoding

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @convert_rank(%t: tensor<4x4xf64>) {
  %0 = sparse_tensor.convert %t : tensor<4x4xf64> to tensor<16xf64>
  return
}
// CHECK: error: 'sparse_tensor.convert' op unexpected conversion mismatch in rank

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @convert_dim(%t: tensor<?x4xf64>) {
  %0 = sparse_tensor.convert %t : tensor<?x4xf64> to tensor<4x4xf64, #CSR>
  return
}
// CHECK: error: 'sparse_tensor.convert' op unexpected conversion mismatch in dimension 0

// -----

#Slice = #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(1, 4, 2)>) -> (d0 : dense, d1 : compressed) }>
func.func @convert_to_slice(%t: tensor<4x4xf64>) {
  %0 = sparse_tensor.convert %t : tensor<4x4xf64> to tensor<4x4xf64, #Slice>
  return
}
// CHECK: error: 'sparse_tensor.convert' op cannot convert to a sparse tensor slice

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#DCSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed, d1 : compressed) }>
func.func @reinterpret_lvl_type(%t: tensor<4x4xf64, #CSR>) {
  %0 = sparse_tensor.reinterpret_map %t : tensor<4x4xf64, #CSR> to tensor<4x4xf64, #DCSR>
  return
}
// CHECK: error: 'sparse_tensor.reinterpret_map' op Level type mismatch between source/dest tensors

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>
func.func @reinterpret_size(%t: tensor<3x4xf64, #CSC>) {
  %0 = sparse_tensor.reinterpret_map %t : tensor<3x4xf64, #CSC> to tensor<3x4xf64, #CSR>
  return
}
// CHECK: error: 'sparse_tensor.reinterpret_map' op Level size mismatch between source/dest tensors

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @reinterpret_rank(%t: tensor<4x4xf64, #CSR>) {
  %0 = sparse_tensor.reinterpret_map %t : tensor<4x4xf64, #CSR> to tensor<16xf64, #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>>
  return
}
// CHECK: error: 'sparse_tensor.reinterpret_map' op Level rank mismatch between source/dest tensors

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @assemble_dynamic(%p: tensor<5xindex>, %c: tensor<6xindex>, %v: tensor<6xf64>) {
  %0 = sparse_tensor.assemble (%p, %c), %v : (tensor<5xindex>, tensor<6xindex>), tensor<6xf64> to tensor<?x4xf64, #CSR>
  return
}
// CHECK: error: 'sparse_tensor.assemble' op the sparse-tensor must have static shape

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @assemble_fields(%p: tensor<5xindex>, %v: tensor<6xf64>) {
  %0 = sparse_tensor.assemble (%p), %v : (tensor<5xindex>), tensor<6xf64> to tensor<4x4xf64, #CSR>
  return
}
// CHECK: error: 'sparse_tensor.assemble' op inconsistent number of fields between input/output

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), crdWidth = 32 }>
func.func @assemble_types(%p: tensor<5xindex>, %c: tensor<6xindex>, %v: tensor<6xf64>) {
  %0 = sparse_tensor.assemble (%p, %c), %v : (tensor<5xindex>, tensor<6xindex>), tensor<6xf64> to tensor<4x4xf64, #CSR>
  return
}
// CHECK: error: 'sparse_tensor.assemble' op input/output element-types don't match

// -----

#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>
func.func @assemble_coo(%p: tensor<2xindex>, %c: tensor<6xindex>, %v: tensor<3xf64>) {
  %0 = sparse_tensor.assemble (%p, %c), %v : (tensor<2xindex>, tensor<6xindex>), tensor<3xf64> to tensor<3x4xf64, #COO>
  return
}
// CHECK: error: 'sparse_tensor.assemble' op input/output trailing COO level-ranks don't match

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @disassemble_values(%t: tensor<4x4xf64, #CSR>, %p: tensor<5xindex>, %c: tensor<6xindex>, %v: tensor<6xf64>) {
  %rl:2, %rv, %ll:2, %vl = sparse_tensor.disassemble %t : tensor<4x4xf64, #CSR> out_lvls(%p, %c : tensor<5xindex>, tensor<6xindex>) out_vals(%v : tensor<6xf64>) -> (tensor<5xindex>, tensor<6xindex>), tensor<7xf64>, (index, index), index
  return
}
// CHECK: error: 'sparse_tensor.disassemble' op output values and return value type mismatch

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @disassemble_vector_length(%t: tensor<4x4xf64, #CSR>, %p: tensor<5xindex>, %c: tensor<6xindex>, %v: tensor<6xf64>) {
  %rl:2, %rv, %ll:2, %vl = sparse_tensor.disassemble %t : tensor<4x4xf64, #CSR> out_lvls(%p, %c : tensor<5xindex>, tensor<6xindex>) out_vals(%v : tensor<6xf64>) -> (tensor<5xindex>, tensor<6xindex>), tensor<6xf64>, (index, tensor<2xi64>), index
  return
}
// CHECK: error: 'sparse_tensor.disassemble' op result #4 must be variadic of scalar like, but got 'tensor<2xi64>'

// -----

#UCOO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique, nonordered), d1 : singleton(nonordered)) }>
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @reorder_not_coo(%t: tensor<4x4xf64, #UCOO>) {
  %0 = sparse_tensor.reorder_coo quick_sort %t : tensor<4x4xf64, #UCOO> to tensor<4x4xf64, #CSR>
  return
}
// CHECK: error: 'sparse_tensor.reorder_coo' op Expected COO sparse tensors only

// -----

#UCOO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique, nonordered), d1 : singleton(nonordered)) }>
#OCOO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton), crdWidth = 32 }>
func.func @reorder_storage(%t: tensor<4x4xf64, #UCOO>) {
  %0 = sparse_tensor.reorder_coo quick_sort %t : tensor<4x4xf64, #UCOO> to tensor<4x4xf64, #OCOO>
  return
}
// CHECK: error: 'sparse_tensor.reorder_coo' op Unmatched storage format between input and result COO

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @concat_one(%a: tensor<2x4xf64, #CSR>) {
  %0 = sparse_tensor.concatenate %a {dimension = 0 : index} : tensor<2x4xf64, #CSR> to tensor<2x4xf64, #CSR>
  return
}
// CHECK: error: 'sparse_tensor.concatenate' op Need at least two tensors to concatenate.

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @concat_dim(%a: tensor<2x4xf64, #CSR>) {
  %0 = sparse_tensor.concatenate %a, %a {dimension = 2 : index} : tensor<2x4xf64, #CSR>, tensor<2x4xf64, #CSR> to tensor<4x4xf64, #CSR>
  return
}
// CHECK: error: 'sparse_tensor.concatenate' op Concat-dimension is out of bounds for dimension-rank (2 >= 2)

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @concat_dynamic(%a: tensor<2x4xf64, #CSR>, %b: tensor<?x4xf64, #CSR>) {
  %0 = sparse_tensor.concatenate %a, %b {dimension = 0 : index} : tensor<2x4xf64, #CSR>, tensor<?x4xf64, #CSR> to tensor<?x4xf64, #CSR>
  return
}
// CHECK: error: 'sparse_tensor.concatenate' op Input tensor $1 has dynamic shape

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @concat_sum(%a: tensor<2x4xf64, #CSR>) {
  %0 = sparse_tensor.concatenate %a, %a {dimension = 0 : index} : tensor<2x4xf64, #CSR>, tensor<2x4xf64, #CSR> to tensor<5x4xf64, #CSR>
  return
}
// CHECK: error: 'sparse_tensor.concatenate' op The concatenation dimension of the output tensor should be the sum of all the concatenation dimensions of the input tensors.

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @concat_other_dims(%a: tensor<2x4xf64, #CSR>, %b: tensor<2x5xf64, #CSR>) {
  %0 = sparse_tensor.concatenate %a, %b {dimension = 0 : index} : tensor<2x4xf64, #CSR>, tensor<2x5xf64, #CSR> to tensor<4x4xf64, #CSR>
  return
}
// CHECK: error: 'sparse_tensor.concatenate' op All dimensions (expect for the concatenating one) should be equal.

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @compress_coords(%v: memref<?xf64>, %f: memref<?xi1>, %a: memref<?xindex>, %n: index, %t: tensor<4x4xf64, #CSR>) {
  %0 = sparse_tensor.compress %v, %f, %a, %n into %t[%n, %n] : memref<?xf64>, memref<?xi1>, memref<?xindex>, tensor<4x4xf64, #CSR>
  return
}
// CHECK: error: 'sparse_tensor.compress' op incorrect number of coordinates

// -----

func.func @push_back_n(%size: index, %buf: memref<?xf64>, %v: f64) {
  %c0 = arith.constant 0 : index
  %b, %s = sparse_tensor.push_back %size, %buf, %v, %c0 : index, memref<?xf64>, f64, index
  return
}
// CHECK: error: 'sparse_tensor.push_back' op n must be not less than 1

// -----

func.func @push_back_value(%size: index, %buf: memref<?xf64>, %v: f32) {
  %b, %s = sparse_tensor.push_back %size, %buf, %v : index, memref<?xf64>, f32
  return
}
// CHECK: error: 'sparse_tensor.push_back' op failed to verify that value type matches element type of inBuffer

// -----

func.func @sort_perm(%n: index, %xy: memref<?xindex>) {
  sparse_tensor.sort quick_sort %n, %xy {perm_map = affine_map<(d0, d1) -> (d0, d0)>} : memref<?xindex>
  return
}
// CHECK: error: 'sparse_tensor.sort' op Expected a permutation map, got (d0, d1) -> (d0, d0)

// -----

func.func @sort_xy_size(%xy: memref<10xindex>) {
  %n = arith.constant 4 : index
  sparse_tensor.sort quick_sort %n, %xy {perm_map = affine_map<(d0, d1) -> (d1, d0)>, ny = 1 : index} : memref<10xindex>
  return
}
// CHECK: error: 'sparse_tensor.sort' op Expected dimension(xy) >= n * (rank(perm_map) + ny) got 10 < 12

// -----

func.func @sort_y_size(%xy: memref<?xindex>, %y: memref<3xf32>) {
  %n = arith.constant 4 : index
  sparse_tensor.sort quick_sort %n, %xy jointly %y {perm_map = affine_map<(d0) -> (d0)>} : memref<?xindex> jointly memref<3xf32>
  return
}
// CHECK: error: 'sparse_tensor.sort' op Expected dimension(y) >= n got 3 < 4

// -----

func.func @binary_args(%a: f64, %b: f64) -> f64 {
  %0 = sparse_tensor.binary %a, %b : f64, f64 to f64
    overlap = {
    ^bb0(%x: f64):
      sparse_tensor.yield %x : f64
    }
    left = {}
    right = {}
  return %0 : f64
}
// CHECK: error: 'sparse_tensor.binary' op overlap region must have exactly 2 arguments

// -----

func.func @binary_arg_type(%a: f64, %b: f64) -> f64 {
  %0 = sparse_tensor.binary %a, %b : f64, f64 to f64
    overlap = {}
    left = {
    ^bb0(%x: f32):
      %c = arith.constant 1.0 : f64
      sparse_tensor.yield %c : f64
    }
    right = {}
  return %0 : f64
}
// CHECK: error: 'sparse_tensor.binary' op left region argument 1 type mismatch

// -----

func.func @binary_yield_type(%a: f64, %b: f64) -> f64 {
  %0 = sparse_tensor.binary %a, %b : f64, f64 to f64
    overlap = {}
    left = {}
    right = {
    ^bb0(%y: f64):
      %c = arith.constant 1 : i32
      sparse_tensor.yield %c : i32
    }
  return %0 : f64
}
// CHECK: error: 'sparse_tensor.binary' op right region yield type mismatch

// -----

func.func @binary_left_identity(%a: i32, %b: f64) -> f64 {
  %0 = sparse_tensor.binary %a, %b : i32, f64 to f64
    overlap = {}
    left = identity
    right = {}
  return %0 : f64
}
// CHECK: error: 'sparse_tensor.binary' op left=identity requires first argument to have the same type as the output

// -----

func.func @binary_right_identity(%a: f64, %b: i32) -> f64 {
  %0 = sparse_tensor.binary %a, %b : f64, i32 to f64
    overlap = {}
    left = {}
    right = identity
  return %0 : f64
}
// CHECK: error: 'sparse_tensor.binary' op right=identity requires second argument to have the same type as the output

// -----

func.func @binary_terminator(%a: f64, %b: f64) -> f64 {
  %0 = sparse_tensor.binary %a, %b : f64, f64 to f64
    overlap = {
    ^bb0(%x: f64, %y: f64):
      func.return %x : f64
    }
    left = {}
    right = {}
  return %0 : f64
}
// CHECK: error: 'sparse_tensor.binary' op overlap region must end with sparse_tensor.yield

// -----

func.func @unary_absent_arg(%a: f64) -> f64 {
  %0 = sparse_tensor.unary %a : f64 to f64
    present = {}
    absent = {
      sparse_tensor.yield %a : f64
    }
  return %0 : f64
}
// CHECK: error: 'sparse_tensor.unary' op absent region cannot yield linalg argument

// -----

func.func @unary_absent_local(%a: f64) -> f64 {
  %0 = sparse_tensor.unary %a : f64 to f64
    present = {}
    absent = {
      %c = arith.constant 1.0 : f64
      %n = arith.negf %c : f64
      sparse_tensor.yield %n : f64
    }
  return %0 : f64
}
// CHECK: error: 'sparse_tensor.unary' op absent region cannot yield locally computed value

// -----

func.func @reduce_args(%a: f64, %b: f64, %c: f64) -> f64 {
  %0 = sparse_tensor.reduce %a, %b, %c : f64 {
  ^bb0(%x: f64):
    sparse_tensor.yield %x : f64
  }
  return %0 : f64
}
// CHECK: error: 'sparse_tensor.reduce' op reduce region must have exactly 2 arguments

// -----

func.func @select_yield(%a: f64) -> f64 {
  %0 = sparse_tensor.select %a : f64 {
  ^bb0(%x: f64):
    sparse_tensor.yield %x : f64
  }
  return %0 : f64
}
// CHECK: error: 'sparse_tensor.select' op select region yield type mismatch

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @foreach_args(%t: tensor<2x3xf64, #CSR>) {
  sparse_tensor.foreach in %t : tensor<2x3xf64, #CSR> do {
  ^bb0(%i: index, %v: f64):
  }
  return
}
// CHECK: error: 'sparse_tensor.foreach' op Unmatched number of arguments in the block

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @foreach_value_type(%t: tensor<2x3xf64, #CSR>) {
  sparse_tensor.foreach in %t : tensor<2x3xf64, #CSR> do {
  ^bb0(%i: index, %j: index, %v: f32):
  }
  return
}
// CHECK: error: 'sparse_tensor.foreach' op Unmatched element type between input tensor and block argument, expected:f64, got: f32

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @foreach_index_type(%t: tensor<2x3xf64, #CSR>) {
  sparse_tensor.foreach in %t : tensor<2x3xf64, #CSR> do {
  ^bb0(%i: index, %j: i32, %v: f64):
  }
  return
}
// CHECK: error: 'sparse_tensor.foreach' op Expecting Index type for argument at index 1

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @foreach_yield(%t: tensor<2x3xf64, #CSR>, %init: f64) -> f64 {
  %r = sparse_tensor.foreach in %t init(%init) : tensor<2x3xf64, #CSR>, f64 -> f64 do {
  ^bb0(%i: index, %j: index, %v: f64, %acc: f64):
    %c = arith.constant 1 : i32
    sparse_tensor.yield %c : i32
  }
  return %r : f64
}
// CHECK: error: 'sparse_tensor.foreach' op Mismatch in types of yield values and results

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @foreach_order(%t: tensor<2x3xf64, #CSR>) {
  sparse_tensor.foreach in %t {order = affine_map<(d0) -> (d0)>} : tensor<2x3xf64, #CSR> do {
  ^bb0(%i: index, %j: index, %v: f64):
  }
  return
}
// CHECK: error: 'sparse_tensor.foreach' op Level traverse order does not match tensor's level rank

// -----

#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)) }>
func.func @extract_space_parent(%sp: tensor<4x8xf32, #COO>) {
  %l1 = sparse_tensor.extract_iteration_space %sp lvls = 1 : tensor<4x8xf32, #COO> -> !sparse_tensor.iter_space<#COO, lvls = 1>
  return
}
// CHECK: error: 'sparse_tensor.extract_iteration_space' op parent iterator should be specified iff level lower bound equals 0

// -----

#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)) }>
func.func @extract_space_consecutive(%sp: tensor<4x8xf32, #COO>, %it: !sparse_tensor.iterator<#COO, lvls = 0>) {
  %l = sparse_tensor.extract_iteration_space %sp at %it lvls = 2 to 3 : tensor<4x8xf32, #COO>, !sparse_tensor.iterator<#COO, lvls = 0> -> !sparse_tensor.iter_space<#COO, lvls = 2 to 3>
  return
}
// CHECK: error: 'sparse_tensor.extract_iteration_space' op parent iterator should be used to extract an iteration space from a consecutive level.

// -----

#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)) }>
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @extract_space_encoding(%sp: tensor<4x8xf32, #COO>, %it: !sparse_tensor.iterator<#CSR, lvls = 0>) {
  %l = sparse_tensor.extract_iteration_space %sp at %it lvls = 1 : tensor<4x8xf32, #COO>, !sparse_tensor.iterator<#CSR, lvls = 0> -> !sparse_tensor.iter_space<#COO, lvls = 1>
  return
}
// CHECK: error: 'sparse_tensor.extract_iteration_space' op mismatch in parent iterator encoding and iteration space encoding.

// -----

#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)) }>
func.func @extract_value_level(%sp: tensor<4x8xf32, #COO>, %it: !sparse_tensor.iterator<#COO, lvls = 0>) {
  %v = sparse_tensor.extract_value %sp at %it : tensor<4x8xf32, #COO>, !sparse_tensor.iterator<#COO, lvls = 0>
  return
}
// CHECK: error: 'sparse_tensor.extract_value' op must use last-level iterator to extract values.

// -----

#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)) }>
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @extract_value_encoding(%sp: tensor<4x8xf32, #COO>, %it: !sparse_tensor.iterator<#CSR, lvls = 1>) {
  %v = sparse_tensor.extract_value %sp at %it : tensor<4x8xf32, #COO>, !sparse_tensor.iterator<#CSR, lvls = 1>
  return
}
// CHECK: error: 'sparse_tensor.extract_value' op mismatch in tensor encoding and iterator encoding.

// -----

#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)) }>
func.func @iterate_yield_type(%s: !sparse_tensor.iter_space<#COO, lvls = 0>, %i: index) -> index {
  %r = sparse_tensor.iterate %it in %s iter_args(%o = %i) : !sparse_tensor.iter_space<#COO, lvls = 0> -> index {
    %c = arith.constant 1 : i32
    sparse_tensor.yield %c : i32
  }
  return %r : index
}
// CHECK: error: 'sparse_tensor.iterate' op 0-th region iter_arg and 0-th yielded value have different type: 'index' != 'i32'

// -----

#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)) }>
func.func @iterate_yield_count(%s: !sparse_tensor.iter_space<#COO, lvls = 0>, %i: index) -> index {
  %r = sparse_tensor.iterate %it in %s iter_args(%o = %i) : !sparse_tensor.iter_space<#COO, lvls = 0> -> index {
    sparse_tensor.yield %o, %o : index, index
  }
  return %r : index
}
// CHECK: error: 'sparse_tensor.iterate' op different number of region iter_args and yielded values: 1 != 2

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @coiterate_duplicated(%a: !sparse_tensor.iter_space<#CSR, lvls = 0>, %b: !sparse_tensor.iter_space<#CSR, lvls = 0>) {
  sparse_tensor.coiterate (%a, %b) : (!sparse_tensor.iter_space<#CSR, lvls = 0>, !sparse_tensor.iter_space<#CSR, lvls = 0>)
  case %x, _ {
  }
  case %y, _ {
  }
  return
}
// CHECK: error: 'sparse_tensor.coiterate' op contains duplicated cases.

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @coiterate_yield(%a: !sparse_tensor.iter_space<#CSR, lvls = 0>, %b: !sparse_tensor.iter_space<#CSR, lvls = 0>, %i: index) -> index {
  %r = sparse_tensor.coiterate (%a, %b) iter_args(%acc = %i) : (!sparse_tensor.iter_space<#CSR, lvls = 0>, !sparse_tensor.iter_space<#CSR, lvls = 0>) -> index
  case %x, _ {
    sparse_tensor.yield %acc : index
  }
  case %x, %y {
    %c = arith.constant 1.0 : f32
    sparse_tensor.yield %c : f32
  }
  return %r : index
}
// CHECK: error: 'sparse_tensor.coiterate' op types mismatch between 0th yield value and defined value on 1th region

// -----

// A region of several blocks: its first block is checked, as MLIR does (the
// verifier used to crash on `Region.block`).
func.func @binary_blocks(%a: f64, %b: f64) -> f64 {
  %0 = sparse_tensor.binary %a, %b : f64, f64 to f64
    overlap = {
      %m = arith.constant 1.0 : f64
    ^bb1(%x: f64, %y: f64):
      sparse_tensor.yield %x : f64
    }
    left = {}
    right = {}
  return %0 : f64
}
// CHECK: error: 'sparse_tensor.binary' op overlap region must have exactly 2 arguments

// -----

func.func @unary_absent_blocks(%a: f64) -> f64 {
  %0 = sparse_tensor.unary %a : f64 to f64
    present = {}
    absent = {
      %m = arith.addf %a, %a : f64
      sparse_tensor.yield %m : f64
    ^bb1:
      sparse_tensor.yield %a : f64
    }
  return %0 : f64
}
// CHECK: error: 'sparse_tensor.unary' op absent region cannot yield locally computed value

// -----

// Several blocks in a single-block region: the verifier's refusal (the parser
// crashed adding the implicit terminator: 'block' property of Region).
func.func @foreach_blocks(%d: tensor<2x3xf64>) {
  sparse_tensor.foreach in %d : tensor<2x3xf64> do {
    "test.op"() : () -> ()
  ^bb1(%i: index, %j: index, %v: f64):
  }
  return
}
// CHECK: error: 'sparse_tensor.foreach' op expects region #0 to have 0 or 1 blocks
