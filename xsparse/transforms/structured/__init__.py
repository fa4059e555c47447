"""The lowerings of the RFC "Structured Codegen Beyond Rectangular Arrays" (seed 003).

Enters: the `subset` dialect (gather, scatter, concat), the `jagged` dialect
and elementwise `linalg.generic` consumers of a gather. Leaves: `scf` loops,
`memref` buffers, views and copies (jagged descriptors lowered to `llvm`).

- `fuse_through_gather`: `fuse-through-gather`, an elementwise consumer tiled
  by 1 through a gather.
- `bufferize_tiles`: `bufferize-tile-loops`, the tiled tensor loops to buffers.
- `lower_subset`: `lower-subset`, gather / scatter / concat -> loops and copies.
- `lower_jagged`: `lower-jagged`, jagged buffers -> memref views and
  descriptor arrays.
"""
