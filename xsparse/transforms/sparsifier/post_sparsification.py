"""`post-sparsification-rewrite`: sparse_tensor ops that read a tensor's storage
through its buffers -> loops over those buffers.

Mirrors the direct-codegen part of MLIR 22's `-post-sparsification-rewrite`
(SparseTensorRewriting.cpp), which runs after `sparsification` and before
`sparse-tensor-codegen`:

* `sparse_tensor.print` -> the header, `nse`, the dimension and level sizes,
  then each level's positions and coordinates and the values, printed through
  the print functions of MLIR's runner utilities (`printU64`, `printOpen`, ...)
  exactly as `mlir-runner` prints them, buffers as MLIR 22 would hold them
  (`mlir_layout`);
* `sparse_tensor.number_of_entries` -> the size of the values buffer;
* `sparse_tensor.convert` of a sparse tensor to a dense one -> a zero-filled
  buffer and a loop nest over the stored entries.

Everything is expressed with `sparse_tensor.positions/coordinates/values/lvl`,
which `sparse-tensor-codegen` then resolves to the storage fields; the op
builder (`Emitter`) and the loops over stored entries are the shared ones of
`transforms.codegen_utils`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, complex
from xdsl.dialects.builtin import (
    AnyFloat,
    ComplexType,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.sparse_tensor.levels import (
    LOOSE_COMPRESSED,
    STRUCTURED,
    LevelType,
)
from xsparse.dialects.sparse_tensor.ops_conversion import (
    AssembleOp,
    ConvertOp,
    PrintOp,
)
from xsparse.dialects.sparse_tensor.ops_storage import (
    CrdTranslateOp,
    NumberOfEntriesOp,
    ToCoordinatesOp,
    ToPositionsOp,
    ToValuesOp,
)
from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.dialects.sparse_tensor.types import CrdTransDirection, SparseTensorType
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.codegen_utils.op_emitter import to_tensor
from xsparse.transforms.codegen_utils.stored_entries import (
    dim_sizes,
    for_each_stored,
    level_sizes,
)
from xsparse.transforms.errors import LocatingApplier, PassFailure
from xsparse.transforms.storage.level_buffers import is_nonzero
from xsparse.xdsl_adapter import IterativeRewriteWalker


def print_text(e: Emitter, text: str) -> None:
    """Print a constant string (a global of its bytes, one `putchar` each)."""
    data = list(text.encode())
    chars = e.global_constant("str", MemRefType(i8, [len(data)]), data)

    def put(b: Emitter, i: SSAValue) -> None:
        char = b.value(upstream_arith.ExtUIOp(b.load(chars, [i]), i32))
        b.call("putchar", [char], [i32])

    e.for_each(e.index(0), e.index(len(data)), put)


def print_scalar(e: Emitter, v: SSAValue) -> None:
    """Print one value as `vector.print` does (index unsigned, integers
    sign-extended to 64 bits, f32 and f64 with %g); a complex number as the
    pair `( re, im )`, as MLIR's sparse_tensor.print splits it."""
    t = v.type
    if isinstance(t, ComplexType):
        print_punctuation(e, "printOpen")
        print_scalar(e, e.value(complex.ReOp(v)))
        print_punctuation(e, "printComma")
        print_scalar(e, e.value(complex.ImOp(v)))
        print_punctuation(e, "printClose")
    elif isinstance(t, IndexType):
        e.call("printU64", [e.value(upstream_arith.IndexCastOp(v, i64))])
    elif isinstance(t, IntegerType):
        if t.width.data < 64:
            ext = arith.ExtUIOp if t.width.data == 1 else arith.ExtSIOp
            v = e.value(ext(v, i64))
        e.call("printI64", [v])
    elif isinstance(t, Float32Type):
        e.call("printF32", [v])
    elif isinstance(t, AnyFloat):
        if t.bitwidth != 64:
            v = e.value(upstream_arith.ExtFOp(v, Float64Type()))
        e.call("printF64", [v])
    else:
        raise ValueError(f"cannot print a value of type {t}")


def print_punctuation(e: Emitter, name: str) -> None:
    """`printOpen`, `printClose`, `printComma` or `printNewline`."""
    e.call(name, [])


def print_values(e: Emitter, values: Sequence[SSAValue]) -> None:
    """`( a, b, c )` of values known here."""
    print_punctuation(e, "printOpen")
    for i, v in enumerate(values):
        if i:
            print_punctuation(e, "printComma")
        print_scalar(e, v)
    print_punctuation(e, "printClose")


