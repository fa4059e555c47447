"""n-D vectors taken apart into 1-D ones, which the LLVM lowering takes.

Mirrors MLIR 22's `DecomposePrintOpConversion` (VectorToSCF.cpp: an n-D
`vector.print` prints its rows as 1-D vectors between punctuation) and the
folds MLIR's vector unrolling relies on: `vector.extract` of a
`vector.transfer_read` (a read of lower rank, whole rows of padding where an
outer index runs past the end), of a constant, and of a broadcast scalar. An
n-D vector that reaches the LLVM lowering some other way is refused there.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, vector
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    BoolAttr,
    DenseIntOrFPElementsAttr,
    VectorType,
)
from xdsl.dialects.tensor import DimOp as TensorDimOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.sparse_tensor.ops_common import constant_int
from xsparse.dialects.type_guards import (
    is_memref_type,
    is_tensor_type,
    is_vector_type,
)
from xsparse.dialects.upstream.vector import PrintOp, PrintPunctuation
from xsparse.transforms.codegen_utils.emitter import Emitter


def _fixed_vector(t: Attribute, min_rank: int) -> VectorType | None:
    """`t` if it is a vector of at least `min_rank` fixed-size dimensions."""
    if not is_vector_type(t) or t.get_num_scalable_dims():
        return None
    return t if t.get_num_dims() >= min_rank else None


def _sub_type(t: VectorType, dropped: int) -> Attribute:
    """The type of `vector.extract` of `dropped` positions from `t`."""
    shape = t.get_shape()[dropped:]
    return VectorType(t.element_type, shape) if shape else t.element_type


class DecomposePrint(RewritePattern):
    """`vector.print` of an n-D vector (n >= 2) -> `( ( row, row ), ... )`:
    each 1-D row a `vector.extract` printed without punctuation, then the
    op's own punctuation; of a 0-D vector -> `( x )`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PrintOp, rewriter: PatternRewriter) -> None:
        if op.source is None:
            return
        t = _fixed_vector(op.source.type, 0)
        if t is None or t.get_num_dims() == 1:
            return
        if t.get_num_dims() == 0:  # `( x )`
            element = vector.ExtractOp(op.source, [], t.element_type)
            new: list[Operation] = [
                PrintOp(punctuation=PrintPunctuation.OPEN),
                element,
                PrintOp(element.result, PrintPunctuation.NO_PUNCTUATION),
                PrintOp(punctuation=PrintPunctuation.CLOSE),
            ]
        else:
            new = self._nest(op.source, t, [])
        if op.punctuation.data != PrintPunctuation.NO_PUNCTUATION:
            new.append(PrintOp(punctuation=op.punctuation.data))
        rewriter.replace_op(op, new, [])

    def _nest(
        self, source: SSAValue, t: VectorType, prefix: list[int]
    ) -> list[Operation]:
        """The prints of `source[prefix...]`."""
        if len(prefix) == t.get_num_dims() - 1:
            row = vector.ExtractOp(source, prefix, _sub_type(t, len(prefix)))
            return [row, PrintOp(row.result, PrintPunctuation.NO_PUNCTUATION)]
        ops: list[Operation] = [PrintOp(punctuation=PrintPunctuation.OPEN)]
        n = t.get_shape()[len(prefix)]
        for i in range(n):
            ops += self._nest(source, t, [*prefix, i])
            if i + 1 < n:
                ops.append(PrintOp(punctuation=PrintPunctuation.COMMA))
        ops.append(PrintOp(punctuation=PrintPunctuation.CLOSE))
        return ops


def _static_position(op: vector.ExtractOp) -> list[int] | None:
    position = list(op.static_position.get_values())
    return None if DYNAMIC_INDEX in position else position


