"""`sparse-decompose-format`: one sparse operand -> parts in several formats.

Mirrors SparseTIR's DecomposeFormat (seed 002, "Composable Formats"): a
kernel linear in a sparse operand A is rewritten into the sum of the same
kernel over A's parts, A = A_1 + ... + A_r (a partition of A's entries),
each part in the format that suits it, accumulating into the one output.
The rule (pass options) names the parts:

    sparse-decompose-format{operand=0 partitions=c widths=w1,w2,... blocks=b1,...}

- `blocks`: one BSR part per block size b (MLIR's block-map encoding
  `(i floordiv b : dense, j floordiv b : compressed, i mod b : dense,
  j mod b : dense)`);
- `partitions`, `widths` (`hyb(c, widths)`): A's columns split into c
  partitions; each row's segment in a partition goes to the ELL bucket of
  the smallest width holding it, as three dense arguments (row ids,
  columns, values, the last two R x W). Segments longer than the widest
  bucket go to the remainder;
- the remainder, in A's own format (always present, possibly empty).

A's function argument becomes the parts' arguments, in that order (BSR
parts, then for each partition its buckets by width, each as rows, cols,
vals, then the remainder). An op reading A must be linear in it (its body
is `out + f(a)` with `a` a factor of `f`, read once). It becomes the sum
over the parts, accumulated through `outs`, the remainder first (so that
the op keeping the kernel's `outs` is the first):

- SpMV and SpMM with A first (`linalg.matmul` or its generic): the ELL
  buckets and BSR parts run the loops of `ell_loops` and `bsr_loops`
  (rows on threads, a constant trip count over a row's slots or a block),
  a CSR remainder of SpMM those of `csr_loops`; the SpMV remainder stays
  a `linalg.generic` for the sparsifier;
- any other linear op (elementwise, SDDMM-like): cloned onto the remainder
  and each BSR part, computed by the sparsifier; ELL buckets are refused.

An SpMM whose parts all run loops of their own and whose `outs` is a
`linalg.fill` of zero (`C = A @ B`) does not read C: the fill goes, the
first part initializes C and the others add to it or overwrite their rows
(`output_writes`).

With `widths`, the pass also emits the data movement as its own function,
`@<name>_decompose` (the seed's "sparse iterations for data movement that
copies data from the original format to composable formats", which "we
can lift ... outside the kernel and reuse"); with `blocks` and A in CSR,
the BSR split as two functions per block size b,
`@<name>_decompose_bsr<b>_count` and `_fill` (`bsr_movement_types`):
`format_movement` documents both.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, bufferization, func, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FloatAttr,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    TensorType,
    UnitAttr,
    UnrealizedConversionCastOp,
    i1,
    i32,
    i64,
)
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.ops import FillOp, GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineMap,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.sparse_tensor import ops_storage
from xsparse.dialects.sparse_tensor.encoding import Encoding, SparseTensorEncodingAttr
from xsparse.dialects.sparse_tensor.levels import COMPRESSED, DENSE, LevelType
from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.codegen_utils.op_emitter import to_tensor
from xsparse.transforms.decompose.bsr_loops import BsrProduct
from xsparse.transforms.decompose.csr_loops import CsrRowProduct
from xsparse.transforms.decompose.decompose_tensors import is_two_four_product
from xsparse.transforms.decompose.ell_loops import (
    SHAPE_ERROR as ELL_SHAPE_ERROR,
)
from xsparse.transforms.decompose.ell_loops import (
    VECTOR_BITS,
    EllProduct,
    float_bit_width,
)
from xsparse.transforms.decompose.format_movement import (
    BsrMovement,
    BucketBuffers,
    HybMovement,
)
from xsparse.transforms.decompose.output_writes import Output, Write, rows_stream
from xsparse.transforms.errors import LocatingApplier, PassFailure
from xsparse.transforms.sparsifier.sparsification import generic_of
from xsparse.xdsl_adapter import IterativeRewriteWalker

PART_SHAPE_ERROR = (
    "decomposed part: the shapes do not agree (A M x K, BSR: multiples of the block; "
    "B K (x N); C M (x N))"
)
PARTS_MARK = "xsparse.decomposed_parts"
"""Marks the cast standing for a decomposed operand until its readers go."""
MOVEMENT_SUFFIX = "_decompose"
"""The data-movement function of `@f` is `@f_decompose`."""


def bsr_movement_names(kernel: str, block: int) -> tuple[str, str]:
    """The BSR split of `@kernel` for `block`: its count and fill functions."""
    stem = f"{kernel}{MOVEMENT_SUFFIX}_bsr{block}"
    return f"{stem}_count", f"{stem}_fill"


def is_movement(name: str) -> bool:
    """Whether `@name` is a data-movement function the pass emitted."""
    return name.endswith(MOVEMENT_SUFFIX) or (
        re.fullmatch(rf".+{MOVEMENT_SUFFIX}_bsr[0-9]+_(count|fill)", name) is not None
    )


@dataclass(frozen=True)
class FormatRule:
    """The parts of a decomposition: BSR block sizes, then `partitions`
    column partitions of ELL buckets of `widths`, then the remainder."""

    partitions: int = 1
    widths: tuple[int, ...] = ()
    blocks: tuple[int, ...] = ()

    def check(self) -> None:
        if self.partitions < 1:
            raise ValueError(f"partitions={self.partitions}: at least 1 is needed")
        if any(w < 1 for w in self.widths) or list(self.widths) != sorted(
            set(self.widths)
        ):
            raise ValueError(f"widths={self.widths}: positive and increasing")
        if any(b < 2 for b in self.blocks) or len(set(self.blocks)) != len(self.blocks):
            raise ValueError(f"blocks={self.blocks}: distinct sizes of at least 2")

    @property
    def buckets(self) -> list[tuple[int, int]]:
        """(partition, width) of every ELL bucket, in argument order."""
        return [(p, w) for p in range(self.partitions) for w in self.widths]


def is_csr(enc: Encoding) -> bool:
    """(dense, compressed) levels under the identity map."""
    dense, compressed = (*enc.lvl_types, None, None)[:2]
    return (
        len(enc.lvl_types) == 2
        and enc.dim_to_lvl == AffineMap.identity(2)
        and not enc.dim_slices
        and dense is not None
        and compressed is not None
        and dense.format is DENSE
        and compressed.format is COMPRESSED
    )


def bsr_encoding(enc: Encoding, block: int) -> SparseTensorEncodingAttr:
    """MLIR's BSR encoding of `block` x `block` blocks, A's widths."""

    def split(d: int, kind: AffineBinaryOpKind) -> AffineBinaryOpExpr:
        return AffineBinaryOpExpr(kind, AffineDimExpr(d), AffineConstantExpr(block))

    div, mod = AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.Mod
    dim_to_lvl = AffineMap(
        2, 0, (split(0, div), split(1, div), split(0, mod), split(1, mod))
    )
    levels = [
        LevelType(DENSE),
        LevelType(COMPRESSED),
        LevelType(DENSE),
        LevelType(DENSE),
    ]
    return SparseTensorEncodingAttr.from_level_types(
        levels, dim_to_lvl, enc.pos_width, enc.crd_width
    )


def _width_type(width: int) -> Attribute:
    return IntegerType(width) if width else IndexType()


def bucket_types(t: TensorType[Attribute], width: int) -> list[TensorType[Attribute]]:
    """An ELL bucket's rows (R, i32), cols (R x W, i32), vals (R x W)."""
    return [
        TensorType(i32, [DYNAMIC_INDEX]),
        TensorType(i32, [DYNAMIC_INDEX, width]),
        TensorType(t.element_type, [DYNAMIC_INDEX, width]),
    ]


