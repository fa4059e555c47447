"""Benchmark xsparse's kernels against scipy.sparse and MLIR 22's own compiled kernels.

Kernels: SpMV, SpMM (64 columns), SDDMM, sparse dot, sparse add (into a dense
vector), sum; three kernels whose sparse result starts empty (`tensor.empty`)
and is built by insertion: sparse vector add (`add_sparse`), CSR + CSR -> CSR
(`csr_add`) and SpGEMM CSR x CSR -> CSR (`spgemm`, Gustavson: the sparsifier
gives its rows an expanded access pattern, `sparse_tensor.expand`/`compress`);
and two conversions: CSR -> CSC (`sparse_tensor.convert`; scipy's `tocsc`) and
a dense array -> COO (scipy's `coo_array(dense)`). Every sparse result is
checked buffer by buffer against scipy's (columns sorted). Matrices are n x n
with `nnz` nonzeros, rows uniform or power-law (Zipf, exponent 1, rows
shuffled); `csr_add` adds a second such matrix; `spgemm` multiplies two
n/10 x n/10 matrices with nnz/10 nonzeros each (the same entries per row:
100k x 100k at density 1e-4 at full size). `dot` and `add` use sparse vectors
of length 100 n with `nnz` nonzeros; `add_sparse` two of length 10 n with
nnz/10 nonzeros each (10M long, 1M nonzeros at full size). SDDMM, whose output
is dense, runs on an m x m sample matrix with m chosen so that the dense output
stays within a few GiB.

Every kernel is timed single-threaded:

- xsparse with its default encodings (`index` = 64-bit positions and coordinates),
- xsparse with `posWidth = 32, crdWidth = 32` (zero-copy views of scipy's int32
  buffers),
- MLIR 22's kernel for the same source and encoding (`tools/bench_mlir.py`),
  when `mlir-opt-22` is installed, fed the very same buffers,
- scipy.sparse (its own int32 CSR; SDDMM: scipy + numpy on the sampled entries;
  its SpGEMM result is left with unsorted columns, as scipy returns it).

The dense -> COO conversion runs on a `--dense-size` square array (4000,
`--small`: 1000) with 10% nonzeros.

Every result is checked against scipy before any time is printed. Then compile
times: `xsparse.compile` from text to callable, cold (empty `XSPARSE_CACHE_DIR`,
memory cache cleared) and cached (disk cache; memory cache), beside
mlir-opt-22 + mlir-translate-22 + llvmlite O3.

    python tools/bench.py            # 1M x 1M, 10M nonzeros (minutes, ~6 GiB)
    python tools/bench.py --small    # 20k x 20k, 200k nonzeros (seconds)
    python tools/bench.py --size 100000 --nnz 1000000 --kernels spmv,sum
    python tools/bench.py --kernels add_sparse,csr_add,spgemm   # sparse results
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # single-threaded numpy/BLAS in the baselines

import argparse  # noqa: E402
import gc  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Iterator, Sequence  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, cast  # noqa: E402

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_mlir  # noqa: E402

import xsparse  # noqa: E402
from xsparse.backend.kernel import clear_memory_caches  # noqa: E402
from xsparse.backend.sparse_storage import SparseTensor  # noqa: E402

KERNELS = (
    "spmv",
    "spmm",
    "sddmm",
    "dot",
    "add",
    "sum",
    "add_sparse",
    "csr_add",
    "spgemm",
    "csr_to_csc",
    "dense_to_coo",
)
VECTOR_KERNELS = ("dot", "add", "add_sparse")
DENSE_DENSITY = 0.1
DISTS = ("uniform", "powerlaw")
SPMM_COLUMNS = 64
SDDMM_K = 64

_CSR = "#CSR = #sparse_tensor.encoding<{{ map = (i, j) -> (i : dense, j : compressed){w} }}>\n"
_SV = "#SV = #sparse_tensor.encoding<{{ map = (i) -> (i : compressed){w} }}>\n"
_CSC = "#CSC = #sparse_tensor.encoding<{{ map = (i, j) -> (j : dense, i : compressed){w} }}>\n"
# SoA coordinates: MLIR's COO keeps them interleaved otherwise, xsparse never.
_COO = "#COO = #sparse_tensor.encoding<{{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)){w} }}>\n"

SOURCES: dict[str, str] = {
    "spmv": _CSR
    + """#t = {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {{
  %0 = linalg.generic #t ins(%a, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) {{
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  }} -> tensor<?xf64>
  return %0 : tensor<?xf64>
}}
""",
    "spmm": _CSR
    + """#t = {{indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64>, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {{
  %0 = linalg.generic #t ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64>) outs(%c : tensor<?x?xf64>) {{
  ^bb0(%av: f64, %bv: f64, %cv: f64):
    %m = arith.mulf %av, %bv : f64
    %s = arith.addf %cv, %m : f64
    linalg.yield %s : f64
  }} -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}}
