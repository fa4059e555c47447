"""Integer division and remainder by 0, and signed INT_MIN by -1, give numpy's
values (0; INT_MIN / -1 wraps to INT_MIN, INT_MIN % -1 is 0) without a trap.

MLIR's arith leaves these undefined and x86's `div`/`idiv` raise SIGFPE;
xsparse defines them as numpy does (`convert_to_llvm/arith.py`), for every
integer width and index, in scalar code, in the vector loops of
`sparse-vectorization` and in parallel loops on the thread pool. Each check
runs in a child process under an address-space limit: a trap kills the child,
not the test run.
"""

from __future__ import annotations

import re
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

Array = np.ndarray[Any, Any]
Division = Callable[[Array, Array], Array]

CHILD_MEMORY = 4 << 30
"""RLIMIT_AS of a child process (bytes)."""


def _floor_rem(a: Array, b: Array) -> tuple[Array, Array]:
    """numpy's `a // b`, `a % b` (0 by 0; INT_MIN // -1 is INT_MIN), silenced."""
    with np.errstate(all="ignore"):
        return np.floor_divide(a, b), np.remainder(a, b)


def _trunc_div(a: Array, b: Array) -> Array:
    """`arith.divsi`: the quotient rounded toward zero."""
    quotient, remainder = _floor_rem(a, b)
    return np.where((remainder != 0) & ((a < 0) != (b < 0)), quotient + 1, quotient)


def _ceil_div(a: Array, b: Array) -> Array:
    """`arith.ceildivsi`/`ceildivui`: the quotient rounded toward +inf."""
    quotient, remainder = _floor_rem(a, b)
    return np.where(remainder != 0, quotient + 1, quotient)


def _fmod(a: Array, b: Array) -> Array:
    """`arith.remsi`: the remainder with the dividend's sign."""
    with np.errstate(all="ignore"):
        return np.fmod(a, b)


def _unsigned(f: Division) -> Division:
    """`f` on the operands' bits read as unsigned, its result's as signed."""

    def unsigned(a: Array, b: Array) -> Array:
        kind = np.dtype(f"u{a.dtype.itemsize}")
        return f(a.view(kind), b.view(kind)).astype(kind).view(a.dtype)

    return unsigned


NUMPY_DIVISIONS: dict[str, Division] = {
    "divsi": _trunc_div,
    "remsi": _fmod,
    "floordivsi": lambda a, b: _floor_rem(a, b)[0],
    "ceildivsi": _ceil_div,
    "divui": _unsigned(lambda a, b: _floor_rem(a, b)[0]),
    "remui": _unsigned(lambda a, b: _floor_rem(a, b)[1]),
    "ceildivui": _unsigned(_ceil_div),
}
"""Each arith op as numpy computes it, numpy's values for 0 and INT_MIN / -1."""

DTYPES: dict[str, type[np.signedinteger[Any]]] = {
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "index": np.int64,
}
"""The element type of a kernel: `index` divides i64 values cast to index."""

MODES: dict[str, tuple[str, dict[str, Any], int]] = {
    "dense": ("", {"parallelization_strategy": "none"}, 0),
    "sparse": (", #CSR", {"parallelization_strategy": "none"}, 0),
    "vector": (", #CSR", {"vl": 8, "parallelization_strategy": "none"}, 0),
    "vector-threads": (", #CSR", {"vl": 4}, 3),
}
"""How a kernel runs: A's encoding, `xsparse.compile`'s options, thread count
(grain 0: every parallel loop on the pool). On threads with `vl`, divsi and
divui run in vector loops, the other ops in scalar loops, in the outlined
loop body (`test_threaded_kernel_divides_in_vectors`)."""

KERNEL = """
#CSR = #sparse_tensor.encoding<{{ map = (i, j) -> (i : dense, j : compressed) }}>
#map = affine_map<(i, j) -> (i, j)>
func.func @divide(%a: tensor<?x?x{t}{enc}>, %b: tensor<?x?x{t}>,
                  %x: tensor<?x?x{t}>) -> tensor<?x?x{t}> {{
  %0 = linalg.generic {{indexing_maps = [#map, #map, #map],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%a, %b : tensor<?x?x{t}{enc}>, tensor<?x?x{t}>) outs(%x : tensor<?x?x{t}>) {{
  ^bb0(%p: {t}, %q: {t}, %o: {t}):
{body}
    linalg.yield %r : {t}
  }} -> tensor<?x?x{t}>
  return %0 : tensor<?x?x{t}>
}}
"""

