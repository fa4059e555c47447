"""Memrefs of `i2` (2:4 metadata, `crdWidth = 2`) stored packed, four
elements per byte.

Layout (the seed's metadata, `xsparse.two_four`): element `k` of a buffer (its
linear index, offset + sum(index * stride)) is bits `2 * (k & 3)` and
`2 * (k & 3) + 1` of byte `k >> 2`, the first element in the low bits. A
buffer of `n` elements takes `ceil(n / 4)` bytes. The descriptor keeps sizes,
strides and offset in elements, as for any element type, so everything above
this lowering (the sparsifier's loops, storage codegen, the compiled
checkers, the calling convention) sees an ordinary `memref<?xi2>`; only the
patterns of `memref.py` that touch memory ask this module.

MLIR narrows sub-byte types in `EmulateNarrowType.cpp` (`memref<?xi2>` ->
`memref<?xi8>` before the lowering, sizes in bytes); doing it in the lowering
instead keeps `memref.dim`, `realloc` growth and the descriptor handed to
Python in elements. The ops:

- load: the byte, shifted right by `2 * (k & 3)`, truncated to `i2`;
- store: read-modify-write of the byte (the element's two bits cleared, the
  new ones or'ed in); not atomic, so refused in the body of a loop outlined
  to run on threads (`threads.OUTLINED`), where neighbours in one byte could
  be written at once;
- alloc, alloca, realloc, copy: `ceil(n / 4)` bytes (`packed_bytes`);
- `memref.global`: the constant packed the same way;
- any other access to one element (vector loads and stores, gathers) asks
  for its address, which `common.element_address` refuses with a located
  error.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    TensorType,
    i8,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xsparse.dialects.upstream import llvm as upstream_llvm
from xsparse.transforms.convert_to_llvm.common import (
    PACKED,
    Descriptor,
    const,
    linear_index,
)

PER_BYTE = 4
"""Elements of type `PACKED` in one byte."""


def packed_bytes(count: SSAValue, rewriter: PatternRewriter) -> SSAValue:
    """`ceil(count / 4)`: the bytes of `count` packed elements, as
    `(count >> 2) + (count & 3 != 0)` (no intermediate wraps, whatever
    `count`)."""
    whole = llvm.LShrOp(count, const(2, rewriter))
    partial = llvm.AndOp(count, const(PER_BYTE - 1, rewriter))
    rewriter.insert([whole, partial])
    nonzero = llvm.ICmpOp(partial.res, const(0, rewriter), IntegerAttr(1, 64))  # ne
    rewriter.insert(nonzero)
    extra = upstream_llvm.ZExtOp(nonzero.res, i64)
    total = llvm.AddOp(whole.res, extra.res)
    rewriter.insert([extra, total])
    return total.res


def _byte_and_shift(
    t: MemRefType[Attribute],
    descriptor: SSAValue,
    indices: Sequence[SSAValue],
    rewriter: PatternRewriter,
) -> tuple[SSAValue, SSAValue]:
    """The address of the byte holding `memref[indices]` and the element's
    bit offset in it (an i8)."""
    base = Descriptor(descriptor, rewriter).aligned()
    linear = linear_index(t, descriptor, indices, rewriter)
    if linear is None:
        return base, const(0, rewriter, i8)
    byte = llvm.LShrOp(linear, const(2, rewriter))
    rewriter.insert(byte)
    address = upstream_llvm.GEPOp(
        base, [llvm.GEP_USE_SSA_VAL], i8, ssa_indices=[byte.res], inbounds=True
    )
    rewriter.insert(address)
    slot = llvm.AndOp(linear, const(PER_BYTE - 1, rewriter))
    narrow = upstream_llvm.TruncOp(slot.res, i8)
    rewriter.insert([slot, narrow])
    shift = llvm.ShlOp(narrow.res, const(1, rewriter, i8))
    rewriter.insert(shift)
    return address.result, shift.res


def packed_address(
    t: MemRefType[Attribute], descriptor: SSAValue, rewriter: PatternRewriter
) -> SSAValue:
    """The address of the byte holding element 0 (a copy's source or target:
    identity layouts start on a byte)."""
    return _byte_and_shift(t, descriptor, [], rewriter)[0]


def load_packed(
    t: MemRefType[Attribute],
    descriptor: SSAValue,
    indices: Sequence[SSAValue],
    rewriter: PatternRewriter,
) -> SSAValue:
    """`memref[indices]` of a packed memref, an `i2`."""
    address, shift = _byte_and_shift(t, descriptor, indices, rewriter)
    byte = llvm.LoadOp(address, i8)
    shifted = llvm.LShrOp(byte.dereferenced_value, shift)
    element = upstream_llvm.TruncOp(shifted.res, PACKED)
    rewriter.insert([byte, shifted, element])
    return element.res


def store_packed(
    t: MemRefType[Attribute],
    descriptor: SSAValue,
    indices: Sequence[SSAValue],
    value: SSAValue,
    rewriter: PatternRewriter,
) -> None:
    """`memref[indices] = value` of a packed memref: the byte read, the
    element's two bits replaced, the byte written back."""
    address, shift = _byte_and_shift(t, descriptor, indices, rewriter)
    byte = llvm.LoadOp(address, i8)
    rewriter.insert(byte)
    mask = llvm.ShlOp(const(PER_BYTE - 1, rewriter, i8), shift)
    keep = llvm.XOrOp(mask.res, const(-1, rewriter, i8))
    cleared = llvm.AndOp(byte.dereferenced_value, keep.res)
    wide = upstream_llvm.ZExtOp(value, i8)
    bits = llvm.ShlOp(wide.res, shift)
    merged = llvm.OrOp(cleared.res, bits.res)
    rewriter.insert([mask, keep, cleared, wide, bits, merged])
    rewriter.insert(llvm.StoreOp(merged.res, address))


def packed_constant(
    value: DenseIntOrFPElementsAttr[IntegerType],
) -> DenseIntOrFPElementsAttr[IntegerType]:
    """The bytes of a constant of `PACKED` elements (first element in the
    low bits; the last byte's unused bits zero)."""
    elements = [v & (PER_BYTE - 1) for v in value.get_values()]
    padded = elements + [0] * (-len(elements) % PER_BYTE)
    packed = [
        sum(e << (2 * k) for k, e in enumerate(padded[i : i + PER_BYTE]))
        for i in range(0, len(padded), PER_BYTE)
    ]
    signed = [b - 256 if b > 127 else b for b in packed]
    return DenseIntOrFPElementsAttr.from_list(TensorType(i8, [len(signed)]), signed)


def packed_array_type(count: int) -> llvm.LLVMArrayType:
    """The global array holding `count` packed elements."""
    return llvm.LLVMArrayType(-(-count // PER_BYTE), i8)
