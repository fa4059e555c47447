"""Dense tensor ops around the sparsifier, run through `xsparse-opt
--sparsifier | xsparse-run` on generated cases and compared with numpy:
reshapes of dense tensors, dense tensors carried by `scf.for`, arith and
math ops on whole tensors, libm math on vectors.

Each program runs in a child process whose address space is limited."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

LIMIT = 4 << 30
NUMBER = re.compile(r"-?(?:inf|nan|\d+(?:\.\d*)?(?:e[-+]?\d+)?)")

CHILD = f"""
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({LIMIT}, {LIMIT}))
from xsparse.tools import opt, run
tool = opt if sys.argv[1] == "opt" else run
sys.argv = ["xsparse-" + sys.argv[1], *sys.argv[2:]]
sys.exit(tool.main())
"""


def child(tool: str, *args: str) -> str:
    """The output of `xsparse-<tool> args` run in a child process."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, tool, *args],
        capture_output=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


def run_program(source: str, tmp_path: Path, sparsifier: str = "") -> list[float]:
    """Every number `source`'s `@main` prints, compiled by `xsparse-opt
    --sparsifier=<sparsifier>` and run by `xsparse-run`."""
    path = tmp_path / "program.mlir"
    path.write_text(source)
    lowered = tmp_path / "lowered.mlir"
    child("opt", f"--sparsifier={sparsifier}", str(path), "-o", str(lowered))
    printed = child("run", "-e", "main", "-entry-point-result=void", str(lowered))
    return [float(x) for x in NUMBER.findall(printed)]


def dense_literal(a: NDArray[np.float64]) -> str:
    return f"dense<{np.array2string(a, separator=', ', threshold=1 << 20)}>"


def tensor_type(shape: tuple[int, ...], static: bool = True) -> str:
    dims = "x".join(str(n) if static else "?" for n in shape)
    return f"tensor<{dims}xf64>"


def print_elements(value: str, shape: tuple[int, ...], static: bool) -> str:
    """A loop nest printing every element of `value` in row-major order."""
    t = tensor_type(shape, static)
    p = value.lstrip("%")
    lines: list[str] = []
    for d, n in enumerate(shape):
        lines.append(f"%{p}_n{d} = arith.constant {n} : index")
    for d in range(len(shape)):
        lines.append(f"scf.for %{p}_i{d} = %c0 to %{p}_n{d} step %c1 {{")
    indices = ", ".join(f"%{p}_i{d}" for d in range(len(shape)))
    lines.append(f"%x = tensor.extract {value}[{indices}] : {t}")
    lines.append("vector.print %x : f64")
    lines += ["}"] * len(shape)
    return "\n".join(lines)


def reshape_cases(
    seed: int,
) -> tuple[tuple[int, ...], list[list[int]], tuple[int, ...]]:
    """A fine shape, its grouping and the coarse shape it collapses into."""
    rng = np.random.default_rng(seed)
    fine = tuple(int(n) for n in rng.integers(1, 4, size=int(rng.integers(2, 5))))
    groups: list[list[int]] = []
    d = 0
    while d < len(fine):
        width = int(rng.integers(1, len(fine) - d + 1))
        groups.append(list(range(d, d + width)))
        d += width
    coarse = tuple(int(np.prod([fine[i] for i in g])) for g in groups)
    return fine, groups, coarse


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind", ["collapse", "expand"])
def test_dense_reshape_matches_numpy(kind: str, seed: int, tmp_path: Path) -> None:
    fine, groups, coarse = reshape_cases(seed)
    source_shape, result_shape = (
        (fine, coarse) if kind == "collapse" else (coarse, fine)
    )
    static = seed % 2 == 0
    a = np.random.default_rng(seed).integers(-9, 9, size=source_shape) / 4.0
    src_t, res_t = tensor_type(source_shape, static), tensor_type(result_shape, static)
    groups_text = str(groups)
    if kind == "collapse":
        reshape = f"tensor.collapse_shape %a {groups_text} : {src_t} into {res_t}"
        extra = ""
    else:
        sizes = ", ".join(
            str(n) if static else f"%s{d}" for d, n in enumerate(result_shape)
        )
        extra = "\n".join(
            f"%s{d} = arith.constant {n} : index" for d, n in enumerate(result_shape)
        )
        reshape = (
            f"tensor.expand_shape %a {groups_text} output_shape [{sizes}] "
            f": {src_t} into {res_t}"
        )
    source = f"""
func.func @reshape(%a: {src_t}) -> {res_t} {{
  {extra}
  %b = {reshape}
  return %b : {res_t}
}}
func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant {dense_literal(a)} : {tensor_type(source_shape)}
  %a = tensor.cast %k : {tensor_type(source_shape)} to {src_t}
  %b = call @reshape(%a) : ({src_t}) -> {res_t}
  {print_elements("%b", result_shape, static)}
  return
}}
"""
    printed = run_program(source, tmp_path)
    np.testing.assert_array_equal(printed, a.reshape(result_shape).ravel())


