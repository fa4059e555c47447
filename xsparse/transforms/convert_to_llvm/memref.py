"""memref -> llvm on MLIR's descriptors (mirrors MLIR's `finalize-memref-to-llvm`).

Heap memory comes from libc `malloc`/`realloc`/`free` (so that a returned
buffer can be freed by the caller). An allocation's byte size is checked for
overflow (`allocation_bytes`: 2^64 - 1 bytes, which no allocator gives, when
it does not fit), and its call marked for `allocation_failures`, which
checks its result for null. On Linux a fresh `malloc` block of
HUGE_PAGES_FROM bytes or more asks for transparent huge pages, as numpy does
for its arrays (the first write into a fresh large buffer otherwise faults
every 4 KiB page); a `realloc` does not: glibc moves large blocks with
`mremap`, and growing sparse outputs by doubling took more page faults and
more time with the advice (SpGEMM into CSR: 69k faults instead of 39k, about
+25% time). `memref.get_global` points into a constant
global with the allocated pointer set to 0xdeadbeef as in MLIR. An unranked
memref is `{i64 rank, ptr}`, the pointer to a ranked descriptor on the stack.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import cast

from xdsl.dialects import llvm, memref
from xdsl.dialects.builtin import (
    AnyFloat,
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnrankedMemRefType,
    UnrealizedConversionCastOp,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xsparse.dialects.type_guards import is_memref_type
from xsparse.dialects.upstream import llvm as upstream_llvm
from xsparse.dialects.upstream.llvm import PoisonOp
from xsparse.dialects.upstream.memref import PrefetchOp, ReallocOp
from xsparse.transforms.codegen_utils.emitter import PER_CHUNK, SCRATCH
from xsparse.transforms.convert_to_llvm.allocation_failures import ALLOCATION
from xsparse.transforms.convert_to_llvm.common import (
    DYNAMIC,
    PACKED,
    PTR,
    UNRANKED_DESCRIPTOR,
    Descriptor,
    ToLLVMPattern,
    call_intrinsic,
    const,
    convert_type,
    declare_function,
    define_function,
    descriptor_type,
    element_address,
    element_size,
    has_identity_layout,
    lowered,
    lowering,
    replace_with,
    static_strides_and_offset,
)
from xsparse.transforms.convert_to_llvm.packed import (
    load_packed,
    packed_address,
    packed_array_type,
    packed_bytes,
    packed_constant,
    store_packed,
)
from xsparse.transforms.errors import PassFailure, check_dimension
from xsparse.transforms.runtime_symbols import SCRATCH_GIVE, SCRATCH_TAKE, SIZE_OVERFLOW


def _mul(a: SSAValue, b: SSAValue, rewriter: PatternRewriter) -> SSAValue:
    op = llvm.MulOp(a, b)
    rewriter.insert(op)
    return op.res


def _add(a: SSAValue, b: SSAValue, rewriter: PatternRewriter) -> SSAValue:
    op = llvm.AddOp(a, b)
    rewriter.insert(op)
    return op.res


def identity_sizes_and_strides(
    t: MemRefType, dynamic_sizes: Sequence[SSAValue], rewriter: PatternRewriter
) -> tuple[list[SSAValue], list[SSAValue], SSAValue]:
    """Sizes, row-major strides and element count of a fresh allocation of type `t`."""
    dynamic = iter(dynamic_sizes)
    sizes = [
        lowered(next(dynamic), rewriter) if d == DYNAMIC else const(d, rewriter)
        for d in t.get_shape()
    ]
    strides: list[SSAValue] = [const(1, rewriter)] * len(sizes)
    running = strides[0] if sizes else const(1, rewriter)
    for i in reversed(range(len(sizes))):
        strides[i] = running
        running = _mul(running, sizes[i], rewriter) if i else running
    count = _mul(running, sizes[0], rewriter) if sizes else running
    return sizes, strides, count


def _byte_size(
    count: SSAValue, element: Attribute, rewriter: PatternRewriter
) -> SSAValue:
    if element == PACKED:
        return packed_bytes(count, rewriter)
    return _mul(count, const(element_size(element), rewriter), rewriter)


_WITH_OVERFLOW = llvm.LLVMStructType.from_type_list([i64, i1])


def _with_overflow(
    intrinsic: str, a: SSAValue, b: SSAValue, rewriter: PatternRewriter
) -> tuple[SSAValue, SSAValue]:
    """`llvm.<intrinsic>.with.overflow.i64(a, b)`: the result and whether it
    wrapped."""
    pair = call_intrinsic(
        f"llvm.{intrinsic}.with.overflow.i64", [a, b], _WITH_OVERFLOW, rewriter
    )
    assert pair is not None
    value = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [0]), pair, i64)
    wrapped = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [1]), pair, i1)
    rewriter.insert([value, wrapped])
    return value.res, wrapped.res


def allocation_bytes(
    sizes: Sequence[SSAValue],
    element: Attribute | int,
    padding: int,
    rewriter: PatternRewriter,
) -> SSAValue:
    """The bytes of a fresh block of `sizes` elements of type `element` (or
    of `element` bytes each) plus `padding`, the products and the sum
    checked for overflow (`llvm.umul` / `llvm.uadd.with.overflow`; static
    sizes folded into one factor); `SIZE_OVERFLOW` (2^64 - 1, which no
    allocator gives) when the size does not fit in 64 bits."""
    packed = element == PACKED
    if packed:
        factor = 1  # elements; `packed_bytes` makes them bytes
    elif isinstance(element, int):
        factor = element
    else:
        factor = element_size(element)
    dynamic: list[SSAValue] = []
    for size in sizes:
        static = _constant_index(size)
        if static is None:
            dynamic.append(size)
        else:
            factor *= static
    if factor >= 1 << 64:
        return const(SIZE_OVERFLOW, rewriter)
    wrapped: list[SSAValue] = []
    count = dynamic[0] if dynamic else const(factor, rewriter)
    scaled = dynamic and factor != 1
    for size in [*dynamic[1:], *([const(factor, rewriter)] if scaled else [])]:
        count, flag = _with_overflow("umul", count, size, rewriter)
        wrapped.append(flag)
    size = packed_bytes(count, rewriter) if packed else count
    if padding:
        size, flag = _with_overflow("uadd", size, const(padding, rewriter), rewriter)
        wrapped.append(flag)
    if not wrapped:
        return size
    overflow = wrapped[0]
    for flag in wrapped[1:]:
        either = llvm.OrOp(overflow, flag)
        rewriter.insert(either)
        overflow = either.res
    saturated = upstream_llvm.SelectOp(overflow, const(SIZE_OVERFLOW, rewriter), size)
    rewriter.insert(saturated)
    return saturated.res


def allocation_call(
    callee: str, args: Sequence[SSAValue], size_position: int, rewriter: PatternRewriter
) -> SSAValue:
    """`callee(args)`, a heap allocation whose byte size is `args[size_position]`,
    marked for `allocation_failures.guard_allocations` (its null result ends
    the call); the block (or null)."""
    call = llvm.CallOp(callee, *args, return_type=PTR)
    call.attributes[ALLOCATION] = IntegerAttr(size_position, i64)
    rewriter.insert(call)
    assert call.returned is not None
    return call.returned


def _align_up(pointer: SSAValue, alignment: int, rewriter: PatternRewriter) -> SSAValue:
    as_int = llvm.PtrToIntOp(pointer, i64)
    bumped = llvm.AddOp(as_int.output, const(alignment - 1, rewriter))
    mask = llvm.ConstantOp(IntegerAttr(-alignment, i64), i64)
    aligned = llvm.AndOp(bumped.res, mask.result)
    back = llvm.IntToPtrOp(aligned.res)
    rewriter.insert([as_int, bumped, mask, aligned, back])
    return back.output


HUGE_PAGES_FROM = 1 << 22
"""Heap blocks of this many bytes or more ask for transparent huge pages
(numpy's threshold for its own arrays)."""
MADV_HUGEPAGE = 14
PAGE_SIZE = 4096
ADVISE_HUGE_PAGES = "__xsparse_advise_huge_pages"


def _advise_huge_pages_body() -> Region:
    """`(ptr %block, i64 %size)`: when size >= HUGE_PAGES_FROM,
    `madvise(MADV_HUGEPAGE)` on the whole pages of the block."""
    entry, advise, done = Block(arg_types=[PTR, i64]), Block(), Block()
    pointer, size = entry.args
    threshold = llvm.ConstantOp(IntegerAttr(HUGE_PAGES_FROM, i64), i64)
    large = llvm.ICmpOp(size, threshold.result, IntegerAttr(9, 64))  # uge
    entry.add_ops([threshold, large, llvm.CondBrOp(large.res, advise, [], done, [])])
    address = llvm.PtrToIntOp(pointer, i64)
    bumped = llvm.ConstantOp(IntegerAttr(PAGE_SIZE - 1, i64), i64)
    mask = llvm.ConstantOp(IntegerAttr(-PAGE_SIZE, i64), i64)
    rounded = llvm.AddOp(address.output, bumped.result)
    start = llvm.AndOp(rounded.res, mask.result)
    end = llvm.AddOp(address.output, size)
    length = llvm.SubOp(end.res, start.res)
    advice = llvm.ConstantOp(IntegerAttr(MADV_HUGEPAGE, i32), i32)
    call = llvm.CallOp("madvise", start.res, length.res, advice.result, return_type=i32)
    advise.add_ops([address, bumped, mask, rounded, start, end, length, advice, call])
    advise.add_op(llvm.BrOp(done))
    done.add_op(llvm.ReturnOp())
    return Region([entry, advise, done])


def _advise_huge_pages(
    op: Operation, pointer: SSAValue, size: SSAValue, rewriter: PatternRewriter
) -> None:
    """On Linux, ask for transparent huge pages on a fresh heap block of `size`
    bytes when it is large (a call to a small internal function that O3
    inlines: a compare and a rarely taken branch)."""
    if not sys.platform.startswith("linux"):
        return
    declare_function(op, "madvise", llvm.LLVMFunctionType([i64, i64, i32], i32))
    define_function(
        op,
        ADVISE_HUGE_PAGES,
        llvm.LLVMFunctionType([PTR, i64]),
        _advise_huge_pages_body,
    )
    rewriter.insert(llvm.CallOp(ADVISE_HUGE_PAGES, pointer, size))


class AllocToLLVM(ToLLVMPattern):
    """`memref.alloc` -> `malloc` (over-allocated and aligned up when
    `alignment` is set); `calloc` for a workspace marked `PER_CHUNK`; the
    runtime's kept memory for one marked `SCRATCH`."""

    @lowering
    def match_and_rewrite(self, op: memref.AllocOp, rewriter: PatternRewriter) -> None:
        t = op.memref.type
        assert is_memref_type(t)
        zeroed = PER_CHUNK in op.attributes
        scratch = SCRATCH in op.attributes
        if zeroed:
            declare_function(op, "calloc", llvm.LLVMFunctionType([i64, i64], PTR))
        elif scratch:
            declare_function(op, SCRATCH_TAKE, llvm.LLVMFunctionType([i64], PTR))
        else:
            declare_function(op, "malloc", llvm.LLVMFunctionType([i64], PTR))
        sizes, strides, _ = identity_sizes_and_strides(t, op.dynamic_sizes, rewriter)
        alignment = op.alignment.value.data if op.alignment is not None else 0
        size = allocation_bytes(sizes, t.element_type, alignment, rewriter)
        callee, args = (
            ("calloc", [size, const(1, rewriter)])
            if zeroed
            else (SCRATCH_TAKE if scratch else "malloc", [size])
        )
        allocated = allocation_call(callee, args, 0, rewriter)
        _advise_huge_pages(op, allocated, size, rewriter)
        aligned = _align_up(allocated, alignment, rewriter) if alignment else allocated
        desc = Descriptor.build(
            rewriter, len(sizes), allocated, aligned, const(0, rewriter), sizes, strides
        )
        replace_with(op, [], [desc], rewriter, partial=self.partial)


class AllocaToLLVM(ToLLVMPattern):
    """`memref.alloca` -> `llvm.alloca` of the element type."""

    @lowering
    def match_and_rewrite(self, op: memref.AllocaOp, rewriter: PatternRewriter) -> None:
        t = op.memref.type
        assert is_memref_type(t)
        sizes, strides, count = identity_sizes_and_strides(
            t, op.dynamic_sizes, rewriter
        )
        alignment = op.alignment.value.data if op.alignment is not None else 0
        element = convert_type(t.element_type)
        if element == PACKED:
            count, element = packed_bytes(count, rewriter), i8
        alloca = llvm.AllocaOp(count, element, alignment=alignment or 8)
        rewriter.insert(alloca)
        desc = Descriptor.build(
            rewriter,
            len(sizes),
            alloca.res,
            alloca.res,
            const(0, rewriter),
            sizes,
            strides,
        )
        replace_with(op, [], [desc], rewriter, partial=self.partial)


class DeallocToLLVM(ToLLVMPattern):
    """`memref.dealloc` -> `free` of the allocated pointer (of an unranked
    memref: the first field of the descriptor it points to); a `SCRATCH`
    buffer goes back to the runtime."""

    @lowering
    def match_and_rewrite(
        self, op: memref.DeallocOp, rewriter: PatternRewriter
    ) -> None:
        release = SCRATCH_GIVE if SCRATCH in op.attributes else "free"
        declare_function(op, release, llvm.LLVMFunctionType([PTR]))
        descriptor = lowered(op.memref, rewriter)
        if isinstance(op.memref.type, UnrankedMemRefType):
            _, pointer = _unranked_fields(descriptor, rewriter)
            load = llvm.LoadOp(pointer, PTR)
            rewriter.insert(load)
            allocated = load.dereferenced_value
        else:
            allocated = Descriptor(descriptor, rewriter).allocated()
        rewriter.replace(op, llvm.CallOp(release, allocated))


class LoadToLLVM(ToLLVMPattern):
    """`memref.load` -> address computation + `llvm.load` (of the byte and
    its bits, for a packed `i2` element: `packed.load_packed`)."""

    @lowering
    def match_and_rewrite(self, op: memref.LoadOp, rewriter: PatternRewriter) -> None:
        t = op.memref.type
        assert is_memref_type(t)
        indices = [lowered(i, rewriter) for i in op.indices]
        if t.element_type == PACKED:
            value = load_packed(t, lowered(op.memref, rewriter), indices, rewriter)
            replace_with(op, [], [value], rewriter, partial=self.partial)
            return
        address = element_address(t, lowered(op.memref, rewriter), indices, rewriter)
        load = llvm.LoadOp(address, convert_type(op.res.type))
        replace_with(
            op, [load], [load.dereferenced_value], rewriter, partial=self.partial
        )


class StoreToLLVM(ToLLVMPattern):
    """`memref.store` -> address computation + `llvm.store` (a read-modify-
    write of the byte for a packed `i2` element: `packed.store_packed`;
    `threads` refuses such stores in a loop run on threads)."""

    @lowering
    def match_and_rewrite(self, op: memref.StoreOp, rewriter: PatternRewriter) -> None:
        t = op.memref.type
        assert is_memref_type(t)
        indices = [lowered(i, rewriter) for i in op.indices]
        if t.element_type == PACKED:
            _store_packed(op, t, indices, rewriter)
            return
        address = element_address(t, lowered(op.memref, rewriter), indices, rewriter)
        rewriter.replace(op, llvm.StoreOp(lowered(op.value, rewriter), address))


class PrefetchToLLVM(ToLLVMPattern):
    """`memref.prefetch` -> address computation + `llvm.prefetch.p0(ptr, rw,
    locality, cache)` (MLIR's `llvm.intr.prefetch`). The address is not
    `inbounds`, as in MLIR's lowering: a prefetch never faults, and may point
    past the buffer (the BSR SpMM's last slab of a matrix whose rows are not
    a multiple of the block)."""

    @lowering
    def match_and_rewrite(self, op: PrefetchOp, rewriter: PatternRewriter) -> None:
        t = op.memref.type
        assert is_memref_type(t)
        indices = [lowered(i, rewriter) for i in op.indices]
        address = element_address(
            t, lowered(op.memref, rewriter), indices, rewriter, inbounds=False
        )
        write, data = (bool(f.value.data) for f in (op.isWrite, op.isDataCache))
        flags = (int(write), op.localityHint.value.data, int(data))
        args = [const(f, rewriter, i32) for f in flags]
        rewriter.replace(
            op, llvm.CallIntrinsicOp("llvm.prefetch.p0", [address, *args], [])
        )


def _store_packed(
    op: memref.StoreOp,
    t: MemRefType[Attribute],
    indices: Sequence[SSAValue],
    rewriter: PatternRewriter,
) -> None:
    memref_value = lowered(op.memref, rewriter)
    store_packed(t, memref_value, indices, lowered(op.value, rewriter), rewriter)
    rewriter.erase(op)


def _constant_index(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, UnrealizedConversionCastOp):
        owner = owner.inputs[0].owner
    if isinstance(owner, Operation) and owner.name in (
        "arith.constant",
        "llvm.mlir.constant",
    ):
        attr = owner.properties.get("value")
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


class DimToLLVM(ToLLVMPattern):
    """`memref.dim` with a constant index -> a constant or the descriptor's size."""

    @lowering
    def match_and_rewrite(self, op: memref.DimOp, rewriter: PatternRewriter) -> None:
        t = op.source.type
        if not is_memref_type(t):
            raise PassFailure(op, "of an unranked memref is not supported")
        dim = _constant_index(op.index)
        if dim is None:
            raise PassFailure(op, "needs a constant dimension index")
        check_dimension(op, dim, t.get_num_dims())
        static = t.get_shape()[dim]
        if static != DYNAMIC:
            value = const(static, rewriter)
        else:
            value = Descriptor(lowered(op.source, rewriter), rewriter).size(dim)
        replace_with(op, [], [value], rewriter, partial=self.partial)


def _mixed(
    static: Sequence[int], dynamic: Sequence[SSAValue], rewriter: PatternRewriter
) -> list[SSAValue]:
    values = iter(dynamic)
    return [
        lowered(next(values), rewriter) if s == DYNAMIC else const(s, rewriter)
        for s in static
    ]


def _field_or_constant(
    static: int, read: SSAValue | None, rewriter: PatternRewriter
) -> SSAValue:
    if static != DYNAMIC:
        return const(static, rewriter)
    assert read is not None
    return read


class SubviewToLLVM(ToLLVMPattern):
    """`memref.subview` -> a descriptor with offset, sizes and strides recomputed."""

    @lowering
    def match_and_rewrite(
        self, op: memref.SubviewOp, rewriter: PatternRewriter
    ) -> None:
        source_type = op.source.type
        result_type = op.result.type
        assert is_memref_type(source_type) and is_memref_type(result_type)
        source = Descriptor(lowered(op.source, rewriter), rewriter)
        src_strides, src_offset = static_strides_and_offset(source_type)
        strides_in = [
            _field_or_constant(s, source.stride(i) if s == DYNAMIC else None, rewriter)
            for i, s in enumerate(src_strides)
        ]
        offsets = _mixed(op.static_offsets.get_values(), op.offsets, rewriter)
        sizes = _mixed(op.static_sizes.get_values(), op.sizes, rewriter)
        steps = _mixed(op.static_strides.get_values(), op.strides, rewriter)
        offset = _field_or_constant(
            src_offset, source.offset() if src_offset == DYNAMIC else None, rewriter
        )
        for o, s in zip(offsets, strides_in, strict=True):
            offset = _add(offset, _mul(o, s, rewriter), rewriter)
        new_strides = [
            _mul(a, b, rewriter) for a, b in zip(strides_in, steps, strict=True)
        ]
        kept = kept_dimensions(op.static_sizes.get_values(), result_type.get_num_dims())
        desc = Descriptor.build(
            rewriter,
            len(kept),
            source.allocated(),
            source.aligned(),
            offset,
            [sizes[i] for i in kept],
            [new_strides[i] for i in kept],
        )
        replace_with(op, [], [desc], rewriter, partial=self.partial)


def kept_dimensions(static_sizes: Sequence[int], result_rank: int) -> list[int]:
    """Dimensions a rank-reducing subview keeps (drops leading static unit sizes)."""
    drop = len(static_sizes) - result_rank
    kept: list[int] = []
    for i, s in enumerate(static_sizes):
        if drop and s == 1:
            drop -= 1
            continue
        kept.append(i)
    return kept


def _unranked_fields(
    value: SSAValue, rewriter: PatternRewriter
) -> tuple[SSAValue, SSAValue]:
    """The rank and the ranked-descriptor pointer of a converted unranked memref."""
    rank = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [0]), value, i64)
    pointer = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [1]), value, PTR)
    rewriter.insert([rank, pointer])
    return rank.res, pointer.res


