"""Sparse tensor concatenation by rewriting level buffers (part of `sparse-tensor-codegen`).

MLIR 22 lowers `sparse_tensor.concatenate` in `lower-sparse-ops-to-foreach`
(SparseTensorRewriting.cpp, ConcatenateRewriter): a `foreach` over every
operand inserts each nonzero into a fresh tensor, through a COO temporary when
the insertion order is not the result's. The RFC "Structured Codegen Beyond
Rectangular Arrays" (seed 003, "ConcatOp") asks for concat to lower without
that detour. xsparse builds the result's level buffers directly from the
operands' buffers (`xsparse.dialects.sparse_tensor.storage`), for
`sparse_tensor.concatenate` and for `subset.concat` of sparse tensors alike:

* along a level with only dense levels above it (CSR along either dimension,
  CSC along either, DCSR and COO along rows, sparse vectors, CSF along its
  outer dimension): per position of those dense levels (one position when the
  level is the outermost), each operand's entries of the level are appended to
  the result, with everything stored under them. Coordinates of the
  concatenated level are shifted by the operand's offset; positions below it
  are rebased by the entries appended before; coordinates below it and values
  are plain copies (`ConcatenateUnderDenseLevels`);
* along the second level under a compressed outer level (DCSR and COO along
  columns): one sweep over the outer coordinates takes from each operand the
  run of entries with that coordinate (`ConcatenateUnderCompressedLevel`);
* operands in another encoding than the result's are converted to it first
  (`ConvertConcatenateOperands`); a result whose encoding neither rule covers
  (blocked maps, `loose_compressed`, deeper levels under compressed ones) or a
  dense result is built from a dense buffer into which every operand's entries
  are scattered at their offset (`ConcatenateThroughDense`).

When the concatenated level is a dense outermost one (CSR along rows) and the
first operand is built in the same function for this concatenation only, its
buffers become the result's, grown in place, and only the other operands are
copied after its entries (the RFC's "inverting the flow of SSA values");
operands built for the concatenation only are freed once copied (`owned_by`).

A sparse result stores nonzeros only, as MLIR's rewriter inserts only those
(dense operands' zeros, and explicit zeros stored by sparse operands, are left
out): where a scan of the built result finds a zero value, `DropZeros`
compacts its buffers in place. Result buffers of 4 MiB or more ask Linux for transparent huge
pages, as numpy's arrays do (`alloc_large`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IndexType,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.sparse_tensor.encoding import Encoding
from xsparse.dialects.sparse_tensor.levels import (
    LevelType,
)
from xsparse.dialects.sparse_tensor.ops_conversion import ConcatenateOp, ConvertOp
from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.dialects.subset import ConcatOp
from xsparse.dialects.type_guards import is_memref_type, is_tensor_type
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.dialects.upstream.memref import ReallocOp
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.codegen_utils.op_emitter import INDEX
from xsparse.transforms.storage.level_buffers import (
    FieldKey,
    LevelStorage,
    alloc_below,
    alloc_large,
    as_tensor,
    buffer_type,
    buffer_type_of,
    build_storage_at_runtime,
    dense_buffer_type,
    is_nonzero,
    operand_dims,
    scatter_entries,
    storage_result,
    storage_value,
)
from xsparse.transforms.storage.overhead_widths import (
    check_coordinate,
    overhead_bits,
    positions_fit,
)

AnyConcat = ConcatenateOp | ConcatOp


# ---------------------------------------------------------------------------
# Level buffers of sparse values
# ---------------------------------------------------------------------------


def copy_range(
    e: Emitter,
    source: SSAValue,
    lo: SSAValue,
    hi: SSAValue,
    target: SSAValue,
    at: SSAValue,
    shift: SSAValue | None = None,
    positions: bool = False,
) -> None:
    """`target[at + i] = source[lo + i] (+ shift)` for i < hi - lo: a copy loop
    (the shift is added in the element type, modulo its width). Shifted
    positions (`positions`: the largest is the last) and coordinates that
    the target's width cannot hold are reported (`overhead_widths`)."""
    t = target.type
    assert is_memref_type(t)
    delta = e.sub(at, lo)
    step = None if shift is None else e.from_index(shift, t.element_type)

    def move(b: Emitter, i: SSAValue) -> None:
        v = b.load(source, [i])
        if step is not None:
            assert shift is not None
            if not positions:
                check_coordinate(b, b.add(b.to_index(v), shift), t.element_type, None)
            v = b.value(arith.AddiOp(v, step))
        b.store(v, target, [b.add(i, delta)])

    e.for_each(lo, hi, move)
    if positions and shift is not None and overhead_bits(t.element_type) < 64:

        def last(b: Emitter) -> None:
            end = b.to_index(b.load(source, [b.sub(hi, b.index(1))]))
            positions_fit(b, b.add(end, shift), t.element_type)

        e.when(e.cmp(hi, "ugt", lo), last)


