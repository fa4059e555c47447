"""Patterns of `sparse-tensor-codegen` for tensors that enter or leave as a whole:
`sparse_tensor.new` / `sparse_tensor.out` (files) and `sparse_tensor.assemble` /
`sparse_tensor.disassemble` (level buffers), and `jagged.to_sparse` (the
exact buffers of a sparse output built in parallel, taken over unchecked).

Mirrors MLIR 22's codegen of these ops (SparseTensorCodegen.cpp,
SparseTensorRewriting.cpp) on xsparse's storage (`storage_fields`: one
coordinates buffer per level, each buffer exactly as long as what it holds):

* `sparse_tensor.new %file` -> calls of the runtime functions named below:
  `xsparse_new_tensor(file, type)` reads the file into the storage of the
  result type (its text passed as a NUL-terminated constant) and returns a
  handle; per storage field, `xsparse_tensor_size(handle, k)` gives its length
  (or the level size), a fresh buffer is allocated and
  `xsparse_tensor_copy(handle, k, address)` fills it;
  `xsparse_tensor_release(handle)` ends. The buffers are the tensor's own, as
  those of any computed tensor.
* `sparse_tensor.out %t, %file` -> `xsparse_out_begin(type)`, then
  `xsparse_out_field(handle, k, address, length)` per field (a level size as
  its length at address 0), then `xsparse_out_end(handle, file)`, which writes
  the tensor in MLIR's extended FROSTT format (to stdout for an empty name).
* `sparse_tensor.assemble` -> a tensor over the given buffers: each one seen
  up to the length that the positions say is used (a view, no copy), except
  constants, copied into fresh buffers, and the array-of-structs coordinates
  of a trailing COO region, copied out into one buffer per level.
* `sparse_tensor.disassemble` -> each storage buffer copied into the given
  output tensor (in place when nothing else uses it), returned with the
  used lengths.

The runtime functions are external: this pass only names them; the backend
(`xsparse.backend.io_runtime`) provides them to the JIT.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, bufferization, llvm, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    MemRefType,
    TensorType,
    i8,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.jagged import ToSparseOp
from xsparse.dialects.sparse_tensor.levels import positionless_access
from xsparse.dialects.sparse_tensor.ops_conversion import (
    AssembleOp,
    DisassembleOp,
    NewOp,
    OutOp,
)
from xsparse.dialects.sparse_tensor.storage import (
    sparse_encoding,
    storage_fields,
)
from xsparse.dialects.sparse_tensor.types import SparseTensorType
from xsparse.dialects.type_guards import is_memref_type, is_tensor_type
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.codegen_utils.op_emitter import INDEX, to_tensor
from xsparse.transforms.errors import PassFailure
from xsparse.transforms.runtime_symbols import (
    NEW_TENSOR,
    OUT_BEGIN,
    OUT_END,
    OUT_FIELD,
    TENSOR_COPY,
    TENSOR_RELEASE,
    TENSOR_SIZE,
)
from xsparse.transforms.storage.buffer_checks import (
    CheckedBuffers,
    GivenLevel,
    check_given_buffers,
)
from xsparse.transforms.storage.level_buffers import (
    as_tensor,
    buffer_of,
    constant_buffer,
    copy_buffer,
    dense_constant_of,
    global_of,
    storage_of,
    storage_value,
)


def _address(e: Emitter, buffer: SSAValue) -> SSAValue:
    """The address of a buffer's first element, as an index."""
    return e.value(memref.ExtractAlignedPointerAsIndexOp.get(buffer))


def _type_text(e: Emitter, tensor_type: Attribute) -> SSAValue:
    """The address of a NUL-terminated constant holding the text of a type."""
    data = [*str(tensor_type).encode(), 0]
    text = e.global_constant("type", MemRefType(i8, [len(data)]), data)
    return _address(e, text)


def _file_operand(op: Operation, value: SSAValue) -> SSAValue:
    if not isinstance(value.type, llvm.LLVMPointerType):
        raise PassFailure(
            op, f"expected a file name of type !llvm.ptr, got {value.type}"
        )
    return value