def to_unranked(descriptor: SSAValue, rank: int, rewriter: PatternRewriter) -> SSAValue:
    """A ranked descriptor stored in a stack slot, as `{rank, slot}` (MLIR's lowering)."""
    slot = llvm.AllocaOp(const(1, rewriter), descriptor_type(rank), alignment=8)
    rewriter.insert(slot)
    rewriter.insert(llvm.StoreOp(descriptor, slot.res))
    poison = PoisonOp(UNRANKED_DESCRIPTOR)
    rewriter.insert(poison)
    with_rank = llvm.InsertValueOp(
        DenseArrayBase.from_list(i64, [0]), poison.res, const(rank, rewriter)
    )
    with_pointer = llvm.InsertValueOp(
        DenseArrayBase.from_list(i64, [1]), with_rank.res, slot.res
    )
    rewriter.insert([with_rank, with_pointer])
    return with_pointer.res


class CastToLLVM(ToLLVMPattern):
    """`memref.cast`: between ranked memrefs the same descriptor; to an unranked
    memref the descriptor stored on the stack with its rank; from an unranked
    memref the ranked descriptor loaded back."""

    @lowering
    def match_and_rewrite(self, op: memref.CastOp, rewriter: PatternRewriter) -> None:
        source_type, dest_type = op.source.type, op.dest.type
        source = lowered(op.source, rewriter)
        if is_memref_type(source_type) and isinstance(dest_type, UnrankedMemRefType):
            value = to_unranked(source, source_type.get_num_dims(), rewriter)
        elif isinstance(source_type, UnrankedMemRefType) and is_memref_type(dest_type):
            _, pointer = _unranked_fields(source, rewriter)
            load = llvm.LoadOp(pointer, descriptor_type(dest_type.get_num_dims()))
            rewriter.insert(load)
            value = load.dereferenced_value
        else:
            value = source
        replace_with(op, [], [value], rewriter, partial=self.partial)