@dataclass
class SubtreeCopy:
    """Copies ranges of entries of one level of a sparse tensor, with everything
    stored under them, into the buffers of a result whose levels from there on
    have the same formats."""

    source: LevelStorage
    target: dict[FieldKey, SSAValue]

    def entries(
        self,
        e: Emitter,
        level: int,
        lo: SSAValue,
        hi: SSAValue,
        at: SSAValue,
        shift: SSAValue | None = None,
    ) -> None:
        """Entries [lo, hi) of `level` to the result's entries from `at`, their
        coordinates shifted by `shift`."""
        if self.source.encoding.lvl_types[level].format.has_coordinates:
            crd = self.source.coordinates(level)
            copy_range(e, crd, lo, hi, self.target["coordinates", level], at, shift)
        self.children(e, level, lo, hi, at)

    def children(
        self, e: Emitter, level: int, lo: SSAValue, hi: SSAValue, at: SSAValue
    ) -> None:
        """What is stored under entries [lo, hi) of `level`, to the result's
        entries from `at`: the children of a range of entries are a range."""
        below = level + 1
        enc = self.source.encoding
        if below == enc.lvl_rank:
            copy_range(e, self.source.values, lo, hi, self.target["values", -1], at)
            return
        lt = enc.lvl_types[below]
        fmt = lt.format
        if fmt.is_branchless:
            self.entries(e, below, lo, hi, at)
        elif not fmt.has_positions:  # dense, or structured[n, m]: n per block
            n = self.source.size(below) if fmt.is_dense else e.index(lt.n)
            self.entries(e, below, e.mul(lo, n), e.mul(hi, n), e.mul(at, n))
        else:
            pos = self.source.positions(below)
            out = self.target["positions", below]
            first = e.to_index(e.load(pos, [lo]))
            last = e.to_index(e.load(pos, [hi]))
            start = e.to_index(e.load(out, [at]))
            one = e.index(1)
            copy_range(
                e,
                pos,
                e.add(lo, one),
                e.add(hi, one),
                out,
                e.add(at, one),
                e.sub(start, first),
                positions=True,
            )
            self.entries(e, below, first, last, start)


def _unbatched_dense(lt: LevelType) -> bool:
    return lt.format.is_dense and not lt.format.is_batched


def _compressed(lt: LevelType) -> bool:
    """A compressed level: positions as one range per parent."""
    return lt.format.has_positions and lt.format.is_compact


def copyable_below(lts: Sequence[LevelType]) -> bool:
    """Levels whose entries `SubtreeCopy` moves as ranges."""
    return all(
        lt.format.is_compact  # children of a range are a range
        and not lt.format.is_batched
        and (lt.n > 0 or not lt.format.is_padded)
        for lt in lts
    )


"""Buffers of this many bytes or more ask for transparent huge pages (numpy's
threshold for its own arrays)."""

"""Linux 5.14+: fault the range in now, writable (older kernels refuse it with
EINVAL and the pages fault on first write as before)."""


# ---------------------------------------------------------------------------
# Zeros left out
# ---------------------------------------------------------------------------


def zeros_droppable(enc: Encoding, element_type: Attribute) -> bool:
    """`DropZeros` applies: dense, compressed and singleton levels, a real
    element type, some level not dense (MLIR's all-dense result keeps zeros)."""
    kinds = [
        _unbatched_dense(lt)
        or _compressed(lt)
        or (lt.format.is_branchless and not lt.format.is_padded)
        for lt in enc.lvl_types
    ]
    return (
        all(kinds)
        and not all(_unbatched_dense(lt) for lt in enc.lvl_types)
        and isinstance(element_type, IntegerType | IndexType | AnyFloat)
    )


