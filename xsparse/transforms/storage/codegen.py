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

from dataclasses import dataclass
from typing import cast

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
    UnrankedMemRefType,
    UnrankedTensorType,
    UnrealizedConversionCastOp,
    VectorType,
)
from xdsl.dialects.linalg.ops import FillOp
from xdsl.dialects.tensor import CastOp as TensorCastOp
from xdsl.dialects.tensor import DimOp as TensorDimOp
from xdsl.dialects.tensor import EmptyOp as TensorEmptyOp
from xdsl.dialects.tensor import ExtractOp as TensorExtractOp
from xdsl.dialects.tensor import FromElementsOp as TensorFromElementsOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue, Use
from xdsl.ir.affine import (
    AffineDimExpr,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.sparse_tensor.levels import BATCH
from xsparse.dialects.sparse_tensor.ops_common import constant_int
from xsparse.dialects.sparse_tensor.ops_conversion import (
    ConvertOp,
    HasRuntimeLibraryOp,
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
    StorageField,
    sparse_encoding,
    storage_fields,
)
from xsparse.dialects.type_guards import is_memref_type, is_tensor_type, is_vector_type
from xsparse.dialects.upstream import memref as upstream_memref
from xsparse.dialects.upstream.bufferization import DeallocTensorOp
from xsparse.dialects.upstream.builtin import MAX_DENSE_ELEMENTS, SparseElementsAttr
from xsparse.transforms.codegen_utils.emitter import GLOBAL_PREFIX, Emitter
from xsparse.transforms.errors import LocatingApplier, PassFailure, check_dimension
from xsparse.transforms.storage.concat import CONCAT_PATTERNS
from xsparse.transforms.storage.conversion import conversion_patterns
from xsparse.transforms.storage.dense_tensors import (
    BufferizeDenseInsert,
    BufferizeGenerate,
    BufferizePad,
)
from xsparse.transforms.storage.file_io import SPARSE_IO_PATTERNS
from xsparse.transforms.storage.foreach import LowerForeach
from xsparse.transforms.storage.insertion import (
    GROWING_ATTR,
    INSERTION_PATTERNS,
    STORAGE_ATTR,
    UNPACK_ATTR,
    receives_insertions,
)
from xsparse.transforms.storage.level_buffers import (
    as_tensor,
    buffer_of,
    build_storage,
    build_storage_at_runtime,
    build_storage_of_entries,
    constant_buffer,
    copy_buffer,
    dense_buffer_type,
    dense_constant_of,
    global_of,
    sparse_constant_of,
    storage_of,
    storage_value,
)
from xsparse.transforms.storage.overhead_widths import constant_overflow
from xsparse.transforms.storage.reshape import RESHAPE_PATTERNS
from xsparse.transforms.storage.slices import CopyDenseSlice, CopySparseSlice
from xsparse.transforms.storage.vector_unrolling import VECTOR_UNROLLING_PATTERNS
from xsparse.xdsl_adapter import IterativeRewriteWalker, walk_iteratively


def lowered_argument_types(arg_type: Attribute) -> list[Attribute]:
    """The types a function argument of type `arg_type` becomes."""
    if sparse_encoding(arg_type) is not None:
        assert is_tensor_type(arg_type)
        return [f.type for f in storage_fields(arg_type)]
    if is_tensor_type(arg_type):
        return [dense_buffer_type(arg_type)]
    if isinstance(arg_type, UnrankedTensorType):  # e.g. printMemrefF64's
        return [UnrankedMemRefType.from_type(arg_type.element_type)]
    return [arg_type]


def _is_any_tensor(t: Attribute) -> bool:
    return is_tensor_type(t) or isinstance(t, UnrankedTensorType)


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
            cast.operands[i] = copy_buffer(e, field)


class ExpandFunctionDeclaration(RewritePattern):
    """A declared function's tensor arguments and results become buffers, as
    those of a defined one do."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter) -> None:
        t = op.function_type
        if not op.is_declaration or not any(
            _is_any_tensor(x) for x in (*t.inputs.data, *t.outputs.data)
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
                storage = storage_of(value)
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
            if global_of(buffer) is not None:
                buffer = copy_buffer(Emitter(rewriter, InsertPoint.before(op)), buffer)
            if buffer.type != op.memref.type:
                cast = upstream_memref.CastOp(buffer, op.memref.type)
                rewriter.replace(op, cast)
            else:
                rewriter.replace(op, [], [buffer])


def _field(tensor: SSAValue, kind: str, level: int) -> SSAValue | None:
    storage = storage_of(tensor)
    if storage is None:
        return None
    assert is_tensor_type(tensor.type)
    fields: list[StorageField] = storage_fields(tensor.type)
    for value, f in zip(storage, fields, strict=True):
        if f.kind == kind and f.level == level:
            return value
    return None


class ResolveBufferAccess(RewritePattern):
    """`positions/coordinates/values` of a sparse argument are its buffers.

    A tensor with `batch` levels is stored flat (the batches one after the
    other, each level's buffer shared by all): MLIR's view of its buffers
    with a leading dimension per batch level (`memref<2x?xf64>`) serves the
    kernel's own reads, and is refused where it would leave the function."""

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
        result_type = cast(MemRefType[Attribute], op.results[0].type)
        if result_type.get_num_dims() != 1 and any(
            isinstance(use.operation, func.ReturnOp | func.CallOp)
            for use in op.results[0].uses
        ):
            raise PassFailure(
                op,
                f"returns {result_type}: the buffers of a tensor with batch levels "
                "are stored flat, one per level, not as one row per batch",
            )
        if field.type != result_type:
            rewriter.replace(op, upstream_memref.CastOp(field, result_type))
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
        storage = storage_of(op.source)
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
        if op.has_inserts is None and storage_of(op.tensor) is not None:
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


def _reads_entries(use: Use) -> bool:
    """Whether `use` is a `sparse_tensor.convert` to a sparse encoding (which
    takes a `sparse<...>` constant's listed entries)."""
    user = use.operation
    return isinstance(user, ConvertOp) and sparse_encoding(user.dest.type) is not None


class LowerDenseConstant(RewritePattern):
    """`arith.constant dense<...> : tensor<...>` -> a constant global; a
    `sparse<...>` one too, as its dense contents, for its uses other than
    conversions to sparse encodings (`ConvertConstantToSparse` takes its
    entries; it is erased once they have)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: arith.ConstantOp, rewriter: PatternRewriter
    ) -> None:
        t = op.result.type
        if not is_tensor_type(t) or sparse_encoding(t) is not None:
            return
        value = op.value
        if isinstance(value, SparseElementsAttr):
            if not op.result.uses:
                rewriter.erase(op)
                return
            if all(_reads_entries(use) for use in op.result.uses):
                return
            if value.dense_size() > MAX_DENSE_ELEMENTS:
                raise PassFailure(
                    op,
                    f"a sparse<...> constant of {value.dense_size()} elements is "
                    "too large for xsparse to read as a dense tensor (convert it "
                    "to a sparse encoding)",
                )
            value = value.to_dense()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            raise PassFailure(
                op, "only dense<...> and sparse<...> tensor constants are supported"
            )
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        # Complex constants never reach here: the sparsifier has no complex types.
        data = cast(list[int | float], list(value.get_values()))
        if isinstance(t.element_type, IntegerType | IndexType):
            data = [int(v) for v in data]
        buffer = e.global_constant("cst", dense_buffer_type(t), data)
        dense = as_tensor(buffer, t, rewriter, at)
        if isinstance(op.value, SparseElementsAttr):
            rewriter.replace_uses_with_if(
                op.result, dense, lambda use: not _reads_entries(use)
            )
        else:
            rewriter.replace(op, [], [dense])


class ConvertConstantToSparse(RewritePattern):
    """`sparse_tensor.convert` of a dense constant -> its storage, built at
    compile time: constant globals copied into fresh buffers. A `sparse<...>`
    constant gives its listed entries (explicit zeros kept, as MLIR does),
    never its dense form."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertOp, rewriter: PatternRewriter) -> None:
        dest_type = op.dest.type
        enc = sparse_encoding(dest_type)
        if enc is None or sparse_encoding(op.source.type) is not None:
            return
        assert is_tensor_type(dest_type)
        entries = sparse_constant_of(op.source)
        if entries is not None:
            storage = build_storage_of_entries(entries, dest_type)
        else:
            constant = dense_constant_of(op.source)
            if constant is None:
                return
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
            largest = int(data.max()) if data.size and f.kind != "values" else 0
            overflow = constant_overflow(f.kind, largest, elem)
            if overflow is not None:
                raise PassFailure(op, overflow)
            static = MemRefType(elem, [len(data)])
            fresh = constant_buffer(e, f.kind, static, data.tolist())
            fields.append(e.value(upstream_memref.CastOp(fresh, f.type)))
        rewriter.replace(op, [], [storage_value(fields, dest_type, rewriter, at)])


class RefuseBatchConversion(RewritePattern):
    """A conversion from or to an encoding with a `batch` level is refused:
    batch levels are read in place by kernels, but the conversions would read
    and size their buffers as unbatched ones."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertOp, rewriter: PatternRewriter) -> None:
        for value in (op.source, op.dest):
            enc = sparse_encoding(value.type)
            if enc is not None and any(lt.format is BATCH for lt in enc.lvl_types):
                raise PassFailure(
                    op, "conversion of a tensor with a batch level is not supported"
                )


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
        storage = storage_of(source)
        if storage is None:
            return
        at = InsertPoint.before(op)
        rewriter.replace(op, [], [storage_value(storage, result.type, rewriter, at)])


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
        storage = storage_of(op.source)
        if storage is None:
            return
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        fields = [copy_buffer(e, v) if is_memref_type(v.type) else v for v in storage]
        rewriter.replace(op, [], [storage_value(fields, op.dest.type, rewriter, at)])


class ExpandCall(RewritePattern):
    """`func.call` with tensor operands or results: sparse operands pass their
    storage fields, dense ones a fresh copy of their buffer (the callee may
    write it in place); results come back the same way."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.CallOp, rewriter: PatternRewriter) -> None:
        if not any(_is_any_tensor(t) for t in (*op.arguments.types, *op.result_types)):
            return
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        operands: list[SSAValue] = []
        for value in op.arguments:
            if sparse_encoding(value.type) is not None:
                storage = storage_of(value)
                if storage is None:
                    return
                operands.extend(storage)
            elif is_tensor_type(value.type):
                operands.append(copy_buffer(e, buffer_of(value, rewriter, at)))
            elif isinstance(value.type, UnrankedTensorType):
                # the buffer behind the cast itself: the callees that take
                # unranked tensors (printMemref*) read it
                owner = value.owner
                if not isinstance(owner, bufferization.ToTensorOp):
                    return  # once the cast is bufferized
                operands.append(owner.memref)
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
                results.append(storage_value(mine, r, rewriter, after))
            elif is_tensor_type(r):
                results.append(as_tensor(mine[0], r, rewriter, after))
            else:
                results.append(mine[0])
        rewriter.replace(op, [], results)


class LowerHasRuntimeLibrary(RewritePattern):
    """`sparse_tensor.has_runtime_library` -> false: the program runs on the
    code this pass generates (MLIR's `SparseHasRuntimeLibraryConverter` of
    codegen), whatever `enable-runtime-library` says."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: HasRuntimeLibraryOp, rewriter: PatternRewriter
    ) -> None:
        rewriter.replace(op, arith.ConstantOp(IntegerAttr(0, IntegerType(1))))


class LowerDeallocTensor(RewritePattern):
    """`bufferization.dealloc_tensor` -> `memref.dealloc` of every buffer of a
    sparse tensor, or of a dense tensor's buffer (unless it is a constant)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DeallocTensorOp, rewriter: PatternRewriter) -> None:
        value = op.operands[0]
        at = InsertPoint.before(op)
        if sparse_encoding(value.type) is not None:
            storage = storage_of(value)
            if storage is None:
                return
            buffers = [v for v in storage if is_memref_type(v.type)]
        elif is_tensor_type(value.type):
            if not isinstance(value.owner, bufferization.ToTensorOp):
                return
            buffers = [buffer_of(value, rewriter, at)]
            if global_of(buffers[0]) is not None:
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
            buffer = copy_buffer(e, buffer_of(op.copy, rewriter, at))
        else:
            dynamic = iter(op.dynamic_sizes)
            sizes = [
                next(dynamic) if n == DYNAMIC_INDEX else e.index(n)
                for n in t.get_shape()
            ]
            buffer = e.alloc(buffer_type, sizes)
            e.fill(buffer, e.constant(0, t.element_type))
        rewriter.replace(op, [], [as_tensor(buffer, t, rewriter, at)])


class BufferizeFromElements(RewritePattern):
    """`tensor.from_elements` of a dense tensor -> a fresh buffer holding the
    elements in row-major order (MLIR's bufferization of the op)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: TensorFromElementsOp, rewriter: PatternRewriter
    ) -> None:
        t = op.result.type
        if not is_tensor_type(t) or sparse_encoding(t) is not None:
            return
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        buffer = e.alloc(dense_buffer_type(t), [])
        shape = t.get_shape()
        for flat, element in enumerate(op.elements):
            indices: list[int] = []
            for n in reversed(shape):
                flat, i = divmod(flat, n)
                indices.insert(0, i)
            e.store(element, buffer, [e.index(i) for i in indices])
        rewriter.replace(op, [], [as_tensor(buffer, t, rewriter, at)])


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
        cast = upstream_memref.CastOp(buffer, dense_buffer_type(t))
        rewriter.insert(cast, at)
        rewriter.replace(op, [], [as_tensor(cast.results[0], t, rewriter, at)])


class BufferizeUnrankedCast(RewritePattern):
    """`tensor.cast` of a dense tensor to `tensor<*xT>` -> `memref.cast` of its
    buffer to `memref<*xT>` (as MLIR's bufferization passes a tensor to
    `printMemrefF64(tensor<*xf64>)`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TensorCastOp, rewriter: PatternRewriter) -> None:
        t = op.dest.type
        source = op.source
        if not isinstance(t, UnrankedTensorType) or not isinstance(
            source.owner, bufferization.ToTensorOp
        ):
            return
        at = InsertPoint.before(op)
        (buffer_type,) = lowered_argument_types(t)
        cast = upstream_memref.CastOp(source.owner.memref, buffer_type)
        rewriter.insert(cast, at)
        rewriter.replace(op, [], [as_tensor(cast.results[0], t, rewriter, at)])


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
        if dense_constant_of(op.source) is not None:
            return  # built at compile time
        assert is_tensor_type(dest_type)
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        fields = build_storage_at_runtime(
            e, buffer_of(op.source, rewriter, at), dest_type
        )
        rewriter.replace(op, [], [storage_value(fields, dest_type, rewriter, at)])


def _check_no_tensors_left(module: ModuleOp) -> None:
    for op in walk_iteratively(module):
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
    for op in reversed(list(walk_iteratively(module))):
        if isinstance(op, dead_kinds) and not any(r.uses for r in op.results):
            op.detach()
            op.erase()
    read = {
        op.name_.root_reference.data
        for op in walk_iteratively(module)
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
    """MLIR's `sparse-tensor-codegen`, with the bufferization the sparsifier needs.

    `parallel-conversions` (xsparse's; off by default, as MLIR converts
    sequentially) builds the conversions that have a parallel form
    (`storage.parallel_conversion`) with `scf.parallel` loops; the sparsifier
    sets it with a `parallelization-strategy`."""

    name = "sparse-tensor-codegen"

    parallel_conversions: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        IterativeRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    ExpandFunctionArguments(),
                    ExpandFunctionDeclaration(),
                    ReturnBuffers(),
                ]
            ),
            apply_recursively=False,
        ).rewrite_module(op)
        # Before constants are lowered: a foreach over a sparse<...> constant
        # visits its listed elements.
        IterativeRewriteWalker(LocatingApplier([LowerForeach()])).rewrite_module(op)
        try:
            IterativeRewriteWalker(
                LocatingApplier(
                    [
                        FoldToBufferOfToTensor(),
                        ResolveBufferAccess(),
                        ResolveLevelSize(),
                        ForwardReinterpretMap(),
                        ForwardLoad(),
                        LowerMemrefFill(),
                        LowerDenseConstant(),
                        RefuseBatchConversion(),
                        ConvertConstantToSparse(),
                        *conversion_patterns(self.parallel_conversions),
                        ConvertDenseToSparse(),
                        ForwardSparseCast(),
                        CopySparseToSparse(),
                        *CONCAT_PATTERNS,
                        *RESHAPE_PATTERNS,
                        *SPARSE_IO_PATTERNS,
                        LowerHasRuntimeLibrary(),
                        CopySparseSlice(),
                        CopyDenseSlice(),
                        ExpandCall(),
                        ReturnBuffers(),
                        LowerDeallocTensor(),
                        BufferizeNewTensor(),
                        BufferizeGenerate(),
                        BufferizePad(),
                        BufferizeDenseInsert(),
                        BufferizeFromElements(),
                        BufferizeDenseCast(),
                        BufferizeUnrankedCast(),
                        BufferizeExtract(),
                        *VECTOR_UNROLLING_PATTERNS,
                        LowerTransferRead(),
                        *INSERTION_PATTERNS,
                    ]
                ),
            ).rewrite_module(op)
        except ValueError as error:
            raise PassFailure(op, str(error)) from None
        _erase_dead(op)
        _check_no_tensors_left(op)
