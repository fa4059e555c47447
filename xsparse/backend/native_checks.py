"""Checkers of a kernel's sparse arguments, compiled with the kernel and run
before it on every call.

For each argument of a sparse tensor type, `add_checkers` adds a public
function `__xsparse_check_<kernel>_<position>` to the kernel's module (at the
buffer level, after the sparsifier): it takes the argument's storage in the
calling convention (`storage_fields`: level buffers, values, level sizes) and
runs the checks of `transforms.storage.buffer_checks` over it: positions
within their buffers and monotone, coordinates in range, sorted and unique as
each level's properties require, values long enough. A check covers what
the kernel relies on: coordinates it never reads (a sum of the values) are
only checked for their length, and coordinates it only gathers with (SpMV
reads x at them) for their range, not their order or uniqueness, which
cannot change what it computes (repeated entries are summed, as scipy
does). The checks are then two flat passes, over the positions and over the
coordinates (their largest, in their own width), at memory speed. A failed check reports
through `xsparse_runtime_error`, which the Python caller raises as a
ValueError naming the argument, and makes the checker return true.

The kernel's checked entry (`abi.packed_wrapper_ir` with `guards`) runs the
checkers on the slots of the kernel's own call and the kernel only when none
failed: one call from Python. Because the checks run on every call, nothing
changed in a tensor's buffers after it was built reaches the kernel
unchecked.

Checks the kernel itself makes (`Emitter.runtime_error`) do not stop it:
where one may report on a run that also writes the caller's memory
(`reports_while_running`), the call copies the outputs first and puts them
back (`Kernel.saved_on_error`). A kernel whose reports and writes are the
two branches of one `scf.if` outside loops (the decomposed products' shape
checks, hoisted ahead of every part) needs no copy.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import FunctionType, MemRefType, ModuleOp, TensorType, i1
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import (
    MemoryEffectKind,
    RecursiveMemoryEffect,
    SymbolTable,
    get_effects,
)

from xsparse.backend.abi import Guard
from xsparse.backend.fused_checks import (
    COORDINATE_LOADS,
    buffer_uses,
    fuse_range_check,
    restore_outputs_on_failure,
)
from xsparse.dialects.sparse_tensor.storage import sparse_encoding, storage_fields
from xsparse.dialects.sparse_tensor.types import SparseTensorType
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.dialects.upstream.arith import IndexCastUIOp
from xsparse.dialects.upstream.vector import GatherOp
from xsparse.transforms.codegen_utils.emitter import Emitter
from xsparse.transforms.runtime_symbols import RUNTIME_ERROR
from xsparse.transforms.storage.buffer_checks import GivenLevel, check_given_buffers
from xsparse.xdsl_adapter import walk_iteratively

CHECK_PREFIX = "__xsparse_check_"


def checker_name(kernel: str, position: int) -> str:
    return f"{CHECK_PREFIX}{kernel}_{position}"


@dataclass
class Checkers:
    """The checkers `add_checkers` added, by argument position: `full` ones
    check everything the kernel relies on; `in_kernel` ones (only for the
    arguments with such coordinates) leave the range of the coordinates the
    kernel only gathers with to the kernel itself (`fused_checks`), which
    then reports them after it ran."""

    full: dict[int, str] = field(default_factory=dict[int, str])
    in_kernel: dict[int, str] = field(default_factory=dict[int, str])
    restores_outputs: bool = False
    """The kernel puts back what it wrote when one of its own checks fails
    (`fused_checks.restore_outputs_on_failure`): its in-kernel entry loses
    nothing of the caller's."""

    def for_in_kernel_entry(self) -> dict[int, str]:
        """The checkers of the entry that relies on the kernel's own range
        checks (empty when the kernel has none)."""
        if not self.in_kernel:
            return {}
        return {**self.full, **self.in_kernel}


RUNTIME_PREFIX = "xsparse_"
"""Names the runtime's callbacks start with (`io_runtime`): a call of one may
report bad run-time data (`xsparse_runtime_error`, a file that cannot be
read) while the kernel runs."""


@dataclass
class _Summary:
    """What running a function (or an op) may do."""

    reports: bool = False
    """It may report an error through the runtime."""
    writes: bool = False
    """It may write memory it did not allocate (unknown effects count)."""
    late: bool = False
    """It may both report and write on one run: after or before the report,
    something of the caller's may have changed."""


