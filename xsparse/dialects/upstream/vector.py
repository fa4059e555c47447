"""xDSL's `vector` as MLIR 22 has it: the ops xDSL 0.74 lacks, and
`vector.print` with MLIR's syntax (https://mlir.llvm.org/docs/Dialects/Vector/)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import vector
from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    IndexType,
    MemRefType,
    VectorType,
    i64,
)
from xdsl.ir import Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure

from xsparse.xdsl_adapter import dialect_with


@irdl_op_definition
class GatherOp(IRDLOperation):
    """`vector.gather`: masked load of `base[indices...][index_vec[i]]` lanes."""

    name = "vector.gather"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    index_vec = operand_def(VectorType)
    mask = operand_def(VectorType)
    pass_thru = operand_def(VectorType)
    result = result_def(VectorType)

    assembly_format = (
        "$base `[` $indices `]` `[` $index_vec `]` `,` $mask `,` $pass_thru attr-dict"
        " `:` type($base) `,` type($index_vec) `,` type($mask) `,` type($pass_thru)"
        " `into` type($result)"
    )

    def __init__(
        self,
        base: SSAValue,
        indices: Sequence[SSAValue],
        index_vec: SSAValue,
        mask: SSAValue,
        pass_thru: SSAValue,
    ):
        super().__init__(
            operands=[base, indices, index_vec, mask, pass_thru],
            result_types=[pass_thru.type],
        )


@irdl_op_definition
class ScatterOp(IRDLOperation):
    """`vector.scatter`: masked store of lanes to `base[indices...][index_vec[i]]`."""

    name = "vector.scatter"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    index_vec = operand_def(VectorType)
    mask = operand_def(VectorType)
    value_to_store = operand_def(VectorType)

    assembly_format = (
        "$base `[` $indices `]` `[` $index_vec `]` `,` $mask `,` $value_to_store"
        " attr-dict `:` type($base) `,` type($index_vec) `,` type($mask) `,`"
        " type($value_to_store)"
    )

    def __init__(
        self,
        base: SSAValue,
        indices: Sequence[SSAValue],
        index_vec: SSAValue,
        mask: SSAValue,
        value: SSAValue,
    ):
        super().__init__(operands=[base, indices, index_vec, mask, value])


@irdl_op_definition
class StepOp(IRDLOperation):
    """`vector.step`: the vector `[0, 1, ..., n-1]` of index type."""

    name = "vector.step"

    result = result_def(VectorType)

    assembly_format = "attr-dict `:` type($result)"

    traits = traits_def(Pure())

    def __init__(self, result_type: VectorType):
        super().__init__(result_types=[result_type])


@irdl_op_definition
class ConstantMaskOp(IRDLOperation):
    """`vector.constant_mask`: an i1 vector whose first `mask_dim_sizes[0]` lanes are set."""

    name = "vector.constant_mask"

    mask_dim_sizes = prop_def(DenseArrayBase[I64])
    result = result_def(VectorType)

    assembly_format = "$mask_dim_sizes attr-dict `:` type($result)"

    traits = traits_def(Pure())

    def __init__(self, sizes: Sequence[int], result_type: VectorType):
        super().__init__(
            properties={"mask_dim_sizes": DenseArrayBase.from_list(i64, sizes)},
            result_types=[result_type],
        )


@irdl_op_definition
class VectorScaleOp(IRDLOperation):
    """`vector.vscale`: the runtime multiple of scalable vector lengths (an index)."""

    name = "vector.vscale"

    res = result_def(IndexType())

    traits = traits_def(Pure())

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[IndexType()])


@irdl_op_definition
class PrintOp(IRDLOperation):
    """`vector.print %v : type` (MLIR's syntax; xDSL 0.74's has none)."""

    name = "vector.print"

    source = operand_def()

    assembly_format = "$source attr-dict `:` type($source)"

    def __init__(self, source: SSAValue):
        super().__init__(operands=[source])


OPS: tuple[type[Operation], ...] = (
    GatherOp,
    ScatterOp,
    StepOp,
    ConstantMaskOp,
    PrintOp,
    VectorScaleOp,
)

Vector: Dialect = dialect_with(vector.Vector, OPS)
"""xDSL's `vector` with the ops above in place of its own."""
