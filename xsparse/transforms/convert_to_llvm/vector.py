"""vector -> llvm for 1-D vectors, fixed or scalable (mirrors MLIR's
`convert-vector-to-llvm`): loads and stores become vector `load`/`store` or
the `llvm.masked.*` intrinsics, reductions `llvm.vector.reduce.*`, and
`vector.print` the calls of `mlir_c_runner_utils` (`printOpen`, `printF64`, ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import arith, llvm, vector
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BFloat16Type,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.utils.exceptions import DiagnosticException

from xsparse.dialects.type_guards import is_memref_type, is_vector_type
from xsparse.dialects.upstream import llvm as upstream_llvm
from xsparse.dialects.upstream.llvm import (
    ExtractElementOp,
    MaskedGatherOp,
    MaskedLoadOp,
    MaskedScatterOp,
    MaskedStoreOp,
    PoisonOp,
)
from xsparse.dialects.upstream.vector import (
    ConstantMaskOp,
    GatherOp,
    PrintOp,
    PrintPunctuation,
    ScatterOp,
    StepOp,
    VectorScaleOp,
)
from xsparse.transforms.convert_to_llvm.common import (
    DYNAMIC,
    PTR,
    Descriptor,
    ToLLVMPattern,
    c_string_global,
    call_intrinsic,
    const,
    convert_type,
    declare_function,
    element_address,
    element_size,
    enclosing_module,
    is_float,
    lowered,
    lowering,
    mangle,
    replace_with,
    static_strides_and_offset,
)


def _vector_type(t: Attribute) -> VectorType[Attribute]:
    if not is_vector_type(t) or t.get_num_dims() != 1:
        raise DiagnosticException(f"only 1-D vectors are supported, got {t}")
    return t


def _alignment(memref: SSAValue) -> IntegerAttr:
    """The `alignment` of a masked access to `memref`: its element's size."""
    t = memref.type
    assert is_memref_type(t)
    return IntegerAttr(element_size(t.element_type), i32)


def _masked_gather(
    op: vector.MaskedLoadOp | GatherOp,
    pointers: SSAValue,
    t: Attribute,
    rewriter: PatternRewriter,
) -> MaskedGatherOp:
    """`llvm.intr.masked.gather` of `op`'s lanes from `pointers`."""
    return MaskedGatherOp.build(
        operands=[
            pointers,
            lowered(op.mask, rewriter),
            [lowered(op.pass_thru, rewriter)],
        ],
        result_types=[t],
        properties={"alignment": _alignment(op.base)},
    )


def _masked_scatter(
    op: vector.MaskedStoreOp | ScatterOp,
    value: SSAValue,
    pointers: SSAValue,
    rewriter: PatternRewriter,
) -> MaskedScatterOp:
    """`llvm.intr.masked.scatter` of `op`'s lanes of `value` to `pointers`."""
    return MaskedScatterOp.build(
        operands=[value, pointers, lowered(op.mask, rewriter)],
        properties={"alignment": _alignment(op.base)},
    )


def _address(
    base: SSAValue, indices: Sequence[SSAValue], rewriter: PatternRewriter
) -> SSAValue:
    t = base.type
    assert is_memref_type(t)
    return element_address(
        t, lowered(base, rewriter), [lowered(i, rewriter) for i in indices], rewriter
    )


def _splat(value: SSAValue, t: VectorType, rewriter: PatternRewriter) -> SSAValue:
    """insertelement into lane 0 + shufflevector with an all-zero mask.

    (Scalable vectors: `llvm.experimental.vector.splat`, as a fixed-length
    shuffle mask cannot describe them.)
    """
    if t.get_num_scalable_dims():
        splat = call_intrinsic(
            f"llvm.experimental.vector.splat.{mangle(t)}", [value], t, rewriter
        )
        assert splat is not None
        return splat
    poison = PoisonOp(t)
    zero = llvm.ConstantOp(IntegerAttr(0, i32), i32)
    insert = llvm.InsertElementOp(poison.res, value, zero.result)
    (n,) = t.get_shape()
    shuffle = llvm.ShuffleVectorOp(
        insert.res, poison.res, DenseArrayBase.from_list(i32, [0] * n), t
    )
    rewriter.insert([poison, zero, insert, shuffle])
    return shuffle.res


