"""Loop emission for sparsification: one `indexing.foreach` per loop.

Mirrors the role of MLIR's `LoopEmitter` and `genStmt` (SparseTensor/Transforms/
Sparsification.cpp), but emits set loops of the `indexing` dialect (RFC seed 003,
"Control-Flow To Iterate Over More Powerful Tensor and Buffer Types"): each loop
iterates the set expression of `sparsifier.merge_lattices.loop_set` and gets one region
per presence case, whose body is the kernel expression specialized to that case.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from xdsl.builder import Builder
from xdsl.dialects import arith, bufferization, complex, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ComplexType,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    TensorType,
    UnitAttr,
    i1,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.dialects.tensor import EmptyOp as TensorEmptyOp
from xdsl.dialects.tensor import InsertOp as TensorInsertOp
from xdsl.dialects.tensor import PadOp
from xdsl.dialects.tensor import YieldOp as TensorYieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.rewriter import InsertPoint

from xsparse.dialects import indexing
from xsparse.dialects.sparse_tensor import SparseTensorEncodingAttr
from xsparse.dialects.sparse_tensor.encoding import Encoding
from xsparse.dialects.sparse_tensor.levels import LevelAccess, LevelType
from xsparse.dialects.sparse_tensor.ops_conversion import LoadOp
from xsparse.dialects.sparse_tensor.ops_insertion import CompressOp, ExpandOp
from xsparse.dialects.sparse_tensor.ops_semiring import ReduceOp, SelectOp
from xsparse.dialects.sparse_tensor.ops_storage import (
    LvlOp,
    ToCoordinatesOp,
    ToPositionsOp,
    ToValuesOp,
)
from xsparse.dialects.sparse_tensor.ops_yield import YieldOp as SparseYieldOp
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.dialects.upstream import linalg as upstream_linalg
from xsparse.transforms.codegen_utils.op_emitter import BuilderEmitter
from xsparse.transforms.sparsifier.iteration_graph import topological_order
from xsparse.transforms.sparsifier.lower_indexing import PARALLEL
from xsparse.transforms.sparsifier.merge_lattices import (
    SEMIRING_OPS,
    ZERO,
    FullSet,
    IndexLeaf,
    IntersectSet,
    InvariantLeaf,
    LevelSet,
    LoopSets,
    NegNode,
    OperandLeaf,
    OpKind,
    OpNode,
    SemiringNode,
    SetExpr,
    TensorExpr,
    UnionSet,
    UnsupportedKernel,
    build_expr,
    loop_set,
    op_kind,
    operands_used,
    reduction_identity,
    semiring_branch,
    set_leaves,
    settle,
    simplify,
)

EMITTED_FROM = "Emitted from"


def encoding_of(value_type: Attribute) -> Encoding | None:
    if is_tensor_type(value_type) and isinstance(
        value_type.encoding, SparseTensorEncodingAttr
    ):
        return value_type.encoding.data
    return None


@dataclass
class Operand:
    """One operand of the generic, with its level-to-loop correspondence."""

    index: int
    value: SSAValue
    type: TensorType[Attribute]
    map: AffineMap
    encoding: Encoding | None
    level_loops: list[int] = field(default_factory=list[int])
    """For a sparse operand, the loop that iterates each level."""
    searched: bool = False
    """A sparse operand a level of which is indexed by a compound affine
    expression (`d0 + d2`, a convolution's image): it drives no loop; its
    element is located level by level once every loop its indices use is
    entered, a binary search on each level that is not dense (MLIR's
    "dense-like" fallback for a non-trivial index on a sparse level)."""
    pad_low: tuple[int, ...] | None = None
    """For a zero-padded sparse tensor (`tensor.pad` folded into the kernel,
    as MLIR's LoopEmitter reads padded tensors): how many zeros come before
    each dimension of `value`, the pad's source; it is searched, zero outside
    the source."""

    @property
    def is_sparse(self) -> bool:
        return self.encoding is not None

    def level_type(self, level: int) -> LevelType:
        assert self.encoding is not None
        return self.encoding.lvl_types[level]


def _level_dims(enc: Encoding) -> list[int]:
    """The dimension stored by each level; the encoding must be a permutation."""
    dims: list[int] = []
    for result in enc.dim_to_lvl.results:
        if not isinstance(result, AffineDimExpr):
            raise UnsupportedKernel(
                "sparse operand with a non-permutation encoding: run "
                "sparse-reinterpret-map before sparsification"
            )
        dims.append(result.position)
    return dims


def analyze_operands(generic: GenericOp) -> list[Operand]:
    maps = [m.data for m in generic.indexing_maps.data]
    values = [*generic.inputs, *generic.outputs]
    operands: list[Operand] = []
    for i, (value, amap) in enumerate(zip(values, maps, strict=True)):
        pad_low: tuple[int, ...] | None = None
        if (unpadded := _unpadded(value)) is not None:
            value, pad_low = unpadded
        vtype = value.type
        if not is_tensor_type(vtype):
            raise UnsupportedKernel("sparsification expects tensor operands")
        element = vtype.element_type
        if not isinstance(element, IntegerType | IndexType | AnyFloat) and not (
            isinstance(element, ComplexType)
            and isinstance(element.element_type, AnyFloat)
        ):
            raise UnsupportedKernel(f"element type {element} is not supported")
        operand = Operand(i, value, vtype, amap, encoding_of(vtype), pad_low=pad_low)
        if operand.encoding is not None:
            results = [amap.results[dim] for dim in _level_dims(operand.encoding)]
            if pad_low is not None or not all(
                isinstance(r, AffineDimExpr) for r in results
            ):
                operand.searched = True
                _check_searchable(operand, is_output=i == len(maps) - 1)
                operands.append(operand)
                continue
            for result in results:
                assert isinstance(result, AffineDimExpr)
                operand.level_loops.append(result.position)
            if len(set(operand.level_loops)) != len(operand.level_loops):
                raise UnsupportedKernel("two levels of a sparse operand on one loop")
        operands.append(operand)
    return operands


def _unpadded(value: SSAValue) -> tuple[SSAValue, tuple[int, ...]] | None:
    """For a `tensor.pad` of a sparse tensor by static amounts with zeros
    (what MLIR's sparsifier folds into a kernel): its source and low pads."""
    pad = value.owner
    if not isinstance(pad, PadOp) or encoding_of(pad.source.type) is None:
        return None
    if pad.low or pad.high:
        raise UnsupportedKernel("a sparse operand padded by dynamic amounts")
    yielded = pad.region.block.last_op
    zero = yielded.operands[0].owner if isinstance(yielded, TensorYieldOp) else None
    if not isinstance(zero, arith.ConstantOp) or not (
        isinstance(zero.value, IntegerAttr | FloatAttr) and zero.value.value.data == 0
    ):
        raise UnsupportedKernel("a sparse operand padded with a value other than 0")
    return pad.source, tuple(pad.static_low.get_values())


def _check_searchable(operand: Operand, is_output: bool) -> None:
    """A searched operand (`Operand.searched`) is an input whose levels a
    binary search can locate a coordinate in: ordered, and unique but where
    a branchless (singleton) level follows (a COO run)."""
    assert operand.encoding is not None
    if is_output:
        raise UnsupportedKernel(
            "a sparse output indexed by a compound affine expression"
        )
    types = operand.encoding.lvl_types
    for level, lt in enumerate(types):
        if lt.format.is_dense:
            continue
        if not lt.is_ordered:
            raise UnsupportedKernel(
                "a sparse operand indexed by a compound affine expression "
                f"needs ordered levels (level {level} is {lt})"
            )
        below = types[level + 1] if level + 1 < len(types) else None
        if lt.nonunique and (below is None or not below.format.is_branchless):
            raise UnsupportedKernel(
                "a sparse operand indexed by a compound affine expression "
                f"needs unique levels, or a singleton below (level {level} is {lt})"
            )


def access_order(operand: Operand) -> list[int]:
    """The loops an operand is accessed by, outermost storage dimension first
    (levels for a sparse operand, dimensions in row-major order otherwise; a
    searched operand's plain indices, in level order)."""
    if operand.is_sparse and not operand.searched:
        return operand.level_loops
    results = operand.map.results
    if operand.encoding is not None:
        results = tuple(results[dim] for dim in _level_dims(operand.encoding))
    return [r.position for r in results if isinstance(r, AffineDimExpr)]


def constrains_order(operand: Operand) -> bool:
    """Whether every loop order must follow the operand's access order (a
    sparse operand whose levels drive loops); the others only prefer theirs."""
    return operand.is_sparse and not operand.searched


def loop_order(num_loops: int, operands: Sequence[Operand]) -> list[int]:
    """The loop order, as MLIR's iteration-graph sorter chooses it: every
    sparse operand's levels outermost first (required) and, when that is
    also possible, every dense operand in row-major order (so that SpMM's
    innermost loop runs along rows of B and C, contiguously)."""
    sparse = [access_order(o) for o in operands if constrains_order(o)]
    dense = [access_order(o) for o in operands if not constrains_order(o)]
    order = topological_order(num_loops, sparse + dense) or topological_order(
        num_loops, sparse
    )
    if order is None:
        raise UnsupportedKernel(
            "no loop order is compatible with the level orders of all sparse "
            "operands (convert one operand to another level order first)"
        )
    return order


@dataclass
class State:
    """Where the emitter stands inside the loop nest."""

    coords: dict[int, SSAValue] = field(default_factory=dict[int, SSAValue])
    """Loop -> the coordinate of that loop."""
    positions: dict[int, SSAValue] = field(default_factory=dict[int, SSAValue])
    """Sparse operand -> its position at the last entered level."""
    depth: dict[int, int] = field(default_factory=dict[int, int])
    """Sparse operand -> how many of its levels are entered."""
    loaded: dict[int, SSAValue] = field(default_factory=dict[int, SSAValue])
    """Operand -> its element, once all of its loops are entered."""
    run_ends: dict[int, SSAValue] = field(default_factory=dict[int, SSAValue])
    """Sparse operand -> the end of the run of its current (segmented) position:
    the positions its next level iterates."""


class Carried(Enum):
    """What a loop carries besides a reduction (MLIR's insertion chain,
    expansion count and valid-lex-insert flag)."""

    TENSOR = "tensor"
    """The output being inserted into, as the insertions so far leave it."""
    COUNT = "count"
    """How many coordinates the expanded workspace has in its `added` list."""
    VISITED = "visited"
    """Whether the reduction into an output being inserted into saw an entry."""


@dataclass(frozen=True)
class Chain:
    """The values that the loops thread through their iterations besides a
    reduction, as the code emitted so far leaves them (None: not live here)."""

    tensor: SSAValue | None = None
    count: SSAValue | None = None
    visited: SSAValue | None = None
    """Set inside a reduction into an output being inserted into only."""

    def get(self, kind: Carried) -> SSAValue:
        if kind is Carried.TENSOR:
            value = self.tensor
        elif kind is Carried.COUNT:
            value = self.count
        else:
            value = self.visited
        assert value is not None, f"no {kind.value} is carried here"
        return value

    def put(self, kind: Carried, value: SSAValue) -> Chain:
        if kind is Carried.TENSOR:
            return replace(self, tensor=value)
        if kind is Carried.COUNT:
            return replace(self, count=value)
        return replace(self, visited=value)


@dataclass(frozen=True)
class _Case:
    """One presence case of a loop: the set leaves present in it (numbered as
    `set_leaves` numbers them) and the kernel specialized to it."""

    present: list[int]
    expr: TensorExpr


@dataclass(frozen=True)
class _Loop:
    """One loop as `_start_loop` emits it, before its regions are filled."""

    k: int
    op: indexing.IterateOp
    leaves: list[SetExpr]
    """The leaves of the set the loop iterates (`set_leaves`)."""
    stored: list[indexing.StoredOp]
    """The emitted op of each leaf (a StoredOp where the leaf is a level)."""
    located: list[Operand]
    """Operands whose (dense) level is entered by the loop's coordinate."""
    cases: list[_Case]
    carried: Carried | None
    reduces: bool
    """Whether the loop carries a reduction (its first iteration argument)."""


class SparseKernelEmitter:
    """Emits the set loops that compute one sparse linalg.generic."""

    def __init__(self, generic: GenericOp, parallelization: str = "none") -> None:
        self.generic = generic
        self.parallelization = parallelization
        if len(generic.outputs) != 1:
            raise UnsupportedKernel("sparse kernels with several outputs")
        self.operands = analyze_operands(generic)
        if any(o.searched for o in self.operands) and self._may_skip_entries():
            raise UnsupportedKernel(
                "a sparse operand indexed by a compound affine expression in a "
                "kernel with sparse_tensor semiring ops"
            )
        self.output = self.operands[-1]
        self.inserting = self.output.is_sparse and _is_materializing(self.output.value)
        """The output starts empty: its entries are inserted (MLIR's
        `tensor.insert` + `sparse_tensor.load hasInserts`), not updated in place."""
        if self.output.is_sparse and not self.inserting:
            self._check_in_place_output(generic)
        self.num_loops = len(generic.iterator_types.data)
        self.order = loop_order(self.num_loops, self.operands)
        block = generic.body.block
        self.block_args = list(block.args)
        yield_op = block.last_op
        assert yield_op is not None
        arg_index = {arg: i for i, arg in enumerate(self.block_args)}
        self.expr = build_expr(
            yield_op.operands[0],
            lambda v: arg_index.get(v),  # pyright: ignore[reportArgumentType]
            lambda op: op.parent_block() is block,
        )
        self.output_read = bool(self.block_args[-1].uses)
        out_loops = {
            self.order.index(d) for r in self.output.map.results for d in _dims(r)
        }
        self.out_depth = max(out_loops, default=-1)
        self.expand_depth = self._expansion_depth() if self.inserting else None
        """With access-pattern expansion (out-of-order insertion, e.g. SpGEMM):
        the depth of the loop nest whose innermost output level goes through a
        dense workspace (`sparse_tensor.expand` / `compress`)."""
        self.element_type = self.block_args[-1].type
        self.builder = Builder(InsertPoint.before(generic))
        self._prologue_anchor: Operation = generic
        self.builder.operation_insertion_handler.append(self._first_loop_op)
        self._constants: dict[tuple[int, Attribute], SSAValue] = {}
        self._buffers: dict[tuple[str, int, int], SSAValue] = {}
        self._sizes: dict[int, SSAValue] = {}
        self._workspace: ExpandOp | None = None

    # -- prologue helpers ---------------------------------------------------

    def _value_buffers(self, operands: Sequence[Operand]) -> None:
        """The value buffers of `operands` up front, in MLIR's order."""
        for operand in operands:
            self.buffer("values" if operand.is_sparse else "dense", operand)

    def _start_state(self) -> State:
        """Every sparse operand at its root: level 0, position 0."""
        sparse = [o.index for o in self.operands if o.is_sparse]
        return State(
            depth=dict.fromkeys(sparse, 0),
            positions=dict.fromkeys(sparse, self.index_constant(0)),
        )

    def _emit_nest(self) -> Chain:
        """The loop nest, from the outermost loop; returns the chain it leaves."""
        start = Chain(tensor=self.output.value)
        _, chain = self._emit_loop(
            0, self.expr, self._start_state(), None, start, self.builder
        )
        return chain

    def _emit_in_place(self) -> SSAValue:
        """The loops updating a sparse output's values; the result is the
        output itself (`sparse_tensor.load`, as MLIR 22 returns it)."""
        self._value_buffers(self.operands)
        self._emit_nest()
        return self.builder.insert(LoadOp(self.output.value)).results[0]

    def _emit_insertions(self) -> SSAValue:
        """The loops inserting a sparse output's entries in order, threading
        the tensor through the loops (MLIR 22's IR shape); with an expanded
        workspace for out-of-order insertion, allocated once before the nest
        (`compress` clears the entries it used) and freed after it."""
        self._value_buffers(self.operands[:-1])
        if self.expand_depth is not None:
            self._workspace = ExpandOp(self.output.value)
            self._hoisted(self._workspace)
        chain = self._emit_nest()
        if self._workspace is not None:
            for buffer in self._workspace.results[:3]:
                self.builder.insert(memref.DeallocOp.get(buffer))
        load = LoadOp(chain.get(Carried.TENSOR), has_inserts=True)
        return self.builder.insert(load).results[0]

    def _check_in_place_output(self, generic: GenericOp) -> None:
        """A sparse output is updated where it stores entries (MLIR's in-place
        sparse kernels, e.g. scaling): every loop is parallel and visits each
        of its stored entries once. New entries need insertion (not yet)."""
        iterators = [it.data for it in generic.iterator_types.data]
        if any(it != IteratorType.PARALLEL for it in iterators) or sorted(
            self.output.level_loops
        ) != list(range(len(iterators))):
            raise UnsupportedKernel(
                "a sparse output is only updated in place (every loop parallel, "
                "one per level of the output); to insert entries, start from an "
                "empty output (tensor.empty or bufferization.alloc_tensor)"
            )

    def _expansion_depth(self) -> int | None:
        """None when the loops visit the output's levels outermost first, in
        order (insertion in order); else the number of outer output levels
        visited in order, below which the innermost output level is reached
        through other loops (inserted through an expanded workspace)."""
        levels = self.output.level_loops
        rank = len(levels)
        if self.order[:rank] == levels:
            return None
        if self.order[: rank - 1] == levels[:-1]:
            return rank - 1
        raise UnsupportedKernel(
            "the loops do not visit the sparse output's levels in order, "
            "outermost first, which insertion needs"
        )

    def _carried(self, k: int) -> Carried | None:
        """What loop k carries besides a reduction: the output tensor (loops
        that insert into it), the workspace's count (expanded loops), or
        whether a reduction visited any entry (MLIR inserts its result only
        then; under expansion, a reduction that visited nothing leaves its
        workspace entry unfilled, where MLIR fills it with the reduction's
        start)."""
        if not self.inserting:
            return None
        if k > self.out_depth:
            return Carried.VISITED
        if self.expand_depth is not None and k >= self.expand_depth:
            return Carried.COUNT
        return Carried.TENSOR

    def _first_loop_op(self, op: Operation) -> None:
        """Prologue ops (buffers, sizes, constants) go before the loop nest."""
        if self._prologue_anchor is self.generic:
            self._prologue_anchor = op

    def _hoisted(self, op: Operation) -> SSAValue:
        Builder(InsertPoint.before(self._prologue_anchor)).insert(op)
        return op.results[0]

    def _at(self, builder: Builder) -> BuilderEmitter:
        """The shared op helpers at `builder`, with the hoisted index constants."""
        return BuilderEmitter(builder, self.index_constant)

    def index_constant(self, value: int) -> SSAValue:
        """An index constant, made once for the kernel and hoisted in front of
        the loop nest (the shared `OpEmitter.index` makes one where asked)."""
        key = (value, IndexType())
        if key not in self._constants:
            self._constants[key] = self._hoisted(
                arith.ConstantOp.from_int_and_width(value, IndexType())
            )
        return self._constants[key]

    def buffer(self, kind: str, operand: Operand, level: int = 0) -> SSAValue:
        key = (kind, operand.index, level)
        if key not in self._buffers:
            if kind == "positions":
                op: Operation = ToPositionsOp(operand.value, level)
            elif kind == "coordinates":
                op = ToCoordinatesOp(operand.value, level)
            elif kind == "values":
                op = ToValuesOp(operand.value)
            else:
                shape = operand.type.get_shape()
                op = bufferization.ToBufferOp.create(
                    operands=[operand.value],
                    result_types=[MemRefType(operand.type.element_type, shape)],
                )
            self._buffers[key] = self._hoisted(op)
        return self._buffers[key]

    def level_size(self, operand: Operand, level: int) -> SSAValue:
        assert operand.encoding is not None
        dim = _level_dims(operand.encoding)[level]
        static = operand.type.get_shape()[dim]
        if static >= 0:
            return self.index_constant(static)
        key = ("lvl", operand.index, level)
        if key not in self._buffers:
            self._buffers[key] = self._hoisted(
                LvlOp(operand.value, self.index_constant(level))
            )
        return self._buffers[key]

    def loop_size(self, loop: int) -> SSAValue:
        """The size of `loop`: a dimension that an operand indexes by it alone,
        the sparse inputs' first (their level sizes), then the dense ones',
        then that of an output being built (its `tensor.empty` sizes)."""
        if loop in self._sizes:
            return self._sizes[loop]
        built = self.output if self.inserting else None
        ordered = [o for o in self.operands if o.is_sparse and o is not built]
        ordered += [o for o in self.operands if not o.is_sparse]
        ordered += [built] if built is not None else []
        for operand in ordered:
            size = self._size_from(operand, loop)
            if size is not None:
                self._sizes[loop] = size
                return size
        raise UnsupportedKernel(f"cannot infer the size of loop {loop}")

    def _size_from(self, operand: Operand, loop: int) -> SSAValue | None:
        """The size of `loop` as the dimension of `operand` it indexes alone
        (None where it indexes none; a padded operand's are not the loops')."""
        if operand.pad_low is not None:
            return None
        for dim, result in enumerate(operand.map.results):
            if not isinstance(result, AffineDimExpr) or result.position != loop:
                continue
            static = operand.type.get_shape()[dim]
            if static >= 0:
                return self.index_constant(static)
            if operand is self.output and self.inserting:
                owner = operand.value.owner
                assert isinstance(owner, TensorEmptyOp | bufferization.AllocTensorOp)
                dynamic = operand.type.get_shape()[:dim].count(DYNAMIC_INDEX)
                return owner.dynamic_sizes[dynamic]
            if operand.encoding is not None:
                level = _level_dims(operand.encoding).index(dim)
                return self.level_size(operand, level)
            buf = self.buffer("dense", operand)
            return self._hoisted(memref.DimOp(buf, self.index_constant(dim)))
        return None

    # -- emission -----------------------------------------------------------

    def emit(self) -> SSAValue:
        """Emit the kernel before the generic; returns the output tensor."""
        if self.inserting:
            return self._emit_insertions()
        if self.output.is_sparse:
            return self._emit_in_place()
        out_buf = self._output_buffer()
        if not self.output_read and (
            any(o.is_sparse for o in self.operands) or self._may_skip_entries()
        ):
            # Entries the loops skip, or where the body has no value, are zero
            # (a dense kernel without semiring ops writes them all).
            zero = self._hoisted(_zero_constant(self.element_type))
            Builder(InsertPoint.before(self._prologue_anchor)).insert(
                upstream_linalg.FillOp([zero], [out_buf], res=())
            )
        self._value_buffers(self.operands[:-1])
        self._emit_nest()
        result_type = self.generic.res[0].type if self.generic.res else self.output.type
        to_tensor = bufferization.ToTensorOp.create(
            operands=[out_buf], result_types=[result_type]
        )
        return self.builder.insert(to_tensor).results[0]

    def _output_buffer(self) -> SSAValue:
        """The dense output's buffer, updated in place; a copy of it where the
        output tensor has other uses (they read its value before the kernel,
        which must stay: MLIR's one-shot bufferization copies then too)."""
        shared = self.output.value.has_more_than_one_use()
        buffer = self.buffer("dense", self.output)
        if not shared:
            return buffer
        t = buffer.type
        assert isinstance(t, MemRefType)
        e = self._at(Builder(InsertPoint.before(self._prologue_anchor)))
        copy = e.alloc(t, e.sizes(buffer))
        e.op(memref.CopyOp(buffer, copy))
        self._buffers[("dense", self.output.index, 0)] = copy
        return copy

    def is_identity(self, expr: TensorExpr) -> bool:
        if isinstance(expr, OperandLeaf) and expr.operand == self.output.index:
            return True
        return expr is ZERO and (not self.output_read or self.inserting)

    def _out_indices(self, state: State, builder: Builder) -> list[SSAValue]:
        return [self._affine(r, state, builder) for r in self.output.map.results]

    def _emit_loop(
        self,
        k: int,
        expr: TensorExpr,
        state: State,
        acc: SSAValue | None,
        chain: Chain,
        builder: Builder,
    ) -> tuple[SSAValue | None, Chain]:
        """Loop k of the nest and all inside it, for `expr` (MLIR's `genStmt`):
        the reduction's value where one goes on outside (`acc` in), and the
        chain the loop leaves."""
        if k == self.num_loops:
            return self._emit_compute(expr, state, acc, chain, builder)
        starts_reduction = acc is None and k == self.out_depth + 1
        acc, chain = self._start_loop_seq(k, expr, state, acc, chain, builder)
        loop = self._start_loop(k, expr, state, acc, chain, builder)
        for region, case in zip(loop.op.regions, loop.cases, strict=True):
            self._emit_case(loop, case, region.block, state, chain)
        acc, chain = self._end_loop(loop, chain)
        return self._end_loop_seq(k, starts_reduction, acc, state, chain, builder)

    def _start_loop_seq(
        self,
        k: int,
        expr: TensorExpr,
        state: State,
        acc: SSAValue | None,
        chain: Chain,
        builder: Builder,
    ) -> tuple[SSAValue | None, Chain]:
        """Before loop k: the start of a reduction over the loops from k on
        (none visited yet, where that is tracked), and the workspace's count
        where expansion starts."""
        if acc is None and k == self.out_depth + 1:
            if self._revisits_output():
                acc = self._load_output(state, builder)
            else:
                acc = self._reduction_start(expr, state, builder)
            if self._carried(k) is Carried.VISITED:
                chain = replace(chain, visited=self._at(builder).constant(0, i1))
        if self.expand_depth == k:
            assert self._workspace is not None
            chain = replace(chain, count=self._workspace.count)
        return acc, chain

    def _start_loop(
        self,
        k: int,
        expr: TensorExpr,
        state: State,
        acc: SSAValue | None,
        chain: Chain,
        builder: Builder,
    ) -> _Loop:
        """The `indexing.foreach` of loop k over the set `expr` needs there,
        one (empty) region per presence case."""
        loop = self.order[k]
        located, iterated = self._entered_operands(loop, expr, state)
        sets = loop_set(
            expr, lambda o: o in iterated, self.output.index, self.is_identity
        )
        if self.output.index in iterated:
            sets = self._driven_by_output(sets, expr)
        set_value = self._emit_set(sets.set_expr, loop, state, builder)
        leaves = set_leaves(sets.set_expr)
        cases = self._presence_cases(sets, leaves, expr)
        carried = self._carried(k)
        iter_args = [acc] if acc is not None else []
        if carried is not None:
            iter_args.append(chain.get(carried))
        op = indexing.IterateOp(set_value, iter_args, [c.present for c in cases])
        op.attributes[EMITTED_FROM] = _string("linalg.generic")
        if carried is None and self._is_parallel(
            k, sets.set_expr, iterated, state, acc is not None
        ):
            op.attributes[PARALLEL] = UnitAttr()
        builder.insert(op)
        stored = _stored_leaves(set_value)
        return _Loop(k, op, leaves, stored, located, cases, carried, acc is not None)

    def _entered_operands(
        self, loop: int, expr: TensorExpr, state: State
    ) -> tuple[list[Operand], set[int]]:
        """The sparse operands whose next level `loop` enters: those located by
        its coordinate (a dense level), and those whose level it iterates."""
        used = operands_used(expr)
        located: list[Operand] = []
        iterated: set[int] = set()
        for operand in self.operands:
            if operand is self.output and self.inserting:
                continue  # built by insertion, not iterated
            drives = operand is self.output and operand.is_sparse
            if not operand.is_sparse or (operand.index not in used and not drives):
                continue
            level = state.depth[operand.index]
            if level < len(operand.level_loops) and operand.level_loops[level] == loop:
                if operand.level_type(level).format.is_dense:
                    located.append(operand)
                else:
                    iterated.add(operand.index)
        return located, iterated

    def _presence_cases(
        self, sets: LoopSets, leaves: list[SetExpr], expr: TensorExpr
    ) -> list[_Case]:
        """The cases of a loop with something to compute: those where the
        specialized kernel is not the identity."""
        cases: list[_Case] = []
        for case in sets.cases:
            absent = frozenset(
                leaf.operand
                for leaf in leaves
                if isinstance(leaf, LevelSet) and leaf not in case
            )
            case_expr = simplify(expr, absent)
            if not self.is_identity(case_expr):
                present = [i for i, leaf in enumerate(leaves) if leaf in case]
                cases.append(_Case(present, case_expr))
        return cases

    def _emit_case(
        self, loop: _Loop, case: _Case, block: Block, state: State, chain: Chain
    ) -> None:
        """The region of one presence case: enter the levels (MLIR's
        `genCoIterationCase`), load what is then ready, emit the loops inside,
        and yield what the loop carries."""
        body = Builder(InsertPoint.at_end(block))
        inner = self._enter_case(loop, case, block, state, body)
        self._load_ready(case.expr, inner, loop.k + 1, body)
        carried = list(block.args[1 + len(case.present) :])
        acc = carried.pop(0) if loop.reduces else None
        if loop.carried is not None:
            chain = chain.put(loop.carried, carried[0])
        acc, chain = self._emit_loop(loop.k + 1, case.expr, inner, acc, chain, body)
        yielded = [acc] if acc is not None else []
        if loop.carried is not None:
            yielded.append(chain.get(loop.carried))
        body.insert(indexing.YieldOp(*yielded))

    def _enter_case(
        self, loop: _Loop, case: _Case, block: Block, state: State, body: Builder
    ) -> State:
        """The state inside a case's region: the loop's coordinate, and one
        level deeper for each present level (at the position the region gets)
        and each located operand (at the position the coordinate gives)."""
        coord = block.args[0]
        inner = replace(
            state,
            coords={**state.coords, self.order[loop.k]: coord},
            positions=dict(state.positions),
            depth=dict(state.depth),
            loaded=dict(state.loaded),
            run_ends=dict(state.run_ends),
        )
        for arg, leaf_index in zip(block.args[1:], case.present, strict=False):
            leaf = loop.leaves[leaf_index]
            if isinstance(leaf, LevelSet):
                self._enter_level(inner, leaf.operand, arg)
                stored = loop.stored[leaf_index]
                if stored.is_segmented:
                    end = indexing.SegmentEndOp(stored.coordinates, arg, stored.hi)
                    inner.run_ends[leaf.operand] = body.insert(end).result
        for operand in loop.located:
            level = inner.depth[operand.index]
            if level == 0:
                position = coord
            else:
                parent = inner.positions[operand.index]
                size = self.level_size(operand, level)
                mul = body.insert(arith.MuliOp(parent, size)).result
                position = body.insert(arith.AddiOp(mul, coord)).result
            self._enter_level(inner, operand.index, position)
        return inner

    def _enter_level(self, state: State, operand: int, position: SSAValue) -> None:
        """`operand` one level deeper in `state`, at `position`."""
        state.positions[operand] = position
        state.depth[operand] += 1
        state.run_ends.pop(operand, None)

    def _end_loop(self, loop: _Loop, chain: Chain) -> tuple[SSAValue | None, Chain]:
        """After a loop: its reduction's value, and the chain it leaves."""
        acc = loop.op.results[0] if loop.reduces else None
        if loop.carried is not None:
            chain = chain.put(loop.carried, loop.op.results[-1])
        return acc, chain

    def _end_loop_seq(
        self,
        k: int,
        starts_reduction: bool,
        acc: SSAValue | None,
        state: State,
        chain: Chain,
        builder: Builder,
    ) -> tuple[SSAValue | None, Chain]:
        """After loop k: the workspace's entries inserted where expansion
        started, and the reduction's value stored where it started (only
        where it saw an entry, when that is tracked)."""
        if self.expand_depth == k:
            chain = self._compress(state, chain, builder)
        if not starts_reduction or acc is None:
            return acc, chain
        visited = chain.visited if self._carried(k) is Carried.VISITED else None
        chain = self._store_result(acc, state, chain, builder, visited)
        return None, replace(chain, visited=None)

    def _compress(self, state: State, chain: Chain, builder: Builder) -> Chain:
        """Insert the entries of the expanded workspace, in order, under the
        output coordinates of the loops outside the expansion."""
        assert self._workspace is not None
        values, filled, added = self._workspace.results[:3]
        outer = [state.coords[loop] for loop in self.output.level_loops[:-1]]
        count, tensor = chain.get(Carried.COUNT), chain.get(Carried.TENSOR)
        compress = CompressOp(values, filled, added, count, tensor, outer)
        return replace(chain, tensor=builder.insert(compress).results[0])

    def _driven_by_output(self, sets: LoopSets, expr: TensorExpr) -> LoopSets:
        """The loop of a sparse output updated in place iterates the output's
        stored entries: its level intersected with what the expression needs,
        which must vanish wherever the output stores nothing."""
        out = LevelSet(self.output.index)
        for case in sets.cases:
            absent = frozenset(
                leaf.operand
                for leaf in set_leaves(sets.set_expr)
                if isinstance(leaf, LevelSet) and leaf not in case
            ) | {self.output.index}
            if simplify(expr, absent) is not ZERO:
                raise UnsupportedKernel(
                    "the result is nonzero where the sparse output stores "
                    "nothing; that needs insertion, into an output that starts "
                    "empty (tensor.empty or bufferization.alloc_tensor)"
                )
        driven = (
            out
            if isinstance(sets.set_expr, FullSet)
            else IntersectSet(out, sets.set_expr)
        )
        cases = [case | {out} for case in sets.cases]
        return LoopSets(driven, cases)

    def _is_parallel(
        self, k: int, s: SetExpr, leaf_operands: set[int], state: State, reduces: bool
    ) -> bool:
        """Whether loop k may run its iterations in parallel, under MLIR's
        `parallelization-strategy`: a `parallel` iterator (its iterations write
        distinct outputs), or a `reduction` iterator that carries only the
        reduction's value (`reduces`; `lower-indexing` makes it an
        `scf.reduce` where the body folds it with a known op) and has loops
        inside it (an innermost one is left to vectorization); over one dense
        range or one unique sparse level, the outermost loop only for the
        `*-outer-loop` strategies."""
        strategy = self.parallelization
        if strategy == "none" or k > 0 and strategy.endswith("outer-loop"):
            return False
        iterator = self.generic.iterator_types.data[self.order[k]].data
        wanted = IteratorType.REDUCTION if reduces else IteratorType.PARALLEL
        if iterator != wanted or reduces and k == len(self.order) - 1:
            return False
        if isinstance(s, FullSet):
            return True
        if not isinstance(s, LevelSet) or strategy.startswith("dense"):
            return False
        operand = self.operands[s.operand]
        return operand.level_type(state.depth[s.operand]).is_unique

    def _emit_set(
        self, s: SetExpr, loop: int, state: State, builder: Builder
    ) -> SSAValue:
        if isinstance(s, FullSet):
            op: Operation = indexing.RangeOp(
                self.index_constant(0), self.loop_size(loop)
            )
        elif isinstance(s, LevelSet):
            operand = self.operands[s.operand]
            level = state.depth[s.operand]
            lt = operand.level_type(level)
            parent = state.positions[s.operand]
            run_end = state.run_ends.get(s.operand)
            lo, hi = self._level_bounds(operand, level, lt, parent, run_end, builder)
            crd = self.buffer("coordinates", operand, level)
            op = indexing.StoredOp(
                crd,
                lo,
                hi,
                ordered=lt.is_ordered,
                unique=lt.is_unique,
                segmented=lt.nonunique and lt.is_ordered,
            )
        elif isinstance(s, UnionSet):
            op = indexing.UnionOp(
                self._emit_set(s.lhs, loop, state, builder),
                self._emit_set(s.rhs, loop, state, builder),
            )
        elif isinstance(s, IntersectSet):
            op = indexing.IntersectOp(
                self._emit_set(s.lhs, loop, state, builder),
                self._emit_set(s.rhs, loop, state, builder),
            )
        else:
            raise UnsupportedKernel(f"unexpected set {s}")
        builder.insert(op)
        return op.results[0]

    def _level_bounds(
        self,
        operand: Operand,
        level: int,
        lt: LevelType,
        parent: SSAValue,
        run_end: SSAValue | None,
        builder: Builder,
    ) -> tuple[SSAValue, SSAValue]:
        """[lo, hi) of the positions stored under `parent` at `level` (under a
        segmented parent, the positions of its run: [parent, run_end))."""
        if run_end is not None and lt.format.is_branchless:
            return parent, run_end
        e = self._at(builder)
        access = LevelAccess(
            e,
            lambda: self.level_size(operand, level),
            lambda k: e.to_index(e.load(self.buffer("positions", operand, level), [k])),
        )
        return lt.format.segment(lt, access, parent)

    def _ready(self, operand: Operand, state: State) -> bool:
        if operand.is_sparse and not operand.searched:
            return state.depth[operand.index] == len(operand.level_loops)
        return all(d in state.coords for r in operand.map.results for d in _dims(r))

    def _load_ready(
        self, expr: TensorExpr, state: State, _k: int, builder: Builder
    ) -> None:
        """Load the elements of operands whose loops are all entered (loop invariants)."""
        for index in sorted(operands_used(expr)):
            operand = self.operands[index]
            if (
                index == self.output.index
                or index in state.loaded
                or not self._ready(operand, state)
            ):
                continue
            state.loaded[index] = self._load_element(operand, state, builder)

    def _load_element(
        self, operand: Operand, state: State, builder: Builder
    ) -> SSAValue:
        if operand.searched:
            return self._load_searched(operand, state, builder)
        if operand.is_sparse:
            values = self.buffer("values", operand)
            return builder.insert(
                memref.LoadOp.get(values, [state.positions[operand.index]])
            ).res
        buf = self.buffer("dense", operand)
        indices = [self._affine(r, state, builder) for r in operand.map.results]
        return builder.insert(memref.LoadOp.get(buf, indices)).res

    def _load_searched(
        self, operand: Operand, state: State, builder: Builder
    ) -> SSAValue:
        """The element of a searched operand at the loops' point: its
        coordinates (less the pads), searched level by level; zero in the
        padding."""
        assert operand.encoding is not None
        e = self._at(builder)
        dims = _level_dims(operand.encoding)
        low = operand.pad_low or (0,) * len(dims)
        coords: list[SSAValue] = []
        inside: list[SSAValue] = []
        for level, dim in enumerate(dims):
            coord = self._affine(operand.map.results[dim], state, builder)
            if operand.pad_low is not None:
                coord = e.sub(coord, self.index_constant(low[dim]))
                size = self.level_size(operand, level)
                inside.append(e.cmp(coord, "ult", size))  # negative: huge
            coords.append(coord)
        root = self.index_constant(0)
        if not inside:
            return self._search(operand, 0, root, None, coords, builder)
        then, other = Block(), Block()
        inner = Builder(InsertPoint.at_end(then))
        value = self._search(operand, 0, root, None, coords, inner)
        inner.insert(scf.YieldOp(value))
        zero = Builder(InsertPoint.at_end(other)).insert(_zero_constant(value.type))
        other.add_op(scf.YieldOp(zero.results[0]))
        branch = scf.IfOp(e.all_of(inside), [value.type], Region(then), Region(other))
        return builder.insert(branch).results[0]

    def _search(
        self,
        operand: Operand,
        level: int,
        parent: SSAValue,
        run_end: SSAValue | None,
        coords: Sequence[SSAValue],
        builder: Builder,
    ) -> SSAValue:
        """The element of a searched operand at `coords` from `level` on, under
        the position `parent` (the run [parent, run_end) below a non-unique
        level): a dense level by arithmetic, another by binary searches of its
        segment for the run of entries at the coordinate (one entry at most
        where the level is unique); zero where a level stores none."""
        if level == len(coords):
            return builder.insert(
                memref.LoadOp.get(self.buffer("values", operand), [parent])
            ).res
        lt = operand.level_type(level)
        e = self._at(builder)
        if lt.format.is_dense:
            position = e.add(
                e.mul(parent, self.level_size(operand, level)), coords[level]
            )
            return self._search(operand, level + 1, position, None, coords, builder)
        lo, hi = self._level_bounds(operand, level, lt, parent, run_end, builder)
        crd = self.buffer("coordinates", operand, level)
        first = self._bisect(builder, crd, lo, hi, coords[level], "ult")
        if not lt.nonunique:  # one entry at most: is it at `first`?
            hi = e.value(arith.MinUIOp(e.add(first, self.index_constant(1)), hi))
        end = self._bisect(builder, crd, first, hi, coords[level], "ule")
        found = e.cmp(first, "ult", end)
        then, other = Block(), Block()
        inner = Builder(InsertPoint.at_end(then))
        below = end if lt.nonunique else None
        value = self._search(operand, level + 1, first, below, coords, inner)
        inner.insert(scf.YieldOp(value))
        zero = Builder(InsertPoint.at_end(other)).insert(_zero_constant(value.type))
        other.add_op(scf.YieldOp(zero.results[0]))
        branch = scf.IfOp(found, [value.type], Region(then), Region(other))
        return builder.insert(branch).results[0]

    def _bisect(
        self,
        builder: Builder,
        crd: SSAValue,
        lo: SSAValue,
        hi: SSAValue,
        coord: SSAValue,
        before: str,
    ) -> SSAValue:
        """The first position p in [lo, hi) where `crd[p] <before> coord` no
        longer holds (`ult`: the first coordinate >= coord; `ule`: > coord), hi
        if none: a binary search of a sorted segment."""
        index = IndexType()
        test, step = Block(arg_types=[index, index]), Block(arg_types=[index, index])
        t = self._at(Builder(InsertPoint.at_end(test)))
        test.add_op(
            scf.ConditionOp(t.cmp(test.args[0], "ult", test.args[1]), *test.args)
        )
        s = self._at(Builder(InsertPoint.at_end(step)))
        low, high = step.args
        mid = s.add(low, s.value(arith.ShRUIOp(s.sub(high, low), s.index(1))))
        right = s.cmp(s.to_index(s.load(crd, [mid])), before, coord)
        step.add_op(
            scf.YieldOp(
                s.select(right, s.add(mid, s.index(1)), low),
                s.select(right, high, mid),
            )
        )
        loop = scf.WhileOp([lo, hi], [index, index], Region(test), Region(step))
        return builder.insert(loop).results[0]

    def _affine(self, expr: AffineExpr, state: State, builder: Builder) -> SSAValue:
        if isinstance(expr, AffineDimExpr):
            return state.coords[expr.position]
        if isinstance(expr, AffineConstantExpr):
            return self.index_constant(expr.value)
        if isinstance(expr, AffineBinaryOpExpr):
            lhs = self._affine(expr.lhs, state, builder)
            rhs = self._affine(expr.rhs, state, builder)
            kind = expr.kind
            if kind == AffineBinaryOpKind.Add:
                op: Operation = arith.AddiOp(lhs, rhs)
            elif kind == AffineBinaryOpKind.Mul:
                op = arith.MuliOp(lhs, rhs)
            elif kind == AffineBinaryOpKind.FloorDiv:
                op = arith.FloorDivSIOp(lhs, rhs)
            elif kind == AffineBinaryOpKind.Mod:
                op = arith.RemSIOp(lhs, rhs)
            else:
                op = arith.CeilDivSIOp(lhs, rhs)
            return builder.insert(op).results[0]
        raise UnsupportedKernel(f"affine expression {expr} in an indexing map")

    def _emit_compute(
        self,
        expr: TensorExpr,
        state: State,
        acc: SSAValue | None,
        chain: Chain,
        builder: Builder,
    ) -> tuple[SSAValue | None, Chain]:
        """The kernel's body inside all loops (MLIR's `genTensorStore`): the
        next value of a reduction (`acc`), or the output's element written."""
        out_read: dict[str, SSAValue] = {}

        def out_value() -> SSAValue:
            if acc is not None:
                return acc
            if "v" not in out_read:
                out_read["v"] = self._load_output(state, builder)
            return out_read["v"]

        memo: dict[int, SSAValue] = {}
        flags: dict[int, SSAValue] = {}

        def value(e: TensorExpr) -> SSAValue:
            if id(e) in memo:
                return memo[id(e)]
            if isinstance(e, OperandLeaf):
                if e.operand == self.output.index:
                    result = out_value()
                elif e.operand in state.loaded:
                    result = state.loaded[e.operand]
                else:
                    result = self._load_element(
                        self.operands[e.operand], state, builder
                    )
            elif e is ZERO:
                result = builder.insert(_zero_constant(self.element_type)).results[0]
            elif isinstance(e, IndexLeaf):
                result = state.coords[e.dim]
            elif isinstance(e, InvariantLeaf):
                if e.value is not None:
                    result = e.value
                else:
                    assert e.op is not None
                    result = builder.insert(e.op.clone()).results[0]
            elif isinstance(e, NegNode):
                child = value(e.child)
                if isinstance(child.type, AnyFloat):
                    result = builder.insert(arith.NegfOp(child)).result
                elif isinstance(child.type, ComplexType):
                    result = builder.insert(complex.NegOp(child)).result
                else:
                    zero = builder.insert(_zero_constant(child.type)).results[0]
                    result = builder.insert(arith.SubiOp(zero, child)).result
                if id(e.child) in flags:
                    flags[id(e)] = flags[id(e.child)]
            elif isinstance(e, OpNode):
                result = self._emit_op(e, body)
            elif isinstance(e, SemiringNode):
                result = self._emit_semiring(e, body)
            else:
                raise UnsupportedKernel(f"unexpected expression {e}")
            memo[id(e)] = result
            return result

        body = _Body(value, flags, builder)
        expr = settle(expr)  # every operand left is present here
        if acc is not None:
            return self._reduce(expr, body, acc, chain)
        if self.is_identity(expr):
            return None, chain
        result = value(expr)
        present = flags.get(id(expr))
        if present is None and self.inserting:
            # A custom reduction of an absent value adds no entry.
            present = self._reduced_present(expr, flags)
        if present is not None and self.output.is_sparse and not self.inserting:
            # Updated in place, an entry cannot go: where there is no value, zero.
            result, present = self._or_zero(present, result, builder), None
        return None, self._store_result(result, state, chain, builder, present)

    def _reduce(
        self, expr: TensorExpr, body: _Body, acc: SSAValue, chain: Chain
    ) -> tuple[SSAValue, Chain]:
        """One step of a reduction: its next value (`acc` where the body has
        none) and, where the loops track it, whether it has seen an entry."""
        builder = body.builder
        if self.is_identity(expr):  # nothing reduced here
            result, present = acc, self._at(builder).constant(0, i1)
        else:
            result = body.value(expr)
            present = body.flags.get(id(expr))
            if present is None:
                present = self._reduced_present(expr, body.flags)
            else:
                result = self._at(builder).select(present, result, acc)
        if chain.visited is None:
            return result, chain
        if present is None:
            visited = self._at(builder).constant(1, i1)
        else:  # e.g. a reduction over a `select`: only a kept entry counts
            visited = builder.insert(arith.OrIOp(chain.visited, present)).result
        return result, replace(chain, visited=visited)

    def _store_expanded(
        self, result: SSAValue, state: State, chain: Chain, builder: Builder
    ) -> Chain:
        """`values[j] = result` in the workspace, recording j in `added` the
        first time (MLIR's expanded access pattern)."""
        assert self._workspace is not None
        count = chain.get(Carried.COUNT)
        values, filled, added = self._workspace.results[:3]
        column = state.coords[self.output.level_loops[-1]]
        seen = builder.insert(memref.LoadOp.get(filled, [column])).res
        true = builder.insert(arith.ConstantOp(IntegerAttr(1, IntegerType(1)))).result
        fresh = builder.insert(arith.XOrIOp(seen, true)).result
        then_block = Block()
        then = Builder(InsertPoint.at_end(then_block))
        then.insert(memref.StoreOp.get(true, filled, [column]))
        then.insert(memref.StoreOp.get(column, added, [count]))
        one = self.index_constant(1)
        then.insert(scf.YieldOp(then.insert(arith.AddiOp(count, one)).result))
        else_block = Block()
        else_block.add_op(scf.YieldOp(count))
        record = scf.IfOp(fresh, [IndexType()], Region(then_block), Region(else_block))
        chain = replace(chain, count=builder.insert(record).results[0])
        builder.insert(memref.StoreOp.get(result, values, [column]))
        return chain

    def _load_output(self, state: State, builder: Builder) -> SSAValue:
        """The output's current element: zero in an output being built by
        insertion, the workspace's entry under expansion. A custom reduction
        (`sparse_tensor.reduce`) into an output being built reads its identity
        where nothing is stored yet (MLIR's `genInsertionLoadReduce`)."""
        empty = self._inserted_start(builder)
        if self._workspace is not None:
            values, filled = self._workspace.results[:2]
            column = state.coords[self.output.level_loops[-1]]
            value = builder.insert(memref.LoadOp.get(values, [column])).res
            if empty is None:
                return value
            seen = builder.insert(memref.LoadOp.get(filled, [column])).res
            return self._at(builder).select(seen, value, empty)
        if self.inserting:
            assert empty is not None
            return empty
        if self.output.is_sparse:
            return self._load_element(self.output, state, builder)
        out_buf = self.buffer("dense", self.output)
        return builder.insert(
            memref.LoadOp.get(out_buf, self._out_indices(state, builder))
        ).res

    def _store_result(
        self,
        result: SSAValue,
        state: State,
        chain: Chain,
        builder: Builder,
        present: SSAValue | None = None,
    ) -> Chain:
        """Write the kernel's value at the output's current element (only where
        `present` holds, when given); returns the chain the write leaves."""
        if present is not None:
            return self._store_if(present, result, state, chain, builder)
        if self._workspace is not None:
            return self._store_expanded(result, state, chain, builder)
        if self.inserting:
            coords = self._out_indices(state, builder)
            insert = TensorInsertOp(result, chain.get(Carried.TENSOR), coords)
            return replace(chain, tensor=builder.insert(insert).results[0])
        if self.output.is_sparse:  # in place, at the output's position
            values = self.buffer("values", self.output)
            position = state.positions[self.output.index]
            builder.insert(memref.StoreOp.get(result, values, [position]))
            return chain
        buf = self.buffer("dense", self.output)
        builder.insert(
            memref.StoreOp.get(result, buf, self._out_indices(state, builder))
        )
        return chain

    # -- semiring ops (sparse_tensor.binary / unary / select / reduce) -------

    def _reduced_present(
        self, expr: TensorExpr, flags: dict[int, SSAValue]
    ) -> SSAValue | None:
        """For `reduce(output, x)`: whether x has a value (a `reduce` of an
        absent x leaves the reduction as it is, so the result has a value
        either way, but only a present x makes the reduction visited)."""
        if not isinstance(expr, SemiringNode) or not isinstance(expr.op, ReduceOp):
            return None
        rest = [
            c
            for c in expr.cased
            if not (isinstance(c, OperandLeaf) and c.operand == self.output.index)
        ]
        return flags.get(id(rest[0])) if len(rest) == 1 else None

    def _emit_op(self, e: OpNode, body: _Body) -> SSAValue:
        """A body op over its children's values. A child that may have no value
        (its flag) makes the result absent where the op annihilates it, and
        counts as zero elsewhere; the result's flag goes into `body.flags`."""
        value, flags, builder = body.value, body.flags, body.builder
        kind = op_kind(e.op)
        pairs = list(zip(e.op.operands, e.children, strict=False))
        mapping: dict[SSAValue, SSAValue] = {}
        for old, child in pairs:
            if child is ZERO:  # a zero of the type the op takes
                mapping[old] = builder.insert(_zero_constant(old.type)).results[0]
            else:
                mapping[old] = value(child)
        child_flags = [flags.get(id(c)) for _, c in pairs]
        flagged = [f for f in child_flags if f is not None]
        annihilating: set[int] = set()
        if kind == OpKind.CONJUNCTION:
            annihilating = set(range(len(pairs)))
        elif kind in (OpKind.LEFT_ANNIHILATED, OpKind.ZERO_PRESERVING):
            annihilating = {0}
        if (  # a walk of the children only where a flag can be dropped
            flagged
            and not self.inserting
            and any(
                flags.get(id(c)) is None and self._reads_output(c) for _, c in pairs
            )
        ):
            # With the output's value as an operand, a missing value is a zero
            # that changes the output (o * 0), not a point to leave alone.
            annihilating = set()
        for i, (old, _) in enumerate(pairs):
            flag = child_flags[i]
            if flag is not None and i not in annihilating:
                mapping[old] = self._or_zero(flag, mapping[old], builder)
        present = [child_flags[i] for i in sorted(annihilating)]
        if kind in (OpKind.DISJUNCTION, OpKind.SUBTRACTION) and len(flagged) == len(
            pairs
        ):
            flags[id(e)] = self._at(builder).any_of(flagged)
        elif any(f is not None for f in present):
            conds = [f for f in present if f is not None]
            flags[id(e)] = self._at(builder).all_of(conds)
        clone = e.op.clone(value_mapper=mapping)
        builder.insert(clone)
        return clone.results[0]

    def _emit_semiring(self, e: SemiringNode, body: _Body) -> SSAValue:
        """A semiring op: the region that its operands' presence chooses,
        inlined with their values (an `scf.if` on each presence only known at
        run time). A result that may have no value gets a flag in `body.flags`."""
        value, flags, builder = body.value, body.flags, body.builder
        args = [None if c is ZERO else value(c) for c in e.cased]
        known: list[bool | SSAValue] = [
            False if c is ZERO else flags.get(id(c), True) for c in e.cased
        ]
        captured = {old: value(c) for old, c in e.captures}

        def branch(
            present: tuple[bool, ...], b: Builder
        ) -> tuple[SSAValue | None, SSAValue | None]:
            chosen = semiring_branch(e.op, present)
            if chosen is None:
                return None, None
            # the branch of a presence pattern takes present operands only
            inputs = [arg for i in chosen.args if (arg := args[i]) is not None]
            if chosen.region is None:
                return inputs[0], None
            result = self._inline_region(chosen.region, inputs, captured, b)
            if isinstance(e.op, SelectOp):  # the region is the predicate
                return inputs[0], result
            return result, None

        result_type = e.op.results[0].type
        result, present = self._dispatch(known, branch, result_type, builder)
        if present is not None:
            flags[id(e)] = present
        return result

    def _dispatch(
        self,
        known: Sequence[bool | SSAValue],
        branch: Callable[
            [tuple[bool, ...], Builder], tuple[SSAValue | None, SSAValue | None]
        ],
        result_type: Attribute,
        builder: Builder,
    ) -> tuple[SSAValue, SSAValue | None]:
        """`branch` for the presence `known` of each operand: an `scf.if` on
        each run-time flag in it, yielding the value and, where some branch
        may have none, whether it has one. No value: zero, flagged false."""
        flag_at = next(
            (i for i, k in enumerate(known) if not isinstance(k, bool)), None
        )
        if flag_at is None:
            result, present = branch(tuple(bool(k) for k in known), builder)
            if result is None:
                zero = builder.insert(_zero_constant(result_type)).results[0]
                return zero, self._at(builder).constant(0, i1)
            return result, present
        blocks: list[Block] = []
        outcomes: list[tuple[SSAValue, SSAValue | None]] = []
        for taken in (True, False):
            block = Block()
            inner = [*known[:flag_at], taken, *known[flag_at + 1 :]]
            body = Builder(InsertPoint.at_end(block))
            outcomes.append(self._dispatch(inner, branch, result_type, body))
            blocks.append(block)
        flagged = any(present is not None for _, present in outcomes)
        for block, (result, present) in zip(blocks, outcomes, strict=True):
            yielded = [result]
            if flagged:
                body = Builder(InsertPoint.at_end(block))
                yielded.append(present or self._at(body).constant(1, i1))
            block.add_op(scf.YieldOp(*yielded))
        types = [result_type, IntegerType(1)] if flagged else [result_type]
        flag = known[flag_at]
        assert isinstance(flag, SSAValue)
        if_op = builder.insert(
            scf.IfOp(flag, types, Region(blocks[0]), Region(blocks[1]))
        )
        return if_op.results[0], if_op.results[1] if flagged else None

    def _inline_region(
        self,
        region: Region,
        args: Sequence[SSAValue],
        captured: dict[SSAValue, SSAValue],
        builder: Builder,
    ) -> SSAValue:
        """A copy of a semiring op's region at `builder`, with `args` for its
        block arguments; returns what it yields."""
        block = region.block
        mapping = {**captured, **dict(zip(block.args, args, strict=True))}
        for op in block.ops:
            if isinstance(op, SparseYieldOp):
                yielded = op.values[0]
                return mapping.get(yielded, yielded)
            builder.insert(op.clone(value_mapper=mapping))
        raise UnsupportedKernel("a semiring region without sparse_tensor.yield")

    def _or_zero(self, flag: SSAValue, value: SSAValue, builder: Builder) -> SSAValue:
        """`value` where `flag` holds, else zero: a missing value as an operand."""
        e = self._at(builder)
        return e.select(flag, value, e.value(_zero_constant(value.type)))

    def _reads_output(self, expr: TensorExpr) -> bool:
        """Whether `expr` uses the output's current value."""
        return self.output.index in operands_used(expr)

    def _may_skip_entries(self) -> bool:
        """Whether the body may have no value at a point: a semiring op
        (`select`, or an empty `present`/`absent` region) decides."""
        return any(isinstance(op, SEMIRING_OPS) for op in self.generic.body.walk())

    def _revisits_output(self) -> bool:
        """Whether a reduction loop encloses the output's loops, so that each
        output element is reduced into again on every iteration of it: a
        reduction inside then continues from the element's value (a custom
        reduction restarting at its identity would drop the outer iterations)."""
        iterators = self.generic.iterator_types.data
        return any(
            iterators[loop].data != IteratorType.PARALLEL
            for loop in self.order[: max(self.out_depth, 0)]
        )

    def _inserted_start(self, builder: Builder) -> SSAValue | None:
        """What an entry of an output being built holds before its first write:
        the identity of a custom reduction over the kernel (zero otherwise); None
        for an output updated in place, or a plain read of a workspace."""
        if not self.inserting:
            return None
        if reduction_identity(self.expr, self.output.index) is not None:
            return self._reduction_start(self.expr, State(), builder)
        if self._workspace is not None:
            return None
        return builder.insert(_zero_constant(self.element_type)).results[0]

    def _reduction_start(
        self, expr: TensorExpr, state: State, builder: Builder
    ) -> SSAValue:
        """The value a reduction starts from: the output's, or the identity of
        a custom reduction (`sparse_tensor.reduce`), which must be invariant."""
        identity = reduction_identity(expr, self.output.index)
        if identity is None:
            return self._load_output(state, builder)
        if not isinstance(identity, InvariantLeaf):
            raise UnsupportedKernel(
                "the identity of a sparse_tensor.reduce must be loop invariant"
            )
        if identity.value is not None:
            return identity.value
        assert identity.op is not None
        return builder.insert(identity.op.clone()).results[0]

    def _store_if(
        self,
        present: SSAValue,
        result: SSAValue,
        state: State,
        chain: Chain,
        builder: Builder,
    ) -> Chain:
        """Write the kernel's value where it has one (`present`); the `scf.if`
        yields what the write changes (the output being inserted into, or the
        workspace's count)."""
        changed = None
        if self._workspace is not None:
            changed = Carried.COUNT
        elif self.inserting:
            changed = Carried.TENSOR
        then = Block()
        stored = self._store_result(
            result, state, chain, Builder(InsertPoint.at_end(then))
        )
        if changed is None:
            then.add_op(scf.YieldOp())
            builder.insert(scf.IfOp(present, [], Region(then)))
            return chain
        unchanged = chain.get(changed)
        then.add_op(scf.YieldOp(stored.get(changed)))
        other = Block()
        other.add_op(scf.YieldOp(unchanged))
        op = scf.IfOp(present, [unchanged.type], Region(then), Region(other))
        builder.insert(op)
        return chain.put(changed, op.results[0])


def _is_materializing(value: SSAValue) -> bool:
    """Whether a tensor is new and empty (MLIR's `isMaterializing`)."""
    owner = value.owner
    if isinstance(owner, bufferization.AllocTensorOp):
        return owner.copy is None
    return isinstance(owner, TensorEmptyOp)


@dataclass
class _Body:
    """The kernel body being evaluated at one point of the loop nest."""

    value: Callable[[TensorExpr], SSAValue]
    """The value of a sub-expression (emitted once)."""
    flags: dict[int, SSAValue]
    """Sub-expression -> whether it has a value, where that is a run-time flag."""
    builder: Builder


def _stored_leaves(set_value: SSAValue) -> list[indexing.StoredOp]:
    """The leaves of an emitted set expression, as `set_leaves` numbers them
    (StoredOp where a sparse level is, a placeholder range otherwise)."""
    op = set_value.owner
    if isinstance(op, indexing.SetAlgebraOp):
        return _stored_leaves(op.lhs) + _stored_leaves(op.rhs)
    return [op]  # pyright: ignore[reportReturnType]


def _dims(expr: AffineExpr) -> set[int]:
    return {e.position for e in expr.dfs() if isinstance(e, AffineDimExpr)}


def _zero_constant(element_type: Attribute) -> Operation:
    """The zero of a scalar type (MLIR's `constantZero`): `complex.constant
    [0.0, 0.0]` for a complex number."""
    if isinstance(element_type, ComplexType):
        return complex.ConstantOp.from_floats((0.0, 0.0), element_type.element_type)
    if isinstance(element_type, AnyFloat):
        return arith.ConstantOp(FloatAttr(0.0, element_type))
    return arith.ConstantOp(IntegerAttr(0, element_type))  # pyright: ignore[reportCallIssue, reportArgumentType]


def _string(text: str) -> Attribute:
    return StringAttr(text)


def is_sparse_generic(op: Operation) -> bool:
    return isinstance(op, GenericOp) and any(
        encoding_of(v.type) is not None for v in (*op.inputs, *op.outputs)
    )
