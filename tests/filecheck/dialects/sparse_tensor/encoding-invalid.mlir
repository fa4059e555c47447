// RUN: %xsparse-diagnostics | filecheck %s

// Invalid `#sparse_tensor.encoding`s: every rule of MLIR 22's parser and
// verifier, with MLIR 22's message at MLIR 22's location (line:column).
// The expected-error annotations let mlir-interop/encoding.mlir check the
// same cases against mlir-opt-22 itself.

// Singleton first.
// expected-error@+1 {{expected compressed or loose_compressed level before singleton level}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : singleton, d1 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: expected compressed or loose_compressed level before singleton level

// -----

// Singleton after dense.
// expected-error@+1 {{expected compressed or loose_compressed level before singleton level}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : singleton) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: expected compressed or loose_compressed level before singleton level

// -----

// Soa mixed.
// expected-error@+1 {{expected all singleton lvlTypes stored in the same memory layout (SoA vs AoS).}}
#e = #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : compressed(nonunique), d1 : singleton(nonunique, soa), d2 : singleton) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: expected all singleton lvlTypes stored in the same memory layout (SoA vs AoS).

// -----

// Soa on compressed.
// expected-error@+1 {{SoA is only applicable to singleton lvlTypes.}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(soa), d1 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: SoA is only applicable to singleton lvlTypes.

// -----

// Soa on dense.
// expected-error@+1 {{invalid level type: level format doesn't support the properties}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense(soa), d1 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:56: error: invalid level type: level format doesn't support the properties

// -----

// Nonunique on dense.
// expected-error@+1 {{invalid level type: level format doesn't support the properties}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense(nonunique), d1 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:56: error: invalid level type: level format doesn't support the properties

// -----

// Batch not leading.
// expected-error@+1 {{Batch lvlType can only be leading levels.}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : batch) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: Batch lvlType can only be leading levels.

// -----

// Structured not last.
// expected-error@+1 {{expected n_out_of_m to be the last level type}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : structured[2, 4], d1 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: expected n_out_of_m to be the last level type

// -----

// Structured after compressed.
// expected-error@+1 {{expected all dense lvlTypes before a n_out_of_m level}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed, d1 : structured[2, 4]) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: expected all dense lvlTypes before a n_out_of_m level

// -----

// Structured n > m.
// expected-error@+1 {{expected n <= m in n_out_of_m}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : structured[4, 2]) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:68: error: expected n <= m in n_out_of_m

// -----

// Structured one size.
// expected-error@+1 {{expected exactly 2 structured sizes}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : structured[4]) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:68: error: expected exactly 2 structured sizes

// -----

// Structured no sizes.
// expected-error@+1 {{expected exactly 2 structured sizes}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : structured) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:68: error: expected exactly 2 structured sizes

// -----

// Structured negative.
// expected-error@+1 {{expected structured size to be >= 0}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : structured[-1, 2]) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:79: error: expected structured size to be >= 0

// -----

// Structured word.
// expected-error@+1 {{expected valid integer for structured size}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : structured[a, 2]) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:79: error: expected valid integer for structured size

// -----

// Structured block mismatch.
// expected-error@+1 {{expected coeffiencts of Affine expressions to be equal to m of n_out_of_m level}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 floordiv 8 : dense, d1 mod 8 : structured[2, 4]) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: expected coeffiencts of Affine expressions to be equal to m of n_out_of_m level

// -----

// Structured not block.
// expected-error@+1 {{expected 1xm block structure for n_out_of_m level}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 floordiv 4 : dense, d1 : structured[2, 4]) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: expected 1xm block structure for n_out_of_m level

// -----

// Structured two blocks.
// expected-error@+1 {{expected only one blocked level with the same coefficients}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 2 : dense, d1 floordiv 4 : dense, d0 mod 2 : dense, d1 mod 4 : structured[2, 4]) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: expected only one blocked level with the same coefficients

// -----

// Pos width.
// expected-error@+1 {{unexpected position bitwidth: 7}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), posWidth = 7 }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: unexpected position bitwidth: 7

// -----