def _lane_indices(t: VectorType, rewriter: PatternRewriter) -> SSAValue:
    """The vector [0, 1, ..., n-1] of i64 (`llvm.stepvector` when scalable)."""
    (n,) = t.get_shape()
    index_type = VectorType(i64, [n], t.scalable_dims)
    if t.get_num_scalable_dims():
        step = call_intrinsic(
            f"llvm.stepvector.{mangle(index_type)}", [], index_type, rewriter
        )
        assert step is not None
        return step
    constant = llvm.ConstantOp(
        DenseIntOrFPElementsAttr.from_list(index_type, list(range(n))), index_type
    )
    rewriter.insert(constant)
    return constant.result


def _inner_stride(base: SSAValue, rewriter: PatternRewriter) -> SSAValue | None:
    """The innermost stride of `base` when it is not known to be 1, else None."""
    t = base.type
    assert is_memref_type(t)
    strides, _ = static_strides_and_offset(t)
    if not strides or strides[-1] == 1:
        return None
    if strides[-1] == DYNAMIC:
        return Descriptor(lowered(base, rewriter), rewriter).stride(len(strides) - 1)
    return const(strides[-1], rewriter)


def _strided_lanes(
    base: SSAValue,
    indices: Sequence[SSAValue],
    t: VectorType,
    stride: SSAValue,
    rewriter: PatternRewriter,
) -> SSAValue:
    """Pointers to `base[indices...]`, `base[indices... + 1]`, ... (strided memref)."""
    lanes = _lane_indices(t, rewriter)
    lanes_type = _vector_type(lanes.type)
    scaled = llvm.MulOp(lanes, _splat(stride, lanes_type, rewriter))
    rewriter.insert(scaled)
    base_type = base.type
    assert is_memref_type(base_type)
    gep = upstream_llvm.GEPOp(
        _address(base, indices, rewriter),
        [llvm.GEP_USE_SSA_VAL],
        convert_type(base_type.element_type),
        ssa_indices=[scaled.res],
        result_type=VectorType(PTR, t.get_shape(), t.scalable_dims),  # pyright: ignore[reportArgumentType]
    )
    rewriter.insert(gep)
    return gep.result


class LoadToLLVM(ToLLVMPattern):
    """`vector.load` -> `llvm.load` of a vector type."""

    @lowering
    def match_and_rewrite(self, op: vector.LoadOp, rewriter: PatternRewriter) -> None:
        address = _address(op.base, op.indices, rewriter)
        base_type = op.base.type
        assert is_memref_type(base_type)
        load = llvm.LoadOp(
            address,
            convert_type(op.result.type),
            alignment=element_size(base_type.element_type),
        )
        replace_with(
            op, [load], [load.dereferenced_value], rewriter, partial=self.partial
        )


def declared_alignment(op: vector.StoreOp) -> int | None:
    """The byte alignment MLIR's `alignment` attribute of a `vector.store`
    promises (xDSL's op keeps it among the attributes), if any."""
    attr = op.attributes.get("alignment")
    if attr is None:
        return None
    value = attr.value.data if isinstance(attr, IntegerAttr) else 0
    if value <= 0 or value & (value - 1):
        raise DiagnosticException(
            "attribute 'alignment' failed to satisfy constraint: "
            "64-bit signless integer attribute whose value is positive and whose "
            "value is a power of two > 0"
        )
    return value


class StoreToLLVM(ToLLVMPattern):
    """`vector.store` -> `llvm.store` of a vector value, non-temporal and
    with the alignment MLIR's attributes name."""

    @lowering
    def match_and_rewrite(self, op: vector.StoreOp, rewriter: PatternRewriter) -> None:
        address = _address(op.base, op.indices, rewriter)
        base_type = op.base.type
        assert is_memref_type(base_type)
        store = llvm.StoreOp(
            lowered(op.vector, rewriter),
            address,
            alignment=declared_alignment(op) or element_size(base_type.element_type),
            nontemporal=bool(op.nontemporal.value.data),
        )
        rewriter.replace(op, store)