def reports_while_running(module: ModuleOp, kernel: str) -> bool:
    """Whether `@kernel` (at the buffer level, before `add_checkers` fuses
    range checks into it) may report an error through the runtime on a run
    that also writes memory it did not allocate itself (its outputs):
    checks that cannot run before it (the entries of a sparse result
    against its `posWidth`), files read, a report in a loop that writes.

    A report that no write shares a path with is not counted: the kernel
    `scf.if %ok { writes } else { reports }` (the shapes of a decomposed
    product's parts, `sparse-decompose-format`; a 2:4 product's) either
    reports or writes, so a refused call changed nothing of the caller's.
    The paths are read off the IR itself (`_exclusive`), not off a marker
    a pass leaves, so no later rewrite can make the answer stale: a write
    moved out of the branch, an op of unknown effects, a call of an
    external function all count as sharing the report's path, and the
    answer errs towards copying the outputs."""
    return _scan_function(module, kernel, {}).late


def _scan_function(
    module: ModuleOp, name: str, summaries: dict[str, _Summary]
) -> _Summary:
    """The summary of `@name` (memoized in `summaries`; a function on a call
    cycle counts as reporting late)."""
    if name in summaries:
        return summaries[name]
    summaries[name] = _Summary(reports=True, writes=True, late=True)
    function = SymbolTable.lookup_symbol(module, name)
    if not isinstance(function, func.FuncOp):
        summary = _Summary(writes=True)
    elif not function.body.blocks:
        # `xsparse_runtime_error` only records the message; other callbacks
        # (file readers) may write as well as report.
        runtime = name.startswith(RUNTIME_PREFIX)
        summary = _Summary(reports=runtime, writes=name != RUNTIME_ERROR)
        summary.late = summary.reports and summary.writes
    else:
        summary = _Summary()
        reports: list[Operation] = []
        writes: list[Operation] = []
        for op in walk_iteratively(function.body):
            own = _own_summary(module, op, summaries)
            summary.late |= own.late
            if own.reports:
                reports.append(op)
            if own.writes:
                writes.append(op)
        summary.reports = bool(reports)
        summary.writes = bool(writes)
        summary.late |= any(
            r is not w and not _exclusive(r, w, function)
            for r in reports
            for w in writes
        )
    summaries[name] = summary
    return summary


def _own_summary(
    module: ModuleOp, op: Operation, summaries: dict[str, _Summary]
) -> _Summary:
    """What `op` itself may do, apart from the ops in its regions: a call
    what its callee does; another op writes when one of its memory effects
    writes memory it did not allocate, or its effects are unknown."""
    if isinstance(op, func.CallOp):
        return _scan_function(module, op.callee.string_value(), summaries)
    if op.regions and op.has_trait(RecursiveMemoryEffect):
        return _Summary()
    effects = get_effects(op)
    if effects is None:
        return _Summary(writes=not _writes_nothing(op))
    return _Summary(
        writes=any(
            e.kind is MemoryEffectKind.WRITE and not _writes_local(op, e.value)
            for e in effects
        )
    )


def _exclusive(a: Operation, b: Operation, function: func.FuncOp) -> bool:
    """Whether no run of `function` executes both `a` and `b`: they lie in
    different regions of one `scf.if` (then and else) that no loop (any
    other op with regions) encloses."""
    a_path = _ancestors(a, function)
    b_path = _ancestors(b, function)
    common = next((op for op in a_path if op in b_path), None)
    if not isinstance(common, scf.IfOp):
        return False
    if any(not isinstance(op, scf.IfOp) for op in _ancestors(common, function)):
        return False
    return _region_in(a, common) is not _region_in(b, common)


def _ancestors(op: Operation, function: func.FuncOp) -> list[Operation]:
    """The ops enclosing `op` inside `function`, innermost first."""
    chain: list[Operation] = []
    parent = op.parent_op()
    while parent is not None and parent is not function:
        chain.append(parent)
        parent = parent.parent_op()
    return chain


def _region_in(op: Operation, ancestor: Operation) -> Region | None:
    """The region of `ancestor` that holds `op`."""
    while (region := op.parent_region()) is not None:
        if region.parent is ancestor:
            return region
        parent = region.parent_op()
        if parent is None:
            return None
        op = parent
    return None