def part_types(t: TensorType[Attribute], rule: FormatRule) -> list[Attribute]:
    """The arguments A's parts take, in order."""
    enc = sparse_encoding(t)
    assert enc is not None
    parts: list[Attribute] = [
        TensorType(t.element_type, t.get_shape(), bsr_encoding(enc, b))
        for b in rule.blocks
    ]
    for _, w in rule.buckets:
        parts += bucket_types(t, w)
    return [*parts, t]


def movement_types(t: TensorType[Attribute], rule: FormatRule) -> list[Attribute]:
    """The data-movement function's arguments: A, bounds (M x (c + 1), i64),
    the buckets, the remainder's positions, coordinates and values."""
    enc = sparse_encoding(t)
    assert enc is not None
    types: list[Attribute] = [t, TensorType(i64, [DYNAMIC_INDEX, DYNAMIC_INDEX])]
    for _, w in rule.buckets:
        types += bucket_types(t, w)
    return [
        *types,
        TensorType(_width_type(enc.pos_width), [DYNAMIC_INDEX]),
        TensorType(_width_type(enc.crd_width), [DYNAMIC_INDEX]),
        TensorType(t.element_type, [DYNAMIC_INDEX]),
    ]


def bsr_movement_types(
    t: TensorType[Attribute], block: int
) -> tuple[list[Attribute], list[Attribute]]:
    """The BSR split's arguments: count (A, threshold (1, i64), kept blocks
    per block row, remainder entries per row (i64)); fill (A, threshold,
    the part's positions, coordinates, values, the remainder's positions,
    coordinates, values)."""
    enc = sparse_encoding(t)
    assert enc is not None
    counts = TensorType(i64, [DYNAMIC_INDEX])
    head: list[Attribute] = [t, TensorType(i64, [1])]
    level: list[Attribute] = [
        TensorType(_width_type(enc.pos_width), [DYNAMIC_INDEX]),
        TensorType(_width_type(enc.crd_width), [DYNAMIC_INDEX]),
        TensorType(t.element_type, [DYNAMIC_INDEX]),
    ]
    return [*head, counts, counts], [*head, *level, *level]


