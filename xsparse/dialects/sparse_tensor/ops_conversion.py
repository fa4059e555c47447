"""sparse_tensor ops that convert, (dis)assemble, reorder, concatenate,
materialize and output whole tensors (SparseTensorOps.td, "Sparse Tensor
Operations" and "Debugging" sections)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I1,
    IndexType,
    IntegerType,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    SameVariadicResultSize,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import NoMemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xsparse.dialects.sparse_tensor.ops_common import (
    sparse_operand,
    sparse_result,
    sparse_type,
)
from xsparse.dialects.sparse_tensor.ops_storage import (
    LevelAttr,
    in_bounds,
    level_attr,
)
from xsparse.dialects.sparse_tensor.types import (
    SortAlgorithm,
    SortAlgorithmAttr,
    SparseTensorType,
)


@irdl_op_definition
class NewOp(IRDLOperation):
    """`sparse_tensor.new` (SparseTensor_NewOp): a sparse tensor from an opaque source."""

    name = "sparse_tensor.new"

    source = operand_def()
    result = result_def(TensorType)

    traits = traits_def(Pure())
    assembly_format = "$source attr-dict `:` type($source) `to` type($result)"

    def __init__(self, source: SSAValue | Operation, result: TensorType[Attribute]):
        super().__init__(operands=[source], result_types=[result])

    def verify_(self) -> None:
        sparse_result(self, 0)


@irdl_op_definition
class ConvertOp(IRDLOperation):
    """`sparse_tensor.convert` (SparseTensor_ConvertOp)."""

    name = "sparse_tensor.convert"

    source = operand_def(TensorType)
    dest = result_def(TensorType)

    traits = traits_def(Pure())
    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"

    def __init__(self, source: SSAValue | Operation, dest: TensorType[Attribute]):
        super().__init__(operands=[source], result_types=[dest])

    def verify_(self) -> None:
        src, dst = sparse_type(self.source), sparse_type(self.dest)
        if src.dim_rank != dst.dim_rank:
            raise VerifyException("unexpected conversion mismatch in rank")
        if dst.is_slice:
            raise VerifyException("cannot convert to a sparse tensor slice")
        for d, (s1, s2) in enumerate(zip(src.dim_shape, dst.dim_shape, strict=True)):
            if s1 != s2 and s2 != DYNAMIC_INDEX:
                raise VerifyException(
                    f"unexpected conversion mismatch in dimension {d}"
                )


@irdl_op_definition
class ReinterpretMapOp(IRDLOperation):
    """`sparse_tensor.reinterpret_map` (SparseTensor_ReinterpretMapOp)."""

    name = "sparse_tensor.reinterpret_map"

    source = operand_def(TensorType)
    dest = result_def(TensorType)

    traits = traits_def(NoMemoryEffect())
    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"

    def __init__(self, source: SSAValue | Operation, dest: TensorType[Attribute]):
        super().__init__(operands=[source], result_types=[dest])

    def verify_(self) -> None:
        src, dst = sparse_operand(self, 0), sparse_result(self, 0)
        if src.lvl_rank != dst.lvl_rank:
            raise VerifyException("Level rank mismatch between source/dest tensors")
        if src.lvl_types != dst.lvl_types:
            raise VerifyException("Level type mismatch between source/dest tensors")
        if src.pos_width != dst.pos_width or src.crd_width != dst.crd_width:
            raise VerifyException("Crd/Pos width mismatch between source/dest tensors")
        if src.element_type != dst.element_type:
            raise VerifyException("Element type mismatch between source/dest tensors")
        if src.lvl_shape != dst.lvl_shape:
            raise VerifyException("Level size mismatch between source/dest tensors")


def _verify_pack_unpack(
    op: Operation,
    static_shape: bool,
    stt: SparseTensorType,
    values: Attribute,
    levels: Sequence[Attribute],
) -> None:
    """MLIR's `verifyPackUnPack`: the level tensors match the storage layout."""
    if static_shape and not stt.has_static_dim_shape:
        raise VerifyException("the sparse-tensor must have static shape")
    if not stt.has_encoding:
        raise VerifyException("the sparse-tensor must have an encoding attribute")
    coo_start = stt.aos_coo_start
    if coo_start < stt.lvl_rank:
        coo = levels[-1] if levels else None
        shape = coo.get_shape() if isinstance(coo, TensorType) else ()
        if len(shape) != 2 or shape[-1] != stt.lvl_rank - coo_start:
            raise VerifyException("input/output trailing COO level-ranks don't match")
    fields = stt.storage_fields()
    if len(fields) != len(levels):
        raise VerifyException("inconsistent number of fields between input/output")
    expected = [stt.pos_type if kind == "pos" else stt.crd_type for kind, _ in fields]
    actual = [t.element_type for t in levels if isa(t, TensorType[Attribute])]
    assert isa(values, TensorType[Attribute])
    if actual != expected or values.element_type != stt.element_type:
        raise VerifyException("input/output element-types don't match")