@dataclass
class DropZeros:
    """Leaves the zero values out of a sparse tensor's storage, in place: the
    storage that inserting only the nonzeros builds (MLIR 22's
    ConcatenateRewriter checks each value with `genIsNonzero`). An entry of a
    compressed level stays where something under it is nonzero; a dense
    level's block stays whole with its parent. One pass over the entries,
    each written at or before the place it is read from; the level buffers
    are then shrunk to the entries kept."""

    encoding: Encoding
    out: dict[FieldKey, SSAValue]
    sizes: list[SSAValue]

    @property
    def compressed(self) -> list[int]:
        return [
            lvl for lvl, lt in enumerate(self.encoding.lvl_types) if _compressed(lt)
        ]

    def run(self, e: Emitter) -> None:
        """Where some stored value is zero, drop it (a scan decides)."""
        values = self.out["values", -1]
        false = e.constant(0, IntegerType(1))

        def scan(b: Emitter, i: SSAValue, found: list[SSAValue]) -> list[SSAValue]:
            zero = b.value(
                arith.XOrIOp(
                    is_nonzero(b, b.load(values, [i])), b.constant(1, IntegerType(1))
                )
            )
            return [b.value(arith.OrIOp(found[0], zero))]

        has_zero = e.loop(e.index(0), e.dim(values), [false], scan)[0]
        rank = self.encoding.lvl_rank
        keys = sorted(  # in storage order: by level, positions first, values last
            (k for k in self.out if k[0] != "level_size" and k != ("positions", 0)),
            key=lambda k: (rank if k[1] < 0 else k[1], k[0] != "positions"),
        )
        kept = e.branch(
            has_zero,
            lambda b: self.compact(b, keys),
            lambda b: [self.out[k] for k in keys],
        )
        self.out.update(zip(keys, kept, strict=True))

    def compact(self, e: Emitter, keys: Sequence[FieldKey]) -> list[SSAValue]:
        """The compaction, then the buffers of `keys` shrunk to what is kept."""
        zero = e.index(0)
        state = [zero] * (2 * len(self.compressed))
        _, state = self.subtree(e, 0, zero, zero, state)
        count = e.index(1)
        shrunk = dict(self.out)
        for lvl, lt in enumerate(self.encoding.lvl_types):
            if _unbatched_dense(lt):
                count = e.mul(count, self.sizes[lvl])
                continue
            if _compressed(lt):
                if lvl:
                    shrunk["positions", lvl] = self.shrink(
                        e, ("positions", lvl), e.add(count, e.index(1))
                    )
                count = state[self.compressed.index(lvl)]
            shrunk["coordinates", lvl] = self.shrink(e, ("coordinates", lvl), count)
        shrunk["values", -1] = self.shrink(e, ("values", -1), count)
        return [shrunk[k] for k in keys]

    def shrink(self, e: Emitter, key: FieldKey, size: SSAValue) -> SSAValue:
        buffer = self.out[key]
        return e.value(ReallocOp(buffer, size, buffer_type_of(buffer)))

    def subtree(
        self,
        e: Emitter,
        level: int,
        read: SSAValue,
        write: SSAValue,
        state: list[SSAValue],
    ) -> tuple[SSAValue, list[SSAValue]]:
        """What is stored under the entry at `read` of the level above `level`
        (the root for level 0) moved under the entry at `write`; whether
        anything under it is nonzero. `state` holds, per compressed level, the
        entries written so far, then where the next parent's entries start in
        the buffers as they were."""
        if level == self.encoding.lvl_rank:
            values = self.out["values", -1]
            v = e.load(values, [read])
            e.store(v, values, [write])
            return is_nonzero(e, v), state
        lt = self.encoding.lvl_types[level]
        if _unbatched_dense(lt):
            n = self.sizes[level]

            def block(
                b: Emitter, i: SSAValue, carried: list[SSAValue]
            ) -> list[SSAValue]:
                found, *rest = carried
                below, rest = self.subtree(
                    b,
                    level + 1,
                    b.add(b.mul(read, n), i),
                    b.add(b.mul(write, n), i),
                    rest,
                )
                return [b.value(arith.OrIOp(found, below)), *rest]

            false = e.constant(0, IntegerType(1))
            found, *state = e.loop(e.index(0), n, [false, *state], block)
            return found, state
        crd = self.out["coordinates", level]
        if not _compressed(lt):  # singleton: one entry per parent
            e.store(e.load(crd, [read]), crd, [write])
            return self.subtree(e, level + 1, read, write, state)
        return self.compressed_entries(e, level, read, write, state)

    def compressed_entries(
        self,
        e: Emitter,
        level: int,
        read: SSAValue,
        write: SSAValue,
        state: list[SSAValue],
    ) -> tuple[SSAValue, list[SSAValue]]:
        """A compressed level's entries under one parent: each kept where
        something under it is nonzero (else the entries written under it are
        taken back), then the parent's end position."""
        j = self.compressed.index(level)
        counts = len(self.compressed)
        pos, crd = self.out["positions", level], self.out["coordinates", level]
        one = e.index(1)
        lo, hi = state[counts + j], e.to_index(e.load(pos, [e.add(read, one)]))
        start = state[j]

        def entry(b: Emitter, k: SSAValue, before: list[SSAValue]) -> list[SSAValue]:
            at = before[j]
            b.store(b.load(crd, [k]), crd, [at])
            found, after = self.subtree(b, level + 1, k, at, before)
            kept = [
                b.select(found, new, old)
                for new, old in zip(after[:counts], before[:counts], strict=True)
            ]
            kept[j] = b.select(found, b.add(at, one), at)
            return [*kept, *after[counts:]]

        state = e.loop(lo, hi, state, entry)
        end = state[j]
        pos_type = buffer_type_of(pos)
        e.store(e.from_index(end, pos_type.element_type), pos, [e.add(write, one)])
        state[counts + j] = hi
        return e.cmp(end, "ugt", start), state