def buffer_of(value: SSAValue, e: Emitter) -> SSAValue:
    """`bufferization.to_buffer` of a dense tensor value."""
    t = value.type
    assert is_tensor_type(t)
    memref_type = MemRefType(t.element_type, t.get_shape())
    return e.value(
        bufferization.ToBufferOp.create(operands=[value], result_types=[memref_type])
    )


def decomposed_matrix(op: func.FuncOp, operand: int) -> TensorType[Attribute]:
    """The type of argument `operand`, a sparse matrix (PassFailure if not)."""
    inputs = op.function_type.inputs.data
    if not 0 <= operand < len(inputs):
        raise PassFailure(
            op,
            f"has no argument {operand} to decompose (operand={operand}; "
            f"it takes {len(inputs)} arguments)",
        )
    t = inputs[operand]
    if not (
        is_tensor_type(t) and sparse_encoding(t) is not None and len(t.get_shape()) == 2
    ):
        raise PassFailure(
            op, f"argument {operand} is {t}, not a sparse matrix to decompose"
        )
    return t


@dataclass
class DecomposeFormatArguments(RewritePattern):
    """A function's argument `operand` -> its parts' arguments, joined back
    by an `unrealized_conversion_cast` for the ops that read it; with ELL
    buckets, the data-movement function is inserted before it."""

    operand: int
    rule: FormatRule

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter) -> None:
        if not op.body.blocks or is_movement(op.sym_name.data):
            return
        t = decomposed_matrix(op, self.operand)
        enc = sparse_encoding(t)
        assert enc is not None
        if self.rule.widths and not is_csr(enc):
            raise PassFailure(
                op, f"ELL buckets (widths) decompose a CSR matrix, not {t}"
            )
        parts = part_types(t, self.rule)
        inputs = list(op.function_type.inputs.data)
        inputs[self.operand : self.operand + 1] = parts
        block = op.body.blocks[0]
        arg = block.args[self.operand]
        new_args = [
            rewriter.insert_block_argument(block, self.operand + n, p)
            for n, p in enumerate(parts)
        ]
        cast = UnrealizedConversionCastOp.create(
            operands=new_args, result_types=[t], attributes={PARTS_MARK: UnitAttr()}
        )
        rewriter.insert(cast, InsertPoint.at_start(block))
        rewriter.replace_all_uses_with(arg, cast.results[0])
        rewriter.erase_block_argument(arg)
        op.function_type = FunctionType.from_lists(
            inputs, list(op.function_type.outputs.data)
        )
        op.arg_attrs = None
        if self.rule.widths:
            emit_movement_function(op, t, self.rule, rewriter)
        if is_csr(enc):
            for block in self.rule.blocks:
                emit_bsr_movement(op, t, block, rewriter)