class LowerNewFromFile(RewritePattern):
    """`sparse_tensor.new` of a file name -> the runtime reads the file; each
    storage field is copied into a fresh buffer of the length it reports."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: NewOp, rewriter: PatternRewriter) -> None:
        t = op.result.type
        stt = SparseTensorType.of(t)
        if stt is None or not stt.has_encoding or not is_tensor_type(t):
            return
        source = _file_operand(op, op.source)
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        handle = e.call(NEW_TENSOR, [source, _type_text(e, t)], [INDEX])[0]
        static_sizes = stt.lvl_shape
        fields: list[SSAValue] = []
        for k, f in enumerate(storage_fields(t)):
            if f.kind == "level_size" and static_sizes[f.level] != DYNAMIC_INDEX:
                fields.append(e.index(static_sizes[f.level]))
                continue
            key = e.index(k)
            size = e.call(TENSOR_SIZE, [handle, key], [INDEX])[0]
            if f.kind == "level_size":
                fields.append(size)
                continue
            assert is_memref_type(f.type)
            buffer = e.alloc(f.type, [size])
            e.call(TENSOR_COPY, [handle, key, _address(e, buffer)])
            fields.append(buffer)
        e.call(TENSOR_RELEASE, [handle])
        rewriter.replace(op, [], [storage_value(fields, t, rewriter, at)])


class LowerOutToFile(RewritePattern):
    """`sparse_tensor.out` -> the runtime gets every storage field (address
    and length), then writes the tensor to the file."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: OutOp, rewriter: PatternRewriter) -> None:
        t = op.tensor.type
        storage = storage_of(op.tensor)
        if storage is None or not is_tensor_type(t):
            return
        dest = _file_operand(op, op.dest)
        e = Emitter(rewriter, InsertPoint.before(op))
        handle = e.call(OUT_BEGIN, [_type_text(e, t)], [INDEX])[0]
        zero = e.index(0)
        for k, value in enumerate(storage):
            if is_memref_type(value.type):
                address, length = _address(e, value), e.dim(value)
            else:
                address, length = zero, value
            e.call(OUT_FIELD, [handle, e.index(k), address, length])
        e.call(OUT_END, [handle, dest])
        rewriter.erase(op)


def _bufferized(values: Sequence[SSAValue]) -> bool:
    """Whether every dense tensor among `values` is a buffer's tensor already."""
    return all(isinstance(v.owner, bufferization.ToTensorOp) for v in values)


def _view(e: Emitter, buffer: SSAValue, length: SSAValue, t: Attribute) -> SSAValue:
    """The first `length` elements of a 1-D buffer, as a buffer of type `t`."""
    return e.value(
        memref.ReinterpretCastOp(buffer, [], [length], [], [0], [DYNAMIC_INDEX], [1], t)
    )


def _input_buffer(
    e: Emitter, value: SSAValue, hint: str, rewriter: PatternRewriter
) -> SSAValue:
    """The buffer of a dense tensor operand: a fresh copy of a constant (its
    global stays read-only; index data goes through i64), else its own."""
    constant = dense_constant_of(value)
    t = value.type
    assert is_tensor_type(t)
    if constant is None:
        return buffer_of(value, rewriter, e.at)
    static = MemRefType(t.element_type, [constant.size])
    fresh = constant_buffer(e, hint, static, constant.reshape(-1).tolist())
    if len(t.get_shape()) == 1:
        return fresh
    shape = list(t.get_shape())
    return e.value(
        memref.ReinterpretCastOp(
            fresh,
            [],
            [],
            [],
            [0],
            shape,
            [*_row_major_strides(shape)],
            MemRefType(t.element_type, shape),
        )
    )


def _row_major_strides(shape: Sequence[int]) -> list[int]:
    strides: list[int] = []
    running = 1
    for size in reversed(shape):
        strides.append(running)
        running *= size
    return strides[::-1]


class LowerAssemble(RewritePattern):
    """`sparse_tensor.assemble` -> a sparse value over the given buffers, each
    seen up to its used length; AoS COO coordinates are split into one
    buffer per level."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AssembleOp, rewriter: PatternRewriter) -> None:
        t = op.result.type
        stt = SparseTensorType.of(t)
        if stt is None or not is_tensor_type(t):
            return
        operands = [*op.levels, op.values]
        kinds = stt.storage_fields()  # an AoS COO region is one ("crd", level)
        _check_buffer_ranks(op, [*kinds, ("values", -1)], operands, stt.aos_coo_start)
        if not _bufferized(operands):
            return
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        given = {
            key: _input_buffer(e, v, key[0], rewriter)
            for key, v in zip(kinds, op.levels, strict=True)
        }
        values = _input_buffer(e, op.values, "values", rewriter)
        level_sizes = [e.index(s) for s in stt.lvl_shape]
        coo = stt.aos_coo_start
        preconditions: list[tuple[SSAValue, str]] = []
        if ("crd", coo) in given:
            columns = stt.lvl_rank - coo
            preconditions.append(
                (
                    e.cmp(e.dim(given["crd", coo], 1), "uge", e.index(columns)),
                    f"the coordinates of levels {coo}.. need {columns} columns",
                )
            )
        checked = check_given_buffers(
            e,
            "sparse_tensor.assemble",
            stt,
            level_sizes,
            [_given_level(e, given, level, coo) for level in range(stt.lvl_rank)],
            e.dim(values),
            preconditions,
        )
        buffers = e.branch(
            checked.ok,
            lambda b: _given_views(b, t, given, values, checked),
            lambda b: _empty_buffers(b, t, stt, level_sizes),
        )
        fields: list[SSAValue] = []
        for f in storage_fields(t):
            fields.append(
                level_sizes[f.level] if f.kind == "level_size" else buffers.pop(0)
            )
        rewriter.replace(op, [], [storage_value(fields, t, rewriter, at)])


class LowerJaggedToSparse(RewritePattern):
    """`jagged.to_sparse` -> a sparse value over the given buffers as they
    are (its level sizes permuted from the dimension sizes)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ToSparseOp, rewriter: PatternRewriter) -> None:
        t = op.result.type
        assert is_tensor_type(t)
        stt = SparseTensorType(t)
        sizes = list(op.sizes)
        buffers = [op.positions, op.coordinates, op.values]
        fields: list[SSAValue] = []
        for f in storage_fields(t):
            if f.kind == "level_size":
                dim = stt.dim_to_lvl.results[f.level]
                assert isinstance(dim, AffineDimExpr)
                fields.append(sizes[dim.position])
            else:
                fields.append(buffers.pop(0))
        at = InsertPoint.before(op)
        rewriter.replace(op, [], [storage_value(fields, t, rewriter, at)])