class MaskedLoadToLLVM(ToLLVMPattern):
    """`vector.maskedload` -> `llvm.masked.load`."""

    @lowering
    def match_and_rewrite(
        self, op: vector.MaskedLoadOp, rewriter: PatternRewriter
    ) -> None:
        t = convert_type(op.result.type)
        stride = _inner_stride(op.base, rewriter)
        if stride is not None:  # a strided buffer: gather its lanes
            pointers = _strided_lanes(
                op.base, op.indices, _vector_type(t), stride, rewriter
            )
            gather = _masked_gather(op, pointers, t, rewriter)
            replace_with(op, [gather], gather.results, rewriter, partial=self.partial)
            return
        address = _address(op.base, op.indices, rewriter)
        if _is_all_true(op.mask):  # every lane on: a plain vector load
            base_type = op.base.type
            assert is_memref_type(base_type)
            load = llvm.LoadOp(
                address, t, alignment=element_size(base_type.element_type)
            )
            replace_with(
                op, [load], [load.dereferenced_value], rewriter, partial=self.partial
            )
            return
        load = MaskedLoadOp.build(
            operands=[
                address,
                lowered(op.mask, rewriter),
                [lowered(op.pass_thru, rewriter)],
            ],
            result_types=[t],
            properties={"alignment": _alignment(op.base)},
        )
        replace_with(op, [load], load.results, rewriter, partial=self.partial)


class MaskedStoreToLLVM(ToLLVMPattern):
    """`vector.maskedstore` -> `llvm.masked.store`."""

    @lowering
    def match_and_rewrite(
        self, op: vector.MaskedStoreOp, rewriter: PatternRewriter
    ) -> None:
        value = lowered(op.value_to_store, rewriter)
        stride = _inner_stride(op.base, rewriter)
        if stride is not None:  # a strided buffer: scatter the lanes
            t = _vector_type(value.type)
            pointers = _strided_lanes(op.base, op.indices, t, stride, rewriter)
            rewriter.insert(_masked_scatter(op, value, pointers, rewriter))
            rewriter.erase(op)
            return
        address = _address(op.base, op.indices, rewriter)
        if _is_all_true(op.mask):  # every lane on: a plain vector store
            base_type = op.base.type
            assert is_memref_type(base_type)
            store = llvm.StoreOp(
                value, address, alignment=element_size(base_type.element_type)
            )
            rewriter.insert(store)
            rewriter.erase(op)
            return
        rewriter.insert(
            MaskedStoreOp.build(
                operands=[value, address, lowered(op.mask, rewriter)],
                properties={"alignment": _alignment(op.base)},
            )
        )
        rewriter.erase(op)


def _lane_offsets(
    base: SSAValue,
    indices: Sequence[SSAValue],
    index_vec: SSAValue,
    rewriter: PatternRewriter,
) -> tuple[SSAValue, SSAValue]:
    """`&base[indices...][0]` and the element offsets of the lanes from it."""
    address = _address(base, indices, rewriter)
    offsets = lowered(index_vec, rewriter)
    offsets_type = _vector_type(offsets.type)
    stride = _inner_stride(base, rewriter)
    if stride is not None:  # index_vec counts elements of a strided buffer
        if isinstance(offsets_type.element_type, IntegerType) and (
            offsets_type.element_type.width.data != 64
        ):
            wide = VectorType(i64, offsets_type.get_shape(), offsets_type.scalable_dims)
            ext = upstream_llvm.SExtOp(offsets, wide)
            rewriter.insert(ext)
            offsets, offsets_type = ext.res, wide
        scaled = llvm.MulOp(offsets, _splat(stride, offsets_type, rewriter))
        rewriter.insert(scaled)
        offsets = scaled.res
    return address, offsets


