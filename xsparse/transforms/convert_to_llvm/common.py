"""Shared machinery of the lowering to the llvm dialect.

Type conversion (index -> i64, memref -> MLIR's descriptor struct, unranked
memref -> `{i64 rank, ptr descriptor}`), value
materialization between converted and unconverted values (through
`builtin.unrealized_conversion_cast`, folded away at the end as in MLIR's
dialect conversion), memref descriptor accessors, and a type-dispatching
pattern applier so that each op is matched by one dictionary look-up.
"""

from __future__ import annotations

import typing
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    BFloat16Type,
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    Signedness,
    StridedLayoutAttr,
    StringAttr,
    TensorType,
    UnrankedMemRefType,
    UnrealizedConversionCastOp,
    VectorType,
    i8,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.reconcile_unrealized_casts import reconcile_unrealized_casts
from xdsl.utils.exceptions import DiagnosticException

from xsparse.dialects.jagged import JaggedBufferType
from xsparse.dialects.type_guards import is_integer_type, is_vector_type
from xsparse.dialects.upstream import llvm as upstream_llvm
from xsparse.dialects.upstream.llvm import PoisonOp
from xsparse.transforms.errors import PassFailure
from xsparse.xdsl_adapter import IterativeRewriteWalker, walk_iteratively

PTR = llvm.LLVMPointerType()
DYNAMIC = DYNAMIC_INDEX
"""xDSL's spelling of a dynamic (`?`) dimension, offset or stride."""

NO_INLINE = "no_inline"
"""Unit attribute of a `func.func` or `llvm.func` that LLVM must not inline
(MLIR's LLVM dialect spells it so; LLVM IR's `noinline`)."""

_descriptor_cache: dict[tuple[int, ...] | int, llvm.LLVMStructType] = {}


def descriptor_type(rank: int) -> llvm.LLVMStructType:
    """MLIR's ranked memref descriptor: (allocated, aligned, offset, sizes, strides)."""
    found = _descriptor_cache.get(rank)
    if found is None:
        fields: list[Attribute] = [PTR, PTR, i64]
        if rank:
            array = llvm.LLVMArrayType(rank, i64)
            fields += [array, array]
        found = llvm.LLVMStructType.from_type_list(fields)
        _descriptor_cache[rank] = found
    return found


UNRANKED_DESCRIPTOR = llvm.LLVMStructType.from_type_list([i64, PTR])
"""MLIR's unranked memref descriptor: the rank and a pointer to a ranked descriptor."""


def convert_type(t: Attribute) -> Attribute:
    """The llvm dialect type standing for `t` (identity for legal types)."""
    if isinstance(t, IndexType):
        return i64
    if isinstance(t, MemRefType | JaggedBufferType):
        # a jagged buffer: the descriptor of its outer array of inner descriptors
        return descriptor_type(t.get_num_dims())
    if isinstance(t, UnrankedMemRefType):
        return UNRANKED_DESCRIPTOR
    if isinstance(t, ComplexType):
        # MLIR's complex number: a struct of its real and imaginary parts
        return llvm.LLVMStructType.from_type_list([t.element_type, t.element_type])
    if _is_signed_or_unsigned(t):
        return IntegerType(t.width)  # MLIR's LLVM types are signless
    if is_vector_type(t) and (
        isinstance(t.element_type, IndexType) or _is_signed_or_unsigned(t.element_type)
    ):
        return VectorType(convert_type(t.element_type), t.get_shape(), t.scalable_dims)
    return t


def _is_signed_or_unsigned(t: Attribute) -> typing.TypeGuard[IntegerType]:
    return isinstance(t, IntegerType) and t.signedness.data != Signedness.SIGNLESS


def is_legal(t: Attribute) -> bool:
    if isinstance(t, VectorType):
        t = t.element_type
    return not isinstance(
        t, IndexType | MemRefType | UnrankedMemRefType | JaggedBufferType | ComplexType
    ) and not _is_signed_or_unsigned(t)


