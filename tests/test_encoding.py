"""The Python API of `#sparse_tensor.encoding` (SparseTensorEncodingAttr)."""

from __future__ import annotations

import itertools

import pytest
from xdsl.dialects.builtin import (
    ComplexType,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    f32,
    f64,
    i32,
)
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.utils.exceptions import VerifyException

from xsparse.diagnostics import XSparseError
from xsparse.dialects.sparse_tensor import (
    DimSlice,
    LevelType,
    SparseTensorEncodingAttr,
)
from xsparse.dialects.sparse_tensor.encoding import (
    parse_encoding,
    verify_encoding_for_tensor,
)
from xsparse.dialects.sparse_tensor.levels import (
    BATCH,
    COMPRESSED,
    DENSE,
    LOOSE_COMPRESSED,
    SINGLETON,
    STRUCTURED,
)

CSR = "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>"
BSR = (
    "#sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, "
    "j floordiv 3 : compressed, i mod 2 : dense, j mod 3 : dense) }>"
)


def test_parse_text_and_canonical_print() -> None:
    enc = SparseTensorEncodingAttr.parse_text(CSR + "\n")
    assert (
        str(enc)
        == "#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>"
    )
    # The body alone is accepted too, and printing is a fixpoint.
    assert parse_encoding("<{ map = (i, j) -> (i : dense, j : compressed) }>") == enc
    assert SparseTensorEncodingAttr.parse_text(str(enc)) == enc


def test_level_types_and_properties() -> None:
    enc = parse_encoding(
        "#sparse_tensor.encoding<{ map = (i, j, k) -> "
        "(i : compressed(nonordered, nonunique), j : singleton(nonunique, soa), k : singleton(soa)) }>"
    )
    first, second, third = enc.lvl_types
    assert (
        first.format is COMPRESSED
        and first.nonunique
        and first.nonordered
        and not first.soa
    )
    assert not first.is_unique and not first.is_ordered
    assert second.format is SINGLETON and second.soa and second.nonunique
    assert third.is_unique and third.is_ordered and third.soa
    assert [str(lt) for lt in enc.lvl_types] == [
        "compressed(nonunique, nonordered)",
        "singleton(nonunique, soa)",
        "singleton(soa)",
    ]
    assert enc.is_coo() and not enc.is_all_dense()


def test_ranks_identity_permutation() -> None:
    csr = parse_encoding(CSR)
    assert (csr.dim_rank, csr.lvl_rank) == (2, 2)
    assert csr.is_identity() and csr.is_permutation() and not csr.is_block()
    csc = parse_encoding(
        "#sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>"
    )
    assert not csc.is_identity() and csc.is_permutation()
    assert csc.lvl_to_dim == AffineMap(
        2, 0, (AffineExpr.dimension(1), AffineExpr.dimension(0))
    )
    bsr = parse_encoding(BSR)
    assert (bsr.dim_rank, bsr.lvl_rank) == (2, 4)
    assert not bsr.is_permutation() and bsr.is_block()
    assert bsr.block_sizes() == (0, 0, 2, 3)


@pytest.mark.parametrize(
    "text",
    [
        CSR,
        BSR,
        "#sparse_tensor.encoding<{ map = (i, j, k) -> (k : dense, i : compressed, j : compressed) }>",
        "#sparse_tensor.encoding<{ map = (i, j) -> (j floordiv 4 : compressed, i : dense, j mod 4 : dense) }>",
        "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>",
    ],
)
def test_inverse_maps_invert(text: str) -> None:
    """lvlToDim (inferred for permutations and blockings) undoes dimToLvl."""
    enc = parse_encoding(text)
    for coords in itertools.product(range(7), repeat=enc.dim_rank):
        levels = enc.dim_to_lvl.eval(coords, ())
        assert enc.lvl_to_dim.eval(levels, ()) == coords


def test_symbols_have_no_inverse() -> None:
    ell = parse_encoding(
        "#sparse_tensor.encoding<{ map = [c](i, j) -> (c * 3 * i : dense, i : dense, j : compressed) }>"
    )
    assert ell.dim_to_lvl.num_symbols == 1
    assert ell.lvl_to_dim.results == ()
    assert "(d0 * (s0 * 3) : dense" in str(ell)
    assert not ell.is_identity() and not ell.is_permutation() and not ell.is_block()


