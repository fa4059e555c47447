"""Storage code generation: sparse tensors -> their level buffers (memrefs).

Mirrors MLIR 22's `-sparse-tensor-codegen` (SparseTensorCodegen.cpp) and the
rewrites that lower whole-tensor sparse ops (conversion, concatenation,
reshape, sort, files and assembly).

Enters: the sparsifier's loops, with sparse tensors as SSA values and the
`sparse_tensor` storage, insertion, conversion and I/O ops. Leaves: `memref`,
`scf`, `arith` and `func` only; every sparse tensor is its storage fields
(`dialects.sparse_tensor.storage.storage_fields`), ready for
`transforms.convert_to_llvm`.

- `codegen`: the `sparse-tensor-codegen` pass and the 1:N type conversion.
- `level_buffers`: building, reading, growing and copying a tensor's level
  buffers, shared by every module below.
- `insertion`: `tensor.insert`, `load hasInserts`, `expand` / `compress`.
- `sort`: the sort behind `compress`.
- `conversion`: `convert`, `reorder_coo`, `sort` between encodings.
- `concat`, `reshape`: concatenation and reshape by rewriting level buffers.
- `file_io`: `new` / `out` (files) and `assemble` / `disassemble`.
- `overhead_widths`: the run-time checks that positions and coordinates
  written into a result fit its `posWidth` / `crdWidth`, shared by every
  module above and the sparsifier's parallel row loops.
"""
