"""Deep and large IR (issue 37, item 7): nesting 10^4 levels deep, a 10^4-op
kernel body, quoted symbol names, undecodable text, unbounded input and a
module without a function give results or located errors, never a
RecursionError, a traceback or a crash. The CLI runs in a child process
under an address-space limit."""

from __future__ import annotations

import io
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError

import xsparse
from xsparse import SparseTensor, XSparseError
from xsparse.diagnostics import MAX_NESTING, LocatingParser
from xsparse.dialect_registry import make_context
from xsparse.tools.mlir_target import BulkPrinter

SV = "#sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>"
ADDRESS_SPACE = 6 << 30
"""The child's address space: the deep-stack thread reserves 1 GiB of it."""


def limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def xsparse_opt(
    args: list[str], stdin: bytes | None = None, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    """`xsparse-opt ARGS` in a child process with limited memory."""
    code = "import sys; from xsparse.tools.opt import main; sys.exit(main())"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        input=stdin.decode("latin-1") if stdin is not None else None,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=limit_memory,
    )


def nested_regions(depth: int) -> str:
    body = "scf.execute_region {\n" * depth + "scf.yield\n}\n" * depth
    return f"func.func @f() {{\n{body}return\n}}\n"


def nested_brackets(depth: int) -> str:
    nest = "[" * depth + "]" * depth
    return f"func.func @f() attributes {{a = {nest}}} {{\n  return\n}}\n"


def plain_chain(length: int) -> str:
    """A function of `length` additions, each of the one before."""
    lines = ["func.func @f(%a: f64) -> f64 {", "  %v0 = arith.addf %a, %a : f64"]
    lines += [f"  %v{i} = arith.addf %v{i - 1}, %a : f64" for i in range(1, length)]
    return "\n".join([*lines, f"  return %v{length - 1} : f64", "}", ""])


def sparse_chain(length: int) -> str:
    """x = chain(a, b) over a sparse vector a: t0 = a * b, then alternately
    t + a and t * a, `length` ops in all."""
    head = """#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#ew = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
func.func @kernel(%a: tensor<?xf64, #SV>, %b: tensor<?xf64>, %x: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #ew ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64>) outs(%x : tensor<?xf64>) {
  ^bb0(%av: f64, %bv: f64, %xv: f64):
    %t0 = arith.mulf %av, %bv : f64
"""
    ops = [
        f"    %t{i} = arith.{'addf' if i % 2 else 'mulf'} %t{i - 1}, %av : f64\n"
        for i in range(1, length)
    ]
    tail = f"""    linalg.yield %t{length - 1} : f64
  }} -> tensor<?xf64>
  return %0 : tensor<?xf64>
}}
"""
    return head + "".join(ops) + tail


def numpy_chain(a: np.ndarray, b: np.ndarray, length: int) -> np.ndarray:
    t = a * b
    for i in range(1, length):
        t = t + a if i % 2 else t * a
    return t


def test_opt_nests_regions_10k_deep(tmp_path: Path) -> None:
    # mlir-opt-22 overflows its stack on this input (SIGSEGV).
    path = tmp_path / "regions.mlir"
    path.write_text(nested_regions(10_000))
    result = xsparse_opt([str(path), "-o", str(tmp_path / "out.mlir")])
    assert result.returncode == 0, result.stderr[-2000:]
    printed = (tmp_path / "out.mlir").read_text()
    assert printed.count("scf.execute_region {") == 10_000


def test_opt_nests_brackets_10k_deep(tmp_path: Path) -> None:
    path = tmp_path / "brackets.mlir"
    path.write_text(nested_brackets(10_000))
    result = xsparse_opt([str(path)])
    assert result.returncode == 0, result.stderr[-2000:]
    assert "[" * 10_000 + "]" * 10_000 in result.stdout