def _lane_pointers(
    base: SSAValue,
    indices: Sequence[SSAValue],
    index_vec: SSAValue,
    rewriter: PatternRewriter,
) -> SSAValue:
    """A vector of pointers `&base[indices...][index_vec[i]]` (one vector GEP)."""
    address, offsets = _lane_offsets(base, indices, index_vec, rewriter)
    offsets_type = _vector_type(offsets.type)
    base_type = base.type
    assert is_memref_type(base_type)
    pointers_type = VectorType(
        PTR, offsets_type.get_shape(), offsets_type.scalable_dims
    )
    gep = upstream_llvm.GEPOp(
        address,
        [llvm.GEP_USE_SSA_VAL],
        convert_type(base_type.element_type),
        ssa_indices=[offsets],
        result_type=pointers_type,  # pyright: ignore[reportArgumentType]
    )
    rewriter.insert(gep)
    return gep.result


def _is_all_true(mask: SSAValue) -> bool:
    """Whether `mask` is a constant with every lane set."""
    owner = mask.owner
    if isinstance(owner, llvm.ConstantOp | arith.ConstantOp):
        value = owner.value
        if isinstance(value, DenseIntOrFPElementsAttr):
            return all(v != 0 for v in value.get_values())
    return False


def _scalar_lanes(
    op: GatherOp | ScatterOp, rewriter: PatternRewriter
) -> list[SSAValue] | None:
    """Per-lane pointers of an unmasked, fixed-length gather or scatter, else None.

    Gathers and scatters of a few lanes run slower than that many scalar
    accesses on x86 (microcoded, and slowed further by the Gather Data
    Sampling mitigation): an unmasked one becomes scalar loads or stores, which
    LLVM schedules and combines freely. Masked ones (loop remainders) and
    scalable ones stay intrinsics.
    """
    t = _vector_type(op.index_vec.type)
    if t.get_num_scalable_dims() or not _is_all_true(op.mask):
        return None
    address, offsets = _lane_offsets(op.base, op.indices, op.index_vec, rewriter)
    base_type = op.base.type
    assert is_memref_type(base_type)
    pointers: list[SSAValue] = []
    (n,) = t.get_shape()
    for lane in range(n):
        offset = ExtractElementOp(offsets, const(lane, rewriter))
        gep = upstream_llvm.GEPOp(
            address,
            [llvm.GEP_USE_SSA_VAL],
            convert_type(base_type.element_type),
            ssa_indices=[offset.res],
        )
        rewriter.insert([offset, gep])
        pointers.append(gep.result)
    return pointers


class GatherToLLVM(ToLLVMPattern):
    """`vector.gather` -> vector GEP + `llvm.masked.gather`."""

    @lowering
    def match_and_rewrite(self, op: GatherOp, rewriter: PatternRewriter) -> None:
        t = convert_type(op.result.type)
        lanes = _scalar_lanes(op, rewriter)
        if lanes is not None:
            base_type = op.base.type
            assert is_memref_type(base_type)
            align = element_size(base_type.element_type)
            value: SSAValue = PoisonOp(t).res
            rewriter.insert(value.owner)
            for i, pointer in enumerate(lanes):
                load = llvm.LoadOp(
                    pointer, convert_type(base_type.element_type), alignment=align
                )
                insert = llvm.InsertElementOp(
                    value, load.dereferenced_value, const(i, rewriter)
                )
                rewriter.insert([load, insert])
                value = insert.res
            replace_with(op, [], [value], rewriter, partial=self.partial)
            return
        pointers = _lane_pointers(op.base, op.indices, op.index_vec, rewriter)
        gather = _masked_gather(op, pointers, t, rewriter)
        replace_with(op, [gather], gather.results, rewriter, partial=self.partial)


