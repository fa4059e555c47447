"""`sparse-tensor-codegen`: sparse tensors -> their level buffers; dense tensors -> memrefs.

Mirrors MLIR 22's `-sparse-tensor-codegen` (SparseTensorCodegen.cpp) together with
the part of one-shot bufferization the sparsifier's output needs:

* a function argument of sparse tensor type becomes its storage fields
  (`xsparse.dialects.sparse_tensor.storage`): positions/coordinates buffers per
  level, the values buffer and the level sizes;
* `sparse_tensor.positions/coordinates/values/lvl` of such an argument resolve to
  those fields;
* a dense tensor argument becomes a memref: `bufferization.to_buffer` of it is the
  memref itself, so outputs are written in place into the `outs` buffer, which
  the function returns (`bufferization.to_tensor` folds away);
* `linalg.fill` on a memref becomes an `scf.for` nest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray
from xdsl.context import Context
from xdsl.dialects import arith, bufferization, func, memref, scf, vector
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    TensorType,
    UnrealizedConversionCastOp,
    VectorType,
    i64,
)
from xdsl.dialects.linalg.ops import FillOp
from xdsl.dialects.tensor import CastOp as TensorCastOp
from xdsl.dialects.tensor import DimOp as TensorDimOp
from xdsl.dialects.tensor import EmptyOp as TensorEmptyOp
from xdsl.dialects.tensor import ExtractOp as TensorExtractOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineDimExpr,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable

from xsparse.dialects.sparse_tensor.encoding import Encoding
from xsparse.dialects.sparse_tensor.levels import (
    LevelType,
    LooseCompressedFormat,
    SingletonFormat,
    StructuredFormat,
)
from xsparse.dialects.sparse_tensor.ops_common import constant_int
from xsparse.dialects.sparse_tensor.ops_conversion import (
    ConvertOp,
    LoadOp,
    ReinterpretMapOp,
)
from xsparse.dialects.sparse_tensor.ops_storage import (
    LvlOp,
    ToCoordinatesOp,
    ToPositionsOp,
    ToValuesOp,
)
from xsparse.dialects.sparse_tensor.storage import (
    LevelBuffers,
    StorageField,
    build_level_buffers,
    sparse_encoding,
    storage_fields,
)
from xsparse.dialects.type_guards import is_memref_type, is_tensor_type, is_vector_type
from xsparse.dialects.xdsl_ext import DeallocTensorOp, ReallocOp
from xsparse.transforms.errors import LocatingApplier, PassFailure, check_dimension
from xsparse.transforms.sparsifier.post_sparsification import (
    GLOBAL_PREFIX,
    INDEX,
    Emitter,
    level_extent,
)
from xsparse.transforms.storage.insertion import (
    GROWING_ATTR,
    INSERTION_PATTERNS,
    STORAGE_ATTR,
    UNPACK_ATTR,
    receives_insertions,
)


def dense_buffer_type(tensor_type: TensorType[Attribute]) -> MemRefType[Attribute]:
    return MemRefType(tensor_type.element_type, tensor_type.get_shape())


def lowered_argument_types(arg_type: Attribute) -> list[Attribute]:
    """The types a function argument of type `arg_type` becomes."""
    if sparse_encoding(arg_type) is not None:
        assert is_tensor_type(arg_type)
        return [f.type for f in storage_fields(arg_type)]
    if is_tensor_type(arg_type):
        return [dense_buffer_type(arg_type)]
    return [arg_type]


class ExpandFunctionArguments(RewritePattern):
    """Give a function its buffer-level signature: each tensor argument becomes
    its buffers; the old argument is replaced by a cast of them."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter) -> None:
        if op.is_declaration:
            return
        inputs = op.function_type.inputs.data
        if not any(is_tensor_type(t) for t in inputs):
            return
        block = op.body.blocks[0]
        new_inputs: list[Attribute] = []
        for old_arg in list(block.args):
            arg_type = old_arg.type
            new_types = lowered_argument_types(arg_type)
            new_inputs.extend(new_types)
            if new_types == [arg_type]:
                continue
            new_args = [
                block.insert_arg(t, old_arg.index + i) for i, t in enumerate(new_types)
            ]
            if sparse_encoding(arg_type) is not None:
                cast: Operation = UnrealizedConversionCastOp.get(new_args, [arg_type])
                cast.attributes[STORAGE_ATTR] = IntegerAttr(len(new_args), IndexType())
            else:
                cast = bufferization.ToTensorOp.create(
                    operands=new_args, result_types=[arg_type]
                )
            rewriter.insert(cast, InsertPoint.at_start(block))
            if sparse_encoding(arg_type) is not None and receives_insertions(old_arg):
                _own_buffers(cast, rewriter)
            old_arg.replace_all_uses_with(cast.results[0])
            block.erase_arg(old_arg)
        op.function_type = FunctionType.from_lists(
            new_inputs, op.function_type.outputs.data
        )