def test_opt_refuses_nesting_past_its_limit(tmp_path: Path) -> None:
    depth = 2 * MAX_NESTING
    path = tmp_path / "too-deep.mlir"
    path.write_text(nested_brackets(depth))
    result = xsparse_opt([str(path)])
    assert result.returncode == 1
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{path}:1:")
    assert "error: nesting too deep for xsparse" in first
    assert "Traceback" not in result.stderr


def test_compile_nests_brackets_10k_deep() -> None:
    kernel = xsparse.compile(nested_brackets(10_000))
    assert kernel() is None


def test_compile_nests_regions() -> None:
    # The passes take time quadratic in the depth of regions: 500 levels
    # here (10^4 parse and print: test_opt_nests_regions_10k_deep).
    source = "func.func @f(%a: f64) -> f64 {\n"
    source += "%r = scf.execute_region -> f64 {\n" * 500
    source += "scf.yield %a : f64\n}\n" + "scf.yield %r : f64\n}\n" * 499
    source += "%s = arith.addf %r, %a : f64\nreturn %s : f64\n}\n"
    assert xsparse.compile(source)(1.5) == 3.0


def test_kernel_body_of_10k_ops_against_numpy() -> None:
    length = 10_000
    rng = np.random.default_rng(37)
    n = 64
    dense_a = np.where(rng.random(n) < 0.4, rng.uniform(0.1, 0.9, n), 0.0)
    b = rng.uniform(-1.0, 1.0, n)
    kernel = xsparse.compile(sparse_chain(length))
    a = SparseTensor.from_dense(dense_a, SV)
    result = kernel(a, b, np.zeros(n))
    np.testing.assert_allclose(result, numpy_chain(dense_a, b, length), rtol=1e-12)


def test_quoted_function_names_reach_llvm() -> None:
    source = (Path(__file__).parent / "kernels" / "sparse_sub_exp.mlir").read_text()
    quoted = source.replace("@kernel", r'@"sub exp \22q\22 \\ x"')
    kernel = xsparse.compile(quoted)
    assert kernel.name == 'sub exp "q" \\ x'
    a = np.array([0.0, 1.0, 0.0, 2.0])
    b = np.array([1.0, 0.0, 0.0, 3.0])
    sa, sb = (SparseTensor.from_dense(v, SV) for v in (a, b))
    np.testing.assert_allclose(kernel(sa, sb, np.zeros(4)), np.exp(a - b))
    plain = 'func.func @"my kernel"(%a: f64) -> f64 {\n  %0 = arith.addf %a, %a : f64\n  return %0 : f64\n}\n'
    assert xsparse.compile(plain)(2.0) == 4.0


def test_opt_prints_quoted_names_in_llvm_ir(tmp_path: Path) -> None:
    path = tmp_path / "quoted.mlir"
    path.write_text('func.func @"my kernel"(%a: f64) -> f64 {\n  return %a : f64\n}\n')
    result = xsparse_opt([str(path), "--sparsifier", "-t", "llvm"])
    assert result.returncode == 0, result.stderr
    assert 'define double @"my kernel"(double' in result.stdout


def test_non_ascii_entry_name_is_a_located_error() -> None:
    source = 'func.func @"k\u00e9rnel"(%a: f64) -> f64 {\n  return %a : f64\n}\n'
    with pytest.raises(XSparseError, match=r"^<source>:1:1: error: .*not ASCII"):
        xsparse.compile(source)


