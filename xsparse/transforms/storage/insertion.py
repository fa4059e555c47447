"""Insertion into sparse tensors: the part of `sparse-tensor-codegen` that builds
a sparse result.

Mirrors MLIR 22's codegen of `tensor.insert`, `sparse_tensor.load hasInserts`,
`sparse_tensor.expand` and `sparse_tensor.compress` (SparseTensorCodegen.cpp:
`genInsertionStore`, `allocSchemeForRank`, `genEndInsert`, the expand/compress
converters) on xsparse's storage:

* a sparse tensor under construction (from `tensor.empty` or
  `bufferization.alloc_tensor`) is its storage fields followed by the used
  size of each buffer (MLIR's `pos_mem_sz`/`crd_mem_sz`/`val_mem_sz` in the
  storage specifier); buffers grow by `memref.realloc` to twice their capacity
  when full, so appending is amortized O(1);
* entries are inserted in lexicographic level order: a dense level locates,
  a compressed level appends a coordinate unless the parent's last one is the
  same, a singleton level appends; `positions[parent + 1]` is set as entries
  arrive and `load hasInserts` fills the positions of parents that got none,
  then shrinks every buffer to its used size;
* `scf.for`/`scf.while`/`scf.if` carrying such a tensor carry its fields
  instead (a 1:N conversion through `builtin.unrealized_conversion_cast`s
  that fold away once both ends are converted);
* `expand` gives a dense workspace (values, filled flags, the list of added
  coordinates) and `compress` sorts the added coordinates (`storage.sort`),
  inserts their entries in order and clears the workspace entries it used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, bufferization, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnrealizedConversionCastOp,
)
from xdsl.dialects.tensor import DimOp as TensorDimOp
from xdsl.dialects.tensor import EmptyOp as TensorEmptyOp
from xdsl.dialects.tensor import InsertOp as TensorInsertOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.sparse_tensor.encoding import Encoding
from xsparse.dialects.sparse_tensor.ops_conversion import LoadOp
from xsparse.dialects.sparse_tensor.ops_insertion import (
    CompressOp,
    ExpandOp,
    PushBackOp,
)
from xsparse.dialects.sparse_tensor.storage import (
    StorageField,
    sparse_encoding,
    storage_fields,
)
from xsparse.dialects.sparse_tensor.types import SparseTensorType
from xsparse.dialects.type_guards import is_memref_type, is_tensor_type
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.dialects.upstream.memref import ReallocOp
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.codegen_utils.op_emitter import INDEX
from xsparse.transforms.codegen_utils.stored_entries import dim_sizes, level_extent
from xsparse.transforms.errors import check_dimension, check_insertable
from xsparse.transforms.storage.overhead_widths import (
    check_coordinate,
    positions_fit,
)
from xsparse.transforms.storage.sort import sort_coordinates

STORAGE_ATTR = "xsparse.storage"
"""Marks the cast that stands for a sparse value made of its storage fields
(shared with storage.codegen)."""
GROWING_ATTR = "xsparse.growing"
"""Marks the cast that stands for a sparse tensor under construction."""
UNPACK_ATTR = "xsparse.unpack"
"""Marks the cast that takes a sparse tensor apart into its growing fields."""

INITIAL_CAPACITY = 16
I1 = IntegerType(1)


def _memref_fields(layout: Sequence[StorageField]) -> list[int]:
    return [
        i
        for i, f in enumerate(layout)
        if f.kind in ("positions", "coordinates", "values")
    ]


def growing_types(tensor_type: TensorType[Attribute]) -> list[Attribute]:
    """The types of a sparse tensor under construction: its storage fields,
    then the used size of each buffer."""
    layout = storage_fields(tensor_type)
    return [f.type for f in layout] + [INDEX] * len(_memref_fields(layout))


@dataclass
class Growing:
    """The fields of a sparse tensor under construction, updated as code that
    appends to it is emitted."""

    tensor_type: TensorType[Attribute]
    values: list[SSAValue]

    @property
    def layout(self) -> list[StorageField]:
        return storage_fields(self.tensor_type)

    @property
    def encoding(self) -> Encoding:
        enc = sparse_encoding(self.tensor_type)
        assert enc is not None
        return enc

    def _slot(self, kind: str, level: int) -> int:
        for i, f in enumerate(self.layout):
            if f.kind == kind and f.level == level:
                return i
        raise KeyError((kind, level))

    def _used_slot(self, kind: str, level: int) -> int:
        layout = self.layout
        return len(layout) + _memref_fields(layout).index(self._slot(kind, level))

    def buffer(self, kind: str, level: int = -1) -> SSAValue:
        return self.values[self._slot(kind, level)]

    def used(self, kind: str, level: int = -1) -> SSAValue:
        return self.values[self._used_slot(kind, level)]

    def level_size(self, level: int) -> SSAValue:
        return self.values[self._slot("level_size", level)]

    def update(self, kind: str, level: int, buffer: SSAValue, used: SSAValue) -> None:
        self.values[self._slot(kind, level)] = buffer
        self.values[self._used_slot(kind, level)] = used

    def copy(self, values: Sequence[SSAValue]) -> Growing:
        return Growing(self.tensor_type, list(values))


# -- casts standing for converted values ---------------------------------------


def _marked_cast(
    inputs: Sequence[SSAValue], types: Sequence[Attribute], mark: str
) -> UnrealizedConversionCastOp:
    cast = UnrealizedConversionCastOp.get(inputs, types)
    cast.attributes[mark] = IntegerAttr(len(inputs), IndexType())
    return cast


def pack(g: Growing, rewriter: PatternRewriter, at: InsertPoint) -> SSAValue:
    """The sparse value standing for fields under construction."""
    cast = _marked_cast(g.values, [g.tensor_type], GROWING_ATTR)
    rewriter.insert(cast, at)
    return cast.results[0]


def _cast_inputs(value: SSAValue, mark: str) -> list[SSAValue] | None:
    owner = value.owner
    if isinstance(owner, UnrealizedConversionCastOp) and mark in owner.attributes:
        return list(owner.inputs)
    return None


def growing_of(value: SSAValue, e: Emitter) -> Growing | None:
    """The fields under construction of a sparse value, if it is converted
    already: a tensor being built, or a complete one (its used sizes are its
    buffers' sizes)."""
    t = value.type
    assert is_tensor_type(t)
    fields = _cast_inputs(value, GROWING_ATTR)
    if fields is not None:
        return Growing(t, fields)
    fields = _cast_inputs(value, STORAGE_ATTR)
    if fields is None:
        return None
    layout = storage_fields(t)
    used = [e.dim(fields[i]) for i in _memref_fields(layout)]
    return Growing(t, [*fields, *used])


def unpack(
    value: SSAValue, rewriter: PatternRewriter, at: InsertPoint
) -> list[SSAValue]:
    """The growing fields of a sparse value; a cast that folds later when the
    value is not converted yet."""
    g = growing_of(value, Emitter(rewriter, at))
    if g is not None:
        return g.values
    t = value.type
    assert is_tensor_type(t)
    cast = _marked_cast([value], growing_types(t), UNPACK_ATTR)
    rewriter.insert(cast, at)
    return list(cast.results)


def _is_sparse(t: Attribute) -> bool:
    return sparse_encoding(t) is not None


class FoldUnpack(RewritePattern):
    """An unpack cast of a converted sparse value is that value's fields."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: UnrealizedConversionCastOp, rewriter: PatternRewriter
    ) -> None:
        if UNPACK_ATTR not in op.attributes:
            return
        g = growing_of(op.inputs[0], Emitter(rewriter, InsertPoint.before(op)))
        if g is not None:
            rewriter.replace(op, [], g.values)


# -- 1:N conversion of scf ops carrying sparse tensors -------------------------


def _expand_values(
    values: Sequence[SSAValue], rewriter: PatternRewriter, at: InsertPoint
) -> list[SSAValue]:
    out: list[SSAValue] = []
    for v in values:
        out.extend(unpack(v, rewriter, at) if _is_sparse(v.type) else [v])
    return out


def _expand_types(types: Sequence[Attribute]) -> list[Attribute]:
    out: list[Attribute] = []
    for t in types:
        if _is_sparse(t):
            assert is_tensor_type(t)
            out.extend(growing_types(t))
        else:
            out.append(t)
    return out


def _packed(
    values: Sequence[SSAValue],
    types: Sequence[Attribute],
    rewriter: PatternRewriter,
    at: InsertPoint,
) -> list[SSAValue]:
    """The inverse of `_expand_values`: one value per type in `types`."""
    rest = list(values)
    out: list[SSAValue] = []
    for t in types:
        if _is_sparse(t):
            assert is_tensor_type(t)
            n = len(growing_types(t))
            out.append(pack(Growing(t, rest[:n]), rewriter, at))
            rest = rest[n:]
        else:
            out.append(rest.pop(0))
    return out


def _expand_block(block: Block, rewriter: PatternRewriter) -> Block:
    """A block whose sparse arguments are expanded into their fields, with
    `block`'s ops moved in and its terminator's sparse operands expanded."""
    old_types = [a.type for a in block.args]
    new = Block(arg_types=_expand_types(old_types))
    args = _packed(new.args, old_types, rewriter, InsertPoint.at_end(new))
    rewriter.inline_block(block, InsertPoint.at_end(new), args)
    terminator = new.last_op
    assert terminator is not None
    operands = _expand_values(
        terminator.operands, rewriter, InsertPoint.before(terminator)
    )
    terminator.operands = operands
    return new


def _carries_sparse(op: Operation) -> bool:
    return any(_is_sparse(t) for t in (*op.operand_types, *op.result_types))


class ExpandSparseFor(RewritePattern):
    """`scf.for` carrying sparse tensors -> carrying their fields."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        if not _carries_sparse(op):
            return
        at = InsertPoint.before(op)
        inits = _expand_values(op.iter_args, rewriter, at)
        body = _expand_block(op.body.block, rewriter)
        loop = scf.ForOp(op.lb, op.ub, op.step, inits, Region(body))
        loop.attributes.update(op.attributes)
        rewriter.insert(loop, at)
        results = _packed(
            loop.results, op.result_types, rewriter, InsertPoint.after(loop)
        )
        rewriter.replace(op, [], results)


class ExpandSparseWhile(RewritePattern):
    """`scf.while` carrying sparse tensors -> carrying their fields."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter) -> None:
        if not _carries_sparse(op):
            return
        at = InsertPoint.before(op)
        inits = _expand_values(op.arguments, rewriter, at)
        before = _expand_block(op.before_region.block, rewriter)
        after = _expand_block(op.after_region.block, rewriter)
        loop = scf.WhileOp(
            inits, _expand_types(op.result_types), Region(before), Region(after)
        )
        loop.attributes.update(op.attributes)
        rewriter.insert(loop, at)
        results = _packed(
            loop.results, op.result_types, rewriter, InsertPoint.after(loop)
        )
        rewriter.replace(op, [], results)


class ExpandSparseIf(RewritePattern):
    """`scf.if` yielding sparse tensors -> yielding their fields."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter) -> None:
        if not any(_is_sparse(t) for t in op.result_types):
            return
        then = _expand_block(op.true_region.block, rewriter)
        other = _expand_block(op.false_region.block, rewriter)
        new = scf.IfOp(
            op.cond, _expand_types(op.result_types), Region(then), Region(other)
        )
        new.attributes.update(op.attributes)
        rewriter.insert(new, InsertPoint.before(op))
        results = _packed(
            new.results, op.result_types, rewriter, InsertPoint.after(new)
        )
        rewriter.replace(op, [], results)


# -- emission helpers ---------------------------------------------------------


def _reserve(e: Emitter, buffer: SSAValue, needed: SSAValue) -> SSAValue:
    """`buffer`, reallocated to max(2 * capacity, needed) if it holds fewer
    than `needed` elements."""
    t = buffer.type
    assert is_memref_type(t)
    capacity = e.dim(buffer)

    def grow(b: Emitter) -> list[SSAValue]:
        doubled = b.mul(capacity, b.index(2))
        size = b.value(arith.MaxUIOp(doubled, needed))
        return [b.value(ReallocOp(buffer, size, t))]

    full = e.cmp(needed, "ugt", capacity)
    return e.branch(full, grow, lambda _: [buffer])[0]


def _push_back(
    e: Emitter,
    g: Growing,
    kind: str,
    level: int,
    value: SSAValue,
    count: SSAValue | None = None,
) -> SSAValue:
    """Append `count` (default one) copies of `value` to a buffer; returns the
    position of the first."""
    buffer, used = g.buffer(kind, level), g.used(kind, level)
    t = buffer.type
    assert is_memref_type(t)
    value = (
        e.from_index(value, t.element_type)
        if isinstance(value.type, IndexType)
        else value
    )
    needed = e.add(used, count if count is not None else e.index(1))
    buffer = _reserve(e, buffer, needed)
    if count is None:
        e.store(value, buffer, [used])
    else:
        e.for_each(used, needed, lambda b, i: b.store(value, buffer, [i]))
    g.update(kind, level, buffer, needed)
    return used


def _grow_by_doubling(e: Emitter, buffer: SSAValue, needed: SSAValue) -> SSAValue:
    """`buffer`, reallocated to its capacity doubled until `needed` elements
    fit (a capacity of 0 counted as 1), if it holds fewer."""
    t = buffer.type
    assert is_memref_type(t)
    capacity = e.dim(buffer)

    def grow(b: Emitter) -> list[SSAValue]:
        start = b.value(arith.MaxUIOp(capacity, b.index(1)))
        (size,) = b.while_loop(
            [start],
            lambda w, c: w.cmp(needed, "ugt", c[0]),
            lambda w, c: [w.mul(c[0], w.index(2))],
        )
        return [b.value(ReallocOp(buffer, size, t))]

    full = e.cmp(needed, "ugt", capacity)
    return e.branch(full, grow, lambda _: [buffer])[0]


class LowerPushBack(RewritePattern):
    """`sparse_tensor.push_back` -> MLIR's `genPushBack` (SparseBufferRewriting):
    unless `inbounds`, the buffer's capacity doubles until `cur_size + n`
    fits; then `n` (default one) copies of the value are stored from
    `cur_size` on. The results: the buffer and `cur_size + n`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PushBackOp, rewriter: PatternRewriter) -> None:
        e = Emitter(rewriter, InsertPoint.before(op))
        count = op.n if op.n is not None else e.index(1)
        new_size = e.add(op.cur_size, count)
        buffer = op.in_buffer
        if op.inbounds is None:
            buffer = _grow_by_doubling(e, buffer, new_size)
        value = op.value
        if op.n is None:
            e.store(value, buffer, [op.cur_size])
        else:
            e.for_each(op.cur_size, new_size, lambda b, i: b.store(value, buffer, [i]))
        rewriter.replace_op(op, [], [buffer, new_size])


def _alloc_scheme(e: Emitter, g: Growing, start: int) -> None:
    """Room for the entries under one new position at level `start - 1`:
    zero positions for the next compressed level (times the dense levels in
    between), or zero values when every level below is dense (MLIR's
    `allocSchemeForRank`)."""
    linear = e.index(1)
    for level in range(start, len(g.encoding.lvl_types)):
        fmt = g.encoding.lvl_types[level].format
        if fmt.has_positions:
            _push_back(e, g, "positions", level, e.index(0), linear)
            return
        if fmt.is_branchless:
            return
        linear = e.mul(linear, g.level_size(level))
    values = g.buffer("values")
    assert is_memref_type(values.type)
    _push_back(e, g, "values", -1, e.constant(0, values.type.element_type), linear)


def _insert_entry(
    e: Emitter, g: Growing, lvl_coords: Sequence[SSAValue], value: SSAValue
) -> Growing:
    """Append the entry at `lvl_coords` (after every entry inserted so far in
    level order) and return the updated fields."""
    enc = g.encoding
    parent, g = _descend(e, g, lvl_coords)
    values = g.buffer("values")
    if enc.lvl_types[-1].format.is_dense:
        e.store(value, values, [parent])
    else:
        _push_back(e, g, "values", -1, value)
    return g


def _descend(
    e: Emitter, g: Growing, lvl_coords: Sequence[SSAValue]
) -> tuple[SSAValue, Growing]:
    """Insert the coordinates of the first `len(lvl_coords)` levels of an
    entry; the position of the entry at the last of them, and the updated
    fields."""
    enc = g.encoding
    rank = len(enc.lvl_types)
    parent = e.index(0)
    for level, c in enumerate(lvl_coords):
        lt = enc.lvl_types[level]
        fmt = lt.format
        if fmt.is_dense:
            parent = e.add(e.mul(parent, g.level_size(level)), c)
        elif fmt.is_branchless:
            _check_coordinate(e, g, level, c)
            _push_back(e, g, "coordinates", level, c)
        elif level == rank - 1 or not lt.is_unique:
            parent = _append_coordinate(e, g, level, parent, c, rank)
        else:
            parent, g = _find_or_append(e, g, level, parent, c, rank)
    return parent, g


def _append_coordinate(
    e: Emitter, g: Growing, level: int, parent: SSAValue, c: SSAValue, rank: int
) -> SSAValue:
    """A new coordinate under `parent` at a compressed level; its position."""
    _check_coordinate(e, g, level, c)
    position = _push_back(e, g, "coordinates", level, c)
    positions = g.buffer("positions", level)
    assert is_memref_type(positions.type)
    end = e.from_index(e.add(position, e.index(1)), positions.type.element_type)
    e.store(end, positions, [e.add(parent, e.index(1))])
    if level + 1 < rank:
        _alloc_scheme(e, g, level + 1)
    return position


def _check_coordinate(e: Emitter, g: Growing, level: int, c: SSAValue) -> None:
    """Report a coordinate that the level's `crdWidth` cannot hold (none
    where the type's static level size shows that every one fits)."""
    t = g.buffer("coordinates", level).type
    assert is_memref_type(t)
    static = SparseTensorType(g.tensor_type).lvl_shape[level]
    size = g.level_size(level) if static == DYNAMIC_INDEX else static
    check_coordinate(e, c, t.element_type, size)


def _find_or_append(
    e: Emitter, g: Growing, level: int, parent: SSAValue, c: SSAValue, rank: int
) -> tuple[SSAValue, Growing]:
    """At a unique compressed level above the last: the parent's last entry if
    it has coordinate `c`, else a new one."""
    positions = g.buffer("positions", level)
    coordinates = g.buffer("coordinates", level)
    one = e.index(1)
    first = e.to_index(e.load(positions, [parent]))
    last = e.to_index(e.load(positions, [e.add(parent, one)]))
    nonempty = e.cmp(last, "ugt", first)
    previous = e.value(
        upstream_arith.SelectOp(nonempty, e.value(arith.SubiOp(last, one)), first)
    )
    same = e.value(
        arith.AndIOp(
            nonempty, e.cmp(e.to_index(e.load(coordinates, [previous])), "eq", c)
        )
    )

    def found(_: Emitter) -> list[SSAValue]:
        return [previous, *g.values]

    def append(b: Emitter) -> list[SSAValue]:
        fresh = g.copy(g.values)
        position = _append_coordinate(b, fresh, level, parent, c, rank)
        return [position, *fresh.values]

    results = e.branch(same, found, append)
    return results[0], g.copy(results[1:])


def _level_coordinates(
    e: Emitter, enc: Encoding, dim_coords: Sequence[SSAValue]
) -> list[SSAValue]:
    return [e.affine(x, dim_coords) for x in enc.dim_to_lvl.results]


def receives_insertions(value: SSAValue) -> bool:
    """Whether entries are inserted into the sparse tensor `value` or into a
    tensor that continues it: through `tensor.insert`, `sparse_tensor.load`,
    and the iteration arguments, yields and results of scf loops and ifs."""
    seen: set[SSAValue] = set()
    pending = [value]
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        for use in current.uses:
            user = use.operation
            if isinstance(user, TensorInsertOp | CompressOp):
                return True
            if isinstance(user, LoadOp):
                pending.append(user.result)
            elif isinstance(user, scf.ForOp) and use.index >= 3:
                pending += [
                    user.results[use.index - 3],
                    user.body.block.args[use.index - 2],
                ]
            elif isinstance(user, scf.WhileOp):
                pending += [user.before_region.block.args[use.index]]
            elif isinstance(user, scf.ConditionOp) and use.index > 0:
                loop = user.parent_op()
                assert isinstance(loop, scf.WhileOp)
                pending += [
                    loop.results[use.index - 1],
                    loop.after_region.block.args[use.index - 1],
                ]
            elif isinstance(user, scf.YieldOp) and (parent := user.parent_op()):
                if isinstance(parent, scf.WhileOp):
                    pending.append(parent.before_region.block.args[use.index])
                else:
                    pending.append(parent.results[use.index])
    return False


# -- patterns -----------------------------------------------------------------


class FinishGrowingTensor(RewritePattern):
    """A sparse tensor under construction used as a complete one (returned,
    passed, printed, read, converted, released: anything but inserting into
    it, finishing it, measuring it or carrying it through scf) is finished
    first by a `sparse_tensor.load hasInserts`. MLIR requires that load
    before such a use; a tensor carried out of an `scf.if`/`for`/`while`
    whose regions yield finished tensors is carried as fields under
    construction, and finishing it again fills and shrinks nothing."""

    GROWING_USERS = (
        TensorInsertOp,
        LoadOp,
        ExpandOp,
        CompressOp,
        TensorDimOp,
        UnrealizedConversionCastOp,
        scf.ForOp,
        scf.WhileOp,
        scf.YieldOp,
        scf.ConditionOp,
    )

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: UnrealizedConversionCastOp, rewriter: PatternRewriter
    ) -> None:
        if GROWING_ATTR not in op.attributes:
            return
        result = op.results[0]
        if all(isinstance(u.operation, self.GROWING_USERS) for u in result.uses):
            return
        load = LoadOp(result, has_inserts=True)
        rewriter.insert(load, InsertPoint.after(op))
        result.replace_uses_with_if(
            load.result,
            lambda use: not isinstance(use.operation, self.GROWING_USERS),
        )