def _own_buffers(cast: Operation, rewriter: PatternRewriter) -> None:
    """The buffers of a sparse argument that the function inserts into, copied
    before `cast` gathers them: insertion grows buffers with realloc, and the
    caller's (numpy's) must stay the caller's, unchanged, as a tensor value is."""
    e = Emitter(rewriter, InsertPoint.before(cast))
    for i, field in enumerate(cast.operands):
        if is_memref_type(field.type):
            cast.operands[i] = _copy(e, field)


class ExpandFunctionDeclaration(RewritePattern):
    """A declared function's tensor arguments and results become buffers, as
    those of a defined one do."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter) -> None:
        t = op.function_type
        if not op.is_declaration or not any(
            is_tensor_type(x) for x in (*t.inputs.data, *t.outputs.data)
        ):
            return
        op.function_type = FunctionType.from_lists(
            [x for i in t.inputs.data for x in lowered_argument_types(i)],
            [x for o in t.outputs.data for x in lowered_argument_types(o)],
        )
        rewriter.handle_operation_modification(op)


class ReturnBuffers(RewritePattern):
    """Return the buffers behind returned tensors (a sparse tensor as its
    storage fields), and fix the function type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.ReturnOp, rewriter: PatternRewriter) -> None:
        if not any(is_tensor_type(v.type) for v in op.arguments):
            return
        function = op.parent_op()
        assert isinstance(function, func.FuncOp)
        new_values: list[SSAValue] = []
        for value in op.arguments:
            if sparse_encoding(value.type) is not None:
                storage = _storage_of(value)
                if storage is None:
                    return  # once the producer of the sparse value is lowered
                new_values.extend(storage)
            elif is_tensor_type(value.type):
                new_values.append(buffer_of(value, rewriter, InsertPoint.before(op)))
            else:
                new_values.append(value)
        rewriter.replace(op, func.ReturnOp(*new_values))
        function.function_type = FunctionType.from_lists(
            function.function_type.inputs.data, [v.type for v in new_values]
        )


class FoldToBufferOfToTensor(RewritePattern):
    """`to_buffer(to_tensor(m))` is `m`: tensors of the kernel live in place.
    A constant's buffer is read-only: its users get a copy (as MLIR's
    bufferization gives a kernel writing into a constant `outs`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: bufferization.ToBufferOp, rewriter: PatternRewriter
    ) -> None:
        source = op.tensor.owner
        if isinstance(source, bufferization.ToTensorOp):
            buffer = source.memref
            if _global_of(buffer) is not None:
                buffer = _copy(Emitter(rewriter, InsertPoint.before(op)), buffer)
            if buffer.type != op.memref.type:
                cast = memref.CastOp.get(buffer, op.memref.type)
                rewriter.replace(op, cast)
            else:
                rewriter.replace(op, [], [buffer])


def _storage_of(value: SSAValue) -> list[SSAValue] | None:
    owner = value.owner
    if (
        isinstance(owner, UnrealizedConversionCastOp)
        and STORAGE_ATTR in owner.attributes
    ):
        return list(owner.inputs)
    return None


def _field(tensor: SSAValue, kind: str, level: int) -> SSAValue | None:
    storage = _storage_of(tensor)
    if storage is None:
        return None
    assert is_tensor_type(tensor.type)
    fields: list[StorageField] = storage_fields(tensor.type)
    for value, f in zip(storage, fields, strict=True):
        if f.kind == kind and f.level == level:
            return value
    return None


class ResolveBufferAccess(RewritePattern):
    """`positions/coordinates/values` of a sparse argument are its buffers."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: ToPositionsOp | ToCoordinatesOp | ToValuesOp,
        rewriter: PatternRewriter,
    ) -> None:
        if isinstance(op, ToValuesOp):
            field = _field(op.tensor, "values", -1)
        else:
            kind = "positions" if isinstance(op, ToPositionsOp) else "coordinates"
            field = _field(op.tensor, kind, op.level.value.data)
        if field is None:
            return
        if field.type != op.results[0].type:
            result_type = cast(MemRefType[Attribute], op.results[0].type)
            rewriter.replace(op, memref.CastOp.get(field, result_type))
        else:
            rewriter.replace(op, [], [field])