def _given_level(
    e: Emitter, given: dict[tuple[str, int], SSAValue], level: int, coo: int
) -> GivenLevel:
    """How the checks read one level's given buffers (a column of the AoS
    coordinates past `coo`)."""
    positions = given.get(("pos", level))
    if level >= coo:
        aos, column = given["crd", coo], level - coo

        def read_column(b: Emitter, k: SSAValue) -> SSAValue:
            return b.to_index(b.load(aos, [k, b.index(column)]))

        return GivenLevel(positions, read_column, e.dim(aos))
    return GivenLevel.of_buffers(e, positions, given.get(("crd", level)))


def _given_views(
    e: Emitter,
    t: TensorType[Attribute],
    given: dict[tuple[str, int], SSAValue],
    values: SSAValue,
    checked: CheckedBuffers,
) -> list[SSAValue]:
    """The checked buffers, each seen up to its used length (AoS coordinates
    split into one buffer per level); the storage fields' buffers in order."""
    stt = SparseTensorType.of(t)
    assert stt is not None and checked.values_used is not None
    coo = stt.aos_coo_start
    built: list[SSAValue] = []
    for f in storage_fields(t):
        if f.kind == "positions":
            used = checked.positions_used[f.level]
            built.append(_view(e, given["pos", f.level], used, f.type))
        elif f.kind == "coordinates" and f.level < coo:
            used = checked.coordinates_used[f.level]
            built.append(_view(e, given["crd", f.level], used, f.type))
        elif f.kind == "coordinates":
            used = checked.coordinates_used[f.level]
            built.append(_column(e, given["crd", coo], f.type, f.level - coo, used))
        elif f.kind == "values":
            built.append(_view(e, values, checked.values_used, f.type))
    return built


def _empty_buffers(
    e: Emitter,
    t: TensorType[Attribute],
    stt: SparseTensorType,
    level_sizes: Sequence[SSAValue],
) -> list[SSAValue]:
    """Fresh zeroed buffers of a tensor with no stored entries (what assemble
    returns for buffers that failed a check: the kernel stays in bounds)."""
    lengths: dict[tuple[str, int], SSAValue] = {}
    parents = e.index(1)
    for level, lt in enumerate(stt.lvl_types):
        fmt, size = lt.format, level_sizes[level]
        if fmt.is_dense:
            parents = e.mul(parents, size)
            continue
        if fmt.has_positions:
            lengths["positions", level] = fmt.positions_length(e, parents)
            parents = e.index(0)
        else:
            access = positionless_access(e, lambda size=size: size)
            bounds = fmt.children(lt, access, e.index(0), parents)
            assert bounds is not None
            parents = bounds[1]
        lengths["coordinates", level] = parents
    built: list[SSAValue] = []
    for f in storage_fields(t):
        if f.kind == "level_size":
            continue
        assert is_memref_type(f.type)
        length = parents if f.kind == "values" else lengths[f.kind, f.level]
        buffer = e.alloc(f.type, [length])
        e.fill(buffer, e.constant(0, f.type.element_type))
        built.append(buffer)
    return built


def _check_buffer_ranks(
    op: Operation,
    kinds: Sequence[tuple[str, int]],
    operands: Sequence[SSAValue],
    coo: int,
) -> None:
    """Positions, coordinates and values come as 1-D tensors, the coordinates
    of an AoS COO region as one 2-D tensor (entries x levels)."""
    for i, (key, value) in enumerate(zip(kinds, operands, strict=True)):
        t = value.type
        rank = 2 if key == ("crd", coo) else 1
        if (is_tensor_type(t) or is_memref_type(t)) and t.get_num_dims() != rank:
            raise PassFailure(
                op, f"operand #{i} ({key[0]}) of type {t} is not {rank}-D"
            )