class ScatterToLLVM(ToLLVMPattern):
    """`vector.scatter` -> vector GEP + `llvm.masked.scatter`."""

    @lowering
    def match_and_rewrite(self, op: ScatterOp, rewriter: PatternRewriter) -> None:
        value = lowered(op.value_to_store, rewriter)
        lanes = _scalar_lanes(op, rewriter)
        if lanes is not None:
            base_type = op.base.type
            assert is_memref_type(base_type)
            align = element_size(base_type.element_type)
            for i, pointer in enumerate(lanes):
                element = ExtractElementOp(value, const(i, rewriter))
                store = llvm.StoreOp(element.res, pointer, alignment=align)
                rewriter.insert([element, store])
            rewriter.erase(op)
            return
        pointers = _lane_pointers(op.base, op.indices, op.index_vec, rewriter)
        rewriter.insert(_masked_scatter(op, value, pointers, rewriter))
        rewriter.erase(op)


class BroadcastToLLVM(ToLLVMPattern):
    """`vector.broadcast` of a scalar -> insertelement + zero-mask shufflevector."""

    @lowering
    def match_and_rewrite(
        self, op: vector.BroadcastOp, rewriter: PatternRewriter
    ) -> None:
        t = _vector_type(convert_type(op.vector.type))
        source = lowered(op.source, rewriter)
        if source.type == t:
            replace_with(op, [], [source], rewriter, partial=self.partial)
            return
        if is_vector_type(source.type):
            raise DiagnosticException(
                "broadcast between vector shapes is not supported"
            )
        replace_with(
            op, [], [_splat(source, t, rewriter)], rewriter, partial=self.partial
        )


_REDUCTIONS: dict[str, tuple[str, str | None]] = {
    # kind: (intrinsic suffix, how an accumulator is combined)
    "add": ("add", "add"),
    "mul": ("mul", "mul"),
    "minsi": ("smin", "llvm.smin"),
    "maxsi": ("smax", "llvm.smax"),
    "minui": ("umin", "llvm.umin"),
    "maxui": ("umax", "llvm.umax"),
    "and": ("and", "and"),
    "or": ("or", "or"),
    "xor": ("xor", "xor"),
    "minnumf": ("fmin", "llvm.minnum"),
    "maxnumf": ("fmax", "llvm.maxnum"),
    "minimumf": ("fminimum", "llvm.minimum"),
    "maximumf": ("fmaximum", "llvm.maximum"),
}
_COMBINE: dict[
    str,
    type[
        llvm.ArithmeticBinOperation
        | llvm.ArithmeticBinOpOverflow
        | llvm.ArithmeticBinOpDisjoint
    ],
] = {
    "add": llvm.AddOp,
    "mul": llvm.MulOp,
    "and": llvm.AndOp,
    "or": llvm.OrOp,
    "xor": llvm.XOrOp,
}


def _tree_reduction(source: SSAValue, kind: str, rewriter: PatternRewriter) -> SSAValue:
    """Reassociated fadd/fmul of the lanes: halve the vector log2(n) times.

    (What LLVM emits for `llvm.vector.reduce.fadd` with `reassoc`, which the
    LLVM IR printer has no way to spell; the ordered reduction it would emit
    otherwise chains n dependent adds.)
    """
    t = _vector_type(source.type)
    (n,) = t.get_shape()
    combine = llvm.FAddOp if kind == "add" else llvm.FMulOp
    value = source
    while n > 1 and n % 2 == 0:
        half = n // 2
        half_type = VectorType(t.element_type, [half])
        low = llvm.ShuffleVectorOp(
            value, value, DenseArrayBase.from_list(i32, list(range(half))), half_type
        )
        high = llvm.ShuffleVectorOp(
            value,
            value,
            DenseArrayBase.from_list(i32, list(range(half, n))),
            half_type,
        )
        both = combine(low.res, high.res)
        rewriter.insert([low, high, both])
        value, n = both.res, half
    lanes = [ExtractElementOp(value, const(i, rewriter)) for i in range(n)]
    rewriter.insert(lanes)
    result = lanes[0].res
    for lane in lanes[1:]:
        step = combine(result, lane.res)
        rewriter.insert(step)
        result = step.res
    return result