def emit_movement_function(
    kernel: func.FuncOp,
    t: TensorType[Attribute],
    rule: FormatRule,
    rewriter: PatternRewriter,
) -> None:
    """`@<kernel>_decompose`, before `kernel`: A's CSR buffers -> the
    buckets and the remainder."""
    name = kernel.sym_name.data + MOVEMENT_SUFFIX
    block, e = _function_before(kernel, name, movement_types(t, rule), rewriter)
    a, bounds, *rest = block.args
    crd = e.value(ops_storage.ToCoordinatesOp(a, 1))
    values = e.value(ops_storage.ToValuesOp(a))
    buffers = [buffer_of(v, e) for v in (bounds, *rest)]
    buckets = [
        BucketBuffers(p, *buffers[1 + 3 * n : 4 + 3 * n])
        for n, (p, _) in enumerate(rule.buckets)
    ]
    pos, crds, vals = buffers[-3:]
    remainder = (pos, crds, vals)
    HybMovement(crd, values, buffers[0], buckets, remainder, rule.widths[-1]).emit(e)


def _function_before(
    kernel: func.FuncOp,
    name: str,
    types: Sequence[Attribute],
    rewriter: PatternRewriter,
) -> tuple[Block, Emitter]:
    """A new function `name` of argument `types` and no results before
    `kernel`: its block, and an emitter before its return."""
    block = Block(arg_types=types)
    ret = func.ReturnOp()
    block.add_op(ret)
    rewriter.insert(
        func.FuncOp(name, (list(types), []), Region(block)),
        InsertPoint.before(kernel),
    )
    return block, Emitter(rewriter, InsertPoint.before(ret))


def emit_bsr_movement(
    kernel: func.FuncOp,
    t: TensorType[Attribute],
    block: int,
    rewriter: PatternRewriter,
) -> None:
    """The BSR split for `block` before `kernel`: a count and a fill
    function (`bsr_movement_names`) on A's CSR buffers."""
    names = bsr_movement_names(kernel.sym_name.data, block)
    for name, types in zip(names, bsr_movement_types(t, block), strict=True):
        body, e = _function_before(kernel, name, types, rewriter)
        a, threshold, *rest = body.args
        movement = BsrMovement(
            e.value(ops_storage.ToPositionsOp(a, 1)),
            e.value(ops_storage.ToCoordinatesOp(a, 1)),
            e.value(ops_storage.ToValuesOp(a)),
            block,
            e.to_index(e.load(buffer_of(threshold, e), [e.index(0)])),
        )
        buffers = [buffer_of(v, e) for v in rest]
        if len(buffers) == 2:
            movement.emit_count(e, buffers[0], buffers[1])
        else:
            movement.emit_fill(
                e,
                (buffers[0], buffers[1], buffers[2]),
                (buffers[3], buffers[4], buffers[5]),
            )


def decomposition_parts(value: SSAValue) -> Sequence[SSAValue] | None:
    """The parts a decomposed operand stands for, if it is one."""
    owner = value.owner
    if isinstance(owner, UnrealizedConversionCastOp) and PARTS_MARK in owner.attributes:
        return owner.inputs
    return None


def _depends_on(value: SSAValue, target: SSAValue, block: Block) -> bool:
    if value == target:
        return True
    owner = value.owner
    if not isinstance(owner, Operation) or owner.parent_block() is not block:
        return False
    return any(_depends_on(v, target, block) for v in owner.operands)


