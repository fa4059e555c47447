"""`tensor.generate` of a dense tensor -> a buffer filled by a loop nest.

Mirrors what MLIR 22's one-shot bufferization does with `tensor.generate`
(Tensor/Transforms/BufferizableOpInterfaceImpl.cpp: an allocation, then
`linalg.map`, lowered to loops): one `scf.for` per dimension, the body inlined
at the innermost one with its index arguments replaced by the loops'
variables, its `tensor.yield` a `memref.store`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.dialects.tensor import YieldOp as TensorYieldOp
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.dialects.upstream.tensor import GenerateOp
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.storage.level_buffers import as_tensor, dense_buffer_type


class BufferizeGenerate(RewritePattern):
    """`tensor.generate` of a dense tensor -> a fresh buffer that a loop nest
    over its dimensions fills with what the body yields at each index."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenerateOp, rewriter: PatternRewriter) -> None:
        t = op.result.type
        if not is_tensor_type(t) or sparse_encoding(t) is not None:
            return
        at = InsertPoint.before(op)
        e = Emitter(rewriter, at)
        dynamic = iter(op.dynamic_extents)
        sizes = [
            next(dynamic) if n == DYNAMIC_INDEX else e.index(n) for n in t.get_shape()
        ]
        buffer = e.alloc(dense_buffer_type(t), sizes)
        body = op.body.block

        def nest(inner: Emitter, indices: list[SSAValue]) -> None:
            if len(indices) < len(sizes):
                inner.for_each(
                    inner.index(0),
                    sizes[len(indices)],
                    lambda b, i: nest(b, [*indices, i]),
                )
                return
            yielded = body.last_op
            assert isinstance(yielded, TensorYieldOp)
            value = yielded.operands[0]
            rewriter.erase_op(yielded)
            rewriter.inline_block(body, inner.at, indices)
            inner.store(value, buffer, indices)

        nest(e, [])
        rewriter.replace_op(op, [], [as_tensor(buffer, t, rewriter, at)])
