"""The operations of MLIR 22's sparse_tensor dialect (SparseTensorOps.td), one
module per family."""

from xdsl.ir import Operation

from xsparse.dialects.sparse_tensor.ops_conversion import CONVERSION_OPS
from xsparse.dialects.sparse_tensor.ops_insertion import INSERTION_OPS
from xsparse.dialects.sparse_tensor.ops_iteration import ITERATION_OPS
from xsparse.dialects.sparse_tensor.ops_semiring import SEMIRING_OPS
from xsparse.dialects.sparse_tensor.ops_storage import STORAGE_OPS

SPARSE_TENSOR_OPS: tuple[type[Operation], ...] = (
    *STORAGE_OPS,
    *CONVERSION_OPS,
    *INSERTION_OPS,
    *SEMIRING_OPS,
    *ITERATION_OPS,
)
