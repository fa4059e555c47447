"""Sparse kernels on complex64 and complex128 (MLIR's `complex<f32>` and
`complex<f64>`), generated from seeded random sparse vectors and compared with
numpy: addition (a union), multiplication (an intersection), scaling by a
complex constant, abs, conj, exp (not zero-preserving: a dense result) and a
sum reduction. Each dtype's kernels form one MLIR program, run by
`xsparse-run` in a child process with a memory limit; the printed entries
(`sparse_tensor.print`, `vector.print`: six significant digits) are parsed
back and compared with numpy's results of the same inputs.

The Python API (`xsparse.compile`, `SparseTensor`, `einsum`) does not take
complex operands yet (issue 42): these kernels go through the MLIR tools.
"""

from __future__ import annotations

import re
import resource
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

SIZE = 12
MEMORY_LIMIT = 4 << 30
DTYPES = {"complex64": "f32", "complex128": "f64"}
SCALE = complex(0.5, -1.5)


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


@dataclass(frozen=True)
class Kernel:
    """One kernel: its linalg.generic body over `%x` (and `%y`), how many
    sparse vector operands it takes, whether its result is a float, and
    numpy's result."""

    body: str
    arity: int
    numpy: Callable[..., NDArray[np.complexfloating] | complex]
    real: bool = False


KERNELS: dict[str, Kernel] = {
    "add": Kernel("%r = complex.add %x, %y : C", 2, np.add),
    "mul": Kernel("%r = complex.mul %x, %y : C", 2, np.multiply),
    "scale": Kernel("%r = complex.mul %x, %s : C", 1, lambda a: a * SCALE),
    "abs": Kernel("%r = complex.abs %x : C", 1, np.abs, real=True),
    "conj": Kernel("%r = complex.conj %x : C", 1, np.conj),
    "exp": Kernel("%r = complex.exp %x : C", 1, np.exp),
    "sum": Kernel("%r = complex.add %o, %x : C", 1, np.sum),
}


def random_vector(seed: int) -> NDArray[np.complex128]:
    """About half the entries nonzero, parts with two decimals (exact in the
    MLIR text as in numpy)."""
    rng = np.random.default_rng(seed)
    values = np.round(rng.uniform(-3, 3, SIZE), 2) + 1j * np.round(
        rng.uniform(-3, 3, SIZE), 2
    )
    values[rng.random(SIZE) < 0.5] = 0
    return values


def _constant(name: str, v: NDArray[np.complex128], f: str) -> str:
    nonzero = np.flatnonzero(v)
    indices = ", ".join(f"[{i}]" for i in nonzero)
    values = ", ".join(f"({float(v[i].real)!r}, {float(v[i].imag)!r})" for i in nonzero)
    return (
        f"    %{name}d = arith.constant sparse<[{indices}], [{values}]> : "
        f"tensor<{SIZE}xcomplex<{f}>>\n"
        f"    %{name} = sparse_tensor.convert %{name}d : tensor<{SIZE}xcomplex<{f}>> "
        f"to tensor<{SIZE}xcomplex<{f}>, #SV>\n"
    )


def _kernel_function(name: str, kernel: Kernel, f: str) -> str:
    c = f"complex<{f}>"
    sv = f"tensor<{SIZE}x{c}, #SV>"
    args = ", ".join(f"%{a}: {sv}" for a in "ab"[: kernel.arity])
    ins = ", ".join(f"%{a}" for a in "ab"[: kernel.arity])
    block = ", ".join(f"%{v}: {c}" for v in "xy"[: kernel.arity])
    body = kernel.body.replace(" C", f" {c}")
    scale = (
        f"    %s = complex.constant [{SCALE.real} : {f}, {SCALE.imag} : {f}] : {c}\n"
    )
    if name == "sum":
        maps = "affine_map<(i) -> (i)>, affine_map<(i) -> ()>"
        out_type, out_elt, iterator = f"tensor<{c}>", c, "reduction"
        init = (
            f"    %z = complex.constant [0.0 : {f}, 0.0 : {f}] : {c}\n"
            f"    %e = tensor.from_elements %z : {out_type}\n"
        )
    else:
        maps = ", ".join(["affine_map<(i) -> (i)>"] * (kernel.arity + 1))
        out_elt = f if kernel.real else c
        dense = name == "exp"  # exp(0) = 1: every entry is stored
        out_type = f"tensor<{SIZE}x{out_elt}{'' if dense else ', #SV'}>"
        iterator = "parallel"
        init = f"    %e = tensor.empty() : {out_type}\n"
    return (
        f"  func.func @kernel_{name}({args}) -> {out_type} {{\n{scale}{init}"
        f"    %0 = linalg.generic {{indexing_maps = [{maps}], "
        f'iterator_types = ["{iterator}"]}} ins({ins} : '
        f"{', '.join([sv] * kernel.arity)}) outs(%e : {out_type}) {{\n"
        f"    ^bb0({block}, %o: {out_elt}):\n      {body}\n"
        f"      linalg.yield %r : {out_elt}\n    }} -> {out_type}\n"
        f"    return %0 : {out_type}\n  }}\n"
    )