// Crd width.
// expected-error@+1 {{unexpected coordinate bitwidth: 128}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), crdWidth = 128 }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: unexpected coordinate bitwidth: 128

// -----

// Crd width 2 not 2:4.
// expected-error@+1 {{unexpected coordinate bitwidth: 2}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), crdWidth = 2 }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: unexpected coordinate bitwidth: 2

// -----

// Pos width float.
// expected-error@+1 {{expected an integral position bitwidth}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), posWidth = 1.0 }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: expected an integral position bitwidth

// -----

// Crd width string.
// expected-error@+1 {{expected an integral index bitwidth}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), crdWidth = "a" }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: expected an integral index bitwidth

// -----

// Unknown key.
// expected-error@+1 {{unexpected key: lvlTypes}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), lvlTypes = 1 }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: unexpected key: lvlTypes

// -----

// No key value.
// expected-error@+1 {{expected '='}}
#e = #sparse_tensor.encoding<{ map (d0) -> (d0 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:35: error: expected '='

// -----

// Empty.
// expected-error@+1 {{expected a non-empty array for lvlTypes}}
#e = #sparse_tensor.encoding<{  }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: expected a non-empty array for lvlTypes

// -----

// No map.
// expected-error@+1 {{expected a non-empty array for lvlTypes}}
#e = #sparse_tensor.encoding<{ posWidth = 32 }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: expected a non-empty array for lvlTypes

// -----

// Unknown format.
// expected-error@+1 {{unknown level format: sparse}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : sparse) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:52: error: unknown level format: sparse

// -----

// Unknown property.
// expected-error@+1 {{unknown level property: foo}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed(foo)) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:63: error: unknown level property: foo

// -----

// High on dense.
// expected-error@+1 {{unknown level property: high}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : dense(high)) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:58: error: unknown level property: high

// -----

// Missing format.
// expected-error@+1 {{expected valid level format (e.g. dense, compressed or singleton)}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : ) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:52: error: expected valid level format (e.g. dense, compressed or singleton)

// -----

// Missing colon.
// expected-error@+1 {{expected ':'}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:49: error: expected ':'

// -----

// Undeclared dim.
// expected-error@+1 {{use of undeclared identifier}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d1 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:47: error: use of undeclared identifier

// -----

// Redefined dim.
// expected-error@+1 {{redefinition of identifier 'd0'}}
#e = #sparse_tensor.encoding<{ map = (d0, d0) -> (d0 : dense, d0 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:43: error: redefinition of identifier 'd0'

// -----

// Redefined symbol as dim.
// expected-error@+1 {{redefinition of identifier 's0'}}
#e = #sparse_tensor.encoding<{ map = [s0](s0) -> (s0 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:43: error: redefinition of identifier 's0'

// -----

// Dim times dim.
// expected-error@+1 {{non-affine expression: at least one of the multiply operands has to be either a constant or symbolic}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 * d1 : dense, d1 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:54: error: non-affine expression: at least one of the multiply operands has to be either a constant or symbolic

// -----

// Floordiv by dim.
// expected-error@+1 {{non-affine expression: right operand of floordiv has to be either a constant or symbolic}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv d1 : dense, d1 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:54: error: non-affine expression: right operand of floordiv has to be either a constant or symbolic

// -----

// Mod by dim.
// expected-error@+1 {{non-affine expression: right operand of mod has to be either a constant or symbolic}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 mod d1 : dense, d1 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:54: error: non-affine expression: right operand of mod has to be either a constant or symbolic

// -----

// Ceildiv by dim.
// expected-error@+1 {{non-affine expression: right operand of ceildiv has to be either a constant or symbolic}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 ceildiv d1 : dense, d1 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:54: error: non-affine expression: right operand of ceildiv has to be either a constant or symbolic

// -----

// Non inferable sum.
// expected-error@+1 {{failed to infer lvlToDim from dimToLvl}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 + d1 : dense, d1 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: failed to infer lvlToDim from dimToLvl

// -----

// Non inferable missing dim.
// expected-error@+1 {{failed to infer lvlToDim from dimToLvl}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: failed to infer lvlToDim from dimToLvl