class ReinterpretCastToLLVM(ToLLVMPattern):
    """`memref.reinterpret_cast` -> the source's pointers with the given geometry."""

    @lowering
    def match_and_rewrite(
        self, op: memref.ReinterpretCastOp, rewriter: PatternRewriter
    ) -> None:
        source = Descriptor(lowered(op.source, rewriter), rewriter)
        offsets = _mixed(op.static_offsets.get_values(), op.offsets, rewriter)
        sizes = _mixed(op.static_sizes.get_values(), op.sizes, rewriter)
        strides = _mixed(op.static_strides.get_values(), op.strides, rewriter)
        desc = Descriptor.build(
            rewriter,
            len(sizes),
            source.allocated(),
            source.aligned(),
            offsets[0],
            sizes,
            strides,
        )
        replace_with(op, [], [desc], rewriter, partial=self.partial)


class ReshapeToLLVM(ToLLVMPattern):
    """`memref.collapse_shape`/`expand_shape` of a row-major memref -> the
    source's pointers and offset with the result's sizes and row-major strides
    (what MLIR's `expand-strided-metadata` makes of them)."""

    @lowering
    def match_and_rewrite(
        self,
        op: memref.CollapseShapeOp | memref.ExpandShapeOp,
        rewriter: PatternRewriter,
    ) -> None:
        source_type, result_type = op.src.type, op.result.type
        assert is_memref_type(source_type) and is_memref_type(result_type)
        if not has_identity_layout(source_type):
            raise PassFailure(op, "of a strided memref is not supported")
        source = Descriptor(lowered(op.src, rewriter), rewriter)
        if isinstance(op, memref.ExpandShapeOp):
            sizes = _mixed(
                op.static_output_shape.get_values(), op.output_shape, rewriter
            )
        else:
            sizes = _collapsed_sizes(op, source, rewriter)
        strides: list[SSAValue] = [const(1, rewriter)] if sizes else []
        for size in reversed(sizes[1:]):
            strides.insert(0, _mul(strides[0], size, rewriter))
        offset = source.offset()
        desc = Descriptor.build(
            rewriter,
            len(sizes),
            source.allocated(),
            source.aligned(),
            offset,
            sizes,
            strides,
        )
        replace_with(op, [], [desc], rewriter, partial=self.partial)


