"""Random convolutions and pooling with sparse operands, and numpy's result.

A case is one of MLIR 22's named ops (`linalg.conv_*`, `depthwise_conv_*`,
`pooling_nhwc_sum`, `dot`) with random sizes, strides and dilations, its image
and filter each dense or sparse in a random format (dense, compressed,
compressed(nonunique) over singleton levels), random sparse data (with empty
rows and all-zero operands), an image perhaps zero-padded by `tensor.pad`
(folded into the kernel where the image is sparse), and an output that is a
dense argument updated in place or a sparse tensor built by insertion. The image is indexed by
compound expressions (`oh * s + kh * d`): a sparse image is the operand the
sparsifier locates by search. `random_conv_case(seed)` draws one; the same
seed gives the same case. `expected(case)` computes the result with numpy
sliding windows, independently of the indexing maps the ops generalize to.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]


@dataclass(frozen=True)
class ConvOp:
    """A named op: its spatial rank, whether it takes strides and dilations,
    the shapes of its operands from (batch, channels, filters, output sizes,
    window sizes), and numpy's sum over one window position."""

    name: str
    spatial: int
    windowed: bool
    image: Callable[[int, int, int, tuple[int, ...], tuple[int, ...]], tuple[int, ...]]
    filter: Callable[[int, int, int, tuple[int, ...]], tuple[int, ...]]
    output: Callable[[int, int, int, tuple[int, ...]], tuple[int, ...]]
    term: Callable[[Array, Array, tuple[int, ...]], Array]
    """(the image's window at one kernel position, the filter, that position)
    -> its contribution to the output."""
    channels_first: bool = False


def _spatial_first(op: ConvOp) -> int:
    """The axis of the image's first spatial dimension."""
    if op.name in ("linalg.conv_1d", "linalg.conv_2d", "linalg.conv_3d"):
        return 0
    return 2 if op.channels_first else 1


OPS: tuple[ConvOp, ...] = (
    *(
        ConvOp(
            f"linalg.conv_{rank}d",
            rank,
            False,
            lambda n, c, f, i, k: i,
            lambda n, c, f, k: k,
            lambda n, c, f, o: o,
            lambda win, filt, at: win * filt[at],
        )
        for rank in (1, 2, 3)
    ),
    ConvOp(
        "linalg.conv_1d_nwc_wcf",
        1,
        True,
        lambda n, c, f, i, k: (n, *i, c),
        lambda n, c, f, k: (*k, c, f),
        lambda n, c, f, o: (n, *o, f),
        lambda win, filt, at: np.einsum("nwc,cf->nwf", win, filt[at]),
    ),
    ConvOp(
        "linalg.conv_2d_nhwc_hwcf",
        2,
        True,
        lambda n, c, f, i, k: (n, *i, c),
        lambda n, c, f, k: (*k, c, f),
        lambda n, c, f, o: (n, *o, f),
        lambda win, filt, at: np.einsum("nhwc,cf->nhwf", win, filt[at]),
    ),
    ConvOp(
        "linalg.conv_2d_nchw_fchw",
        2,
        True,
        lambda n, c, f, i, k: (n, c, *i),
        lambda n, c, f, k: (f, c, *k),
        lambda n, c, f, o: (n, f, *o),
        lambda win, filt, at: np.einsum("nchw,fc->nfhw", win, filt[(..., *at)]),
        channels_first=True,
    ),
    ConvOp(
        "linalg.conv_3d_ndhwc_dhwcf",
        3,
        True,
        lambda n, c, f, i, k: (n, *i, c),
        lambda n, c, f, k: (*k, c, f),
        lambda n, c, f, o: (n, *o, f),
        lambda win, filt, at: np.einsum("ndhwc,cf->ndhwf", win, filt[at]),
    ),
    ConvOp(
        "linalg.depthwise_conv_2d_nhwc_hwc",
        2,
        True,
        lambda n, c, f, i, k: (n, *i, c),
        lambda n, c, f, k: (*k, c),
        lambda n, c, f, o: (n, *o, c),
        lambda win, filt, at: win * filt[at],
    ),
    ConvOp(
        "linalg.pooling_nhwc_sum",
        2,
        True,
        lambda n, c, f, i, k: (n, *i, c),
        lambda n, c, f, k: k,
        lambda n, c, f, o: (n, *o, c),
        lambda win, filt, at: win,
    ),
)


