"""`sparse-decompose-tensors`: 2:4 tensors -> their values and packed metadata.

Mirrors Triton's `DecomposeSparseTensors` (seed 004, "Sparse Tensor
Decomposition") on xsparse's IR. A function argument of the row-major 2:4
encoding (MLIR's `#NV_24`)

    #NV_24 = #sparse_tensor.encoding<{ map = (i, j) ->
               (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
    func.func @spmm(%a: tensor<?x?xf32, #NV_24>, %b: ..., %c: ...)

becomes two dense arguments, the values (M x K/2) and the metadata
(M x ceil(K/16) words of i16, the seed's layout: `xsparse.two_four` documents
the bits), and each op reading it reads them:

    func.func @spmm(%a_values: tensor<?x?xf32>, %a_metadata: tensor<?x?xi16>, ...)

As the seed's `dot` learns which operand is sparse, a 2:4 matrix product
(`linalg.matmul`, or a `linalg.generic` computing SpMM or
SpMV with the 2:4 tensor as its first input) becomes the loops of
`two_four_loops` on the arrays' buffers: parallel over blocks of rows,
vectorized along B's columns, the metadata decoded in registers. After the
pass no tensor with a `structured` level remains; any other use of a 2:4
tensor (an elementwise op, a call, a result) is refused at the op.

Two patterns: `DecomposeTwoFourArguments` splits the arguments (the old
argument lives on as an `unrealized_conversion_cast` of the two new ones,
as in a 1:N type conversion), and `LowerTwoFourProduct` replaces a product
reading the cast by the loops.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import TypeIs
from xdsl.context import Context
from xdsl.dialects import arith, bufferization, func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FunctionType,
    MemRefType,
    ModuleOp,
    TensorType,
    UnrealizedConversionCastOp,
    f32,
    f64,
    i16,
)
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
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

from xsparse.dialects.sparse_tensor.encoding import Encoding
from xsparse.dialects.sparse_tensor.levels import DENSE, STRUCTURED
from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.codegen_utils.op_emitter import to_tensor
from xsparse.transforms.decompose.two_four_loops import TwoFourProduct
from xsparse.transforms.errors import LocatingApplier, PassFailure
from xsparse.transforms.sparsifier.sparsification import generic_of
from xsparse.xdsl_adapter import IterativeRewriteWalker

NV_24_MAP = AffineMap(
    2,
    0,
    (
        AffineDimExpr(0),
        AffineBinaryOpExpr(
            AffineBinaryOpKind.FloorDiv, AffineDimExpr(1), AffineConstantExpr(4)
        ),
        AffineBinaryOpExpr(
            AffineBinaryOpKind.Mod, AffineDimExpr(1), AffineConstantExpr(4)
        ),
    ),
)
"""`(i, j) -> (i, j floordiv 4, j mod 4)`: rows of blocks of four columns."""


def has_structured_level(t: Attribute) -> bool:
    """A tensor type whose encoding has a `structured[n, m]` level."""
    enc = sparse_encoding(t)
    return enc is not None and any(lt.format is STRUCTURED for lt in enc.lvl_types)


def is_two_four_encoding(enc: Encoding) -> bool:
    """The row-major 2:4 encoding (`#NV_24`, any widths)."""
    if enc.dim_to_lvl != NV_24_MAP or enc.dim_slices:
        return False
    dense, blocks, structured = enc.lvl_types
    return (
        dense.format is DENSE
        and blocks.format is DENSE
        and structured.format is STRUCTURED
        and (structured.n, structured.m) == (2, 4)
    )


def is_two_four(t: Attribute) -> TypeIs[TensorType[Attribute]]:
    """An f32 or f64 matrix type of the row-major 2:4 encoding."""
    enc = sparse_encoding(t)
    return (
        enc is not None
        and is_tensor_type(t)
        and t.element_type in (f32, f64)
        and is_two_four_encoding(enc)
    )


def _ceil_div(n: int, d: int) -> int:
    return n if n == DYNAMIC_INDEX else -(-n // d)


def decomposed_types(t: TensorType[Attribute]) -> tuple[TensorType[Attribute], ...]:
    """The values (M x 2*ceil(K/4)) and metadata (M x ceil(K/16) of i16)
    tensor types of a 2:4 matrix type."""
    rows, columns = t.get_shape()
    blocks = _ceil_div(columns, 4)
    values = TensorType(
        t.element_type, [rows, blocks if blocks == DYNAMIC_INDEX else 2 * blocks]
    )
    return values, TensorType(i16, [rows, _ceil_div(columns, 16)])


def _arg_name(arg: SSAValue, suffix: str) -> str | None:
    return None if arg.name_hint is None else f"{arg.name_hint}_{suffix}"


class DecomposeTwoFourArguments(RewritePattern):
    """A function's 2:4 arguments -> values and metadata arguments, joined
    back by an `unrealized_conversion_cast` for the ops that read them."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter) -> None:
        inputs = list(op.function_type.inputs.data)
        if not any(is_two_four(t) for t in inputs):
            return
        split: list[Attribute] = []
        for t in inputs:
            split += decomposed_types(t) if is_two_four(t) else [t]
        if op.body.blocks:
            self._split_arguments(op.body.blocks[0], rewriter)
        op.function_type = FunctionType.from_lists(
            split, list(op.function_type.outputs.data)
        )
        op.arg_attrs = None

    @staticmethod
    def _split_arguments(block: Block, rewriter: PatternRewriter) -> None:
        for arg in list(block.args):
            if not is_two_four(arg.type):
                continue
            values_type, metadata_type = decomposed_types(arg.type)
            values = rewriter.insert_block_argument(block, arg.index, values_type)
            metadata = rewriter.insert_block_argument(block, arg.index, metadata_type)
            values.name_hint = _arg_name(arg, "values")
            metadata.name_hint = _arg_name(arg, "metadata")
            cast = UnrealizedConversionCastOp.create(
                operands=[values, metadata], result_types=[arg.type]
            )
            rewriter.insert(cast, InsertPoint.at_start(block))
            rewriter.replace_all_uses_with(arg, cast.results[0])
            rewriter.erase_block_argument(arg)