class ReductionToLLVM(ToLLVMPattern):
    """`vector.reduction` -> `llvm.vector.reduce.*` (accumulator folded in after)."""

    @lowering
    def match_and_rewrite(
        self, op: vector.ReductionOp, rewriter: PatternRewriter
    ) -> None:
        source = lowered(op.vector, rewriter)
        t = convert_type(op.dest.type)
        kind = op.kind.data.value
        acc = lowered(op.acc, rewriter) if op.acc is not None else None
        suffix = mangle(source.type)
        if is_float(t) and kind in ("add", "mul"):
            source_type = _vector_type(source.type)
            flags = op.fastmath.data
            if not source_type.get_num_scalable_dims() and (
                "reassoc" in flags or "fast" in flags
            ):
                result = _tree_reduction(source, kind, rewriter)
                if acc is not None:
                    combine = (llvm.FAddOp if kind == "add" else llvm.FMulOp)(
                        result, acc
                    )
                    rewriter.insert(combine)
                    result = combine.res
                replace_with(op, [], [result], rewriter, partial=self.partial)
                return
            neutral = 0.0 if kind == "add" else 1.0
            if acc is None:
                start = llvm.ConstantOp(FloatAttr(neutral, t), t)  # pyright: ignore[reportCallIssue, reportArgumentType]
                rewriter.insert(start)
                acc = start.result
            name = f"llvm.vector.reduce.f{kind}.{suffix}"
            result = call_intrinsic(name, [acc, source], t, rewriter)
            assert result is not None
            replace_with(op, [], [result], rewriter, partial=self.partial)
            return
        reduce_name, combine = _REDUCTIONS[kind]
        result = call_intrinsic(
            f"llvm.vector.reduce.{reduce_name}.{suffix}", [source], t, rewriter
        )
        assert result is not None and combine is not None
        if acc is not None:
            if combine in _COMBINE:
                combined_op = _COMBINE[combine](result, acc)
                rewriter.insert(combined_op)
                result = combined_op.res
            else:
                combined = call_intrinsic(
                    f"{combine}.{mangle(t)}", [result, acc], t, rewriter
                )
                assert combined is not None
                result = combined
        replace_with(op, [], [result], rewriter, partial=self.partial)


class VectorScaleToLLVM(ToLLVMPattern):
    """`vector.vscale` -> `llvm.vscale.i64`."""

    @lowering
    def match_and_rewrite(self, op: VectorScaleOp, rewriter: PatternRewriter) -> None:
        result = call_intrinsic("llvm.vscale.i64", [], i64, rewriter)
        assert result is not None
        replace_with(op, [], [result], rewriter, partial=self.partial)


class CreateMaskToLLVM(ToLLVMPattern):
    """`vector.create_mask %n` -> `[0..vl) < splat(n)`."""

    @lowering
    def match_and_rewrite(
        self, op: vector.CreateMaskOp, rewriter: PatternRewriter
    ) -> None:
        t = _vector_type(op.mask_vector.type)
        (bound,) = op.mask_dim_sizes
        lanes = _lane_indices(t, rewriter)
        lanes_type = _vector_type(lanes.type)
        limit = _splat(lowered(bound, rewriter), lanes_type, rewriter)
        mask_type = VectorType(i1, lanes_type.get_shape(), lanes_type.scalable_dims)
        compare = llvm.ICmpOp.create(  # slt (xDSL's constructor drops scalability)
            operands=[lanes, limit],
            result_types=[mask_type],
            properties={"predicate": IntegerAttr(2, 64)},
        )
        replace_with(
            op, [compare], [compare.results[0]], rewriter, partial=self.partial
        )