@dataclass(frozen=True)
class ConvCase:
    op: ConvOp
    dtype: str
    """`i32` or `f64`."""
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    image: Array
    filter: Array
    output: Array
    """The output's initial value (a dense `outs` argument), or zeros where
    `sparse_out`."""
    image_levels: tuple[str, ...] | None
    """The image's level types (None: a dense tensor)."""
    filter_levels: tuple[str, ...] | None
    sparse_out: bool
    pads: tuple[tuple[int, int], ...] | None = None
    """Zeros before and after each dimension of the image (`tensor.pad`)."""

    def source(self) -> str:
        """The MLIR module: `@conv` computing the op on the case's types."""
        encodings: list[str] = []
        types: list[str] = []
        element = self.dtype
        padded = self.padded_image().shape
        for k, (shape, levels) in enumerate(
            (
                (padded, self.image_levels),
                (self.filter.shape, self.filter_levels),
                (self.output.shape, _sparse_levels(self.output.ndim)),
            )
        ):
            if k == 2 and not self.sparse_out:
                levels = None
            types.append(_tensor_type(shape, element, levels, f"#E{k}"))
            if levels is not None:
                encodings.append(_encoding(f"#E{k}", levels))
        attrs = ""
        if self.op.windowed:
            rank = self.op.spatial
            attrs = (
                f" {{dilations = dense<{list(self.dilations)}> : tensor<{rank}xi64>, "
                f"strides = dense<{list(self.strides)}> : tensor<{rank}xi64>}}"
            )
        image_t, filter_t, out_t = types
        arg_t = _tensor_type(self.image.shape, element, self.image_levels, "#E0")
        arg = "%img" if self.pads is None else "%arg"
        if self.sparse_out:
            head = f"func.func @conv({arg}: {arg_t}, %filt: {filter_t}) -> {out_t} {{"
            init = f"  %out = tensor.empty() : {out_t}\n"
        else:
            head = (
                f"func.func @conv({arg}: {arg_t}, %filt: {filter_t}, "
                f"%out: {out_t}) -> {out_t} {{"
            )
            init = ""
        init += self._pad(arg_t, image_t)
        return "\n".join(
            [
                *encodings,
                head,
                init + f"  %r = {self.op.name}{attrs} ins(%img, %filt : {image_t}, "
                f"{filter_t}) outs(%out : {out_t}) -> {out_t}",
                f"  return %r : {out_t}",
                "}",
            ]
        )

    def _pad(self, arg_t: str, image_t: str) -> str:
        """The ops defining `%img` from the argument `%arg` where `pads`."""
        if self.pads is None:
            return ""
        zero = "0" if self.dtype.startswith("i") else "0.0"
        args = ", ".join(f"%i{d}: index" for d in range(self.image.ndim))
        return (
            f"  %zero = arith.constant {zero} : {self.dtype}\n"
            f"  %img = tensor.pad %arg low{[lo for lo, _ in self.pads]} "
            f"high{[hi for _, hi in self.pads]} {{\n"
            f"  ^bb0({args}):\n"
            f"    tensor.yield %zero : {self.dtype}\n"
            f"  }} : {arg_t} to {image_t}\n"
        )

    def padded_image(self) -> Array:
        return self.image if self.pads is None else np.pad(self.image, self.pads)

    def arguments(self) -> list[Array]:
        args = [self.image, self.filter]
        return args if self.sparse_out else [*args, self.output.copy()]


def _sparse_levels(rank: int) -> tuple[str, ...]:
    """A sparse output's levels (CSR-like)."""
    return ("dense",) * (rank - 1) + ("compressed",)


def _tensor_type(
    shape: tuple[int, ...], element: str, levels: tuple[str, ...] | None, alias: str
) -> str:
    dims = "x".join(str(d) for d in shape)
    encoding = "" if levels is None else f", {alias}"
    return f"tensor<{dims}{'x' if dims else ''}{element}{encoding}>"


def _encoding(alias: str, levels: tuple[str, ...]) -> str:
    dims = ", ".join(f"d{i}" for i in range(len(levels)))
    lvls = ", ".join(f"d{i} : {lt}" for i, lt in enumerate(levels))
    return f"{alias} = #sparse_tensor.encoding<{{ map = ({dims}) -> ({lvls}) }}>"


