"""Random `linalg.generic` kernels: the space `kernels.check_case` draws from.

A case is a loop nest (parallel and reduction loops with sizes), one to three
inputs that each read some of the loops in some order and carry an encoding
(or none), an output over the parallel loops (a dense `outs` argument updated
or overwritten, a new sparse tensor from `tensor.empty`, or a sparse argument
updated in place), and a body: a tree of arith/math ops, `linalg.index` and
the semiring ops of `sparse_tensor` (binary, unary, select, reduce). Its data
respects every format (2:4 groups, BSR blocks, narrow position and coordinate
widths) and has empty rows and columns, all-zero operands and empty shapes.
`random_case(seed)` draws one; the same seed gives the same case.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]
Layout = Literal["c", "f", "strided"]
"""How a numpy argument is laid out: row-major, column-major, a strided view."""

DTYPES: dict[str, Any] = {
    "f64": np.float64,
    "f32": np.float32,
    "i64": np.int64,
    "i32": np.int32,
    "i16": np.int16,
    "i8": np.int8,
}


def is_float(dtype: str) -> bool:
    return dtype.startswith("f")


# -- the body: an expression tree ------------------------------------------------


@dataclass(frozen=True)
class Input:
    """The value of input operand `index` at the current point."""

    index: int


@dataclass(frozen=True)
class RegionArg:
    """Argument `index` of the semiring region being built."""

    index: int


@dataclass(frozen=True)
class Const:
    value: float


@dataclass(frozen=True)
class LoopIndex:
    """`linalg.index loop`, cast to the element type."""

    loop: int


PLAIN_OPS = ("add", "sub", "mul", "max", "min")
UNARY_OPS = ("neg", "abs", "exp")
DIV = "div"
"""Division by its second argument, truncating for integers (`arith.divsi`).
A float divisor is never zero: a nonzero constant, or |an input| + a positive
constant; an integer one may also be 0 or -1 (`integer_division`)."""
REM = "rem"
"""The remainder of an integer division (`arith.remsi`, the dividend's sign)."""
INT_DIVISIONS = (DIV, REM)
"""Integer division ops; by 0 they give 0, INT_MIN / -1 gives INT_MIN and
INT_MIN % -1 gives 0, as numpy's."""


@dataclass(frozen=True)
class Apply:
    """An arith/math op (`PLAIN_OPS`, `UNARY_OPS`, `DIV`, `REM`) on its arguments."""

    op: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Identity:
    """`left = identity` / `right = identity` of `sparse_tensor.binary`."""


IDENTITY = Identity()


@dataclass(frozen=True)
class Unary:
    """`sparse_tensor.unary`: `present` over RegionArg(0), `absent` without
    arguments; None is an empty region (no value)."""

    x: Expr
    present: Expr | None
    absent: Expr | None


@dataclass(frozen=True)
class Binary:
    """`sparse_tensor.binary`: `overlap` over RegionArg(0), RegionArg(1); `left`
    and `right` over RegionArg(0); None is an empty region (no value)."""

    x: Expr
    y: Expr
    overlap: Expr | None
    left: Expr | Identity | None
    right: Expr | Identity | None


@dataclass(frozen=True)
class Select:
    """`sparse_tensor.select`: keeps x where `x <predicate> bound` holds, or
    (predicate "triu"/"tril") where the loop indices `loops` are ordered."""

    x: Expr
    predicate: Literal["gt", "lt", "ne", "triu", "tril"]
    bound: float = 0.0
    loops: tuple[int, int] = (0, 0)


Expr = Input | RegionArg | Const | LoopIndex | Apply | Unary | Binary | Select
SEMIRING = (Unary, Binary, Select)


def children(e: Expr) -> list[Expr]:
    """The operands of `e` (not what its semiring regions compute)."""
    if isinstance(e, Apply):
        return list(e.args)
    if isinstance(e, Unary | Select):
        return [e.x]
    if isinstance(e, Binary):
        return [e.x, e.y]
    return []


def walk(e: Expr) -> Iterator[Expr]:
    """`e` and its operands, recursively."""
    yield e
    for child in children(e):
        yield from walk(child)


def has_semiring(e: Expr) -> bool:
    return any(isinstance(x, SEMIRING) for x in walk(e))


def inputs_of(e: Expr) -> set[int]:
    return {x.index for x in walk(e) if isinstance(x, Input)}


# -- encodings ---------------------------------------------------------------------


@dataclass(frozen=True)
class Format:
    """An encoding of a rank-`rank` operand.

    `levels` are the level expressions with their types over dimensions
    d0, d1, ... (`"d1 : dense"`, `"d0 floordiv 2 : compressed"`); `order`
    lists the dimensions in level order when the map is a permutation (None
    for blocked and 2:4 maps); `multiples` is what each dimension's size must
    be a multiple of; `structured` the dimension of 2:4 groups."""

    name: str
    rank: int
    levels: tuple[str, ...]
    order: tuple[int, ...] | None
    multiples: tuple[int, ...]
    structured: int | None = None
    pos_width: int = 0
    crd_width: int = 0

    @property
    def text(self) -> str:
        dims = ", ".join(f"d{d}" for d in range(self.rank))
        widths = "".join(
            f", {name} = {w}"
            for name, w in (("posWidth", self.pos_width), ("crdWidth", self.crd_width))
            if w
        )
        return (
            f"#sparse_tensor.encoding<{{ map = ({dims}) -> "
            f"({', '.join(self.levels)}){widths} }}>"
        )

    @property
    def level_types(self) -> list[str]:
        return [level.split(" : ", 1)[1] for level in self.levels]

    @property
    def all_dense(self) -> bool:
        return all(t == "dense" for t in self.level_types)

    @property
    def scipy_kind(self) -> str | None:
        """`csr`/`csc` when scipy's format has exactly this storage."""
        if self.level_types != ["dense", "compressed"]:
            return None
        if self.pos_width or self.crd_width:
            return None
        return "csr" if self.order == (0, 1) else "csc"

    def label(self) -> str:
        widths = [f"p{self.pos_width}"] if self.pos_width else []
        widths += [f"c{self.crd_width}"] if self.crd_width else []
        return self.name + (f"[{','.join(widths)}]" if widths else "")


NAMED_2D = {
    ("dense", "compressed"): ("CSR", "CSC"),
    ("compressed", "compressed"): ("DCSR", "DCSC"),
    ("compressed(nonunique)", "singleton"): ("COO", "COO^T"),
    ("compressed(nonunique)", "singleton(soa)"): ("COO(soa)", "COO(soa)^T"),
    ("dense", "dense"): ("Dense", "Dense^T"),
}


def _name(types: Sequence[str], order: Sequence[int]) -> str:
    named = NAMED_2D.get((types[0], types[1])) if len(types) == 2 else None
    if named is not None:
        return named[0] if tuple(order) == (0, 1) else named[1]
    if len(types) == 3 and all(t == "compressed" for t in types):
        base = "CSF"
    else:
        short = {"dense": "D", "compressed": "C", "loose_compressed": "L"}
        base = "".join(short.get(t, t) for t in types)
    return base + ("" if list(order) == sorted(order) else f"{list(order)}")


def _level_types(rng: random.Random, rank: int) -> list[str]:
    """Level types of a permuted (non-blocked) encoding of `rank` levels."""
    coo_start = rng.randrange(rank - 1) if rank >= 2 and rng.random() < 0.25 else None
    soa = rng.random() < 0.3  # all singletons of a COO region alike
    types: list[str] = []
    for level in range(rank):
        if coo_start is not None and level >= coo_start:
            if level == coo_start:
                types.append(
                    rng.choice(
                        ["compressed(nonunique)"] * 5 + ["loose_compressed(nonunique)"]
                    )
                )
            else:
                props = ["nonunique"] if level < rank - 1 else []
                if soa:
                    props.append("soa")
                types.append("singleton" + (f"({', '.join(props)})" if props else ""))
            continue
        if level == 0 and rank >= 2 and rng.random() < 0.04:
            types.append("batch")
            continue
        types.append(
            rng.choices(
                ["dense", "compressed", "loose_compressed", "compressed(nonordered)"],
                [4, 6, 0.6, 0.4],
            )[0]
        )
    return types


def random_format(
    rng: random.Random, rank: int, *, output: bool = False, blocked: float = 1.0
) -> Format:
    """A random encoding for a rank-`rank` tensor (rank >= 1). Outputs get no
    2:4, loose or batch levels (their printing and insertion differ in MLIR).
    `blocked` scales the share of BSR and 2:4 (demapped only for operands
    indexed by every loop)."""
    kind = rng.random() / blocked if blocked else 1.0
    if rank == 2 and kind < 0.12:
        bi, bj = rng.choice([(2, 2), (2, 2), (2, 3), (3, 2)])
        outer = rng.choice(
            [
                ("dense", "compressed"),
                ("dense", "compressed"),
                ("compressed", "compressed"),
            ]
        )
        if rng.random() < 0.2:  # block-column major: j blocks outside
            levels = (
                f"d1 floordiv {bj} : {outer[0]}",
                f"d0 floordiv {bi} : {outer[1]}",
                f"d0 mod {bi} : dense",
                f"d1 mod {bj} : dense",
            )
        else:
            levels = (
                f"d0 floordiv {bi} : {outer[0]}",
                f"d1 floordiv {bj} : {outer[1]}",
                f"d0 mod {bi} : dense",
                f"d1 mod {bj} : dense",
            )
        return Format(f"BSR{bi}x{bj}", 2, levels, None, (bi, bj))
    if rank in (1, 2) and kind < 0.22 and not output:
        last = rank - 1
        outer = ("d0 : dense",) if rank == 2 else ()
        levels = (
            *outer,
            f"d{last} floordiv 4 : dense",
            f"d{last} mod 4 : structured[2, 4]",
        )
        multiples = (1, 4) if rank == 2 else (4,)
        return Format("2:4", rank, levels, None, multiples, structured=last)
    order = list(range(rank))
    if rng.random() < 0.35:
        rng.shuffle(order)
    types = _level_types(rng, rank)
    if output:
        types = [
            t if t in ("dense", "compressed") or "singleton" in t else "compressed"
            for t in types
        ]
        types = [
            "compressed(nonunique)"
            if t == "compressed" and i + 1 < rank and "singleton" in types[i + 1]
            else t
            for i, t in enumerate(types)
        ]
    levels = tuple(f"d{d} : {t}" for d, t in zip(order, types, strict=True))
    return Format(_name(types, order), rank, levels, tuple(order), (1,) * rank)


def with_widths(rng: random.Random, fmt: Format, shape: Sequence[int]) -> Format:
    """Random posWidth/crdWidth that can hold `shape`'s positions and
    coordinates; a 2:4 format's index-width coordinates become, half the
    time, bytes or 2-bit entries packed four per byte (`crdWidth = 2`)."""
    entries = math.prod(shape)
    biggest = max(shape, default=0)

    def width(limit: int) -> int:
        choices = [w for w in (8, 16, 32, 64) if limit < 2**w - 1]
        return rng.choice(choices) if rng.random() < 0.35 else 0

    pos = width(entries + 1)
    crd = width(biggest + 1)
    if fmt.structured is not None and crd == 0:
        draw = rng.random()
        crd = 0 if draw >= 0.5 else 8 if draw < 0.25 else 2
    return replace(fmt, pos_width=pos, crd_width=crd)


def narrowest_widths(rng: random.Random, fmt: Format, data: Array) -> Format:
    """The narrowest posWidth/crdWidth that hold `data` stored in `fmt` (or
    the next wider), so that positions and coordinates reach their type's top
    half: a position counts at most the stored entries (nonzeros, their BSR
    blocks whole, every 2:4 slot); a 2:4 level's coordinates (0-3) take 2
    bits, packed four per byte."""
    area = math.prod(fmt.multiples)
    stored = int(np.count_nonzero(data)) * area
    if fmt.structured is not None:
        stored = data.size // 2
    biggest = max(data.shape, default=0)

    def width(limit: int) -> int:
        fitting = [w for w in (8, 16, 32, 64) if limit < 2**w - 1]
        return fitting[min(len(fitting) - 1, rng.choice([0, 0, 1]))]

    pos, crd = width(stored + 1), width(biggest + 1)
    return replace(
        fmt, pos_width=pos, crd_width=2 if fmt.structured is not None else crd
    )


# -- results in narrow widths ----------------------------------------------------------

NARROW_OUTPUT_SHARE = 0.2
"""The share of cases building a new sparse result (of more than 255 slots:
three times this) whose result gets 8- or 16-bit widths drawn whatever its
size (`narrow_output`), most smaller ones enlarged first (loops of up to
200: 8-bit positions overflow, coordinates fit); a result they cannot hold
must be a ValueError."""
WIDTH_ERROR = re.compile(
    r"more entries than its \d+-bit positions hold"
    r"|a coordinate that its \d+-bit coordinates cannot hold"
)
"""The message of a result whose posWidth / crdWidth cannot hold it."""

WidthFit = Literal["fits", "may overflow", "overflows"]


def narrow_output(case: Case) -> Case:
    """`case`, its new sparse result (a permuted encoding, next to no 2:4
    or BSR operand) given narrow widths for a share of the seeds (a stream of
    its own: the cases drawn before stay as they were)."""
    rng = random.Random(case.seed * 7727 + 11)
    fmt = case.out_format
    if (
        case.out_kind != "empty"
        or fmt is None
        or fmt.order is None
        or fmt.all_dense
        or any(op.format is not None and op.format.order is None for op in case.inputs)
    ):
        return case
    small = math.prod(case.out_shape) <= 255
    if rng.random() >= NARROW_OUTPUT_SHARE * (1 if small else 3):
        return case
    if small and rng.random() < 0.75:
        case = _enlarge(case, rng, np.random.default_rng(case.seed + 2**42))
        fmt = case.out_format
        assert fmt is not None
    pos = rng.choice([8] * 6 + [16])
    crd = rng.choice([8, fmt.crd_width])
    return replace(case, out_format=replace(fmt, pos_width=pos, crd_width=crd))


def _limit(width: int) -> int:
    """The largest value a position or coordinate of `width` bits holds."""
    return 2 ** (width or 64) - 1


def output_width_fit(case: Case, expected: Array | None) -> WidthFit:
    """Whether the case's new sparse result fits its posWidth / crdWidth:
    "fits" where its shape guarantees it (positions count at most the slots
    of the levels down to the last compressed one and the singletons under
    it, coordinates stay below
    their dimension), "overflows" where `expected` (the dense result; None
    when the kernel sums it) shows it cannot (distinct nonzero prefixes down
    to those levels, a nonzero's coordinate), else "may
    overflow" (explicit zeros may be stored or not)."""
    fmt = case.out_format
    if fmt is None or fmt.order is None or case.out_kind != "empty":
        return "fits"
    shape = case.out_shape
    types = fmt.level_types
    compressed = [lvl for lvl, t in enumerate(types) if "compressed" in t]
    stored = [
        d
        for d, t in zip(fmt.order, types, strict=True)
        if "compressed" in t or t.startswith("singleton")
    ]
    end = compressed[-1] + 1 if compressed else 0
    while end < len(types) and types[end].startswith("singleton"):
        end += 1  # (a COO region's positions count the entries below them)
    prefix = list(fmt.order[:end])
    slots = math.prod(shape[d] for d in prefix)
    if slots <= _limit(fmt.pos_width) and all(
        shape[d] <= _limit(fmt.crd_width) + 1 for d in stored
    ):
        return "fits"
    if expected is None or expected.shape != shape:
        return "may overflow"
    nonzeros = np.argwhere(expected != 0)
    prefixes = len({tuple(row) for row in nonzeros[:, prefix].tolist()})
    if compressed and prefixes > _limit(fmt.pos_width):
        return "overflows"
    if any(
        nonzeros.size and nonzeros[:, d].max() > _limit(fmt.crd_width) for d in stored
    ):
        return "overflows"
    return "may overflow"


# -- the case ------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Operand:
    """An input or in-place output: the loops its dimensions read, its encoding
    (None: a dense tensor), its dense data and how it is passed ("tensor": a
    SparseTensor, "scipy", "numpy": converted at the boundary).

    `source` is the function parameter's encoding when the kernel converts
    the operand first (`sparse_tensor.convert`): "same" for none, "dense" for
    a dense parameter, or a Format; "constant" when the kernel takes no
    parameter for it but holds its data as a builtin `arith.constant
    sparse<[[i, j], ...], [values]>` converted to `format` (as MLIR's
    integration tests write their inputs). `layout` is how a dense
    parameter's numpy array is laid out: row-major, column-major or a strided
    view."""

    loops: tuple[int, ...]
    format: Format | None
    data: Array
    passed_as: Literal["tensor", "scipy", "numpy"] = "tensor"
    source: Format | Literal["same", "dense", "constant"] = "same"
    layout: Layout = "c"

    @property
    def rank(self) -> int:
        return len(self.loops)

    @property
    def is_parameter(self) -> bool:
        """Whether the kernel takes this operand as a parameter (it does
        unless it holds it as a constant)."""
        return self.source != "constant"

    @property
    def param_format(self) -> Format | None:
        """The encoding of the function's parameter for this operand (of the
        dense constant, None, when it has no parameter)."""
        if self.source == "same":
            return self.format
        if self.source in ("dense", "constant"):
            return None
        return self.source

    def label(self) -> str:
        own = self.format.label() if self.format else "dense"
        if self.source == "constant":
            return own + "<-sparse<>"
        if self.source != "same":
            given = self.param_format.label() if self.param_format else "dense"
            own = f"{own}<-{given}"
        if self.passed_as != "tensor":
            own += f"({self.passed_as})"
        return own + ("" if self.layout == "c" else f"[{self.layout}]")


Update = Literal["overwrite", "add", "add_swapped", "mul", "max", "min", "reduce"]
OutKind = Literal["dense", "empty", "inplace"]


@dataclass(frozen=True, eq=False)
class Case:
    """One generated kernel with its data.

    The output reads the parallel loops `out_loops`; `out_kind` is "dense" (an
    `outs` argument, `out_init` its data), "empty" (a `tensor.empty` of
    `out_format`) or "inplace" (a sparse `outs` argument of `out_format`
    holding `out_init`). `update` combines the body's value with the output:
    "overwrite" yields it, "add"/"mul"/"max"/"min" combine it with the output
    value (`add_swapped`: body + out), "reduce" is a `sparse_tensor.reduce`
    with `reduce_op` and its identity."""

    seed: int
    dtype: str
    sizes: tuple[int, ...]
    iterators: tuple[str, ...]
    inputs: tuple[Operand, ...]
    out_loops: tuple[int, ...]
    out_format: Format | None
    out_kind: OutKind
    out_init: Array
    update: Update
    body: Expr
    reduce_op: str = "add"
    static: bool = False
    template: str = "random"
    options: tuple[tuple[str, Any], ...] = field(default=())
    """Keyword arguments of `xsparse.compile` (vectorization, parallelization)."""
    out_layout: Layout = "c"
    """The layout of a dense output argument's numpy array."""
    then_sum: bool = False
    """A second linalg.generic sums the (sparse) result into a 0-d tensor
    (starting from 1) inside the kernel, which returns that sum instead."""
    threads: int = 0
    """When not 0, the kernel is called with that many threads and grain 0,
    so that every parallel loop of two or more iterations (the kernel's and
    its checkers') runs on the pool (`xsparse.backend.threads`)."""
    scratch_outputs: bool = False
    """The kernel is called with `scratch_outputs=True`: the checks it makes
    itself stand for the checker's (`backend.fused_checks`)."""

    @property
    def reductions(self) -> tuple[int, ...]:
        return tuple(i for i, t in enumerate(self.iterators) if t == "reduction")

    @property
    def out_shape(self) -> tuple[int, ...]:
        return tuple(self.sizes[loop] for loop in self.out_loops)

    def shape_of(self, operand: Operand) -> tuple[int, ...]:
        return tuple(self.sizes[loop] for loop in operand.loops)

    def describe(self) -> str:
        """One line: template, dtype, loops, formats, output."""
        loops = " ".join(
            f"{'ijklmn'[i]}{'r' if t == 'reduction' else ''}={s}"
            for i, (t, s) in enumerate(zip(self.iterators, self.sizes, strict=True))
        )
        ins = ", ".join(f"{_access(op.loops)}:{op.label()}" for op in self.inputs)
        out = f"{_access(self.out_loops)}:{self.out_format.label() if self.out_format else 'dense'}"
        out += "" if self.out_layout == "c" else f"[{self.out_layout}]"
        return (
            f"{self.template} {self.dtype} [{loops}] ins({ins}) "
            f"out({out}, {self.out_kind}, {self.update}"
            f"{'=' + self.reduce_op if self.update == 'reduce' else ''})"
            f"{' static' if self.static else ''}"
            + "".join(f" {k}={v}" for k, v in self.options)
            + (" then_sum" if self.then_sum else "")
            + (f" threads={self.threads}" if self.threads else "")
            + (" scratch_outputs" if self.scratch_outputs else "")
        )


def _access(loops: Sequence[int]) -> str:
    return "(" + ",".join("ijklmn"[i] for i in loops) + ")"


# -- drawing a case ------------------------------------------------------------------

Structure = tuple[str, list[str], list[tuple[int, ...]]]
"""A template's name, iterator types and input access loops."""

P, R = "parallel", "reduction"
TEMPLATES: list[Structure] = [
    ("elementwise", [P, P], [(0, 1), (0, 1)]),
    ("elementwise1", [P, P], [(0, 1)]),
    ("elementwise3", [P, P], [(0, 1), (0, 1), (0, 1)]),
    ("broadcast", [P, P], [(0, 1), (1,)]),
    ("outer", [P, P], [(0,), (1,)]),
    ("transpose", [P, P], [(1, 0)]),
    ("vector", [P], [(0,), (0,)]),
    ("dot", [R], [(0,), (0,)]),
    ("sum", [R, R], [(0, 1)]),
    ("row_sums", [P, R], [(0, 1)]),
    ("column_sums", [R, P], [(0, 1)]),
    ("spmv", [P, R], [(0, 1), (1,)]),
    ("spmv_t", [P, R], [(1, 0), (1,)]),
    ("spmm", [P, P, R], [(0, 2), (2, 1)]),
    ("spgemm", [P, P, R], [(0, 2), (2, 1)]),
    ("spmm_t", [P, P, R], [(2, 0), (2, 1)]),
    ("sddmm", [P, P, R], [(0, 1), (0, 2), (2, 1)]),
    ("ttv", [P, P, R], [(0, 1, 2), (2,)]),
    ("ttm", [P, P, P, R], [(0, 1, 3), (2, 3)]),
    ("mttkrp", [P, P, R, R], [(0, 2, 3), (2, 1), (3, 1)]),
    ("elementwise3d", [P, P, P], [(0, 1, 2), (0, 1, 2)]),
    ("sum3d", [P, R, R], [(0, 1, 2)]),
]
CONTRACTIONS = {
    "dot",
    "spmv",
    "spmv_t",
    "spmm",
    "spgemm",
    "spmm_t",
    "sddmm",
    "ttv",
    "ttm",
    "mttkrp",
}


def random_structure(rng: random.Random) -> Structure:
    """A template (half the time) or a random loop nest and access maps."""
    if rng.random() < 0.5:
        name, iterators, accesses = rng.choice(TEMPLATES)
        accesses = list(accesses)
        if rng.random() < 0.2:  # transpose one operand's access
            k = rng.randrange(len(accesses))
            accesses[k] = tuple(reversed(accesses[k]))
        return name, list(iterators), accesses
    n = rng.choices([1, 2, 3, 4], [2, 9, 6, 2])[0]
    iterators = [P if rng.random() < 0.65 else R for _ in range(n)]
    accesses: list[tuple[int, ...]] = []
    for _ in range(rng.choices([1, 2, 3], [3, 5, 2])[0]):
        rank = rng.choices(range(min(n, 3) + 1), [0.3, 3, 4, 2][: min(n, 3) + 1])[0]
        loops = rng.sample(range(n), rank)
        if rng.random() < 0.6:
            loops.sort()
        accesses.append(tuple(loops))
    used = {loop for a in accesses for loop in a}
    for loop in range(n):  # every loop read by some input
        if loop in used:
            continue
        short = [k for k, a in enumerate(accesses) if len(a) < 3]
        if short:
            k = rng.choice(short)
            accesses[k] = tuple(sorted((*accesses[k], loop)))
        else:
            accesses.append((loop,))
    return "random", iterators, accesses


def random_case(seed: int) -> Case:
    """The case of `seed`."""
    rng = random.Random(seed)
    data_rng = np.random.default_rng(seed)
    dtype = rng.choices(list(DTYPES), [7, 4, 4, 3, 1, 1])[0]
    template, iterators, accesses = random_structure(rng)
    n = len(iterators)
    parallel = [i for i in range(n) if iterators[i] == P]
    out_loops = list(parallel)
    if len(out_loops) > 1 and rng.random() < 0.2:
        rng.shuffle(out_loops)
    formats = [_input_format(rng, len(a), n, template) for a in accesses]
    out_kind, out_format = _output(rng, iterators, len(out_loops))
    sizes = _sizes(rng, n, accesses, formats, out_loops, out_format)
    body, update, reduce_op = _body(rng, dtype, template, iterators, accesses, out_kind)
    inputs = tuple(
        _operand(rng, data_rng, dtype, a, f, sizes, semiring=has_semiring(body))
        for a, f in zip(accesses, formats, strict=True)
    )
    out_shape = tuple(sizes[loop] for loop in out_loops)
    if out_format is not None:
        out_format = with_widths(rng, out_format, out_shape)
    out_init = _out_init(
        data_rng, dtype, out_shape, out_kind, update, reduce_op, out_format
    )
    case = Case(
        seed=seed,
        dtype=dtype,
        sizes=tuple(sizes),
        iterators=tuple(iterators),
        inputs=inputs,
        out_loops=tuple(out_loops),
        out_format=out_format,
        out_kind=out_kind,
        out_init=out_init,
        update=update,
        body=body,
        reduce_op=reduce_op,
        static=rng.random() < 0.25,
        template=template,
    )
    return narrow_output(_extend(case, random.Random(seed * 7919 + 1), dtype))


TWO_FOUR_PRODUCT_SHARE = 8
"""`check_case(seed)` also checks `random_two_four_product(seed)` for one
seed in this many."""


def random_two_four_product(seed: int) -> Case:
    """A 2:4 matrix product of `seed` (a stream of its own: `random_case`'s
    cases stay as they were): SpMM `C(i,j) += A(i,k) * B(k,j)` or SpMV
    `y(i) += A(i,k) * x(k)` with A row-major 2:4 (`#NV_24`), f32 or f64,
    the shape sparse-decompose-tensors rewrites (`kernels` then checks the
    decomposed kernel on A's (values, metadata) pair as well)."""
    rng = random.Random(seed * 15485863 + 3)
    data_rng = np.random.default_rng(seed + 2**41)
    dtype = rng.choice(["f64", "f32"])
    matrix = rng.random() < 0.6
    m, k, n = rng.randrange(0, 14), 4 * rng.randrange(0, 9), rng.randrange(1, 10)
    levels = ("d0 : dense", "d1 floordiv 4 : dense", "d1 mod 4 : structured[2, 4]")
    fmt = Format("2:4", 2, levels, None, (1, 4), structured=1)
    fmt = with_widths(rng, fmt, (m, k))
    if matrix:
        sizes, iterators = (m, n, k), (P, P, R)
        a_loops, b_loops, out_loops = (0, 2), (2, 1), (0, 1)
    else:
        sizes, iterators = (m, k), (P, R)
        a_loops, b_loops, out_loops = (0, 1), (1,), (0,)
    a = Operand(a_loops, fmt, random_data(rng, data_rng, dtype, (m, k), fmt))
    b_shape = tuple(sizes[loop] for loop in b_loops)
    b = Operand(b_loops, None, _values(data_rng, dtype, b_shape))
    out_shape = tuple(sizes[loop] for loop in out_loops)
    return Case(
        seed=seed,
        dtype=dtype,
        sizes=sizes,
        iterators=iterators,
        inputs=(a, b),
        out_loops=out_loops,
        out_format=None,
        out_kind="dense",
        out_init=_values(data_rng, dtype, out_shape),
        update="add",
        body=Apply("mul", (Input(0), Input(1))),
        template="spmm" if matrix else "spmv",
        threads=rng.choice([0, 0, 2, 3]),
    )


def integer_division(
    rng: random.Random, dtype: str, division: Apply, inputs: int
) -> Apply:
    """`division` (an integer DIV) made to reach numpy's edge cases: most
    often its divisor becomes one that may be 0 or -1 (an input, 0 where it
    stores nothing; that input - 1; the constants 0 and -1), sometimes its
    dividend is multiplied by INT_MIN (INT_MIN where it was odd, 0 where it
    was even) and sometimes it becomes a remainder (REM)."""
    dividend, divisor = division.args
    if rng.random() < 0.75:
        operand = Input(rng.randrange(inputs))
        choices = [operand, Apply("sub", (operand, Const(1))), Const(0), Const(-1)]
        divisor = rng.choice(choices)
    if rng.random() < 0.4:
        lowest = int(np.iinfo(DTYPES[dtype]).min)
        dividend = Apply("mul", (dividend, Const(lowest)))
    return Apply(rng.choice(INT_DIVISIONS), (dividend, divisor))


def _extend(case: Case, rng: random.Random, dtype: str) -> Case:
    """Dimensions drawn from a second stream (so that adding them left the
    first stream's cases as they were): a division by a constant somewhere in
    the body (an integer one reworked by a fourth stream,
    `integer_division`), and `xsparse.compile` options."""
    body = case.body
    if rng.random() < 0.15:
        nodes = list(walk(body))
        target = rng.choice(nodes)
        divisor: Expr = _constant(rng, dtype, nonzero=True)
        # (a third stream: the second's later draws stay as they were)
        third = random.Random(case.seed * 104729 + 7)
        if third.random() < 0.4:  # x / (|A| + c): read where A is absent too
            operand = Input(third.randrange(len(case.inputs)))
            positive = Const(abs(_constant(third, dtype, nonzero=True).value))
            divisor = Apply("add", (Apply("abs", (operand,)), positive))
        divided = Apply(DIV, (target, divisor))
        if not is_float(dtype):
            fourth = random.Random(case.seed * 15485863 + 11)
            divided = integer_division(fourth, dtype, divided, len(case.inputs))
        body = _replace_node(body, target, divided)
    options: list[tuple[str, Any]] = []
    if rng.random() < 0.2:
        if rng.random() < 0.6:
            options.append(("vl", rng.choice([2, 4, 8, 16])))
            if rng.random() < 0.3:
                options.append(("enable_simd_index32", True))
        if not options or rng.random() < 0.5:
            strategy = rng.choice(
                [
                    "dense-outer-loop",
                    "any-storage-outer-loop",
                    "dense-any-loop",
                    "any-storage-any-loop",
                ]
            )
            options.append(("parallelization_strategy", strategy))
    case = replace(case, body=body, options=tuple(options))
    if rng.random() < 0.2:
        case = _narrow(case, rng)
    if rng.random() < 0.06:
        case = _enlarge(case, rng, np.random.default_rng(case.seed + 2**40))
    if rng.random() < 0.15 and not has_semiring(case.body) and case.update != "reduce":
        case = _convert_inputs(case, rng)
    case = _lay_out(case, rng)
    if case.out_kind == "empty" and rng.random() < 0.25:
        case = replace(case, then_sum=True)
    if rng.random() < 0.3:
        case = replace(case, threads=rng.choice([2, 3, 4]))
    # (from the seed, not `rng`: the cases drawn before it stay the same)
    case = replace(case, scratch_outputs=case.seed % 2 == 1)
    return _constant_inputs(case, random.Random(case.seed * 49979687 + 13))


CONSTANT_INPUT_SHARE = 0.08
"""The share of cases in which `_constant_inputs` makes one input a constant."""


def _constant_inputs(case: Case, rng: random.Random) -> Case:
    """In a share of cases (a stream of its own: the other draws stay as they
    were), one sparse input held by the kernel as a builtin
    `sparse<[[i, j], ...], [values]>` constant converted to its encoding; its
    dense value is its data, so numpy's result is the same."""
    candidates = [
        k
        for k, op in enumerate(case.inputs)
        if op.source == "same" and op.format is not None and op.rank
    ]
    if not candidates or rng.random() >= CONSTANT_INPUT_SHARE:
        return case
    inputs = list(case.inputs)
    k = rng.choice(candidates)
    inputs[k] = replace(inputs[k], source="constant", passed_as="tensor", layout="c")
    return replace(case, inputs=tuple(inputs))


def _convert_inputs(case: Case, rng: random.Random) -> Case:
    """Some inputs passed in another encoding (or dense, or as a sparse tensor
    the kernel makes dense) and converted by the kernel first."""
    inputs = list(case.inputs)
    for k, op in enumerate(inputs):
        if op.rank == 0 or rng.random() < 0.5:
            continue
        shape = case.shape_of(op)
        if op.format is not None and rng.random() < 0.3:
            inputs[k] = replace(op, source="dense", passed_as="tensor")
            continue
        given = with_widths(rng, random_format(rng, op.rank), shape)
        if _holds(given, op.data):
            # The conversion keeps what `given` stores (zeros of its dense
            # levels too): widths for every point.
            own = None if op.format is None else with_widths(rng, op.format, shape)
            inputs[k] = replace(op, format=own, source=given, passed_as="tensor")
    return replace(case, inputs=tuple(inputs))


def _holds(fmt: Format, data: Array) -> bool:
    """Whether `fmt` can store `data` (block multiples, 2:4 groups)."""
    if any(s % m for s, m in zip(data.shape, fmt.multiples, strict=True)):
        return False
    if fmt.structured is None:
        return True
    groups = np.moveaxis(data, fmt.structured, -1).reshape(-1, 4)
    return bool(np.all(np.count_nonzero(groups, axis=1) <= 2))


def _lay_out(case: Case, rng: random.Random) -> Case:
    """Column-major or strided numpy arrays for some dense parameters."""
    layouts: list[Layout] = ["c", "c", "c", "c", "c", "c", "f", "strided"]
    inputs = tuple(
        replace(op, layout=rng.choice(layouts))
        if op.param_format is None and op.rank
        else op
        for op in case.inputs
    )
    out_layout: Layout = (
        rng.choice(layouts) if case.out_kind == "dense" and case.out_loops else "c"
    )
    return replace(case, inputs=inputs, out_layout=out_layout)


def _narrow(case: Case, rng: random.Random) -> Case:
    """Every sparse input with the narrowest widths its data allows."""
    inputs = tuple(
        op
        if op.format is None
        else replace(
            op,
            format=narrowest_widths(rng, op.format, op.data),
            passed_as="numpy" if op.passed_as == "numpy" else "tensor",
        )
        for op in case.inputs
    )
    return replace(case, inputs=inputs)


def _without_widths(fmt: Format | None) -> Format | None:
    return None if fmt is None else replace(fmt, pos_width=0, crd_width=0)


def _enlarge(case: Case, rng: random.Random, data_rng: np.random.Generator) -> Case:
    """The case with loops several times larger and its data drawn again (so
    that narrow positions and coordinates pass 127 and 255)."""
    n = len(case.sizes)
    formats = [_without_widths(op.format) for op in case.inputs]
    out_format = _without_widths(case.out_format)
    accesses = [op.loops for op in case.inputs]
    multiple = _multiples(n, accesses, formats, case.out_loops, out_format)
    sizes = [
        max(s, m) * rng.randint(2, 8) for s, m in zip(case.sizes, multiple, strict=True)
    ]
    while math.prod(sizes) > 20000 or max(sizes) > 200:
        big = max(range(n), key=lambda i: sizes[i])
        sizes[big] -= multiple[big]
    semiring = has_semiring(case.body)
    inputs = tuple(
        _operand(rng, data_rng, case.dtype, op.loops, fmt, sizes, semiring=semiring)
        for op, fmt in zip(case.inputs, formats, strict=True)
    )
    if rng.random() < 0.5:
        inputs = _narrow(replace(case, inputs=inputs), rng).inputs
    out_shape = tuple(sizes[loop] for loop in case.out_loops)
    if out_format is not None:
        out_format = with_widths(rng, out_format, out_shape)
    out_init = _out_init(
        data_rng,
        case.dtype,
        out_shape,
        case.out_kind,
        case.update,
        case.reduce_op,
        out_format,
    )
    return replace(
        case,
        sizes=tuple(sizes),
        inputs=inputs,
        out_format=out_format,
        out_init=out_init,
        template=case.template + "+large",
    )


def _replace_node(e: Expr, target: Expr, new: Expr) -> Expr:
    """`e` with its first node that is `target` (by identity) replaced by `new`."""
    if e is target:
        return new
    if isinstance(e, Apply):
        return replace(e, args=tuple(_replace_node(a, target, new) for a in e.args))
    if isinstance(e, Unary | Select):
        return replace(e, x=_replace_node(e.x, target, new))
    if isinstance(e, Binary):
        return replace(
            e, x=_replace_node(e.x, target, new), y=_replace_node(e.y, target, new)
        )
    return e


def _input_format(
    rng: random.Random, rank: int, n_loops: int, template: str
) -> Format | None:
    sparse_share = 0.85 if template in ("spgemm", "elementwise", "vector") else 0.65
    if rank == 0 or rng.random() > sparse_share:
        return None
    return random_format(rng, rank, blocked=1.0 if rank == n_loops else 0.15)


def _output(
    rng: random.Random, iterators: Sequence[str], rank: int
) -> tuple[OutKind, Format | None]:
    if rank == 0 or rng.random() < 0.6:
        return "dense", None
    blocked = 1.0 if R not in iterators else 0.15
    fmt = random_format(rng, rank, output=True, blocked=blocked)
    if R not in iterators and rng.random() < 0.15:
        return "inplace", fmt  # a sparse argument scaled in place
    return "empty", fmt


def _multiples(
    n: int,
    accesses: Sequence[tuple[int, ...]],
    formats: Sequence[Format | None],
    out_loops: Sequence[int],
    out_format: Format | None,
) -> list[int]:
    """What each loop's size must be a multiple of (BSR blocks, 2:4 groups)."""
    multiple = [1] * n
    pairs = list(zip(accesses, formats, strict=True)) + [(tuple(out_loops), out_format)]
    for loops, fmt in pairs:
        if fmt is None:
            continue
        for loop, m in zip(loops, fmt.multiples, strict=True):
            multiple[loop] = math.lcm(multiple[loop], m)
    return multiple


def _sizes(
    rng: random.Random,
    n: int,
    accesses: Sequence[tuple[int, ...]],
    formats: Sequence[Format | None],
    out_loops: Sequence[int],
    out_format: Format | None,
) -> list[int]:
    multiple = _multiples(n, accesses, formats, out_loops, out_format)
    sizes: list[int] = []
    for loop in range(n):
        m = multiple[loop]
        top = max(1, 12 // m)
        k = rng.choices(
            range(top + 1), [0.5] + [3] * min(top, 3) + [1] * max(0, top - 3)
        )[0]
        if m == 1 and rng.random() < 0.1:
            k = 1
        sizes.append(m * k)
    while math.prod(sizes) > 1500:
        big = max(range(n), key=lambda i: sizes[i])
        sizes[big] -= multiple[big]
    return sizes


# -- bodies --------------------------------------------------------------------------


def _constant(rng: random.Random, dtype: str, nonzero: bool = False) -> Const:
    if is_float(dtype):
        values = [-2.0, -1.5, -1.0, -0.5, 0.5, 1.0, 1.5, 2.0] + (
            [] if nonzero else [0.0]
        )
    else:
        values = [-3, -2, -1, 1, 2, 3] + ([] if nonzero else [0])
    return Const(rng.choice(values))


def _semiring_operand(e: Expr) -> bool:
    """Whether `e` has a well-defined presence for a semiring op: an input, a
    semiring result, or products/sums/negations of those."""
    if isinstance(e, Input | Unary | Binary | Select):
        return True
    if isinstance(e, Apply) and e.op in ("mul", "add", "sub", "neg"):
        return all(_semiring_operand(a) for a in e.args)
    return False


def _region(rng: random.Random, dtype: str, arity: int) -> Expr:
    """A semiring region's value over its arguments (arity 0: a constant)."""
    if arity == 0:
        return _constant(rng, dtype)
    p = RegionArg(0)
    if arity == 2:
        q = RegionArg(1)
        op = rng.choice(PLAIN_OPS)
        e: Expr = Apply(op, (p, q) if rng.random() < 0.7 else (q, p))
        if rng.random() < 0.2:
            e = Apply("add", (e, _constant(rng, dtype, nonzero=True)))
        return e
    choices: list[Expr] = [
        Apply("mul", (p, _constant(rng, dtype, nonzero=True))),
        Apply("add", (p, _constant(rng, dtype, nonzero=True))),
        Apply("neg", (p,)),
        Apply("abs", (p,)),
        Apply("max", (p, Const(0))),
        _constant(rng, dtype, nonzero=True),
    ]
    if is_float(dtype):
        choices.append(Apply("exp", (p,)))
    return rng.choice(choices)


def _branch(rng: random.Random, dtype: str) -> Expr | Identity | None:
    roll = rng.random()
    if roll < 0.4:
        return IDENTITY
    if roll < 0.7:
        return None
    return _region(rng, dtype, 1)


def _semiring(
    rng: random.Random, dtype: str, items: list[Expr], n_loops: int
) -> Expr | None:
    """A semiring op over one or two of `items` (removed from it), or None."""
    eligible = [k for k, e in enumerate(items) if _semiring_operand(e)]
    if not eligible:
        return None
    kind = rng.choice(["binary", "binary", "unary", "select"])
    if kind == "binary" and len(eligible) >= 2:
        k1, k2 = rng.sample(eligible, 2)
        x, y = items[k1], items[k2]
        for k in sorted((k1, k2), reverse=True):
            items.pop(k)
        overlap = _region(rng, dtype, 2) if rng.random() < 0.85 else None
        return Binary(x, y, overlap, _branch(rng, dtype), _branch(rng, dtype))
    x = items.pop(rng.choice(eligible))
    if kind == "select" or (kind == "binary" and rng.random() < 0.5):
        if n_loops >= 2 and rng.random() < 0.25:
            a, b = rng.sample(range(n_loops), 2)
            return Select(x, rng.choice(["triu", "tril"]), 0.0, (a, b))
        bound = (
            rng.choice([0.0, 0.0, 0.5, -0.5, 1.0])
            if is_float(dtype)
            else rng.choice([0, 0, 1, -1])
        )
        return Select(x, rng.choice(["gt", "lt", "ne"]), bound)
    present = _region(rng, dtype, 1) if rng.random() < 0.8 else None
    absent = _region(rng, dtype, 0) if rng.random() < 0.35 else None
    return Unary(x, present, absent)


def _combine(
    rng: random.Random, dtype: str, leaves: list[Expr], n_loops: int, semiring: float
) -> Expr:
    """One tree using every leaf: repeatedly join two items with an op, wrap one
    in a unary op, or build a semiring op."""
    items = list(leaves)
    rng.shuffle(items)
    budget = 7
    while len(items) > 1 or (budget > 0 and rng.random() < 0.35):
        budget -= 1
        if rng.random() < semiring and budget > 0:
            made = _semiring(rng, dtype, items, n_loops)
            if made is not None:
                items.append(made)
                continue
        if len(items) >= 2 and (rng.random() < 0.8 or budget <= 0):
            x, y = items.pop(), items.pop()
            op = rng.choices(PLAIN_OPS, [5, 3, 6, 1.5, 1.5])[0]
            items.append(Apply(op, (x, y)))
            continue
        if budget <= 0:
            continue
        k = rng.randrange(len(items))
        ops = ["neg", "abs"] + (["exp"] if is_float(dtype) else [])
        op = rng.choice(ops)
        if op == "exp" and _has_exp(items[k]):
            op = "neg"
        items[k] = Apply(op, (items[k],))
    return items[0]


def _has_exp(e: Expr) -> bool:
    return any(isinstance(x, Apply) and x.op == "exp" for x in walk(e))


def _body(
    rng: random.Random,
    dtype: str,
    template: str,
    iterators: Sequence[str],
    accesses: Sequence[tuple[int, ...]],
    out_kind: OutKind,
) -> tuple[Expr, Update, str]:
    n = len(iterators)
    leaves: list[Expr] = [Input(k) for k in range(len(accesses))]
    reduction = R in iterators
    if template in CONTRACTIONS and rng.random() < 0.6:
        body: Expr = leaves[0]
        for leaf in leaves[1:]:
            body = Apply("mul", (body, leaf))
    else:
        extra = rng.choices([0, 1, 2], [6, 3, 1])[0]
        for _ in range(extra):
            roll = rng.random()
            if roll < 0.4:
                leaves.append(_constant(rng, dtype, nonzero=True))
            elif roll < 0.7 and n:
                leaves.append(LoopIndex(rng.randrange(n)))
            else:
                leaves.append(rng.choice(leaves[: len(accesses)]))
        semiring = 0.0 if rng.random() < 0.45 else 0.5
        body = _combine(rng, dtype, leaves, n, semiring)
    if out_kind == "inplace":
        return body, "mul", "add"
    if not reduction:
        roll = rng.random()
        update: Update = (
            "overwrite" if roll < 0.6 else ("add" if roll < 0.9 else "add_swapped")
        )
        if out_kind == "empty" and update != "overwrite" and rng.random() < 0.7:
            update = "overwrite"
        return body, update, "add"
    roll = rng.random()
    if roll < 0.55:
        return body, "add", "add"
    if roll < 0.7:
        return body, "add_swapped", "add"
    if roll < 0.8 or not _semiring_operand(body):
        return body, rng.choice(["mul", "max", "min"]), "add"
    return body, "reduce", rng.choice(["add", "mul", "max", "min", "max", "min"])


# -- data ----------------------------------------------------------------------------


def _values(data_rng: np.random.Generator, dtype: str, shape: tuple[int, ...]) -> Array:
    if is_float(dtype):
        v = data_rng.integers(1, 9, size=shape) * 0.25
    else:
        v = data_rng.integers(1, 4, size=shape)
    sign = np.where(data_rng.random(shape) < 0.5, -1, 1)
    return np.array(v * sign, dtype=DTYPES[dtype])


def random_data(
    rng: random.Random,
    data_rng: np.random.Generator,
    dtype: str,
    shape: tuple[int, ...],
    fmt: Format | None,
) -> Array:
    """Random data for an operand in `fmt`: a random density (all zeros or
    full sometimes), an empty row or column, at most two nonzeros per 2:4 group."""
    density = rng.choices([0.0, 0.1, 0.3, 0.6, 1.0], [1, 3, 4, 2, 1])[0]
    if fmt is None and rng.random() < 0.7:
        density = 1.0
    data = _values(data_rng, dtype, shape)
    data[data_rng.random(shape) >= density] = 0
    if data.ndim and rng.random() < 0.6:
        axis = rng.randrange(data.ndim)
        if shape[axis] > 1:
            index = [slice(None)] * data.ndim
            index[axis] = rng.randrange(shape[axis])  # type: ignore[call-overload]
            data[tuple(index)] = 0
    if fmt is not None and fmt.structured is not None:
        _two_of_four(data_rng, data, fmt.structured)
    return data


def _two_of_four(data_rng: np.random.Generator, data: Array, axis: int) -> None:
    """Zero all but at most two nonzeros of each group of four along `axis`."""
    moved = np.moveaxis(data, axis, -1)
    groups = moved.reshape(-1, 4) if moved.size else moved.reshape(0, 4)
    for group in groups:
        nz = np.flatnonzero(group)
        if len(nz) > 2:
            drop = data_rng.choice(nz, size=len(nz) - 2, replace=False)
            group[drop] = 0
    moved[...] = groups.reshape(moved.shape)


def _operand(
    rng: random.Random,
    data_rng: np.random.Generator,
    dtype: str,
    loops: tuple[int, ...],
    fmt: Format | None,
    sizes: Sequence[int],
    *,
    semiring: bool,
) -> Operand:
    shape = tuple(sizes[loop] for loop in loops)
    if fmt is not None:
        fmt = with_widths(rng, fmt, shape)
    data = random_data(rng, data_rng, dtype, shape, fmt)
    passed_as: Literal["tensor", "scipy", "numpy"] = "tensor"
    if fmt is not None:
        roll = rng.random()
        if fmt.scipy_kind is not None and roll < 0.25:
            passed_as = "scipy"
        elif roll > 0.96 and not semiring:
            passed_as = "numpy"
    return Operand(loops, fmt, data, passed_as)


def _out_init(
    data_rng: np.random.Generator,
    dtype: str,
    shape: tuple[int, ...],
    out_kind: OutKind,
    update: Update,
    reduce_op: str,
    fmt: Format | None,
) -> Array:
    np_dtype = DTYPES[dtype]
    if out_kind == "empty":
        return np.zeros(shape, np_dtype)
    if update == "reduce":
        return np.full(shape, reduce_identity(reduce_op, dtype), np_dtype)
    data = _values(data_rng, dtype, shape)
    if out_kind == "inplace":
        data[data_rng.random(shape) >= 0.4] = 0
    elif update == "mul":  # keep products small
        data = np.array(np.sign(data), dtype=np_dtype)
    return data


def reduce_identity(op: str, dtype: str) -> float:
    """The identity of a custom reduction's op in `dtype`."""
    if op == "add":
        return 0
    if op == "mul":
        return 1
    if is_float(dtype):
        return -math.inf if op == "max" else math.inf
    info = np.iinfo(DTYPES[dtype])
    return int(info.min) if op == "max" else int(info.max)
