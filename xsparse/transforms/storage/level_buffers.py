"""The level buffers of a sparse tensor value during storage code generation:
building, reading, growing and copying them, and the entries they hold.

Shared by every pattern set of `sparse-tensor-codegen` (codegen, conversion,
concatenation, reshape, file I/O). A sparse tensor value under codegen is the
cast of its storage fields that `storage_value` makes (`storage_of` reads them
back); `Entries` are coordinates and values in a staging buffer, from which
`storage_from_entries` builds any encoding's buffers (MLIR 22 builds them by
inserting into a COO tensor and converting, SparseTensorCodegen.cpp).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray
from xdsl.dialects import arith, bufferization, complex, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ComplexType,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    TensorType,
    UnrealizedConversionCastOp,
    i64,
)
from xdsl.dialects.tensor import CastOp as TensorCastOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable

from xsparse.dialects.sparse_tensor.encoding import Encoding
from xsparse.dialects.sparse_tensor.levels import (
    LevelType,
)
from xsparse.dialects.sparse_tensor.ops_storage import (
    ToValuesOp,
)
from xsparse.dialects.sparse_tensor.storage import (
    LevelBuffers,
    build_level_buffers,
    sparse_encoding,
    storage_fields,
)
from xsparse.dialects.sparse_tensor.types import SparseTensorType
from xsparse.dialects.type_guards import is_memref_type, is_tensor_type
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.dialects.upstream import memref as upstream_memref
from xsparse.dialects.upstream.builtin import MAX_DENSE_ELEMENTS, SparseElementsAttr
from xsparse.dialects.upstream.memref import ReallocOp
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.codegen_utils.op_emitter import INDEX, to_tensor
from xsparse.transforms.codegen_utils.stored_entries import (
    dim_sizes,
    for_each_stored,
    level_extent,
    level_sizes,
)
from xsparse.transforms.storage.insertion import (
    STORAGE_ATTR,
)
from xsparse.transforms.storage.overhead_widths import check_coordinate, positions_fit


def dense_buffer_type(tensor_type: TensorType[Attribute]) -> MemRefType[Attribute]:
    return MemRefType(tensor_type.element_type, tensor_type.get_shape())


def storage_of(value: SSAValue) -> list[SSAValue] | None:
    owner = value.owner
    if (
        isinstance(owner, UnrealizedConversionCastOp)
        and STORAGE_ATTR in owner.attributes
    ):
        return list(owner.inputs)
    return None


def build_storage(
    dense: NDArray[Any], tensor_type: TensorType[Attribute]
) -> LevelBuffers:
    """The storage of the nonzeros of `dense` in the encoding of `tensor_type`."""
    enc = sparse_encoding(tensor_type)
    assert enc is not None
    nonzero = np.argwhere(dense).astype(np.int64)
    return build_level_buffers(enc, dense.shape, nonzero, dense[tuple(nonzero.T)])


def build_storage_of_entries(
    attr: SparseElementsAttr, tensor_type: TensorType[Attribute]
) -> LevelBuffers:
    """The storage of the listed entries of a `sparse<...>` constant in the
    encoding of `tensor_type`, explicit zeros included, without its dense
    form (as MLIR's `foreachInSparseConstant` visits them); an index listed
    twice keeps its first value, as the constant reads densely."""
    enc = sparse_encoding(tensor_type)
    assert enc is not None
    coords, values = attr.entries()
    shape = attr.type.get_shape()
    element = attr.type.get_element_type()
    return build_level_buffers(enc, shape, coords, element_array(values, element))


def element_array(values: Sequence[Any], element: Attribute) -> NDArray[Any]:
    """Elements as an attribute lists them, as a numpy array: complex numbers,
    which xDSL lists as (real, imaginary) pairs, as numpy complex values; no
    elements as an empty array of the element's kind (not numpy's float64
    for integers)."""
    if isinstance(element, ComplexType):
        pairs = np.array(values, dtype=np.float64).reshape(-1, 2)
        return pairs[:, 0] + 1j * pairs[:, 1]
    if not len(values):
        integer = isinstance(element, IntegerType | IndexType)
        return np.zeros(0, np.int64 if integer else np.float64)
    return np.array(values)


def element_list(data: Sequence[Any], element: Attribute) -> list[Any]:
    """Numpy elements as an attribute lists them (the inverse of
    `element_array`): a complex number as its (real, imaginary) pair."""
    if isinstance(element, ComplexType):
        return [(float(v.real), float(v.imag)) for v in data]
    return list(data)


def constant_attr_of(value: SSAValue) -> Attribute | None:
    """The attribute of the `arith.constant` that defines `value`, directly
    or through `tensor.cast`."""
    owner = value.owner
    while isinstance(owner, TensorCastOp):
        owner = owner.source.owner
    return owner.value if isinstance(owner, arith.ConstantOp) else None


def sparse_constant_of(value: SSAValue) -> SparseElementsAttr | None:
    """The `sparse<...>` attribute of a constant tensor `value`, if it is one."""
    attr = constant_attr_of(value)
    return attr if isinstance(attr, SparseElementsAttr) else None


def buffer_of(value: SSAValue, rewriter: PatternRewriter, at: InsertPoint) -> SSAValue:
    """The buffer of a dense tensor value, as `dense_buffer_type` of its type
    (`bufferization.to_buffer` until its producer is bufferized)."""
    assert is_tensor_type(value.type)
    expected = dense_buffer_type(value.type)
    owner = value.owner
    if isinstance(owner, bufferization.ToTensorOp):
        buffer = owner.memref
        if buffer.type == expected:
            return buffer
        cast = upstream_memref.CastOp(buffer, expected)
        rewriter.insert(cast, at)
        return cast.results[0]
    to_buffer = bufferization.ToBufferOp.create(
        operands=[value], result_types=[expected]
    )
    rewriter.insert(to_buffer, at)
    return to_buffer.results[0]


def as_tensor(
    buffer: SSAValue, tensor_type: Attribute, rewriter: PatternRewriter, at: InsertPoint
) -> SSAValue:
    op = to_tensor(buffer, tensor_type)
    rewriter.insert(op, at)
    return op.results[0]


def storage_value(
    fields: Sequence[SSAValue],
    tensor_type: Attribute,
    rewriter: PatternRewriter,
    at: InsertPoint,
) -> SSAValue:
    """The cast that stands for a sparse value made of `fields`."""
    cast = UnrealizedConversionCastOp.get(fields, [tensor_type])
    cast.attributes[STORAGE_ATTR] = IntegerAttr(len(fields), IndexType())
    rewriter.insert(cast, at)
    return cast.results[0]


def global_of(buffer: SSAValue) -> memref.GetGlobalOp | None:
    """The `memref.get_global` behind a buffer (through casts), if any."""
    owner = buffer.owner
    while isinstance(owner, memref.CastOp):
        owner = owner.source.owner
    return owner if isinstance(owner, memref.GetGlobalOp) else None


def copy_buffer(e: Emitter, buffer: SSAValue) -> SSAValue:
    """A fresh buffer holding a copy of `buffer`, of the same type."""
    t = buffer.type
    assert is_memref_type(t)
    fresh = e.alloc(t, e.sizes(buffer))
    e.op(memref.CopyOp(buffer, fresh))
    return fresh


def constant_buffer(
    e: Emitter, name_hint: str, t: MemRefType[Attribute], data: list[Any]
) -> SSAValue:
    """A fresh buffer of static type `t` holding `data`, copied from a constant
    global (index data is kept as i64 there, as globals of index do not lower)."""
    if not data:
        return e.alloc(t, [])
    if not isinstance(t.element_type, IndexType):
        listed = element_list(data, t.element_type)
        return copy_buffer(e, e.global_constant(name_hint, t, listed))
    source = e.global_constant(name_hint, MemRefType(i64, t.get_shape()), data)
    fresh = e.alloc(t, [])

    def move(b: Emitter, i: SSAValue) -> None:
        v = b.value(upstream_arith.IndexCastOp(b.load(source, [i]), IndexType()))
        b.store(v, fresh, [i])

    e.for_each(e.index(0), e.index(len(data)), move)
    return fresh


def dense_constant_of(value: SSAValue) -> NDArray[Any] | None:
    """The contents of a dense tensor that is a constant (`dense<...>` or
    `sparse<...>`, directly, through `tensor.cast`, or already lowered to a
    global), as a numpy array."""
    owner = value.owner
    while isinstance(owner, TensorCastOp):
        owner = owner.source.owner
    attr: Attribute | None = None
    if isinstance(owner, arith.ConstantOp):
        attr = owner.value
        if isinstance(attr, SparseElementsAttr):
            if attr.dense_size() > MAX_DENSE_ELEMENTS:
                return None  # read by its entries, or refused where lowered
            attr = attr.to_dense()
    elif isinstance(owner, bufferization.ToTensorOp):
        get_global = global_of(owner.memref)
        if get_global is not None:
            module = cast(Operation, owner.get_toplevel_object())
            glob = SymbolTable.lookup_symbol(module, get_global.name_)
            if isinstance(glob, memref.GlobalOp):
                attr = glob.initial_value
    if not isinstance(attr, DenseIntOrFPElementsAttr):
        return None
    t = attr.get_type()
    assert is_tensor_type(t)
    return element_array(attr.get_values(), t.element_type).reshape(t.get_shape())


def is_nonzero(e: Emitter, v: SSAValue) -> SSAValue:
    zero = e.constant(0, v.type)
    if isinstance(v.type, IntegerType | IndexType):
        return e.value(arith.CmpiOp(v, zero, "ne"))
    if isinstance(v.type, ComplexType):
        return e.value(complex.NotEqualOp(v, zero))
    return e.value(arith.CmpfOp(v, zero, "une"))


def level_space_nest(
    e: Emitter,
    sizes: Sequence[SSAValue],
    inits: Sequence[SSAValue],
    body: Callable[[Emitter, list[SSAValue], list[SSAValue]], Sequence[SSAValue]],
) -> list[SSAValue]:
    """Loops over every level coordinate tuple in lexicographic (storage) order,
    carrying `inits`; `body(emitter, level_coordinates, carried)`."""

    def nest(
        b: Emitter, coords: list[SSAValue], carried: list[SSAValue]
    ) -> Sequence[SSAValue]:
        if len(coords) == len(sizes):
            return body(b, coords, carried)
        return b.loop(
            b.index(0),
            sizes[len(coords)],
            carried,
            lambda c, i, args: nest(c, [*coords, i], args),
        )

    return list(nest(e, [], list(inits)))


@dataclass
class Entries:
    """The nonzeros of a dense buffer in storage order: `nnz` entries whose
    level coordinates are `coords[k * rank + l]` and value `values[k]`."""

    nnz: SSAValue
    coords: SSAValue
    values: SSAValue
    rank: int


def _gather_entries(
    e: Emitter,
    dense: SSAValue,
    enc: Encoding,
    sizes: Sequence[SSAValue],
    stored: SSAValue | None,
) -> Entries:
    """Two sweeps of the level space: count the entries to store (the nonzeros,
    or where the i8 buffer `stored` is set), then copy them out."""
    dense_type = dense.type
    assert is_memref_type(dense_type)
    to_dim = enc.lvl_to_dim.results
    rank = len(sizes)

    def read(b: Emitter, coords: list[SSAValue]) -> tuple[SSAValue, SSAValue]:
        at = [b.affine(x, coords) for x in to_dim]
        v = b.load(dense, at)
        return v, is_nonzero(b, v if stored is None else b.load(stored, at))

    def count(b: Emitter, coords: list[SSAValue], n: list[SSAValue]) -> list[SSAValue]:
        _, nonzero = read(b, coords)
        step = b.value(
            upstream_arith.IndexCastOp(
                b.value(upstream_arith.ExtUIOp(nonzero, i64)), INDEX
            )
        )
        return [b.add(n[0], step)]

    (nnz,) = level_space_nest(e, sizes, [e.index(0)], count)
    table = e.alloc(MemRefType(INDEX, [DYNAMIC_INDEX]), [e.mul(nnz, e.index(rank))])
    values = e.alloc(MemRefType(dense_type.element_type, [DYNAMIC_INDEX]), [nnz])

    def copy(b: Emitter, coords: list[SSAValue], k: list[SSAValue]) -> list[SSAValue]:
        v, nonzero = read(b, coords)

        def put(c: Emitter) -> None:
            c.store(v, values, [k[0]])
            base = c.mul(k[0], c.index(rank))
            for level, x in enumerate(coords):
                c.store(x, table, [c.add(base, c.index(level))])

        b.when(nonzero, put)
        step = b.value(
            upstream_arith.IndexCastOp(
                b.value(upstream_arith.ExtUIOp(nonzero, i64)), INDEX
            )
        )
        return [b.add(k[0], step)]

    level_space_nest(e, sizes, [e.index(0)], copy)
    return Entries(nnz, table, values, rank)


def _coordinate(b: Emitter, entries: Entries, k: SSAValue, level: int) -> SSAValue:
    """The level-`level` coordinate of entry k."""
    at = b.add(b.mul(k, b.index(entries.rank)), b.index(level))
    return b.load(entries.coords, [at])


def _dense_level(
    e: Emitter, entries: Entries, level: int, parent: SSAValue, size: SSAValue
) -> None:
    """A dense level: the position of entry k is parent * size + coordinate."""

    def deeper(b: Emitter, k: SSAValue) -> None:
        p = b.load(parent, [k])
        b.store(b.add(b.mul(p, size), _coordinate(b, entries, k, level)), parent, [k])

    e.for_each(e.index(0), entries.nnz, deeper)


def _singleton_level(
    e: Emitter,
    entries: Entries,
    level: int,
    parent: SSAValue,
    num: SSAValue,
    crd_type: MemRefType[Attribute],
    size: SSAValue,
) -> SSAValue:
    """A singleton level (of `size` coordinates): one coordinate at the
    position of its parent."""
    crd = e.alloc(crd_type, [num])

    def place(b: Emitter, k: SSAValue) -> None:
        c = _coordinate(b, entries, k, level)
        check_coordinate(b, c, crd_type.element_type, size)
        b.store(b.from_index(c, crd_type.element_type), crd, [b.load(parent, [k])])

    e.for_each(e.index(0), entries.nnz, place)
    return crd


def _structured_level(
    e: Emitter,
    entries: Entries,
    level: int,
    lt: LevelType,
    parent: SSAValue,
    num: SSAValue,
    crd_type: MemRefType[Attribute],
) -> tuple[SSAValue, SSAValue]:
    """A `structured[n, m]` level: n sorted coordinates per block of m. A block
    with fewer than n entries is padded with explicit zeros at its smallest
    free coordinates (as `SparseTensor.from_dense` and compile-time constants
    store it; seed 004's values + metadata); explicit zeros of the source
    count as padding. Its coordinates buffer, its number of positions;
    `parent[k]` becomes the position of entry k.

    Entry x, the i-th of a block with c <= n entries, goes to slot
    i + min(n - c, x - i): the block's coordinates are 0, 1, ... up to the
    last padding, then its remaining entries. A block with more than n
    entries is reported (`runtime_error`), its writes kept inside it."""
    assert lt.format.is_padded
    zero, one, n = e.index(0), e.index(1), e.index(lt.n)
    counts = e.alloc(MemRefType(INDEX, [DYNAMIC_INDEX]), [num])
    e.fill(counts, zero)

    def nonzero(b: Emitter, k: SSAValue) -> SSAValue:
        return is_nonzero(b, b.load(entries.values, [k]))

    def count(b: Emitter, k: SSAValue) -> None:
        p = b.load(parent, [k])
        more = b.value(upstream_arith.SelectOp(nonzero(b, k), one, zero))
        b.store(b.add(b.load(counts, [p]), more), counts, [p])

    e.for_each(zero, entries.nnz, count)

    def fullest(b: Emitter, block: SSAValue, most: list[SSAValue]) -> list[SSAValue]:
        return [b.value(arith.MaxUIOp(most[0], b.load(counts, [block])))]

    most = e.loop(zero, num, [zero], fullest)[0]
    e.when(
        e.value(arith.CmpiOp(most, n, "ugt")),
        lambda b: b.runtime_error(
            f"cannot store the tensor in a {lt} level: a block of {lt.m} "
            f"holds more than {lt.n} nonzeros"
        ),
    )
    total = e.mul(num, n)
    crd = e.alloc(crd_type, [total])
    element = crd_type.element_type

    def pad(b: Emitter, t: SSAValue) -> None:
        b.store(b.from_index(b.value(arith.RemUIOp(t, n)), element), crd, [t])

    e.for_each(zero, total, pad)
    last_slot = e.index(lt.n - 1)

    def place(b: Emitter, k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        last_block, previous = carried
        p = b.load(parent, [k])
        x = _coordinate(b, entries, k, level)
        same = b.value(arith.CmpiOp(p, last_block, "eq"))
        i = b.value(upstream_arith.SelectOp(same, b.add(previous, one), zero))
        free = b.value(arith.SubiOp(n, b.value(arith.MinUIOp(b.load(counts, [p]), n))))
        gap = b.value(arith.SubiOp(x, b.value(arith.MinUIOp(i, x))))
        slot = b.add(i, b.value(arith.MinUIOp(free, gap)))
        at = b.add(b.mul(p, n), b.value(arith.MinUIOp(slot, last_slot)))
        kept = nonzero(b, k)
        b.when(kept, lambda c: c.store(c.from_index(x, element), crd, [at]))
        b.store(at, parent, [k])
        return [
            b.value(upstream_arith.SelectOp(kept, p, last_block)),
            b.value(upstream_arith.SelectOp(kept, i, previous)),
        ]

    e.loop(zero, entries.nnz, [num, zero], place)
    e.op(memref.DeallocOp.get(counts))
    return crd, total


def _compress_level(
    e: Emitter,
    entries: Entries,
    level: int,
    lt: LevelType,
    parent: SSAValue,
    num: SSAValue,
    pos_type: MemRefType[Attribute],
    crd_type: MemRefType[Attribute],
    size: SSAValue,
) -> tuple[SSAValue, SSAValue, SSAValue]:
    """A compressed level (of `size` coordinates) over entries sorted by level
    coordinates: its positions and coordinates buffers and its number of
    positions; `parent[k]` becomes the position of entry k in this level.
    Positions and coordinates that do not fit their widths are reported."""
    one = e.index(1)
    counts = e.alloc(MemRefType(INDEX, [DYNAMIC_INDEX]), [e.add(num, one)])
    e.fill(counts, e.index(0))
    crd = e.alloc(crd_type, [entries.nnz])

    def visit(b: Emitter, k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        nodes, last_parent, last_crd = carried
        p = b.load(parent, [k])
        c = _coordinate(b, entries, k, level)
        new: SSAValue = b.value(arith.CmpiOp(k, b.index(0), "eq"))
        if lt.is_unique:
            changed = b.value(
                arith.OrIOp(
                    b.value(arith.CmpiOp(p, last_parent, "ne")),
                    b.value(arith.CmpiOp(c, last_crd, "ne")),
                )
            )
            new = b.value(arith.OrIOp(new, changed))
        else:
            new = b.constant(1, IntegerType(1))

        def start(d: Emitter) -> None:
            check_coordinate(d, c, crd_type.element_type, size)
            d.store(d.from_index(c, crd_type.element_type), crd, [nodes])
            at = d.add(p, one)
            d.store(d.add(d.load(counts, [at]), one), counts, [at])

        b.when(new, start)
        step = b.value(
            upstream_arith.IndexCastOp(b.value(upstream_arith.ExtUIOp(new, i64)), INDEX)
        )
        after = b.add(nodes, step)
        b.store(b.value(arith.SubiOp(after, one)), parent, [k])
        return [after, p, c]

    zero = e.index(0)
    nodes = e.loop(zero, entries.nnz, [zero, zero, zero], visit)[0]
    positions_fit(e, nodes, pos_type.element_type)  # the last position
    crd = e.value(ReallocOp(crd, nodes, crd_type))
    loose = lt.format.positions_per_parent == 2
    pos = e.alloc(pos_type, [e.mul(num, e.index(2)) if loose else e.add(num, one)])
    if not loose:
        e.store(e.from_index(zero, pos_type.element_type), pos, [zero])

    def prefix(b: Emitter, i: SSAValue, total: list[SSAValue]) -> list[SSAValue]:
        end = b.add(total[0], b.load(counts, [b.add(i, one)]))
        elem = pos_type.element_type
        if loose:
            at = b.mul(i, b.index(2))
            b.store(b.from_index(total[0], elem), pos, [at])
            b.store(b.from_index(end, elem), pos, [b.add(at, one)])
        else:
            b.store(b.from_index(end, elem), pos, [b.add(i, one)])
        return [end]

    e.loop(zero, num, [zero], prefix)
    e.op(memref.DeallocOp.get(counts))
    return pos, crd, nodes


def build_storage_at_runtime(
    e: Emitter,
    dense: SSAValue,
    tensor_type: TensorType[Attribute],
    stored: SSAValue | None = None,
) -> list[SSAValue]:
    """Storage fields of the nonzeros of a dense buffer (or of the entries
    where `stored` is set), by loops: gather those entries in storage order,
    then build the levels outside in."""
    enc = sparse_encoding(tensor_type)
    assert enc is not None
    dims = e.sizes(dense)
    sizes = [level_extent(e, x, dims) for x in enc.dim_to_lvl.results]
    entries = _gather_entries(e, dense, enc, sizes, stored)
    fields = storage_from_entries(e, entries, tensor_type, sizes)
    for temporary in (entries.coords, entries.values):
        e.op(memref.DeallocOp.get(temporary))
    return fields


def storage_from_entries(
    e: Emitter,
    entries: Entries,
    tensor_type: TensorType[Attribute],
    sizes: Sequence[SSAValue],
) -> list[SSAValue]:
    """Storage fields of `entries` (sorted in the storage order of
    `tensor_type`, whose level sizes are `sizes`), built level by level outside
    in; the entries' buffers stay the caller's."""
    enc = sparse_encoding(tensor_type)
    assert enc is not None
    zero = e.index(0)
    parent = e.alloc(MemRefType(INDEX, [DYNAMIC_INDEX]), [entries.nnz])
    e.fill(parent, zero)
    num = e.index(1)
    fields = {(f.kind, f.level): f.type for f in storage_fields(tensor_type)}
    built: dict[tuple[str, int], SSAValue] = {}
    for level, lt in enumerate(enc.lvl_types):
        fmt = lt.format
        if fmt.is_dense:
            _dense_level(e, entries, level, parent, sizes[level])
            num = e.mul(num, sizes[level])
        elif fmt.is_branchless:
            crd_type = fields["coordinates", level]
            assert is_memref_type(crd_type)
            built["coordinates", level] = _singleton_level(
                e, entries, level, parent, num, crd_type, sizes[level]
            )
        elif fmt.has_positions:
            pos_type, crd_type = (
                fields["positions", level],
                fields["coordinates", level],
            )
            assert is_memref_type(pos_type) and is_memref_type(crd_type)
            pos, crd, num = _compress_level(
                e, entries, level, lt, parent, num, pos_type, crd_type, sizes[level]
            )
            built["positions", level] = pos
            built["coordinates", level] = crd
        elif fmt.is_padded:
            crd_type = fields["coordinates", level]
            assert is_memref_type(crd_type)
            crd, num = _structured_level(e, entries, level, lt, parent, num, crd_type)
            built["coordinates", level] = crd
        else:
            raise ValueError(
                f"converting a non-constant dense tensor to level format {lt} "
                "is not supported"
            )
    values_type = fields["values", -1]
    assert is_memref_type(values_type)
    values = e.alloc(values_type, [num])
    e.fill(values, e.constant(0, values_type.element_type))
    padded = any(lt.format.is_padded for lt in enc.lvl_types)

    def put(b: Emitter, k: SSAValue) -> None:
        value = b.load(entries.values, [k])
        at = b.load(parent, [k])
        if padded:  # explicit zeros have no slot: padding stands for them
            b.when(is_nonzero(b, value), lambda c: c.store(value, values, [at]))
        else:
            b.store(value, values, [at])

    e.for_each(zero, entries.nnz, put)
    e.op(memref.DeallocOp.get(parent))
    built["values", -1] = values
    return [
        sizes[f.level] if f.kind == "level_size" else built[f.kind, f.level]
        for f in storage_fields(tensor_type)
    ]


FieldKey = tuple[str, int]


@dataclass
class LevelStorage:
    """The storage fields of one sparse tensor value, by kind and level."""

    encoding: Encoding
    fields: dict[FieldKey, SSAValue]

    @staticmethod
    def of(value: SSAValue) -> LevelStorage | None:
        """The storage of a sparse value once `sparse-tensor-codegen` has it."""
        storage = storage_of(value)
        enc = sparse_encoding(value.type)
        if storage is None or enc is None:
            return None
        assert is_tensor_type(value.type)
        keys = [(f.kind, f.level) for f in storage_fields(value.type)]
        return LevelStorage(enc, dict(zip(keys, storage, strict=True)))

    def positions(self, level: int) -> SSAValue:
        return self.fields["positions", level]

    def coordinates(self, level: int) -> SSAValue:
        return self.fields["coordinates", level]

    @property
    def values(self) -> SSAValue:
        return self.fields["values", -1]

    def size(self, level: int) -> SSAValue:
        return self.fields["level_size", level]


def storage_result(
    fields: dict[FieldKey, SSAValue],
    tensor_type: TensorType[Attribute],
    rewriter: PatternRewriter,
    at: InsertPoint,
) -> SSAValue:
    """The sparse value of type `tensor_type` made of `fields`."""
    ordered = [fields[f.kind, f.level] for f in storage_fields(tensor_type)]
    return storage_value(ordered, tensor_type, rewriter, at)


def buffer_type(tensor_type: TensorType[Attribute], key: FieldKey) -> MemRefType:
    """The memref type of one buffer of a sparse tensor type's storage."""
    for f in storage_fields(tensor_type):
        if (f.kind, f.level) == key:
            assert is_memref_type(f.type)
            return f.type
    raise KeyError(key)


HUGE_PAGES_FROM = 1 << 22


MADV_HUGEPAGE = 14


MADV_POPULATE_WRITE = 23


PAGE_SIZE = 4096


def alloc_large(
    e: Emitter, t: MemRefType, n: SSAValue, populate: bool = False
) -> SSAValue:
    """A fresh 1-D buffer of `n` elements that asks Linux for transparent huge
    pages when it is large, as numpy does for its arrays: the first write into
    a fresh large buffer otherwise faults every 4 KiB page, which costs as
    much as the copy that fills it. With `populate` (for buffers about to be
    written whole) its pages are also faulted in by one `madvise` call before
    the first write: the kernel zeroes them in one sweep instead of one fault
    per 2 MiB page in the middle of a copy (stacking 4 CSR with 64-bit
    overheads: 42 -> 37 ms)."""
    buffer = e.alloc(t, [n])
    elem = t.element_type
    bits = elem.bitwidth if isinstance(elem, IntegerType | AnyFloat) else 64
    known = n.owner
    if not sys.platform.startswith("linux") or (
        isinstance(known, arith.ConstantOp)
        and isinstance(known.value, IntegerAttr)
        and known.value.value.data * bits < 8 * HUGE_PAGES_FROM
    ):
        return buffer
    size = e.mul(n, e.index(max(bits // 8, 1)))
    large = e.value(arith.CmpiOp(size, e.index(HUGE_PAGES_FROM), "uge"))

    def advise(b: Emitter) -> None:
        address = b.value(memref.ExtractAlignedPointerAsIndexOp.get(buffer))
        page = b.index(PAGE_SIZE)
        start = b.mul(b.value(arith.CeilDivUIOp(address, page)), page)
        length = b.sub(b.add(address, size), start)
        advice = b.constant(MADV_HUGEPAGE, IntegerType(32))
        b.call("madvise", [start, length, advice], [IntegerType(32)])
        if populate:
            ahead = b.constant(MADV_POPULATE_WRITE, IntegerType(32))
            b.call("madvise", [start, length, ahead], [IntegerType(32)])

    e.when(large, advise)
    return buffer


def alloc_below(
    e: Emitter,
    tensor_type: TensorType[Attribute],
    sources: Sequence[LevelStorage],
    level: int,
    reuse: LevelStorage | None = None,
) -> dict[FieldKey, SSAValue]:
    """The result's buffers that hold as many entries as the sources' together:
    coordinates from `level` down, positions under it (one leading 0, then one
    per parent) and the values; with `reuse`, that storage's buffers grown
    (`memref.realloc`: their contents stay, a large one is remapped, not
    copied) instead of fresh ones."""
    out: dict[FieldKey, SSAValue] = {}
    zero, one = e.index(0), e.index(1)
    for f in storage_fields(tensor_type):
        key = (f.kind, f.level)
        if f.kind == "level_size" or (f.kind != "values" and f.level < level):
            continue
        if f.kind == "positions" and f.level == level:
            continue
        assert is_memref_type(f.type)
        sizes = [e.dim(s.fields[key]) for s in sources]
        if f.kind == "positions":
            n = e.add(one, e.total([e.sub(x, one) for x in sizes]))
        else:
            n = e.total(sizes)
        if reuse is not None:
            out[key] = e.value(ReallocOp(reuse.fields[key], n, f.type))
            continue
        out[key] = alloc_large(e, f.type, n, populate=True)
        if f.kind == "positions":
            e.store(e.from_index(zero, f.type.element_type), out[key], [zero])
    return out


def buffer_type_of(buffer: SSAValue) -> MemRefType:
    t = buffer.type
    assert is_memref_type(t)
    return t


def operand_dims(e: Emitter, value: SSAValue) -> list[SSAValue] | None:
    """Every dimension size of a concat operand, once it is lowered (sparse:
    storage; dense: bufferized)."""
    stt = SparseTensorType.of(value.type)
    assert stt is not None
    if stt.has_encoding:
        if storage_of(value) is None:
            return None
        return dim_sizes(e, value, stt, level_sizes(e, value, stt))
    if not isinstance(value.owner, bufferization.ToTensorOp):
        return None
    return e.sizes(value.owner.memref)


def scatter_entries(
    e: Emitter, value: SSAValue, place: Place, dense: SSAValue, mask: SSAValue | None
) -> None:
    """Store the stored entries of a lowered tensor value (a dense one's
    nonzeros) into `dense` at `place(coordinates)`, and set `mask` there."""

    def put(b: Emitter, at: list[SSAValue], v: SSAValue, stored: SSAValue) -> None:
        where = place(b, at)
        b.store(v, dense, where)
        if mask is not None:
            b.store(stored, mask, where)

    stt = SparseTensorType.of(value.type)
    enc = sparse_encoding(value.type)
    if stt is None or enc is None:
        assert isinstance(value.owner, bufferization.ToTensorOp)
        buffer = value.owner.memref

        def dense_entry(b: Emitter, at: list[SSAValue]) -> None:
            v = b.load(buffer, at)
            stored = b.value(upstream_arith.ExtUIOp(is_nonzero(b, v), IntegerType(8)))
            put(b, at, v, stored)

        for_all(e, e.sizes(buffer), dense_entry)
        return
    values = e.value(ToValuesOp(value))
    one = e.constant(1, IntegerType(8))

    def stored_entry(b: Emitter, coords: list[SSAValue], p: SSAValue) -> None:
        at = [b.affine(x, coords) for x in enc.lvl_to_dim.results]
        put(b, at, b.load(values, [p]), one)

    for_each_stored(e, value, stt, stored_entry)


def dense_staging(
    e: Emitter, result_type: TensorType[Attribute], dims: Sequence[SSAValue]
) -> tuple[SSAValue, SSAValue | None]:
    """A zero-filled dense buffer of the result's shape and, for a sparse
    result, a zero-filled mask of the places stored."""
    dense = e.alloc(dense_buffer_type(result_type), dims)
    e.fill(dense, e.constant(0, result_type.element_type))
    if sparse_encoding(result_type) is None:
        return dense, None
    mask = e.alloc(MemRefType(IntegerType(8), result_type.get_shape()), dims)
    e.fill(mask, e.constant(0, IntegerType(8)))
    return dense, mask


def from_staging(
    e: Emitter,
    dense: SSAValue,
    mask: SSAValue | None,
    result_type: TensorType[Attribute],
    at: InsertPoint,
) -> SSAValue:
    """The result from `dense_staging`'s buffers once filled."""
    if mask is None:
        return as_tensor(dense, result_type, e.rewriter, at)
    fields = build_storage_at_runtime(e, dense, result_type, mask)
    e.op(memref.DeallocOp.get(dense))
    e.op(memref.DeallocOp.get(mask))
    return storage_value(fields, result_type, e.rewriter, at)


def for_all(
    e: Emitter,
    sizes: Sequence[SSAValue],
    body: Callable[[Emitter, list[SSAValue]], None],
) -> None:
    """A loop nest over every index tuple below `sizes`."""

    def nest(b: Emitter, indices: list[SSAValue]) -> None:
        if len(indices) == len(sizes):
            body(b, indices)
            return
        b.for_each(b.index(0), sizes[len(indices)], lambda c, i: nest(c, [*indices, i]))

    nest(e, [])


Place = Callable[[Emitter, list[SSAValue]], list[SSAValue]]
