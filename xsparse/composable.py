"""Composable formats (SparseTIR's DecomposeFormat, seed 002) on the CPU.

A matrix is decomposed once into parts, each in a format that suits its
entries, and products with it run over the parts, accumulating into one
output:

    d = xsparse.composable.decompose(A)              # rule chosen from A
    d = xsparse.composable.decompose(A, Rule(widths=(2, 4, 8), blocks=(4,)))
    print(d.describe())                              # parts, sizes, padding
    y = d @ x                                        # SpMV; d @ B: SpMM

The parts, in order (`Rule`):

- BSR parts (`blocks`): for each block size b (M and N multiples of b), the
  b x b blocks holding at least `density` * b * b entries, in MLIR's BSR
  encoding, computed by the sparsifier;
- `hyb(c, widths)`: columns split into c equal partitions; each row's
  segment in a partition goes to the ELL bucket of the smallest width that
  holds it, padded with explicit zeros (at the segment's last column);
  segments longer than the widest bucket go to the remainder (the CSR
  remainder was chosen over splitting a long row over several bucket rows:
  the remainder keeps the row's sum in one place and one parallel loop);
- the remainder, in CSR.

The plan (which rows go to which bucket, the remainder's row pointers)
comes from the row-length histogram in numpy; the entries move in the
compiled function `sparse-decompose-format` emits (`@<kernel>_decompose`),
on xsparse's threads. BSR parts move the same way: compiled functions
count each block row's blocks dense enough to keep (and the entries left
to the remainder), numpy's prefix sums of the counts are the plan, a
second compiled function fills the blocks and the remainder.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from xsparse.backend.kernel import Kernel
from xsparse.backend.kernel import compile as compile_kernel
from xsparse.backend.sparse_storage import SparseTensor
from xsparse.diagnostics import apply_to_text
from xsparse.dialect_registry import make_context
from xsparse.frontend.generic import matrix_product_source
from xsparse.transforms.decompose.decompose_format import (
    MOVEMENT_SUFFIX,
    SparseDecomposeFormatPass,
    bsr_movement_names,
)

AnyArray = npt.NDArray[Any]
Matrix = Any
"""A scipy.sparse matrix or array (scipy's types are partly unknown to the
type checker)."""

CSR32 = (
    "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), "
    "posWidth = 32, crdWidth = 32 }>"
)
"""The encoding the decomposed products read A's remainder in."""

ELL_SLOT_COST = 0.75
"""Time of one ELL slot over one entry of xsparse's CSR kernel, measured on
the 2-core AMD EPYC this was written on (SpMM, 64 columns, f64, 1 thread,
rows of one length: 0.81 at width 8, 0.70 at 64, 0.77 at 256)."""
ELL_ROW_COST = 1.0
CSR_ROW_COST = 2.0
"""Per-row overheads, in CSR entries (loop set-up, the row's output):
estimates, not measured separately."""
BSR_SLOT_COST = 0.3
"""Time of one slot of a BSR block over one CSR entry (block-structured
matrix, 8 x 8 blocks, SpMV and SpMM: 0.3-0.9; the low end taken)."""
ALIGNMENT = 64
"""Bytes the data of the outputs `Decomposed.matmul` allocates is aligned to."""
MAX_WIDTH = 256
"""The widest bucket the rule picks (a bucket row is one SpMV vector)."""
WIDTH_LADDER = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256)
"""Candidate bucket widths: each at most 1.5x the one below, so that any
row's padding stays under 1.5x its entries."""


@dataclass(frozen=True)
class Rule:
    """BSR block sizes, then `partitions` x `widths` ELL buckets, then the
    remainder; `density`: the fill a block needs to go to a BSR part."""

    partitions: int = 1
    widths: tuple[int, ...] = ()
    blocks: tuple[int, ...] = ()
    density: float = 0.5

    def pass_options(self) -> str:
        """The `sparse-decompose-format` pass with this rule's options."""
        options = [f"partitions={self.partitions}"]
        if self.widths:
            options.append("widths=" + ",".join(map(str, self.widths)))
        if self.blocks:
            options.append("blocks=" + ",".join(map(str, self.blocks)))
        return "sparse-decompose-format{operand=0 " + " ".join(options) + "}"

    def __str__(self) -> str:
        parts = [f"bsr({b})" for b in self.blocks]
        if self.widths:
            parts.append(f"hyb({self.partitions}, {list(self.widths)})")
        return " + ".join([*parts, "csr"])