def _collapsed_sizes(
    op: memref.CollapseShapeOp, source: Descriptor, rewriter: PatternRewriter
) -> list[SSAValue]:
    """Each result dimension's size: static, or the product of its group's."""
    result_type = op.result.type
    source_type = op.src.type
    assert is_memref_type(result_type) and is_memref_type(source_type)
    source_shape = source_type.get_shape()

    def size(d: int) -> SSAValue:
        n = source_shape[d]
        return source.size(d) if n == DYNAMIC else const(n, rewriter)

    groups = [[int(x.value.data) for x in g] for g in op.reassociation.data]
    sizes: list[SSAValue] = []
    for n, group in zip(result_type.get_shape(), groups, strict=True):
        if n != DYNAMIC:
            sizes.append(const(n, rewriter))
            continue
        product = size(group[0])
        for d in group[1:]:
            product = _mul(product, size(d), rewriter)
        sizes.append(product)
    return sizes


def _first_address(
    t: MemRefType[Attribute], descriptor: SSAValue, rewriter: PatternRewriter
) -> SSAValue:
    return element_address(t, descriptor, [], rewriter)


class CopyToLLVM(ToLLVMPattern):
    """`memref.copy` of identity-layout memrefs -> `llvm.memcpy` of the whole buffer."""

    @lowering
    def match_and_rewrite(self, op: memref.CopyOp, rewriter: PatternRewriter) -> None:
        source_type = op.source.type
        target_type = op.destination.type
        assert is_memref_type(source_type) and is_memref_type(target_type)
        if not (has_identity_layout(source_type) and has_identity_layout(target_type)):
            raise PassFailure(op, "of strided memrefs is not supported")
        source = Descriptor(lowered(op.source, rewriter), rewriter)
        target = Descriptor(lowered(op.destination, rewriter), rewriter)
        count = const(1, rewriter)
        for i in range(source_type.get_num_dims()):
            count = _mul(count, source.size(i), rewriter)
        size = _byte_size(count, source_type.element_type, rewriter)
        address = (
            packed_address if source_type.element_type == PACKED else _first_address
        )
        src = address(source_type, source.value, rewriter)
        dst = address(target_type, target.value, rewriter)
        false = llvm.ConstantOp(IntegerAttr(0, i1), i1)
        rewriter.insert(false)
        call_intrinsic(
            "llvm.memcpy.p0.p0.i64", [dst, src, size, false.result], None, rewriter
        )
        rewriter.erase(op)


