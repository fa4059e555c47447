// RUN: %xsparse-roundtrip | filecheck %s
// RUN: %xsparse-generic-roundtrip | filecheck %s

// Round trip of `#sparse_tensor.encoding`: xsparse prints MLIR 22's canonical
// form byte for byte (variables renamed d0.., s0.., level names and dimension
// expressions dropped, keys in MLIR's order, zero widths left out).
// mlir-interop/encoding.mlir checks that mlir-opt-22 prints the same.

// Sparse vector (seed 000).
#sparse_vector = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
func.func private @sparse_vector(tensor<?xf32, #sparse_vector>)
// CHECK-LABEL: func.func private @sparse_vector
// CHECK-SAME: (tensor<?xf32, #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>>) -> ()

// -----

// Sorted coordinate scheme (seed 000).
#sorted_coo = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
func.func private @sorted_coo(tensor<?x?xf64, #sorted_coo>)
// CHECK-LABEL: func.func private @sorted_coo
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>>) -> ()

// -----

// Compressed sparse row (seed 000).
#csr = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func private @csr(tensor<100x100xbf16, #csr>)
// CHECK-LABEL: func.func private @csr
// CHECK-SAME: (tensor<100x100xbf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>) -> ()

// -----

// CSR with widths: a zero width is not printed.
#csr_widths = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 0 }>
func.func private @csr_widths(tensor<?x?xf64, #csr_widths>)
// CHECK-LABEL: func.func private @csr_widths
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), posWidth = 32 }>>) -> ()

// -----

