"""`convert-elementwise-to-linalg`: arith and math ops on ranked tensors ->
`linalg.generic`.

Mirrors MLIR 22's pass of that name (Linalg/Transforms/ElementwiseToLinalg.cpp),
the first of the `sparsifier` pipeline: an op of an elementwise-mappable
dialect (every `arith` op but `arith.constant`, every `math` op) whose
operands are all ranked tensors becomes a `linalg.generic` of identity maps
and parallel iterators whose body is the same op on the elements. Each
result's `outs` is the first operand of the result's type, or else a
`tensor.empty` of the first operand's sizes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.dialects.tensor import DimOp, EmptyOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from xsparse.dialects.type_guards import is_tensor_type
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.xdsl_adapter import IterativeRewriteWalker

ELEMENTWISE_DIALECTS = ("arith", "math")


def is_elementwise_on_tensors(op: Operation) -> bool:
    """`op` is an elementwise-mappable op whose operands are all ranked tensors
    (MLIR's `isElementwiseMappableOpOnRankedTensors`)."""
    dialect = op.name.split(".", 1)[0]
    return (
        dialect in ELEMENTWISE_DIALECTS
        and op.name != "arith.constant"
        and bool(op.operands)
        and all(is_tensor_type(t) for t in op.operand_types)
    )


def element_type(t: Attribute) -> Attribute:
    assert is_tensor_type(t)
    return t.element_type


def init_tensors(op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
    """Each result's `outs`: the first operand of its type, else an empty
    tensor sized as the first operand."""
    first = op.operands[0]
    first_type = first.type
    assert is_tensor_type(first_type)
    inits: list[SSAValue] = []
    for t in op.result_types:
        same = next((v for v in op.operands if v.type == t), None)
        if same is not None:
            inits.append(same)
            continue
        e = Emitter(rewriter, InsertPoint.before(op))
        sizes = [
            e.value(DimOp(first, e.index(d)))
            for d, n in enumerate(first_type.get_shape())
            if n == DYNAMIC_INDEX
        ]
        inits.append(e.value(EmptyOp(sizes, t)))
    return inits


def scalar_body(op: Operation, inits: Sequence[SSAValue]) -> Region:
    """A block taking one element of each operand and `outs`, computing `op`
    on the operands' and yielding its results."""
    block = Block(arg_types=[element_type(v.type) for v in (*op.operands, *inits)])
    scalar = type(op).create(
        operands=block.args[: len(op.operands)],
        result_types=[element_type(t) for t in op.result_types],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    block.add_ops([scalar, YieldOp(*scalar.results)])
    return Region(block)


class ElementwiseToGeneric(RewritePattern):
    """One elementwise op on ranked tensors -> its `linalg.generic`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_elementwise_on_tensors(op):
            return
        t = op.operand_types[0]
        assert isinstance(t, TensorType)
        rank = t.get_num_dims()
        inits = init_tensors(op, rewriter)
        identity = AffineMapAttr(AffineMap.identity(rank))
        generic = GenericOp(
            op.operands,
            inits,
            scalar_body(op, inits),
            [identity] * (len(op.operands) + len(inits)),
            ArrayAttr([IteratorTypeAttr(IteratorType.PARALLEL)] * rank),
            op.result_types,
        )
        rewriter.replace_op(op, generic)


@dataclass(frozen=True)
class ConvertElementwiseToLinalgPass(ModulePass):
    """MLIR's `convert-elementwise-to-linalg`: arith/math ops on ranked
    tensors -> `linalg.generic`."""

    name = "convert-elementwise-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        IterativeRewriteWalker(
            ElementwiseToGeneric(), apply_recursively=False
        ).rewrite_module(op)