# ---------------------------------------------------------------------------
# Concatenation
# ---------------------------------------------------------------------------


def concat_dim(op: AnyConcat) -> int:
    return op.dimension.value.data


def concat_level(enc: Encoding, dim: int) -> int | None:
    """The level that stores dimension `dim`, when levels permute dimensions."""
    if enc.dim_slices:
        return None
    results = enc.dim_to_lvl.results
    if (
        sorted(r.position for r in results if isinstance(r, AffineDimExpr))
        != list(range(enc.dim_rank))
        or len(results) != enc.dim_rank
    ):
        return None
    return results.index(AffineDimExpr(dim))


def under_dense_levels(enc: Encoding, level: int) -> bool:
    """`ConcatenateUnderDenseLevels` applies along `level`."""
    lts = enc.lvl_types
    return (
        all(_unbatched_dense(lt) for lt in lts[:level])
        and (_unbatched_dense(lts[level]) or _compressed(lts[level]))
        and copyable_below(lts[level:])
    )


def under_compressed_level(enc: Encoding, level: int) -> bool:
    """`ConcatenateUnderCompressedLevel` applies along `level`."""
    lts = enc.lvl_types
    if level != 1 or not _compressed(lts[0]):
        return False
    inner = lts[1].format.is_branchless if lts[0].nonunique else _compressed(lts[1])
    return inner and copyable_below(lts[1:])


def direct_concat_level(result_type: Attribute, dim: int) -> int | None:
    """The concatenated level when the result's levels are built directly."""
    enc = sparse_encoding(result_type)
    level = None if enc is None else concat_level(enc, dim)
    if enc is None or level is None:
        return None
    if under_dense_levels(enc, level) or under_compressed_level(enc, level):
        return level
    return None


