// RUN: %xsparse-diagnostics | filecheck %s

// IR that MLIR 22 rejects, with MLIR's messages: float literals that do not
// fit their type, symbols defined twice, operands that do not dominate their use, a
// `tensor.empty` without a size for each dynamic dimension.

func.func @hex_too_wide() -> f16 {
  %c = arith.constant 0x1FFFF : f16
  return %c : f16
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:23: error: hexadecimal float constant out of range for type

// -----

func.func @hex_minus() -> f32 {
  %c = arith.constant -0x7F800000 : f32
  return %c : f32
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:24: error: hexadecimal float literal should not have a leading minus

// -----

func.func @dense_hex_too_wide() -> tensor<2xbf16> {
  %c = arith.constant dense<[1.0, 0x12345]> : tensor<2xbf16>
  return %c : tensor<2xbf16>
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:35: error: hexadecimal float constant out of range for type

// -----

func.func @dense_integer_too_large() -> tensor<2xi8> {
  %c = arith.constant dense<[1, 300]> : tensor<2xi8>
  return %c : tensor<2xi8>
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:28: error: integer constant out of range for type

// -----

func.func private @twice(tensor<4xf64>)
func.func private @twice(tensor<4xf64>)

// CHECK: invalid.mlir:[[# @LINE - 2]]:1: error: redefinition of symbol named 'twice'

// -----

func.func @used_before_defined() -> index {
  %s = arith.addi %a, %a : index
  %a = arith.constant 1 : index
  return %s : index
}

// CHECK: invalid.mlir:[[# @LINE - 5]]:3: error: operand #0 does not dominate this use

// -----

func.func @defined_in_a_child_region(%c: i1) -> f64 {
  %s = arith.addf %z, %z : f64
  scf.if %c {
    %z = arith.constant 0.0 : f64
  }
  return %s : f64
}

// CHECK: invalid.mlir:[[# @LINE - 7]]:3: error: operand #0 does not dominate this use

// -----

// A value defined in a region of the op that uses it (the operand was left a
// forward reference, and func.func's verifier crashed on it).

#t = {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @defined_in_its_users_region() -> tensor<4xf64> {
  %0 = linalg.generic #t outs(%init : tensor<4xf64>) {
    %init = tensor.empty() : tensor<4xf64>
  ^bb0(%o: f64):
    linalg.yield %o : f64
  } -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// CHECK: invalid.mlir:[[# @LINE - 8]]:3: error: operand #0 does not dominate this use

// -----

// A splat xsparse would expand into more elements than it holds (MLIR keeps
// one element; xDSL a list: MemoryError).

func.func @huge_splat() -> tensor<1000000000000x4xf16> {
  %s = arith.constant dense<0x7C00> : tensor<1000000000000x4xf16>
  return %s : tensor<1000000000000x4xf16>
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:28: error: a dense literal of 4000000000000 elements is too large for xsparse

// -----

func.func @index_past_64_bits() -> index {
  %c = arith.constant 9223372036854775808 : index
  return %c : index
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:23: error: integer constant out of range for attribute

// -----

// Real numbers for complex elements (an AssertionError in xDSL's parser).

func.func @reals_for_complex() -> tensor<2xcomplex<f32>> {
  %v = arith.constant dense<[1.0, 2.0]> : tensor<2xcomplex<f32>>
  return %v : tensor<2xcomplex<f32>>
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:28: error: parsed 2 elements, but type ('tensor<2xcomplex<f32>>') expected 4 elements

// -----

// Not affine: MLIR's message (xDSL raised NotImplementedError).

func.func private @semi_affine() attributes {map = affine_map<(i, j) -> (i mod j)>}

// CHECK: invalid.mlir:[[# @LINE - 2]]:63: error: non-affine expression: right operand of mod has to be either a constant or symbolic

// -----

func.func @empty_without_sizes() -> tensor<?x4xf64> {
  %t = tensor.empty() : tensor<?x4xf64>
  return %t : tensor<?x4xf64>
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:3: error: 'tensor.empty' op incorrect number of dynamic sizes, has 0, expected 1

// -----

// Element types MLIR's tensor and memref types refuse (reported where the
// shape starts; MLIR points at the element type).
func.func @none_tensor(%a: tensor<?xnone>) {
  return
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:35: error: invalid tensor element type

// -----

func.func @tuple_tensor(%a: tensor<2xtuple<i32>>) {
  return
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:36: error: invalid tensor element type

// -----

func.func @none_memref(%a: memref<?xnone>) {
  return
}

// CHECK: invalid.mlir:[[# @LINE - 4]]:35: error: invalid memref element type

// -----

func.func @nested_are_valid(%a: memref<?xmemref<4xf32>>, %b: tensor<4xcomplex<f32>>, %c: tensor<2xvector<4xf32>>) {
  return
}

// Valid ones parse.
// CHECK: func.func @nested_are_valid(%a: memref<?xmemref<4xf32>>, %b: tensor<4xcomplex<f32>>, %c: tensor<2xvector<4xf32>>)