def print_buffer(
    e: Emitter,
    buffer: SSAValue,
    elements: Callable[[Emitter, SSAValue], Sequence[SSAValue]] | None = None,
    trailing: SSAValue | None = None,
) -> None:
    """`( a, b, c )` of the elements of a 1-D buffer, or of `elements(i)` for
    each i (several values per i, all comma-separated), then `trailing`."""
    n = e.dim(buffer)
    print_punctuation(e, "printOpen")

    def one(b: Emitter, i: SSAValue) -> None:
        items = elements(b, i) if elements is not None else [b.load(buffer, [i])]
        for k, item in enumerate(items):
            if k == 0:
                b.when(
                    b.value(arith.CmpiOp(i, b.index(0), "ne")),
                    lambda c: print_punctuation(c, "printComma"),
                )
            else:
                print_punctuation(b, "printComma")
            print_scalar(b, item)

    e.for_each(e.index(0), n, one)
    if trailing is not None:
        e.when(e.cmp(n, "ne", e.index(0)), lambda c: print_punctuation(c, "printComma"))
        print_scalar(e, trailing)
    print_punctuation(e, "printClose")


Keep = Callable[[Emitter, SSAValue], SSAValue]
"""Whether the entry at a position is printed (an i1)."""


def print_kept(e: Emitter, buffer: SSAValue, keep: Keep) -> None:
    """`( a, b, c )` of the elements i of a 1-D buffer where `keep(i)` holds."""
    print_punctuation(e, "printOpen")

    def one(b: Emitter, i: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        printed = carried[0]

        def emit(c: Emitter) -> list[SSAValue]:
            c.when(
                c.cmp(printed, "ne", c.index(0)),
                lambda d: print_punctuation(d, "printComma"),
            )
            print_scalar(c, c.load(buffer, [i]))
            return [c.add(printed, c.index(1))]

        return b.branch(keep(b, i), emit, lambda c: [printed])

    e.loop(e.index(0), e.dim(buffer), [e.index(0)], one)
    print_punctuation(e, "printClose")


def count_kept(e: Emitter, size: SSAValue, keep: Keep) -> SSAValue:
    """How many positions below `size` `keep` holds for."""

    def one(b: Emitter, i: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        step = b.select(keep(b, i), b.index(1), b.index(0))
        return [b.add(carried[0], step)]

    return e.loop(e.index(0), size, [e.index(0)], one)[0]


def last_or_zero(e: Emitter, buffer: SSAValue) -> SSAValue:
    """The last element of a 1-D buffer, 0 when it is empty."""
    n = e.dim(buffer)
    zero = e.constant(0, buffer_element_type(buffer))
    return e.branch(
        e.cmp(n, "eq", e.index(0)),
        lambda b: [zero],
        lambda b: [b.load(buffer, [b.sub(n, b.index(1))])],
    )[0]


def buffer_element_type(buffer: SSAValue) -> Attribute:
    t = buffer.type
    assert isinstance(t, MemRefType)
    return cast(MemRefType[Attribute], t).element_type


@dataclass(frozen=True)
class MlirLayout:
    """What MLIR 22's storage of a tensor holds that xsparse's does not, so
    that the print shows MLIR's buffers. MLIR stores no padding in 2:4 blocks
    (xsparse pads a block with fewer than 2 nonzeros with explicit zeros,
    which MLIR's own kernels need but its conversions leave out); the
    positions of a `loose_compressed` level that MLIR builds end with one more
    entry, a repeat of the last (the initial entry of MLIR's positions
    buffers). A tensor assembled from the program's buffers is printed as
    given, as MLIR prints it."""

    skip_padding: bool
    trailing_position: bool

    @staticmethod
    def of(tensor: SSAValue, stt: SparseTensorType) -> MlirLayout:
        if isinstance(tensor.owner, AssembleOp):
            return MlirLayout(skip_padding=False, trailing_position=False)
        structured = stt.lvl_types[-1].format is STRUCTURED
        return MlirLayout(skip_padding=structured, trailing_position=True)


def print_positions(
    e: Emitter, positions: SSAValue, lt: LevelType, layout: MlirLayout
) -> None:
    trailing = lt.format is LOOSE_COMPRESSED and layout.trailing_position
    print_buffer(
        e, positions, trailing=last_or_zero(e, positions) if trailing else None
    )


def print_coordinates(
    e: Emitter, tensor: SSAValue, stt: SparseTensorType, level: int, keep: Keep | None
) -> None:
    """crd[level], or the interleaved crd buffers of the AoS COO region that
    starts at `level`."""
    aos = stt.aos_coo_start
    if level < aos:
        crd = e.value(ToCoordinatesOp(tensor, level))
        if keep is None:
            print_buffer(e, crd)
        else:
            print_kept(e, crd, keep)
        return
    crds = [e.value(ToCoordinatesOp(tensor, k)) for k in range(aos, stt.lvl_rank)]
    print_buffer(
        e, crds[0], elements=lambda b, i, crds=crds: [b.load(c, [i]) for c in crds]
    )


class LowerPrint(RewritePattern):
    """`sparse_tensor.print` -> the storage printed as MLIR 22's runtime prints it:
    header, nse, dim and lvl sizes, pos[l]/crd[l] per level (the AoS COO region
    as one interleaved crd buffer), values, footer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PrintOp, rewriter: PatternRewriter) -> None:
        tensor = op.tensor
        stt = SparseTensorType.of(tensor.type)
        if stt is None or not stt.has_encoding:
            return
        e = Emitter(rewriter, InsertPoint.before(op))
        layout = MlirLayout.of(tensor, stt)
        newline = "printNewline"
        print_text(e, "---- Sparse Tensor ----\n")
        values = e.value(ToValuesOp(tensor))

        def nonzero(b: Emitter, i: SSAValue) -> SSAValue:
            return is_nonzero(b, b.load(values, [i]))

        keep = nonzero if layout.skip_padding else None
        nse = e.dim(values) if keep is None else count_kept(e, e.dim(values), keep)
        print_text(e, "nse = ")
        print_scalar(e, nse)
        print_punctuation(e, newline)
        lvl = level_sizes(e, tensor, stt)
        print_text(e, "dim = ")
        print_values(e, dim_sizes(e, tensor, stt, lvl))
        print_punctuation(e, newline)
        print_text(e, "lvl = ")
        print_values(e, lvl)
        print_punctuation(e, newline)
        for level, lt in enumerate(stt.lvl_types):
            if lt.format.has_positions:
                print_text(e, f"pos[{level}] : ")
                print_positions(e, e.value(ToPositionsOp(tensor, level)), lt, layout)
                print_punctuation(e, newline)
            if lt.format.has_coordinates and level <= stt.aos_coo_start:
                print_text(e, f"crd[{level}] : ")
                print_coordinates(e, tensor, stt, level, keep)
                print_punctuation(e, newline)
        print_text(e, "values : ")
        if keep is None:
            print_buffer(e, values)
        else:
            print_kept(e, values, keep)
        print_punctuation(e, newline)
        print_text(e, "----\n")
        rewriter.erase(op)


class LowerNumberOfEntries(RewritePattern):
    """`sparse_tensor.number_of_entries` -> the size of the values buffer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: NumberOfEntriesOp, rewriter: PatternRewriter
    ) -> None:
        e = Emitter(rewriter, InsertPoint.before(op))
        nse = e.dim(e.value(ToValuesOp(op.tensor)))
        rewriter.replace(op, [], [nse])


class LowerCrdTranslate(RewritePattern):
    """`sparse_tensor.crd_translate` -> the encoding's dim-to-lvl or lvl-to-dim
    expressions of the coordinates (MLIR's `CrdTranslateRewriter`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CrdTranslateOp, rewriter: PatternRewriter) -> None:
        enc = op.encoder.data
        to_level = op.direction.data == CrdTransDirection.DIM_TO_LVL
        amap = enc.dim_to_lvl if to_level else enc.lvl_to_dim
        e = Emitter(rewriter, InsertPoint.before(op))
        coordinates = list(op.in_crds)
        rewriter.replace(op, [], [e.affine(x, coordinates) for x in amap.results])


class LowerSparseToDense(RewritePattern):
    """`sparse_tensor.convert` sparse -> dense: a zero-filled buffer, then a
    store of every stored entry at its dimension coordinates."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertOp, rewriter: PatternRewriter) -> None:
        source, dest = op.source, op.dest
        stt = SparseTensorType.of(source.type)
        if stt is None or not stt.has_encoding or sparse_encoding(dest.type):
            return
        dest_type = dest.type
        assert is_tensor_type(dest_type)
        enc = sparse_encoding(source.type)
        assert enc is not None
        e = Emitter(rewriter, InsertPoint.before(op))
        lvl = level_sizes(e, source, stt)
        sizes = dim_sizes(e, source, stt, lvl)
        buffer_type = MemRefType(dest_type.element_type, dest_type.get_shape())
        buffer = e.alloc(buffer_type, sizes)
        e.fill(buffer, e.constant(0, dest_type.element_type))
        values = e.value(ToValuesOp(source))

        def store(b: Emitter, coords: list[SSAValue], p: SSAValue) -> None:
            dims = [b.affine(x, coords) for x in enc.lvl_to_dim.results]
            b.store(b.load(values, [p]), buffer, dims)

        for_each_stored(e, source, stt, store)
        rewriter.replace(op, [], [e.value(to_tensor(buffer, dest_type))])


@dataclass(frozen=True)
class PostSparsificationRewritePass(ModulePass):
    """MLIR's `post-sparsification-rewrite` for direct codegen."""

    name = "post-sparsification-rewrite"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            IterativeRewriteWalker(
                LocatingApplier(
                    [
                        LowerPrint(),
                        LowerNumberOfEntries(),
                        LowerCrdTranslate(),
                        LowerSparseToDense(),
                    ]
                ),
                apply_recursively=False,
            ).rewrite_module(op)
        except ValueError as error:
            raise PassFailure(op, str(error)) from None
