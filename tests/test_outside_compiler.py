"""Issue 17, deliverable 4: an outside compiler built on xDSL embeds xsparse.

`tests/outside_compiler` plays that compiler: its own `toy` dialect and
`lower-toy` pass. It reaches xsparse only through xDSL's plugin mechanism
(`Universe.get_multiverse()` reads the `xdsl.universe` entry point of
xsparse's pyproject) and names xsparse's passes as strings.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from outside_compiler.dialect import Toy
from outside_compiler.lowering import LowerToyPass
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Dialect
from xdsl.parser import Parser
from xdsl.passes import ModulePass, PassPipeline
from xdsl.universe import Universe
from xdsl.utils.exceptions import ParseError

# Only the native backend is imported: dialects and passes come from the plugin.
from xsparse.backend import jit
from xsparse.backend.lowering import lower_to_llvm
from xsparse.dialect_registry import get_upstream_dialects

# y = y0 + A (s x), with A in CSR. The trait is inline: xDSL's own `linalg`
# (which the outside compiler keeps) does not read it as an alias.
TRAIT = (
    "{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,"
    ' affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}'
)
PROGRAM = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @kernel(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>, %y: tensor<?xf64>, %s: f64) -> tensor<?xf64> {
  %sx = toy.scale %x, %s : tensor<?xf64>
  %0 = linalg.generic TRAIT ins(%a, %sx : tensor<?x?xf64, #CSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    %r = arith.addf %yv, %m : f64
    linalg.yield %r : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}
""".replace("TRAIT", TRAIT)

# xsparse's `sparsifier` pieces (xsparse/transforms/pipeline.py) that this
# program needs, before `convert-to-llvm`.
XSPARSE_PASSES = (
    "sparse-reinterpret-map,sparsification,dense-linalg-to-loops,"
    "lower-indexing,post-sparsification-rewrite,sparse-tensor-codegen"
)


def outside_context(
    universe: Universe, opted_in: dict[str, Callable[[], Dialect]] | None = None
) -> Context:
    """The outside compiler's context: its `toy`, the multiverse's dialects
    (xDSL's and xsparse's own), and any it opts into in place of xDSL's."""
    ctx = Context()
    ctx.load_dialect(Toy)
    for name, factory in {**universe.all_dialects, **(opted_in or {})}.items():
        ctx.register_dialect(name, factory)
    return ctx


def compile_program(
    program: str = PROGRAM, **opted_in: Callable[[], Dialect]
) -> ModuleOp:
    universe = Universe.get_multiverse()
    assert "sparse_tensor" in universe.all_dialects
    assert universe.all_passes["sparsification"]().__module__.startswith("xsparse.")
    ctx = outside_context(universe, opted_in)
    module = Parser(ctx, program).parse_module()
    module.verify()
    xsparse = PassPipeline.parse_spec(universe.all_passes, XSPARSE_PASSES)
    own: tuple[ModulePass, ...] = (LowerToyPass(),)
    PassPipeline(own + xsparse.passes).apply(ctx, module)
    return module


def test_outside_pass_then_xsparse_passes_from_the_plugin() -> None:
    module = compile_program()
    module.verify()
    names = {op.name for op in module.walk()}
    assert not {n for n in names if n.startswith(("toy.", "linalg.", "sparse_tensor."))}
    assert {"scf.for", "memref.load", "arith.mulf"} <= names


def test_a_compiler_may_opt_into_mlirs_spelling() -> None:
    """With xsparse's `linalg` (`dialect_registry.get_upstream_dialects()`)
    registered in its own context, the outside compiler reads the trait as
    an alias, as MLIR does; xDSL's own `linalg` does not."""
    alias = "#spmv = " + TRAIT + "\n" + PROGRAM.replace(TRAIT, "#spmv")
    with pytest.raises(ParseError, match="Expected indexing_maps"):
        compile_program(alias)
    module = compile_program(alias, linalg=get_upstream_dialects()["linalg"])
    assert "scf.for" in {op.name for op in module.walk()}


def test_the_result_runs_natively() -> None:
    kernel = jit.compile(lower_to_llvm(compile_program())).function("kernel")
    rng = np.random.default_rng(17)
    a = rng.standard_normal((23, 19)) * (rng.random((23, 19)) < 0.2)
    x = rng.standard_normal(19)
    y0 = rng.standard_normal(23)
    y = y0.copy()
    # After `sparse-tensor-codegen` the CSR argument is its positions,
    # coordinates, values and two sizes.
    rows, crd = (np.ascontiguousarray(i) for i in np.nonzero(a))
    pos = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=23))])
    kernel(pos, crd, a[rows, crd], 23, 19, x, y, 2.5)
    np.testing.assert_allclose(y, y0 + a @ (2.5 * x), rtol=1e-12)