class SplitScalarExtract(RewritePattern):
    """`vector.extract %v[i, .., k]` of a scalar from an n-D vector -> the
    1-D row `%v[i, ..]`, then its element `k`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.ExtractOp, rewriter: PatternRewriter
    ) -> None:
        t = _fixed_vector(op.vector.type, 2)
        position = _static_position(op)
        if t is None or position is None or is_vector_type(op.result.type):
            return
        row = vector.ExtractOp(
            op.vector, position[:-1], _sub_type(t, len(position) - 1)
        )
        element = vector.ExtractOp(row.result, position[-1:], op.result.type)
        rewriter.replace_op(op, [row, element])


def _size(e: Emitter, source: SSAValue, d: int) -> SSAValue:
    """Dimension `d` of a tensor or memref: a constant where static."""
    t = source.type
    if is_memref_type(t):
        return e.size(source, d)
    assert is_tensor_type(t)
    static = t.get_shape()[d]
    if static != DYNAMIC_INDEX:
        return e.index(static)
    return e.value(TensorDimOp(source, e.index(d)))


def _shifted(e: Emitter, index: SSAValue, by: int) -> SSAValue:
    """`index + by`, a constant where `index` is one."""
    known = constant_int(index)
    if known is not None:
        return e.index(known + by)
    return e.add(index, e.index(by)) if by else index


def _minor_identity(rank: int, results: int) -> AffineMapAttr:
    dims = [AffineDimExpr(d) for d in range(rank - results, rank)]
    return AffineMapAttr(AffineMap(rank, 0, tuple(dims)))


class ExtractOfTransferRead(RewritePattern):
    """`vector.extract %r[i, ..]` of a vector from `%r = vector.transfer_read`
    (unmasked, minor identity) -> a transfer_read of the row at the shifted
    indices; a row whose outer index may run past the end is read under an
    `scf.if` and is all padding otherwise (MLIR's transfer semantics)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.ExtractOp, rewriter: PatternRewriter
    ) -> None:
        read = op.vector.owner
        position = _static_position(op)
        row_type = op.result.type
        if (
            not isinstance(read, vector.TransferReadOp)
            or read.mask is not None
            or position is None
            or not is_vector_type(row_type)
        ):
            return
        t = _fixed_vector(read.result.type, 2)
        rank = len(read.indices)
        if t is None or read.permutation_map != _minor_identity(rank, t.get_num_dims()):
            return
        e = Emitter(rewriter, InsertPoint.before(op))
        first = rank - t.get_num_dims()
        indices = list(read.indices)
        in_bounds = [b.value.data for b in read.in_bounds.data]
        checks: list[SSAValue] = []
        for j, p in enumerate(position):
            d = first + j
            indices[d] = _shifted(e, indices[d], p)
            if not in_bounds[j]:
                checks += self._check(e, read.source, d, indices[d])
        if checks and any(constant_int(c) == 0 for c in checks):
            rewriter.replace_op(op, vector.BroadcastOp(read.padding, row_type))
            return
        row = self._read(read, indices, row_type, in_bounds[len(position) :])
        if not checks:
            rewriter.replace_op(op, row)
            return
        (result,) = e.branch(
            e.all_of(checks),
            lambda b: [b.value(row)],
            lambda b: [b.value(vector.BroadcastOp(read.padding, row_type))],
        )
        rewriter.replace_op(op, [], [result])

    @staticmethod
    def _check(e: Emitter, source: SSAValue, d: int, index: SSAValue) -> list[SSAValue]:
        """`index < size(d)`: a constant where both are, nothing when true."""
        size = _size(e, source, d)
        known_index, known_size = constant_int(index), constant_int(size)
        if known_index is not None and known_size is not None:
            if known_index < known_size:
                return []
            return [e.value(arith.ConstantOp.from_int_and_width(0, 1))]
        return [e.cmp(index, "ult", size)]

    @staticmethod
    def _read(
        read: vector.TransferReadOp,
        indices: Sequence[SSAValue],
        row_type: VectorType,
        in_bounds: Sequence[int],
    ) -> vector.TransferReadOp:
        return vector.TransferReadOp(
            read.source,
            indices,
            read.padding,
            row_type,
            ArrayAttr([BoolAttr.from_bool(bool(b)) for b in in_bounds]),
            _minor_identity(len(indices), row_type.get_num_dims()),
        )


class ExtractOfExtract(RewritePattern):
    """`vector.extract` of a row of a `vector.extract` -> one extract of both
    positions (a scalar stays an element of its row: `SplitScalarExtract`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.ExtractOp, rewriter: PatternRewriter
    ) -> None:
        inner = op.vector.owner
        if not isinstance(inner, vector.ExtractOp) or not is_vector_type(
            op.result.type
        ):
            return
        outer_position, inner_position = _static_position(op), _static_position(inner)
        if outer_position is None or inner_position is None:
            return
        position = inner_position + outer_position
        rewriter.replace_op(
            op, vector.ExtractOp(inner.vector, position, op.result.type)
        )


class ExtractOfConstant(RewritePattern):
    """`vector.extract` of a constant vector -> the constant row or element."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.ExtractOp, rewriter: PatternRewriter
    ) -> None:
        constant = op.vector.owner
        position = _static_position(op)
        if (
            not isinstance(constant, arith.ConstantOp)
            or not isinstance(constant.value, DenseIntOrFPElementsAttr)
            or position is None
        ):
            return
        t = constant.value.get_type()
        assert is_vector_type(t)
        shape = t.get_shape()
        offset = 0
        for p, n in zip(position, shape, strict=False):
            offset = offset * n + p
        row = shape[len(position) :]
        count = 1
        for n in row:
            count *= n
        values = list(constant.value.get_values())
        if len(values) == 1:  # a splat
            values = values * (offset + 1) * count
        chunk = values[offset * count : (offset + 1) * count]
        result_type = op.result.type
        if is_vector_type(result_type):
            attr = DenseIntOrFPElementsAttr.from_list(result_type, chunk)
            rewriter.replace_op(op, arith.ConstantOp(attr, result_type))
            return
        e = Emitter(rewriter, InsertPoint.before(op))
        rewriter.replace_op(op, [], [e.constant(chunk[0], result_type)])


class ExtractOfBroadcast(RewritePattern):
    """`vector.extract` of a broadcast scalar -> the scalar, or its broadcast
    to the row's type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.ExtractOp, rewriter: PatternRewriter
    ) -> None:
        broadcast = op.vector.owner
        if not isinstance(broadcast, vector.BroadcastOp) or is_vector_type(
            broadcast.source.type
        ):
            return
        if is_vector_type(op.result.type):
            rewriter.replace_op(
                op, vector.BroadcastOp(broadcast.source, op.result.type)
            )
        else:
            rewriter.replace_op(op, [], [broadcast.source])


class EraseUnusedRead(RewritePattern):
    """A `vector.transfer_read` nothing uses any more (its rows are read
    apart) -> erased."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.TransferReadOp, rewriter: PatternRewriter
    ) -> None:
        if not op.result.uses:
            rewriter.erase_op(op)


VECTOR_UNROLLING_PATTERNS: tuple[RewritePattern, ...] = (
    DecomposePrint(),
    SplitScalarExtract(),
    ExtractOfExtract(),
    ExtractOfTransferRead(),
    ExtractOfConstant(),
    ExtractOfBroadcast(),
    EraseUnusedRead(),
)
