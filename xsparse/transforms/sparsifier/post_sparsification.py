"""`post-sparsification-rewrite`: sparse_tensor ops that read a tensor's storage
through its buffers -> loops over those buffers.

Mirrors the direct-codegen part of MLIR 22's `-post-sparsification-rewrite`
(SparseTensorRewriting.cpp), which runs after `sparsification` and before
`sparse-tensor-codegen`:

* `sparse_tensor.print` -> the header, `nse`, the dimension and level sizes,
  then each level's positions and coordinates and the values, printed through
  the print functions of MLIR's runner utilities (`printU64`, `printOpen`, ...)
  exactly as `mlir-runner` prints them;
* `sparse_tensor.number_of_entries` -> the size of the values buffer;
* `sparse_tensor.convert` of a sparse tensor to a dense one -> a zero-filled
  buffer and a loop nest over the stored entries.

Everything is expressed with `sparse_tensor.positions/coordinates/values/lvl`,
which `sparse-tensor-codegen` then resolves to the storage fields.
`Emitter` is the small op builder shared with `sparse-tensor-codegen`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from xdsl.context import Context
from xdsl.dialects import arith, bufferization, func, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable

from xsparse.dialects.sparse_tensor.levels import LevelAccess
from xsparse.dialects.sparse_tensor.ops_conversion import ConvertOp, PrintOp
from xsparse.dialects.sparse_tensor.ops_storage import (
    CrdTranslateOp,
    LvlOp,
    NumberOfEntriesOp,
    ToCoordinatesOp,
    ToPositionsOp,
    ToValuesOp,
)
from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.dialects.sparse_tensor.types import CrdTransDirection, SparseTensorType
from xsparse.dialects.type_guards import (
    is_integer_type,
    is_memref_type,
    is_tensor_type,
)
from xsparse.dialects.xdsl_ext import IndexCastUIOp
from xsparse.transforms.errors import LocatingApplier, PassFailure

INDEX = IndexType()
GLOBAL_PREFIX = "__xsparse_"
RUNTIME_ERROR = "xsparse_runtime_error"
"""The runtime function that compiled code calls with the address of a
NUL-terminated message when its run-time data is invalid."""
"""The names of the constant globals that the sparse lowerings create."""

LoopBody = Callable[["Emitter", SSAValue, list[SSAValue]], Sequence[SSAValue]]


@dataclass
class Emitter:
    """Inserts ops at a point through the rewriter, with helpers for the index
    arithmetic, loops, buffers and runtime calls that the sparse lowerings emit."""

    rewriter: PatternRewriter
    at: InsertPoint
    enclosing: ModuleOp | None = None
    """The module, for emitters inside blocks not attached yet."""

    def inside(self, block: Block) -> Emitter:
        """An emitter at the end of `block` (a region being built)."""
        return Emitter(self.rewriter, InsertPoint.at_end(block), self.module())

    def op(self, op: Operation) -> Operation:
        self.rewriter.insert(op, self.at)
        return op

    def value(self, op: Operation) -> SSAValue:
        return self.op(op).results[0]

    # -- scalars ------------------------------------------------------------

    def index(self, n: int) -> SSAValue:
        return self.value(arith.ConstantOp.from_int_and_width(n, INDEX))

    def constant(self, n: int | float, t: Attribute) -> SSAValue:
        if isinstance(t, AnyFloat):
            return self.value(arith.ConstantOp(FloatAttr(float(n), t)))
        if not (is_integer_type(t) or isinstance(t, IndexType)):
            # e.g. complex: codegen has no constants (nor arithmetic) of it;
            # the pattern emitting this becomes a located refusal.
            raise ValueError(f"element type {t} is not supported (no constants of it)")
        return self.value(arith.ConstantOp(IntegerAttr(int(n), t)))

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(arith.AddiOp(a, b))

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(arith.SubiOp(a, b))

    def cmp(self, a: SSAValue, predicate: str, b: SSAValue) -> SSAValue:
        """`arith.cmpi predicate, a, b`."""
        return self.value(arith.CmpiOp(a, b, predicate))

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(arith.MuliOp(a, b))

    def total(self, values: Sequence[SSAValue]) -> SSAValue:
        """The sum of one or more index values."""
        result = values[0]
        for v in values[1:]:
            result = self.add(result, v)
        return result

    def to_index(self, v: SSAValue) -> SSAValue:
        """An unsigned positions/coordinates value as an index."""
        if isinstance(v.type, IndexType):
            return v
        return self.value(IndexCastUIOp(v, INDEX))

    def from_index(self, v: SSAValue, t: Attribute) -> SSAValue:
        if isinstance(t, IndexType):
            return v
        return self.value(IndexCastUIOp(v, t))

    def affine(self, expr: AffineExpr, dims: Sequence[SSAValue]) -> SSAValue:
        """`expr` of non-negative index values `dims`."""
        if isinstance(expr, AffineDimExpr):
            return dims[expr.position]
        if isinstance(expr, AffineConstantExpr):
            return self.index(expr.value)
        assert isinstance(expr, AffineBinaryOpExpr)
        lhs, rhs = self.affine(expr.lhs, dims), self.affine(expr.rhs, dims)
        kinds: dict[AffineBinaryOpKind, type[arith.SignlessIntegerBinaryOperation]] = {
            AffineBinaryOpKind.Add: arith.AddiOp,
            AffineBinaryOpKind.Mul: arith.MuliOp,
            AffineBinaryOpKind.FloorDiv: arith.DivUIOp,
            AffineBinaryOpKind.Mod: arith.RemUIOp,
            AffineBinaryOpKind.CeilDiv: arith.CeilDivUIOp,
        }
        return self.value(kinds[expr.kind](lhs, rhs))

    # -- buffers ------------------------------------------------------------

    def load(self, buffer: SSAValue, indices: Sequence[SSAValue]) -> SSAValue:
        return self.value(memref.LoadOp.get(buffer, indices))

    def store(self, v: SSAValue, buffer: SSAValue, indices: Sequence[SSAValue]) -> None:
        self.op(memref.StoreOp.get(v, buffer, indices))

    def dim(self, buffer: SSAValue, d: int = 0) -> SSAValue:
        return self.value(memref.DimOp(buffer, self.index(d)))

    def sizes(self, buffer: SSAValue) -> list[SSAValue]:
        """Every dimension size of a memref (constants where static)."""
        t = buffer.type
        assert is_memref_type(t)
        return [
            self.index(s) if s != DYNAMIC_INDEX else self.dim(buffer, d)
            for d, s in enumerate(t.get_shape())
        ]

    def alloc(self, t: MemRefType[Attribute], sizes: Sequence[SSAValue]) -> SSAValue:
        """A buffer of type `t`; `sizes` gives every dimension (static ones
        ignored), or nothing when `t` is static."""
        dynamic = [
            s for s, n in zip(sizes, t.get_shape(), strict=False) if n == DYNAMIC_INDEX
        ]
        return self.value(memref.AllocOp(dynamic, [], t))

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

    def for_each(
        self,
        lb: SSAValue,
        ub: SSAValue,
        body: Callable[[Emitter, SSAValue], None],
    ) -> None:
        """`scf.for` without loop-carried values."""

        def wrapped(e: Emitter, iv: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            body(e, iv)
            return []

        self.loop(lb, ub, [], wrapped)

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

    def print_text(self, text: str) -> None:
        """Print a constant string (a global of its bytes, one `putchar` each)."""
        data = list(text.encode())
        chars = self.global_constant("str", MemRefType(i8, [len(data)]), data)

        def put(e: Emitter, i: SSAValue) -> None:
            char = e.value(arith.ExtUIOp(e.load(chars, [i]), i32))
            e.call("putchar", [char], [i32])

        self.for_each(self.index(0), self.index(len(data)), put)

    def print_scalar(self, v: SSAValue) -> None:
        """Print one value as `vector.print` does (index unsigned, integers
        sign-extended to 64 bits, f32 and f64 with %g)."""
        t = v.type
        if isinstance(t, IndexType):
            self.call("printU64", [self.value(arith.IndexCastOp(v, i64))])
        elif isinstance(t, IntegerType):
            if t.width.data < 64:
                ext = arith.ExtUIOp if t.width.data == 1 else arith.ExtSIOp
                v = self.value(ext(v, i64))
            self.call("printI64", [v])
        elif isinstance(t, Float32Type):
            self.call("printF32", [v])
        elif isinstance(t, AnyFloat):
            if t.bitwidth != 64:
                v = self.value(arith.ExtFOp(v, Float64Type()))
            self.call("printF64", [v])
        else:
            raise ValueError(f"cannot print a value of type {t}")

    def print_punctuation(self, name: str) -> None:
        """`printOpen`, `printClose`, `printComma` or `printNewline`."""
        self.call(name, [])

    def print_values(self, values: Sequence[SSAValue]) -> None:
        """`( a, b, c )` of values known here."""
        self.print_punctuation("printOpen")
        for i, v in enumerate(values):
            if i:
                self.print_punctuation("printComma")
            self.print_scalar(v)
        self.print_punctuation("printClose")

    def print_buffer(
        self,
        buffer: SSAValue,
        size: SSAValue | None = None,
        elements: Callable[[Emitter, SSAValue], Sequence[SSAValue]] | None = None,
    ) -> None:
        """`( a, b, c )` of the first `size` elements of a 1-D buffer, or of
        `elements(i)` for each i (several values per i, all comma-separated)."""
        n = size if size is not None else self.dim(buffer)
        self.print_punctuation("printOpen")

        def one(e: Emitter, i: SSAValue) -> None:
            items = elements(e, i) if elements is not None else [e.load(buffer, [i])]
            for k, item in enumerate(items):
                if k == 0:
                    e.when(
                        e.value(arith.CmpiOp(i, e.index(0), "ne")),
                        lambda b: b.print_punctuation("printComma"),
                    )
                else:
                    e.print_punctuation("printComma")
                e.print_scalar(item)

        self.for_each(self.index(0), n, one)
        self.print_punctuation("printClose")


def level_sizes(e: Emitter, tensor: SSAValue, stt: SparseTensorType) -> list[SSAValue]:
    """The level sizes of a sparse tensor value."""
    return [e.value(LvlOp(tensor, e.index(level))) for level in range(stt.lvl_rank)]


def level_extent(e: Emitter, expr: AffineExpr, dims: Sequence[SSAValue]) -> SSAValue:
    """The size of a level whose coordinate is `expr` of the dimensions."""
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineBinaryOpExpr) and isinstance(
        expr.rhs, AffineConstantExpr
    ):
        block = e.index(expr.rhs.value)
        if expr.kind == AffineBinaryOpKind.Mod:
            return block
        if expr.kind in (AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.CeilDiv):
            inner = level_extent(e, expr.lhs, dims)
            return e.value(arith.CeilDivUIOp(inner, block))
    raise ValueError(f"cannot size a level of expression {expr}")


def dim_sizes(
    e: Emitter, tensor: SSAValue, stt: SparseTensorType, lvl: Sequence[SSAValue]
) -> list[SSAValue]:
    """The dimension sizes: static ones from the type, the others from the
    level sizes through the encoding's lvl-to-dim map."""
    enc = sparse_encoding(tensor.type)
    assert enc is not None
    if all(s != DYNAMIC_INDEX for s in stt.dim_shape):
        return [e.index(s) for s in stt.dim_shape]
    one = e.index(1)
    last = [e.value(arith.SubiOp(s, one)) for s in lvl]
    return [
        e.index(s)
        if s != DYNAMIC_INDEX
        else e.add(e.affine(enc.lvl_to_dim.results[d], last), one)
        for d, s in enumerate(stt.dim_shape)
    ]


