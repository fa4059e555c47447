"""`sparse_tensor.assemble` checks the level buffers it is given at run time
(xsparse/transforms/storage/buffer_checks.py): buffers of random matrices, in
every level format that assemble takes, are corrupted one way at a time, and
each corruption must raise its own ValueError (never read out of bounds),
while the uncorrupted buffers give the matrix back."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest
from xdsl.dialects.builtin import TensorType, f64

import xsparse
from xsparse.backend.sparse_storage import SparseTensor
from xsparse.dialects.sparse_tensor.encoding import SparseTensorEncodingAttr
from xsparse.dialects.sparse_tensor.types import SparseTensorType

SHAPE = (5, 6)

ENCODINGS = {
    "csr32": "map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32",
    "csc": "map = (i, j) -> (j : dense, i : compressed)",
    "dcsr": "map = (i, j) -> (i : compressed, j : compressed)",
    "coo_aos": "map = (i, j) -> (i : compressed(nonunique), j : singleton)",
    "coo_soa": "map = (i, j) -> (i : compressed(nonunique), j : singleton(soa))",
    "loose": "map = (i, j) -> (i : dense, j : loose_compressed)",
    "unordered": "map = (i, j) -> (i : dense, j : compressed(nonordered))",
}


@dataclass(frozen=True)
class Assembly:
    kernel: xsparse.Kernel
    fields: list[tuple[str, int]]
    """The buffers assemble takes, in order: ("pos" | "crd", level)."""
    stt: SparseTensorType
    dtypes: list[type[np.integer]]


def _width_type(width: int) -> str:
    return "index" if width == 0 else f"i{width}"


def _dtype(width: int) -> type[np.integer]:
    return {0: np.int64, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}[width]


@pytest.fixture(scope="module", params=sorted(ENCODINGS))
def assembly(request: pytest.FixtureRequest) -> Assembly:
    name: str = request.param
    rows, cols = SHAPE
    t = f"tensor<{rows}x{cols}xf64, #E>"
    encoding = f"#sparse_tensor.encoding<{{ {ENCODINGS[name]} }}>"
    attr = SparseTensorEncodingAttr.parse_text(encoding)
    stt = SparseTensorType(TensorType(f64, SHAPE, attr))
    enc = attr.data
    fields = stt.storage_fields()
    coo = stt.aos_coo_start
    types: list[str] = []
    dtypes: list[type[np.integer]] = []
    for kind, level in fields:
        width = enc.pos_width if kind == "pos" else enc.crd_width
        shape = "?x" + (
            f"{stt.lvl_rank - coo}x" if kind == "crd" and level == coo else ""
        )
        types.append(f"tensor<{shape}{_width_type(width)}>")
        dtypes.append(_dtype(width))
    args = ", ".join(f"%b{k}: {ty}" for k, ty in enumerate(types))
    names = ", ".join(f"%b{k}" for k in range(len(types)))
    source = f"""