BODY = "    %r = arith.{op} %p, %q : {t}"
INDEX_BODY = """\
    %pi = arith.index_cast %p : i64 to index
    %qi = arith.index_cast %q : i64 to index
    %ri = arith.{op} %pi, %qi : index
    %r = arith.index_cast %ri : index to i64"""


def kernel_text(op: str, dtype: str, enc: str) -> str:
    """`x = a <op> b` elementwise on matrices of `dtype`, `a` encoded by `enc`."""
    if dtype == "index":
        return KERNEL.format(t="i64", enc=enc, body=INDEX_BODY.format(op=op))
    return KERNEL.format(t=dtype, enc=enc, body=BODY.format(op=op, t=dtype))


def operands(dtype: str) -> tuple[Array, Array]:
    """(a, b): every pair of edge values (INT_MIN, INT_MAX, -1, 0, 1, ...) once,
    then random rows whose divisors are 0 or -1 in about a third of the
    places; 13 columns, so that vector loops have a partial last step."""
    kind = DTYPES[dtype]
    info = np.iinfo(kind)
    edges = [info.min, info.min + 1, info.max, -1, 0, 1, 2, -2, 7, -7, 100]
    edges = [int(kind(v)) for v in edges]
    divisors = [0, -1, 1, -2, 3, info.min, info.max, 0, -1, 5, -5, 0, 2]
    rows = [[v] * len(divisors) for v in edges]
    a = np.array(rows, kind)
    b = np.array([divisors] * len(edges), kind)
    rng = np.random.default_rng(37)
    random_a = rng.integers(info.min, info.max, (20, 13), dtype=kind, endpoint=True)
    random_a[rng.random((20, 13)) < 0.1] = info.min
    random_b = rng.integers(-4, 5, (20, 13), dtype=kind)
    random_b[rng.random((20, 13)) < 0.1] = -1
    return np.vstack([a, random_a]), np.vstack([b, random_b])


def check(mode: str, dtype: str) -> list[str]:
    """Every op of `NUMPY_DIVISIONS` on `operands(dtype)` run as `mode` says:
    the ops whose results differ from numpy's (with a sample)."""
    import xsparse
    from xsparse import SparseTensor
    from xsparse.testing.kernels import on_threads

    enc, options, threads = MODES[mode]
    a, b = operands(dtype)
    encoding = (
        "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>"
    )
    wrong: list[str] = []
    for op, numpy_op in NUMPY_DIVISIONS.items():
        kernel = xsparse.compile(kernel_text(op, dtype, enc), **options)
        sparse_a = SparseTensor.from_dense(a, encoding) if enc else a
        with on_threads(threads):
            result = kernel(sparse_a, b, np.zeros_like(a))
        expected = numpy_op(a, b)
        if not np.array_equal(result, expected):
            (i, j), *_ = np.argwhere(result != expected)
            wrong.append(
                f"{op}: {a[i, j]} by {b[i, j]} gave {result[i, j]},"
                f" numpy {expected[i, j]}"
            )
    return wrong