def lowered(value: SSAValue, rewriter: PatternRewriter | Rewriter) -> SSAValue:
    """The converted form of `value`, materialized by a cast when not yet converted."""
    t = value.type
    if is_legal(t):
        return value
    owner = value.owner
    if (
        isinstance(owner, UnrealizedConversionCastOp)
        and len(owner.inputs) == 1
        and is_legal(owner.inputs[0].type)
    ):
        return owner.inputs[0]
    cast = UnrealizedConversionCastOp.get([value], [convert_type(t)])
    if isinstance(rewriter, PatternRewriter):
        rewriter.insert(cast)
    else:
        raise AssertionError("materialization needs an insertion point")
    return cast.results[0]


def lowered_all(
    values: Iterable[SSAValue], rewriter: PatternRewriter
) -> list[SSAValue]:
    return [lowered(v, rewriter) for v in values]


def _index_like(t: Attribute) -> bool:
    return isinstance(t, IndexType) or (
        isinstance(t, VectorType) and isinstance(t.element_type, IndexType)
    )


def restore(
    new: SSAValue,
    original_type: Attribute,
    rewriter: PatternRewriter,
    *,
    partial: bool,
) -> SSAValue:
    """`new` seen with its source-level type (a cast when the types differ).

    In a full conversion (`partial` false) an index value needs no cast back:
    its users only need i64, which saves an op per index result."""
    if new.type == original_type or (_index_like(original_type) and not partial):
        return new
    cast = UnrealizedConversionCastOp.get([new], [original_type])
    rewriter.insert(cast)
    return cast.results[0]


def replace_with(
    op: Operation,
    new_ops: Sequence[Operation],
    new_results: Sequence[SSAValue],
    rewriter: PatternRewriter,
    *,
    partial: bool = False,
) -> None:
    """Insert `new_ops`, then replace `op`'s results by `new_results` (cast back).

    `partial` as for `restore`; left out by `JAGGED_PATTERNS`, which run only
    in the full conversion."""
    rewriter.insert(new_ops)
    restored = [
        restore(new, old.type, rewriter, partial=partial)
        for new, old in zip(new_results, op.results, strict=True)
    ]
    rewriter.replace(op, [], restored)


def convert_block_arguments(
    block: Block, rewriter: PatternRewriter, *, partial: bool
) -> None:
    """Give `block`'s arguments their converted types (casts keep old users
    valid; in a full conversion index arguments are retyped in place)."""
    for arg in tuple(block.args):
        old_type = arg.type
        if is_legal(old_type):
            continue
        if _index_like(old_type) and not partial:
            rewriter.replace_value_with_new_type(arg, convert_type(old_type))
            continue
        new_arg = block.insert_arg(convert_type(old_type), arg.index)
        cast = UnrealizedConversionCastOp.get([new_arg], [old_type])
        rewriter.insert(cast, InsertPoint.at_start(block))
        arg.replace_all_uses_with(cast.results[0])
        block.erase_arg(arg)


def const(value: int, rewriter: PatternRewriter, t: Attribute = i64) -> SSAValue:
    # an integer type: i64 unless the caller says otherwise
    op = llvm.ConstantOp(IntegerAttr(value, typing.cast(IntegerType, t)), t)
    rewriter.insert(op)
    return op.result


def static_strides_and_offset(t: MemRefType) -> tuple[list[int], int]:
    """Strides and offset of `t`'s layout, DYNAMIC where not static."""
    shape = t.get_shape()
    layout = t.layout
    if isinstance(layout, StridedLayoutAttr):
        strides = [
            s.data if not isinstance(s, NoneAttr) else DYNAMIC for s in layout.strides
        ]
        offset = layout.offset
        return strides, offset.data if not isinstance(offset, NoneAttr) else DYNAMIC
    if not isinstance(
        layout, NoneAttr
    ) and layout.get_affine_map() != AffineMap.identity(len(shape)):
        raise DiagnosticException(f"unsupported memref layout in {t}")
    strides = [0] * len(shape)
    running = 1
    for i in reversed(range(len(shape))):
        strides[i] = running
        if running != DYNAMIC:
            running = DYNAMIC if shape[i] == DYNAMIC else running * shape[i]
    return strides, 0


def has_identity_layout(t: MemRefType) -> bool:
    strides, offset = static_strides_and_offset(t)
    shape = t.get_shape()
    expected = 1
    for i in reversed(range(len(shape))):
        if strides[i] != expected and not (expected == DYNAMIC == strides[i]):
            return False
        expected = (
            DYNAMIC
            if expected == DYNAMIC or shape[i] == DYNAMIC
            else expected * shape[i]
        )
    return offset == 0