def decomposed_operand(value: SSAValue) -> tuple[SSAValue, SSAValue] | None:
    """The values and metadata a 2:4 tensor was decomposed into, if it was."""
    owner = value.owner
    if (
        isinstance(owner, UnrealizedConversionCastOp)
        and len(owner.inputs) == 2
        and is_two_four(value.type)
    ):
        return owner.inputs[0], owner.inputs[1]
    return None


def _is_product_body(op: GenericOp) -> bool:
    """The body is `out + a * b` (either order of each operation)."""
    block = op.body.block
    ops = list(block.ops)
    if len(ops) != 3 or len(block.args) != 3:
        return False
    mul, add, yield_ = ops
    a, b, out = block.args
    return (
        isinstance(mul, arith.MulfOp)
        and {mul.lhs, mul.rhs} == {a, b}
        and isinstance(add, arith.AddfOp)
        and {add.lhs, add.rhs} == {out, mul.result}
        and isinstance(yield_, YieldOp)
        and list(yield_.operands) == [add.result]
    )


def _maps(op: GenericOp) -> list[tuple[int, ...]]:
    """The indexing maps as tuples of loop positions (empty when not all
    results are loops)."""
    maps: list[tuple[int, ...]] = []
    for m in op.indexing_maps:
        results = m.data.results
        if not all(isinstance(r, AffineDimExpr) for r in results):
            return []
        maps.append(tuple(r.position for r in results if isinstance(r, AffineDimExpr)))
    return maps


def is_two_four_product(op: GenericOp) -> bool:
    """SpMM `C(i,j) += A(i,k) * B(k,j)` or SpMV `y(i) += A(i,k) * x(k)`
    with A (2:4) first, B and C dense, on tensors of one float type."""
    maps = _maps(op)
    if len(maps) != 3 or len(maps[0]) != 2 or len(op.outputs) != 1:
        return False
    (i, k), b_map, c_map = maps
    j = next((d for d in b_map if d != k), None)
    expected = ((k,), (i,)) if j is None else ((k, j), (i, j))
    reductions = [
        n for n, it in enumerate(op.iterator_types) if it.data == IteratorType.REDUCTION
    ]
    element_types = {
        v.type.element_type for v in (*op.inputs, *op.outputs) if is_tensor_type(v.type)
    }
    return (
        i != k
        and (b_map, c_map) == expected
        and reductions == [k]
        and len(op.iterator_types) == len(b_map) + 1
        and len(element_types) == 1
        and all(sparse_encoding(v.type) is None for v in (op.inputs[1], op.outputs[0]))
        and _is_product_body(op)
    )