""",
    # C(i,j) += S(i,j) * sum_k A(i,k) B(j,k): both dense operands read by rows.
    "sddmm": _CSR
    + """#t = {{indexing_maps = [affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}}
func.func @kernel(%s: tensor<?x?xf64, #CSR>, %a: tensor<?x?xf64>, %b: tensor<?x?xf64>, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {{
  %0 = linalg.generic #t ins(%s, %a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64>, tensor<?x?xf64>) outs(%c : tensor<?x?xf64>) {{
  ^bb0(%sv: f64, %av: f64, %bv: f64, %cv: f64):
    %p = arith.mulf %av, %bv : f64
    %q = arith.mulf %sv, %p : f64
    %r = arith.addf %cv, %q : f64
    linalg.yield %r : f64
  }} -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}}
""",
    "dot": _SV
    + """#t = {{indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}}
func.func @kernel(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>, %x: tensor<f64>) -> tensor<f64> {{
  %0 = linalg.generic #t ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%x : tensor<f64>) {{
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %m = arith.mulf %av, %bv : f64
    %s = arith.addf %xv, %m : f64
    linalg.yield %s : f64
  }} -> tensor<f64>
  return %0 : tensor<f64>
}}
""",
    "add": _SV
    + """#t = {{indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}}
func.func @kernel(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>, %x: tensor<?xf64>) -> tensor<?xf64> {{
  %0 = linalg.generic #t ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%x : tensor<?xf64>) {{
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %s = arith.addf %av, %bv : f64
    linalg.yield %s : f64
  }} -> tensor<?xf64>
  return %0 : tensor<?xf64>
}}
""",
    "sum": _CSR
    + """#t = {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %x: tensor<f64>) -> tensor<f64> {{
  %0 = linalg.generic #t ins(%a : tensor<?x?xf64, #CSR>) outs(%x : tensor<f64>) {{
  ^bb0(%av: f64, %xv: f64):
    %s = arith.addf %xv, %av : f64
    linalg.yield %s : f64
  }} -> tensor<f64>
  return %0 : tensor<f64>
}}
""",
    # Results built by insertion into an output that starts empty.
    "add_sparse": _SV
    + """#t = {{indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}}
func.func @kernel(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>) -> tensor<?xf64, #SV> {{
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf64, #SV>
  %init = tensor.empty(%n) : tensor<?xf64, #SV>
  %0 = linalg.generic #t ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%init : tensor<?xf64, #SV>) {{
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %s = arith.addf %av, %bv : f64
    linalg.yield %s : f64
  }} -> tensor<?xf64, #SV>
  return %0 : tensor<?xf64, #SV>
}}
""",
    "csr_add": _CSR
    + """#t = {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSR> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR>
  %m = tensor.dim %a, %c1 : tensor<?x?xf64, #CSR>
  %init = tensor.empty(%n, %m) : tensor<?x?xf64, #CSR>
  %0 = linalg.generic #t ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64, #CSR>) outs(%init : tensor<?x?xf64, #CSR>) {{
  ^bb0(%av: f64, %bv: f64, %cv: f64):
    %s = arith.addf %av, %bv : f64
    linalg.yield %s : f64
  }} -> tensor<?x?xf64, #CSR>
  return %0 : tensor<?x?xf64, #CSR>
}}
""",
    # Gustavson: MLIR's sparsifier (and xsparse's) give the row loop an
    # expanded access pattern (`sparse_tensor.expand` / `compress`).
    "spgemm": _CSR
    + """#t = {{indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}}
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %b: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSR> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x?xf64, #CSR>
  %m = tensor.dim %b, %c1 : tensor<?x?xf64, #CSR>
  %init = tensor.empty(%n, %m) : tensor<?x?xf64, #CSR>
  %0 = linalg.generic #t ins(%a, %b : tensor<?x?xf64, #CSR>, tensor<?x?xf64, #CSR>) outs(%init : tensor<?x?xf64, #CSR>) {{
  ^bb0(%av: f64, %bv: f64, %cv: f64):
    %p = arith.mulf %av, %bv : f64
    %s = arith.addf %cv, %p : f64
    linalg.yield %s : f64
  }} -> tensor<?x?xf64, #CSR>
  return %0 : tensor<?x?xf64, #CSR>
}}
""",
    "csr_to_csc": _CSR
    + _CSC
    + """func.func @kernel(%a: tensor<?x?xf64, #CSR>) -> tensor<?x?xf64, #CSC> {{
  %0 = sparse_tensor.convert %a : tensor<?x?xf64, #CSR> to tensor<?x?xf64, #CSC>
  return %0 : tensor<?x?xf64, #CSC>
}}
""",
    "dense_to_coo": _COO
    + """func.func @kernel(%a: tensor<?x?xf64>) -> tensor<?x?xf64, #COO> {{
  %0 = sparse_tensor.convert %a : tensor<?x?xf64> to tensor<?x?xf64, #COO>
  return %0 : tensor<?x?xf64, #COO>
}}
""",
}


def source(kernel: str, width: int) -> str:
    """The kernel's MLIR text with 64-bit (`index`) or 32-bit positions/coordinates."""
    extra = ", posWidth = 32, crdWidth = 32" if width == 32 else ""
    return SOURCES[kernel].format(w=extra)