def is_linear_term(value: SSAValue, a: SSAValue, block: Block) -> bool:
    """`value` is `a` times factors independent of `a` (mulf, divf by an
    `a`-free value, negf)."""
    if value == a:
        return True
    owner = value.owner
    if isinstance(owner, arith.MulfOp):
        lhs, rhs = owner.lhs, owner.rhs
        if _depends_on(rhs, a, block):
            lhs, rhs = rhs, lhs
        return not _depends_on(rhs, a, block) and is_linear_term(lhs, a, block)
    if isinstance(owner, arith.DivfOp):
        return not _depends_on(owner.rhs, a, block) and is_linear_term(
            owner.lhs, a, block
        )
    if isinstance(owner, arith.NegfOp):
        return is_linear_term(owner.operand, a, block)
    return False


def is_linear_in(op: GenericOp, position: int) -> bool:
    """`op` accumulates `out + f(a)` into its one dense output, `f` linear in
    input `position` (read once)."""
    if len(op.outputs) != 1 or sparse_encoding(op.outputs[0].type) is not None:
        return False
    if [v for v in op.inputs].count(op.inputs[position]) != 1:
        return False
    block = op.body.block
    a, out = block.args[position], block.args[len(op.inputs)]
    yield_ = block.last_op
    if not isinstance(yield_, YieldOp) or len(yield_.operands) != 1:
        return False
    add = yield_.operands[0].owner
    if not isinstance(add, arith.AddfOp) or out.uses.get_length() != 1:
        return False
    term = add.rhs if add.lhs == out else add.lhs
    return out in (add.lhs, add.rhs) and is_linear_term(term, a, block)


def as_generic(
    op: GenericOp | NamedOperation, check: Callable[[GenericOp], bool]
) -> bool:
    """`check(generic)` on `op` or the generic a named op stands for (built
    for the question and erased)."""
    if isinstance(op, GenericOp):
        return bool(check(op))
    generic = generic_of(op)
    answer = bool(check(generic))
    generic.erase()
    return answer


