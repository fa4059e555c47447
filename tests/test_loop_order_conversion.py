"""Kernels whose sparse operands' level orders admit no loop order (a CSR
matrix read transposed into a CSR result, CSR .* CSR^T, a 3-D COO tensor read
in a rotated order): `sparse-reinterpret-map` converts the fewest sparse
inputs to levels in an order the others admit (MLIR 22's resolveCycle), the
kernel reads the copies and frees them. Generated from a few formats and index
orders, compiled with xsparse.compile and checked against numpy on random data
(fixed seeds); the same products through xsparse.einsum."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse
from xsparse import SparseTensor
from xsparse.diagnostics import parse_module
from xsparse.dialect_registry import make_context
from xsparse.dialects.sparse_tensor.ops_conversion import ConvertOp
from xsparse.dialects.upstream.bufferization import DeallocTensorOp
from xsparse.transforms.sparsifier.reinterpret_map import SparseReinterpretMapPass

LOOPS = "ijkl"

MAPS = {
    "CSR": "(a, b) -> (a : dense, b : compressed)",
    "CSC": "(a, b) -> (b : dense, a : compressed)",
    "DCSR": "(a, b) -> (a : compressed, b : compressed)",
    "DCSC": "(a, b) -> (b : compressed, a : compressed)",
    "COO": "(a, b) -> (a : compressed(nonunique), b : singleton)",
    "CSR32": "(a, b) -> (a : dense, b : compressed), posWidth = 32, crdWidth = 32",
    "CSF": "(a, b, c) -> (a : compressed, b : compressed, c : compressed)",
    "COO3": "(a, b, c) -> (a : compressed(nonunique), b : singleton(nonunique), c : singleton)",
    "DCC": "(a, b, c) -> (a : dense, b : compressed, c : compressed)",
}
ROW_MAJOR = ["CSR", "DCSR", "COO", "CSR32"]
COLUMN_MAJOR = ["CSC", "DCSC"]


def encoding(name: str) -> str:
    return f"#sparse_tensor.encoding<{{ map = {MAPS[name]} }}>"


@dataclass(frozen=True)
class Access:
    """One operand: its format (None: dense) and the loops of its dimensions."""

    format: str | None
    loops: str


@dataclass(frozen=True)
class Kernel:
    """`out(loops) = op(inputs...)` over static `sizes` (one per loop), into a
    new sparse tensor or a dense one."""

    inputs: tuple[Access, ...]
    out: Access
    op: str
    sizes: tuple[int, ...]

    def shape(self, access: Access) -> tuple[int, ...]:
        return tuple(self.sizes[LOOPS.index(x)] for x in access.loops)

    def tensor_type(self, access: Access) -> str:
        dims = "x".join(str(n) for n in self.shape(access))
        enc = f", {encoding(access.format)}" if access.format else ""
        return f"tensor<{dims}xf64{enc}>"

    def text(self) -> str:
        """The kernel as an MLIR function @f: the inputs combined by `op`
        (`copy`: the one input), summed over the loops `out` lacks."""
        n = len(self.sizes)
        loops = ", ".join(LOOPS[:n])

        def amap(access: Access) -> str:
            return f"affine_map<({loops}) -> ({', '.join(access.loops)})>"

        maps = ", ".join(amap(a) for a in (*self.inputs, self.out))
        its = ", ".join(
            '"parallel"' if x in self.out.loops else '"reduction"' for x in LOOPS[:n]
        )
        names = [f"%x{k}" for k in range(len(self.inputs))]
        in_types = [self.tensor_type(a) for a in self.inputs]
        out_type = self.tensor_type(self.out)
        params = ", ".join(f"{v}: {t}" for v, t in zip(names, in_types, strict=True))
        lines = []
        for k in range(1, len(self.inputs)):
            lhs = "%v0" if k == 1 else f"%r{k - 1}"
            lines.append(f"    %r{k} = arith.{self.op} {lhs}, %v{k} : f64")
        value = f"%r{len(self.inputs) - 1}" if lines else "%v0"
        if len(self.out.loops) < n:
            lines.append(f"    %s = arith.addf %o, {value} : f64")
            value = "%s"
        lines.append(f"    linalg.yield {value} : f64")
        block_args = ", ".join(f"%v{k}: f64" for k in range(len(self.inputs)))
        body = "\n".join(lines)
        return f"""