class ResolveLevelSize(RewritePattern):
    """`sparse_tensor.lvl` of a sparse argument at a constant level is its size."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: LvlOp, rewriter: PatternRewriter) -> None:
        level = op.index.owner
        if not isinstance(level, arith.ConstantOp) or not isinstance(
            level.value, IntegerAttr
        ):
            return
        field = _field(op.source, "level_size", level.value.value.data)
        if field is not None:
            rewriter.replace(op, [], [field])


class ForwardReinterpretMap(RewritePattern):
    """`sparse_tensor.reinterpret_map` keeps the storage: the same buffers, seen
    with the demapped type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: ReinterpretMapOp, rewriter: PatternRewriter
    ) -> None:
        storage = _storage_of(op.source)
        if storage is None:
            return
        cast = UnrealizedConversionCastOp.get(storage, [op.dest.type])
        cast.attributes[STORAGE_ATTR] = IntegerAttr(len(storage), IndexType())
        rewriter.replace(op, cast)


class ForwardLoad(RewritePattern):
    """`sparse_tensor.load` without inserts is its operand: a tensor updated in
    place keeps its storage."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: LoadOp, rewriter: PatternRewriter) -> None:
        if op.has_inserts is None and _storage_of(op.tensor) is not None:
            rewriter.replace(op, [], [op.tensor])


class LowerMemrefFill(RewritePattern):
    """`linalg.fill` of a memref -> an `scf.for` nest of stores."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: FillOp, rewriter: PatternRewriter) -> None:
        if op.res or len(op.outputs) != 1:
            return
        target = op.outputs[0]
        target_type = target.type
        if not is_memref_type(target_type):
            return
        value = op.inputs[0]
        zero = arith.ConstantOp.from_int_and_width(0, IndexType())
        one = arith.ConstantOp.from_int_and_width(1, IndexType())
        rewriter.insert([zero, one], InsertPoint.before(op))
        indices: list[SSAValue] = []
        insertion = InsertPoint.before(op)
        for dim, size in enumerate(target_type.get_shape()):
            if size >= 0:
                bound: Operation = arith.ConstantOp.from_int_and_width(
                    size, IndexType()
                )
            else:
                bound = memref.DimOp(
                    target,
                    rewriter.insert(
                        arith.ConstantOp.from_int_and_width(dim, IndexType()), insertion
                    ).results[0],
                )
            rewriter.insert(bound, insertion)
            body = Block(arg_types=[IndexType()])
            loop = scf.ForOp(
                zero.result, bound.results[0], one.result, [], Region(body)
            )
            rewriter.insert(loop, insertion)
            indices.append(body.args[0])
            rewriter.insert(scf.YieldOp(), InsertPoint.at_end(body))
            insertion = InsertPoint.before(body.last_op)  # pyright: ignore[reportArgumentType]
        rewriter.insert(memref.StoreOp.get(value, target, indices), insertion)
        rewriter.erase(op)


def build_storage(
    dense: NDArray[Any], tensor_type: TensorType[Attribute]
) -> LevelBuffers:
    """The storage of the nonzeros of `dense` in the encoding of `tensor_type`."""
    enc = sparse_encoding(tensor_type)
    assert enc is not None
    nonzero = np.argwhere(dense).astype(np.int64)
    return build_level_buffers(enc, dense.shape, nonzero, dense[tuple(nonzero.T)])


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
        cast = memref.CastOp.get(buffer, expected)
        rewriter.insert(cast, at)
        return cast.results[0]
    to_buffer = bufferization.ToBufferOp.create(
        operands=[value], result_types=[expected]
    )
    rewriter.insert(to_buffer, at)
    return to_buffer.results[0]


def _as_tensor(
    buffer: SSAValue, tensor_type: Attribute, rewriter: PatternRewriter, at: InsertPoint
) -> SSAValue:
    to_tensor = bufferization.ToTensorOp.create(
        operands=[buffer], result_types=[tensor_type]
    )
    rewriter.insert(to_tensor, at)
    return to_tensor.results[0]