def for_each_stored(
    e: Emitter,
    tensor: SSAValue,
    stt: SparseTensorType,
    body: Callable[[Emitter, list[SSAValue], SSAValue], None],
) -> None:
    """A loop nest over the stored entries of a sparse tensor in storage order;
    `body(emitter, level_coordinates, value_position)`."""

    def wrapped(
        b: Emitter, coords: list[SSAValue], p: SSAValue, _: list[SSAValue]
    ) -> list[SSAValue]:
        body(b, coords, p)
        return []

    walk_stored(e, tensor, stt, [], wrapped)


StoredBody = Callable[
    [Emitter, list[SSAValue], SSAValue, list[SSAValue]], Sequence[SSAValue]
]


def walk_stored(
    e: Emitter,
    tensor: SSAValue,
    stt: SparseTensorType,
    inits: Sequence[SSAValue],
    body: StoredBody,
) -> list[SSAValue]:
    """`for_each_stored` carrying `inits` through the loop nest:
    `body(emitter, level_coordinates, value_position, carried)` returns the
    carried values for the next entry; the last ones are returned."""
    sizes = level_sizes(e, tensor, stt)

    def level(
        b: Emitter,
        lvl: int,
        parent: SSAValue,
        coords: list[SSAValue],
        carried: list[SSAValue],
    ) -> list[SSAValue]:
        if lvl == stt.lvl_rank:
            return list(body(b, coords, parent, carried))
        lt = stt.lvl_types[lvl]
        fmt = lt.format
        if fmt.is_dense:

            def dense(c: Emitter, i: SSAValue, args: list[SSAValue]) -> list[SSAValue]:
                at = c.add(c.mul(parent, sizes[lvl]), i)
                return level(c, lvl + 1, at, [*coords, i], args)

            return b.loop(b.index(0), sizes[lvl], carried, dense)
        crd = b.value(ToCoordinatesOp(tensor, lvl))

        def at(c: Emitter, p: SSAValue, args: list[SSAValue]) -> list[SSAValue]:
            crd_p = c.to_index(c.load(crd, [p]))
            return level(c, lvl + 1, p, [*coords, crd_p], args)

        if fmt.is_branchless:
            return at(b, parent, carried)
        pos = b.value(ToPositionsOp(tensor, lvl)) if fmt.has_positions else None

        def position(k: SSAValue) -> SSAValue:
            assert pos is not None
            return b.to_index(b.load(pos, [k]))

        lo, hi = fmt.segment(lt, LevelAccess(b, lambda: sizes[lvl], position), parent)
        return b.loop(lo, hi, carried, at)

    return level(e, 0, e.index(0), [], list(inits))