class ReallocToLLVM(ToLLVMPattern):
    """`memref.realloc` of a 1-D memref -> libc `realloc` of the allocated pointer."""

    @lowering
    def match_and_rewrite(self, op: ReallocOp, rewriter: PatternRewriter) -> None:
        t = op.result.type
        assert is_memref_type(t)
        if op.alignment is not None:
            raise PassFailure(op, "with an alignment is not supported")
        declare_function(op, "realloc", llvm.LLVMFunctionType([PTR, i64], PTR))
        source = Descriptor(lowered(op.source, rewriter), rewriter)
        dynamic = [op.dynamic_result_size] if op.dynamic_result_size is not None else []
        sizes, strides, _ = identity_sizes_and_strides(t, dynamic, rewriter)
        size = allocation_bytes(sizes, t.element_type, 0, rewriter)
        # realloc(p, 0) may free p and return null: keep at least one byte.
        one = const(1, rewriter)
        is_empty = llvm.ICmpOp(size, one, IntegerAttr(6, 64))  # ult
        rewriter.insert(is_empty)
        nonzero = upstream_llvm.SelectOp(is_empty.res, one, size)
        rewriter.insert(nonzero)
        grown = allocation_call(
            "realloc", [source.allocated(), nonzero.res], 1, rewriter
        )
        desc = Descriptor.build(
            rewriter,
            1,
            grown,
            grown,
            const(0, rewriter),
            sizes,
            strides,
        )
        replace_with(op, [], [desc], rewriter, partial=self.partial)