@dataclass
class Concat:
    """A concatenation whose operands are all in the result's encoding, with
    what each of its rewrites emits first: the result's level sizes, every
    operand's offset in the concatenated level, the result's buffers from that
    level down and a copier per operand."""

    result_type: TensorType[Attribute]
    encoding: Encoding
    level: int
    e: Emitter
    at: InsertPoint
    sizes: list[SSAValue]
    offsets: list[SSAValue | None]
    """None for the first operand (offset 0)."""
    out: dict[FieldKey, SSAValue]
    copies: list[SubtreeCopy]
    in_place: bool
    """The result is the first operand's buffers grown (its entries stay)."""
    spent: list[SSAValue]
    """Buffers of operands built in this function for this concatenation only,
    freed once copied."""

    @staticmethod
    def start(
        op: AnyConcat, rewriter: PatternRewriter, rule: Callable[[Encoding, int], bool]
    ) -> Concat | None:
        """The rewrite of `op` when `rule` holds for its result's encoding and
        concatenated level and every operand is lowered, in that encoding."""
        result_type = op.result.type
        enc = sparse_encoding(result_type)
        level = None if enc is None else concat_level(enc, concat_dim(op))
        if enc is None or level is None or not rule(enc, level):
            return None
        assert is_tensor_type(result_type)
        operands: list[LevelStorage] = []
        for v in op.inputs:
            storage = LevelStorage.of(v)
            if storage is None or storage.encoding != enc:
                return None
            operands.append(storage)
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        sizes = [
            e.total([s.size(lvl) for s in operands])
            if lvl == level
            else operands[0].size(lvl)
            if _static_level(op, enc, lvl)
            else _agreed_size(e, [s.size(lvl) for s in operands], enc, lvl)
            for lvl in range(enc.lvl_rank)
        ]
        offsets: list[SSAValue | None] = [None]
        for s in operands[:-1]:
            size = s.size(level)
            running = offsets[-1]
            offsets.append(size if running is None else e.add(running, size))
        in_place = (
            level == 0
            and _unbatched_dense(enc.lvl_types[0])
            and owned_by(operands[0], op.inputs[0], op)
        )
        reuse = operands[0] if in_place else None
        spent = [
            buffer
            for i, (s, v) in enumerate(zip(operands, op.inputs, strict=True))
            if (i or not in_place) and owned_by(s, v, op)
            for (kind, _), buffer in s.fields.items()
            if kind != "level_size"
        ]
        out = alloc_below(e, result_type, operands, level, reuse)
        copies = [SubtreeCopy(s, out) for s in operands]
        return Concat(
            result_type,
            enc,
            level,
            e,
            at,
            sizes,
            offsets,
            out,
            copies,
            in_place,
            spent,
        )

    def finish(self, op: AnyConcat) -> None:
        """Replace `op` by the result's storage, its zeros left out."""
        if zeros_droppable(self.encoding, self.result_type.element_type):
            DropZeros(self.encoding, self.out, self.sizes).run(self.e)
        self.out.update({("level_size", lvl): s for lvl, s in enumerate(self.sizes)})
        for buffer in self.spent:
            self.e.op(memref.DeallocOp.get(buffer))
        rewriter = self.e.rewriter
        result = storage_result(self.out, self.result_type, rewriter, self.at)
        rewriter.replace(op, [], [result])


def _static_level(op: AnyConcat, enc: Encoding, level: int) -> bool:
    """Whether every operand's type fixes the size of a level (the verifier
    has checked that they agree)."""
    expr = enc.dim_to_lvl.results[level]
    if not isinstance(expr, AffineDimExpr):
        return False
    return all(
        is_tensor_type(v.type) and v.type.get_shape()[expr.position] >= 0
        for v in op.inputs
    )


def _agreed_size(
    e: Emitter, sizes: Sequence[SSAValue], enc: Encoding, level: int
) -> SSAValue:
    """The size of a level the operands share: checked at run time where it
    is dynamic (`runtime_error` when they differ). Until the error is raised
    the kernel stays in bounds: a dense level (which the copies loop over)
    takes the smallest size, a level of stored coordinates the largest (every
    copied coordinate inside the result)."""
    dense = enc.lvl_types[level].format.is_dense
    pick = arith.MinUIOp if dense else arith.MaxUIOp
    agreed, first = sizes[0], sizes[0]
    for size in sizes[1:]:
        if size == first:
            continue
        differ = e.value(arith.CmpiOp(size, first, "ne"))
        e.when(
            differ,
            lambda b: b.runtime_error(
                f"concatenating sparse tensors whose level {level} sizes differ "
                "(only the concatenated dimension may)"
            ),
        )
        agreed = e.value(pick(agreed, size))
    return agreed


def _before(user: Operation, point: Operation) -> bool:
    """`user` (or the op enclosing it in `point`'s block) comes before `point`."""
    block = point.parent_block()
    here: Operation | None = user
    while here is not None and here.parent_block() is not block:
        here = here.parent_op()
    return (
        here is not None
        and block is not None
        and block.get_operation_index(here) < block.get_operation_index(point)
    )