def _random_levels(rng: random.Random, rank: int) -> tuple[str, ...] | None:
    """None (dense), or level types: dense, compressed or loose_compressed
    levels, then perhaps a COO region (a non-unique compressed level over
    singletons, non-unique but the last; some as structure of arrays)."""
    if rng.random() < 0.3:
        return None
    coo = rng.randrange(rank - 1) if rank >= 2 and rng.random() < 0.3 else rank
    soa = ", soa" if rng.random() < 0.3 else ""
    levels = [
        rng.choices(["dense", "compressed", "loose_compressed"], [4, 6, 1])[0]
        for _ in range(coo)
    ]
    if coo < rank:
        levels.append("compressed(nonunique)")
        levels += [f"singleton(nonunique{soa})"] * (rank - coo - 2)
        levels.append(f"singleton({soa[2:]})" if soa else "singleton")
    return tuple(levels)


def _random_data(
    rng: random.Random, shape: tuple[int, ...], dtype: str, zero: bool
) -> Array:
    gen = np.random.default_rng(rng.randrange(2**32))
    if dtype == "i32":
        data = gen.integers(-4, 5, shape).astype(np.int32)
    else:
        data = gen.standard_normal(shape)
    if zero:
        return np.zeros(shape, data.dtype)
    data[gen.random(shape) >= rng.choice([0.1, 0.3, 0.6])] = 0
    if data.ndim >= 1 and data.shape[0] > 2:
        data[1] = 0  # an empty slice
    return data


def random_conv_case(seed: int) -> ConvCase:
    """The case of `seed`."""
    rng = random.Random(seed)
    op = rng.choice(OPS)
    rank = op.spatial
    n, c, f = rng.randint(1, 2), rng.randint(1, 3), rng.randint(1, 3)
    window = tuple(rng.randint(1, 3) for _ in range(rank))
    out = tuple(rng.randint(1, 5 if rank < 3 else 3) for _ in range(rank))
    strides = tuple(rng.randint(1, 2) if op.windowed else 1 for _ in range(rank))
    dilations = tuple(rng.randint(1, 2) if op.windowed else 1 for _ in range(rank))
    spatial = tuple(
        (o - 1) * s + (k - 1) * d + 1 + rng.randint(0, 1)
        for o, s, k, d in zip(out, strides, window, dilations, strict=True)
    )
    dtype = rng.choice(["i32", "f64"])
    image_shape = op.image(n, c, f, spatial, window)
    filter_shape = op.filter(n, c, f, window)
    out_shape = op.output(n, c, f, out)
    pads = _random_pads(rng, op, image_shape)
    if pads is not None:
        image_shape = tuple(
            size - lo - hi for size, (lo, hi) in zip(image_shape, pads, strict=True)
        )
    image = _random_data(rng, image_shape, dtype, rng.random() < 0.05)
    filt = _random_data(rng, filter_shape, dtype, rng.random() < 0.05)
    sparse_out = rng.random() < 0.25
    output = (
        np.zeros(out_shape, image.dtype)
        if sparse_out
        else _random_data(rng, out_shape, dtype, False)
    )
    return ConvCase(
        op,
        dtype,
        strides,
        dilations,
        image,
        filt,
        output,
        _random_levels(rng, len(image_shape)),
        _random_levels(rng, len(filter_shape)),
        sparse_out,
        pads,
    )


def _random_pads(
    rng: random.Random, op: ConvOp, shape: tuple[int, ...]
) -> tuple[tuple[int, int], ...] | None:
    """None, or zeros around the spatial dimensions of an image of `shape`
    (the padded one), leaving at least one element of each."""
    if rng.random() >= 0.3:
        return None
    first = _spatial_first(op)
    pads: list[tuple[int, int]] = []
    for axis, size in enumerate(shape):
        lo, hi = (rng.randint(0, 2), rng.randint(0, 2))
        if not first <= axis < first + op.spatial or lo + hi >= size:
            lo = hi = 0
        pads.append((lo, hi))
    return tuple(pads)


def expected(case: ConvCase) -> Array:
    """The op's result by numpy: the output plus, for each window position,
    its term over the image's strided, dilated window there."""
    op = case.op
    result = case.output.copy()
    first = _spatial_first(op)
    windows = case.filter.shape[:2] if op.name == "linalg.pooling_nhwc_sum" else None
    if windows is None:
        start = 2 if op.channels_first else 0
        windows = case.filter.shape[start : start + op.spatial]
    out_sizes = result.shape[first : first + op.spatial]
    for at in np.ndindex(*windows):
        index: list[slice] = [slice(None)] * case.image.ndim
        for k, (pos, size) in enumerate(zip(at, out_sizes, strict=True)):
            begin = pos * case.dilations[k]
            index[first + k] = slice(
                begin, begin + size * case.strides[k], case.strides[k]
            )
        window = case.padded_image()[tuple(index)]
        result = result + op.term(window, case.filter, at).astype(result.dtype)
    return result
