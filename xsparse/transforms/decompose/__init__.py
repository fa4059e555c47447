"""Decompositions of a sparse format into simpler parts (DESIGN.md's
`decompose/`).

Enters: functions whose arguments are 2:4 tensors, or a sparse matrix to
split into parts, and the linalg ops reading them. Leaves: dense tensors
(and the parts' sparse tensors) and the loops on their buffers.

- `decompose_tensors`: `sparse-decompose-tensors` (Triton's
  DecomposeSparseTensors, seed 004): 2:4 tensors -> values + packed metadata.
- `two_four_loops`: the 2:4 matrix product's loops on those arrays.
- `decompose_format`: `sparse-decompose-format` (SparseTIR's DecomposeFormat,
  seed 002): one sparse operand -> BSR parts, ELL buckets and a remainder;
  `ell_loops`, `bsr_loops`, `csr_loops`: the products' loops on the parts;
  `format_movement`: the data movement into the parts, its own function.
"""