class LowerPrint(RewritePattern):
    """`sparse_tensor.print` -> the storage printed as MLIR 22's runtime prints it:
    header, nse, dim and lvl sizes, pos[l]/crd[l] per level (the AoS COO region
    as one interleaved crd buffer), values, footer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PrintOp, rewriter: PatternRewriter) -> None:
        tensor = op.tensor
        stt = SparseTensorType.of(tensor.type)
        if stt is None or not stt.has_encoding:
            return
        e = Emitter(rewriter, InsertPoint.before(op))
        newline = "printNewline"
        e.print_text("---- Sparse Tensor ----\n")
        values = e.value(ToValuesOp(tensor))
        nse = e.dim(values)
        e.print_text("nse = ")
        e.print_scalar(nse)
        e.print_punctuation(newline)
        lvl = level_sizes(e, tensor, stt)
        e.print_text("dim = ")
        e.print_values(dim_sizes(e, tensor, stt, lvl))
        e.print_punctuation(newline)
        e.print_text("lvl = ")
        e.print_values(lvl)
        e.print_punctuation(newline)
        aos = stt.aos_coo_start
        for level, lt in enumerate(stt.lvl_types):
            if lt.format.has_positions:
                e.print_text(f"pos[{level}] : ")
                e.print_buffer(e.value(ToPositionsOp(tensor, level)))
                e.print_punctuation(newline)
            if not lt.format.has_coordinates or level > aos:
                continue
            e.print_text(f"crd[{level}] : ")
            if level < aos:
                e.print_buffer(e.value(ToCoordinatesOp(tensor, level)))
            else:
                crds = [
                    e.value(ToCoordinatesOp(tensor, k))
                    for k in range(aos, stt.lvl_rank)
                ]
                e.print_buffer(
                    crds[0],
                    elements=lambda b, i, crds=crds: [b.load(c, [i]) for c in crds],
                )
            e.print_punctuation(newline)
        e.print_text("values : ")
        e.print_buffer(values)
        e.print_punctuation(newline)
        e.print_text("----\n")
        rewriter.erase(op)


class LowerNumberOfEntries(RewritePattern):
    """`sparse_tensor.number_of_entries` -> the size of the values buffer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: NumberOfEntriesOp, rewriter: PatternRewriter
    ) -> None:
        e = Emitter(rewriter, InsertPoint.before(op))
        nse = e.dim(e.value(ToValuesOp(op.tensor)))
        rewriter.replace(op, [], [nse])