// Doubly compressed sparse column with bitwidths (seed 000).
#dcsc = #sparse_tensor.encoding<{ map = (i, j) -> (j : compressed, i : compressed), posWidth = 32, crdWidth = 8 }>
func.func private @dcsc(tensor<8x8xf64, #dcsc>)
// CHECK-LABEL: func.func private @dcsc
// CHECK-SAME: (tensor<8x8xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : compressed, d0 : compressed), posWidth = 32, crdWidth = 8 }>>) -> ()

// -----

// Block sparse row, 2x3 blocks (seed 000).
#bsr = #sparse_tensor.encoding<{ map = ( i, j ) -> ( i floordiv 2 : dense, j floordiv 3 : compressed, i mod 2 : dense, j mod 3 : dense ) }>
func.func private @bsr(tensor<20x30xf32, #bsr>)
// CHECK-LABEL: func.func private @bsr
// CHECK-SAME: (tensor<20x30xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 2 : dense, d1 floordiv 3 : compressed, d0 mod 2 : dense, d1 mod 3 : dense) }>>) -> ()

// -----

// BSR with level declarations and the (redundant) inverse: both dropped on print (seed 000).
#bsr_explicit = #sparse_tensor.encoding<{ map = { ib, jb, ii, jj } ( i = ib * 2 + ii, j = jb * 3 + jj) -> ( ib = i floordiv 2 : dense, jb = j floordiv 3 : compressed, ii = i mod 2 : dense, jj = j mod 3 : dense) }>
func.func private @bsr_explicit(tensor<20x30xf32, #bsr_explicit>)
// CHECK-LABEL: func.func private @bsr_explicit
// CHECK-SAME: (tensor<20x30xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 2 : dense, d1 floordiv 3 : compressed, d0 mod 2 : dense, d1 mod 3 : dense) }>>) -> ()

// -----

// ELL: a symbol counts a dimension; `c * 3 * i` prints as MLIR builds it (seed 000).
#ell = #sparse_tensor.encoding<{ map = [c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed) }>
func.func private @ell(tensor<?x?xf64, #ell>)
// CHECK-LABEL: func.func private @ell
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = [s0](d0, d1) -> (d0 * (s0 * 3) : dense, d0 : dense, d1 : compressed) }>>) -> ()

// -----

// CSR slice with a dynamic stride (seed 000).
#csr_slice = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(0, 4, 1)>, j : #sparse_tensor<slice(0, 8, ?)>) -> (i : dense, j : compressed) }>
func.func private @csr_slice(tensor<?x?xf64, #csr_slice>)
// CHECK-LABEL: func.func private @csr_slice
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(0, 4, 1)>, d1 : #sparse_tensor<slice(0, 8, ?)>) -> (d0 : dense, d1 : compressed) }>>) -> ()

// -----

// NVIDIA 2:4 in MLIR 22's spelling.
#nv_24_mlir = #sparse_tensor.encoding<{ map = ( i, j ) -> ( i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]), crdWidth = 8 }>
func.func private @nv_24_mlir(tensor<?x?xf16, #nv_24_mlir>)
// CHECK-LABEL: func.func private @nv_24_mlir
// CHECK-SAME: (tensor<?x?xf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 floordiv 4 : dense, d1 mod 4 : structured[2, 4]), crdWidth = 8 }>>) -> ()

// -----

// Keys in any order and a trailing comma; printed in MLIR's order.
#keys_any_order = #sparse_tensor.encoding<{ crdWidth = 16, posWidth = 8, map = (i, j) -> (i : dense, j : compressed), }>
func.func private @keys_any_order(tensor<?x?xf64, #keys_any_order>)
// CHECK-LABEL: func.func private @keys_any_order
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), posWidth = 8, crdWidth = 16 }>>) -> ()

// -----

// A trailing comma after the last key.
#trailing_comma = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), }>
func.func private @trailing_comma(tensor<?xf64, #trailing_comma>)
// CHECK-LABEL: func.func private @trailing_comma
// CHECK-SAME: (tensor<?xf64, #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>>) -> ()

// -----

// All-dense 3-d tensor.
#dense_3d = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : dense, j : dense, k : dense) }>
func.func private @dense_3d(tensor<?x?x?xf32, #dense_3d>)
// CHECK-LABEL: func.func private @dense_3d
// CHECK-SAME: (tensor<?x?x?xf32, #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : dense, d1 : dense, d2 : dense) }>>) -> ()

// -----

// Compressed sparse fiber.
#csf = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>
func.func private @csf(tensor<?x?x?xf32, #csf>)
// CHECK-LABEL: func.func private @csf
// CHECK-SAME: (tensor<?x?x?xf32, #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : compressed, d1 : compressed, d2 : compressed) }>>) -> ()

// -----

// A permutation of three dimensions.
#permuted_3d = #sparse_tensor.encoding<{ map = (i, j, k) -> (k : dense, i : compressed, j : compressed) }>
func.func private @permuted_3d(tensor<?x?x?xf32, #permuted_3d>)
// CHECK-LABEL: func.func private @permuted_3d
// CHECK-SAME: (tensor<?x?x?xf32, #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d2 : dense, d0 : compressed, d1 : compressed) }>>) -> ()

// -----

// Batched COO: a leading batch level.
#bcoo_batch = #sparse_tensor.encoding<{ map = (b, i, j) -> (b : batch, i : compressed(nonunique), j : singleton) }>
func.func private @bcoo_batch(tensor<?x?x?xf32, #bcoo_batch>)
// CHECK-LABEL: func.func private @bcoo_batch
// CHECK-SAME: (tensor<?x?x?xf32, #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : batch, d1 : compressed(nonunique), d2 : singleton) }>>) -> ()

// -----

// Loose compressed level.
#loose = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>
func.func private @loose(tensor<?x?xf64, #loose>)
// CHECK-LABEL: func.func private @loose
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : loose_compressed) }>>) -> ()

// -----

// COO rooted at a loose compressed level.
#loose_coo = #sparse_tensor.encoding<{ map = (i, j) -> (i : loose_compressed(nonunique), j : singleton) }>
func.func private @loose_coo(tensor<?x?xf64, #loose_coo>)
// CHECK-LABEL: func.func private @loose_coo
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : loose_compressed(nonunique), d1 : singleton) }>>) -> ()

// -----

// COO with structure-of-arrays singletons.
#coo_soa = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed(nonunique), j : singleton(nonunique, soa), k : singleton(soa)) }>
func.func private @coo_soa(tensor<?x?x?xf64, #coo_soa>)
// CHECK-LABEL: func.func private @coo_soa
// CHECK-SAME: (tensor<?x?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : compressed(nonunique), d1 : singleton(nonunique, soa), d2 : singleton(soa)) }>>) -> ()

// -----

// Properties print as nonunique, nonordered, soa.
#properties_order = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonordered, nonunique), j : singleton(nonordered)) }>
func.func private @properties_order(tensor<?x?xf64, #properties_order>)
// CHECK-LABEL: func.func private @properties_order
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique, nonordered), d1 : singleton(nonordered)) }>>) -> ()

// -----

// Two COO segments in one encoding.
#two_coo_segments = #sparse_tensor.encoding<{ map = (a, b, c, d) -> (a : compressed(nonunique), b : singleton, c : compressed(nonunique), d : singleton) }>
func.func private @two_coo_segments(tensor<?x?x?x?xf64, #two_coo_segments>)
// CHECK-LABEL: func.func private @two_coo_segments
// CHECK-SAME: (tensor<?x?x?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1, d2, d3) -> (d0 : compressed(nonunique), d1 : singleton, d2 : compressed(nonunique), d3 : singleton) }>>) -> ()

// -----

// 1:2 structured sparsity over blocks of 2.
#structured_1_2 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 2 : dense, j mod 2 : structured[1, 2]) }>
func.func private @structured_1_2(tensor<?x?xf32, #structured_1_2>)
// CHECK-LABEL: func.func private @structured_1_2
// CHECK-SAME: (tensor<?x?xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 floordiv 2 : dense, d1 mod 2 : structured[1, 2]) }>>) -> ()

// -----

// A structured level without blocking.
#structured_square = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : structured[2, 4]) }>
func.func private @structured_square(tensor<?x?xf32, #structured_square>)
// CHECK-LABEL: func.func private @structured_square
// CHECK-SAME: (tensor<?x?xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : structured[2, 4]) }>>) -> ()

// -----

// Blocked column dimension with a dense row level in between.
#block_column = #sparse_tensor.encoding<{ map = (i, j) -> (j floordiv 4 : compressed, i : dense, j mod 4 : dense) }>
func.func private @block_column(tensor<?x?xf32, #block_column>)
// CHECK-LABEL: func.func private @block_column
// CHECK-SAME: (tensor<?x?xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 floordiv 4 : compressed, d0 : dense, d1 mod 4 : dense) }>>) -> ()

// -----

// 8x8 blocks with 64-bit overhead storage.
#block_square = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 8 : dense, j floordiv 8 : compressed, i mod 8 : dense, j mod 8 : dense), posWidth = 64, crdWidth = 64 }>
func.func private @block_square(tensor<?x?xf64, #block_square>)
// CHECK-LABEL: func.func private @block_square
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 8 : dense, d1 floordiv 8 : compressed, d0 mod 8 : dense, d1 mod 8 : dense), posWidth = 64, crdWidth = 64 }>>) -> ()

// -----

// Explicit and implicit values, printed as MLIR prints floats.
#explicit_float = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), explicitVal = 1.0 : f64, implicitVal = 0.0 : f64 }>
func.func private @explicit_float(tensor<?x?xf64, #explicit_float>)
// CHECK-LABEL: func.func private @explicit_float
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), explicitVal = 1.000000e+00 : f64, implicitVal = 0.000000e+00 : f64 }>>) -> ()

// -----

// Integer explicit and implicit values.
#explicit_int = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), explicitVal = 1 : i32, implicitVal = 0 : i32 }>
func.func private @explicit_int(tensor<?x?xi32, #explicit_int>)
// CHECK-LABEL: func.func private @explicit_int
// CHECK-SAME: (tensor<?x?xi32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), explicitVal = 1 : i32, implicitVal = 0 : i32 }>>) -> ()

// -----

// An f32 explicit value.
#explicit_f32 = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = 2.5 : f32 }>
func.func private @explicit_f32(tensor<?xf32, #explicit_f32>)
// CHECK-LABEL: func.func private @explicit_f32
// CHECK-SAME: (tensor<?xf32, #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), explicitVal = 2.500000e+00 : f32 }>>) -> ()

// -----

// Two symbols: the product keeps the dimension on the left.
#ell_symbols = #sparse_tensor.encoding<{ map = [s, t](i, j) -> (s * i * t : dense, i : dense, j : compressed) }>
func.func private @ell_symbols(tensor<?x?xf64, #ell_symbols>)
// CHECK-LABEL: func.func private @ell_symbols
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = [s0, s1](d0, d1) -> ((d0 * s0) * s1 : dense, d0 : dense, d1 : compressed) }>>) -> ()

// -----

// A dimension times a symbol times a constant.
#ell_sym_product = #sparse_tensor.encoding<{ map = [c](i, j) -> (i * c * 3 : dense, i : dense, j : compressed) }>
func.func private @ell_sym_product(tensor<?x?xf64, #ell_sym_product>)
// CHECK-LABEL: func.func private @ell_sym_product
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = [s0](d0, d1) -> ((d0 * s0) * 3 : dense, d0 : dense, d1 : compressed) }>>) -> ()

// -----

// A dimension plus a symbol.
#sym_sum = #sparse_tensor.encoding<{ map = [c](i, j) -> (i + c : dense, j : compressed) }>
func.func private @sym_sum(tensor<?x?xf64, #sym_sum>)
// CHECK-LABEL: func.func private @sym_sum
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = [s0](d0, d1) -> (d0 + s0 : dense, d1 : compressed) }>>) -> ()

