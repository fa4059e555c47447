"""subset.gather / scatter / concat through xsparse.compile and xsparse-run, against numpy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse

RNG = np.random.default_rng(7)


def _gather_kernel(coords: str, src: str, idx: str, res: str, extra: str = "") -> str:
    return f"""
func.func @g(%a: {src}, %i: {idx}) -> {res} {{
  %g = subset.gather %a[%i] {coords} {extra} : {src}[{idx}] -> {res}
  return %g : {res}
}}
"""


def test_gather_rows_like_np_take() -> None:
    k = xsparse.compile(
        _gather_kernel(
            "coordinates = [0]",
            "tensor<8x3xf32>",
            "tensor<?x1xindex>",
            "tensor<?x3xf32>",
        )
    )
    a = RNG.random((8, 3), dtype=np.float32)
    for n in (0, 1, 6):
        i = RNG.integers(0, 8, (n, 1))
        np.testing.assert_array_equal(k(a, i), np.take(a, i[:, 0], axis=0))


def test_rfc_slice_gather_2d_batch() -> None:
    """The RFC's `tensor<2x3x4xf32>[tensor<5x6x 1xindex>] -> tensor<5x6x2x4xf32>`."""
    k = xsparse.compile(
        _gather_kernel(
            "coordinates = [1]",
            "tensor<2x3x4xf32>",
            "tensor<5x6x 1xindex>",
            "tensor<5x6x2x4xf32>",
        )
    )
    a = RNG.random((2, 3, 4), dtype=np.float32)
    i = RNG.integers(0, 3, (5, 6, 1))
    expected = np.moveaxis(np.take(a, i[..., 0], axis=1), 0, 2)
    np.testing.assert_array_equal(k(a, i), expected)


def test_rfc_coo_gather() -> None:
    """The RFC's COO gather: every dimension a coordinate, 0-D slices."""
    k = xsparse.compile(
        _gather_kernel(
            "", "tensor<4x4x4xf32>", "tensor<1x2x 3xindex>", "tensor<1x2xf32>"
        )
    )
    a = RNG.random((4, 4, 4), dtype=np.float32)
    i = RNG.integers(0, 4, (1, 2, 3))
    np.testing.assert_array_equal(k(a, i), a[i[..., 0], i[..., 1], i[..., 2]])


def test_gather_out_of_bounds_reads_padding() -> None:
    """A gather on a padded tensor: out-of-range and negative i32 indices read the pad."""
    src = """
func.func @g(%a: tensor<4x5xf64>, %i: tensor<?x1xi32>, %pad: f64) -> tensor<?x4xf64> {
  %g = subset.gather %a[%i] coordinates = [1] out_of_bounds(%pad) : tensor<4x5xf64>[tensor<?x1xi32>] -> tensor<?x4xf64>
  return %g : tensor<?x4xf64>
}
"""
    k = xsparse.compile(src)
    a = RNG.random((4, 5))
    i = np.array([[0], [4], [5], [-1], [2]], dtype=np.int32)
    padded = np.pad(a, ((0, 0), (0, 1)), constant_values=-7.0)
    cols = np.where((i[:, 0] >= 0) & (i[:, 0] < 5), i[:, 0], 5)
    np.testing.assert_array_equal(k(a, i, -7.0), padded[:, cols].T)


def test_scatter_in_place_and_skip() -> None:
    src = """
func.func @s(%u: tensor<?x3xf32>, %d: tensor<8x3xf32>, %i: tensor<?x1xindex>) -> tensor<8x3xf32> {
  %s = subset.scatter %u into %d[%i] coordinates = [0] out_of_bounds(skip) : tensor<?x3xf32> into tensor<8x3xf32>[tensor<?x1xindex>] -> tensor<8x3xf32>
  return %s : tensor<8x3xf32>
}
"""
    k = xsparse.compile(src)
    d = RNG.random((8, 3), dtype=np.float32)
    u = RNG.random((4, 3), dtype=np.float32)
    i = np.array([[1], [9], [6], [1000]])
    expected = d.copy()
    expected[[1, 6]] = u[[0, 2]]
    k(u, d, i)
    np.testing.assert_array_equal(d, expected)  # written in place, like an `outs`