@pytest.mark.parametrize("seed", range(4))
def test_dense_tensor_carried_by_for_matches_numpy(seed: int, tmp_path: Path) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 9))
    steps = int(rng.integers(0, 2 * n))
    stride = int(rng.integers(1, n))
    a = rng.integers(-9, 9, size=n) / 2.0
    source = f"""
func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {n} : index
  %steps = arith.constant {steps} : index
  %stride = arith.constant {stride} : index
  %a = arith.constant {dense_literal(a)} : tensor<{n}xf64>
  %r = scf.for %i = %c0 to %steps step %c1 iter_args(%t = %a) -> tensor<{n}xf64> {{
    %m = arith.muli %i, %stride : index
    %p = arith.remui %m, %n : index
    %old = tensor.extract %t[%p] : tensor<{n}xf64>
    %w = arith.index_cast %i : index to i64
    %f = arith.sitofp %w : i64 to f64
    %new = arith.addf %old, %f : f64
    %u = tensor.insert %new into %t[%p] : tensor<{n}xf64>
    scf.yield %u : tensor<{n}xf64>
  }}
  {print_elements("%r", (n,), True)}
  {print_elements("%a", (n,), True)}
  return
}}
"""
    expected = a.copy()
    for i in range(steps):
        expected[i * stride % n] += i
    printed = run_program(source, tmp_path)
    np.testing.assert_array_equal(printed, [*expected, *a])


BINARY = {
    "arith.addf": np.add,
    "arith.subf": np.subtract,
    "arith.mulf": np.multiply,
    "arith.maximumf": np.maximum,
    "arith.minimumf": np.minimum,
}
UNARY = {
    "math.tanh": np.tanh,
    "arith.negf": np.negative,
    "math.absf": np.abs,
}


@pytest.mark.parametrize("seed", range(6))
def test_elementwise_tensor_arith_matches_numpy(seed: int, tmp_path: Path) -> None:
    """A random chain of arith/math ops on whole tensors (lowered by
    convert-elementwise-to-linalg), a comparison and select, and a cast."""
    rng = np.random.default_rng(seed)
    shape = tuple(int(n) for n in rng.integers(1, 5, size=int(rng.integers(1, 3))))
    t = tensor_type(shape)
    values = {
        "%a": rng.integers(-8, 8, size=shape) / 4.0,
        "%b": rng.integers(-8, 8, size=shape) / 4.0,
    }
    lines = [
        f"%a = arith.constant {dense_literal(values['%a'])} : {t}",
        f"%b = arith.constant {dense_literal(values['%b'])} : {t}",
    ]
    for k in range(4):
        name, names = f"%r{k}", list(values)
        if rng.integers(2):
            op = str(rng.choice(list(BINARY)))
            x, y = (str(v) for v in rng.choice(names, size=2))
            lines.append(f"{name} = {op} {x}, {y} : {t}")
            values[name] = BINARY[op](values[x], values[y])
        else:
            op = str(rng.choice(list(UNARY)))
            x = str(rng.choice(names))
            lines.append(f"{name} = {op} {x} : {t}")
            values[name] = UNARY[op](values[x])
    last = "%r3"
    i1 = t.replace("f64", "i1")
    i32 = t.replace("f64", "i32")
    lines += [
        f"%less = arith.cmpf olt, {last}, %a : {t}",
        f"%pick = arith.select %less, {last}, %a : {i1}, {t}",
        f"%scaled = arith.mulf %pick, %pick : {t}",
        f"%int = arith.fptosi %scaled : {t} to {i32}",
        f"%back = arith.sitofp %int : {i32} to {t}",
    ]
    pick = np.where(values[last] < values["%a"], values[last], values["%a"])
    back = np.trunc(pick * pick)
    source = f"""
func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  {chr(10).join(lines)}
  {print_elements(last, shape, True)}
  {print_elements("%back", shape, True)}
  return
}}
"""
    printed = run_program(source, tmp_path)
    n = int(np.prod(shape))
    np.testing.assert_allclose(printed[:n], values[last].ravel(), rtol=1e-5)
    np.testing.assert_array_equal(printed[n:], back.ravel())