NO_MEMORY_DIALECTS = frozenset({"arith", "math", "index"})
"""Dialects whose ops touch no memory (as in MLIR), some of which xDSL
declares no effects for."""
VECTOR_WRITES = frozenset(
    {
        "vector.store",
        "vector.maskedstore",
        "vector.scatter",
        "vector.compressstore",
        "vector.transfer_write",
    }
)
"""The vector ops that write memory; MLIR's others only read it or none."""
READS_ONLY = frozenset({"memref.prefetch", "func.return"})


def _writes_nothing(op: Operation) -> bool:
    """Whether `op`, of no declared effects in xDSL, writes no memory in
    MLIR: arith, math and index ops, vector ops but stores, a prefetch."""
    dialect = op.name.split(".", 1)[0]
    return (
        dialect in NO_MEMORY_DIALECTS
        or (dialect == "vector" and op.name not in VECTOR_WRITES)
        or op.name in READS_ONLY
    )


def _writes_local(op: Operation, target: SSAValue | None) -> bool:
    """Whether a write of `op` to `target` (None: one of its memref
    operands, as xDSL's effects of `memref.store` say) goes to memory the
    function allocated itself (`memref.alloc`, `memref.alloca`)."""
    targets = (
        [target]
        if target is not None
        else [v for v in op.operands if isinstance(v.type, MemRefType)]
    )
    return bool(targets) and all(
        isinstance(v.owner, memref.AllocOp | memref.AllocaOp) for v in targets
    )


def add_checkers(
    module: ModuleOp, kernel: str, inputs: Sequence[Attribute], in_kernel: bool = True
) -> Checkers:
    """Add a checker for each sparse argument among `inputs` (the kernel's
    tensor-level argument types). The coordinates the kernel (`@kernel` in
    `module`, at the buffer level) never reads are not checked beyond their
    length; the range of those it only gathers with is also checked in the
    kernel itself, as it reads them (the kernel is rewritten so, unless not
    `in_kernel`), and a second checker leaves it out."""
    function = SymbolTable.lookup_symbol(module, kernel)
    assert isinstance(function, func.FuncOp), f"no function '{kernel}' in the module"
    arguments = function.body.blocks[0].args
    checkers = Checkers()
    failures: list[SSAValue] = []
    for position, (t, first, count) in _sparse_slices(inputs).items():
        name = checker_name(kernel, position)
        where = f"argument {position} of {kernel}()"
        own = arguments[first : first + count]
        uses: list[FieldUse] = [_field_use(a) for a in own]
        _add_checker(module, name, t, where, uses)
        checkers.full[position] = name
        fused: dict[int, SSAValue] = {}
        if in_kernel:
            fused = _fuse_range_checks(module, function, t, where, own, uses)
        if fused:
            name = checker_name(kernel, position) + IN_KERNEL_SUFFIX
            _add_checker(module, name, t, where, uses, set(fused))
            checkers.in_kernel[position] = name
            failures += fused.values()
    if failures:
        checkers.restores_outputs = restore_outputs_on_failure(
            module, function, failures
        )
    return checkers


IN_KERNEL_SUFFIX = "_in_kernel"
"""Ends the name of a checker that leaves some range checks to the kernel."""


def _fuse_range_checks(
    module: ModuleOp,
    function: func.FuncOp,
    tensor_type: TensorType[Attribute],
    where: str,
    fields: Sequence[BlockArgument],
    uses: Sequence[FieldUse],
) -> dict[int, SSAValue]:
    """Check, inside the kernel, the range of each coordinates buffer of the
    argument (its `fields`) that the kernel only gathers with; the levels
    whose range it now checks, with the flag that says a check failed."""
    stt = SparseTensorType(tensor_type)
    kinds = [(f.kind, f.level) for f in storage_fields(tensor_type)]
    by_kind = dict(zip(kinds, fields, strict=True))
    fused: dict[int, SSAValue] = {}
    for (kind, level), argument, use in zip(kinds, fields, uses, strict=True):
        if kind != "coordinates" or use != "gathered":
            continue
        lt = stt.lvl_types[level]
        if lt.format.is_padded:
            continue  # (coordinates within a block: the range is not the size)
        message = f"{where}: level {level} ({lt}): a coordinate is out of range"
        limit = by_kind["level_size", level]
        failed = fuse_range_check(module, function, argument, limit, message)
        if failed is not None:
            fused[level] = failed
    return fused