class Descriptor:
    """Reads and builds MLIR memref descriptors (mirrors MLIR's MemRefDescriptor)."""

    def __init__(self, value: SSAValue, rewriter: PatternRewriter):
        self.value = value
        self.rewriter = rewriter

    def _extract(self, position: Sequence[int], t: Attribute) -> SSAValue:
        op = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, position), self.value, t)
        self.rewriter.insert(op)
        return op.res

    def allocated(self) -> SSAValue:
        return self._extract([0], PTR)

    def aligned(self) -> SSAValue:
        return self._extract([1], PTR)

    def offset(self) -> SSAValue:
        return self._extract([2], i64)

    def size(self, dim: int) -> SSAValue:
        return self._extract([3, dim], i64)

    def stride(self, dim: int) -> SSAValue:
        return self._extract([4, dim], i64)

    def set(self, position: Sequence[int], field: SSAValue) -> None:
        op = llvm.InsertValueOp(
            DenseArrayBase.from_list(i64, position), self.value, field
        )
        self.rewriter.insert(op)
        self.value = op.res

    @staticmethod
    def build(
        rewriter: PatternRewriter,
        rank: int,
        allocated: SSAValue,
        aligned: SSAValue,
        offset: SSAValue,
        sizes: Sequence[SSAValue],
        strides: Sequence[SSAValue],
    ) -> SSAValue:
        poison = PoisonOp(descriptor_type(rank))
        rewriter.insert(poison)
        d = Descriptor(poison.res, rewriter)
        d.set([0], allocated)
        d.set([1], aligned)
        d.set([2], offset)
        for i, s in enumerate(sizes):
            d.set([3, i], s)
        for i, s in enumerate(strides):
            d.set([4, i], s)
        return d.value


PACKED = IntegerType(2)
"""The element type stored packed, four per byte (`convert_to_llvm.packed`)."""


def linear_index(
    memref_type: MemRefType,
    descriptor: SSAValue,
    indices: Sequence[SSAValue],
    rewriter: PatternRewriter,
) -> SSAValue | None:
    """offset + sum(index * stride) of `memref[indices]` in elements (None: 0)."""
    d = Descriptor(descriptor, rewriter)
    strides, offset = static_strides_and_offset(memref_type)
    linear: SSAValue | None = None
    if offset == DYNAMIC:
        linear = d.offset()
    elif offset != 0:
        linear = const(offset, rewriter)
    for dim, index in enumerate(indices):
        stride = strides[dim]
        if stride == 1:
            term = index
        else:
            stride_value = (
                d.stride(dim) if stride == DYNAMIC else const(stride, rewriter)
            )
            mul = llvm.MulOp(index, stride_value)
            rewriter.insert(mul)
            term = mul.res
        if linear is None:
            linear = term
        else:
            add = llvm.AddOp(linear, term)
            rewriter.insert(add)
            linear = add.res
    return linear


def element_address(
    memref_type: MemRefType,
    descriptor: SSAValue,
    indices: Sequence[SSAValue],
    rewriter: PatternRewriter,
    inbounds: bool = True,
) -> SSAValue:
    """Address of `memref[indices]` (aligned + offset + sum(index * stride));
    refused for `PACKED` elements, which share their byte. `inbounds=False`
    for an address that may lie past the buffer (a prefetch's: LLVM makes an
    `inbounds` address outside its object poison)."""
    if memref_type.element_type == PACKED:
        raise DiagnosticException(
            f"of {memref_type}: i2 elements are packed four per byte "
            "(only memref.load / memref.store reach one)"
        )
    base = Descriptor(descriptor, rewriter).aligned()
    linear = linear_index(memref_type, descriptor, indices, rewriter)
    if linear is None:
        return base
    gep = upstream_llvm.GEPOp(
        base,
        [llvm.GEP_USE_SSA_VAL],
        convert_type(memref_type.element_type),
        ssa_indices=[linear],
        inbounds=inbounds,
    )
    rewriter.insert(gep)
    return gep.result