def test_rfc_concat_like_np_concatenate() -> None:
    """The RFC's `tensor<3x4x?xf32> and tensor<3x5x?xf32> into tensor<3x9x?xf32>`, plus a third part."""
    src = """
func.func @c(%a: tensor<3x4x?xf32>, %b: tensor<3x5x?xf32>, %c: tensor<3x?x?xf32>) -> tensor<3x?x?xf32> {
  %r = subset.concat %a and %b and %c along dimension = 1 : tensor<3x4x?xf32> and tensor<3x5x?xf32> and tensor<3x?x?xf32> into tensor<3x?x?xf32>
  return %r : tensor<3x?x?xf32>
}
"""
    k = xsparse.compile(src)
    for depth, mid in ((2, 3), (1, 0), (5, 7)):
        a = RNG.random((3, 4, depth), dtype=np.float32)
        b = RNG.random((3, 5, depth), dtype=np.float32)
        c = RNG.random((3, mid, depth), dtype=np.float32)
        np.testing.assert_array_equal(k(a, b, c), np.concatenate([a, b, c], axis=1))


def test_concat_of_gathers_built_in_place() -> None:
    src = """
func.func @c(%a: tensor<8x3xf32>, %i1: tensor<?x1xindex>, %i2: tensor<?x1xindex>) -> tensor<?x3xf32> {
  %g1 = subset.gather %a[%i1] coordinates = [0] : tensor<8x3xf32>[tensor<?x1xindex>] -> tensor<?x3xf32>
  %g2 = subset.gather %a[%i2] coordinates = [0] : tensor<8x3xf32>[tensor<?x1xindex>] -> tensor<?x3xf32>
  %r = subset.concat %g1 and %g2 along dimension = 0 : tensor<?x3xf32> and tensor<?x3xf32> into tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
"""
    k = xsparse.compile(src)
    a = RNG.random((8, 3), dtype=np.float32)
    i1, i2 = RNG.integers(0, 8, (4, 1)), RNG.integers(0, 8, (3, 1))
    expected = np.concatenate([np.take(a, i1[:, 0], 0), np.take(a, i2[:, 0], 0)])
    np.testing.assert_array_equal(k(a, i1, i2), expected)


def test_gather_feeds_a_sparse_kernel() -> None:
    """The RFC's fusion example's data flow, unfused: gather, then an elementwise
    sub with a sparse (CSR) bias, sparsified."""
    src = """
#id = affine_map<(i, j) -> (i, j)>
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @f(%m: tensor<42x64xf32>, %i: tensor<5x1xindex>, %b: tensor<5x64xf32, #CSR>, %o: tensor<5x64xf32>) -> tensor<5x64xf32> {
  %g = subset.gather %m[%i] coordinates = [0] : tensor<42x64xf32>[tensor<5x 1xindex>] -> tensor<5x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g, %b : tensor<5x64xf32>, tensor<5x64xf32, #CSR>) outs(%o : tensor<5x64xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %d = arith.subf %x, %y : f32
    linalg.yield %d : f32
  } -> tensor<5x64xf32>
  return %r : tensor<5x64xf32>
}
"""
    k = xsparse.compile(src)
    m = RNG.random((42, 64), dtype=np.float32)
    i = RNG.integers(0, 42, (5, 1))
    b = sp.random_array((5, 64), density=0.2, format="csr", rng=RNG).astype(np.float32)
    o = np.zeros((5, 64), dtype=np.float32)
    k(m, i, b, o)
    np.testing.assert_array_equal(o, m[i[:, 0]] - b.toarray())


RFC_RUN = (
    Path(__file__).parent / "filecheck" / "transforms" / "lower-subset" / "run-rfc.mlir"
)


