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

from xdsl.context import Context
from xdsl.dialects import arith, bufferization, func, memref, scf
from xdsl.dialects.builtin import (
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    TensorType,
    UnrealizedConversionCastOp,
)
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.sparse_tensor.ops_conversion import ReinterpretMapOp
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
from xsparse.transforms.errors import PassFailure

STORAGE_ATTR = "xsparse.storage"
"""Marks the cast that stands for a sparse argument until its uses resolve."""


def dense_buffer_type(tensor_type: TensorType[Attribute]) -> MemRefType[Attribute]:
    return MemRefType(tensor_type.element_type, tensor_type.get_shape())


def lowered_argument_types(arg_type: Attribute) -> list[Attribute]:
    """The types a function argument of type `arg_type` becomes."""
    if sparse_encoding(arg_type) is not None:
        assert isinstance(arg_type, TensorType)
        return [f.type for f in storage_fields(arg_type)]
    if isinstance(arg_type, TensorType):
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
        if not any(isinstance(t, TensorType) for t in inputs):
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
            old_arg.replace_all_uses_with(cast.results[0])
            block.erase_arg(old_arg)
        op.function_type = FunctionType.from_lists(
            new_inputs, op.function_type.outputs.data
        )


class ReturnBuffers(RewritePattern):
    """Return the buffer behind a returned tensor, and fix the function type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.ReturnOp, rewriter: PatternRewriter) -> None:
        if not any(isinstance(v.type, TensorType) for v in op.arguments):
            return
        function = op.parent_op()
        assert isinstance(function, func.FuncOp)
        new_values: list[SSAValue] = []
        for value in op.arguments:
            if not isinstance(value.type, TensorType):
                new_values.append(value)
                continue
            if sparse_encoding(value.type) is not None:
                raise PassFailure(op, "returning a sparse tensor is not supported yet")
            to_buffer = bufferization.ToBufferOp.create(
                operands=[value], result_types=[dense_buffer_type(value.type)]
            )
            rewriter.insert(to_buffer, InsertPoint.before(op))
            new_values.append(to_buffer.results[0])
        rewriter.replace(op, func.ReturnOp(*new_values))
        function.function_type = FunctionType.from_lists(
            function.function_type.inputs.data, [v.type for v in new_values]
        )


class FoldToBufferOfToTensor(RewritePattern):
    """`to_buffer(to_tensor(m))` is `m`: tensors of the kernel live in place."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: bufferization.ToBufferOp, rewriter: PatternRewriter
    ) -> None:
        source = op.tensor.owner
        if isinstance(source, bufferization.ToTensorOp):
            buffer = source.memref
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
    assert isinstance(tensor.type, TensorType)
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
            rewriter.replace(op, memref.CastOp.get(field, op.results[0].type))
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


class LowerMemrefFill(RewritePattern):
    """`linalg.fill` of a memref -> an `scf.for` nest of stores."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: FillOp, rewriter: PatternRewriter) -> None:
        if op.res or len(op.outputs) != 1:
            return
        target = op.outputs[0]
        target_type = target.type
        if not isinstance(target_type, MemRefType):
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
                bound = memref.DimOp.from_source_and_index(
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
            insertion = InsertPoint.before(body.last_op)  # type: ignore[arg-type]
        rewriter.insert(memref.StoreOp.get(value, target, indices), insertion)
        rewriter.erase(op)


def _check_no_tensors_left(module: ModuleOp) -> None:
    for op in module.walk():
        if isinstance(op, UnrealizedConversionCastOp) and STORAGE_ATTR in op.attributes:
            for use in op.results[0].uses:
                raise PassFailure(
                    use.operation,
                    "uses a sparse tensor in a way sparse-tensor-codegen does not support",
                )


def _erase_dead(module: ModuleOp) -> None:
    dead_kinds = (UnrealizedConversionCastOp, bufferization.ToTensorOp)
    for op in reversed(list(module.walk())):
        if isinstance(op, dead_kinds) and not any(r.uses for r in op.results):
            op.detach()
            op.erase()


@dataclass(frozen=True)
class SparseTensorCodegenPass(ModulePass):
    """MLIR's `sparse-tensor-codegen`, with the bufferization the sparsifier needs."""

    name = "sparse-tensor-codegen"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([ExpandFunctionArguments(), ReturnBuffers()]),
            apply_recursively=False,
        ).rewrite_module(op)
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    FoldToBufferOfToTensor(),
                    ResolveBufferAccess(),
                    ResolveLevelSize(),
                    ForwardReinterpretMap(),
                    LowerMemrefFill(),
                ]
            ),
        ).rewrite_module(op)
        _erase_dead(op)
        _check_no_tensors_left(op)
