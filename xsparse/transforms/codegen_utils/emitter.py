"""`Emitter`: the op builder of the sparse lowerings that rewrite through a
pattern rewriter (post-sparsification rewrites, sparse storage code
generation, the runtime checks of the RFC lowerings).

Besides `OpEmitter`'s scalars and buffer accesses, it builds the control flow
of those lowerings from callbacks (`loop`, `for_each`, `when`, `branch`,
`while_loop`), constant globals, calls of external functions declared on first
use, and the report of bad run-time data (`runtime_error`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
    i1,
    i8,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable

from xsparse.dialects.upstream import scf as upstream_scf
from xsparse.transforms.codegen_utils.op_emitter import INDEX, OpEmitter, OpT
from xsparse.transforms.runtime_symbols import RUNTIME_ERROR

GLOBAL_PREFIX = "__xsparse_"
"""The names of the constant globals that the sparse lowerings create."""

PER_CHUNK = "xsparse.per_chunk"
"""Unit attribute of a `memref.alloc` at the start of a parallel loop's body,
or a `memref.dealloc` at its end, that the loop needs once per chunk of
iterations rather than once per iteration (a workspace each iteration leaves
as it found it): the lowering of the loop, sequential or on threads, moves
them out of it. An allocation so marked is zeroed (`calloc`)."""

SCRATCH = "xsparse.scratch"
"""Unit attribute of a `memref.alloc` whose buffer only lives during one
call of the function, and of its `memref.dealloc`: the runtime keeps the
memory for the next call (`backend.scratch`), so it costs no page faults."""

LoopBody = Callable[["Emitter", SSAValue, list[SSAValue]], Sequence[SSAValue]]


@dataclass
class Emitter(OpEmitter):
    """Inserts ops at a point through the rewriter, with helpers for the loops,
    globals and runtime calls that the sparse lowerings emit."""

    rewriter: PatternRewriter
    at: InsertPoint
    enclosing: ModuleOp | None = None
    """The module, for emitters inside blocks not attached yet."""
    failed: SSAValue | None = None
    """A `memref<i1>` that `runtime_error` sets to true (so that a checker
    can return whether a check failed), or None."""

    def inside(self, block: Block) -> Emitter:
        """An emitter at the end of `block` (a region being built)."""
        return Emitter(
            self.rewriter, InsertPoint.at_end(block), self.module(), self.failed
        )

    def op(self, op: OpT) -> OpT:
        self.rewriter.insert(op, self.at)
        return op

    def fill(self, buffer: SSAValue, v: SSAValue) -> None:
        """Store `v` into every element of `buffer`."""

        def nest(e: Emitter, indices: list[SSAValue], sizes: list[SSAValue]) -> None:
            if not sizes:
                e.store(v, buffer, indices)
                return
            e.for_each(
                e.index(0), sizes[0], lambda b, i: nest(b, [*indices, i], sizes[1:])
            )

        nest(self, [], self.sizes(buffer))

    def global_constant(
        self, name_hint: str, t: MemRefType[Attribute], data: Sequence[int | float]
    ) -> SSAValue:
        """`memref.get_global` of a private constant global holding `data`
        (one global per distinct content in the module)."""
        module = self.module()
        payload = f"{t}:{list(data)}".encode()
        name = f"{GLOBAL_PREFIX}{name_hint}_{hashlib.sha1(payload).hexdigest()[:12]}"
        if SymbolTable.lookup_symbol(module, name) is None:
            shape = t.get_shape()
            # The element type is known at run time only (ints for an integer
            # global), which xDSL's overloads of `from_list` cannot express.
            tensor_type: Any = TensorType(t.element_type, shape)
            value = cast(
                DenseIntOrFPElementsAttr,
                DenseIntOrFPElementsAttr.from_list(tensor_type, list(data)),
            )
            glob = memref.GlobalOp.get(
                StringAttr(name), t, value, StringAttr("private"), UnitAttr()
            )
            self.rewriter.insert(glob, InsertPoint.at_start(module.body.block))
        return self.value(memref.GetGlobalOp(name, t))

    # -- control flow -------------------------------------------------------

    def loop(
        self,
        lb: SSAValue,
        ub: SSAValue,
        inits: Sequence[SSAValue],
        body: LoopBody,
        step: SSAValue | None = None,
    ) -> list[SSAValue]:
        """`scf.for` from lb to ub carrying `inits`; `body(emitter, iv, args)`
        returns the values to yield."""
        block = Block(arg_types=[INDEX, *(v.type for v in inits)])
        inner = self.inside(block)
        yielded = body(inner, block.args[0], list(block.args[1:]))
        block.add_op(scf.YieldOp(*yielded))
        loop = scf.ForOp(lb, ub, step or self.index(1), inits, Region(block))
        self.op(loop)
        return list(loop.results)

    def reduce_loop(
        self,
        lb: SSAValue,
        ub: SSAValue,
        inits: Sequence[SSAValue],
        body: Callable[[Emitter, SSAValue], Sequence[SSAValue]],
        combine: Sequence[Callable[[Emitter, SSAValue, SSAValue], SSAValue]],
    ) -> list[SSAValue]:
        """`scf.parallel` from lb to ub folding, with `combine[j]` (associative
        and commutative), `inits[j]` and what `body(emitter, iv)` gives for
        each iteration: a reduction that may run on threads."""
        block = Block(arg_types=[INDEX])
        operands = body(self.inside(block), block.args[0])
        regions: list[Region] = []
        for value, fold in zip(operands, combine, strict=True):
            pair = Block(arg_types=[value.type, value.type])
            result = fold(self.inside(pair), pair.args[0], pair.args[1])
            pair.add_op(scf.ReduceReturnOp(result))
            regions.append(Region(pair))
        block.add_op(scf.ReduceOp(operands, regions))
        loop = upstream_scf.ParallelOp(
            [lb], [ub], [self.index(1)], Region(block), inits
        )
        self.op(loop)
        return list(loop.results)

    def parallel_for(
        self, lb: SSAValue, ub: SSAValue, body: Callable[[Emitter, SSAValue], None]
    ) -> None:
        """`scf.parallel` from lb to ub without reductions: iterations that
        write distinct places, which may run on threads."""
        block = Block(arg_types=[INDEX])
        body(self.inside(block), block.args[0])
        block.add_op(scf.ReduceOp())
        self.op(upstream_scf.ParallelOp([lb], [ub], [self.index(1)], Region(block)))

    def for_each(
        self,
        lb: SSAValue,
        ub: SSAValue,
        body: Callable[[Emitter, SSAValue], None],
        step: SSAValue | None = None,
    ) -> None:
        """`scf.for` without loop-carried values (by `step`, else 1)."""

        def wrapped(e: Emitter, iv: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            body(e, iv)
            return []

        self.loop(lb, ub, [], wrapped, step)

    def when(self, cond: SSAValue, then: Callable[[Emitter], None]) -> None:
        """`scf.if` without results or else branch."""
        block = Block()
        then(self.inside(block))
        block.add_op(scf.YieldOp())
        self.op(scf.IfOp(cond, [], Region(block)))

    def branch(
        self,
        cond: SSAValue,
        then: Callable[[Emitter], Sequence[SSAValue]],
        other: Callable[[Emitter], Sequence[SSAValue]],
    ) -> list[SSAValue]:
        """`scf.if` with an else branch; both yield values of the same types."""
        regions: list[Region] = []
        types: list[Attribute] = []
        for fn in (then, other):
            block = Block()
            yielded = fn(self.inside(block))
            block.add_op(scf.YieldOp(*yielded))
            regions.append(Region(block))
            types = [v.type for v in yielded]
        op = scf.IfOp(cond, types, regions[0], regions[1])
        self.op(op)
        return list(op.results)

    def while_loop(
        self,
        inits: Sequence[SSAValue],
        cond: Callable[[Emitter, list[SSAValue]], SSAValue],
        body: Callable[[Emitter, list[SSAValue]], Sequence[SSAValue]],
    ) -> list[SSAValue]:
        """`scf.while` carrying `inits`: `body(emitter, args)` runs while
        `cond(emitter, args)` holds; the last carried values are returned."""
        types = [v.type for v in inits]
        before = Block(arg_types=types)
        test = cond(self.inside(before), list(before.args))
        before.add_op(scf.ConditionOp(test, *before.args))
        after = Block(arg_types=types)
        yielded = body(self.inside(after), list(after.args))
        after.add_op(scf.YieldOp(*yielded))
        op = scf.WhileOp(inits, types, Region(before), Region(after))
        self.op(op)
        return list(op.results)

    # -- runtime calls ------------------------------------------------------

    def module(self) -> ModuleOp:
        if self.enclosing is not None:
            return self.enclosing
        op = self.at.block.parent_op()
        while op is not None and not isinstance(op, ModuleOp):
            op = op.parent_op()
        assert op is not None, "emitting outside of a module"
        self.enclosing = op
        return op

    def call(
        self,
        name: str,
        args: Sequence[SSAValue],
        results: Sequence[Attribute] = (),
    ) -> list[SSAValue]:
        """Call an external function, declaring it in the module on first use."""
        module = self.module()
        if SymbolTable.lookup_symbol(module, name) is None:
            decl = func.FuncOp.external(name, [a.type for a in args], results)
            self.rewriter.insert(decl, InsertPoint.at_start(module.body.block))
        return list(self.op(func.CallOp(name, args, results)).results)

    def runtime_error(self, message: str) -> None:
        """Report bad run-time data: `RUNTIME_ERROR` with the message's
        address (the Python caller of the kernel raises it once the kernel
        returns; `xsparse-run` prints it and exits). The kernel goes on and
        must keep every access in bounds."""
        data = [*message.encode(), 0]
        text = self.global_constant("error", MemRefType(i8, [len(data)]), data)
        address = self.value(memref.ExtractAlignedPointerAsIndexOp.get(text))
        self.call(RUNTIME_ERROR, [address])
        if self.failed is not None:
            self.store(self.constant(1, i1), self.failed, [])
