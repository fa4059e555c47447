"""Loop emission for sparsification: one `indexing.foreach` per loop.

Mirrors the role of MLIR's `LoopEmitter` and `genStmt` (SparseTensor/Transforms/
Sparsification.cpp), but emits set loops of the `indexing` dialect (RFC seed 003,
"Control-Flow To Iterate Over More Powerful Tensor and Buffer Types"): each loop
iterates the set expression of `sparse_analysis.loop_set` and gets one region
per presence case, whose body is the kernel expression specialized to that case.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from xdsl.builder import Builder
from xdsl.dialects import arith, bufferization, memref
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import FillOp, GenericOp
from xdsl.ir import Attribute, Operation, SSAValue
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
from xsparse.dialects.sparse_tensor.levels import LevelType
from xsparse.dialects.sparse_tensor.ops_conversion import LoadOp
from xsparse.dialects.sparse_tensor.ops_storage import (
    LvlOp,
    ToCoordinatesOp,
    ToPositionsOp,
    ToValuesOp,
)
from xsparse.dialects.type_guards import is_tensor_type
from xsparse.transforms.lower_indexing import PARALLEL
from xsparse.transforms.sparse_analysis import (
    ZERO,
    FullSet,
    IndexLeaf,
    IntersectSet,
    InvariantLeaf,
    LevelSet,
    LoopSets,
    NegNode,
    OperandLeaf,
    OpNode,
    SetExpr,
    TensorExpr,
    UnionSet,
    UnsupportedKernel,
    build_expr,
    loop_set,
    operands_used,
    set_leaves,
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
        vtype = value.type
        if not is_tensor_type(vtype):
            raise UnsupportedKernel("sparsification expects tensor operands")
        operand = Operand(i, value, vtype, amap, encoding_of(vtype))
        if operand.encoding is not None:
            for dim in _level_dims(operand.encoding):
                result = amap.results[dim]
                if not isinstance(result, AffineDimExpr):
                    raise UnsupportedKernel(
                        "sparse operand indexed by a compound affine expression"
                    )
                operand.level_loops.append(result.position)
            if len(set(operand.level_loops)) != len(operand.level_loops):
                raise UnsupportedKernel("two levels of a sparse operand on one loop")
        operands.append(operand)
    return operands


def _access_order(operand: Operand) -> list[int]:
    """The loops an operand is accessed by, outermost storage dimension first
    (levels for a sparse operand, dimensions in row-major order otherwise)."""
    if operand.is_sparse:
        return operand.level_loops
    return [r.position for r in operand.map.results if isinstance(r, AffineDimExpr)]


def _topological_order(
    num_loops: int, orders: Sequence[Sequence[int]]
) -> list[int] | None:
    """Loops sorted so that each sequence in `orders` is visited in order, the
    generic's own order where free; None when the constraints form a cycle."""
    before: dict[int, set[int]] = {i: set() for i in range(num_loops)}
    for order in orders:
        for outer, inner in zip(order, order[1:], strict=False):
            if outer != inner:
                before[inner].add(outer)
    result: list[int] = []
    while len(result) < num_loops:
        ready = [
            i for i in range(num_loops) if i not in result and before[i] <= set(result)
        ]
        if not ready:
            return None
        result.append(ready[0])
    return result


