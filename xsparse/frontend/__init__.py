"""The Python front end: `einsum` (numpy's subscripts) and `evaluate` (TACO's
index notation) on numpy arrays, scipy.sparse matrices and `SparseTensor`s.

In: an expression and operands (`subscripts`, `notation`: both parse into
one `expression.Assignment`). `operands` infers each operand's encoding and
dtype, `level_order` a loop order every sparse operand accepts, `results`
what is returned (as scipy would), `generic` the MLIR (`linalg.generic`s on
sparse tensors); `api` compiles it with `xsparse.compile` and caches the
kernel by signature. Out: numpy arrays, scipy matrices, `SparseTensor`s.
`einsum_mlir` / `evaluate_mlir` return the MLIR instead of running it.
"""

from xsparse.frontend.api import einsum, einsum_mlir, evaluate, evaluate_mlir

__all__ = ["einsum", "einsum_mlir", "evaluate", "evaluate_mlir"]
