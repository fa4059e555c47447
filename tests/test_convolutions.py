"""MLIR's named convolutions and pooling (`xsparse.testing.conv_cases`) on
sparse operands compute numpy's result: random ops, sizes, strides,
dilations, formats (a sparse image is located by search, a sparse filter
drives its loops), zero-padded images (`tensor.pad`, folded into the kernel
where sparse), dense and sparse outputs, with and without vectorization and
parallel loops. Images whose levels a search cannot locate in, and pads a
kernel cannot fold, are located refusals."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import xsparse
from xsparse import SparseTensor, XSparseError
from xsparse.testing.conv_cases import OPS, ConvCase, expected, random_conv_case

SEEDS = range(48)
STRATEGIES = ("none", "any-storage-outer-loop")


def run(case: ConvCase, **options: Any) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", xsparse.ConversionWarning)
        kernel = xsparse.compile(case.source(), "conv", **options)
        result = kernel(*case.arguments())
    if case.sparse_out:
        assert isinstance(result, SparseTensor)
        result.validate()
        return result.to_dense()
    assert isinstance(result, np.ndarray)
    return result


@pytest.mark.parametrize("seed", SEEDS)
def test_random_convolution(seed: int) -> None:
    case = random_conv_case(seed)
    got = run(
        case,
        parallelization_strategy=STRATEGIES[seed % 2],
        vl=(1, 4)[seed // 2 % 2],
    )
    want = expected(case)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, err_msg=case.source())


def test_cases_cover_the_ops_and_sparse_images() -> None:
    """The seeds draw every op, and sparse images of every kind searched."""
    cases = [random_conv_case(seed) for seed in SEEDS]
    ops = {case.op.name for case in cases}
    assert len(ops) >= 8
    images = [case.image_levels for case in cases if case.image_levels is not None]
    assert any("compressed(nonunique)" in levels for levels in images)
    assert any(levels[-1] == "compressed" for levels in images)
    assert any(case.sparse_out for case in cases)
    padded = [case for case in cases if case.pads is not None]
    assert any(case.image_levels is None for case in padded)
    assert any(case.image_levels is not None for case in padded)


def _with_image(case: ConvCase, levels: tuple[str, ...]) -> ConvCase:
    return ConvCase(
        case.op,
        case.dtype,
        case.strides,
        case.dilations,
        case.image,
        case.filter,
        case.output,
        levels,
        case.filter_levels,
        case.sparse_out,
        case.pads,
    )


def _conv_2d_case() -> ConvCase:
    seed = next(
        s for s in range(1000) if random_conv_case(s).op.name == "linalg.conv_2d"
    )
    return random_conv_case(seed)


@pytest.mark.parametrize(
    "levels, message",
    [
        (
            ("dense", "compressed(nonordered)"),
            "needs ordered levels (level 1 is compressed(nonordered))",
        ),
        (
            ("compressed(nonunique)", "compressed"),
            "needs unique levels, or a singleton below (level 0 is "
            "compressed(nonunique))",
        ),
    ],
)
def test_unsearchable_image_is_refused(levels: tuple[str, ...], message: str) -> None:
    case = _with_image(_conv_2d_case(), levels)
    with pytest.raises(
        XSparseError, match=r"linalg\.generic.*cannot be sparsified"
    ) as e:
        run(case)
    assert message in str(e.value)


def test_pad_by_nonzero_is_refused() -> None:
    """A sparse image padded with ones is not sparse in the padding: refused
    (MLIR folds only zero padding into a kernel)."""
    conv_2d = next(op for op in OPS if op.name == "linalg.conv_2d")
    ones = np.ones((3, 3), np.int32)
    case = ConvCase(
        conv_2d,
        "i32",
        (1, 1),
        (1, 1),
        ones,
        ones[:2, :2],
        ones,
        ("dense", "compressed"),
        None,
        False,
        ((1, 0), (0, 1)),
    )
    np.testing.assert_array_equal(run(case), expected(case))
    source = case.source().replace(
        "%zero = arith.constant 0", "%zero = arith.constant 1"
    )
    assert "%zero = arith.constant 1" in source
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", xsparse.ConversionWarning)
        with pytest.raises(XSparseError, match="padded with a value other than 0"):
            xsparse.compile(source, "conv")