class AllocateSparseTensor(RewritePattern):
    """`tensor.empty` / `bufferization.alloc_tensor` of a sparse type -> empty
    growing buffers: positions [0] per compressed level, then room for the
    entries under the root (MLIR's `allocSchemeForRank(0)`); a `size_hint`
    sizes the buffers with one element per entry."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: TensorEmptyOp | bufferization.AllocTensorOp, rewriter: PatternRewriter
    ) -> None:
        t = op.results[0].type
        enc = sparse_encoding(t)
        if enc is None:
            return
        assert is_tensor_type(t)
        if isinstance(op, bufferization.AllocTensorOp) and op.copy is not None:
            return
        check_insertable(op, enc)
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        dynamic = iter(op.dynamic_sizes)
        dims = [next(dynamic) if n < 0 else e.index(n) for n in t.get_shape()]
        sizes = [level_extent(e, x, dims) for x in enc.dim_to_lvl.results]
        values: list[SSAValue] = []
        used: list[SSAValue] = []
        hint = op.size_hint if isinstance(op, bufferization.AllocTensorOp) else None
        for f in storage_fields(t):
            if f.kind == "level_size":
                values.append(sizes[f.level])
                continue
            assert is_memref_type(f.type)
            capacity = e.index(INITIAL_CAPACITY)
            if hint is not None and _holds_every_entry(enc, f.kind, f.level):
                capacity = hint
            buffer = e.alloc(f.type, [capacity])
            if f.kind == "positions":
                e.store(e.constant(0, f.type.element_type), buffer, [e.index(0)])
                used.append(e.index(1))
            else:
                used.append(e.index(0))
            values.append(buffer)
        g = Growing(t, values + used)
        _alloc_scheme(e, g, 0)
        rewriter.replace(op, [], [pack(g, rewriter, at)])


def _holds_every_entry(enc: Encoding, kind: str, level: int) -> bool:
    """Whether a buffer gets one element per entry of the tensor: the values,
    and the coordinates of the levels from the last non-singleton one down
    (MLIR sizes these by `size_hint`)."""
    if kind == "values":
        return True
    if kind != "coordinates":
        return False
    below = enc.lvl_types[level + 1 :]
    return all(lt.format.is_branchless for lt in below)


class LowerSparseDim(RewritePattern):
    """`tensor.dim` of a sparse tensor at a constant dimension -> its size
    from the type, else from the level sizes through the lvl-to-dim map."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TensorDimOp, rewriter: PatternRewriter) -> None:
        enc = sparse_encoding(op.source.type)
        index = op.index.owner
        if enc is None or not isinstance(index, arith.ConstantOp):
            return
        assert isinstance(index.value, IntegerAttr)
        dim = index.value.value.data
        t = op.source.type
        assert is_tensor_type(t)
        check_dimension(op, dim, t.get_num_dims())
        e = Emitter(rewriter, InsertPoint.before(op))
        g = growing_of(op.source, e)
        if g is None:
            return
        stt = SparseTensorType.of(op.source.type)
        assert stt is not None
        levels = [g.level_size(lvl) for lvl in range(enc.lvl_rank)]
        rewriter.replace(op, [], [dim_sizes(e, op.source, stt, levels)[dim]])