class ConstantMaskToLLVM(ToLLVMPattern):
    """`vector.constant_mask [k]` -> a constant i1 vector."""

    @lowering
    def match_and_rewrite(self, op: ConstantMaskOp, rewriter: PatternRewriter) -> None:
        t = _vector_type(op.result.type)
        (k,) = op.mask_dim_sizes.get_values()
        (n,) = t.get_shape()
        if t.get_num_scalable_dims() and k not in (0, n):
            raise DiagnosticException("partial constant masks of scalable vectors")
        values = [1 if i < k else 0 for i in range(n)]
        mask_type = cast(VectorType[IntegerType], t)  # a vector of i1
        constant = llvm.ConstantOp(
            DenseIntOrFPElementsAttr.from_list(mask_type, values), t
        )
        replace_with(op, [constant], [constant.result], rewriter, partial=self.partial)


class StepToLLVM(ToLLVMPattern):
    """`vector.step` -> a constant [0..n) (or `llvm.stepvector` when scalable)."""

    @lowering
    def match_and_rewrite(self, op: StepOp, rewriter: PatternRewriter) -> None:
        replace_with(
            op,
            [],
            [_lane_indices(_vector_type(op.result.type), rewriter)],
            rewriter,
            partial=self.partial,
        )


def _position(
    op: vector.ExtractOp | vector.InsertOp, rewriter: PatternRewriter
) -> SSAValue:
    static = op.static_position.get_values()
    if len(static) != 1:
        raise DiagnosticException(
            f"'{op.name}' needs exactly one position (1-D vectors)"
        )
    if static[0] != DYNAMIC_INDEX:
        return const(static[0], rewriter)
    return lowered(op.dynamic_position[0], rewriter)


class ExtractToLLVM(ToLLVMPattern):
    """`vector.extract %v[i]` -> `llvm.extractelement`."""

    @lowering
    def match_and_rewrite(
        self, op: vector.ExtractOp, rewriter: PatternRewriter
    ) -> None:
        source = lowered(op.vector, rewriter)
        extract = ExtractElementOp(source, _position(op, rewriter))
        replace_with(op, [extract], [extract.res], rewriter, partial=self.partial)


class InsertToLLVM(ToLLVMPattern):
    """`vector.insert %s, %v[i]` -> `llvm.insertelement`."""

    @lowering
    def match_and_rewrite(self, op: vector.InsertOp, rewriter: PatternRewriter) -> None:
        dest = lowered(op.dest, rewriter)
        insert = llvm.InsertElementOp(
            dest, lowered(op.source, rewriter), _position(op, rewriter)
        )
        replace_with(op, [insert], [insert.res], rewriter, partial=self.partial)


class FMAToLLVM(ToLLVMPattern):
    """`vector.fma` -> `llvm.fmuladd`."""

    @lowering
    def match_and_rewrite(self, op: vector.FMAOp, rewriter: PatternRewriter) -> None:
        args = [lowered(v, rewriter) for v in (op.lhs, op.rhs, op.acc)]
        t = args[0].type
        result = call_intrinsic(f"llvm.fmuladd.{mangle(t)}", args, t, rewriter)
        assert result is not None
        replace_with(op, [], [result], rewriter, partial=self.partial)


def _print_element(
    value: SSAValue, source_type: Attribute, op: Operation, rewriter: PatternRewriter
) -> None:
    """Call the runtime printer of one scalar as MLIR's `VectorPrintOpConversion`
    does: index and unsigned integers zero-extended to `printU64`, i1
    zero-extended and other integers sign-extended to `printI64`, f16 and bf16
    as their bits to `printF16`/`printBF16`."""
    t = value.type
    arg = value
    if isinstance(t, IntegerType):  # signless by now: `source_type` tells
        unsigned = isinstance(source_type, IndexType) or (
            isinstance(source_type, IntegerType)
            and source_type.signedness.data == Signedness.UNSIGNED
        )
        callee = "printU64" if unsigned else "printI64"
        if t.width.data < 64:
            extend = unsigned or t.width.data == 1
            widen = (llvm.ZExtOp if extend else llvm.SExtOp)(value, i64)
            rewriter.insert(widen)
            arg = widen.res
    elif isinstance(t, Float16Type | BFloat16Type):
        callee = "printF16" if isinstance(t, Float16Type) else "printBF16"
        bits = llvm.BitcastOp(value, IntegerType(16))
        rewriter.insert(bits)
        arg = bits.result
    elif isinstance(t, Float32Type):
        callee = "printF32"
    elif isinstance(t, Float64Type):
        callee = "printF64"
    else:
        raise DiagnosticException(f"vector.print of {t} is not supported")
    declare_function(op, callee, llvm.LLVMFunctionType([arg.type]))
    rewriter.insert(llvm.CallOp(callee, arg))