def loop_order(num_loops: int, operands: Sequence[Operand]) -> list[int]:
    """The loop order, as MLIR's iteration-graph sorter chooses it: every
    sparse operand's levels outermost first (required) and, when that is
    also possible, every dense operand in row-major order (so that SpMM's
    innermost loop runs along rows of B and C, contiguously)."""
    sparse = [_access_order(o) for o in operands if o.is_sparse]
    dense = [_access_order(o) for o in operands if not o.is_sparse]
    order = _topological_order(num_loops, sparse + dense) or _topological_order(
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


class SparseKernelEmitter:
    """Emits the set loops that compute one sparse linalg.generic."""

    def __init__(self, generic: GenericOp, parallelization: str = "none") -> None:
        self.generic = generic
        self.parallelization = parallelization
        if len(generic.outputs) != 1:
            raise UnsupportedKernel("sparse kernels with several outputs")
        self.operands = analyze_operands(generic)
        self.output = self.operands[-1]
        if self.output.is_sparse:
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
        self.element_type = self.block_args[-1].type
        self.builder = Builder(InsertPoint.before(generic))
        self._prologue_anchor: Operation = generic
        self.builder.operation_insertion_handler.append(self._first_loop_op)
        self._constants: dict[tuple[int, Attribute], SSAValue] = {}
        self._buffers: dict[tuple[str, int, int], SSAValue] = {}
        self._sizes: dict[int, SSAValue] = {}

    # -- prologue helpers ---------------------------------------------------

    def _emit_in_place(self) -> SSAValue:
        """The loops updating a sparse output's values; the result is the
        output itself (`sparse_tensor.load`, as MLIR 22 returns it)."""
        for operand in self.operands:
            if operand.is_sparse:
                self.buffer("values", operand)
            else:
                self.buffer("dense", operand)
        state = State(
            depth={o.index: 0 for o in self.operands if o.is_sparse},
            positions={
                o.index: self.index_constant(0) for o in self.operands if o.is_sparse
            },
        )
        self._emit_loop(0, self.expr, state, None, self.builder)
        return self.builder.insert(LoadOp(self.output.value)).results[0]

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
                "one per level of the output); insertion is not supported yet"
            )

    def _first_loop_op(self, op: Operation) -> None:
        """Prologue ops (buffers, sizes, constants) go before the loop nest."""
        if self._prologue_anchor is self.generic:
            self._prologue_anchor = op

    def _hoisted(self, op: Operation) -> SSAValue:
        Builder(InsertPoint.before(self._prologue_anchor)).insert(op)
        return op.results[0]

    def index_constant(self, value: int) -> SSAValue:
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
        if loop in self._sizes:
            return self._sizes[loop]
        size: SSAValue | None = None
        for operand in self.operands:
            if operand.is_sparse and loop in operand.level_loops:
                size = self.level_size(operand, operand.level_loops.index(loop))
                break
        if size is None:
            for operand in self.operands:
                for dim, result in enumerate(operand.map.results):
                    if isinstance(result, AffineDimExpr) and result.position == loop:
                        static = operand.type.get_shape()[dim]
                        if static >= 0:
                            size = self.index_constant(static)
                        else:
                            buf = self.buffer("dense", operand)
                            size = self._hoisted(
                                memref.DimOp(buf, self.index_constant(dim))
                            )
                        break
                if size is not None:
                    break
        if size is None:
            raise UnsupportedKernel(f"cannot infer the size of loop {loop}")
        self._sizes[loop] = size
        return size

    # -- emission -----------------------------------------------------------

    def emit(self) -> SSAValue:
        """Emit the kernel before the generic; returns the output tensor."""
        if self.output.is_sparse:
            return self._emit_in_place()
        out_buf = self.buffer("dense", self.output)
        if not self.output_read and any(o.is_sparse for o in self.operands):
            # Entries the loops skip are zero (a dense kernel visits them all).
            zero = self._hoisted(_zero_constant(self.element_type))
            Builder(InsertPoint.before(self._prologue_anchor)).insert(
                FillOp([zero], [out_buf], res=())
            )
        # Buffers of every operand up front, in MLIR's order.
        for operand in self.operands[:-1]:
            if operand.is_sparse:
                self.buffer("values", operand)
            else:
                self.buffer("dense", operand)
        state = State(
            depth={o.index: 0 for o in self.operands if o.is_sparse},
            positions={
                o.index: self.index_constant(0) for o in self.operands if o.is_sparse
            },
        )
        self._emit_loop(0, self.expr, state, None, self.builder)
        result_type = self.generic.res[0].type if self.generic.res else self.output.type
        to_tensor = bufferization.ToTensorOp.create(
            operands=[out_buf], result_types=[result_type]
        )
        return self.builder.insert(to_tensor).results[0]

    def _is_identity(self, expr: TensorExpr) -> bool:
        if isinstance(expr, OperandLeaf) and expr.operand == self.output.index:
            return True
        return expr is ZERO and not self.output_read

    def _out_indices(self, state: State, builder: Builder) -> list[SSAValue]:
        return [self._affine(r, state, builder) for r in self.output.map.results]

    def _emit_loop(
        self,
        k: int,
        expr: TensorExpr,
        state: State,
        acc: SSAValue | None,
        builder: Builder,
    ) -> SSAValue | None:
        if k == self.num_loops:
            return self._emit_compute(expr, state, acc, builder)
        starts_reduction = acc is None and k == self.out_depth + 1
        if starts_reduction:
            out_buf = self.buffer("dense", self.output)
            acc = builder.insert(
                memref.LoadOp.get(out_buf, self._out_indices(state, builder))
            ).res
        loop = self.order[k]
        used = operands_used(expr)
        leaf_operands: set[int] = set()
        located: list[Operand] = []
        for operand in self.operands:
            drives = operand is self.output and operand.is_sparse
            if not operand.is_sparse or (operand.index not in used and not drives):
                continue
            level = state.depth[operand.index]
            if level < len(operand.level_loops) and operand.level_loops[level] == loop:
                if operand.level_type(level).format.is_dense:
                    located.append(operand)
                else:
                    leaf_operands.add(operand.index)
        sets = loop_set(
            expr, lambda o: o in leaf_operands, self.output.index, self._is_identity
        )
        if self.output.index in leaf_operands:
            sets = self._driven_by_output(sets, expr)
        set_value = self._emit_set(sets.set_expr, loop, state, builder)
        set_value_leaves = _stored_leaves(set_value)
        leaves = set_leaves(sets.set_expr)
        cases: list[tuple[list[int], TensorExpr]] = []
        for case in sets.cases:
            absent = frozenset(
                leaf.operand
                for leaf in leaves
                if isinstance(leaf, LevelSet) and leaf not in case
            )
            case_expr = simplify(expr, absent)
            if self._is_identity(case_expr):
                continue
            cases.append(
                ([i for i, leaf in enumerate(leaves) if leaf in case], case_expr)
            )
        iter_args = [acc] if acc is not None else []
        loop_op = indexing.IterateOp(set_value, iter_args, [c for c, _ in cases])
        loop_op.attributes[EMITTED_FROM] = _string("linalg.generic")
        if acc is None and self._is_parallel(k, sets.set_expr, leaf_operands, state):
            loop_op.attributes[PARALLEL] = UnitAttr()
        builder.insert(loop_op)
        for region, (present, case_expr) in zip(loop_op.regions, cases, strict=True):
            block = region.block
            inner = replace(
                state,
                coords={**state.coords, loop: block.args[0]},
                positions=dict(state.positions),
                depth=dict(state.depth),
                loaded=dict(state.loaded),
                run_ends={},
            )
            body = Builder(InsertPoint.at_end(block))
            for arg, leaf_index in zip(block.args[1:], present, strict=False):
                leaf = leaves[leaf_index]
                if isinstance(leaf, LevelSet):
                    inner.positions[leaf.operand] = arg
                    inner.depth[leaf.operand] += 1
                    stored = set_value_leaves[leaf_index]
                    if stored.is_segmented:
                        end = indexing.SegmentEndOp(stored.coordinates, arg, stored.hi)
                        inner.run_ends[leaf.operand] = body.insert(end).result
            for operand in located:
                level = inner.depth[operand.index]
                parent = inner.positions[operand.index]
                if level == 0:
                    position = block.args[0]
                else:
                    size = self.level_size(operand, level)
                    mul = body.insert(arith.MuliOp(parent, size)).result
                    position = body.insert(arith.AddiOp(mul, block.args[0])).result
                inner.positions[operand.index] = position
                inner.depth[operand.index] += 1
            self._load_ready(case_expr, inner, k + 1, body)
            block_acc = block.args[1 + len(present)] if acc is not None else None
            new_acc = self._emit_loop(k + 1, case_expr, inner, block_acc, body)
            body.insert(indexing.YieldOp(*([new_acc] if new_acc is not None else [])))
        result = loop_op.results[0] if acc is not None else None
        if starts_reduction and result is not None:
            out_buf = self.buffer("dense", self.output)
            builder.insert(
                memref.StoreOp.get(result, out_buf, self._out_indices(state, builder))
            )
            return None
        return result

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
                    "nothing; that needs insertion, which is not supported yet"
                )
        driven = (
            out
            if isinstance(sets.set_expr, FullSet)
            else IntersectSet(out, sets.set_expr)
        )
        cases = [case | {out} for case in sets.cases]
        return LoopSets(driven, cases)

    def _is_parallel(
        self, k: int, s: SetExpr, leaf_operands: set[int], state: State
    ) -> bool:
        """Whether loop k may run its iterations in parallel, under MLIR's
        `parallelization-strategy`: a `parallel` iterator (its iterations write
        distinct outputs) over one dense range or one unique sparse level, the
        outermost loop only for the `*-outer-loop` strategies."""
        strategy = self.parallelization
        if strategy == "none" or k > 0 and strategy.endswith("outer-loop"):
            return False
        iterator = self.generic.iterator_types.data[self.order[k]].data
        if iterator != IteratorType.PARALLEL:
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
        one = self.index_constant(1)
        fmt = lt.format
        if fmt.has_positions:
            positions = self.buffer("positions", operand, level)
            if fmt.positions_per_parent == 2:
                first = builder.insert(
                    arith.MuliOp(parent, self.index_constant(2))
                ).result
            else:
                first = parent
            second = builder.insert(arith.AddiOp(first, one)).result
            lo = self._load_index(positions, first, builder)
            hi = self._load_index(positions, second, builder)
            return lo, hi
        if lt.n:  # structured[n, m]: n entries per block
            lo = builder.insert(arith.MuliOp(parent, self.index_constant(lt.n))).result
            hi = builder.insert(arith.AddiOp(lo, self.index_constant(lt.n))).result
            return lo, hi
        # singleton: one coordinate at each position of the parent's run
        if run_end is not None:
            return parent, run_end
        hi = builder.insert(arith.AddiOp(parent, one)).result
        return parent, hi

    def _load_index(self, buf: SSAValue, index: SSAValue, builder: Builder) -> SSAValue:
        value = builder.insert(memref.LoadOp.get(buf, [index])).res
        if not isinstance(value.type, IndexType):
            value = builder.insert(arith.IndexCastOp(value, IndexType())).result
        return value

    def _ready(self, operand: Operand, state: State) -> bool:
        if operand.is_sparse:
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
        if operand.is_sparse:
            values = self.buffer("values", operand)
            return builder.insert(
                memref.LoadOp.get(values, [state.positions[operand.index]])
            ).res
        buf = self.buffer("dense", operand)
        indices = [self._affine(r, state, builder) for r in operand.map.results]
        return builder.insert(memref.LoadOp.get(buf, indices)).res

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
        self, expr: TensorExpr, state: State, acc: SSAValue | None, builder: Builder
    ) -> SSAValue | None:
        out_read: dict[str, SSAValue] = {}

        def out_value() -> SSAValue:
            if acc is not None:
                return acc
            if "v" not in out_read:
                out_read["v"] = self._load_element(self.output, state, builder)
            return out_read["v"]

        memo: dict[int, SSAValue] = {}

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
                else:
                    zero = builder.insert(_zero_constant(child.type)).results[0]
                    result = builder.insert(arith.SubiOp(zero, child)).result
            elif isinstance(e, OpNode):
                mapping = {
                    old: value(c)
                    for old, c in zip(e.op.operands, e.children, strict=False)
                }
                clone = e.op.clone(value_mapper=dict(mapping))
                builder.insert(clone)
                result = clone.results[0]
            else:
                raise UnsupportedKernel(f"unexpected expression {e}")
            memo[id(e)] = result
            return result

        result = value(expr)
        if acc is not None:
            return result
        self._store_result(result, state, builder)
        return None

    def _store_result(self, result: SSAValue, state: State, builder: Builder) -> None:
        """Write the kernel's value at the output's current element."""
        if self.output.is_sparse:  # in place, at the output's position
            values = self.buffer("values", self.output)
            position = state.positions[self.output.index]
            builder.insert(memref.StoreOp.get(result, values, [position]))
            return
        buf = self.buffer("dense", self.output)
        builder.insert(
            memref.StoreOp.get(result, buf, self._out_indices(state, builder))
        )


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
    if isinstance(element_type, AnyFloat):
        return arith.ConstantOp(FloatAttr(0.0, element_type))
    return arith.ConstantOp(IntegerAttr(0, element_type))  # pyright: ignore[reportCallIssue, reportArgumentType]


def _string(text: str) -> Attribute:
    return StringAttr(text)


def is_sparse_generic(op: Operation) -> bool:
    return isinstance(op, GenericOp) and any(
        encoding_of(v.type) is not None for v in (*op.inputs, *op.outputs)
    )