BUFFER_READERS = (
    memref.LoadOp,
    memref.StoreOp,
    memref.DimOp,
    memref.ExtractAlignedPointerAsIndexOp,
)
"""Uses of a buffer that neither keep nor hand it on."""


def owned_by(storage: LevelStorage, value: SSAValue, op: AnyConcat) -> bool:
    """The concatenation `op` may take over the buffers of its operand `value`
    (the RFC's "inverting the flow of SSA values"): the value is built in this
    function, in `op`'s block or in ops before it there (every buffer a
    `memref.alloc` or `memref.realloc` of its own), is used only by `op`, and its
    buffers are read and written only before `op`."""
    if sum(1 for _ in value.uses) != 1:
        return False
    cast = value.owner
    buffers = [v for (kind, _), v in storage.fields.items() if kind != "level_size"]
    if len({id(b) for b in buffers}) != len(buffers):
        return False
    for buffer in buffers:
        owner = buffer.owner
        if not isinstance(owner, memref.AllocOp | ReallocOp) or not _before(owner, op):
            return False  # also when `op` may run again (in a loop) on the same buffer
        for use in buffer.uses:
            user = use.operation
            if user is cast:
                continue
            if not isinstance(user, BUFFER_READERS) or not _before(user, op):
                return False
    return True