// -----

// Non inferable floordiv only.
// expected-error@+1 {{failed to infer lvlToDim from dimToLvl}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 2 : dense, d1 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: failed to infer lvlToDim from dimToLvl

// -----

// Non inferable ceildiv.
// expected-error@+1 {{failed to infer lvlToDim from dimToLvl}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 ceildiv 2 : dense, d0 mod 2 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: failed to infer lvlToDim from dimToLvl

// -----

// More dims than levels.
// expected-error@+1 {{unexpected dimToLvl mapping from 2 to 1}}
#e = #sparse_tensor.encoding<{ map = [s0](d0, d1) -> (d0 * s0 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: unexpected dimToLvl mapping from 2 to 1

// -----

// Wrong inverse.
// expected-error@+1 {{expected lvlToDim to be an inverse of dimToLvl}}
#e = #sparse_tensor.encoding<{ map = {l0, l1} (d0 = l1, d1 = l0) -> (l0 = d0 : dense, l1 = d1 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: expected lvlToDim to be an inverse of dimToLvl

// -----

// Partial inverse.
// expected-error@+1 {{expected lvlToDim to be an inverse of dimToLvl}}
#e = #sparse_tensor.encoding<{ map = {l0, l1} (d0 = l0, d1) -> (l0 = d0 : dense, l1 = d1 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: expected lvlToDim to be an inverse of dimToLvl

// -----

// Lvl var order.
// expected-error@+1 {{Level-variable ordering mismatch. The variable 'l1' was forward-declared as the 1st level; but is bound by the 0th specification.}}
#e = #sparse_tensor.encoding<{ map = {l0, l1} (d0, d1) -> (l1 = d0 : dense, l0 = d1 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:60: error: Level-variable ordering mismatch. The variable 'l1' was forward-declared as the 1st level; but is bound by the 0th specification.

// -----

// Lvl var count.
// expected-error@+1 {{Level-rank mismatch between forward-declarations and specifiers. Declared 3 level-variables; but got 2 level-specifiers.}}
#e = #sparse_tensor.encoding<{ map = {l0, l1, l2} (d0, d1) -> (l0 = d0 : dense, l1 = d1 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:63: error: Level-rank mismatch between forward-declarations and specifiers. Declared 3 level-variables; but got 2 level-specifiers.

// -----

// Lvl var missing binding.
// expected-error@+1 {{use of undeclared identifier 'd0'}}
#e = #sparse_tensor.encoding<{ map = {l0, l1} (d0, d1) -> (d0 : dense, d1 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:60: error: use of undeclared identifier 'd0'

// -----

// Lvl var undeclared.
// expected-error@+1 {{use of undeclared identifier 'l2'}}
#e = #sparse_tensor.encoding<{ map = {l0, l1} (d0, d1) -> (l0 = d0 : dense, l2 = d1 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:77: error: use of undeclared identifier 'l2'

// -----