def _print_call(name: str, op: Operation, rewriter: PatternRewriter) -> None:
    declare_function(op, name, llvm.LLVMFunctionType([]))
    rewriter.insert(llvm.CallOp(name))


_PUNCTUATION_CALLS: dict[PrintPunctuation, str | None] = {
    PrintPunctuation.NO_PUNCTUATION: None,
    PrintPunctuation.NEWLINE: "printNewline",
    PrintPunctuation.COMMA: "printComma",
    PrintPunctuation.OPEN: "printOpen",
    PrintPunctuation.CLOSE: "printClose",
}


def _string_address(op: Operation, text: str, rewriter: PatternRewriter) -> SSAValue:
    """The address of a new constant global holding `text` NUL-terminated
    (MLIR's `vector_print_str`, numbered when there are several)."""
    module = enclosing_module(op)
    taken = {o.sym_name.data for o in module.ops if isinstance(o, llvm.GlobalOp)}
    name, k = "vector_print_str", 0
    while name in taken:
        name, k = f"vector_print_str_{k}", k + 1
    module.body.block.add_op(c_string_global(name, text))
    address = llvm.AddressOfOp(name, PTR)
    rewriter.insert(address)
    return address.result


def _print_vector(
    value: SSAValue, t: VectorType, op: Operation, rewriter: PatternRewriter
) -> None:
    """`( a, b, c )` of a 1-D vector (n-D ones are decomposed before:
    `storage.vector_unrolling`)."""
    t = _vector_type(t)
    if t.get_num_scalable_dims():
        raise DiagnosticException("vector.print of scalable vectors is not supported")
    (n,) = t.get_shape()
    _print_call("printOpen", op, rewriter)
    for i in range(n):
        element = ExtractElementOp(value, const(i, rewriter))
        rewriter.insert(element)
        _print_element(element.res, t.element_type, op, rewriter)
        if i + 1 < n:
            _print_call("printComma", op, rewriter)
    _print_call("printClose", op, rewriter)


class PrintToLLVM(ToLLVMPattern):
    """`vector.print` -> `( a, b, c )`, a scalar or a string, then its
    punctuation, through the runtime's print calls."""

    @lowering
    def match_and_rewrite(self, op: PrintOp, rewriter: PatternRewriter) -> None:
        if op.string is not None:
            address = _string_address(op, op.string.data, rewriter)
            declare_function(op, "printString", llvm.LLVMFunctionType([PTR]))
            rewriter.insert(llvm.CallOp("printString", address))
            rewriter.erase(op)
            return
        if op.source is not None:
            source_type = op.source.type
            value = lowered(op.source, rewriter)
            if is_vector_type(source_type):
                _print_vector(value, source_type, op, rewriter)
            else:
                _print_element(value, source_type, op, rewriter)
        punctuation = _PUNCTUATION_CALLS[op.punctuation.data]
        if punctuation is not None:
            _print_call(punctuation, op, rewriter)
        rewriter.erase(op)


VECTOR_PATTERNS: tuple[type[ToLLVMPattern], ...] = (
    LoadToLLVM,
    StoreToLLVM,
    MaskedLoadToLLVM,
    MaskedStoreToLLVM,
    GatherToLLVM,
    ScatterToLLVM,
    BroadcastToLLVM,
    ReductionToLLVM,
    CreateMaskToLLVM,
    ConstantMaskToLLVM,
    StepToLLVM,
    ExtractToLLVM,
    InsertToLLVM,
    FMAToLLVM,
    PrintToLLVM,
    VectorScaleToLLVM,
)