class LowerSparseInsert(RewritePattern):
    """`tensor.insert` into a sparse tensor under construction -> appends to
    its level buffers (MLIR's `genInsertionStore`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TensorInsertOp, rewriter: PatternRewriter) -> None:
        enc = sparse_encoding(op.dest.type)
        if enc is None:
            return
        check_insertable(op, enc)
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        g = growing_of(op.dest, e)
        if g is None:
            return
        g = _insert_entry(e, g, _level_coordinates(e, enc, op.indices), op.scalar)
        rewriter.replace(op, [], [pack(g, rewriter, at)])


class FinalizeInsertions(RewritePattern):
    """`sparse_tensor.load hasInserts` -> the positions of parents without
    entries filled in (MLIR's `genEndInsert`), every buffer shrunk to its used
    size: the storage of a complete sparse tensor."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: LoadOp, rewriter: PatternRewriter) -> None:
        if op.has_inserts is None:
            return
        fields = _cast_inputs(op.tensor, GROWING_ATTR)
        if fields is None:
            if _cast_inputs(op.tensor, STORAGE_ATTR) is not None:
                rewriter.replace(op, [], [op.tensor])
            return
        t = op.tensor.type
        assert is_tensor_type(t)
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        g = Growing(t, fields)
        for level, lt in enumerate(g.encoding.lvl_types):
            if lt.format.has_positions:
                positions = g.buffer("positions", level).type
                assert is_memref_type(positions)
                # The last position counts the level's entries, the most.
                entries = g.used("coordinates", level)
                positions_fit(e, entries, positions.element_type)
                _fill_empty_positions(
                    e, g.buffer("positions", level), g.used("positions", level)
                )
        storage: list[SSAValue] = []
        for f in g.layout:
            if f.kind == "level_size":
                storage.append(g.level_size(f.level))
                continue
            assert is_memref_type(f.type)
            buffer = g.buffer(f.kind, f.level)
            storage.append(e.value(ReallocOp(buffer, g.used(f.kind, f.level), f.type)))
        cast = _marked_cast(storage, [t], STORAGE_ATTR)
        rewriter.replace(op, cast)


def _fill_empty_positions(e: Emitter, positions: SSAValue, used: SSAValue) -> None:
    """positions[i] = positions[i - 1] where no entry set it (it is still 0)."""
    t = positions.type
    assert is_memref_type(t)
    zero = e.constant(0, t.element_type)

    def fix(b: Emitter, i: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        value = b.load(positions, [i])
        unset = b.cmp(value, "eq", zero)
        fixed = b.value(upstream_arith.SelectOp(unset, carried[0], value))
        b.store(fixed, positions, [i])
        return [fixed]

    e.loop(e.index(1), used, [zero], fix)


class LowerExpand(RewritePattern):
    """`sparse_tensor.expand` -> a zeroed dense workspace as large as the
    innermost level, its filled flags (false) and an added list; count 0."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ExpandOp, rewriter: PatternRewriter) -> None:
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        g = growing_of(op.tensor, e)
        if g is None:
            return
        size = g.level_size(len(g.encoding.lvl_types) - 1)
        buffers: list[SSAValue] = []
        for result, zero in ((op.values, 0), (op.filled, 0), (op.added, None)):
            t = result.type
            assert is_memref_type(t)
            buffer = e.alloc(t, [size])
            if zero is not None:
                e.fill(buffer, e.constant(zero, t.element_type))
            buffers.append(buffer)
        rewriter.replace(op, [], [*buffers, e.index(0)])


class LowerCompress(RewritePattern):
    """`sparse_tensor.compress` -> the added coordinates sorted, their entries
    inserted in order under the given outer level coordinates (into a
    compressed innermost level: appended after one reservation for the row),
    and those workspace entries cleared."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CompressOp, rewriter: PatternRewriter) -> None:
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        g = growing_of(op.tensor, e)
        if g is None:
            return
        check_insertable(op, g.encoding)
        sort_coordinates(e, op.added, op.count)
        values_type = op.values.type
        assert is_memref_type(values_type)
        zero = e.constant(0, values_type.element_type)
        false = e.constant(0, I1)

        def take(b: Emitter, k: SSAValue) -> tuple[SSAValue, SSAValue]:
            """The k-th added coordinate and its value, cleared in the workspace."""
            column = b.to_index(b.load(op.added, [k]))
            value = b.load(op.values, [column])
            b.store(zero, op.values, [column])
            b.store(false, op.filled, [column])
            return column, value

        if g.encoding.lvl_types[-1].format.has_positions:
            fields = _append_row(e, g, op.lvl_coords, op.count, take)
        else:

            def insert(
                b: Emitter, k: SSAValue, carried: list[SSAValue]
            ) -> list[SSAValue]:
                column, value = take(b, k)
                coords = [*op.lvl_coords, column]
                return _insert_entry(b, g.copy(carried), coords, value).values

            fields = e.loop(e.index(0), op.count, g.values, insert)
        rewriter.replace(op, [], [pack(g.copy(fields), rewriter, at)])


def _append_row(
    e: Emitter,
    g: Growing,
    outer: Sequence[SSAValue],
    count: SSAValue,
    take: Callable[[Emitter, SSAValue], tuple[SSAValue, SSAValue]],
) -> list[SSAValue]:
    """`count` entries (`take(k)`: coordinate and value, in order) under one
    parent of a compressed innermost level: the outer levels inserted once
    when there is an entry, then the coordinates and values appended after
    one capacity check per buffer. Returns the updated fields."""
    last = len(g.encoding.lvl_types) - 1

    def append(b: Emitter) -> list[SSAValue]:
        parent, row = _descend(b, g.copy(g.values), outer)
        coordinates, values = (
            row.buffer("coordinates", last),
            row.buffer("values"),
        )
        first_coordinate, first_value = (
            row.used("coordinates", last),
            row.used("values"),
        )
        coordinates_end = b.add(first_coordinate, count)
        values_end = b.add(first_value, count)
        coordinates = _reserve(b, coordinates, coordinates_end)
        values = _reserve(b, values, values_end)
        crd_type = coordinates.type
        assert is_memref_type(crd_type)

        def move(c: Emitter, k: SSAValue) -> None:
            column, value = take(c, k)
            _check_coordinate(c, row, last, column)
            column = c.from_index(column, crd_type.element_type)
            c.store(column, coordinates, [c.add(first_coordinate, k)])
            c.store(value, values, [c.add(first_value, k)])

        b.for_each(b.index(0), count, move)
        positions = row.buffer("positions", last)
        assert is_memref_type(positions.type)
        end = b.from_index(coordinates_end, positions.type.element_type)
        b.store(end, positions, [b.add(parent, b.index(1))])
        row.update("coordinates", last, coordinates, coordinates_end)
        row.update("values", -1, values, values_end)
        return row.values

    nonempty = e.cmp(count, "ugt", e.index(0))
    return e.branch(nonempty, append, lambda _: g.values)


INSERTION_PATTERNS: list[RewritePattern] = [
    FinishGrowingTensor(),
    AllocateSparseTensor(),
    LowerSparseInsert(),
    LowerSparseDim(),
    FinalizeInsertions(),
    LowerExpand(),
    LowerCompress(),
    ExpandSparseFor(),
    ExpandSparseWhile(),
    ExpandSparseIf(),
    FoldUnpack(),
    LowerPushBack(),
]