def _reads_as_product(op: GenericOp | NamedOperation) -> bool:
    """`is_two_four_product` of `op`, or of the generic a named op stands for
    (built for the question and erased: it must not stay a user of `op`'s
    operands)."""
    if isinstance(op, GenericOp):
        return is_two_four_product(op)
    generic = generic_of(op)
    answer = is_two_four_product(generic)
    generic.erase()
    return answer


def _buffer(value: SSAValue, builder: Emitter) -> SSAValue:
    t = value.type
    assert is_tensor_type(t)
    memref_type = MemRefType(t.element_type, t.get_shape())
    return builder.value(
        bufferization.ToBufferOp.create(operands=[value], result_types=[memref_type])
    )


class LowerTwoFourProduct(RewritePattern):
    """A 2:4 SpMM / SpMV on the decomposed operand (`linalg.generic`, or a
    named op such as `linalg.matmul`, read as its generic) -> the loops of
    `TwoFourProduct` on the buffers of the values, the metadata, B and the
    output."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, GenericOp | NamedOperation):
            return
        parts = decomposed_operand(op.inputs[0]) if op.inputs else None
        if parts is None or not op.res:
            return
        if not _reads_as_product(op):
            raise PassFailure(
                op,
                "reads a 2:4 tensor but is not a 2:4 matrix product "
                "(C += A * B or y += A * x with A first, B and C dense) that "
                "sparse-decompose-tensors can rewrite",
            )
        e = Emitter(rewriter, InsertPoint.before(op))
        values, metadata, b, c = (
            _buffer(v, e) for v in (*parts, op.inputs[1], op.outputs[0])
        )
        TwoFourProduct(values, metadata, b, c).emit(e)
        result = e.op(to_tensor(c, op.res[0].type))
        rewriter.replace(op, [], [result.results[0]])


def drop_unused_casts(module: ModuleOp) -> None:
    """Erase the casts that stood for 2:4 arguments once nothing reads them."""
    for op in list(module.walk()):
        if is_decomposition_cast(op) and not op.results[0].uses:
            op.detach()
            op.erase()


def is_decomposition_cast(op: Operation) -> bool:
    """The cast `DecomposeTwoFourArguments` left for a 2:4 argument."""
    return (
        isinstance(op, UnrealizedConversionCastOp)
        and has_structured_level(op.results[0].type)
        and decomposed_operand(op.results[0]) is not None
    )


def check_no_structured_tensor(module: ModuleOp) -> None:
    """No tensor with a `structured` level remains: the first op reading or
    making one is refused."""
    for op in module.walk():
        if isinstance(op, func.FuncOp):
            types = [*op.function_type.inputs.data, *op.function_type.outputs.data]
        elif is_decomposition_cast(op):
            continue
        else:
            types = [v.type for v in (*op.operands, *op.results)]
        t = next((t for t in types if has_structured_level(t)), None)
        if t is not None:
            raise PassFailure(op, _refusal(op, t))


def _refusal(op: Operation, t: Attribute) -> str:
    if not is_two_four(t):
        return (
            f"uses {t}: sparse-decompose-tensors decomposes the row-major 2:4 "
            "encoding (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) "
            "of f32 and f64 matrices only"
        )
    if isinstance(op, func.FuncOp):
        return (
            "returns a 2:4 tensor; sparse-decompose-tensors decomposes function "
            "arguments only"
        )
    return (
        "reads a 2:4 tensor; sparse-decompose-tensors rewrites only 2:4 matrix "
        "products (linalg.matmul, SpMM / SpMV linalg.generic) with the 2:4 "
        "tensor as their first input"
    )


@dataclass(frozen=True)
class SparseDecomposeTensorsPass(ModulePass):
    """Triton's DecomposeSparseTensors (seed 004) for 2:4 matrices."""

    name = "sparse-decompose-tensors"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        IterativeRewriteWalker(
            LocatingApplier(
                [
                    DecomposeTwoFourArguments(),
                    LowerTwoFourProduct(),
                ]
            )
        ).rewrite_module(op)
        drop_unused_casts(op)
        check_no_structured_tensor(op)