@dataclass
class DecomposeLinearOp(RewritePattern):
    """A linalg op linear in the decomposed operand -> the same op on the
    remainder and each BSR part, chained through `outs`, then the ELL
    buckets' loops on the result's buffer."""

    rule: FormatRule

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, GenericOp | NamedOperation) or not op.res:
            return
        position = next(
            (n for n, v in enumerate(op.inputs) if decomposition_parts(v) is not None),
            None,
        )
        if position is None:
            return
        parts = decomposition_parts(op.inputs[position])
        assert parts is not None
        if not as_generic(op, lambda g: is_linear_in(g, position)):
            raise PassFailure(
                op,
                "is not linear in the decomposed operand (its body must be "
                "out + f(a), a a factor of f, read once, into one dense output)",
            )
        product = position == 0 and as_generic(op, is_two_four_product)
        if self.rule.widths and not product:
            raise PassFailure(
                op,
                "ELL buckets compute SpMV and SpMM (C += A * B, y += A * x "
                "with A first, B and C dense) only",
            )
        loops = self._parts_in_loops(op, parts) if product else set[int]()
        fill = zero_fill(op.outputs[0])
        if fill is not None and len(loops) == len(parts) and is_matrix(op):
            # C = A @ B: the first part initializes C, no zeros written first.
            result = self._product_loops(
                op, parts, loops, fill.outputs[0], rewriter, initializes=True
            )
            rewriter.replace(op, [], [result])
            if not fill.res[0].uses:
                rewriter.erase(fill)
            return
        # The remainder first: its op keeps the kernel's `outs` (written in place).
        order = [len(parts) - 1, *range(len(parts) - 1)]
        through_sparsifier = [parts[n] for n in order if n not in loops]
        result = self._chain(op, position, through_sparsifier, rewriter)
        if loops:
            result = self._product_loops(op, parts, loops, result, rewriter)
        rewriter.replace(op, [], [result])

    @staticmethod
    def _chain(
        op: GenericOp | NamedOperation,
        position: int,
        parts: Sequence[SSAValue],
        rewriter: PatternRewriter,
    ) -> SSAValue:
        """The op on each of `parts` in turn, chained through `outs`."""
        result = op.outputs[0]
        for part in parts:
            clone = op.clone()
            operands = list(clone.operands)
            operands[position] = part
            operands[len(op.inputs)] = result
            clone.operands = operands
            rewriter.insert(clone, InsertPoint.before(op))
            result = clone.results[0]
        return result

    def _parts_in_loops(
        self, op: GenericOp | NamedOperation, parts: Sequence[SSAValue]
    ) -> set[int]:
        """The parts a product computes in loops of its own: BSR parts and
        buckets; for SpMM, a CSR remainder too."""
        own = set(range(len(parts) - 1))
        remainder = sparse_encoding(parts[-1].type)
        c_type = op.outputs[0].type
        assert remainder is not None and is_tensor_type(c_type)
        if len(c_type.get_shape()) == 2 and is_csr(remainder):
            own.add(len(parts) - 1)
        return own

    def _product_loops(
        self,
        op: GenericOp | NamedOperation,
        parts: Sequence[SSAValue],
        loops: set[int],
        result: SSAValue,
        rewriter: PatternRewriter,
        initializes: bool = False,
    ) -> SSAValue:
        """The loops of the parts in `loops` on the result's buffer, adding
        to it; `initializes`: C = A @ B (`output_writes`), the first BSR part
        or else the remainder initializing C, computed first, and buckets
        overwriting their rows where the columns are one partition.

        Every part's shapes are checked first, and the loops run in the
        branch of one `scf.if` where all agree, the reports in the other:
        a refused call writes nothing (`native_checks.reports_while_running`
        reads it so, and the caller's C is not copied before a call)."""
        e = Emitter(rewriter, InsertPoint.before(op))
        b, c = buffer_of(op.inputs[1], e), buffer_of(result, e)
        blocks = self.rule.blocks
        first = len(blocks)
        buckets = [
            tuple(buffer_of(v, e) for v in parts[first + 3 * n : first + 3 * n + 3])
            for n in range(len(self.rule.buckets))
        ]
        checks = [
            (level_shapes_agree(e, parts[n], block, b, c), PART_SHAPE_ERROR)
            for n, block in enumerate(blocks)
        ]
        checks += [
            (EllProduct(rows, cols, vals, b, c).shapes_agree(e), ELL_SHAPE_ERROR)
            for rows, cols, vals in buckets
        ]
        if len(parts) - 1 in loops:
            checks.append((level_shapes_agree(e, parts[-1], 1, b, c), PART_SHAPE_ERROR))

        def product(inner: Emitter) -> list[SSAValue]:
            out = Output(c)
            if initializes:
                out = Output(
                    c, Write.INITIALIZE, rows_stream(inner, c, vector_lanes(c))
                )
            remainder_first = initializes and not blocks
            if remainder_first:
                level_product(inner, parts[-1], 1, b, out)
            for part, block in zip(parts[: len(blocks)], blocks, strict=True):
                level_product(inner, part, block, b, out)
                out = out.with_write(Write.ACCUMULATE)
            bucket_write = Write.ACCUMULATE
            if remainder_first and self.rule.partitions == 1:
                bucket_write = Write.OVERWRITE
            for rows, cols, vals in buckets:
                EllProduct(rows, cols, vals, b, c, bucket_write, out.streams).emit(
                    inner
                )
            if len(parts) - 1 in loops and not remainder_first:
                level_product(inner, parts[-1], 1, b, out.with_write(Write.ACCUMULATE))
            return []

        def report(inner: Emitter) -> list[SSAValue]:
            for agree, message in checks:
                inner.when(
                    inner.cmp(agree, "eq", inner.constant(0, i1)),
                    lambda reporter, m=message: reporter.runtime_error(m),
                )
            return []

        e.branch(e.all_of([agree for agree, _ in checks]), product, report)
        return e.op(to_tensor(c, result.type)).results[0]