def _storage_value(
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


def _global_of(buffer: SSAValue) -> memref.GetGlobalOp | None:
    """The `memref.get_global` behind a buffer (through casts), if any."""
    owner = buffer.owner
    while isinstance(owner, memref.CastOp):
        owner = owner.source.owner
    return owner if isinstance(owner, memref.GetGlobalOp) else None


def _copy(e: Emitter, buffer: SSAValue) -> SSAValue:
    """A fresh buffer holding a copy of `buffer`, of the same type."""
    t = buffer.type
    assert is_memref_type(t)
    fresh = e.alloc(t, e.sizes(buffer))
    e.op(memref.CopyOp(buffer, fresh))
    return fresh


def _constant_buffer(
    e: Emitter, name_hint: str, t: MemRefType[Attribute], data: list[Any]
) -> SSAValue:
    """A fresh buffer of static type `t` holding `data`, copied from a constant
    global (index data is kept as i64 there, as globals of index do not lower)."""
    if not data:
        return e.alloc(t, [])
    if not isinstance(t.element_type, IndexType):
        return _copy(e, e.global_constant(name_hint, t, data))
    source = e.global_constant(name_hint, MemRefType(i64, t.get_shape()), data)
    fresh = e.alloc(t, [])

    def move(b: Emitter, i: SSAValue) -> None:
        v = b.value(arith.IndexCastOp(b.load(source, [i]), IndexType()))
        b.store(v, fresh, [i])

    e.for_each(e.index(0), e.index(len(data)), move)
    return fresh


class LowerDenseConstant(RewritePattern):
    """`arith.constant dense<...> : tensor<...>` -> a constant global."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: arith.ConstantOp, rewriter: PatternRewriter
    ) -> None:
        t = op.result.type
        if not is_tensor_type(t) or sparse_encoding(t) is not None:
            return
        if not isinstance(op.value, DenseIntOrFPElementsAttr):
            raise PassFailure(op, "only dense<...> tensor constants are supported")
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        # Complex constants never reach here: the sparsifier has no complex types.
        data = cast(list[int | float], list(op.value.get_values()))
        if isinstance(t.element_type, IntegerType | IndexType):
            data = [int(v) for v in data]
        buffer = e.global_constant("cst", dense_buffer_type(t), data)
        rewriter.replace(op, [], [_as_tensor(buffer, t, rewriter, at)])


def _dense_constant_of(value: SSAValue) -> NDArray[Any] | None:
    """The contents of a dense tensor that is a constant (directly, through
    `tensor.cast`, or already lowered to a global), as a numpy array."""
    owner = value.owner
    while isinstance(owner, TensorCastOp):
        owner = owner.source.owner
    attr: Attribute | None = None
    if isinstance(owner, arith.ConstantOp):
        attr = owner.value
    elif isinstance(owner, bufferization.ToTensorOp):
        get_global = _global_of(owner.memref)
        if get_global is not None:
            module = cast(Operation, owner.get_toplevel_object())
            glob = SymbolTable.lookup_symbol(module, get_global.name_)
            if isinstance(glob, memref.GlobalOp):
                attr = glob.initial_value
    if not isinstance(attr, DenseIntOrFPElementsAttr):
        return None
    t = attr.get_type()
    assert is_tensor_type(t)
    return np.array(attr.get_values()).reshape(t.get_shape())


class ConvertConstantToSparse(RewritePattern):
    """`sparse_tensor.convert` of a dense constant -> its storage, built at
    compile time: constant globals copied into fresh buffers."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertOp, rewriter: PatternRewriter) -> None:
        dest_type = op.dest.type
        enc = sparse_encoding(dest_type)
        if enc is None or sparse_encoding(op.source.type) is not None:
            return
        constant = _dense_constant_of(op.source)
        if constant is None:
            return
        assert is_tensor_type(dest_type)
        storage = build_storage(constant, dest_type)
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        fields: list[SSAValue] = []
        for f in storage_fields(dest_type):
            if f.kind == "level_size":
                fields.append(e.index(storage.level_sizes[f.level]))
                continue
            data = storage.field(f.kind, f.level)
            assert is_memref_type(f.type)
            elem = f.type.element_type
            static = MemRefType(elem, [len(data)])
            fresh = _constant_buffer(e, f.kind, static, data.tolist())
            fields.append(e.value(memref.CastOp.get(fresh, f.type)))
        rewriter.replace(op, [], [_storage_value(fields, dest_type, rewriter, at)])


class ForwardSparseCast(RewritePattern):
    """`tensor.cast` of a sparse tensor, and `sparse_tensor.convert` between
    identical types, keep the storage."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: TensorCastOp | ConvertOp, rewriter: PatternRewriter
    ) -> None:
        source = op.source
        result = op.results[0]
        if sparse_encoding(result.type) is None:
            return
        if isinstance(op, ConvertOp) and source.type != result.type:
            return
        storage = _storage_of(source)
        if storage is None:
            return
        at = InsertPoint.before(op)
        rewriter.replace(op, [], [_storage_value(storage, result.type, rewriter, at)])


class CopySparseToSparse(RewritePattern):
    """`sparse_tensor.convert` between sparse types with the same encoding
    (another shape) -> a copy of every buffer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertOp, rewriter: PatternRewriter) -> None:
        src_enc, dst_enc = (
            sparse_encoding(op.source.type),
            sparse_encoding(op.dest.type),
        )
        if src_enc is None or src_enc != dst_enc or op.source.type == op.dest.type:
            return
        storage = _storage_of(op.source)
        if storage is None:
            return
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        fields = [_copy(e, v) if is_memref_type(v.type) else v for v in storage]
        rewriter.replace(op, [], [_storage_value(fields, op.dest.type, rewriter, at)])