def element_size(t: Attribute) -> int:
    """Size in bytes of a memref element type."""
    if isinstance(t, IndexType):
        return 8
    if is_integer_type(t):
        return max(1, (t.width.data + 7) // 8)
    if isinstance(t, Float64Type):
        return 8
    if isinstance(t, Float32Type):
        return 4
    if isinstance(t, Float16Type | BFloat16Type):
        return 2
    if isinstance(t, ComplexType):
        return 2 * element_size(t.element_type)
    if is_vector_type(t):
        n = 1
        for d in t.get_shape():
            n *= d
        return n * element_size(t.element_type)
    raise DiagnosticException(f"unsupported element type {t}")


def is_float(t: Attribute) -> bool:
    if is_vector_type(t):
        t = t.element_type
    return isinstance(t, AnyFloat)


def mangle(t: Attribute) -> str:
    """LLVM's overloaded-intrinsic suffix of a type (f64, i32, v8f64, nxv4i64, p0)."""
    if isinstance(t, IntegerType):
        return f"i{t.width.data}"
    if isinstance(t, Float64Type):
        return "f64"
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, BFloat16Type):
        return "bf16"
    if isinstance(t, llvm.LLVMPointerType):
        return "p0"
    if is_vector_type(t):
        (n,) = t.get_shape()
        prefix = "nxv" if t.get_num_scalable_dims() else "v"
        return f"{prefix}{n}{mangle(t.element_type)}"
    raise DiagnosticException(f"no intrinsic mangling for {t}")


def call_intrinsic(
    name: str,
    args: Sequence[SSAValue],
    result_type: Attribute | None,
    rewriter: PatternRewriter,
) -> SSAValue | None:
    op = llvm.CallIntrinsicOp(name, args, [result_type] if result_type else [])
    rewriter.insert(op)
    return op.ress


OpT = typing.TypeVar("OpT", bound=Operation)
PatternT = typing.TypeVar("PatternT", bound=RewritePattern)


@dataclass(frozen=True, kw_only=True)
class ToLLVMPattern(RewritePattern):
    """A pattern of `convert-to-llvm`, built by its pass for a full or a
    partial conversion."""

    partial: bool
    """True in a one-dialect pass (`convert-arith-to-llvm`, ...), whose
    unconverted ops still take index values; false in `convert-to-llvm`."""


class _Lowering(typing.Protocol):
    """A `match_and_rewrite` decorated by `lowering`/`lowering_of`."""

    op_types: tuple[type[Operation], ...]
    undecorated: typing.Callable[..., None]


Lowering = typing.Callable[[PatternT, OpT, PatternRewriter], None]


def lowering(
    func: typing.Callable[[PatternT, OpT, PatternRewriter], None],
) -> typing.Callable[[PatternT, Operation, PatternRewriter], None]:
    """Decorates `match_and_rewrite(self, op: SomeOp | OtherOp, rewriter)`.

    Like xDSL's `op_type_rewrite_pattern`, but records the matched op types so
    that `TypeDispatch` calls the undecorated function after a dict look-up.
    """
    annotation = typing.get_type_hints(func)["op"]
    op_types: tuple[type[Operation], ...] = typing.get_args(annotation) or (annotation,)

    def impl(self: PatternT, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, op_types):
            func(self, typing.cast(OpT, op), rewriter)

    typing.cast(_Lowering, impl).op_types = op_types
    typing.cast(_Lowering, impl).undecorated = func
    impl.__doc__ = func.__doc__
    return impl


def lowering_of(
    *op_types: type[Operation],
) -> typing.Callable[
    [typing.Callable[[PatternT, Operation, PatternRewriter], None]],
    typing.Callable[[PatternT, Operation, PatternRewriter], None],
]:
    """Like `lowering`, for a table-driven pattern matching several op types."""

    def decorate(
        func: typing.Callable[[PatternT, Operation, PatternRewriter], None],
    ) -> typing.Callable[[PatternT, Operation, PatternRewriter], None]:
        def impl(self: PatternT, op: Operation, rewriter: PatternRewriter) -> None:
            if isinstance(op, op_types):
                func(self, op, rewriter)

        typing.cast(_Lowering, impl).op_types = op_types
        typing.cast(_Lowering, impl).undecorated = func
        impl.__doc__ = func.__doc__
        return impl

    return decorate


ValueT = typing.TypeVar("ValueT")


def by_class(table: dict[type[Operation], ValueT], op: Operation) -> ValueT | None:
    """`table`'s entry for the nearest class of `op`'s (its own, else a base
    class: `xsparse.dialects.upstream` subclasses xDSL's op classes)."""
    for cls in type(op).__mro__:
        entry = table.get(cls)
        if entry is not None:
            return entry
    return None