def _call_and_print(name: str, kernel: Kernel, f: str) -> str:
    c = f"complex<{f}>"
    sv = f"tensor<{SIZE}x{c}, #SV>"
    ins = ", ".join(f"%{a}" for a in "ab"[: kernel.arity])
    marker = f'    vector.print str "{name}\\n"\n'
    if name == "sum":
        return (
            f"{marker}    %{name}_t = call @kernel_{name}({ins}) : ({sv}) -> tensor<{c}>\n"
            f"    %{name}_v = tensor.extract %{name}_t[] : tensor<{c}>\n"
            f"    %{name}_re = complex.re %{name}_v : {c}\n"
            f"    %{name}_im = complex.im %{name}_v : {c}\n"
            f"    vector.print %{name}_re : {f}\n    vector.print %{name}_im : {f}\n"
        )
    out_elt = f if kernel.real else c
    out = f"tensor<{SIZE}x{out_elt}, #SV>"
    types = ", ".join([sv] * kernel.arity)
    if name == "exp":
        dense = f"tensor<{SIZE}x{c}>"
        return (
            f"{marker}    %{name}_d = call @kernel_{name}({ins}) : ({types}) -> {dense}\n"
            f"    %{name}_s = sparse_tensor.convert %{name}_d : {dense} to {out}\n"
            f"    sparse_tensor.print %{name}_s : {out}\n"
        )
    return (
        f"{marker}    %{name}_s = call @kernel_{name}({ins}) : ({types}) -> {out}\n"
        f"    sparse_tensor.print %{name}_s : {out}\n"
    )


def program(f: str, a: NDArray[np.complex128], b: NDArray[np.complex128]) -> str:
    """Every kernel of KERNELS on `a` (and `b`) in element type `f`, each
    result printed after a line with the kernel's name."""
    functions = "".join(_kernel_function(n, k, f) for n, k in KERNELS.items())
    calls = "".join(_call_and_print(n, k, f) for n, k in KERNELS.items())
    return (
        "#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>\n"
        f"module {{\n{functions}  func.func @main() {{\n"
        f"{_constant('a', a, f)}{_constant('b', b, f)}{calls}    return\n  }}\n}}\n"
    )


NUMBER = re.compile(r"-?(?:inf|nan|\d+(?:\.\d*)?(?:e[-+]?\d+)?)")


def _numbers(line: str) -> list[float]:
    return [float(x) for x in NUMBER.findall(line.split(":", 1)[1])]


def parse_results(text: str) -> dict[str, NDArray[np.complex128] | complex]:
    """Each kernel's printed result as a dense numpy vector (or a scalar)."""
    results: dict[str, NDArray[np.complex128] | complex] = {}
    for section in re.split(r"^(?=\w+$)", text, flags=re.MULTILINE):
        name, _, rest = section.partition("\n")
        if name not in KERNELS:
            continue
        lines = rest.splitlines()
        if name == "sum":
            results[name] = complex(float(lines[0]), float(lines[1]))
            continue
        crd = next(x for x in lines if x.startswith("crd[0]"))
        values = _numbers(next(x for x in lines if x.startswith("values")))
        dense = np.zeros(SIZE, np.complex128)
        coordinates = [int(c) for c in _numbers(crd)]
        if KERNELS[name].real:
            dense[coordinates] = values
        else:
            dense[coordinates] = np.array(values[0::2]) + 1j * np.array(values[1::2])
        results[name] = dense
    return results


@cache
def run(dtype: str, tmp: Path) -> dict[str, NDArray[np.complex128] | complex]:
    """xsparse-run of the program of `dtype`'s kernels, parsed."""
    a, b = random_vector(1), random_vector(2)
    path = tmp / f"complex_kernels_{dtype}.mlir"
    path.write_text(program(DTYPES[dtype], a, b))
    done = subprocess.run(
        [sys.executable, "-m", "xsparse.tools.run", str(path)],
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=_limit_memory,
    )
    assert done.returncode == 0, done.stderr
    return parse_results(done.stdout)


@pytest.fixture(scope="module")
def tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("complex")


def test_program_prints_every_kernel(tmp: Path) -> None:
    text = program("f64", random_vector(1), random_vector(2))
    assert all(f"@kernel_{name}(" in text for name in KERNELS)
    assert text.count("linalg.generic") == len(KERNELS)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", KERNELS)
def test_complex_kernel_matches_numpy(dtype: str, name: str, tmp: Path) -> None:
    numpy_dtype = np.dtype(dtype)
    a = random_vector(1).astype(numpy_dtype)
    b = random_vector(2).astype(numpy_dtype)
    kernel = KERNELS[name]
    want = kernel.numpy(*(a, b)[: kernel.arity])
    got = run(dtype, tmp)[name]
    # six printed significant digits; f32 arithmetic for complex64
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-5)
    if name not in ("exp", "sum"):
        # zero-preserving kernels store no entry where numpy's result is 0
        assert np.count_nonzero(got) == np.count_nonzero(want)
