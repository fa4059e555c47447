"""`convert-to-llvm`: func, arith, cf, scf, memref, jagged, vector, math, complex, affine -> llvm.

Mirrors MLIR's `convert-to-llvm` (with `convert-scf-to-cf`, `lower-affine` and
`convert-vector-to-llvm` folded in). Each source dialect has its own pattern
set (one module each); the per-dialect passes run one set alone and leave
`builtin.unrealized_conversion_cast` ops at the boundary with unconverted IR,
as MLIR's do. The index type becomes i64; memrefs become MLIR's descriptors.

Every pattern is matched by one dict look-up on the op's type and applied
once, in a single walk: no greedy fixpoint, no generic type conversion.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import RewritePattern

from xsparse.transforms.convert_to_llvm.affine import lower_affine
from xsparse.transforms.convert_to_llvm.allocation_failures import (
    guard_allocations,
    unmark_allocations,
)
from xsparse.transforms.convert_to_llvm.arith import ARITH_PATTERNS
from xsparse.transforms.convert_to_llvm.cf import CF_PATTERNS
from xsparse.transforms.convert_to_llvm.common import (
    ToLLVMPattern,
    apply_once,
    reconcile_casts,
)
from xsparse.transforms.convert_to_llvm.complex import COMPLEX_PATTERNS, expand_complex
from xsparse.transforms.convert_to_llvm.func import FUNC_PATTERNS
from xsparse.transforms.convert_to_llvm.math import MATH_PATTERNS
from xsparse.transforms.convert_to_llvm.memref import MEMREF_PATTERNS
from xsparse.transforms.convert_to_llvm.scf import lower_scf_to_cf
from xsparse.transforms.convert_to_llvm.threads import outline_parallel_loops
from xsparse.transforms.convert_to_llvm.vector import VECTOR_PATTERNS


def _built(
    pattern_types: Sequence[type[ToLLVMPattern]], *, partial: bool
) -> list[RewritePattern]:
    return [p(partial=partial) for p in pattern_types]


def _run(module: ModuleOp, patterns: Sequence[RewritePattern], *, strict: bool) -> None:
    apply_once(module, patterns)
    reconcile_casts(module, strict=strict)


@dataclass(frozen=True)
class ConvertToLLVMPass(ModulePass):
    """Lower func/arith/cf/scf/memref/vector/math/affine to the llvm dialect.

    `threads`: the outermost `scf.parallel` loops call xsparse's thread
    runtime (`threads.outline_parallel_loops`); off by default, as in MLIR,
    where `convert-scf-to-cf` makes them sequential and the output runs in
    `mlir-runner`. `allocation_checks`: a failed heap allocation reports a
    MemoryError through xsparse's runtime and ends the call
    (`allocation_failures.guard_allocations`); off by default, for the
    same reason (MLIR leaves `malloc`'s result unchecked). Allocation sizes
    are checked for overflow either way."""

    name = "convert-to-llvm"

    threads: bool = False
    allocation_checks: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # imported here: lower_jagged builds its patterns on this package's common
        from xsparse.transforms.structured.lower_jagged import JAGGED_PATTERNS

        lower_affine(op)
        if self.threads:
            outline_parallel_loops(op)
        lower_scf_to_cf(op)
        expand_complex(op)
        _run(
            op,
            [
                *_built(
                    ARITH_PATTERNS + MATH_PATTERNS + MEMREF_PATTERNS + COMPLEX_PATTERNS,
                    partial=False,
                ),
                *JAGGED_PATTERNS,
                *_built(VECTOR_PATTERNS + CF_PATTERNS + FUNC_PATTERNS, partial=False),
            ],
            strict=True,
        )
        if self.allocation_checks:
            guard_allocations(op)
        else:
            unmark_allocations(op)


@dataclass(frozen=True)
class _OneDialectToLLVMPass(ModulePass):
    """Only the patterns of one source dialect of `convert-to-llvm` (the rest
    of the IR stays as it is, joined by casts)."""

    patterns: ClassVar[Sequence[type[ToLLVMPattern]]]

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _run(op, _built(self.patterns, partial=True), strict=False)


@dataclass(frozen=True)
class ConvertComplexToStandardPass(ModulePass):
    """Complex ops -> arith and math on their parts (MLIR's
    `convert-complex-to-standard`; `complex.expand_complex`)."""

    name = "convert-complex-to-standard"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        expand_complex(op)


@dataclass(frozen=True)
class ConvertComplexToLLVMPass(_OneDialectToLLVMPass):
    """Only the complex patterns of `convert-to-llvm` (`complex.create`, `re`
    and `im`; run `convert-complex-to-standard` first for the others)."""

    name = "convert-complex-to-llvm"
    patterns = COMPLEX_PATTERNS


@dataclass(frozen=True)
class ConvertArithToLLVMPass(_OneDialectToLLVMPass):
    """Only the arith patterns of `convert-to-llvm`."""

    name = "convert-arith-to-llvm"
    patterns = ARITH_PATTERNS


@dataclass(frozen=True)
class ConvertFuncToLLVMPass(_OneDialectToLLVMPass):
    """Only the func patterns of `convert-to-llvm`."""

    name = "convert-func-to-llvm"
    patterns = FUNC_PATTERNS


@dataclass(frozen=True)
class ConvertCfToLLVMPass(_OneDialectToLLVMPass):
    """Only the cf patterns of `convert-to-llvm`."""

    name = "convert-cf-to-llvm"
    patterns = CF_PATTERNS


@dataclass(frozen=True)
class FinalizeMemRefToLLVMPass(_OneDialectToLLVMPass):
    """Only the memref patterns of `convert-to-llvm`."""

    name = "finalize-memref-to-llvm"
    patterns = MEMREF_PATTERNS


@dataclass(frozen=True)
class ConvertVectorToLLVMPass(_OneDialectToLLVMPass):
    """Only the vector patterns of `convert-to-llvm`."""

    name = "convert-vector-to-llvm"
    patterns = VECTOR_PATTERNS


@dataclass(frozen=True)
class ConvertMathToLLVMPass(_OneDialectToLLVMPass):
    """Only the math patterns of `convert-to-llvm`."""

    name = "convert-math-to-llvm"
    patterns = MATH_PATTERNS


__all__ = [
    "ConvertArithToLLVMPass",
    "ConvertCfToLLVMPass",
    "ConvertComplexToLLVMPass",
    "ConvertComplexToStandardPass",
    "ConvertFuncToLLVMPass",
    "ConvertMathToLLVMPass",
    "ConvertToLLVMPass",
    "ConvertVectorToLLVMPass",
    "FinalizeMemRefToLLVMPass",
]