def encoding(kernel: str, width: int) -> str:
    """The encoding text of the kernel's sparse operands."""
    return source(kernel, width).split(" = ", 1)[1].split("\n", 1)[0]


# -- data ----------------------------------------------------------------------


def random_csr(
    rng: np.random.Generator, rows: int, cols: int, nnz: int, dist: str
) -> sp.csr_array:
    """A rows x cols CSR matrix with about nnz entries (duplicates merged), int32
    indices, sorted; rows uniform or power-law (Zipf exponent 1, shuffled)."""
    if dist == "uniform":
        weights = np.full(rows, 1.0 / rows)
    else:
        weights = 1.0 / np.arange(1, rows + 1, dtype=np.float64)
        weights /= weights.sum()
        rng.shuffle(weights)
    counts = np.minimum(rng.multinomial(nnz, weights), cols)
    indptr = np.zeros(rows + 1, np.int64)
    np.cumsum(counts, out=indptr[1:])
    indices = rng.integers(0, cols, int(indptr[-1]), dtype=np.int32)
    data = rng.random(int(indptr[-1]))
    matrix = sp.csr_array((data, indices, indptr.astype(np.int32)), shape=(rows, cols))
    matrix.sum_duplicates()  # sorts the indices and merges repeats
    return matrix


def random_sparse_vector(
    rng: np.random.Generator, length: int, nnz: int
) -> sp.csr_array:
    """A 1 x length CSR row with about nnz distinct entries."""
    crd = np.unique(rng.integers(0, length, nnz)).astype(np.int32)
    data = rng.random(crd.shape[0])
    indptr = np.array([0, crd.shape[0]], np.int32)
    return sp.csr_array((data, crd, indptr), shape=(1, length))


def sparse_tensor(matrix: sp.csr_array, kernel: str, width: int) -> SparseTensor:
    """The matrix (or 1 x n row, as a vector) as level buffers: zero-copy views of
    scipy's int32 buffers for width 32, int64 copies for width 64."""
    if width == 32:
        pos: np.ndarray[Any, Any] = matrix.indptr.view(np.uint32)
        crd: np.ndarray[Any, Any] = matrix.indices.view(np.uint32)
    else:
        pos, crd = matrix.indptr.astype(np.int64), matrix.indices.astype(np.int64)
    enc = encoding(kernel, width)
    if kernel in VECTOR_KERNELS:
        return SparseTensor(enc, (matrix.shape[1],), [pos], [crd], matrix.data)
    return SparseTensor(enc, matrix.shape, [None, pos], [None, crd], matrix.data)


# -- workloads -----------------------------------------------------------------


@dataclass
class Workload:
    """One kernel on one data set: arguments of xsparse / MLIR, scipy's version,
    and a check of a result against scipy's."""

    kernel: str
    dist: str
    description: str
    args: Callable[[int], list[Any]]
    """Arguments for an index width (32 or 64); outputs included, in place."""
    outputs: Callable[[], None]
    """Zeroes the output arrays (before a checked call)."""
    sparse_shapes: list[tuple[int, ...] | None]
    scipy: Callable[[], Any]
    check: Callable[[Any], float]
    """Max relative error of a kernel result against scipy's."""
    nnz: int = 0
    cache: dict[int, list[Any]] = field(default_factory=dict)

    def arguments(self, width: int) -> list[Any]:
        found = self.cache.get(width)
        if found is None:
            found = self.args(width)
            self.cache[width] = found
        return found


