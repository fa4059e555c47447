"""`printMemref*` (MLIR's mlir_runner_utils) under `xsparse-run`: the exact text
mlir-runner prints, for each rank, element type, strided views and empty
memrefs; where MLIR 22's tools are installed, also against mlir-runner itself.
Addresses are masked (`base@ = ADDR`)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import llvmlite.binding as llvm
import pytest
from test_integration import mlir_runner

from xsparse.backend.runtime import RUNTIME_SYMBOLS, runtime_ir

ADDRESS = re.compile(r"base@ = (0x[0-9a-f]+|0)")

DECLARATIONS = """
  func.func private @printMemrefF64(memref<*xf64>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefI8(memref<*xi8>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefInd(memref<*xindex>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefShapeF32(memref<*xf32>) attributes { llvm.emit_c_interface }
  func.func private @printMemref1dF64(memref<?xf64>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefI64(memref<*xi64>)
"""


def program(body: str) -> str:
    """A module whose `@main` runs `body` (with %c0..%c3 and the print functions)."""
    return f"""module {{{DECLARATIONS}
  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
{textwrap.indent(textwrap.dedent(body), "    ")}
    return
  }}
}}
"""


def mask(text: str) -> str:
    return ADDRESS.sub("base@ = ADDR", text)


def xsparse_run(source: str, tmp_path: Path) -> str:
    path = tmp_path / "program.mlir"
    path.write_text(source)
    done = subprocess.run(
        [sys.executable, "-m", "xsparse.tools.run", str(path)],
        capture_output=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode("latin-1")


FILL_2X3 = """
%m = memref.alloc() : memref<2x3xf64>
scf.for %i = %c0 to %c2 step %c1 {
  scf.for %j = %c0 to %c3 step %c1 {
    %a = arith.muli %i, %c3 : index
    %b = arith.addi %a, %j : index
    %n = arith.index_cast %b : index to i64
    %f = arith.sitofp %n : i64 to f64
    %g = arith.constant 0.5 : f64
    %h = arith.subf %f, %g : f64
    memref.store %h, %m[%i, %j] : memref<2x3xf64>
  }
}
"""

CASES: dict[str, tuple[str, str]] = {
    "rank2_f64": (
        FILL_2X3
        + """
%u = memref.cast %m : memref<2x3xf64> to memref<*xf64>
call @printMemrefF64(%u) : (memref<*xf64>) -> ()
""",
        "Unranked Memref base@ = ADDR rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data = \n"
        "[[-0.5,   0.5,   1.5], \n"
        " [2.5,   3.5,   4.5]]\n",
    ),
    "rank0_and_strided_views": (
        FILL_2X3
        + """
%p = memref.subview %m[1, 2] [1, 1] [1, 1] : memref<2x3xf64> to memref<f64, strided<[], offset: 5>>
%up = memref.cast %p : memref<f64, strided<[], offset: 5>> to memref<*xf64>
call @printMemrefF64(%up) : (memref<*xf64>) -> ()
%c = memref.subview %m[0, 1] [2, 1] [1, 1] : memref<2x3xf64> to memref<2xf64, strided<[3], offset: 1>>
%uc = memref.cast %c : memref<2xf64, strided<[3], offset: 1>> to memref<*xf64>
call @printMemrefF64(%uc) : (memref<*xf64>) -> ()
%s = memref.subview %m[0, 0] [2, 2] [1, 2] : memref<2x3xf64> to memref<2x2xf64, strided<[3, 2]>>
%us = memref.cast %s : memref<2x2xf64, strided<[3, 2]>> to memref<*xf64>
call @printMemrefF64(%us) : (memref<*xf64>) -> ()
""",
        "Unranked Memref base@ = ADDR rank = 0 offset = 5 sizes = [] strides = [] data = \n"
        "[4.5]\n"
        "Unranked Memref base@ = ADDR rank = 1 offset = 1 sizes = [2] strides = [3] data = \n"
        "[0.5,  3.5]\n"
        "Unranked Memref base@ = ADDR rank = 2 offset = 0 sizes = [2, 2] strides = [3, 2] data = \n"
        "[[-0.5,   1.5], \n"
        " [2.5,   4.5]]\n",
    ),
    "empty": (
        FILL_2X3
        + """
%e = memref.subview %m[1, 1] [1, 0] [1, 1] : memref<2x3xf64> to memref<0xf64, strided<[1], offset: 4>>
%ue = memref.cast %e : memref<0xf64, strided<[1], offset: 4>> to memref<*xf64>
call @printMemrefF64(%ue) : (memref<*xf64>) -> ()
%z = memref.alloc() : memref<0x4xf32>
%uz = memref.cast %z : memref<0x4xf32> to memref<*xf32>
call @printMemrefShapeF32(%uz) : (memref<*xf32>) -> ()
""",
        # MLIR's printer shows the first element of an empty dimension
        "Unranked Memref base@ = ADDR rank = 1 offset = 4 sizes = [0] strides = [1] data = \n"
        "[3.5]\n"
        "Unranked Memref base@ = ADDR rank = 2 offset = 0 sizes = [0, 4] strides = [4, 1]\n",
    ),
    "rank3_f32": (
        """
%t = memref.alloc() : memref<2x1x2xf32>
%one = arith.constant 1.0e-5 : f32
linalg.fill ins(%one : f32) outs(%t : memref<2x1x2xf32>)
%inf = arith.constant 0xFF800000 : f32
memref.store %inf, %t[%c1, %c0, %c1] : memref<2x1x2xf32>
%u = memref.cast %t : memref<2x1x2xf32> to memref<*xf32>
call @printMemrefF32(%u) : (memref<*xf32>) -> ()
""",
        "Unranked Memref base@ = ADDR rank = 3 offset = 0 sizes = [2, 1, 2] strides = [2, 2, 1] data = \n"
        "[[[1e-05,    1e-05]], \n"
        " [[1e-05,    -inf]]]\n",
    ),
    "integers": (
        """
%a = memref.alloc() : memref<3xi32>
%b = memref.alloc() : memref<3xi64>
%x = memref.alloc() : memref<3xindex>
%s = memref.alloc() : memref<3xi8>
scf.for %i = %c0 to %c3 step %c1 {
  %n = arith.index_cast %i : index to i64
  %k = arith.constant -3000000000 : i64
  %v = arith.muli %n, %k : i64
  memref.store %v, %b[%i] : memref<3xi64>
  %w = arith.trunci %v : i64 to i32
  memref.store %w, %a[%i] : memref<3xi32>
  %y = arith.subi %i, %c1 : index
  memref.store %y, %x[%i] : memref<3xindex>
  %ch = arith.constant 120 : i8
  %d = arith.trunci %n : i64 to i8
  %e = arith.addi %ch, %d : i8
  memref.store %e, %s[%i] : memref<3xi8>
}
%ua = memref.cast %a : memref<3xi32> to memref<*xi32>
call @printMemrefI32(%ua) : (memref<*xi32>) -> ()
%ub = memref.cast %b : memref<3xi64> to memref<*xi64>
call @printMemrefI64(%ub) : (memref<*xi64>) -> ()
%ux = memref.cast %x : memref<3xindex> to memref<*xindex>
call @printMemrefInd(%ux) : (memref<*xindex>) -> ()
%us = memref.cast %s : memref<3xi8> to memref<*xi8>
call @printMemrefI8(%us) : (memref<*xi8>) -> ()
memref.dealloc %ua : memref<*xi32>
""",
        "Unranked Memref base@ = ADDR rank = 1 offset = 0 sizes = [3] strides = [1] data = \n"
        "[0,  1294967296,  -1705032704]\n"
        "Unranked Memref base@ = ADDR rank = 1 offset = 0 sizes = [3] strides = [1] data = \n"
        "[0,  -3000000000,  -6000000000]\n"
        "Unranked Memref base@ = ADDR rank = 1 offset = 0 sizes = [3] strides = [1] data = \n"
        "[18446744073709551615,  0,  1]\n"
        "Unranked Memref base@ = ADDR rank = 1 offset = 0 sizes = [3] strides = [1] data = \n"
        "[x,  y,  z]\n",
    ),
    "ranked_and_back": (
        FILL_2X3
        + """
%u = memref.cast %m : memref<2x3xf64> to memref<*xf64>
%r = memref.cast %u : memref<*xf64> to memref<?x?xf64>
%v = memref.alloc(%c2) : memref<?xf64>
scf.for %i = %c0 to %c2 step %c1 {
  %x = memref.load %r[%c1, %i] : memref<?x?xf64>
  memref.store %x, %v[%i] : memref<?xf64>
}
call @printMemref1dF64(%v) : (memref<?xf64>) -> ()
""",
        "Memref base@ = ADDR rank = 1 offset = 0 sizes = [2] strides = [1] data = \n"
        "[2.5,  3.5]\n",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_print_memref(name: str, tmp_path: Path) -> None:
    body, expected = CASES[name]
    assert mask(xsparse_run(program(body), tmp_path)) == expected


@pytest.mark.skipif(
    shutil.which("mlir-runner-22") is None or shutil.which("mlir-opt-22") is None,
    reason="MLIR 22's tools are not installed",
)
@pytest.mark.parametrize("name", sorted(CASES))
def test_print_memref_as_mlir_runner(name: str, tmp_path: Path) -> None:
    source = program(CASES[name][0])
    path = tmp_path / "reference.mlir"
    path.write_text(source)
    assert mask(xsparse_run(source, tmp_path)) == mask(mlir_runner(path))


SPARSE_RESULT = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#rowsum = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
  iterator_types = ["parallel", "reduction"]
}
module {
  func.func private @printMemrefF64(memref<*xf64>) attributes { llvm.emit_c_interface }
  func.func @rowsum(%a: tensor<3x3xf64, #CSR>, %z: tensor<3xf64>) -> tensor<3xf64> {
    KERNEL
    return %r : tensor<3xf64>
  }
  func.func @main() {
    %d = arith.constant dense<[[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [0.0, 3.5, 4.0]]> : tensor<3x3xf64>
    %a = sparse_tensor.convert %d : tensor<3x3xf64> to tensor<3x3xf64, #CSR>
    OUTS
    RESULT
    %m = bufferization.to_buffer %r : tensor<3xf64> to memref<3xf64>
    %u = memref.cast %m : memref<3xf64> to memref<*xf64>
    call @printMemrefF64(%u) : (memref<*xf64>) -> ()
    bufferization.dealloc_tensor %a : tensor<3x3xf64, #CSR>
    return
  }
}
"""
KERNEL = """%r = linalg.generic #rowsum ins(%a : tensor<3x3xf64, #CSR>) outs(%z : tensor<3xf64>) {
    ^bb0(%x: f64, %acc: f64):
      %s = arith.addf %x, %acc : f64
      linalg.yield %s : f64
    } -> tensor<3xf64>"""
CALL = "%r = call @rowsum(%a, %z) : (tensor<3x3xf64, #CSR>, tensor<3xf64>) -> tensor<3xf64>"
CONSTANT_OUTS = "%z = arith.constant dense<0.0> : tensor<3xf64>"
FILLED_OUTS = """%e = tensor.empty() : tensor<3xf64>
    %f = arith.constant 0.0 : f64
    %z = linalg.fill ins(%f : f64) outs(%e : tensor<3xf64>) -> tensor<3xf64>"""


@pytest.mark.parametrize(
    ("outs", "inline"),
    [
        pytest.param(CONSTANT_OUTS, False, id="kernel-in-function"),
        pytest.param(CONSTANT_OUTS, True, id="kernel-in-main-constant-outs"),
        pytest.param(FILLED_OUTS, True, id="kernel-in-main-filled-empty-outs"),
    ],
)
def test_sparse_kernel_result(outs: str, inline: bool, tmp_path: Path) -> None:
    """The dense result of a sparse kernel, bufferized by the sparsifier, printed
    through `bufferization.to_buffer`, as MLIR's sparse integration tests do."""
    source = (
        SPARSE_RESULT.replace("OUTS", outs)
        .replace("KERNEL", KERNEL)
        .replace("RESULT", KERNEL if inline else CALL)
    )
    assert mask(xsparse_run(source, tmp_path)) == (
        "Unranked Memref base@ = ADDR rank = 1 offset = 0 sizes = [3] strides = [1] data = \n"
        "[3,  0,  7.5]\n"
    )


def test_runtime_ir_brings_helpers_once() -> None:
    """Each public printer comes with the helpers it calls, and verifies in LLVM."""
    printers = [s for s in RUNTIME_SYMBOLS if "printMemref" in s]
    ir = runtime_ir(printers, declared_in="")
    module = llvm.parse_assembly(ir)
    module.verify()
    defined = re.findall(r"^define [^@\n]*@([\w.]+)\(", ir, re.MULTILINE)
    assert len(defined) == len(set(defined))
    assert set(printers) <= set(defined)


def test_runtime_ir_leaves_module_definitions() -> None:
    """A wrapper the module defines itself (`llvm.emit_c_interface`) is not redefined."""
    module_ir = (
        "define internal void @printMemrefF64(i64 %r, ptr %d) {\n  ret void\n}\n"
    )
    ir = runtime_ir(
        ["printMemrefF64", "_mlir_ciface_printMemrefF64"], declared_in=module_ir
    )
    assert "@printMemrefF64(" not in ir
    assert "define internal void @_mlir_ciface_printMemrefF64(" in ir
