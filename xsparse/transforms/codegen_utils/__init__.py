"""Emission helpers shared by the lowerings, as MLIR's SparseTensor/Transforms/
Utils/CodegenUtils.h is:

* `op_emitter`: `OpEmitter`, the scalar and buffer ops every lowering builds
  alike (index constants, arithmetic, comparisons, casts, loads, sizes,
  allocations), whatever its insertion point; `BuilderEmitter` over an
  `xdsl.builder.Builder`; `constant_index`, `to_tensor`;
* `emitter`: `Emitter`, the `OpEmitter` of the lowerings that rewrite through a
  pattern rewriter: loops and branches from callbacks, constant globals,
  external calls, run-time error reports;
* `stored_entries`: a sparse tensor's level and dimension sizes and loop nests
  over its stored entries, read through `sparse_tensor` storage ops.
"""