func.func @f({params}) -> {out_type} {{
  %init = tensor.empty() : {out_type}
  %0 = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{its}]}} ins({", ".join(names)} : {", ".join(in_types)}) outs(%init : {out_type}) {{
  ^bb0({block_args}, %o: f64):
{body}
  }} -> {out_type}
  return %0 : {out_type}
}}
"""

    def expected(self, arrays: list[np.ndarray[Any, Any]]) -> np.ndarray[Any, Any]:
        if self.op == "addf":  # every input on every loop: no reduction
            return sum(
                np.einsum(f"{a.loops}->{self.out.loops}", x)
                for a, x in zip(self.inputs, arrays, strict=True)
            )
        subscripts = ",".join(a.loops for a in self.inputs)
        return np.einsum(f"{subscripts}->{self.out.loops}", *arrays)


def random_array(
    rng: np.random.Generator, shape: tuple[int, ...], density: float
) -> np.ndarray[Any, Any]:
    """Small integers (exact sums) with a zero row where the shape allows."""
    array = rng.integers(1, 9, shape).astype(np.float64)
    array[rng.random(shape) >= density] = 0
    if shape[0] > 2:
        array[1] = 0
    return array


def copies_made(kernel: Kernel) -> int:
    """How many inputs sparse-reinterpret-map converts (each copy freed)."""
    ctx = make_context()
    module = parse_module(ctx, kernel.text())
    SparseReinterpretMapPass().apply(ctx, module)
    ops = list(module.walk())
    converts = [op for op in ops if isinstance(op, ConvertOp)]
    frees = [op for op in ops if isinstance(op, DeallocTensorOp)]
    assert [f.tensor for f in frees] == [c.dest for c in converts]
    return len(converts)


_compiled: dict[Kernel, Any] = {}


def run(kernel: Kernel, seed: int, density: float = 0.35, copies: int = 1) -> None:
    """Compile (once; `copies` inputs must be converted), call on random
    operands, compare with numpy; a sparse result must also be valid storage."""
    if kernel not in _compiled:
        assert copies_made(kernel) == copies
        _compiled[kernel] = xsparse.compile(kernel.text(), entry="f")
    rng = np.random.default_rng(seed)
    arrays = [random_array(rng, kernel.shape(a), density) for a in kernel.inputs]
    args = [
        SparseTensor.from_dense(x, encoding(a.format)) if a.format else x
        for a, x in zip(kernel.inputs, arrays, strict=True)
    ]
    result = _compiled[kernel](*args)
    if kernel.out.format is not None:
        assert isinstance(result, SparseTensor)
        result.validate()
        result = result.to_dense()
    np.testing.assert_array_equal(np.asarray(result), kernel.expected(arrays))


TRANSPOSES = [
    (src, dst)
    for group in (ROW_MAJOR, COLUMN_MAJOR)
    for src in group
    for dst in group
    if not (src == "CSR32" and dst == "CSR32")
]


@pytest.mark.parametrize(
    "src, dst", TRANSPOSES, ids=[f"{a}-{b}" for a, b in TRANSPOSES]
)
def test_transpose_into_the_same_order(src: str, dst: str) -> None:
    """`out(i,j) = A(j,i)` with A and out both row-major (or both column-major):
    A's copy is stored in the other order."""
    kernel = Kernel((Access(src, "ji"),), Access(dst, "ij"), "copy", (6, 9))
    for seed in range(3):
        run(kernel, seed)


@pytest.mark.parametrize("out", [None, "CSR", "DCSR"])
@pytest.mark.parametrize("op", ["mulf", "addf"])
def test_csr_with_csr_transposed(op: str, out: str | None) -> None:
    """`out(i,j) = A(i,j) op B(j,i)`, A and B CSR: one of them is converted
    (intersection and union; dense and sparse results)."""
    kernel = Kernel(
        (Access("CSR", "ij"), Access("CSR", "ji")), Access(out, "ij"), op, (7, 7)
    )
    for seed in range(3):
        run(kernel, seed)


def test_two_inputs_transposed() -> None:
    """`out(i,j) = A(j,i) + B(j,i)` into CSR: no single copy breaks both
    cycles (MLIR 22 refuses); both inputs are converted."""
    kernel = Kernel(
        (Access("CSR", "ji"), Access("DCSR", "ji")), Access("CSR", "ij"), "addf", (5, 8)
    )
    for seed in range(3):
        run(kernel, seed, copies=2)


def test_conversion_that_keeps_insertion_in_order() -> None:
    """MTTKRP into DCSC, `out(i,j) = sum_kl A(i,k,l) B(k,j) C(l,j)`: copying A
    would put the reductions first, which insertion into the result cannot
    take; B is copied instead (MLIR 22 converts A and gives up)."""
    kernel = Kernel(
        (Access("DCC", "ikl"), Access("CSR", "kj"), Access(None, "lj")),
        Access("DCSC", "ij"),
        "mulf",
        (4, 5, 3, 6),
    )
    for seed in range(2):
        run(kernel, seed, density=0.5)


@pytest.mark.parametrize("src", ["COO3", "CSF", "DCC"])
@pytest.mark.parametrize("loops", ["kij", "jki", "ikj"])
def test_rotated_3d(src: str, loops: str) -> None:
    """`out(i,j,k) = A(<loops>)` with A and out in the same 3-D format: A's
    copy stores its dimensions in the result's order."""
    kernel = Kernel((Access(src, loops),), Access(src, "ijk"), "copy", (3, 4, 5))
    for seed in range(2):
        run(kernel, seed, density=0.3)


def test_empty_and_full_operands() -> None:
    """All-zero and all-nonzero inputs go through the copy unchanged."""
    kernel = Kernel((Access("DCSR", "ji"),), Access("DCSR", "ij"), "copy", (4, 6))
    run(kernel, 0, density=0.0)
    run(kernel, 1, density=1.1)


@pytest.mark.parametrize(
    "subscripts, fmt",
    [("ij->ji", "csr"), ("ij,ji->ij", "csr"), ("ij,ji->ij", "dense")],
)
def test_einsum_same_products(subscripts: str, fmt: str) -> None:
    """The same kernels through the Python API (its front end converts the
    operand itself) agree with numpy."""
    rng = np.random.default_rng(5)
    arrays = [
        random_array(rng, (6, 6), 0.4) for _ in subscripts.split("->")[0].split(",")
    ]
    matrices = [sp.csr_matrix(x) for x in arrays]
    result = xsparse.einsum(subscripts, *matrices, format=fmt)
    dense = result.toarray() if sp.issparse(result) else np.asarray(result)
    np.testing.assert_array_equal(dense, np.einsum(subscripts, *arrays))