// -----

// Negation and subtraction print as MLIR prints them.
#negation_and_sub = #sparse_tensor.encoding<{ map = [c](i, j) -> (-i + c : dense, i - 2 * c : dense, j : compressed) }>
func.func private @negation_and_sub(tensor<?x?xf64, #negation_and_sub>)
// CHECK-LABEL: func.func private @negation_and_sub
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = [s0](d0, d1) -> (-d0 + s0 : dense, d0 - s0 * 2 : dense, d1 : compressed) }>>) -> ()

// -----

// Fully dynamic slice next to a static one.
#slice_all_dynamic = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(?, ?, ?)>, j : #sparse_tensor<slice(1, 2, 3)>) -> (i : compressed, j : compressed) }>
func.func private @slice_all_dynamic(tensor<?x?xf64, #slice_all_dynamic>)
// CHECK-LABEL: func.func private @slice_all_dynamic
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(?, ?, ?)>, d1 : #sparse_tensor<slice(1, 2, 3)>) -> (d0 : compressed, d1 : compressed) }>>) -> ()

// -----

// One sliced dimension: the other gets MLIR's default slice(0, ?, 1).
#slice_one_dim = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(2, 4, 1)>, j) -> (j : dense, i : compressed) }>
func.func private @slice_one_dim(tensor<?x?xf64, #slice_one_dim>)
// CHECK-LABEL: func.func private @slice_one_dim
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(2, 4, 1)>, d1 : #sparse_tensor<slice(0, ?, 1)>) -> (d1 : dense, d0 : compressed) }>>) -> ()

// -----

// Any variable names: printed as d0, d1.
#renamed_vars = #sparse_tensor.encoding<{ map = (row, col) -> (row : dense, col : compressed) }>
func.func private @renamed_vars(tensor<?x?xf64, #renamed_vars>)
// CHECK-LABEL: func.func private @renamed_vars
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>) -> ()

// -----

// Declared level variables with the identity inverse.
#decl_identity = #sparse_tensor.encoding<{ map = {l0, l1} (d0 = l0, d1 = l1) -> (l0 = d0 : dense, l1 = d1 : compressed) }>
func.func private @decl_identity(tensor<?x?xf64, #decl_identity>)
// CHECK-LABEL: func.func private @decl_identity
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>) -> ()

// -----

// Declared level variables with a permutation and its inverse.
#decl_permutation = #sparse_tensor.encoding<{ map = {a, b} (i = b, j = a) -> (a = j : dense, b = i : compressed) }>
func.func private @decl_permutation(tensor<?x?xf64, #decl_permutation>)
// CHECK-LABEL: func.func private @decl_permutation
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>>) -> ()

// -----

// 16-bit positions and coordinates.
#compressed_all_widths = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), posWidth = 16, crdWidth = 16 }>
func.func private @compressed_all_widths(tensor<?xf64, #compressed_all_widths>)
// CHECK-LABEL: func.func private @compressed_all_widths
// CHECK-SAME: (tensor<?xf64, #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), posWidth = 16, crdWidth = 16 }>>) -> ()

// -----

// A dense vector.
#dense_vector = #sparse_tensor.encoding<{ map = (i) -> (i : dense) }>
func.func private @dense_vector(tensor<?xf64, #dense_vector>)
// CHECK-LABEL: func.func private @dense_vector
// CHECK-SAME: (tensor<?xf64, #sparse_tensor.encoding<{ map = (d0) -> (d0 : dense) }>>) -> ()

// -----

// Complex values; MLIR prints their type.
#explicit_complex = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), explicitVal = #complex.number<:f32 1.0, 0.0>, implicitVal = #complex.number<:f32 0.0, 0.0> : complex<f32> }>
func.func private @explicit_complex(tensor<?x?xcomplex<f32>, #explicit_complex>)
// CHECK-LABEL: func.func private @explicit_complex
// CHECK-SAME: (tensor<?x?xcomplex<f32>, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), explicitVal = #complex.number<:f32 1.000000e+00, 0.000000e+00> : complex<f32>, implicitVal = #complex.number<:f32 0.000000e+00, 0.000000e+00> : complex<f32> }>>) -> ()

// -----

// A boolean explicit value.
#explicit_bool = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), explicitVal = true }>
func.func private @explicit_bool(tensor<?x?xi1, #explicit_bool>)
// CHECK-LABEL: func.func private @explicit_bool
// CHECK-SAME: (tensor<?x?xi1, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), explicitVal = true }>>) -> ()

// -----

// A float given by its bits prints them in upper case.
#explicit_nan = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = 0x7FC00000 : f32 }>
func.func private @explicit_nan(tensor<?xf32, #explicit_nan>)
// CHECK-LABEL: func.func private @explicit_nan
// CHECK-SAME: (tensor<?xf32, #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), explicitVal = 0x7FC00000 : f32 }>>) -> ()

// -----

// An f16 value prints rounded to f16.
#explicit_f16 = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = -2.5e-3 : f16 }>
func.func private @explicit_f16(tensor<?xf16, #explicit_f16>)
// CHECK-LABEL: func.func private @explicit_f16
// CHECK-SAME: (tensor<?xf16, #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed), explicitVal = -2.500530e-03 : f16 }>>) -> ()

// -----

// Keywords and `.`/`$` are valid variable names.
#keyword_names = #sparse_tensor.encoding<{ map = (dense, x.y$) -> (dense : dense, x.y$ : compressed) }>
func.func private @keyword_names(tensor<?x?xf32, #keyword_names>)
// CHECK-LABEL: func.func private @keyword_names
// CHECK-SAME: (tensor<?x?xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>) -> ()

// -----

// Comments inside the encoding.
#comment_inside = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, // rows
 j : compressed) // columns
 }>
func.func private @comment_inside(tensor<?x?xf32, #comment_inside>)
// CHECK-LABEL: func.func private @comment_inside
// CHECK-SAME: (tensor<?x?xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>) -> ()

// -----

// A dimension slice on its own (MLIR's SparseTensorDimSliceAttr): an attribute
// value, an alias, and a slice of an encoding given by that alias.
#slice = #sparse_tensor<slice(1, 4, 1)>
#slice_alias = #sparse_tensor.encoding<{ map = (i : #slice, j) -> (i : dense, j : compressed) }>
func.func private @slice_attr(tensor<?x?xf64, #slice_alias>) attributes {a_static = #slice, b_dynamic = #sparse_tensor<slice(?, ?, ?)>, c_list = [#sparse_tensor<slice( 0 , ? , 2 )>, #sparse_tensor<slice(3, 1, ?)>]}
// CHECK-LABEL: func.func private @slice_attr
// CHECK-SAME: (tensor<?x?xf64, #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice(0, ?, 1)>) -> (d0 : dense, d1 : compressed) }>>) -> ()
// CHECK-SAME: attributes {a_static = #sparse_tensor<slice(1, 4, 1)>, b_dynamic = #sparse_tensor<slice(?, ?, ?)>, c_list = [#sparse_tensor<slice(0, ?, 2)>, #sparse_tensor<slice(3, 1, ?)>]}

// LEGACY-SPELLINGS follow: seed 000's spellings that MLIR 22 dropped, accepted
// on input and printed in MLIR 22's form (mlir-interop stops here).

// -----

// The seed's `compressed(nonunique, high)` is MLIR 22's `loose_compressed(nonunique)`.
#bcoo_high = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : dense, j : compressed(nonunique, high), k : singleton) }>
func.func private @bcoo_high(tensor<10x10x10xf32, #bcoo_high>)
// CHECK-LABEL: func.func private @bcoo_high
// CHECK-SAME: (tensor<10x10x10xf32, #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : dense, d1 : loose_compressed(nonunique), d2 : singleton) }>>) -> ()

// -----

// Seed 000's NV_24: `block2_4` is `structured[2, 4]`; its 2-bit `crdWidth` is kept.
#nv_24_seed = #sparse_tensor.encoding<{ map = ( i, j ) -> ( i : dense, j floordiv 4 : dense, j mod 4 : block2_4), crdWidth = 2 }>
func.func private @nv_24_seed(tensor<?x?xf16, #nv_24_seed>)
// CHECK-LABEL: func.func private @nv_24_seed
// CHECK-SAME: (tensor<?x?xf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 floordiv 4 : dense, d1 mod 4 : structured[2, 4]), crdWidth = 2 }>>) -> ()

// -----

// `block2_4` alone.
#block2_4 = #sparse_tensor.encoding<{ map = ( i, j ) -> ( i : dense, j floordiv 4 : dense, j mod 4 : block2_4) }>
func.func private @block2_4(tensor<?x?xf16, #block2_4>)
// CHECK-LABEL: func.func private @block2_4
// CHECK-SAME: (tensor<?x?xf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 floordiv 4 : dense, d1 mod 4 : structured[2, 4]) }>>) -> ()