// Lvl binding without decl.
// expected-error@+1 {{use of undeclared identifier}}
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (l0 = d0 : dense, l1 = d1 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:51: error: use of undeclared identifier

// -----

// Lvl var in lvl expr.
// expected-error@+1 {{use of undeclared identifier}}
#e = #sparse_tensor.encoding<{ map = {l0} (d0) -> (l0 = l0 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:56: error: use of undeclared identifier

// -----

// Dim var in dim expr.
// expected-error@+1 {{use of undeclared identifier}}
#e = #sparse_tensor.encoding<{ map = {l0} (d0 = d0) -> (l0 = d0 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:48: error: use of undeclared identifier

// -----

// Dim name is a level.
// expected-error@+1 {{redefinition of identifier 'l0'}}
#e = #sparse_tensor.encoding<{ map = {l0} (l0) -> (l0 = l0 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:44: error: redefinition of identifier 'l0'

// -----

// Slice negative.
// expected-error@+1 {{expect positive value or ? for slice offset/size/stride}}
#e = #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(-1, 4, 1)>) -> (d0 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:67: error: expect positive value or ? for slice offset/size/stride

// -----

// Slice zero size.
// expected-error@+1 {{expect positive value or ? for slice size}}
#e = #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(0, 0, 1)>) -> (d0 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:59: error: expect positive value or ? for slice size

// -----

// Slice zero stride.
// expected-error@+1 {{expect positive value or ? for slice stride}}
#e = #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(0, 4, 0)>) -> (d0 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:59: error: expect positive value or ? for slice stride

// -----

// Slice not a slice.
// expected-error@+1 {{expected SparseTensorDimSliceAttr}}
#e = #sparse_tensor.encoding<{ map = (d0 : 1 : i32) -> (d0 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:44: error: expected SparseTensorDimSliceAttr

// -----

// Slice rank mismatch.
// expected-error@+1 {{dimSlices expected dimension-rank to match level-rank: 2 != 3}}
#e = #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(0, 4, 1)>, d1) -> (d0 floordiv 2 : dense, d1 : compressed, d0 mod 2 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: dimSlices expected dimension-rank to match level-rank: 2 != 3

// -----

// Slice through an alias of something else.
#n = [1]
// expected-error@+1 {{expected SparseTensorDimSliceAttr}}
#e = #sparse_tensor.encoding<{ map = (d0 : #n) -> (d0 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:44: error: expected SparseTensorDimSliceAttr

// -----

// A slice on its own: zero size.
// expected-error@+1 {{expect positive value or ? for slice size}}
#s = #sparse_tensor<slice(1, 0, 1)>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: expect positive value or ? for slice size

// -----

// A slice on its own: zero stride, as an attribute value.
// expected-error@+1 {{expect positive value or ? for slice stride}}
func.func private @f() attributes {s = #sparse_tensor<slice(1, 4, 0)>}
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:55: error: expect positive value or ? for slice stride

// -----

// A slice on its own: negative offset.
// expected-error@+1 {{expect positive value or ? for slice offset/size/stride}}
#s = #sparse_tensor<slice(-1, 4, 1)>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:29: error: expect positive value or ? for slice offset/size/stride

// -----

// A slice on its own: two values.
// expected-error@+1 {{expected ','}}
#s = #sparse_tensor<slice(1, 4)>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:31: error: expected ','

// -----

// A slice on its own: unbalanced.
// expected-error@+1 {{unbalanced '<' character in pretty dialect name}}
#s = #sparse_tensor<slice 1, 4, 1)>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:20: error: unbalanced '<' character in pretty dialect name

// -----

// Slice unknown.
// expected-error@+1 {{unknown attribute `foo` in dialect `sparse_tensor`}}
#e = #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<foo(0, 4, 1)>) -> (d0 : compressed) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:59: error: unknown attribute `foo` in dialect `sparse_tensor`

// -----

// Explicit not numeric.
// expected-error@+1 {{expected a numeric value for explicitVal}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), explicitVal = "x" }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: expected a numeric value for explicitVal

// -----

// Implicit not numeric.
// expected-error@+1 {{expected a numeric value for implicitVal}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), implicitVal = [1] }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: expected a numeric value for implicitVal

// -----

// Repeated map.
// expected-error@+1 {{level-rank mismatch between dimToLvl and lvlTypes: 2 != 3}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), map = (d0, d1) -> (d0 : dense, d1 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:21: error: level-rank mismatch between dimToLvl and lvlTypes: 2 != 3

// -----

// Missing right operand.
// expected-error@+1 {{missing right operand of binary operator}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 + : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:52: error: missing right operand of binary operator

// -----

// Missing left operand.
// expected-error@+1 {{missing left operand of binary operator}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (* d0 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:47: error: missing left operand of binary operator

// -----

// Empty parens.
// expected-error@+1 {{no expression inside parentheses}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (() : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:48: error: no expression inside parentheses

// -----

// Unclosed paren expr.
// expected-error@+1 {{unbalanced '(' character in pretty dialect name}}
#e = #sparse_tensor.encoding<{ map = (d0) -> ((d0 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:29: error: unbalanced '(' character in pretty dialect name

// -----

// Huge constant.
// expected-error@+1 {{constant too large for index}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 + 99999999999999999999 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:52: error: constant too large for index

// -----

// Missing arrow.
// expected-error@+1 {{expected '->'}}
#e = #sparse_tensor.encoding<{ map = (d0) (d0 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:42: error: expected '->'

// -----

// Unbalanced.
// expected-error@+1 {{unbalanced '(' character in pretty dialect name}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : dense }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:29: error: unbalanced '(' character in pretty dialect name

// -----

// No lvl list.
// expected-error@+1 {{expected '(' in level-specifier list}}
#e = #sparse_tensor.encoding<{ map = (d0) -> }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:45: error: expected '(' in level-specifier list

// -----

// Missing dims paren.
// expected-error@+1 {{expected '(' in dimension-specifier list}}
#e = #sparse_tensor.encoding<{ map = d0 -> (d0 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:37: error: expected '(' in dimension-specifier list

// -----

// Symbol list unclosed.
// expected-error@+1 {{unbalanced '[' character in pretty dialect name}}
#e = #sparse_tensor.encoding<{ map = [s0 (d0) -> (d0 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:29: error: unbalanced '[' character in pretty dialect name

// -----

// Comma in lvl list.
// expected-error@+1 {{expected affine expression}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : dense,) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:58: error: expected affine expression

// -----

// Bare float expr.
// expected-error@+1 {{missing right operand of binary operator}}
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 + 1.5 : dense) }>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:52: error: missing right operand of binary operator