def test_widths_and_buffer_types() -> None:
    enc = parse_encoding(
        "#sparse_tensor.encoding<{ map = (i, j) -> (j : compressed, i : compressed), posWidth = 32, crdWidth = 8 }>"
    )
    assert (enc.pos_width, enc.crd_width) == (32, 8)
    assert enc.pos_type == IntegerType(32) and enc.crd_type == IntegerType(8)
    native = parse_encoding(CSR)
    assert native.pos_type == IndexType() and native.crd_type == IndexType()


def test_all_dense_coo_slices() -> None:
    dense = parse_encoding(
        "#sparse_tensor.encoding<{ map = (b, i) -> (b : batch, i : dense) }>"
    )
    assert dense.is_all_dense() and not dense.is_coo()
    loose = parse_encoding(
        "#sparse_tensor.encoding<{ map = (i, j) -> (i : loose_compressed, j : singleton) }>"
    )
    assert loose.is_coo()
    unique_root = parse_encoding(
        "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : singleton) }>"
    )
    assert not unique_root.is_coo()
    sliced = parse_encoding(
        "#sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(1, 4, ?)>, j) -> (i : dense, j : compressed) }>"
    )
    assert sliced.has_slices() and not parse_encoding(CSR).has_slices()
    assert sliced.dim_slices == (DimSlice(1, 4, None), DimSlice(0, None, 1))


def test_explicit_and_implicit_values() -> None:
    enc = parse_encoding(
        "#sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = 1.0 : f32, implicitVal = 0.0 : f32 }>"
    )
    assert enc.explicit_val == FloatAttr(1.0, f32)
    assert enc.implicit_val == FloatAttr(0.0, f32)
    assert str(enc).endswith(
        "explicitVal = 1.000000e+00 : f32, implicitVal = 0.000000e+00 : f32 }>"
    )