@pytest.mark.parametrize("vl", [2, 4, 8])
def test_tanh_on_vectors_matches_numpy(vl: int, tmp_path: Path) -> None:
    """tanh of a sparse vector's stored values, vectorized by vl lanes (libm
    once per lane), with a remainder that fills no whole vector."""
    rng = np.random.default_rng(vl)
    n = 4 * vl + 3
    a = np.where(rng.random(n) < 0.7, rng.normal(0.0, 2.0, n), 0.0)
    source = f"""
#SV = #sparse_tensor.encoding<{{ map = (i) -> (i : compressed) }}>
#trait = {{
  indexing_maps = [affine_map<(i) -> (i)>],
  iterator_types = ["parallel"]
}}
func.func @kernel(%x: tensor<{n}xf64, #SV>) -> tensor<{n}xf64, #SV> {{
  %0 = linalg.generic #trait outs(%x : tensor<{n}xf64, #SV>) {{
  ^bb0(%v: f64):
    %t = math.tanh %v : f64
    linalg.yield %t : f64
  }} -> tensor<{n}xf64, #SV>
  return %0 : tensor<{n}xf64, #SV>
}}
func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d = arith.constant {dense_literal(a)} : tensor<{n}xf64>
  %s = sparse_tensor.convert %d : tensor<{n}xf64> to tensor<{n}xf64, #SV>
  %r = call @kernel(%s) : (tensor<{n}xf64, #SV>) -> tensor<{n}xf64, #SV>
  %dense = sparse_tensor.convert %r : tensor<{n}xf64, #SV> to tensor<{n}xf64>
  {print_elements("%dense", (n,), True)}
  return
}}
"""
    printed = run_program(source, tmp_path, f"vl={vl} enable-runtime-library=false")
    np.testing.assert_allclose(printed, np.tanh(a), rtol=1e-5, atol=1e-6)


def int_literal(a: NDArray[np.int64]) -> str:
    return f"dense<{np.array2string(a, separator=', ', threshold=1 << 20)}>"


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("sparse", ["a", "b", "both"])
def test_quantized_matmul_with_sparse_operands_matches_numpy(
    sparse: str, seed: int, tmp_path: Path
) -> None:
    """`linalg.quantized_matmul` (generalized with its zero points, which are
    read as invariants) with sparse int8 operands, into an int32 output."""
    rng = np.random.default_rng(seed)
    m, k, n = (int(x) for x in rng.integers(1, 6, size=3))
    a = np.where(rng.random((m, k)) < 0.5, rng.integers(-128, 128, (m, k)), 0)
    b = np.where(rng.random((k, n)) < 0.5, rng.integers(-128, 128, (k, n)), 0)
    c = rng.integers(-1000, 1000, (m, n))
    az, bz = (int(x) for x in rng.integers(-3, 4, size=2))
    enc = {
        "a": "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>",
        "b": "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>",
    }
    types = {
        x: f"tensor<{shape}xi8{', ' + enc[x] if sparse in (x, 'both') else ''}>"
        for x, shape in (("a", f"{m}x{k}"), ("b", f"{k}x{n}"))
    }
    converts = "\n".join(
        f"%s{x} = sparse_tensor.convert %d{x} : tensor<{shape}xi8> to {types[x]}"
        if sparse in (x, "both")
        else f"%s{x} = arith.addi %d{x}, %d{x}_zero : tensor<{shape}xi8>"
        for x, shape in (("a", f"{m}x{k}"), ("b", f"{k}x{n}"))
    )
    source = f"""
func.func @qmm(%a: {types["a"]}, %b: {types["b"]}, %c: tensor<{m}x{n}xi32>) -> tensor<{m}x{n}xi32> {{
  %az = arith.constant {az} : i32
  %bz = arith.constant {bz} : i32
  %0 = linalg.quantized_matmul ins(%a, %b, %az, %bz : {types["a"]}, {types["b"]}, i32, i32)
    outs(%c : tensor<{m}x{n}xi32>) -> tensor<{m}x{n}xi32>
  return %0 : tensor<{m}x{n}xi32>
}}
func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %da = arith.constant {int_literal(a)} : tensor<{m}x{k}xi8>
  %db = arith.constant {int_literal(b)} : tensor<{k}x{n}xi8>
  %da_zero = arith.constant dense<0> : tensor<{m}x{k}xi8>
  %db_zero = arith.constant dense<0> : tensor<{k}x{n}xi8>
  %c = arith.constant {int_literal(c)} : tensor<{m}x{n}xi32>
  {converts}
  %r = call @qmm(%sa, %sb, %c) : ({types["a"]}, {types["b"]}, tensor<{m}x{n}xi32>) -> tensor<{m}x{n}xi32>
  {print_elements("%r", (m, n), True).replace("xf64", "xi32").replace(": f64", ": i32")}
  return
}}
"""
    expected = (a - az) @ (b - bz) + c
    printed = run_program(source, tmp_path, "enable-runtime-library=false")
    np.testing.assert_array_equal(printed, expected.ravel())