@dataclass(frozen=True)
class Part:
    """One part of a decomposition: its `kind` ('bsr', 'ell', 'csr'),
    `encoding` (MLIR text or a description), `shape` of its storage,
    `nnz` (A's entries it holds) and `stored` (slots, padding included)."""

    kind: str
    encoding: str
    shape: tuple[int, ...]
    nnz: int
    stored: int
    arrays: tuple[Any, ...] = field(repr=False)

    @property
    def padding_ratio(self) -> float:
        return self.stored / self.nnz if self.nnz else 1.0


@dataclass(frozen=True)
class Decomposed:
    """A matrix decomposed by `rule` into `parts` (see `decompose`)."""

    shape: tuple[int, int]
    dtype: np.dtype[Any]
    rule: Rule
    parts: tuple[Part, ...]
    reason: str = ""
    vector_parts: tuple[Part, ...] | None = None
    """What `A @ x` reads for a vector x where it is not `parts`: the whole
    matrix in CSR when the rule was chosen for buckets (`decompose`)."""

    @property
    def nnz(self) -> int:
        return sum(p.nnz for p in self.parts)

    @property
    def stored(self) -> int:
        return sum(p.stored for p in self.parts)

    @property
    def padding_ratio(self) -> float:
        """Stored slots over A's entries (1.0: no padding)."""
        return self.stored / self.nnz if self.nnz else 1.0

    def arguments(self) -> tuple[Any, ...]:
        """The kernel's arguments standing for A, in the pass's order."""
        return _arguments(self.parts)

    def describe(self) -> str:
        lines = [
            f"{self.shape[0]} x {self.shape[1]} {self.dtype}, nnz={self.nnz}: "
            f"rule {self.rule} ({self.rule.pass_options()})",
        ]
        if self.reason:
            lines.append(f"  chosen because: {self.reason}")
        for p in self.parts:
            lines.append(
                f"  {p.kind:4} {p.encoding:28} storage {p.shape}: nnz={p.nnz}, "
                f"stored={p.stored}, padding {p.padding_ratio:.2f}x"
            )
        lines.append(f"  padding overall {self.padding_ratio:.3f}x")
        if self.vector_parts is not None:
            lines.append(f"  for a vector b (SpMV): {_VECTOR_REASON}")
        return "\n".join(lines)

    def matmul(self, b: npt.ArrayLike, out: AnyArray | None = None) -> AnyArray:
        """`A @ b` for a dense vector or matrix b, into `out` when given (its
        values are not read; a refused call leaves it as it was). SpMM streams C's rows past the caches where
        C's data is 32-byte aligned, as the outputs this allocates are
        (`aligned_empty`; numpy's own large arrays start 16 bytes off)."""
        dense = np.ascontiguousarray(b, dtype=self.dtype)
        if dense.ndim not in (1, 2) or dense.shape[0] != self.shape[1]:
            raise ValueError(f"shapes {self.shape} and {dense.shape} do not multiply")
        result_shape = (self.shape[0], *dense.shape[1:])
        own = out is None
        if out is None:
            out = aligned_empty(result_shape, self.dtype)
        elif out.shape != result_shape or out.dtype != self.dtype:
            raise ValueError(f"out must be {result_shape} of {self.dtype}")
        rule, parts = self.rule, self.parts
        if dense.ndim == 1 and self.vector_parts is not None:
            rule, parts = Rule(), self.vector_parts
        kernel = product_kernel(element_name(self.dtype), dense.ndim == 2, rule)
        # The kernel computes `out = A @ b` (its old values unread): an array
        # made here holds nothing to keep if a check inside it fails; the
        # caller's is put back as it was (`Kernel.__call__`).
        kernel(*_arguments(parts), dense, out, scratch_outputs=own)
        return out

    def __matmul__(self, other: npt.ArrayLike) -> AnyArray:
        return self.matmul(other)


def aligned_empty(shape: tuple[int, ...], dtype: np.dtype[Any]) -> AnyArray:
    """An uninitialized C-ordered array whose data starts on a 64-byte
    boundary (numpy's start 16 bytes into a line): the decomposed SpMM
    streams C's rows with non-temporal stores where its vectors are
    aligned."""
    size = math.prod(shape) * dtype.itemsize
    raw = np.empty(size + ALIGNMENT, np.uint8)
    skip = -raw.ctypes.data % ALIGNMENT
    return raw[skip : skip + size].view(dtype).reshape(shape)


def _arguments(parts: tuple[Part, ...]) -> tuple[Any, ...]:
    """A product kernel's arguments standing for the parts, in order."""
    return tuple(a for p in parts for a in p.arrays)


_ELEMENTS = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64"}


def element_name(dtype: np.dtype[Any]) -> str:
    name = _ELEMENTS.get(np.dtype(dtype))
    if name is None:
        raise TypeError(f"decomposed products take float32 or float64, not {dtype}")
    return name


