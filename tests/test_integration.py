"""The MLIR-style integration programs of tests/integration, run as a user runs
them: `xsparse-run FILE` prints exactly the program's CHECK lines and, where
MLIR 22's tools are installed, exactly what
`mlir-opt-22 --sparsifier FILE | mlir-runner-22 -e main -entry-point-result=void` prints."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROGRAMS = sorted((Path(__file__).parent / "integration").glob("*.mlir"))
MLIR_LIBS = Path("/usr/lib/llvm-22/lib")
CHECK = re.compile(r"^// CHECK(?:-NEXT)?: (.*)$")


def expected_output(program: Path) -> str:
    """The program's CHECK lines, which spell its whole output line by line."""
    lines = [
        m.group(1)
        for line in program.read_text().splitlines()
        if (m := CHECK.match(line))
    ]
    return "".join(f"{line}\n" for line in lines)


def xsparse_run(program: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "xsparse.tools.run", str(program)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def mlir_runner(program: Path, sparsifier: str = "--sparsifier") -> str:
    compiled = subprocess.run(
        ["mlir-opt-22", sparsifier, str(program)],
        capture_output=True,
        text=True,
        check=True,
    )
    libs = ",".join(
        str(MLIR_LIBS / f"lib{name}.so.22.1")
        for name in ("mlir_c_runner_utils", "mlir_runner_utils")
    )
    done = subprocess.run(
        [
            "mlir-runner-22",
            "-e",
            "main",
            "-entry-point-result=void",
            f"--shared-libs={libs}",
        ],
        input=compiled.stdout,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_prints_its_check_lines(program: Path) -> None:
    expected = expected_output(program)
    assert expected, f"{program.name} has no CHECK lines"
    assert xsparse_run(program) == expected


@pytest.mark.skipif(
    not (shutil.which("mlir-opt-22") and shutil.which("mlir-runner-22")),
    reason="MLIR 22's mlir-opt-22 and mlir-runner-22 are not installed",
)
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_prints_what_mlir_runner_prints(program: Path) -> None:
    assert xsparse_run(program) == mlir_runner(program)


DEALLOC_PROGRAM = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
func.func @main() {
  %d = arith.constant dense<[[1.0, 0.0], [0.0, 2.0]]> : tensor<2x2xf64>
  %a = sparse_tensor.convert %d : tensor<2x2xf64> to tensor<2x2xf64, #CSR>
  %b = sparse_tensor.convert %d : tensor<2x2xf64> to tensor<2x2xf64, #COO>
  %n = sparse_tensor.number_of_entries %b : tensor<2x2xf64, #COO>
  vector.print %n : index
  "bufferization.dealloc_tensor"(%a) : (tensor<2x2xf64, #CSR>) -> ()
  "bufferization.dealloc_tensor"(%b) : (tensor<2x2xf64, #COO>) -> ()
  return
}
"""


def test_dealloc_tensor_frees_every_buffer(capfd: pytest.CaptureFixture[str]) -> None:
    """`bufferization.dealloc_tensor` (generic form: xDSL 0.74 lacks the op)
    frees the positions, coordinates and values buffers of each tensor."""
    from xsparse.backend import jit
    from xsparse.backend.lowering import lower_to_llvm
    from xsparse.diagnostics import parse_module
    from xsparse.dialect_registry import make_context
    from xsparse.transforms.pipeline import sparsifier_passes

    ctx = make_context()
    ctx.allow_unregistered = True
    module = parse_module(ctx, DEALLOC_PROGRAM)
    for p in sparsifier_passes():
        p.apply(ctx, module)
    names = [op.name for op in module.walk()]
    assert names.count("memref.dealloc") == 3 + 4
    jit.compile(lower_to_llvm(module)).function("main")()
    assert capfd.readouterr().out == "2\n"