def run_in_child(code: str) -> str:
    """Run `code` (this module imported as `t`) in a child process under
    `CHILD_MEMORY`; its stdout, after asserting a clean exit (-8: SIGFPE)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY, CHILD_MEMORY))

    script = (
        f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "import test_integer_division as t\n" + code
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=limit,
    )
    assert run.returncode == 0, f"exit {run.returncode} (-8: SIGFPE)\n{run.stderr}"
    return run.stdout


@pytest.mark.parametrize("dtype", sorted(DTYPES))
@pytest.mark.parametrize("mode", sorted(MODES))
def test_division_by_zero_and_overflow(mode: str, dtype: str) -> None:
    """divsi, remsi, floordivsi, ceildivsi, divui, remui, ceildivui by 0, -1
    and others, INT_MIN and INT_MAX divided, as numpy computes them."""
    output = run_in_child(f"print(t.check({mode!r}, {dtype!r}))")
    assert output.strip() == "[]", output


def test_operands_hit_every_case() -> None:
    """The operands divide by 0, and INT_MIN by -1, in every dtype."""
    for dtype in DTYPES:
        a, b = operands(dtype)
        info = np.iinfo(DTYPES[dtype])
        assert ((a != 0) & (b == 0)).sum() > 20
        assert ((a == info.min) & (b == -1)).sum() > 2


def _llvm_ir(source: str, **options: Any) -> str:
    from xsparse.backend.lowering import lower_to_llvm
    from xsparse.diagnostics import parse_module
    from xsparse.dialect_registry import make_context
    from xsparse.transforms.pipeline import sparsifier_passes

    ctx = make_context()
    module = parse_module(ctx, source, "<source>")
    for p in sparsifier_passes(**options):
        p.apply(ctx, module)
    return lower_to_llvm(module).llvm_ir()


@pytest.mark.parametrize("op", ["divsi", "divui"])
def test_vector_division_is_guarded(op: str) -> None:
    """The vector loop divides 8 lanes at once by a divisor with 1 in the
    lanes that are 0 (or -1): the `vector` mode above checks vector code."""
    ir = _llvm_ir(kernel_text(op, "i32", ", #CSR"), vl=8)
    division = re.search(r"= (sdiv|udiv) <8 x i32> %\S+, (%\S+)", ir)
    assert division is not None
    divisor = re.escape(division.group(2))
    assert re.search(rf"{divisor} = select <8 x i1> %\S+, <8 x i32> splat", ir)


def test_threaded_kernel_divides_in_vectors() -> None:
    """`vector-threads` kernels run their rows on the pool (the outlined body
    calls `xsparse_parallel_for`) and divide in vectors and in scalars."""
    ir = _llvm_ir(
        kernel_text("divsi", "i16", ", #CSR"),
        vl=4,
        parallelization_strategy="any-storage-outer-loop",
    )
    assert "xsparse_parallel_for" in ir
    assert re.search(r"= sdiv <4 x i16>", ir)
    assert re.search(r"= sdiv i16", ir)  # the scalar epilogue


CONSTANT_KERNEL = """
func.func @divide(%a: tensor<?xi32>, %x: tensor<?xi32>) -> tensor<?xi32> {{
  %c = arith.constant {divisor} : i32
  %0 = linalg.generic {{indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}}
      ins(%a : tensor<?xi32>) outs(%x : tensor<?xi32>) {{
  ^bb0(%p: i32, %o: i32):
    %r = arith.{op} %p, %c : i32
    linalg.yield %r : i32
  }} -> tensor<?xi32>
  return %0 : tensor<?xi32>
}}
"""


def check_constant_divisors() -> list[str]:
    """Every op by the constants 0, -1 and 3 (folded by LLVM): numpy's values."""
    import xsparse

    a = np.array([-(2**31), 2**31 - 1, -7, -1, 0, 1, 7], np.int32)
    wrong = []
    for op, numpy_op in NUMPY_DIVISIONS.items():
        for divisor in (0, -1, 3):
            kernel = xsparse.compile(CONSTANT_KERNEL.format(op=op, divisor=divisor))
            result = kernel(a, np.zeros_like(a))
            expected = numpy_op(a, np.full_like(a, divisor))
            if not np.array_equal(result, expected):
                wrong.append(f"{op} by {divisor}: {result} (numpy {expected})")
    return wrong


def test_constant_divisors() -> None:
    """A division by the constant 0 or -1 is guarded (and folded), not UB."""
    assert run_in_child("print(t.check_constant_divisors())").strip() == "[]"


@pytest.mark.parametrize(
    ("op", "divisor", "guarded"),
    [
        ("divsi", 3, False),
        ("divsi", -3, False),
        ("divsi", -1, True),
        ("divsi", 0, True),
        ("divui", -1, False),
        ("divui", 0, True),
        ("remsi", 7, False),
        ("remui", 7, False),
    ],
)
def test_constant_divisor_guard(op: str, divisor: int, guarded: bool) -> None:
    """Only a constant divisor of 0 (or -1, when signed) is guarded: by any
    other constant, convert-to-llvm emits MLIR 22's bare division."""
    from xdsl.dialects import llvm

    from xsparse.diagnostics import parse_module
    from xsparse.dialect_registry import make_context
    from xsparse.transforms.convert_to_llvm import ConvertToLLVMPass

    source = f"""
    func.func @f(%a: i32) -> i32 {{
      %c = arith.constant {divisor} : i32
      %r = arith.{op} %a, %c : i32
      return %r : i32
    }}"""
    ctx = make_context()
    module = parse_module(ctx, source, "<source>")
    ConvertToLLVMPass().apply(ctx, module)
    ops = list(module.walk())
    assert any(isinstance(o, llvm.SelectOp) for o in ops) == guarded
    assert any(isinstance(o, llvm.ICmpOp) for o in ops) == guarded