class LowerCrdTranslate(RewritePattern):
    """`sparse_tensor.crd_translate` -> the encoding's dim-to-lvl or lvl-to-dim
    expressions of the coordinates (MLIR's `CrdTranslateRewriter`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CrdTranslateOp, rewriter: PatternRewriter) -> None:
        enc = op.encoder.data
        to_level = op.direction.data == CrdTransDirection.DIM_TO_LVL
        amap = enc.dim_to_lvl if to_level else enc.lvl_to_dim
        e = Emitter(rewriter, InsertPoint.before(op))
        coordinates = list(op.in_crds)
        rewriter.replace(op, [], [e.affine(x, coordinates) for x in amap.results])


class LowerSparseToDense(RewritePattern):
    """`sparse_tensor.convert` sparse -> dense: a zero-filled buffer, then a
    store of every stored entry at its dimension coordinates."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertOp, rewriter: PatternRewriter) -> None:
        source, dest = op.source, op.dest
        stt = SparseTensorType.of(source.type)
        if stt is None or not stt.has_encoding or sparse_encoding(dest.type):
            return
        dest_type = dest.type
        assert is_tensor_type(dest_type)
        enc = sparse_encoding(source.type)
        assert enc is not None
        e = Emitter(rewriter, InsertPoint.before(op))
        lvl = level_sizes(e, source, stt)
        sizes = dim_sizes(e, source, stt, lvl)
        buffer_type = MemRefType(dest_type.element_type, dest_type.get_shape())
        buffer = e.alloc(buffer_type, sizes)
        e.fill(buffer, e.constant(0, dest_type.element_type))
        values = e.value(ToValuesOp(source))

        def store(b: Emitter, coords: list[SSAValue], p: SSAValue) -> None:
            dims = [b.affine(x, coords) for x in enc.lvl_to_dim.results]
            b.store(b.load(values, [p]), buffer, dims)

        for_each_stored(e, source, stt, store)
        tensor = e.op(
            bufferization.ToTensorOp.create(operands=[buffer], result_types=[dest_type])
        )
        rewriter.replace(op, [], [tensor.results[0]])


@dataclass(frozen=True)
class PostSparsificationRewritePass(ModulePass):
    """MLIR's `post-sparsification-rewrite` for direct codegen."""

    name = "post-sparsification-rewrite"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            PatternRewriteWalker(
                LocatingApplier(
                    [
                        LowerPrint(),
                        LowerNumberOfEntries(),
                        LowerCrdTranslate(),
                        LowerSparseToDense(),
                    ]
                ),
                apply_recursively=False,
            ).rewrite_module(op)
        except ValueError as error:
            raise PassFailure(op, str(error)) from None