def product_source(element: str, matrix: bool) -> str:
    """`C = A @ B` (`matrix`) or `y = A @ x`, A in CSR, before decomposition
    (the output's values are not read: the decomposed SpMM's first part
    initializes C, `output_writes`)."""
    name = "spmm" if matrix else "spmv"
    return matrix_product_source(CSR32, element, matrix, name, zero_init=True)


def decompose_source(source: str, rule: Rule) -> str:
    """MLIR text after `sparse-decompose-format` with `rule`; bad input
    raises `XSparseError` with a location."""
    rule_pass = SparseDecomposeFormatPass(
        0, rule.partitions, tuple(rule.widths), tuple(rule.blocks)
    )
    return apply_to_text(make_context(), source, rule_pass)


@functools.cache
def product_kernel(element: str, matrix: bool, rule: Rule) -> Kernel:
    """The decomposed product: `kernel(*parts, b, c)` adds A @ b into c."""
    name = "spmm" if matrix else "spmv"
    text = decompose_source(product_source(element, matrix), rule)
    return compile_kernel(text, entry=name)


@functools.cache
def movement_kernel(element: str, rule: Rule) -> Kernel:
    """The data movement `sparse-decompose-format` emits for `rule`."""
    text = decompose_source(product_source(element, False), rule)
    return compile_kernel(text, entry="spmv" + MOVEMENT_SUFFIX)


@functools.cache
def bsr_movement_kernels(element: str, block: int) -> tuple[Kernel, Kernel]:
    """The BSR split `sparse-decompose-format` emits for `block`: count, fill."""
    text = decompose_source(product_source(element, False), Rule(blocks=(block,)))
    names = bsr_movement_names("spmv", block)
    return compile_kernel(text, entry=names[0]), compile_kernel(text, entry=names[1])


def as_csr(a: Any) -> Matrix:
    """`a` (scipy sparse or `SparseTensor`) as canonical CSR (sorted, no
    duplicates, int32 indices), copied only where it is not."""
    if isinstance(a, SparseTensor):
        a = a.to_scipy()
    if not sp.issparse(a):
        raise TypeError(
            f"decompose takes a scipy sparse matrix or SparseTensor, not {type(a)}"
        )
    csr: Matrix = sp.csr_array(a)
    if csr.ndim != 2:
        raise ValueError("decompose takes a matrix")
    if not csr.has_canonical_format:
        csr = csr.copy()
        csr.sum_duplicates()
    if max(csr.shape) >= 2**31 or csr.nnz >= 2**31:
        raise ValueError(
            "decompose takes matrices with fewer than 2**31 rows, columns and entries"
        )
    element_name(csr.dtype)
    if csr.indices.dtype != np.int32 or csr.indptr.dtype != np.int32:
        buffers = (csr.data, csr.indices.astype(np.int32), csr.indptr.astype(np.int32))
        csr = sp.csr_array(buffers, shape=csr.shape)
    return csr