def _global_array_type(t: MemRefType) -> Attribute:
    if t.element_type == PACKED:
        return packed_array_type(t.get_shape()[0])
    element = convert_type(t.element_type)
    result: Attribute = element
    for d in reversed(t.get_shape()):
        result = llvm.LLVMArrayType(d, result)
    return result


class GlobalToLLVM(ToLLVMPattern):
    """`memref.global` -> `llvm.mlir.global` of a (nested) array type (of
    bytes holding four elements each, for `i2`: `packed.packed_constant`)."""

    @lowering
    def match_and_rewrite(self, op: memref.GlobalOp, rewriter: PatternRewriter) -> None:
        t = op.type
        value = (
            op.initial_value
            if isinstance(op.initial_value, DenseIntOrFPElementsAttr)
            else None
        )
        if value is not None and isinstance(value.get_element_type(), IndexType):
            raise PassFailure(op, "of index elements is not supported")
        if t.element_type == PACKED:
            if t.get_num_dims() != 1:
                raise PassFailure(op, "of packed i2 elements must be 1-D")
            ints = cast("DenseIntOrFPElementsAttr[IntegerType] | None", value)
            value = None if ints is None else packed_constant(ints)
        private = op.sym_visibility.data == "private"
        initial: Attribute | None = value
        if (
            value is not None
            and t.get_num_dims() == 0
            and not isinstance(t.element_type, ComplexType)  # a struct: dense stays
        ):
            # A 0-d global holds one scalar: MLIR's initializer is its value.
            element = value.get_element_type()
            (scalar,) = value.get_values()
            initial = (
                FloatAttr(float(scalar), element)
                if isinstance(element, AnyFloat)
                else IntegerAttr(int(scalar), cast(IntegerType, element))
            )
        new = llvm.GlobalOp(
            _global_array_type(t),
            op.sym_name,
            "internal" if private else "external",
            constant=op.constant is not None,
            value=initial,
            alignment=op.alignment.value.data if op.alignment is not None else None,
        )
        rewriter.replace(op, new)


