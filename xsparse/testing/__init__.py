"""Random testing of xsparse, used by the test suite and by `tools/fuzz.py`.

`kernels`: random `linalg.generic` kernels over random encodings, shapes and
dtypes, run through `xsparse.compile` and compared with numpy (and, where
MLIR 22's tools are installed, with `mlir-runner-22`). `ir_mutants`: mutants of
the kernel corpus through `xsparse-opt -p sparsifier` and `xsparse.compile`,
each of which must work or get a located diagnostic. `einsum_cases`: random
`xsparse.einsum` / `evaluate` calls. `decomposed_cases`: random matrices,
rules, right-hand sides and outputs of `xsparse.composable`'s decomposed
products. Each answers one case per seed with a `CaseOutcome` (`outcome`),
so a seed reproduces a case. `refusal_cases`: calls of the three generators
with one argument corrupted, each of which must be refused without changing
any argument.
"""