def split_bsr(csr: Matrix, block: int, density: float) -> tuple[Matrix, Matrix]:
    """The blocks of `csr` holding at least density * block**2 entries as a
    BSR array (int32 indices), and the other entries as CSR, moved by the
    compiled functions `sparse-decompose-format` emits (count, then fill);
    the plan between them is the prefix sums of the counts."""
    rows, columns = csr.shape
    count, fill = bsr_movement_kernels(element_name(csr.dtype), block)
    threshold = np.array([math.ceil(density * block * block)], np.int64)
    kept = np.zeros(rows // block, np.int64)
    rest = np.zeros(rows, np.int64)
    count(csr, threshold, kept, rest)
    bsr_pos = np.zeros(rows // block + 1, np.int32)
    np.cumsum(kept, out=bsr_pos[1:])
    rem_pos = np.zeros(rows + 1, np.int32)
    np.cumsum(rest, out=rem_pos[1:])
    blocks = int(bsr_pos[-1])
    bsr_crd = np.empty(blocks, np.int32)
    bsr_vals = np.empty((blocks, block, block), csr.dtype)
    rem_crd = np.empty(int(rem_pos[-1]), np.int32)
    rem_vals = np.empty(int(rem_pos[-1]), csr.dtype)
    fill(
        csr,
        threshold,
        bsr_pos,
        bsr_crd,
        bsr_vals.reshape(-1),
        rem_pos,
        rem_crd,
        rem_vals,
    )
    bsr: Matrix = sp.bsr_array((bsr_vals, bsr_crd, bsr_pos), shape=(rows, columns))
    return bsr, sp.csr_array((rem_vals, rem_crd, rem_pos), shape=csr.shape)


def bsr_encoding(block: int) -> str:
    """MLIR's BSR encoding of `block` x `block` blocks, 32-bit indices."""
    return (
        f"#sparse_tensor.encoding<{{ map = (i, j) -> (i floordiv {block} : dense, "
        f"j floordiv {block} : compressed, i mod {block} : dense, "
        f"j mod {block} : dense), posWidth = 32, crdWidth = 32 }}>"
    )


def bsr_tensor(bsr: Matrix, block: int) -> SparseTensor:
    """scipy's BSR buffers as a `SparseTensor` of `bsr_encoding` (no copy:
    the kernel then reads them as they are at every call; xsparse's 32-bit
    buffers are unsigned, scipy's nonnegative int32 the same bits)."""
    return SparseTensor(
        bsr_encoding(block),
        bsr.shape,
        [None, bsr.indptr.view(np.uint32), None, None],
        [None, bsr.indices.view(np.uint32), None, None],
        bsr.data.reshape(-1),
    )


def segment_bounds(csr: Matrix, partitions: int) -> npt.NDArray[np.int64]:
    """M x (partitions + 1): where each row's entries in each column
    partition start (and the last one ends)."""
    rows, columns = csr.shape
    starts = csr.indptr[:-1].astype(np.int64)
    if partitions == 1:
        return np.stack([starts, csr.indptr[1:].astype(np.int64)], axis=1)
    row_of = np.repeat(np.arange(rows, dtype=np.int64), np.diff(csr.indptr))
    part = (csr.indices.astype(np.int64) * partitions) // max(columns, 1)
    counts = np.bincount(row_of * partitions + part, minlength=rows * partitions)
    cumulative = np.cumsum(counts.reshape(rows, partitions), axis=1)
    return np.concatenate([starts[:, None], starts[:, None] + cumulative], axis=1)


def hyb_parts(csr: Matrix, rule: Rule) -> list[Part]:
    """The ELL buckets and the CSR remainder, moved by the compiled function."""
    rows, _ = csr.shape
    bounds = segment_bounds(csr, rule.partitions)
    lengths = np.diff(bounds, axis=1)
    widths = np.asarray(rule.widths)
    bucket = np.searchsorted(widths, lengths, side="left")
    dtype = csr.dtype
    parts: list[Part] = []
    arrays: list[AnyArray] = []
    for p in range(rule.partitions):
        for k, w in enumerate(rule.widths):
            members = np.flatnonzero((bucket[:, p] == k) & (lengths[:, p] > 0))
            ids = members.astype(np.int32)
            cols = np.empty((ids.size, w), np.int32)
            vals = np.empty((ids.size, w), dtype)
            arrays += [ids, cols, vals]
            nnz = int(lengths[members, p].sum())
            parts.append(
                Part(
                    "ell",
                    f"ell(width={w}, partition={p})",
                    cols.shape,
                    nnz,
                    ids.size * w,
                    (ids, cols, vals),
                )
            )
    long = np.where(bucket == widths.size, lengths, 0).sum(axis=1)
    rem_pos = np.zeros(rows + 1, np.int32)
    np.cumsum(long, out=rem_pos[1:])
    rem_crd = np.empty(int(rem_pos[-1]), np.int32)
    rem_vals = np.empty(int(rem_pos[-1]), dtype)
    mover = movement_kernel(element_name(dtype), rule)
    mover(csr, bounds, *arrays, rem_pos, rem_crd, rem_vals)
    remainder = sp.csr_array((rem_vals, rem_crd, rem_pos), shape=csr.shape)
    return [*parts, csr_part(remainder)]


def csr_part(csr: Matrix) -> Part:
    return Part("csr", "csr", (csr.shape[0] + 1, csr.nnz), csr.nnz, csr.nnz, (csr,))


_VECTOR_REASON = (
    "the whole matrix in CSR: a bucket's rows are out of order, each writing y "
    "at a scattered row, which SpMM's columns amortize and SpMV cannot (power-law "
    "1M x 1M / 10M: buckets 1.2x (1 thread) / 1.3x (2) CSR's time)"
)
"""Why a rule chosen for buckets leaves SpMV to the CSR kernel."""


def decompose(a: Any, rule: Rule | None = None) -> Decomposed:
    """`a` (scipy sparse or `SparseTensor`, f32 or f64) split into parts by
    `rule`, or by the rule `choose_rule` picks when None. A rule chosen for
    ELL buckets serves `A @ B` for matrices B; `A @ x` for a vector x reads
    the matrix in CSR (`_VECTOR_REASON`; kept beside the parts, shared with
    `a` where `a` is already canonical CSR with 32-bit indices)."""
    csr = as_csr(a)
    reason = ""
    chosen = rule is None
    if rule is None:
        rule, reason = choose_rule(csr)
    parts: list[Part] = []
    rest = csr
    rows, columns = csr.shape
    for b in rule.blocks:
        if rows % b or columns % b:
            raise ValueError(
                f"BSR blocks of {b} need M and N multiples of {b}, not {csr.shape}"
            )
        held = rest.nnz
        bsr, rest = split_bsr(rest, b, rule.density)
        stored = int(bsr.data.size)
        encoding = f"bsr({b}x{b}, MLIR block map)"
        parts.append(
            Part(
                "bsr",
                encoding,
                bsr.data.shape,
                held - rest.nnz,
                stored,
                (bsr_tensor(bsr, b),),
            )
        )
    if rule.widths:
        parts += hyb_parts(rest, rule)
    else:
        parts.append(csr_part(rest))
    vector_parts = (csr_part(csr),) if chosen and rule.widths else None
    return Decomposed(
        csr.shape, np.dtype(csr.dtype), rule, tuple(parts), reason, vector_parts
    )


def choose_rule(csr: Matrix) -> tuple[Rule, str]:
    """Bucket widths (or BSR blocks) from the row-length histogram and the
    cost model above; the rule and why.

    A row of L entries costs `CSR_ROW_COST + L` in CSR and
    `ELL_ROW_COST + ELL_SLOT_COST * w` in the bucket of width w. Going up
    the ladder (each width at most 1.5x the last: padding under 1.5x), a
    bucket is kept while its rows, as the histogram counts them, cost less
    in it than in CSR; the rows past the first bucket that does not pay
    (or past `MAX_WIDTH`) go to the remainder."""
    blocks, why = _choose_blocks(csr)
    if blocks:
        return Rule(blocks=blocks), why
    lengths = np.diff(csr.indptr)
    nonempty = lengths[lengths > 0]
    if nonempty.size == 0:
        return Rule(), "no entries: the remainder alone"
    paying: list[int] = []
    previous = 0
    for w in (w for w in WIDTH_LADDER if w <= MAX_WIDTH):
        held = nonempty[(nonempty > previous) & (nonempty <= w)]
        ell = held.size * (ELL_ROW_COST + ELL_SLOT_COST * w)
        if ell > held.size * CSR_ROW_COST + float(held.sum()):
            break
        paying.append(w)
        previous = w
    widths = _nonempty_widths(nonempty, tuple(paying))
    held = nonempty[nonempty <= max(widths, default=0)]
    share = float(held.sum()) / float(nonempty.sum())
    padding = _padding(held, widths)
    reason = (
        f"ELL pays up to width {max(widths, default=0)} (cost model, row-length "
        f"histogram); buckets hold "
        f"{share:.0%} of the entries with padding {padding:.2f}x"
    )
    return Rule(widths=widths), reason


def _padding(lengths: npt.NDArray[Any], widths: tuple[int, ...]) -> float:
    if not widths or lengths.size == 0:
        return 1.0
    slots = np.asarray(widths)[np.searchsorted(np.asarray(widths), lengths)]
    return float(slots.sum()) / float(lengths.sum())


def _nonempty_widths(
    lengths: npt.NDArray[Any], widths: tuple[int, ...]
) -> tuple[int, ...]:
    """The widths whose bucket gets rows (each row to the smallest holding it)."""
    if not widths:
        return widths
    bucket = np.searchsorted(np.asarray(widths), lengths, side="left")
    used = set(np.unique(bucket[bucket < len(widths)]).tolist())
    return tuple(w for k, w in enumerate(widths) if k in used)


def _choose_blocks(csr: Matrix) -> tuple[tuple[int, ...], str]:
    """A BSR block size when its dense-enough blocks hold most entries and
    cost less than CSR for them."""
    rows, columns = csr.shape
    for b in (8, 4):
        if rows % b or columns % b or csr.nnz == 0:
            continue
        row_of = np.repeat(np.arange(rows, dtype=np.int64), np.diff(csr.indptr))
        block_of = (row_of // b) * (columns // b) + csr.indices // b
        _, counts = np.unique(block_of, return_counts=True)
        dense = counts[counts >= 0.5 * b * b]
        held = int(dense.sum())
        if held >= 0.8 * csr.nnz and BSR_SLOT_COST * dense.size * b * b < held:
            return (
                b,
            ), f"; {b}x{b} blocks half full hold {held / csr.nnz:.0%} of the entries"
    return (), ""