_LevelTensor = TensorType[IntegerType | IndexType]
_IndexingScalarLike = IndexType | IntegerType | _LevelTensor
"""MLIR's `AnyIndexingScalarLike`: an integer or index, or a 0-D tensor of one
(the level lengths `disassemble` returns)."""


@irdl_op_definition
class AssembleOp(IRDLOperation):
    """`sparse_tensor.assemble` (SparseTensor_AssembleOp)."""

    name = "sparse_tensor.assemble"

    levels = var_operand_def(_LevelTensor)
    values = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure())
    assembly_format = (
        "` ` `(` $levels `)` `,` $values attr-dict `:` "
        "`(` type($levels) `)` `,` type($values) `to` type($result)"
    )

    def __init__(
        self,
        levels: Sequence[SSAValue | Operation],
        values: SSAValue | Operation,
        result: TensorType[Attribute],
    ):
        super().__init__(operands=[levels, values], result_types=[result])

    def verify_(self) -> None:
        stt = sparse_result(self, 0)
        _verify_pack_unpack(self, True, stt, self.values.type, self.levels.types)


@irdl_op_definition
class DisassembleOp(IRDLOperation):
    """`sparse_tensor.disassemble` (SparseTensor_DisassembleOp)."""

    name = "sparse_tensor.disassemble"

    tensor = operand_def(TensorType)
    out_levels = var_operand_def(_LevelTensor)
    out_values = operand_def(TensorType)
    ret_levels = var_result_def(_LevelTensor)
    ret_values = result_def(TensorType)
    lvl_lens = var_result_def(_IndexingScalarLike)
    val_len = result_def(_IndexingScalarLike)

    traits = traits_def(Pure())
    irdl_options = (SameVariadicResultSize(),)
    assembly_format = (
        "$tensor attr-dict `:` type($tensor) "
        "`out_lvls` `(` $out_levels `:` type($out_levels) `)` "
        "`out_vals` `(` $out_values `:` type($out_values) `)` `->` "
        "`(` type($ret_levels) `)` `,` type($ret_values) `,` "
        "`(` type($lvl_lens) `)` `,` type($val_len)"
    )

    def __init__(
        self,
        tensor: SSAValue | Operation,
        out_levels: Sequence[SSAValue | Operation],
        out_values: SSAValue | Operation,
    ):
        levels = [SSAValue.get(v).type for v in out_levels]
        super().__init__(
            operands=[tensor, out_levels, out_values],
            result_types=[
                levels,
                SSAValue.get(out_values).type,
                [IndexType()] * len(levels),
                IndexType(),
            ],
        )

    def verify_(self) -> None:
        if self.out_values.type != self.ret_values.type:
            raise VerifyException("output values and return value type mismatch")
        if self.out_levels.types != self.ret_levels.types:
            raise VerifyException("output levels and return levels type mismatch")
        lengths = [*self.lvl_lens, self.val_len]
        for n in lengths:
            if isinstance(n.type, TensorType) and n.type.get_shape():
                kind = "scalar like" if n is self.val_len else "variadic of scalar like"
                raise VerifyException(
                    f"result #{n.index} must be {kind}, but got '{n.type}'"
                )
        stt = sparse_operand(self, 0)
        _verify_pack_unpack(
            self, False, stt, self.ret_values.type, self.ret_levels.types
        )


@irdl_op_definition
class ReorderCOOOp(IRDLOperation):
    """`sparse_tensor.reorder_coo` (SparseTensor_ReorderCOOOp)."""

    name = "sparse_tensor.reorder_coo"

    input_coo = operand_def(TensorType)
    algorithm = prop_def(SortAlgorithmAttr)
    result_coo = result_def(TensorType)

    traits = traits_def(Pure())
    assembly_format = "` ` $algorithm $input_coo attr-dict `:` type($input_coo) `to` type($result_coo)"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        algorithm: SortAlgorithm,
        input_coo: SSAValue | Operation,
        result: TensorType[Attribute],
    ):
        super().__init__(
            operands=[input_coo],
            properties={"algorithm": SortAlgorithmAttr(algorithm)},
            result_types=[result],
        )

    def verify_(self) -> None:
        src, dst = sparse_operand(self, 0), sparse_result(self, 0)
        if not src.is_coo_type() or not dst.is_coo_type():
            raise VerifyException("Expected COO sparse tensors only")
        if not src.has_same_dim_to_lvl(dst):
            raise VerifyException("Unmatched dim2lvl map between input and result COO")
        if (src.pos_type, src.crd_type, src.element_type) != (
            dst.pos_type,
            dst.crd_type,
            dst.element_type,
        ):
            raise VerifyException(
                "Unmatched storage format between input and result COO"
            )