class ExpandCall(RewritePattern):
    """`func.call` with tensor operands or results: sparse operands pass their
    storage fields, dense ones a fresh copy of their buffer (the callee may
    write it in place); results come back the same way."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.CallOp, rewriter: PatternRewriter) -> None:
        if not any(is_tensor_type(t) for t in (*op.arguments.types, *op.result_types)):
            return
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        operands: list[SSAValue] = []
        for value in op.arguments:
            if sparse_encoding(value.type) is not None:
                storage = _storage_of(value)
                if storage is None:
                    return
                operands.extend(storage)
            elif is_tensor_type(value.type):
                operands.append(_copy(e, buffer_of(value, rewriter, at)))
            else:
                operands.append(value)
        result_types = [t for r in op.result_types for t in lowered_argument_types(r)]
        call = func.CallOp(op.callee, operands, result_types)
        rewriter.insert(call, at)
        after = InsertPoint.after(call)
        results: list[SSAValue] = []
        rest = list(call.results)
        for r in op.result_types:
            n = len(lowered_argument_types(r))
            mine, rest = rest[:n], rest[n:]
            if sparse_encoding(r) is not None:
                results.append(_storage_value(mine, r, rewriter, after))
            elif is_tensor_type(r):
                results.append(_as_tensor(mine[0], r, rewriter, after))
            else:
                results.append(mine[0])
        rewriter.replace(op, [], results)


class LowerDeallocTensor(RewritePattern):
    """`bufferization.dealloc_tensor` -> `memref.dealloc` of every buffer of a
    sparse tensor, or of a dense tensor's buffer (unless it is a constant)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DeallocTensorOp, rewriter: PatternRewriter) -> None:
        value = op.operands[0]
        at = InsertPoint.before(op)
        if sparse_encoding(value.type) is not None:
            storage = _storage_of(value)
            if storage is None:
                return
            buffers = [v for v in storage if is_memref_type(v.type)]
        elif is_tensor_type(value.type):
            if not isinstance(value.owner, bufferization.ToTensorOp):
                return
            buffers = [buffer_of(value, rewriter, at)]
            if _global_of(buffers[0]) is not None:
                buffers = []
        else:
            return
        for b in buffers:
            rewriter.insert(memref.DeallocOp.get(b), at)
        rewriter.erase(op)


class BufferizeNewTensor(RewritePattern):
    """`tensor.empty` and `bufferization.alloc_tensor` of a dense tensor -> a
    fresh zero-filled buffer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: TensorEmptyOp | bufferization.AllocTensorOp, rewriter: PatternRewriter
    ) -> None:
        t = op.results[0].type
        if not is_tensor_type(t) or sparse_encoding(t) is not None:
            return
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        buffer_type = dense_buffer_type(t)
        if isinstance(op, bufferization.AllocTensorOp) and op.copy is not None:
            buffer = _copy(e, buffer_of(op.copy, rewriter, at))
        else:
            dynamic = iter(op.dynamic_sizes)
            sizes = [
                next(dynamic) if n == DYNAMIC_INDEX else e.index(n)
                for n in t.get_shape()
            ]
            buffer = e.alloc(buffer_type, sizes)
            e.fill(buffer, e.constant(0, t.element_type))
        rewriter.replace(op, [], [_as_tensor(buffer, t, rewriter, at)])


class BufferizeDenseCast(RewritePattern):
    """`tensor.cast` of a dense tensor -> `memref.cast` of its buffer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TensorCastOp, rewriter: PatternRewriter) -> None:
        t = op.dest.type
        if not is_tensor_type(t) or sparse_encoding(t) is not None:
            return
        if not isinstance(op.source.owner, bufferization.ToTensorOp):
            return
        at = InsertPoint.before(op)
        buffer = buffer_of(op.source, rewriter, at)
        cast = memref.CastOp.get(buffer, dense_buffer_type(t))
        rewriter.insert(cast, at)
        rewriter.replace(op, [], [_as_tensor(cast.results[0], t, rewriter, at)])