def _column(
    e: Emitter, aos: SSAValue, t: Attribute, column: int, length: SSAValue
) -> SSAValue:
    """Coordinates of one level of an AoS COO region: a column of `aos`
    (entries x levels), `length` of them copied into a fresh buffer."""
    assert is_memref_type(t)
    fresh = e.alloc(t, [length])
    index = e.index(column)

    def move(b: Emitter, i: SSAValue) -> None:
        b.store(b.load(aos, [i, index]), fresh, [i])

    e.for_each(e.index(0), length, move)
    return fresh


def _output_buffer(e: Emitter, value: SSAValue, rewriter: PatternRewriter) -> SSAValue:
    """The buffer a disassemble writes into: the operand's own when nothing
    else reads it, else (or for a constant) a copy."""
    buffer = buffer_of(value, rewriter, e.at)
    if global_of(buffer) is not None or len(list(value.uses)) > 1:
        buffer = copy_buffer(e, buffer)
    return buffer


def _copy_prefix(e: Emitter, source: SSAValue, target: SSAValue) -> SSAValue:
    """Copy a whole 1-D buffer into the front of another (as much as fits);
    the source's length."""
    length = e.dim(source)
    fits = e.value(arith.MinUIOp(length, e.dim(target)))

    def move(b: Emitter, i: SSAValue) -> None:
        b.store(b.load(source, [i]), target, [i])

    e.for_each(e.index(0), fits, move)
    return length


def _interleave(e: Emitter, columns: Sequence[SSAValue], target: SSAValue) -> SSAValue:
    """Copy per-level coordinates into the rows of an AoS buffer (entries x
    levels, as many rows as fit); the number of coordinates."""
    rows = e.dim(columns[0])
    fits = e.value(arith.MinUIOp(rows, e.dim(target)))

    def move(b: Emitter, i: SSAValue) -> None:
        for j, c in enumerate(columns):
            b.store(b.load(c, [i]), target, [i, b.index(j)])

    e.for_each(e.index(0), fits, move)
    return e.mul(rows, e.index(len(columns)))


def _as_length(e: Emitter, n: SSAValue, t: Attribute) -> SSAValue:
    """A length `n` as type `t`: an index, an integer, or a 0-D tensor holding
    one (MLIR's `genScalarToTensor`)."""
    if is_tensor_type(t):
        scalar = _as_length(e, n, t.element_type)
        buffer = e.alloc(MemRefType(t.element_type, []), [])
        e.store(scalar, buffer, [])
        return e.value(to_tensor(buffer, t))
    if isinstance(t, IndexType):
        return n
    return e.value(upstream_arith.IndexCastOp(n, t))


class LowerDisassemble(RewritePattern):
    """`sparse_tensor.disassemble` -> every storage buffer copied into its
    output tensor (AoS COO coordinates interleaved), with the used lengths."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DisassembleOp, rewriter: PatternRewriter) -> None:
        source_type = op.tensor.type
        storage = storage_of(op.tensor)
        stt = SparseTensorType.of(source_type)
        if storage is None or stt is None or sparse_encoding(source_type) is None:
            return
        if not _bufferized([*op.out_levels, op.out_values]):
            return
        assert is_tensor_type(source_type)
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        field = {
            (f.kind, f.level): v
            for f, v in zip(storage_fields(source_type), storage, strict=True)
        }
        coo = stt.aos_coo_start
        results: list[SSAValue] = []
        lengths: list[SSAValue] = []
        outs = [*op.out_levels, op.out_values]
        keys: list[tuple[str, int]] = [*stt.storage_fields(), ("values", -1)]
        returned = [*op.ret_levels, op.ret_values]
        for (kind, level), out, ret in zip(keys, outs, returned, strict=True):
            target = _output_buffer(e, out, rewriter)
            if kind == "crd" and level == coo:
                columns = [
                    field["coordinates", lvl] for lvl in range(coo, stt.lvl_rank)
                ]
                length = _interleave(e, columns, target)
            else:
                name = {"pos": "positions", "crd": "coordinates"}.get(kind, kind)
                length = _copy_prefix(e, field[name, level], target)
            results.append(as_tensor(target, ret.type, rewriter, at))
            lengths.append(length)
        length_types = [*op.lvl_lens.types, op.val_len.type]
        lens = [
            _as_length(e, n, lt) for n, lt in zip(lengths, length_types, strict=True)
        ]
        rewriter.replace(op, [], [*results, *lens])


SPARSE_IO_PATTERNS: tuple[RewritePattern, ...] = (
    LowerNewFromFile(),
    LowerOutToFile(),
    LowerAssemble(),
    LowerJaggedToSparse(),
    LowerDisassemble(),
)
"""The patterns `sparse-tensor-codegen` applies with its own."""