def rel_error(got: Any, want: Any) -> float:
    """max |got - want| / max(|want|, tiny)."""
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return float("inf")
    scale = max(float(np.max(np.abs(want))) if want.size else 0.0, 1e-300)
    return float(np.max(np.abs(got - want))) / scale if want.size else 0.0


def matrix_workloads(
    kernel: str, matrix: sp.csr_array, dist: str, rng: np.random.Generator
) -> Workload:
    """SpMV, SpMM or sum on `matrix`."""
    n, m = matrix.shape
    shapes: list[tuple[int, ...] | None]
    if kernel in ("spmv", "spmm"):
        # y = A x, or C = A B with B of SPMM_COLUMNS columns: the same workload.
        dense = rng.random(m) if kernel == "spmv" else rng.random((m, SPMM_COLUMNS))
        out = np.zeros((n, *dense.shape[1:]))
        want = matrix @ dense

        def args(w: int) -> list[Any]:
            return [sparse_tensor(matrix, kernel, w), dense, out]

        def zero() -> None:
            out.fill(0.0)

        shapes = [(n, m), None, None]
        return Workload(
            kernel,
            dist,
            "y = A x" if kernel == "spmv" else f"C = A B, B {m}x{SPMM_COLUMNS}",
            args,
            zero,
            shapes,
            lambda: matrix @ dense,
            lambda r: rel_error(r, want),
            matrix.nnz,
        )
    assert kernel == "sum"
    out = np.zeros(())
    total = matrix.sum()

    def args_sum(w: int) -> list[Any]:
        return [sparse_tensor(matrix, kernel, w), out]

    def zero_sum() -> None:
        out.fill(0.0)

    return Workload(
        kernel,
        dist,
        "x = sum A",
        args_sum,
        zero_sum,
        [(n, m), None],
        lambda: matrix.sum(),
        lambda r: rel_error(r, total),
        matrix.nnz,
    )