def test_from_level_types() -> None:
    csr = SparseTensorEncodingAttr.from_level_types(
        [LevelType(DENSE), LevelType(COMPRESSED)], pos_width=32
    )
    assert str(csr) == (
        "#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), posWidth = 32 }>"
    )
    assert csr == parse_encoding(str(csr))
    csc = SparseTensorEncodingAttr.from_level_types(
        [LevelType(DENSE), LevelType(COMPRESSED)],
        dim_to_lvl=AffineMap(2, 0, (AffineExpr.dimension(1), AffineExpr.dimension(0))),
    )
    assert (
        str(csc)
        == "#sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>"
    )
    nv24 = SparseTensorEncodingAttr.from_level_types(
        [LevelType(DENSE), LevelType(DENSE), LevelType(STRUCTURED, n=2, m=4)],
        dim_to_lvl=AffineMap.from_callable(lambda i, j: (i, j // 4, j % 4)),
    )
    assert "d1 mod 4 : structured[2, 4]" in str(nv24)
    sliced = SparseTensorEncodingAttr.from_level_types(
        [LevelType(COMPRESSED)], dim_slices=[DimSlice(0, 8, 2)]
    )
    assert str(sliced) == (
        "#sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(0, 8, 2)>) -> (d0 : compressed) }>"
    )


@pytest.mark.parametrize(
    ("levels", "kwargs", "message"),
    [
        (
            [LevelType(SINGLETON)],
            {},
            "expected compressed or loose_compressed level before singleton level",
        ),
        (
            [LevelType(COMPRESSED)],
            {"pos_width": 12},
            "unexpected position bitwidth: 12",
        ),
        (
            [LevelType(DENSE), LevelType(BATCH)],
            {},
            "Batch lvlType can only be leading levels.",
        ),
        (
            [LevelType(LOOSE_COMPRESSED, soa=True)],
            {},
            "SoA is only applicable to singleton lvlTypes.",
        ),
        ([], {}, "expected a non-empty array for lvlTypes"),
    ],
)
def test_construction_verifies(
    levels: list[LevelType], kwargs: dict[str, int], message: str
) -> None:
    with pytest.raises(
        VerifyException, match=message.replace("(", r"\(").replace(")", r"\)")
    ):
        SparseTensorEncodingAttr.from_level_types(levels, **kwargs)  # pyright: ignore[reportArgumentType]


def test_seed_spellings() -> None:
    bcoo = parse_encoding(
        "#sparse_tensor.encoding<{ map = (i, j, k) -> (i : dense, j : compressed(nonunique, high), k : singleton) }>"
    )
    assert bcoo.lvl_types[1] == LevelType(LOOSE_COMPRESSED, nonunique=True)
    nv24 = parse_encoding(
        """#sparse_tensor.encoding<{
          map = ( i, j ) -> ( i            : dense,
                              j floordiv 4 : dense,
                              j mod 4      : block2_4),
          crdWidth = 2  // 2-bits for each coordinate
        }>"""
    )
    assert nv24.lvl_types[2] == LevelType(STRUCTURED, n=2, m=4)
    assert nv24.crd_width == 2
    assert str(nv24).endswith("d1 mod 4 : structured[2, 4]), crdWidth = 2 }>")
    # 2-bit coordinates only for the 2:4 metadata of seed 000's NV_24.
    with pytest.raises(XSparseError, match="unexpected coordinate bitwidth: 2"):
        parse_encoding(
            "#sparse_tensor.encoding<{ map = (i) -> (i : compressed), crdWidth = 2 }>"
        )


def test_parse_errors_are_located() -> None:
    with pytest.raises(XSparseError) as info:
        parse_encoding(
            "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, k : compressed) }>"
        )
    text = str(info.value)
    assert text.startswith("<encoding>:1:54: error: use of undeclared identifier")
    assert text.splitlines()[-1].index("^") == 53
    with pytest.raises(XSparseError, match="error: expected a #sparse_tensor.encoding"):
        parse_encoding("affine_map<(d0) -> (d0)>")
    with pytest.raises(XSparseError, match="unexpected text after the encoding"):
        parse_encoding(CSR + " 1")


def test_verify_encoding_for_tensor() -> None:
    csr = parse_encoding(CSR)
    verify_encoding_for_tensor(csr, TensorType(f64, [4, 5], csr))
    with pytest.raises(
        VerifyException,
        match="dimension-rank mismatch between encoding and tensor shape: 2 != 1",
    ):
        verify_encoding_for_tensor(csr, TensorType(f64, [4], csr))
    with pytest.raises(VerifyException, match="expected non-scalar sparse tensor"):
        verify_encoding_for_tensor(csr, TensorType(f64, [], csr))
    valued = SparseTensorEncodingAttr.from_level_types(
        [LevelType(COMPRESSED)],
        explicit_val=IntegerAttr(1, i32),
        implicit_val=IntegerAttr(1, i32),
    )
    with pytest.raises(
        VerifyException, match="explicit value type mismatch .*: 'i32' != 'f64'"
    ):
        verify_encoding_for_tensor(valued, TensorType(f64, [3], valued))
    with pytest.raises(VerifyException, match="implicit value must be zero"):
        verify_encoding_for_tensor(valued.data, TensorType(i32, [3], valued))


def test_complex_values() -> None:
    enc = parse_encoding(
        "#sparse_tensor.encoding<{ map = (i) -> (i : compressed), "
        "explicitVal = #complex.number<:f64 1.0, 2.0>, implicitVal = #complex.number<:f64 0.0, 0.0> }>"
    )
    assert str(enc).endswith(
        "explicitVal = #complex.number<:f64 1.000000e+00, 2.000000e+00> : complex<f64>, "
        "implicitVal = #complex.number<:f64 0.000000e+00, 0.000000e+00> : complex<f64> }>"
    )
    verify_encoding_for_tensor(enc, TensorType(ComplexType(f64), [3], enc))
    with pytest.raises(XSparseError, match="complex number type doesn't match"):
        parse_encoding(
            "#sparse_tensor.encoding<{ map = (i) -> (i : compressed), "
            "explicitVal = #complex.number<:f64 1.0, 2.0> : complex<f32> }>"
        )


def test_blocking_with_an_unused_dimension() -> None:
    """MLIR 22 accepts a blocking that drops a dimension; its inverse gives
    that dimension coordinate 0."""
    enc = parse_encoding(
        "#sparse_tensor.encoding<{ map = (i, j) -> (j floordiv 8 : dense, j mod 8 : compressed) }>"
    )
    assert enc.block_sizes() == (0, 8)
    assert enc.lvl_to_dim.eval((2, 5), ()) == (0, 21)