class BufferizeExtract(RewritePattern):
    """`tensor.extract` / `tensor.dim` of a dense tensor -> `memref.load` / `memref.dim`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: TensorExtractOp | TensorDimOp, rewriter: PatternRewriter
    ) -> None:
        source = op.tensor if isinstance(op, TensorExtractOp) else op.source
        if not isinstance(source.owner, bufferization.ToTensorOp):
            return
        at = InsertPoint.before(op)
        buffer = buffer_of(source, rewriter, at)
        if isinstance(op, TensorExtractOp):
            new: Operation = memref.LoadOp.get(buffer, op.indices)
        else:
            dim = constant_int(op.index)
            t = source.type
            if dim is not None and is_tensor_type(t):
                check_dimension(op, dim, t.get_num_dims())
            new = memref.DimOp(buffer, op.index)
        rewriter.replace(op, new)


class LowerTransferRead(RewritePattern):
    """`vector.transfer_read` of a 1-D vector along the innermost dimension of a
    dense tensor or memref -> `vector.maskedload` with the padding where the
    read runs past the end (MLIR's transfer lowering)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.TransferReadOp, rewriter: PatternRewriter
    ) -> None:
        source = op.source
        t = op.result.type
        if op.mask is not None or not is_vector_type(t) or t.get_num_dims() != 1:
            return
        rank = len(op.indices)
        perm = op.permutation_map.data
        if perm.num_dims != rank or perm.results != (AffineDimExpr(rank - 1),):
            return
        at = InsertPoint.before(op)
        if is_tensor_type(source.type):
            if not isinstance(source.owner, bufferization.ToTensorOp):
                return
            source = buffer_of(source, rewriter, at)
        e = Emitter(rewriter, at)
        last = op.indices[-1]
        remaining = e.value(arith.SubiOp(e.dim(source, rank - 1), last))
        mask = e.value(
            vector.CreateMaskOp([remaining], VectorType(IntegerType(1), t.get_shape()))
        )
        pad = e.value(vector.BroadcastOp(op.padding, t))
        load = vector.MaskedLoadOp(source, op.indices, mask, pad, t)
        rewriter.replace(op, load)


def _is_nonzero(e: Emitter, v: SSAValue) -> SSAValue:
    zero = e.constant(0, v.type)
    if isinstance(v.type, IntegerType | IndexType):
        return e.value(arith.CmpiOp(v, zero, "ne"))
    return e.value(arith.CmpfOp(v, zero, "une"))


def _level_space_nest(
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
class _Entries:
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
) -> _Entries:
    """Two sweeps of the level space: count the entries to store (the nonzeros,
    or where the i8 buffer `stored` is set), then copy them out."""
    dense_type = dense.type
    assert is_memref_type(dense_type)
    to_dim = enc.lvl_to_dim.results
    rank = len(sizes)

    def read(b: Emitter, coords: list[SSAValue]) -> tuple[SSAValue, SSAValue]:
        at = [b.affine(x, coords) for x in to_dim]
        v = b.load(dense, at)
        return v, _is_nonzero(b, v if stored is None else b.load(stored, at))

    def count(b: Emitter, coords: list[SSAValue], n: list[SSAValue]) -> list[SSAValue]:
        _, nonzero = read(b, coords)
        step = b.value(arith.IndexCastOp(b.value(arith.ExtUIOp(nonzero, i64)), INDEX))
        return [b.add(n[0], step)]

    (nnz,) = _level_space_nest(e, sizes, [e.index(0)], count)
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
        step = b.value(arith.IndexCastOp(b.value(arith.ExtUIOp(nonzero, i64)), INDEX))
        return [b.add(k[0], step)]

    _level_space_nest(e, sizes, [e.index(0)], copy)
    return _Entries(nnz, table, values, rank)


def _coordinate(b: Emitter, entries: _Entries, k: SSAValue, level: int) -> SSAValue:
    """The level-`level` coordinate of entry k."""
    at = b.add(b.mul(k, b.index(entries.rank)), b.index(level))
    return b.load(entries.coords, [at])