def sddmm_workload(
    rng: np.random.Generator, size: int, nnz: int, dist: str
) -> Workload:
    """SDDMM on an m x m sample S (dense output of m*m doubles, at most 2 GiB)."""
    m = min(size, 16384)
    s = random_csr(rng, m, m, min(nnz, m * m // 20), dist)
    a = rng.random((m, SDDMM_K))
    b = rng.random((m, SDDMM_K))
    c = np.zeros((m, m))
    rows = np.repeat(np.arange(m, dtype=np.int32), np.diff(s.indptr))

    def sampled() -> sp.csr_array:
        """scipy + numpy: S .* (A B^T) on S's entries only, in row chunks."""
        out = np.empty(s.nnz)
        step = 1 << 16
        for lo in range(0, s.nnz, step):
            hi = min(lo + step, s.nnz)
            out[lo:hi] = np.einsum("ij,ij->i", a[rows[lo:hi]], b[s.indices[lo:hi]])
        out *= s.data
        return sp.csr_array((out, s.indices, s.indptr), shape=s.shape)

    want = sampled().data

    def check(result: Any) -> float:
        got = np.asarray(result)
        if got.shape != (m, m) or np.count_nonzero(got) > s.nnz:
            return float("inf")
        return rel_error(got[rows, s.indices], want)

    def args(w: int) -> list[Any]:
        return [sparse_tensor(s, "sddmm", w), a, b, c]

    def zero() -> None:
        c.fill(0.0)

    return Workload(
        "sddmm",
        dist,
        f"S {m}x{m}, K={SDDMM_K}, dense C",
        args,
        zero,
        [(m, m), None, None, None],
        sampled,
        check,
        s.nnz,
    )


def vector_workload(
    kernel: str, rng: np.random.Generator, length: int, nnz: int
) -> Workload:
    """Sparse dot or sparse add (into a dense vector) of two random sparse vectors."""
    u = random_sparse_vector(rng, length, nnz)
    v = random_sparse_vector(rng, length, nnz)
    shapes: list[tuple[int, ...] | None] = [(length,), (length,), None]
    if kernel == "dot":
        out = np.zeros(())
        want = u.multiply(v).sum()

        def args(w: int) -> list[Any]:
            return [sparse_tensor(u, kernel, w), sparse_tensor(v, kernel, w), out]

        def zero() -> None:
            out.fill(0.0)

        return Workload(
            kernel,
            "uniform",
            f"x = a . b, length {length}",
            args,
            zero,
            shapes,
            lambda: u.multiply(v).sum(),
            lambda r: rel_error(r, want),
            u.nnz + v.nnz,
        )
    x = np.zeros(length)
    want_x = (u + v).toarray()[0]

    def args_add(w: int) -> list[Any]:
        return [sparse_tensor(u, kernel, w), sparse_tensor(v, kernel, w), x]

    def zero_add() -> None:
        x.fill(0.0)

    return Workload(
        kernel,
        "uniform",
        f"x = a + b dense, length {length}",
        args_add,
        zero_add,
        shapes,
        lambda: (u + v).toarray(),
        lambda r: rel_error(r, want_x),
        u.nnz + v.nnz,
    )


def storage_buffers(result: Any) -> list[np.ndarray[Any, Any]]:
    """A sparse result's buffers in storage order (per level its positions and
    coordinates, then the values): of xsparse's SparseTensor, or the tuple
    MLIR 22's wrapper returns."""
    if isinstance(result, SparseTensor):
        levels = zip(result.positions, result.coordinates, strict=True)
        return [b for pair in levels for b in pair if b is not None] + [result.values]
    return [np.asarray(b) for b in result]


def storage_error(result: Any, want: Sequence[np.ndarray[Any, Any]]) -> float:
    """inf unless every position / coordinate buffer equals the reference's;
    else the values' relative error."""
    got = storage_buffers(result)
    if len(got) != len(want):
        return float("inf")
    for g, w in zip(got[:-1], want[:-1], strict=True):
        if g.shape != w.shape or not np.array_equal(g.astype(np.int64), w):
            return float("inf")
    return rel_error(got[-1], want[-1])


def compressed_buffers(
    matrix: sp.csr_array | sp.csc_array,
) -> list[np.ndarray[Any, Any]]:
    """The storage buffers (positions, coordinates as int64, values) of `matrix`
    with its minor indices sorted: of CSR / CSC, or of a sparse vector when
    `matrix` is a 1 x n CSR row."""
    if not matrix.has_sorted_indices:
        matrix = cast(sp.csr_array | sp.csc_array, matrix.copy())
        matrix.sort_indices()
    return [
        matrix.indptr.astype(np.int64),
        matrix.indices.astype(np.int64),
        matrix.data,
    ]


def sparse_output_workload(
    kernel: str, left: sp.csr_array, right: sp.csr_array, dist: str
) -> Workload:
    """A result built by insertion into an empty sparse tensor: `add_sparse` (two
    1 x n rows as sparse vectors), `csr_add` or `spgemm` (Gustavson) of two CSR
    matrices. scipy: `left + right` or `left @ right`; its SpGEMM leaves each
    row's columns unsorted, the compiled kernels sort them (the check sorts
    scipy's result once, outside the timing)."""

    def baseline() -> Any:
        result: Any = left @ right if kernel == "spgemm" else left + right
        return result

    want = compressed_buffers(sp.csr_array(baseline()))
    rows, cols = cast(tuple[int, int], left.shape)
    shapes: list[tuple[int, ...] | None] = [(rows, cols), right.shape]
    if kernel in VECTOR_KERNELS:
        shapes = [(cols,), (cols,)]

    def args(w: int) -> list[Any]:
        return [sparse_tensor(left, kernel, w), sparse_tensor(right, kernel, w)]

    return Workload(
        kernel,
        dist,
        f"{kernel} of two {rows}x{cols}, sparse result",
        args,
        lambda: None,
        shapes,
        baseline,
        lambda r: storage_error(r, want),
        left.nnz + right.nnz,
    )


def csr_to_csc_workload(matrix: sp.csr_array, dist: str) -> Workload:
    """CSR -> CSC of `matrix`; scipy: `tocsc`."""
    want = compressed_buffers(matrix.tocsc())

    def args(w: int) -> list[Any]:
        return [sparse_tensor(matrix, "csr_to_csc", w)]

    return Workload(
        "csr_to_csc",
        dist,
        "CSC of A",
        args,
        lambda: None,
        [matrix.shape],
        matrix.tocsc,
        lambda r: storage_error(r, want),
        matrix.nnz,
    )


def dense_to_coo_workload(rng: np.random.Generator, size: int) -> Workload:
    """A size x size array with DENSE_DENSITY nonzeros -> sorted COO; scipy:
    `coo_array(dense)`."""
    dense = rng.random((size, size))
    dense[rng.random((size, size)) >= DENSE_DENSITY] = 0.0
    rows, cols = np.nonzero(dense)
    nnz = rows.shape[0]
    want = [np.array([0, nnz]), rows, cols, dense[rows, cols]]
    return Workload(
        "dense_to_coo",
        "uniform",
        f"COO of a dense {size}x{size}",
        lambda w: [dense],
        lambda: None,
        [None],
        lambda: sp.coo_array(dense),
        lambda r: storage_error(r, want),
        nnz,
    )


def spgemm_size(size: int, nnz: int) -> tuple[int, int]:
    """SpGEMM's operands: n / 10 square with nnz / 10 nonzeros (the same entries
    per row; 1M x 1M, 10M nonzeros -> 100k x 100k at density 1e-4)."""
    return max(size // 10, 1), max(nnz // 10, 1)


def sparse_add_size(size: int, nnz: int) -> tuple[int, int]:
    """Sparse vector add into a sparse result: length 10 n, nnz / 10 nonzeros
    each (n = 1M, 10M nonzeros -> 10M long, 1M nonzeros: issue 5's workload)."""
    return 10 * size, max(nnz // 10, 1)


# -- timing --------------------------------------------------------------------


CLOCKS: dict[str, Callable[[], float]] = {
    "thread": time.thread_time,
    "wall": time.perf_counter,
}


def median_seconds(fn: Callable[[], Any], repeats: int, clock: str = "thread") -> float:
    """Median time of `repeats` calls after one warm-up call."""
    return interleaved_medians([fn], repeats, clock)[0]


def interleaved_medians(
    fns: Sequence[Callable[[], Any]], repeats: int, clock: str = "thread"
) -> list[float]:
    """Median time of each function over `repeats` rounds, one call of each per
    round (after a warm-up round), so that a change of machine load hits all alike.
    The `thread` clock (CPU time of this thread, where every kernel and scipy
    runs) ignores time spent descheduled; `wall` is the wall clock."""
    now = CLOCKS[clock]
    for fn in fns:
        fn()
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for fn, spent in zip(fns, times, strict=True):
            start = now()
            fn()
            spent.append(now() - start)
    return [statistics.median(t) for t in times]


@contextmanager
def cache_directory(path: str) -> Iterator[None]:
    """Point XSPARSE_CACHE_DIR at `path` for the duration."""
    old = os.environ.get("XSPARSE_CACHE_DIR")
    os.environ["XSPARSE_CACHE_DIR"] = path
    try:
        yield
    finally:
        if old is None:
            del os.environ["XSPARSE_CACHE_DIR"]
        else:
            os.environ["XSPARSE_CACHE_DIR"] = old


@dataclass
class CompileTimes:
    """Seconds from text to callable."""

    cold: float
    disk: float
    memory: float


def xsparse_compile_times(text: str, repeats: int = 3) -> tuple[CompileTimes, Any]:
    """Cold (empty cache dir, memory cache cleared: median of `repeats`), from
    the disk cache (memory cache cleared), and from the memory cache."""
    colds: list[float] = []
    disks: list[float] = []
    mems: list[float] = []
    kernel: Any = None
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp, cache_directory(tmp):
            clear_memory_caches()
            start = time.perf_counter()
            kernel = xsparse.compile(text, entry="kernel")
            colds.append(time.perf_counter() - start)
            clear_memory_caches()
            start = time.perf_counter()
            xsparse.compile(text, entry="kernel")
            disks.append(time.perf_counter() - start)
            start = time.perf_counter()
            kernel = xsparse.compile(text, entry="kernel")
            mems.append(time.perf_counter() - start)
    med = statistics.median
    return CompileTimes(med(colds), med(disks), med(mems)), kernel


# -- the run -------------------------------------------------------------------


@dataclass
class Row:
    """One line of the results table."""

    kernel: str
    dist: str
    width: int
    nnz: int
    xsparse: float
    scipy: float
    mlir: float | None
    error: float

    def misses(self) -> list[str]:
        out: list[str] = []
        if self.xsparse > self.scipy:
            out.append(f"{self.xsparse / self.scipy:.2f}x scipy")
        if self.mlir is not None and self.xsparse > 1.05 * self.mlir:
            out.append(f"{self.xsparse / self.mlir:.2f}x MLIR")
        return out


def run_workload(
    work: Workload,
    widths: Sequence[int],
    repeats: int,
    kernels: dict[tuple[str, int], Any],
    mlir_kernels: dict[tuple[str, int, tuple[Any, ...]], Any],
    use_mlir: bool,
    tolerance: float,
    clock: str = "thread",
) -> list[Row]:
    """Check xsparse (each width) and MLIR 22 against scipy, then time them all
    in interleaved rounds."""
    contenders: list[tuple[int, Any, Any, list[Any]]] = []
    errors: dict[int, float] = {}
    for width in widths:
        args = work.arguments(width)
        xs = kernels[(work.kernel, width)]
        mlir = None
        if use_mlir:
            key = (work.kernel, width, tuple(work.sparse_shapes))
            mlir = mlir_kernels.get(key)
            if mlir is None:
                with tempfile.TemporaryDirectory() as tmp, cache_directory(tmp):
                    mlir = bench_mlir.build(
                        source(work.kernel, width), "kernel", work.sparse_shapes
                    )
                mlir_kernels[key] = mlir
        errors[width] = 0.0
        for name, fn in (("xsparse", xs), ("MLIR 22", mlir)):
            if fn is None:
                continue
            work.outputs()
            err = work.check(fn(*args))
            if not err <= tolerance:
                raise AssertionError(
                    f"{work.kernel}/{work.dist}/i{width}: {name} differs from scipy "
                    f"(relative error {err:.3g})"
                )
            errors[width] = max(errors[width], err)
        contenders.append((width, xs, mlir, args))
    fns: list[Callable[[], Any]] = [work.scipy]
    for _, xs, mlir, args in contenders:
        fns.append(lambda f=xs, a=args: f(*a))
        if mlir is not None:
            fns.append(lambda f=mlir, a=args: f(*a))
    medians = iter(interleaved_medians(fns, repeats, clock))
    scipy_time = next(medians)
    rows: list[Row] = []
    for width, _, mlir, _ in contenders:
        xs_time = next(medians)
        mlir_time = next(medians) if mlir is not None else None
        rows.append(
            Row(
                work.kernel,
                work.dist,
                width,
                work.nnz,
                xs_time,
                scipy_time,
                mlir_time,
                errors[width],
            )
        )
        print(format_row(rows[-1]), flush=True)
    work.cache.clear()
    return rows


def format_row(r: Row) -> str:
    """One table line: times in ms and the ratios the targets are about."""
    mlir = f"{r.mlir * 1e3:10.3f}" if r.mlir is not None else f"{'-':>10}"
    vs_mlir = f"{r.xsparse / r.mlir:8.2f}" if r.mlir is not None else f"{'-':>8}"
    misses = r.misses()
    return (
        f"{r.kernel:12} {r.dist:9} {'i' + str(r.width):4} {r.nnz:>10} "
        f"{r.xsparse * 1e3:10.3f} {r.scipy * 1e3:10.3f} {mlir} "
        f"{r.xsparse / r.scipy:8.2f} {vs_mlir}  "
        f"{'MISS ' + ', '.join(misses) if misses else 'ok'}"
    )


HEADER = (
    f"{'kernel':12} {'rows':9} {'idx':4} {'nnz':>10} {'xsparse ms':>10} "
    f"{'scipy ms':>10} {'MLIR22 ms':>10} {'xs/scipy':>8} {'xs/MLIR':>8}  target"
)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", action="store_true", help="20k x 20k, 200k nonzeros")
    parser.add_argument("--size", type=int, default=1_000_000, help="matrix size n")
    parser.add_argument("--nnz", type=int, default=None, help="nonzeros (default 10 n)")
    parser.add_argument(
        "--dense-size", type=int, default=None, help="dense -> COO: array size"
    )
    parser.add_argument(
        "--repeats", type=int, default=None, help="timed calls per median"
    )
    parser.add_argument(
        "--compile-repeats", type=int, default=3, help="cold compiles per median"
    )
    parser.add_argument("--kernels", default=",".join(KERNELS))
    parser.add_argument("--dists", default=",".join(DISTS))
    parser.add_argument("--widths", default="64,32")
    parser.add_argument("--no-mlir", action="store_true", help="skip MLIR 22's kernels")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="thread",
        help="thread: CPU time of the calling thread (robust on a shared machine)",
    )
    args = parser.parse_args(argv)
    if args.small:
        args.size = 20_000
    if args.dense_size is None:
        args.dense_size = 1000 if args.small else 4000
    if args.nnz is None:
        args.nnz = 10 * args.size
    if args.repeats is None:
        args.repeats = 20 if args.nnz <= 1_000_000 else 5
    return args


def run(argv: Sequence[str] | None = None, tolerance: float = 1e-9) -> list[Row]:
    """Run the benchmark; print the tables; return the timing rows."""
    args = parse_args(argv)
    kernels_wanted = [k for k in args.kernels.split(",") if k]
    dists = [d for d in args.dists.split(",") if d]
    widths = [int(w) for w in args.widths.split(",") if w]
    for k in kernels_wanted:
        if k not in KERNELS:
            raise SystemExit(f"unknown kernel {k!r} (one of {', '.join(KERNELS)})")
    use_mlir = not args.no_mlir and bench_mlir.mlir_available()
    print(
        f"n = {args.size}, nnz = {args.nnz}, repeats = {args.repeats}, "
        f"clock = {args.clock}, single-threaded; "
        f"MLIR 22: {'yes' if use_mlir else 'no (mlir-opt-22 not found or --no-mlir)'}",
        flush=True,
    )
    # Compile every kernel first (also the compile-time table).
    compile_rows: list[tuple[str, int, CompileTimes]] = []
    kernels: dict[tuple[str, int], Any] = {}
    for k in kernels_wanted:
        for w in widths:
            times, kernel = xsparse_compile_times(source(k, w), args.compile_repeats)
            kernels[(k, w)] = kernel
            compile_rows.append((k, w, times))
    rng = np.random.default_rng(args.seed)
    rows: list[Row] = []
    mlir_kernels: dict[tuple[str, int, tuple[Any, ...]], Any] = {}
    print("\n" + HEADER, flush=True)

    def measure(make: Callable[..., Workload], *make_args: Any) -> None:
        """Build a workload, run it, and free its data before the next one."""
        rows.extend(
            run_workload(
                make(*make_args),
                widths,
                args.repeats,
                kernels,
                mlir_kernels,
                use_mlir,
                tolerance,
                args.clock,
            )
        )
        gc.collect()

    matrix_kernels = [
        k
        for k in kernels_wanted
        if k in ("spmv", "spmm", "sum", "csr_add", "csr_to_csc")
    ]
    for dist in dists:
        if matrix_kernels:
            matrix = random_csr(rng, args.size, args.size, args.nnz, dist)
            for k in matrix_kernels:
                if k == "csr_to_csc":
                    measure(csr_to_csc_workload, matrix, dist)
                elif k == "csr_add":
                    other = random_csr(rng, args.size, args.size, args.nnz, dist)
                    measure(sparse_output_workload, k, matrix, other, dist)
                    del other
                else:
                    measure(matrix_workloads, k, matrix, dist, rng)
            del matrix
            gc.collect()
        if "sddmm" in kernels_wanted:
            measure(sddmm_workload, rng, args.size, args.nnz, dist)
        if "spgemm" in kernels_wanted:
            n, nnz = spgemm_size(args.size, args.nnz)
            left = random_csr(rng, n, n, nnz, dist)
            right = random_csr(rng, n, n, nnz, dist)
            measure(sparse_output_workload, "spgemm", left, right, dist)
            del left, right
    for k in ("dot", "add"):
        if k in kernels_wanted:
            measure(vector_workload, k, rng, 100 * args.size, args.nnz)
    if "add_sparse" in kernels_wanted:
        length, nnz = sparse_add_size(args.size, args.nnz)
        u = random_sparse_vector(rng, length, nnz)
        v = random_sparse_vector(rng, length, nnz)
        measure(sparse_output_workload, "add_sparse", u, v, "uniform")
        del u, v
    if "dense_to_coo" in kernels_wanted:
        measure(dense_to_coo_workload, rng, args.dense_size)
    print_compile_table(compile_rows, mlir_kernels)
    missed = [r for r in rows if r.misses()]
    print(
        f"\nruntime targets (<= scipy, <= 1.05x MLIR 22): "
        f"{len(rows) - len(missed)}/{len(rows)} rows met"
    )
    return rows


def print_compile_table(
    compile_rows: Sequence[tuple[str, int, CompileTimes]],
    mlir_kernels: dict[tuple[str, int, tuple[Any, ...]], Any],
) -> None:
    """xsparse.compile times beside mlir-opt-22 / mlir-translate-22 / llvmlite O3."""
    print(
        f"\n{'compile':12} {'idx':4} {'cold ms':>9} {'disk ms':>9} {'memory ms':>9} "
        f"{'mlir-opt':>9} {'translate':>9} {'O3+JIT':>9}  target (SpMV: <1000 cold, <50 cached)"
    )
    for k, w, t in compile_rows:
        found = [m for (mk, mw, _), m in mlir_kernels.items() if mk == k and mw == w]
        if found:
            m = found[0]
            mlir = (
                f"{m.opt_seconds * 1e3:9.1f} {m.translate_seconds * 1e3:9.1f} "
                f"{m.jit_seconds * 1e3:9.1f}"
            )
        else:
            mlir = f"{'-':>9} {'-':>9} {'-':>9}"
        target = ""
        if k == "spmv":
            ok = t.cold < 1.0 and t.disk < 0.05
            target = "ok" if ok else "MISS"
        print(
            f"{k:12} {'i' + str(w):4} {t.cold * 1e3:9.1f} {t.disk * 1e3:9.1f} "
            f"{t.memory * 1e3:9.1f} {mlir}  {target}"
        )


if __name__ == "__main__":
    run()
