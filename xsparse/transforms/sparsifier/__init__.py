"""The sparsifier: `linalg.generic` on sparse tensors -> scf loops over level buffers.

Mirrors MLIR 22's SparseTensor/Transforms passes up to (not including) storage
code generation.

Enters: `linalg.generic` (and `sparse_tensor` iteration ops) on tensors whose
types carry a `#sparse_tensor.encoding`. Leaves: `scf` loops and `memref`-free
`sparse_tensor` storage reads (`positions`, `coordinates`, `values`, `lvl`),
with insertion ops for sparse outputs, ready for `transforms.storage`.

In pipeline order:

- `reinterpret_map`: `sparse-reinterpret-map`, block encodings demapped into
  level space; sparse inputs whose level orders admit no loop order
  converted to one that does.
- `iteration_graph`: loop orders as topological orders of the operands'
  level chains (MLIR's `IterationGraphSorter`), and which inputs to convert
  when they form a cycle.
- `iteration_to_indexing`: `sparse-iteration-to-indexing`, MLIR 22's
  `iterate`/`coiterate` -> the `indexing` dialect's set loops.
- `merge_lattices`: tensor expressions and their set algebra (MLIR's `Merger`).
- `output_sizing`: size hints for sparse outputs filled by insertion.
- `loop_emitter`: one `indexing.foreach` per loop (MLIR's `LoopEmitter`).
- `sparsification`: `sparsification` and `dense-linalg-to-loops`, the passes
  that drive the two above.
- `lower_indexing`: `lower-indexing`, set loops -> scf co-iteration loops.
- `vectorization`: `sparse-vectorization` and `sparse-vector-peel`.
- `post_sparsification`: `post-sparsification-rewrite` (print, entry counts,
  coordinate translation and sparse-to-dense conversion by loops).

Their op builders are the shared ones of `transforms.codegen_utils`.
"""