class ConcatenateUnderDenseLevels(RewritePattern):
    """Concatenation along a level with only dense levels above it, operands in
    the result's encoding: for each position of the dense levels (once when the
    level is outermost), each operand's entries of the level and everything
    under them appended to the result's buffers, coordinates of the level
    shifted by the operand's offset (CSR along rows: positions rebased, then
    coordinates and values copied whole; CSR along columns: a row-wise merge)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AnyConcat, rewriter: PatternRewriter) -> None:
        plan = Concat.start(op, rewriter, under_dense_levels)
        if plan is None:
            return
        e, level, sizes = plan.e, plan.level, plan.sizes
        pairs = list(zip(plan.copies, plan.offsets, strict=True))
        parents = e.index(1) if level == 0 else sizes[0]
        for size in sizes[1:level]:
            parents = e.mul(parents, size)
        zero, one = e.index(0), e.index(1)
        if _unbatched_dense(plan.encoding.lvl_types[level]):

            def dense(b: Emitter, p: SSAValue | None) -> None:
                for copy, offset in pairs:
                    if offset is None and plan.in_place:
                        continue  # already where it belongs
                    n = copy.source.size(level)
                    lo = zero if p is None else b.mul(p, n)
                    start = zero if p is None else b.mul(p, sizes[level])
                    to = start if offset is None else b.add(start, offset)
                    copy.children(b, level, lo, b.add(lo, n), to)

            if level == 0:
                dense(e, None)
            else:
                e.for_each(zero, parents, dense)
            plan.finish(op)
            return
        pos_type = buffer_type(plan.result_type, ("positions", level))
        pos = alloc_large(e, pos_type, e.add(parents, one), populate=True)
        plan.out["positions", level] = pos
        e.store(e.from_index(zero, pos_type.element_type), pos, [zero])

        def compressed(
            b: Emitter, p: SSAValue, cursor: list[SSAValue]
        ) -> list[SSAValue]:
            q = cursor[0]
            for copy, offset in pairs:
                src = copy.source.positions(level)
                lo = b.to_index(b.load(src, [p]))
                hi = b.to_index(b.load(src, [b.add(p, one)]))
                copy.entries(b, level, lo, hi, q, offset)
                q = b.add(q, b.sub(hi, lo))
            b.store(b.from_index(q, pos_type.element_type), pos, [b.add(p, one)])
            return [q]

        if level == 0:
            entries = compressed(e, zero, [zero])[0]
        else:
            entries = e.loop(zero, parents, [zero], compressed)[0]
        positions_fit(e, entries, pos_type.element_type)  # the last position
        plan.finish(op)


def run_end(
    e: Emitter, crd: SSAValue, start: SSAValue, end: SSAValue, c: SSAValue
) -> SSAValue:
    """The first position from `start` (below `end`) whose coordinate is not `c`:
    a scan of the run of entries with coordinate `c`."""
    before = Block(arg_types=[INDEX])
    b = e.inside(before)
    q = before.args[0]
    inside = b.value(arith.CmpiOp(q, end, "ult"))
    then = Block()
    t = b.inside(then)
    same = t.value(arith.CmpiOp(t.to_index(t.load(crd, [q])), c, "eq"))
    t.op(scf.YieldOp(same))
    other = Block()
    o = b.inside(other)
    o.op(scf.YieldOp(o.constant(0, IntegerType(1))))
    cond = b.value(scf.IfOp(inside, [IntegerType(1)], [then], [other]))
    b.op(scf.ConditionOp(cond, q))
    after = Block(arg_types=[INDEX])
    a = e.inside(after)
    a.op(scf.YieldOp(a.add(after.args[0], a.index(1))))
    return e.value(scf.WhileOp([start], [INDEX], [before], [after]))


class ConcatenateUnderCompressedLevel(RewritePattern):
    """Concatenation along the second level under a compressed outer level,
    operands in the result's encoding (DCSR and COO along columns): one sweep
    over the outer coordinates; at each, every operand's run of entries with
    that coordinate, with everything under them, is appended to the result,
    coordinates shifted by the operand's offset. A DCSR result stores the outer
    coordinates that got entries."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AnyConcat, rewriter: PatternRewriter) -> None:
        plan = Concat.start(op, rewriter, under_compressed_level)
        if plan is None:
            return
        e, result_type = plan.e, plan.result_type
        coo = plan.encoding.lvl_types[0].nonunique
        zero, one = e.index(0), e.index(1)
        counts = [e.dim(c.source.coordinates(0)) for c in plan.copies]
        outer = e.total(counts)
        crd_type = buffer_type(result_type, ("coordinates", 0))
        crd = alloc_large(e, crd_type, outer)
        inner_pos: SSAValue | None = None
        if not coo:
            inner_type = buffer_type(result_type, ("positions", 1))
            inner_pos = alloc_large(e, inner_type, e.add(outer, one))
            e.store(e.from_index(zero, inner_type.element_type), inner_pos, [zero])

        def row(b: Emitter, r: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            *cursors, stored, q = carried
            first = q
            ends: list[SSAValue] = []
            for copy, offset, cursor, count in zip(
                plan.copies, plan.offsets, cursors, counts, strict=True
            ):
                end = run_end(b, copy.source.coordinates(0), cursor, count, r)
                lo, hi = cursor, end
                if not coo:
                    pos = copy.source.positions(1)
                    lo = b.to_index(b.load(pos, [cursor]))
                    hi = b.to_index(b.load(pos, [end]))
                copy.entries(b, 1, lo, hi, q, offset)
                n = b.sub(hi, lo)
                if coo:
                    row_crd = b.from_index(r, crd_type.element_type)

                    def fill(c: Emitter, i: SSAValue, v: SSAValue = row_crd) -> None:
                        c.store(v, crd, [i])

                    b.for_each(q, b.add(q, n), fill)
                q = b.add(q, n)
                ends.append(end)
            if inner_pos is not None:
                stored = close_row(b, r, first, q, stored, crd, inner_pos)
            return [*ends, stored, q]

        inits = [zero] * (len(plan.copies) + 2)
        *_, stored, entries = e.loop(zero, plan.sizes[0], inits, row)
        # The last positions: of level 0 (outer or stored <= entries), level 1.
        pos_width = buffer_type(result_type, ("positions", 0)).element_type
        positions_fit(e, entries, pos_width)
        pos_type = buffer_type(result_type, ("positions", 0))
        pos = e.alloc(pos_type, [e.index(2)])
        e.store(e.from_index(zero, pos_type.element_type), pos, [zero])
        e.store(
            e.from_index(outer if coo else stored, pos_type.element_type), pos, [one]
        )
        plan.out["positions", 0] = pos
        plan.out["coordinates", 0] = crd
        if inner_pos is not None:
            plan.out["coordinates", 0] = e.value(ReallocOp(crd, stored, crd_type))
            inner_type = buffer_type(result_type, ("positions", 1))
            plan.out["positions", 1] = e.value(
                ReallocOp(inner_pos, e.add(stored, one), inner_type)
            )
        plan.finish(op)


def close_row(
    e: Emitter,
    r: SSAValue,
    first: SSAValue,
    q: SSAValue,
    stored: SSAValue,
    crd: SSAValue,
    pos: SSAValue,
) -> SSAValue:
    """A row that got entries [first, q) of the level under a unique compressed
    one: store its coordinate r and its end; the number of rows stored."""
    nonempty = e.value(arith.CmpiOp(q, first, "ugt"))
    crd_type, pos_type = buffer_type_of(crd), buffer_type_of(pos)

    def store(b: Emitter) -> None:
        b.store(b.from_index(r, crd_type.element_type), crd, [stored])
        b.store(
            b.from_index(q, pos_type.element_type), pos, [b.add(stored, b.index(1))]
        )

    e.when(nonempty, store)
    step = e.value(
        upstream_arith.IndexCastOp(
            e.value(upstream_arith.ExtUIOp(nonempty, i64)), INDEX
        )
    )
    return e.add(stored, step)


class ConvertConcatenateOperands(RewritePattern):
    """Operands of a concatenation whose result's levels are built directly, in
    another encoding or dense -> `sparse_tensor.convert` to the result's
    encoding first (the general path: conversions are not by level buffers)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AnyConcat, rewriter: PatternRewriter) -> None:
        result_type = op.result.type
        if direct_concat_level(result_type, concat_dim(op)) is None:
            return
        assert is_tensor_type(result_type)
        enc = sparse_encoding(result_type)
        changed = False
        for i, v in enumerate(op.inputs):
            t = v.type
            assert is_tensor_type(t)
            if sparse_encoding(t) == enc:
                continue
            new_type = TensorType(t.element_type, t.get_shape(), result_type.encoding)
            convert = ConvertOp(v, new_type)
            rewriter.insert(convert, InsertPoint.before(op))
            op.operands[i] = convert.dest
            changed = True
        if changed:
            rewriter.handle_operation_modification(op)


class ConcatenateThroughDense(RewritePattern):
    """Concatenation into a dense tensor, or into an encoding whose levels are
    not built directly (the general path): every operand's stored entries (a
    dense operand's nonzeros) scattered at their offset into a dense buffer,
    from whose nonzeros a sparse result's storage is built (as MLIR 22 inserts
    only nonzeros)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AnyConcat, rewriter: PatternRewriter) -> None:
        result_type = op.result.type
        dim = concat_dim(op)
        assert is_tensor_type(result_type)
        sparse_result = sparse_encoding(result_type) is not None
        if sparse_result and direct_concat_level(result_type, dim) is not None:
            return
        if not any(sparse_encoding(v.type) for v in (op.result, *op.inputs)):
            return  # all dense: lower-subset's
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        operand_sizes = [operand_dims(e, v) for v in op.inputs]
        if any(s is None for s in operand_sizes):
            return  # once every operand is lowered
        sizes = [s for s in operand_sizes if s is not None]
        dims = [
            e.index(n)
            if n != DYNAMIC_INDEX
            else (e.total([s[d] for s in sizes]) if d == dim else sizes[0][d])
            for d, n in enumerate(result_type.get_shape())
        ]
        dense = e.alloc(dense_buffer_type(result_type), dims)
        e.fill(dense, e.constant(0, result_type.element_type))
        offset = e.index(0)
        for value, value_sizes in zip(op.inputs, sizes, strict=True):

            def shifted(
                b: Emitter, x: list[SSAValue], offset: SSAValue = offset
            ) -> list[SSAValue]:
                return [b.add(c, offset) if d == dim else c for d, c in enumerate(x)]

            scatter_entries(e, value, shifted, dense, None)
            offset = e.add(offset, value_sizes[dim])
        if not sparse_result:
            rewriter.replace(op, [], [as_tensor(dense, result_type, rewriter, at)])
            return
        fields = build_storage_at_runtime(e, dense, result_type)  # the nonzeros
        e.op(memref.DeallocOp.get(dense))
        rewriter.replace(op, [], [storage_value(fields, result_type, rewriter, at)])


"""Where an entry goes: its index in the target from its dimension coordinates."""


CONCAT_PATTERNS: tuple[RewritePattern, ...] = (
    ConvertConcatenateOperands(),
    ConcatenateUnderDenseLevels(),
    ConcatenateUnderCompressedLevel(),
    ConcatenateThroughDense(),
)
"""The patterns `sparse-tensor-codegen` runs for concatenations."""