def _dense_level(
    e: Emitter, entries: _Entries, level: int, parent: SSAValue, size: SSAValue
) -> None:
    """A dense level: the position of entry k is parent * size + coordinate."""

    def deeper(b: Emitter, k: SSAValue) -> None:
        p = b.load(parent, [k])
        b.store(b.add(b.mul(p, size), _coordinate(b, entries, k, level)), parent, [k])

    e.for_each(e.index(0), entries.nnz, deeper)


def _singleton_level(
    e: Emitter,
    entries: _Entries,
    level: int,
    parent: SSAValue,
    num: SSAValue,
    crd_type: MemRefType[Attribute],
) -> SSAValue:
    """A singleton level: one coordinate at the position of its parent."""
    crd = e.alloc(crd_type, [num])

    def place(b: Emitter, k: SSAValue) -> None:
        c = b.from_index(_coordinate(b, entries, k, level), crd_type.element_type)
        b.store(c, crd, [b.load(parent, [k])])

    e.for_each(e.index(0), entries.nnz, place)
    return crd


def _structured_level(
    e: Emitter,
    entries: _Entries,
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
    assert isinstance(lt.format, StructuredFormat)
    zero, one, n = e.index(0), e.index(1), e.index(lt.n)
    counts = e.alloc(MemRefType(INDEX, [DYNAMIC_INDEX]), [num])
    e.fill(counts, zero)

    def nonzero(b: Emitter, k: SSAValue) -> SSAValue:
        return _is_nonzero(b, b.load(entries.values, [k]))

    def count(b: Emitter, k: SSAValue) -> None:
        p = b.load(parent, [k])
        more = b.value(arith.SelectOp(nonzero(b, k), one, zero))
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
        i = b.value(arith.SelectOp(same, b.add(previous, one), zero))
        free = b.value(arith.SubiOp(n, b.value(arith.MinUIOp(b.load(counts, [p]), n))))
        gap = b.value(arith.SubiOp(x, b.value(arith.MinUIOp(i, x))))
        slot = b.add(i, b.value(arith.MinUIOp(free, gap)))
        at = b.add(b.mul(p, n), b.value(arith.MinUIOp(slot, last_slot)))
        kept = nonzero(b, k)
        b.when(kept, lambda c: c.store(c.from_index(x, element), crd, [at]))
        b.store(at, parent, [k])
        return [
            b.value(arith.SelectOp(kept, p, last_block)),
            b.value(arith.SelectOp(kept, i, previous)),
        ]

    e.loop(zero, entries.nnz, [num, zero], place)
    e.op(memref.DeallocOp.get(counts))
    return crd, total


def _compress_level(
    e: Emitter,
    entries: _Entries,
    level: int,
    lt: LevelType,
    parent: SSAValue,
    num: SSAValue,
    pos_type: MemRefType[Attribute],
    crd_type: MemRefType[Attribute],
) -> tuple[SSAValue, SSAValue, SSAValue]:
    """A compressed level over entries sorted by level coordinates: its positions
    and coordinates buffers and its number of positions; `parent[k]` becomes the
    position of entry k in this level."""
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
            d.store(d.from_index(c, crd_type.element_type), crd, [nodes])
            at = d.add(p, one)
            d.store(d.add(d.load(counts, [at]), one), counts, [at])

        b.when(new, start)
        step = b.value(arith.IndexCastOp(b.value(arith.ExtUIOp(new, i64)), INDEX))
        after = b.add(nodes, step)
        b.store(b.value(arith.SubiOp(after, one)), parent, [k])
        return [after, p, c]

    zero = e.index(0)
    nodes = e.loop(zero, entries.nnz, [zero, zero, zero], visit)[0]
    crd = e.value(ReallocOp(crd, nodes, crd_type))
    loose = isinstance(lt.format, LooseCompressedFormat)
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
    entries: _Entries,
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
        elif isinstance(fmt, SingletonFormat):
            crd_type = fields["coordinates", level]
            assert is_memref_type(crd_type)
            built["coordinates", level] = _singleton_level(
                e, entries, level, parent, num, crd_type
            )
        elif fmt.has_positions:
            pos_type, crd_type = (
                fields["positions", level],
                fields["coordinates", level],
            )
            assert is_memref_type(pos_type) and is_memref_type(crd_type)
            pos, crd, num = _compress_level(
                e, entries, level, lt, parent, num, pos_type, crd_type
            )
            built["positions", level] = pos
            built["coordinates", level] = crd
        elif isinstance(fmt, StructuredFormat):
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
    structured = any(isinstance(lt.format, StructuredFormat) for lt in enc.lvl_types)

    def put(b: Emitter, k: SSAValue) -> None:
        value = b.load(entries.values, [k])
        at = b.load(parent, [k])
        if structured:  # explicit zeros have no slot: padding stands for them
            b.when(_is_nonzero(b, value), lambda c: c.store(value, values, [at]))
        else:
            b.store(value, values, [at])

    e.for_each(zero, entries.nnz, put)
    e.op(memref.DeallocOp.get(parent))
    built["values", -1] = values
    return [
        sizes[f.level] if f.kind == "level_size" else built[f.kind, f.level]
        for f in storage_fields(tensor_type)
    ]


class ConvertDenseToSparse(RewritePattern):
    """`sparse_tensor.convert` of a dense tensor computed at runtime -> its
    storage, built by loops (MLIR's direct-codegen conversion)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertOp, rewriter: PatternRewriter) -> None:
        dest_type = op.dest.type
        if sparse_encoding(dest_type) is None or sparse_encoding(op.source.type):
            return
        if not isinstance(op.source.owner, bufferization.ToTensorOp):
            return  # once the source is bufferized
        if _dense_constant_of(op.source) is not None:
            return  # built at compile time
        assert is_tensor_type(dest_type)
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        fields = build_storage_at_runtime(
            e, buffer_of(op.source, rewriter, at), dest_type
        )
        rewriter.replace(op, [], [_storage_value(fields, dest_type, rewriter, at)])


def _check_no_tensors_left(module: ModuleOp) -> None:
    for op in module.walk():
        if isinstance(op, UnrealizedConversionCastOp) and any(
            mark in op.attributes for mark in (STORAGE_ATTR, GROWING_ATTR, UNPACK_ATTR)
        ):
            for use in (u for r in op.results for u in r.uses):
                raise PassFailure(
                    use.operation,
                    "uses a sparse tensor in a way sparse-tensor-codegen does not support",
                )


def _erase_dead(module: ModuleOp) -> None:
    """Erase the casts and buffers nothing uses any more, then the constant
    globals of this pass that nothing reads."""
    dead_kinds = (
        UnrealizedConversionCastOp,
        bufferization.ToTensorOp,
        memref.GetGlobalOp,
    )
    for op in reversed(list(module.walk())):
        if isinstance(op, dead_kinds) and not any(r.uses for r in op.results):
            op.detach()
            op.erase()
    read = {
        op.name_.root_reference.data
        for op in module.walk()
        if isinstance(op, memref.GetGlobalOp)
    }
    for op in list(module.ops):
        if (
            isinstance(op, memref.GlobalOp)
            and op.sym_name.data.startswith(GLOBAL_PREFIX)
            and op.sym_name.data not in read
        ):
            op.detach()
            op.erase()


@dataclass(frozen=True)
class SparseTensorCodegenPass(ModulePass):
    """MLIR's `sparse-tensor-codegen`, with the bufferization the sparsifier needs."""

    name = "sparse-tensor-codegen"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Imported here: those modules build on this one's storage helpers.
        from xsparse.transforms.storage.concat import CONCAT_PATTERNS
        from xsparse.transforms.storage.conversion import CONVERSION_PATTERNS
        from xsparse.transforms.storage.file_io import SPARSE_IO_PATTERNS
        from xsparse.transforms.storage.reshape import RESHAPE_PATTERNS

        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    ExpandFunctionArguments(),
                    ExpandFunctionDeclaration(),
                    ReturnBuffers(),
                ]
            ),
            apply_recursively=False,
        ).rewrite_module(op)
        try:
            PatternRewriteWalker(
                LocatingApplier(
                    [
                        FoldToBufferOfToTensor(),
                        ResolveBufferAccess(),
                        ResolveLevelSize(),
                        ForwardReinterpretMap(),
                        ForwardLoad(),
                        LowerMemrefFill(),
                        LowerDenseConstant(),
                        ConvertConstantToSparse(),
                        *CONVERSION_PATTERNS,
                        ConvertDenseToSparse(),
                        ForwardSparseCast(),
                        CopySparseToSparse(),
                        *CONCAT_PATTERNS,
                        *RESHAPE_PATTERNS,
                        *SPARSE_IO_PATTERNS,
                        ExpandCall(),
                        ReturnBuffers(),
                        LowerDeallocTensor(),
                        BufferizeNewTensor(),
                        BufferizeDenseCast(),
                        BufferizeExtract(),
                        LowerTransferRead(),
                        *INSERTION_PATTERNS,
                    ]
                ),
            ).rewrite_module(op)
        except ValueError as error:
            raise PassFailure(op, str(error)) from None
        _erase_dead(op)
        _check_no_tensors_left(op)
