"""`xdsl-opt` with xsparse installed (issue 38, item 3): our passes through the
`xdsl.universe` entry point, and nothing else changed.

- `xdsl-opt -p sparsifier` on each kernel of `tests/kernels` in xDSL's
  spelling (the trait inline, as `xsparse-opt` prints it: xDSL's own
  `linalg.generic` does not read a trait alias) prints what
  `xsparse-opt -p sparsifier` prints, with and without vectors and threads.
- `xdsl-opt` on the standard IR of `embedding_corpus` (no xsparse dialect)
  prints, and fails, byte for byte as with xsparse's entry point hidden (an
  xDSL environment without xsparse installed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
KERNELS = sorted((TESTS / "kernels").glob("*.mlir"))
CORPUS = sorted((TESTS / "embedding_corpus").glob("*.mlir"))
BIN = Path(sys.executable).parent

WITHOUT_XSPARSE = """
import importlib.metadata as metadata
import sys

found = metadata.entry_points


def entry_points(**selection):
    # xsparse's `xdsl.universe` entry point hidden: xDSL as without xsparse.
    points = found(**selection)
    if selection.get("group") == "xdsl.universe":
        return metadata.EntryPoints(p for p in points if p.name != "xsparse")
    return points


metadata.entry_points = entry_points
from xdsl.tools.xdsl_opt import main

sys.argv = ["xdsl-opt", *sys.argv[1:]]
main()
"""


def run(
    command: list[str], text: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, input=text, capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize(
    "options", ["", "{vl=8 parallelization-strategy=dense-outer-loop}"]
)
@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.stem)
def test_xdsl_opt_runs_the_sparsifier_from_the_plugin(kernel: Path, options: str):
    inline = run([str(BIN / "xsparse-opt"), str(kernel)])
    assert inline.returncode == 0, inline.stderr
    ours = run([str(BIN / "xsparse-opt"), str(kernel), "-p", f"sparsifier{options}"])
    assert ours.returncode == 0, ours.stderr
    theirs = run([str(BIN / "xdsl-opt"), "-p", f"sparsifier{options}"], inline.stdout)
    assert theirs.returncode == 0, theirs.stderr
    assert theirs.stdout == ours.stdout


@pytest.mark.parametrize("source", CORPUS, ids=lambda k: k.stem)
def test_xdsl_opt_on_standard_ir_is_unchanged(source: Path):
    # Each `// -----` part alone; its parse or verify error printed, not raised.
    flags = ["--split-input-file", "--parsing-diagnostics", "--verify-diagnostics"]
    with_xsparse = run([str(BIN / "xdsl-opt"), *flags, str(source)])
    without = run([sys.executable, "-c", WITHOUT_XSPARSE, *flags, str(source)])
    assert "xsparse" not in without.stderr + with_xsparse.stderr
    # xDSL's own crash (a `mod 0` map) is the same exception; the tracebacks
    # differ only by the entry script.
    assert (with_xsparse.returncode, with_xsparse.stdout) == (
        without.returncode,
        without.stdout,
    )
    assert last_line(with_xsparse.stderr) == last_line(without.stderr)


def last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else ""


CASTS = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @kernel(%a: tensor<?x?xf32, #CSR>, %x: tensor<?xi32>, %y: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%a, %x : tensor<?x?xf32, #CSR>, tensor<?xi32>) outs(%y : tensor<?xf64>) {
  ^bb0(%av: f32, %xv: i32, %yv: f64):
    %w = arith.extf %av : f32 to f64
    %xf = arith.sitofp %xv : i32 to f64
    %m = arith.mulf %w, %xf : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}
"""


@pytest.mark.parametrize("options", ["", "{vl=8}"])
def test_casts_parsed_as_xdsl_classes_vectorize(tmp_path: Path, options: str):
    """In `xdsl-opt` the body's casts are xDSL's classes; vectorized, they
    become xsparse's element-wise ones, as when `xsparse-opt` parsed them."""
    kernel = tmp_path / "casts.mlir"
    kernel.write_text(CASTS)
    ours = run([str(BIN / "xsparse-opt"), str(kernel), "-p", f"sparsifier{options}"])
    assert ours.returncode == 0, ours.stderr
    theirs = run([str(BIN / "xdsl-opt"), str(kernel), "-p", f"sparsifier{options}"])
    assert theirs.returncode == 0, theirs.stderr
    assert theirs.stdout == ours.stdout


def test_the_plugin_is_active_and_hidden_as_intended():
    """The two environments above differ exactly by xsparse's dialects."""
    sparse = "func.func @f(%t: tensor<4xf64, #sparse_tensor.encoding<{map = (i) -> (i : compressed)}>>) { func.return }\n"
    assert run([str(BIN / "xdsl-opt")], sparse).returncode == 0
    refused = run([sys.executable, "-c", WITHOUT_XSPARSE], sparse)
    assert refused.returncode != 0
    assert "sparse_tensor" in refused.stdout + refused.stderr