def level_shapes_agree(
    e: Emitter, part: SSAValue, block: int, b: SSAValue, c: SSAValue
) -> SSAValue:
    """Whether a BSR (`block` > 1) or CSR (`block` 1) part's sizes agree
    with B and C and are multiples of the block (an i1)."""
    rows = e.value(tensor.DimOp(part, e.index(0)))
    columns = e.value(tensor.DimOp(part, e.index(1)))
    size = e.index(block)
    zero = e.index(0)
    return e.all_of(
        [
            e.cmp(rows, "eq", e.dim(c, 0)),
            e.cmp(columns, "eq", e.dim(b, 0)),
            e.cmp(e.value(arith.RemUIOp(rows, size)), "eq", zero),
            e.cmp(e.value(arith.RemUIOp(columns, size)), "eq", zero),
        ]
    )


def level_product(
    e: Emitter, part: SSAValue, block: int, b: SSAValue, out: Output
) -> None:
    """The product on a BSR (`block` > 1) or CSR (`block` 1) argument's
    level buffers, whose sizes agree with B and C (`level_shapes_agree`,
    checked by the caller first)."""
    positions = e.value(ops_storage.ToPositionsOp(part, 1))
    coordinates = e.value(ops_storage.ToCoordinatesOp(part, 1))
    values = e.value(ops_storage.ToValuesOp(part))
    c = out.buffer
    if block == 1:
        CsrRowProduct(
            positions, coordinates, values, b, c, out.write, out.streams
        ).emit(e)
    else:
        BsrProduct(
            positions, coordinates, values, block, b, c, out.write, out.streams
        ).emit(e)


def zero_fill(value: SSAValue) -> FillOp | None:
    """The `linalg.fill` of +0.0 that produced `value`, if one did."""
    fill = value.owner
    if not isinstance(fill, FillOp) or len(fill.inputs) != 1:
        return None
    constant = fill.inputs[0].owner
    if not isinstance(constant, arith.ConstantOp):
        return None
    zero = constant.value
    if not isinstance(zero, FloatAttr):
        return None
    v = zero.value.data
    return fill if v == 0.0 and math.copysign(1.0, v) > 0 else None


def is_matrix(op: Operation) -> bool:
    """Whether the op's (first) output is a matrix."""
    t = op.results[0].type
    return is_tensor_type(t) and len(t.get_shape()) == 2


def vector_lanes(c: SSAValue) -> int:
    """Elements of a float memref per vector of the loops (`VECTOR_BITS`)."""
    return VECTOR_BITS // float_bit_width(c)


def drop_unused_casts(module: ModuleOp) -> None:
    """Erase the casts that stood for a decomposed operand once nothing reads
    them; a reader left behind is refused."""
    for op in list(module.walk()):
        if not isinstance(op, UnrealizedConversionCastOp):
            continue
        if decomposition_parts(op.results[0]) is None:
            continue
        use = next(iter(op.results[0].uses), None)
        if use is not None:
            raise PassFailure(
                use.operation,
                "reads the decomposed operand; sparse-decompose-format rewrites "
                "only linalg ops linear in it",
            )
        op.detach()
        op.erase()


@dataclass(frozen=True)
class SparseDecomposeFormatPass(ModulePass):
    """SparseTIR's DecomposeFormat (seed 002): `operand` (a function argument
    position) into BSR parts (`blocks`), ELL buckets (`partitions` x
    `widths`) and a remainder in its own format."""

    name = "sparse-decompose-format"

    operand: int = 0
    partitions: int = 1
    widths: tuple[int, ...] = field(default=())
    blocks: tuple[int, ...] = field(default=())

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rule = FormatRule(self.partitions, tuple(self.widths), tuple(self.blocks))
        try:
            rule.check()
        except ValueError as e:
            raise PassFailure(op, f"bad rule: {e}") from None
        IterativeRewriteWalker(
            LocatingApplier([DecomposeFormatArguments(self.operand, rule)]),
            apply_recursively=False,
        ).rewrite_module(op)
        IterativeRewriteWalker(
            LocatingApplier([DecomposeLinearOp(rule)])
        ).rewrite_module(op)
        drop_unused_casts(op)