@irdl_op_definition
class ConcatenateOp(IRDLOperation):
    """`sparse_tensor.concatenate` (SparseTensor_ConcatenateOp)."""

    name = "sparse_tensor.concatenate"

    inputs = var_operand_def(TensorType)
    dimension = prop_def(LevelAttr)
    result = result_def(TensorType)

    traits = traits_def(Pure())
    assembly_format = "$inputs attr-dict `:` type($inputs) `to` type($result)"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        dimension: int,
        result: TensorType[Attribute],
    ):
        super().__init__(
            operands=[inputs],
            properties={"dimension": level_attr(dimension)},
            result_types=[result],
        )

    def verify_(self) -> None:
        dst = sparse_type(self.result)
        dim, rank = self.dimension.value.data, dst.dim_rank
        if len(self.inputs) <= 1:
            raise VerifyException("Need at least two tensors to concatenate.")
        if not in_bounds(dim, rank):
            unsigned = dim % 2**64  # MLIR's `Dimension` is a uint64_t
            raise VerifyException(
                "Concat-dimension is out of bounds for dimension-rank "
                f"({unsigned} >= {rank})"
            )
        srcs = [sparse_type(v) for v in self.inputs]
        for i, src in enumerate(srcs):
            if not src.has_static_dim_shape:
                raise VerifyException(f"Input tensor ${i} has dynamic shape")
            if src.dim_rank != rank:
                raise VerifyException(
                    f"Input tensor ${i} has a different rank (rank={src.dim_rank}) "
                    f"from the output tensor (rank={rank})."
                )
        for d in range(rank):
            dst_size = dst.dim_shape[d]
            if d == dim:
                if (
                    dst_size != DYNAMIC_INDEX
                    and sum(s.dim_shape[d] for s in srcs) != dst_size
                ):
                    raise VerifyException(
                        "The concatenation dimension of the output tensor should be the "
                        "sum of all the concatenation dimensions of the input tensors."
                    )
                continue
            prev = dst_size
            for src in srcs:
                if prev != DYNAMIC_INDEX and src.dim_shape[d] != prev:
                    raise VerifyException(
                        "All dimensions (expect for the concatenating one) should be equal."
                    )
                prev = src.dim_shape[d]


@irdl_op_definition
class LoadOp(IRDLOperation):
    """`sparse_tensor.load` (SparseTensor_LoadOp): rematerializes a tensor,
    finalizing insertions when `hasInserts`."""

    name = "sparse_tensor.load"

    T: ClassVar = VarConstraint("T", base(TensorType))
    tensor = operand_def(T)
    has_inserts = opt_prop_def(UnitAttr, prop_name="hasInserts")
    result = result_def(T)

    assembly_format = "$tensor (`hasInserts` $hasInserts^)? attr-dict `:` type($tensor)"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, tensor: SSAValue | Operation, has_inserts: bool = False):
        tensor = SSAValue.get(tensor)
        super().__init__(
            operands=[tensor],
            properties={"hasInserts": UnitAttr()} if has_inserts else {},
            result_types=[tensor.type],
        )

    def verify_(self) -> None:
        sparse_operand(self, 0)


@irdl_op_definition
class OutOp(IRDLOperation):
    """`sparse_tensor.out` (SparseTensor_OutOp): writes a tensor to an opaque destination."""

    name = "sparse_tensor.out"

    tensor = operand_def(TensorType)
    dest = operand_def()

    assembly_format = "$tensor `,` $dest attr-dict `:` type($tensor) `,` type($dest)"

    def __init__(self, tensor: SSAValue | Operation, dest: SSAValue | Operation):
        super().__init__(operands=[tensor, dest])

    def verify_(self) -> None:
        sparse_operand(self, 0)


@irdl_op_definition
class PrintOp(IRDLOperation):
    """`sparse_tensor.print` (SparseTensor_PrintOp): prints a tensor's storage."""

    name = "sparse_tensor.print"

    tensor = operand_def(TensorType)

    assembly_format = "$tensor attr-dict `:` type($tensor)"

    def __init__(self, tensor: SSAValue | Operation):
        super().__init__(operands=[tensor])

    def verify_(self) -> None:
        sparse_operand(self, 0)


@irdl_op_definition
class HasRuntimeLibraryOp(IRDLOperation):
    """`sparse_tensor.has_runtime_library` (SparseTensor_HasRuntimeLibraryOp)."""

    name = "sparse_tensor.has_runtime_library"

    result = result_def(I1)

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[IntegerType(1)])


CONVERSION_OPS: tuple[type[IRDLOperation], ...] = (
    NewOp,
    ConvertOp,
    ReinterpretMapOp,
    AssembleOp,
    DisassembleOp,
    ReorderCOOOp,
    ConcatenateOp,
    LoadOp,
    OutOp,
    PrintOp,
    HasRuntimeLibraryOp,
)
