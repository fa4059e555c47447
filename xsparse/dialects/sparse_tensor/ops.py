"""The operations of MLIR 22's sparse_tensor dialect (SparseTensorOps.td)."""

from xdsl.ir import Operation

SPARSE_TENSOR_OPS: tuple[type[Operation], ...] = ()