class GetGlobalToLLVM(ToLLVMPattern):
    """`memref.get_global` -> descriptor on the global's address (allocated = 0xdeadbeef)."""

    @lowering
    def match_and_rewrite(
        self, op: memref.GetGlobalOp, rewriter: PatternRewriter
    ) -> None:
        t = op.memref.type
        assert is_memref_type(t)
        address = llvm.AddressOfOp(op.name_.root_reference, PTR)
        dead = llvm.ConstantOp(IntegerAttr(0xDEADBEEF, i64), i64)
        allocated = llvm.IntToPtrOp(dead.result)
        rewriter.insert([address, dead, allocated])
        sizes, strides, _ = identity_sizes_and_strides(t, [], rewriter)
        desc = Descriptor.build(
            rewriter,
            len(sizes),
            allocated.output,
            address.result,
            const(0, rewriter),
            sizes,
            strides,
        )
        replace_with(op, [], [desc], rewriter, partial=self.partial)


class ExtractAlignedPointerToLLVM(ToLLVMPattern):
    """`memref.extract_aligned_pointer_as_index` -> `llvm.ptrtoint` of the aligned pointer."""

    @lowering
    def match_and_rewrite(
        self, op: memref.ExtractAlignedPointerAsIndexOp, rewriter: PatternRewriter
    ) -> None:
        aligned = Descriptor(lowered(op.source, rewriter), rewriter).aligned()
        cast = llvm.PtrToIntOp(aligned, i64)
        replace_with(op, [cast], [cast.output], rewriter, partial=self.partial)


MEMREF_PATTERNS: tuple[type[ToLLVMPattern], ...] = (
    AllocToLLVM,
    AllocaToLLVM,
    DeallocToLLVM,
    LoadToLLVM,
    StoreToLLVM,
    PrefetchToLLVM,
    DimToLLVM,
    SubviewToLLVM,
    CastToLLVM,
    ReinterpretCastToLLVM,
    ReshapeToLLVM,
    CopyToLLVM,
    ReallocToLLVM,
    GlobalToLLVM,
    GetGlobalToLLVM,
    ExtractAlignedPointerToLLVM,
)