#E = {encoding}
func.func @main({args}, %val: tensor<?xf64>) -> tensor<{rows}x{cols}xf64> {{
  %t = sparse_tensor.assemble ({names}), %val : ({", ".join(types)}), tensor<?xf64> to {t}
  %d = sparse_tensor.convert %t : {t} to tensor<{rows}x{cols}xf64>
  return %d : tensor<{rows}x{cols}xf64>
}}
"""
    return Assembly(xsparse.compile(source), fields, stt, dtypes)


def _encoding(a: Assembly) -> SparseTensorEncodingAttr:
    assert a.stt.encoding is not None
    return a.stt.encoding


def _buffers(a: Assembly, dense: np.ndarray) -> list[np.ndarray]:
    """The buffers assemble takes for `dense` (AoS coordinates stacked)."""
    st = SparseTensor.from_dense(dense, _encoding(a))
    coo = a.stt.aos_coo_start
    buffers: list[np.ndarray] = []
    for (kind, level), dtype in zip(a.fields, a.dtypes, strict=True):
        if kind == "pos":
            buffer = st.positions[level]
        elif level == coo:
            columns = [st.coordinates[k] for k in range(coo, a.stt.lvl_rank)]
            buffer = np.stack(columns, axis=1)  # type: ignore[arg-type]
        else:
            buffer = st.coordinates[level]
        assert buffer is not None
        buffers.append(np.array(buffer, dtype=dtype))
    buffers.append(np.array(st.values))
    return buffers


def _matrix(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    dense = rng.integers(1, 9, SHAPE).astype(np.float64)
    dense[rng.random(SHAPE) < 0.5] = 0.0
    dense[rng.integers(SHAPE[0])] = 0.0  # an empty row
    return dense


Corruption = Callable[[Assembly, list[np.ndarray], np.random.Generator], str | None]
"""Corrupts the buffers in place; the message it must raise (None: not applicable)."""


def _positions(a: Assembly, buffers: list[np.ndarray]) -> list[int]:
    return [k for k, (kind, _) in enumerate(a.fields) if kind == "pos"]


def _coordinates(a: Assembly) -> list[int]:
    return [k for k, (kind, _) in enumerate(a.fields) if kind == "crd"]


def truncate(
    a: Assembly, buffers: list[np.ndarray], rng: np.random.Generator
) -> str | None:
    k = int(rng.integers(len(buffers)))
    if buffers[k].shape[0] == 0:
        return None
    buffers[k] = buffers[k][: int(rng.integers(buffers[k].shape[0]))]
    return "shorter than"


def coordinate_out_of_range(
    a: Assembly, buffers: list[np.ndarray], rng: np.random.Generator
) -> str | None:
    k = int(rng.choice(_coordinates(a)))
    crd = buffers[k]
    if crd.shape[0] == 0:
        return None
    row = int(rng.integers(crd.shape[0]))
    column = int(rng.integers(crd.shape[1])) if crd.ndim == 2 else None
    big = max(SHAPE) + int(rng.integers(5))
    if column is None:
        crd[row] = big
    else:
        crd[row, column] = big
    return "out of range|sorted"  # a big first coordinate also breaks the order


def positions_decrease(
    a: Assembly, buffers: list[np.ndarray], rng: np.random.Generator
) -> str | None:
    for k in _positions(a, buffers):
        pos = buffers[k]
        if pos.shape[0] >= 2 and pos[-1] > 0:
            pos[0] = pos[-1]  # starts past 0, or a pair with lo > hi
            return "positions must start at 0|lo <= hi"
    return None


def positions_past_coordinates(
    a: Assembly, buffers: list[np.ndarray], rng: np.random.Generator
) -> str | None:
    k = int(rng.choice(_positions(a, buffers)))
    buffers[k][-1] += 1 + int(rng.integers(4))
    return "shorter than the positions say|lo <= hi|never decrease"


def unsorted(
    a: Assembly, buffers: list[np.ndarray], rng: np.random.Generator
) -> str | None:
    last = a.stt.lvl_rank - 1
    lt = a.stt.lvl_types[last]
    if not (lt.is_ordered and lt.format.has_positions):
        return None  # (the order of a singleton level is its parent's)
    k = a.fields.index(("crd", last))
    pos = buffers[k - 1]
    crd = buffers[k]
    for p in range(
        0, pos.shape[0] - 1, a.stt.lvl_types[-1].format.positions_per_parent
    ):
        lo, hi = int(pos[p]), int(pos[p + 1])
        if hi - lo >= 2:
            crd[lo], crd[lo + 1] = crd[lo + 1], crd[lo]
            return "must be sorted"
    return None


CORRUPTIONS = [
    truncate,
    coordinate_out_of_range,
    positions_decrease,
    positions_past_coordinates,
    unsorted,
]


@pytest.mark.parametrize("seed", range(4))
def test_valid_buffers_assemble_the_matrix(assembly: Assembly, seed: int) -> None:
    dense = _matrix(seed)
    np.testing.assert_array_equal(assembly.kernel(*_buffers(assembly, dense)), dense)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=lambda c: c.__name__)
def test_corrupted_buffers_raise(
    assembly: Assembly, corrupt: Corruption, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    buffers = _buffers(assembly, _matrix(seed))
    expected = corrupt(assembly, buffers, rng)
    if expected is None:  # the corruption has nothing to act on here
        np.testing.assert_array_equal(assembly.kernel(*buffers), _matrix(seed))
        return
    with pytest.raises(ValueError, match=f"sparse_tensor.assemble: .*({expected})"):
        assembly.kernel(*buffers)