// -----

// The encoding against the tensor type it is used in: MLIR's verifyEncoding,
// reported at the `>` that closes the tensor type.

// Dimension rank.
#e = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
// expected-error@+1 {{dimension-rank mismatch between encoding and tensor shape: 2 != 1}}
func.func @f(%a: tensor<4xf32, #e>) { return }
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:34: error: dimension-rank mismatch between encoding and tensor shape: 2 != 1

// -----

// Dimension rank, in a type alias and an op's result type.
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
// expected-error@+1 {{dimension-rank mismatch between encoding and tensor shape: 1 != 2}}
!t = tensor<4x?xf64, #e>
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:24: error: dimension-rank mismatch between encoding and tensor shape: 1 != 2

// -----

#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
func.func @f() {
  // expected-error@+1 {{dimension-rank mismatch between encoding and tensor shape: 1 != 3}}
  %0 = tensor.empty() : tensor<2x3x4xf32, #e>
  // CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:45: error: dimension-rank mismatch between encoding and tensor shape: 1 != 3
  return
}

// -----

// Scalar.
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
// expected-error@+1 {{expected non-scalar sparse tensor}}
func.func @f(%a: tensor<f32, #e>) { return }
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:32: error: expected non-scalar sparse tensor

// -----

// Explicit value type.
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), explicitVal = 1 : i32 }>
// expected-error@+1 {{explicit value type mismatch between encoding and tensor element type: 'i32' != 'f32'}}
func.func @f(%a: tensor<4xf32, #e>) { return }
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:34: error: explicit value type mismatch between encoding and tensor element type: 'i32' != 'f32'

// -----

// Explicit complex value type.
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), explicitVal = #complex.number<:f32 1.0, 0.0> }>
// expected-error@+1 {{explicit value type mismatch between encoding and tensor element type: 'complex<f32>' != 'f64'}}
func.func @f(%a: tensor<4xf64, #e>) { return }
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:34: error: explicit value type mismatch between encoding and tensor element type: 'complex<f32>' != 'f64'

// -----

// Implicit value type.
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), implicitVal = 0 : i32 }>
// expected-error@+1 {{implicit value type mismatch between encoding and tensor element type: 'i32' != 'f32'}}
func.func @f(%a: tensor<4xf32, #e>) { return }
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:34: error: implicit value type mismatch between encoding and tensor element type: 'i32' != 'f32'

// -----

// Implicit value not zero.
#e = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), implicitVal = 1.0 : f32 }>
// expected-error@+1 {{implicit value must be zero}}
func.func @f(%a: tensor<4xf32, #e>) { return }
// CHECK: encoding-invalid.mlir:[[# @LINE - 1]]:34: error: implicit value must be zero