class TypeDispatch(RewritePattern):
    """Applies the one pattern registered for an op's class (one dict look-up
    per op class, then cached)."""

    def __init__(self, patterns: Iterable[RewritePattern]):
        self.table: dict[
            type[Operation],
            tuple[RewritePattern, typing.Callable[..., None]] | None,
        ] = {}
        for pattern in patterns:
            method = typing.cast(_Lowering, type(pattern).match_and_rewrite)
            for op_type in method.op_types:
                self.table[op_type] = (pattern, method.undecorated)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        op_type = type(op)
        if op_type in self.table:
            entry = self.table[op_type]
        else:
            entry = self.table[op_type] = by_class(self.table, op)
        if entry is None:
            return
        try:
            entry[1](entry[0], op, rewriter)
        except DiagnosticException as e:
            if getattr(e, "op", None) is not None:
                raise
            # a helper's refusal (a type, a layout) is the lowered op's
            raise PassFailure(op, str(e)) from None


def apply_once(module: ModuleOp, patterns: Iterable[RewritePattern]) -> None:
    """One forward walk applying the type-dispatched patterns, no re-application."""
    IterativeRewriteWalker(
        TypeDispatch(patterns), apply_recursively=False, walk_regions_first=False
    ).rewrite_module(module)


def reconcile_casts(module: ModuleOp, *, strict: bool) -> None:
    """xDSL's `reconcile-unrealized-casts` (MLIR's), then, when `strict`, a
    cast left with users is reported: some op was not converted."""
    reconcile_unrealized_casts(module, warn_on_failure=False)
    if not strict:
        return
    for cast in walk_iteratively(module):
        if isinstance(cast, UnrealizedConversionCastOp) and cast.outputs[0].uses:
            user = next(iter(cast.outputs[0].uses)).operation
            raise PassFailure(
                user,
                "failed to legalize (a value of type "
                f"{cast.inputs[0].type} used as {cast.outputs[0].type})",
            )


_declared: weakref.WeakKeyDictionary[ModuleOp, set[str]] = weakref.WeakKeyDictionary()


def enclosing_module(op: Operation) -> ModuleOp:
    current: Operation | None = op
    while current is not None and not isinstance(current, ModuleOp):
        current = current.parent_op()
    if current is None:
        raise DiagnosticException(f"'{op.name}' is not inside a module")
    return current


def _claim_symbol(op: Operation, name: str) -> ModuleOp | None:
    """`op`'s module if it has no symbol `name` yet (which is then taken)."""
    module = enclosing_module(op)
    names = _declared.get(module)
    if names is None:
        names = {
            sym.data
            for child in module.ops
            if (sym := child.properties.get("sym_name")) is not None
            and isinstance(sym, StringAttr)
        }
        _declared[module] = names
    if name in names:
        return None
    names.add(name)
    return module


def declare_function(
    op: Operation, name: str, function_type: llvm.LLVMFunctionType
) -> None:
    """Declare external function `name` in `op`'s module unless already there."""
    module = _claim_symbol(op, name)
    if module is not None:
        Rewriter.insert_op(
            llvm.FuncOp(name, function_type, linkage=llvm.LinkageAttr("external")),
            InsertPoint.at_end(module.body.block),
        )


def define_function(
    op: Operation,
    name: str,
    function_type: llvm.LLVMFunctionType,
    body: typing.Callable[[], Region],
) -> None:
    """Define internal function `name` (its body built by `body()`) in `op`'s
    module unless already there."""
    module = _claim_symbol(op, name)
    if module is not None:
        Rewriter.insert_op(
            llvm.FuncOp(name, function_type, body=body()),
            InsertPoint.at_end(module.body.block),
        )


def c_string_global(name: str, text: str) -> llvm.GlobalOp:
    """An internal constant global `name` holding `text` NUL-terminated, as
    an `i8` array (what a C function taking `const char *` reads)."""
    data = text.encode() + b"\0"
    return llvm.GlobalOp(
        llvm.LLVMArrayType(len(data), i8),
        name,
        "internal",
        constant=True,
        value=DenseIntOrFPElementsAttr.from_list(
            TensorType(i8, [len(data)]), list(data)
        ),
    )