def test_opt_locates_undecodable_bytes(tmp_path: Path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_bytes(b"func.func @f() {\n  %x = \xff\n}\n")
    result = xsparse_opt([str(path)])
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert lines[0] == f"{path}:2:8: error: invalid UTF-8 byte 0xff in the input"
    assert lines[2] == "       ^"


def test_compile_locates_a_lone_surrogate() -> None:
    source = "func.func @f() {\n  return // \ud800\n}\n"
    with pytest.raises(XSparseError) as caught:
        xsparse.compile(source)
    first = str(caught.value).splitlines()[0]
    assert first == (
        "<source>:2:13: error: character U+D800 (a lone surrogate) cannot be "
        "encoded as UTF-8"
    )


def test_opt_refuses_unbounded_input_on_one_line() -> None:
    start = time.monotonic()
    result = xsparse_opt(["/dev/zero"], timeout=120)
    assert time.monotonic() - start < 120
    assert result.returncode == 1
    assert (
        result.stderr
        == "xsparse-opt: error: input '/dev/zero' is larger than 512 MiB\n"
    )


@pytest.mark.parametrize(
    ("source", "where"),
    [("", "1:1"), ("module {\n}\n", "3:1"), ("func.func private @g()", "1:23")],
)
def test_no_function_is_located_at_the_end(source: str, where: str) -> None:
    with pytest.raises(XSparseError) as caught:
        xsparse.compile(source)
    first = str(caught.value).splitlines()[0]
    assert (
        first == f"<source>:{where}: error: no public function with a body to compile"
    )


def test_opt_reads_a_10k_op_function_in_bounded_time(tmp_path: Path) -> None:
    # mlir-opt-22 takes 1.8 s here; tools/bench_parse.py measures 10^5 ops.
    path = tmp_path / "chain.mlir"
    path.write_text(plain_chain(10_000))
    start = time.monotonic()
    result = xsparse_opt([str(path), "-o", str(tmp_path / "out.mlir")])
    assert result.returncode == 0, result.stderr
    assert time.monotonic() - start < 120
    assert (tmp_path / "out.mlir").read_text().count("arith.addf") == 10_000


@pytest.mark.parametrize(
    "data", [b"", b"plain text", b'"quoted" \\ back', bytes(range(256)), b"\n\t\x7f"]
)
def test_bulk_printer_writes_bytes_as_xdsl_does(data: bytes) -> None:
    ours, theirs = io.StringIO(), io.StringIO()
    BulkPrinter(stream=ours).print_bytes_literal(data)
    Printer(stream=theirs).print_bytes_literal(data)
    assert ours.getvalue() == theirs.getvalue()


def test_opt_prints_a_large_string_attribute_quickly(tmp_path: Path) -> None:
    # 8 MB: xDSL's printer takes about 5 s (a byte at a time); mlir-opt-22 0.2 s.
    path = tmp_path / "string.mlir"
    text = "a\\22" * (2 << 20)
    path.write_text(f'func.func @f() attributes {{s = "{text}"}} {{\n  return\n}}\n')
    start = time.monotonic()
    result = xsparse_opt([str(path), "-o", str(tmp_path / "out.mlir")])
    assert result.returncode == 0, result.stderr
    assert time.monotonic() - start < 30
    assert f's = "{text}"' in (tmp_path / "out.mlir").read_text()


@pytest.mark.parametrize(
    ("elements", "type"),
    [
        ([f"{i % 997}.25" for i in range(3000)], "tensor<3000xf64>"),
        ([f"-{i}.5e-3" for i in range(2000)], "tensor<2000xf32>"),
        ([f"-{i}e-3" for i in range(2000)], "tensor<2000xf32>"),  # no MLIR float
        ([str(i - 1500) for i in range(3000)], "tensor<3000xi32>"),
        ([str(i % 128) for i in range(2000)], "vector<2000xi8>"),
        ([str(i % 256) for i in range(2000)], "tensor<2000xi8>"),  # xDSL's path
        (["1.5"] * 2000, "tensor<2000xi64>"),  # an error, from xDSL's path
        (["1"] * 2000, "tensor<1999xf64>"),  # an error, from xDSL's path
    ],
)
def test_large_dense_literals_read_as_xdsl_reads_them(
    elements: list[str], type: str
) -> None:
    text = f"%c = arith.constant dense<[{', '.join(elements)}]> : {type}\n"
    ctx = make_context()
    try:
        expected = str(Parser(ctx, text).parse_module())
    except Exception as e:
        expected = type_name = e.__class__.__name__
    else:
        type_name = ""
    try:
        module = LocatingParser(ctx, text).parse_module()
    except ParseError as e:
        assert type_name, e
    else:
        assert str(module) == expected
