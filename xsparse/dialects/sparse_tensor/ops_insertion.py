"""sparse_tensor ops that build sparse storage: access pattern expansion and
compression, buffer push_back and sorting (SparseTensorOps.td, "Sparse Tensor
Management" and "Sorting/Ordering" sections). Single insertions are MLIR 22's
`tensor.insert` followed by `sparse_tensor.load ... hasInserts`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xsparse.dialects.sparse_tensor.ops_common import (
    constant_int,
    sparse_operand,
    sparse_type,
)
from xsparse.dialects.sparse_tensor.ops_storage import LevelAttr, level_attr
from xsparse.dialects.sparse_tensor.types import SortAlgorithm, SortAlgorithmAttr


def _rank1_memref(
    op: Operation, kind: str, index: int, type: Attribute, what: str
) -> MemRefType[Attribute]:
    if not isa(type, MemRefType[Attribute]) or len(type.get_shape()) != 1:
        raise VerifyException(f"{kind} #{index} must be {what}, but got '{type}'")
    return type


@irdl_op_definition
class ExpandOp(IRDLOperation):
    """`sparse_tensor.expand` (SparseTensor_ExpandOp): access pattern expansion."""

    name = "sparse_tensor.expand"

    tensor = operand_def(TensorType)
    values = result_def(MemRefType)
    filled = result_def(MemRefType)
    added = result_def(MemRefType)
    count = result_def(IndexType)

    assembly_format = "$tensor attr-dict `:` type($tensor) `to` type($values) `,` type($filled) `,` type($added)"

    def __init__(self, tensor: SSAValue | Operation):
        stt = sparse_type(SSAValue.get(tensor))
        dyn = [DYNAMIC_INDEX]
        super().__init__(
            operands=[tensor],
            result_types=[
                MemRefType(stt.element_type, dyn),
                MemRefType(IntegerType(1), dyn),
                MemRefType(IndexType(), dyn),
                IndexType(),
            ],
        )

    def verify_(self) -> None:
        sparse_operand(self, 0)
        _rank1_memref(
            self, "result", 0, self.values.type, "1D memref of any type values"
        )
        filled = _rank1_memref(
            self,
            "result",
            1,
            self.filled.type,
            "1D memref of 1-bit signless integer values",
        )
        added = _rank1_memref(
            self, "result", 2, self.added.type, "1D memref of index values"
        )
        if filled.element_type != IntegerType(1):
            raise VerifyException(
                f"result #1 must be 1D memref of 1-bit signless integer values, "
                f"but got '{filled}'",
            )
        if not isinstance(added.element_type, IndexType):
            raise VerifyException(
                f"result #2 must be 1D memref of index values, but got '{added}'"
            )


@irdl_op_definition
class CompressOp(IRDLOperation):
    """`sparse_tensor.compress` (SparseTensor_CompressOp): ends an expansion."""

    name = "sparse_tensor.compress"

    T: ClassVar = VarConstraint("T", base(TensorType))
    values = operand_def(MemRefType)
    filled = operand_def(MemRefType)
    added = operand_def(MemRefType)
    count = operand_def(IndexType)
    tensor = operand_def(T)
    lvl_coords = var_operand_def(IndexType)
    result = result_def(T)

    assembly_format = (
        "$values `,` $filled `,` $added `,` $count `into` $tensor `[` $lvl_coords `]` "
        "attr-dict `:` type($values) `,` type($filled) `,` type($added) `,` type($tensor)"
    )

    def __init__(
        self,
        values: SSAValue | Operation,
        filled: SSAValue | Operation,
        added: SSAValue | Operation,
        count: SSAValue | Operation,
        tensor: SSAValue | Operation,
        lvl_coords: Sequence[SSAValue | Operation],
    ):
        tensor = SSAValue.get(tensor)
        super().__init__(
            operands=[values, filled, added, count, tensor, lvl_coords],
            result_types=[tensor.type],
        )

    def verify_(self) -> None:
        stt = sparse_operand(self, 4)
        if stt.lvl_rank != 1 + len(self.lvl_coords):
            raise VerifyException("incorrect number of coordinates")


@irdl_op_definition
class PushBackOp(IRDLOperation):
    """`sparse_tensor.push_back` (SparseTensor_PushBackOp): appends to a buffer."""

    name = "sparse_tensor.push_back"

    B: ClassVar = VarConstraint("B", base(MemRefType))
    cur_size = operand_def(IndexType)
    in_buffer = operand_def(B)
    value = operand_def()
    n = opt_operand_def(IndexType)
    inbounds = opt_prop_def(UnitAttr)
    out_buffer = result_def(B)
    new_size = result_def(IndexType)

    assembly_format = (
        "(`inbounds` $inbounds^)? $cur_size `,` $in_buffer `,` $value (`,` $n^)? attr-dict "
        "`:` type($cur_size) `,` type($in_buffer) `,` type($value) (`,` type($n)^)?"
    )
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        cur_size: SSAValue | Operation,
        in_buffer: SSAValue | Operation,
        value: SSAValue | Operation,
        n: SSAValue | Operation | None = None,
        inbounds: bool = False,
    ):
        in_buffer = SSAValue.get(in_buffer)
        super().__init__(
            operands=[cur_size, in_buffer, value, n],
            properties={"inbounds": UnitAttr()} if inbounds else {},
            result_types=[in_buffer.type, IndexType()],
        )

    def verify_(self) -> None:
        buffer = _rank1_memref(
            self, "operand", 1, self.in_buffer.type, "1D memref of any type values"
        )
        if self.value.type != buffer.element_type:
            raise VerifyException(
                "failed to verify that value type matches element type of inBuffer",
            )
        if self.n is not None:
            n = constant_int(self.n)
            if n is not None and n < 1:
                raise VerifyException("n must be not less than 1")


@irdl_op_definition
class SortOp(IRDLOperation):
    """`sparse_tensor.sort` (SparseTensor_SortOp): sorts `xy` jointly with `ys`."""

    name = "sparse_tensor.sort"

    n = operand_def(IndexType)
    xy = operand_def(MemRefType)
    ys = var_operand_def(MemRefType)
    perm_map = prop_def(AffineMapAttr)
    ny = opt_prop_def(LevelAttr)
    algorithm = prop_def(SortAlgorithmAttr)

    assembly_format = (
        "` ` $algorithm $n `,` $xy (`jointly` $ys^)? attr-dict "
        "`:` type($xy) (`jointly` type($ys)^)?"
    )
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        algorithm: SortAlgorithm,
        n: SSAValue | Operation,
        xy: SSAValue | Operation,
        ys: Sequence[SSAValue | Operation],
        perm_map: AffineMapAttr,
        ny: int | None = None,
    ):
        props: dict[str, Attribute] = {"algorithm": SortAlgorithmAttr(algorithm)}
        if ny is not None:
            props["ny"] = level_attr(ny)
        props["perm_map"] = perm_map
        super().__init__(operands=[n, xy, ys], properties=props)

    def verify_(self) -> None:
        xy = _rank1_memref(
            self,
            "operand",
            1,
            self.xy.type,
            "strided memref of any integer or index type values of ranks 1",
        )
        if not isinstance(xy.element_type, IntegerType | IndexType):
            raise VerifyException(
                "operand #1 must be strided memref of any integer or index type values "
                f"of ranks 1, but got '{xy}'",
            )
        ys = [
            _rank1_memref(
                self,
                "operand",
                2 + i,
                y.type,
                "strided memref of any type values of ranks 1",
            )
            for i, y in enumerate(self.ys)
        ]
        perm = self.perm_map.data
        nx = perm.num_dims
        if nx < 1:
            raise VerifyException(f"Expected rank(perm_map) > 1, got {nx}")
        positions = [getattr(r, "position", None) for r in perm.results]
        if (
            sorted(p for p in positions if p is not None) != list(range(nx))
            or len(positions) != nx
        ):
            raise VerifyException(f"Expected a permutation map, got {perm}")
        n = constant_int(self.n)
        if n is None:
            return
        ny = 0 if self.ny is None else self.ny.value.data
        size = xy.get_shape()[0]
        minimum = n * (nx + ny)
        if size != DYNAMIC_INDEX and size < minimum:
            raise VerifyException(
                f"Expected dimension(xy) >= n * (rank(perm_map) + ny) got {size} < {minimum}"
            )
        for y in ys:
            size = y.get_shape()[0]
            if size != DYNAMIC_INDEX and size < n:
                raise VerifyException(f"Expected dimension(y) >= n got {size} < {n}")


INSERTION_OPS: tuple[type[IRDLOperation], ...] = (
    ExpandOp,
    CompressOp,
    PushBackOp,
    SortOp,
)
