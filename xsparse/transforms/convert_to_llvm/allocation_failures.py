"""A failed heap allocation ends the call that made it, without touching
memory (MLIR's lowering leaves `malloc`'s result unchecked; a kernel then
writes through a null pointer).

The allocation patterns (`memref.AllocToLLVM`, `ReallocToLLVM`,
`lower_jagged`) compute the byte size with overflow checks (a size past
2^64 - 1 asks for 2^64 - 1 bytes, which no allocator gives) and mark their
call with `ALLOCATION`. Once a module is in the llvm dialect,
`guard_allocations` makes every function that may fail a CFG with an exit:

- after a marked call, `icmp eq null` branches to a report block:
  `ALLOCATION_FAILED(bytes, function name)` (the runtime records a
  MemoryError; `xsparse-run` prints it and exits), `SET_FAILED(true)` (this
  thread's failure flag), then the exit;
- after a call of a function of the module that may fail, `FAILED()` (the
  flag) branches to the exit;
- after `xsparse_parallel_for` of a body that may fail, the first field of
  the loop's context (`threads`: an i64 that a failed chunk sets) branches
  to `SET_FAILED(true)` and the exit;
- the exit frees the blocks the function allocated and still owns
  (`_Owned`), then returns zeros (callers check the flag, never the
  values); the exit of a parallel loop's body also sets the context's field
  and clears the flag of the thread it ran on (a pool thread's flag must
  not outlive the chunk).

The success path costs a compare and a branch per allocation, a store of
the block in its slot, and per call of a function that may fail a read of
the flag (`pthread_getspecific`: the JIT gives modules no thread-local
globals). The runtime defines `FAILED`, `SET_FAILED`, `FORGET` and `RELEASE`
(`backend.runtime_errors`) and clears the flag of the calling thread when it
raises the error. `convert-to-llvm` guards only with `allocation_checks`
(`xsparse.compile`, `xsparse-run`); without, the marks are dropped
(`unmark_allocations`) and the output needs no xsparse runtime.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    IntegerAttr,
    ModuleOp,
    i1,
    i8,
    i64,
)
from xdsl.ir import Block, Operation, SSAValue

from xsparse.dialects.upstream import llvm as upstream_llvm
from xsparse.dialects.upstream.llvm import PoisonOp
from xsparse.transforms.convert_to_llvm.common import PTR, c_string_global
from xsparse.transforms.runtime_symbols import (
    ALLOCATION_FAILED,
    FAILED,
    FORGET,
    PARALLEL_FOR,
    RELEASE,
    SCRATCH_GIVE,
    SCRATCH_TAKE,
    SET_FAILED,
)
from xsparse.xdsl_adapter import walk_iteratively

ALLOCATION = "xsparse.allocation"
"""Attribute of an `llvm.call` that allocates heap memory: the position of
its byte-size operand (`i64`); its result is the block or null."""

_MOVES = ("free", "realloc", SCRATCH_GIVE)
"""The calls that free or move the block of their first operand."""

_EQ, _NE = IntegerAttr(0, 64), IntegerAttr(1, 64)


def _calls(function: llvm.FuncOp) -> Iterator[llvm.CallOp]:
    for block in function.body.blocks:
        for op in block.ops:
            if isinstance(op, llvm.CallOp):
                yield op


def _callee(call: llvm.CallOp) -> str | None:
    return call.callee.root_reference.data if call.callee is not None else None


def _parallel_body(call: llvm.CallOp) -> str | None:
    """The body function of a call of `PARALLEL_FOR`, else None."""
    if _callee(call) != PARALLEL_FOR:
        return None
    address = call.args[0].owner
    if isinstance(address, llvm.AddressOfOp):
        return address.global_name.root_reference.data
    return None


def _callers_closure(
    functions: dict[str, llvm.FuncOp], reaches: Callable[[llvm.CallOp, set[str]], bool]
) -> set[str]:
    """The functions with a call for which `reaches(call, found)` holds, found
    again until nothing changes (so that callers of callers count)."""
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, f in functions.items():
            if name not in found and any(reaches(c, found) for c in _calls(f)):
                found.add(name)
                changed = True
    return found


def _failing(functions: dict[str, llvm.FuncOp]) -> set[str]:
    """The functions that may fail: an allocation, a call of one that may
    fail, or a parallel loop whose body may."""
    return _callers_closure(
        functions,
        lambda call, failing: (
            ALLOCATION in call.attributes
            or _callee(call) in failing
            or _parallel_body(call) in failing
        ),
    )


def _releasing(functions: dict[str, llvm.FuncOp]) -> set[str]:
    """The functions that may free or move a block given to them: a `free`,
    `realloc` or scratch release, or a call of one that may."""
    return _callers_closure(
        functions,
        lambda call, releasing: (
            (callee := _callee(call)) in _MOVES or callee in releasing
        ),
    )


def _split_after(op: Operation) -> tuple[Block, Block]:
    """The block of `op` and a new block after it holding the ops after `op`."""
    block = op.parent_block()
    assert block is not None and block.parent is not None
    rest = Block()
    block.parent.insert_block_after(rest, block)
    following = op.next_op
    while following is not None:
        after = following.next_op
        following.detach()
        rest.add_op(following)
        following = after
    return block, rest


class _Owned:
    """The blocks a function allocated and still owns, in a stack array of
    one slot per allocation site (MLIR has no such thing: it never frees on
    failure). A site's success stores its block in its slot; a `free`, a
    `realloc` and a call of a function that may release blocks passed to
    it clear the slots holding the pointer they are given (`FORGET`, a loop
    over the slots); the exit frees what the slots hold (`RELEASE`;
    `free(null)` does nothing). So a block is freed at most once; one that
    the function lost track of (its slot overwritten by the site's next
    block while it was live, or given to a callee that may release it) is
    left as it is."""

    def __init__(self, function: llvm.FuncOp, sites: list[llvm.CallOp]):
        self.sites = {call: k for k, call in enumerate(sites)}
        entry = function.body.blocks[0]
        self.count = llvm.ConstantOp(IntegerAttr(len(sites), i64), i64)
        array = llvm.AllocaOp(self.count.result, PTR, alignment=8)
        self.array = array.res
        zero = llvm.ConstantOp(IntegerAttr(0, i8), i8)
        size = llvm.ConstantOp(IntegerAttr(8 * len(sites), i64), i64)
        volatile = llvm.ConstantOp(IntegerAttr(0, i1), i1)
        clear = llvm.CallIntrinsicOp(
            "llvm.memset.p0.i64",
            [self.array, zero.result, size.result, volatile.result],
            [],
        )
        first = entry.first_op
        assert first is not None
        entry.insert_ops_before([self.count, array, zero, size, volatile, clear], first)

    def keep(self, call: llvm.CallOp, block: Block) -> None:
        """At the start of `block` (the success of site `call`), record its
        block (a `realloc` forgets the block it moved first)."""
        assert call.returned is not None
        ops: list[Operation] = []
        if _callee(call) == "realloc":
            ops += self._forget(call.args[0])
        slot = upstream_llvm.GEPOp(self.array, [self.sites[call]], PTR)
        ops += [slot, llvm.StoreOp(call.returned, slot.result)]
        first = block.first_op
        assert first is not None
        block.insert_ops_before(ops, first)

    def forget_before(self, call: llvm.CallOp, pointers: list[SSAValue]) -> None:
        """Before `call`, clear the slots holding any of `pointers`."""
        ops = [op for p in pointers for op in self._forget(p)]
        if ops:
            parent = call.parent_block()
            assert parent is not None
            parent.insert_ops_before(ops, call)

    def _forget(self, pointer: SSAValue) -> list[Operation]:
        return [llvm.CallOp(FORGET, self.array, self.count.result, pointer)]

    def release_all(self) -> list[Operation]:
        """The ops that free every block the slots hold (the exit's)."""
        return [llvm.CallOp(RELEASE, self.array, self.count.result)]


class _Exits:
    """The blocks a function that may fail branches to: `exit` (return),
    `report` (an allocation failed; its argument: the bytes asked for) and
    `propagate` (a parallel loop's chunk failed), built on first use."""

    def __init__(
        self,
        module: ModuleOp,
        function: llvm.FuncOp,
        body: bool,
        owned: _Owned | None,
    ):
        self.module = module
        self.function = function
        self.body = body
        self.owned = owned
        self._exit: Block | None = None
        self._report: Block | None = None
        self._propagate: Block | None = None

    def _append(self, block: Block) -> Block:
        self.function.body.add_block(block)
        return block

    def exit(self) -> Block:
        if self._exit is None:
            block = self._append(Block())
            if self.owned is not None:
                block.add_ops(self.owned.release_all())
            if self.body:
                context = self.function.body.blocks[0].args[0]
                one = llvm.ConstantOp(IntegerAttr(1, i64), i64)
                off = llvm.ConstantOp(IntegerAttr(0, i1), i1)
                block.add_ops(
                    [
                        one,
                        llvm.StoreOp(one.result, context),
                        off,
                        llvm.CallOp(SET_FAILED, off.result),
                        llvm.ReturnOp(),
                    ]
                )
            else:
                returned = self.function.function_type.output
                if isinstance(returned, llvm.LLVMVoidType):
                    block.add_op(llvm.ReturnOp())
                else:
                    # zeros: null pointers in the descriptors Python reads
                    zero = (
                        llvm.ZeroOp(result_types=[returned])
                        if isinstance(
                            returned, llvm.LLVMStructType | llvm.LLVMPointerType
                        )
                        else PoisonOp(returned)
                    )
                    block.add_ops([zero, llvm.ReturnOp(zero.results[0])])
            self._exit = block
        return self._exit

    def report(self) -> Block:
        if self._report is None:
            block = self._append(Block(arg_types=[i64]))
            name = _name_global(self.module, self.function.sym_name.data)
            address = llvm.AddressOfOp(name, PTR)
            on = llvm.ConstantOp(IntegerAttr(-1, i1), i1)
            block.add_ops(
                [
                    address,
                    llvm.CallOp(ALLOCATION_FAILED, block.args[0], address.result),
                    on,
                    llvm.CallOp(SET_FAILED, on.result),
                    llvm.BrOp(self.exit()),
                ]
            )
            self._report = block
        return self._report

    def propagate(self) -> Block:
        if self._propagate is None:
            block = self._append(Block())
            on = llvm.ConstantOp(IntegerAttr(-1, i1), i1)
            block.add_ops(
                [on, llvm.CallOp(SET_FAILED, on.result), llvm.BrOp(self.exit())]
            )
            self._propagate = block
        return self._propagate


def _name_global(module: ModuleOp, function: str) -> str:
    """A constant global holding `function`'s name as the error names it
    (a parallel loop's body by the function it came from)."""
    shown = function.split(".parallel.")[0]
    # (a name LLVM takes unquoted whatever the function's)
    name = "__xsparse_name_" + re.sub(r"[^A-Za-z0-9_.]", "_", shown)
    name += (
        ""
        if name.endswith(shown)
        else "_" + hashlib.sha1(shown.encode()).hexdigest()[:8]
    )
    for op in module.ops:
        if isinstance(op, llvm.GlobalOp) and op.sym_name.data == name:
            return name
    module.body.block.add_op(c_string_global(name, shown))
    return name


def _guard_allocation(call: llvm.CallOp, exits: _Exits, owned: _Owned | None) -> None:
    position = call.attributes.pop(ALLOCATION)
    assert isinstance(position, IntegerAttr)
    size: SSAValue = call.args[position.value.data]
    block, rest = _split_after(call)
    assert call.returned is not None
    # (xDSL's llvm.icmp takes integers: the address as one)
    address = llvm.PtrToIntOp(call.returned, i64)
    null = llvm.ConstantOp(IntegerAttr(0, i64), i64)
    failed = llvm.ICmpOp(address.output, null.result, _EQ)
    block.add_ops(
        [
            address,
            null,
            failed,
            llvm.CondBrOp(failed.res, exits.report(), [size], rest, []),
        ]
    )
    if owned is not None and call in owned.sites:
        owned.keep(call, rest)


def _guard_call(call: llvm.CallOp, exits: _Exits) -> None:
    block, rest = _split_after(call)
    failed = llvm.CallOp(FAILED, return_type=i1)
    assert failed.returned is not None
    block.add_ops([failed, llvm.CondBrOp(failed.returned, exits.exit(), [], rest, [])])


def _guard_parallel_loop(call: llvm.CallOp, exits: _Exits) -> None:
    block, rest = _split_after(call)
    cell = llvm.LoadOp(call.args[1], i64)
    zero = llvm.ConstantOp(IntegerAttr(0, i64), i64)
    failed = llvm.ICmpOp(cell.dereferenced_value, zero.result, _NE)
    block.add_ops(
        [
            cell,
            zero,
            failed,
            llvm.CondBrOp(failed.res, exits.propagate(), [], rest, []),
        ]
    )


def _declare(module: ModuleOp) -> None:
    present = {op.sym_name.data for op in module.ops if isinstance(op, llvm.FuncOp)}
    for name, function_type in (
        (ALLOCATION_FAILED, llvm.LLVMFunctionType([i64, PTR])),
        (FAILED, llvm.LLVMFunctionType([], i1)),
        (SET_FAILED, llvm.LLVMFunctionType([i1])),
        (FORGET, llvm.LLVMFunctionType([PTR, i64, PTR])),
        (RELEASE, llvm.LLVMFunctionType([PTR, i64])),
    ):
        if name not in present:
            module.body.block.add_op(
                llvm.FuncOp(name, function_type, linkage=llvm.LinkageAttr("external"))
            )


def guard_allocations(module: ModuleOp) -> None:
    """Give every function of `module` (in the llvm dialect) that may fail
    its checks and exit (see the module's docstring)."""
    functions = {
        op.sym_name.data: op
        for op in module.ops
        if isinstance(op, llvm.FuncOp) and op.body.blocks
    }
    failing = _failing(functions)
    if not failing:
        return
    _declare(module)
    bodies = {
        body
        for f in functions.values()
        for call in _calls(f)
        if (body := _parallel_body(call)) is not None
    }
    releasing = _releasing(functions)
    for name in sorted(failing):
        function = functions[name]
        calls = list(_calls(function))
        # (a scratch block is the runtime's: never freed here)
        sites = [
            c
            for c in calls
            if ALLOCATION in c.attributes and _callee(c) != SCRATCH_TAKE
        ]
        owned = _Owned(function, sites) if sites else None
        exits = _Exits(module, function, name in bodies, owned)
        for call in calls:
            callee = _callee(call)
            if owned is not None and callee == "free":
                owned.forget_before(call, call.args[:1])
            elif owned is not None and callee in releasing:
                pointers = [
                    a for a in call.args if isinstance(a.type, llvm.LLVMPointerType)
                ]
                owned.forget_before(call, pointers)
            if ALLOCATION in call.attributes:
                _guard_allocation(call, exits, owned)
            elif callee in failing:
                _guard_call(call, exits)
            elif _parallel_body(call) in failing:
                _guard_parallel_loop(call, exits)


def may_fail_allocation(module: ModuleOp) -> bool:
    """Whether code of `module` (in the llvm dialect) allocates heap memory
    other than `SCRATCH` buffers (which a kernel takes before the loops that
    write its outputs: `fused_checks`), so may fail after writing them."""
    return any(
        isinstance(op, llvm.CallOp) and _callee(op) in ("malloc", "calloc", "realloc")
        for op in walk_iteratively(module)
    )


def unmark_allocations(module: ModuleOp) -> None:
    """Drop the `ALLOCATION` marks (allocations left unchecked, as in MLIR)."""
    for op in walk_iteratively(module):
        if isinstance(op, llvm.CallOp):
            op.attributes.pop(ALLOCATION, None)