def _xsparse_run(path: str, stdin: str | None = None) -> list[float]:
    """What `xsparse-run path` prints, as numbers (`-` reads `stdin`)."""
    out = subprocess.run(
        [sys.executable, "-m", "xsparse.tools.run", path],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    return [float(x) for x in out.stdout.split()]


def test_xsparse_run_rfc_examples() -> None:
    got = _xsparse_run(str(RFC_RUN))
    m = np.arange(16, dtype=np.float32).reshape(4, 4)
    cols = [3, 1]
    expected = [
        *m[:, cols].T.ravel(),  # gather copy coordinates = [1]
        *m[:, cols].T.ravel(),  # the same through the jagged view
        *np.concatenate([m[:, :1], m[:, 2:]], axis=1).ravel(),  # concat
    ]
    np.testing.assert_array_equal(got, expected)


FUSE_DIR = Path(__file__).parent / "filecheck" / "transforms" / "fuse-through-gather"


def _fused(source: str) -> str:
    """`source` after `fuse-through-gather`, printed."""
    from xdsl.parser import Parser

    from xsparse.dialect_registry import make_context
    from xsparse.transforms.structured.fuse_through_gather import FuseThroughGatherPass

    ctx = make_context()
    module = Parser(ctx, source).parse_module()
    FuseThroughGatherPass().apply(ctx, module)
    text = str(module)
    assert "subset.gather" not in text and "scf.for" in text
    return text


def _rfc_fusion_source() -> str:
    """The RFC's "Fusing through Gather" example, from its filecheck test."""
    text = (FUSE_DIR / "fuse.mlir").read_text()
    body = text.split("// -----")[0]
    return "\n".join(line for line in body.splitlines() if not line.startswith("//"))


def test_rfc_fusion_through_gather_runs_like_numpy() -> None:
    """The fused RFC example (matmul, then a gathered row minus a bias, tiled
    by 1 on the gather) against np.take of numpy's matmul minus the bias."""
    _check_rfc_fusion(xsparse.compile(_fused(_rfc_fusion_source())), runs=3)


def _check_rfc_fusion(k: xsparse.Kernel, runs: int = 1) -> None:
    """`k` (the RFC fusion example) against numpy on random data."""
    for _ in range(runs):
        a = RNG.random((42, 32), dtype=np.float32)
        b = RNG.random((32, 64), dtype=np.float32)
        c = RNG.random((42, 64), dtype=np.float32)
        i = RNG.integers(0, 42, (5, 1))
        bias = RNG.random((5, 64), dtype=np.float32)
        want = np.take(a @ b + c, i[:, 0], axis=0) - bias
        got = k(a, b, c.copy(), i, bias, np.zeros((5, 64), np.float32))
        np.testing.assert_allclose(got, want, rtol=1e-5)


def test_fusion_through_gather_nest_and_dynamic_sizes_run() -> None:
    """Two batch dimensions, a gathered column of a dynamic input, i32 indices
    (the second case of fuse.mlir) against numpy."""
    text = (FUSE_DIR / "fuse.mlir").read_text().split("// -----")[1]
    source = "\n".join(line for line in text.splitlines() if not line.startswith("//"))
    k = xsparse.compile(_fused(source))
    for rows in (1, 6):
        a = RNG.random((rows, 9), dtype=np.float32)
        i = RNG.integers(0, 9, (2, 3, 1)).astype(np.int32)
        want = np.moveaxis(-np.take(a, i[..., 0], axis=1), 0, 2)
        np.testing.assert_array_equal(k(a, i, np.zeros((2, 3, rows), np.float32)), want)


def test_fused_loop_keeps_a_start_read_afterwards() -> None:
    """A slice loop whose start is read again after it updates a copy, not the
    start itself."""
    source = """
#id = affine_map<(i, j) -> (i, j)>
func.func @f(%in: tensor<6x4xf32>, %idx: tensor<3x1xindex>, %out: tensor<3x4xf32>)
    -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %g = subset.gather %in[%idx] coordinates = [0] : tensor<6x4xf32>[tensor<3x1xindex>] -> tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<3x4xf32>) outs(%out : tensor<3x4xf32>) {
  ^bb0(%a: f32, %c: f32):
    %d = arith.addf %a, %c : f32
    linalg.yield %d : f32
  } -> tensor<3x4xf32>
  return %r, %out : tensor<3x4xf32>, tensor<3x4xf32>
}
"""
    k = xsparse.compile(_fused(source))
    a = RNG.random((6, 4), dtype=np.float32)
    i = RNG.integers(0, 6, (3, 1))
    out = RNG.random((3, 4), dtype=np.float32)
    got, kept = k(a, i, out.copy())
    np.testing.assert_array_equal(got, np.take(a, i[:, 0], axis=0) + out)
    np.testing.assert_array_equal(kept, out)


def test_xsparse_run_fused_rfc_example() -> None:
    """fuse.mlir's run case: `xsparse-opt -p fuse-through-gather | xsparse-run -`."""
    got = _xsparse_run("-", _fused((FUSE_DIR / "run.mlir").read_text()))
    rows = [41, 0, 7, 7, 20]
    want = [v for r in rows for v in (32.0 * r, 32.0 * r + 3)]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("bad", [50, -1, 10**9])
def test_gather_without_out_of_bounds_rejects_bad_indices(bad: int) -> None:
    """An index outside the input is a ValueError, never garbage or a crash."""
    k = xsparse.compile(
        _gather_kernel(
            "coordinates = [0]",
            "tensor<?x?xf64>",
            "tensor<?x1xindex>",
            "tensor<?x?xf64>",
        )
    )
    a = RNG.random((50, 3))
    np.testing.assert_array_equal(k(a, np.array([[49], [0]])), a[[49, 0]])
    with pytest.raises(ValueError, match=r"subset.gather: index out of range .* 0"):
        k(a, np.array([[1], [bad]]))


def test_scatter_without_out_of_bounds_rejects_bad_indices() -> None:
    src = """
func.func @s(%u: tensor<?x3xf32>, %d: tensor<?x3xf32>, %i: tensor<?x1xindex>) -> tensor<?x3xf32> {
  %s = subset.scatter %u into %d[%i] coordinates = [0] : tensor<?x3xf32> into tensor<?x3xf32>[tensor<?x1xindex>] -> tensor<?x3xf32>
  return %s : tensor<?x3xf32>
}
"""
    k = xsparse.compile(src)
    d = np.zeros((8, 3), dtype=np.float32)
    u = RNG.random((2, 3), dtype=np.float32)
    for bad in (8, -1, 10**9):
        with pytest.raises(ValueError, match="subset.scatter: index out of range"):
            k(u, d, np.array([[1], [bad]]))
    assert not d[[0, *range(2, 8)]].any()  # nothing written outside row 1


def test_concat_rejects_mismatched_dynamic_sizes() -> None:
    """The RFC concat with depths 6 and 700: a ValueError, not a crash."""
    src = """
func.func @c(%a: tensor<3x4x?xf32>, %b: tensor<3x5x?xf32>) -> tensor<3x9x?xf32> {
  %r = subset.concat %a and %b along dimension = 1 : tensor<3x4x?xf32> and tensor<3x5x?xf32> into tensor<3x9x?xf32>
  return %r : tensor<3x9x?xf32>
}
"""
    k = xsparse.compile(src)
    a = RNG.random((3, 4, 6), dtype=np.float32)
    b = RNG.random((3, 5, 700), dtype=np.float32)
    for x, y in ((a, b), (a[:, :, :2], b[:, :, :3])):
        with pytest.raises(ValueError, match="sizes differ in dimension 2"):
            k(x, y)
    np.testing.assert_array_equal(
        k(a, b[:, :, :6]), np.concatenate([a, b[:, :, :6]], axis=1)
    )


def test_concat_into_static_result_checks_the_sum() -> None:
    src = """
func.func @c(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>) -> tensor<8x3xf32> {
  %r = subset.concat %a and %b along dimension = 0 : tensor<?x3xf32> and tensor<?x3xf32> into tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}
"""
    k = xsparse.compile(src)
    a, b = RNG.random((5, 3), dtype=np.float32), RNG.random((3, 3), dtype=np.float32)
    np.testing.assert_array_equal(k(a, b), np.concatenate([a, b]))
    with pytest.raises(ValueError, match="do not add up"):
        k(a, RNG.random((900, 3), dtype=np.float32))


def test_rfc_fusion_with_named_sub_runs_like_numpy() -> None:
    """The RFC example written with `linalg.sub`: generalized, fused, run."""
    source = (FUSE_DIR / "named.mlir").read_text()
    source = "\n".join(x for x in source.splitlines() if not x.startswith("//"))
    _check_rfc_fusion(xsparse.compile(_fused(source)))


def test_rfc_named_sub_runs_unfused_too() -> None:
    """Unfused, the sparsifier generalizes the named ops first (as MLIR's
    pipeline does): gather, then `linalg.sub`, like numpy."""
    source = (FUSE_DIR / "named.mlir").read_text()
    source = "\n".join(x for x in source.splitlines() if not x.startswith("//"))
    _check_rfc_fusion(xsparse.compile(source))
