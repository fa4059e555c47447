"""Decompositions of a sparse format into simpler parts (DESIGN.md's
`decompose/`).

Enters: functions whose arguments are 2:4 tensors and the linalg products
reading them. Leaves: dense tensors and the loops on their buffers.

- `decompose_tensors`: `sparse-decompose-tensors` (Triton's
  DecomposeSparseTensors, seed 004): 2:4 tensors -> values + packed metadata.
- `two_four_loops`: the 2:4 matrix product's loops on those arrays.
"""