def _sparse_slices(
    inputs: Sequence[Attribute],
) -> dict[int, tuple[TensorType[Attribute], int, int]]:
    """Each sparse argument's type and slice (first, count) of the kernel's
    memref-level inputs (a sparse argument is its storage fields, any other
    one input), by argument position."""
    slices: dict[int, tuple[TensorType[Attribute], int, int]] = {}
    first = 0
    for position, t in enumerate(inputs):
        count = 1
        if is_tensor_type(t) and sparse_encoding(t) is not None:
            count = len(storage_fields(t))
            slices[position] = (t, first, count)
        first += count
    return slices


def checker_guards(inputs: Sequence[Attribute], names: dict[int, str]) -> list[Guard]:
    """The checkers `names` (by argument position) as guards of the kernel's
    checked entry: each on its argument's slice of the kernel's inputs."""
    return [
        Guard(names[position], first, count)
        for position, (_, first, count) in _sparse_slices(inputs).items()
        if position in names
    ]


FieldUse = Literal["unread", "gathered", "any"]
"""How a kernel uses a storage field: not at all, only its elements as
indices of loads (the order of the entries cannot change the result), or
otherwise."""

_INDEX_CASTS = (arith.IndexCastOp, IndexCastUIOp, arith.ExtUIOp, arith.ExtSIOp)


def _field_use(field: SSAValue) -> FieldUse:
    """How the kernel uses the storage field `field` (a block argument)."""
    uses = list(buffer_uses(field))
    if not uses:
        return "unread"
    for use in uses:
        load = use.operation
        if not isinstance(load, COORDINATE_LOADS) or use.index != 0:
            return "any"
        if not all(_only_indexes_loads(load.results[0])):
            return "any"
    return "gathered"


def _only_indexes_loads(value: SSAValue) -> Iterator[bool]:
    """For each use of `value` (through integer casts): whether it is an
    index of a `memref.load` or the index vector of a `vector.gather`."""
    for use in value.uses:
        user = use.operation
        if isinstance(user, _INDEX_CASTS):
            yield from _only_indexes_loads(user.results[0])
        elif isinstance(user, GatherOp):
            yield use.index == len(user.indices) + 1
        else:
            yield isinstance(user, memref.LoadOp) and use.index > 0


def _add_checker(
    module: ModuleOp,
    name: str,
    tensor_type: TensorType[Attribute],
    where: str,
    uses: Sequence[FieldUse],
    range_in_kernel: set[int] | frozenset[int] = frozenset(),
) -> None:
    """`uses`: how the kernel uses each storage field; `range_in_kernel`:
    the levels whose coordinates' range the kernel checks itself."""
    fields = storage_fields(tensor_type)
    types = [f.type for f in fields]
    block = Block(arg_types=types)
    checker = func.FuncOp(name, FunctionType.from_lists(types, [i1]), Region(block))
    module.body.block.add_op(checker)
    e = Emitter(PatternRewriter(checker), InsertPoint.at_end(block), module)
    e.failed = e.value(memref.AllocaOp.get(i1, shape=[]))
    e.store(e.constant(0, i1), e.failed, [])
    arguments: dict[tuple[str, int], SSAValue] = dict(
        zip(((f.kind, f.level) for f in fields), block.args, strict=True)
    )
    used = dict(zip(((f.kind, f.level) for f in fields), uses, strict=True))
    stt = SparseTensorType(tensor_type)
    levels = [
        GivenLevel.of_buffers(
            e,
            arguments.get(("positions", level)),
            arguments.get(("coordinates", level)),
            used.get(("coordinates", level)) != "unread",
            used.get(("coordinates", level)) != "gathered",
            level in range_in_kernel,
        )
        for level in range(stt.lvl_rank)
    ]
    level_sizes = [arguments["level_size", level] for level in range(stt.lvl_rank)]
    values = arguments["values", -1]
    check_given_buffers(e, where, stt, level_sizes, levels, e.dim(values), exact=True)
    e.op(func.ReturnOp(e.load(e.failed, [])))
